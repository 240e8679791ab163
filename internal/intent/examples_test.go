package intent

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestContractExamples runs every example an intent contract states: an
// accepted text gives exactly one intent with exactly the stated args, and a
// declined text gives no intent and, when stated, that reason.
func TestContractExamples(t *testing.T) {
	r := mustLoad(t)
	for _, tool := range r.Tools() {
		ex := r.Examples(tool)
		if len(ex.Accept) == 0 {
			t.Errorf("%s: the contract states no accepted example", tool)
		}
		for _, c := range ex.Accept {
			checkAccept(t, r, tool, c.Text, c.Args)
		}
		for _, c := range ex.Decline {
			checkDecline(t, r, c.Text, c.Reason)
		}
	}
}

func mustLoad(t testing.TB) *Rules {
	t.Helper()
	r, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func checkAccept(t *testing.T, r *Rules, tool, text string, want map[string]any) {
	t.Helper()
	res, err := r.Recognize(text, nil)
	if err != nil {
		t.Errorf("%q: %v", text, err)
		return
	}
	if len(res.Intents) != 1 || res.Intents[0].Tool != tool || !res.Covered {
		t.Errorf("%q: got %s, want one %s intent, covered", text, show(res), tool)
		return
	}
	if got, w := canon(t, res.Intents[0].Args), canon(t, want); got != w {
		t.Errorf("%q: args %s, want %s", text, got, w)
	}
}

func checkDecline(t *testing.T, r *Rules, text, reason string) {
	t.Helper()
	res, err := r.Recognize(text, nil)
	if err != nil {
		t.Errorf("%q: %v", text, err)
		return
	}
	if len(res.Intents) != 0 || res.Covered {
		t.Errorf("%q: got %s, want no intent", text, show(res))
		return
	}
	if reason != "" && (len(res.Decline) != 1 || res.Decline[0].Reason != reason) {
		t.Errorf("%q: declined %s, want reason %s", text, show(res.Decline), reason)
	}
}

func show(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// canon is v as JSON with numbers as written and keys sorted.
func canon(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var x any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&x); err != nil {
		t.Fatal(err)
	}
	b, _ = json.Marshal(x)
	return string(b)
}
