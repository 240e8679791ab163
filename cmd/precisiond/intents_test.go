package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/precisiond/precisiond/evidence"
)

// TestIntentsAndAnswerCommands: `precisiond intents` prints the recognizer's
// result; `precisiond answer` answers a covered request (one for each of the
// reference's eight tools, in one numbered list), every envelope of which
// `precisiond verify` accepts, and exits 1 with not_covered otherwise.
func TestIntentsAndAnswerCommands(t *testing.T) {
	noEnv := func(string) string { return "" }
	dir := t.TempDir()
	runCmd := func(stdin string, args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		code := run(args, strings.NewReader(stdin), &out, &errb, noEnv)
		return code, out.String(), errb.String()
	}
	code, out, errs := runCmd("", "intents", "Berechne den GGT von 391 und 299.")
	if code != 0 || !strings.Contains(out, `"args":{"a":391,"b":299,"operation":"gcd"}`) || !strings.Contains(out, `"covered":true`) {
		t.Fatalf("intents: exit %d %s %s", code, out, errs)
	}
	code, out, _ = runCmd("Which weekday was 2026-07-29?", "intents", "-")
	if code != 0 || !strings.Contains(out, `"tool":"calendar_facts"`) {
		t.Errorf("intents from stdin: exit %d %s", code, out)
	}
	if code, _, _ := runCmd("", "intents"); code != 2 {
		t.Errorf("intents without TEXT: exit %d, want 2", code)
	}

	list := strings.Join([]string{
		"1. Berechne den GGT von 391 und 299.",
		"2. Rechne 72 km/h exakt in m/s um.",
		"3. Which weekday was 2026-07-29?",
		"4. Bestimme die Zeitfakten für 2026-07-29T12:00:00Z in Europe/Berlin.",
		"5. Konvertiere 2026-10-25T02:30:00 von Europe/Berlin nach UTC mit fold 0.",
		"6. Berechne 19 Prozent von 119.99 EUR mit Scale 2 und Rundung half_up.",
		"7. Berechne die Binomialwahrscheinlichkeit für n=10, k=3, p=1/2 als Dezimalzahl mit Scale 6 und Rundung half_even.",
		`8. Validiere dieses JSON: {"age": 42}`,
	}, "\n")
	code, out, errs = runCmd("", "answer", "--data-dir", dir, list)
	if code != 0 {
		t.Fatalf("answer: exit %d %s %s", code, out, errs)
	}
	v, err := evidence.ParseJSON([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	body := v.(map[string]any)
	answer := body["answer"].(string)
	for _, want := range []string{"1. Der größte gemeinsame Teiler von 391 und 299 ist 23.", "2026-07-29 is a Wednesday", "22.80 EUR", "15/128", "0.117188",
		"2026-07-29T14:00:00+02:00", "JSON-Struktur ist gültig"} {
		if !strings.Contains(answer, want) {
			t.Errorf("the answer lacks %q:\n%s", want, answer)
		}
	}
	results := body["results"].([]any)
	if len(results) != 8 {
		t.Fatalf("%d results, want 8", len(results))
	}
	for i, r := range results {
		b, _ := evidence.Canonical(r)
		if code, out, errs := runCmd(string(b), "verify"); code != 0 {
			t.Errorf("result %d does not verify: exit %d %s %s", i+1, code, out, errs)
		}
	}

	code, out, _ = runCmd("", "answer", "--data-dir", dir, "1. Berechne den GGT von 391 und 299.\n2. Erkläre den euklidischen Algorithmus.")
	if code != 1 || !strings.Contains(out, `"error_code":"not_covered"`) {
		t.Errorf("answer, not covered: exit %d %s", code, out)
	}
}
