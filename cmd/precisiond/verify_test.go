package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/precisiond/precisiond/evidence"
)

// TestVerifyResultText: verify re-renders the legacy result text from the
// envelope and refuses a response whose text was altered, while its hashes
// still hold (the facts are untouched); a genuine response passes, and a bare
// structured_result has no text to check.
func TestVerifyResultText(t *testing.T) {
	noEnv := func(string) string { return "" }
	respond := func(tool, args string) []byte {
		t.Helper()
		var out, errb bytes.Buffer
		if code := run([]string{"call", "--data-dir", t.TempDir(), tool, args}, nil, &out, &errb, noEnv); code != 0 {
			t.Fatalf("call %s: exit %d %s %s", tool, code, out.String(), errb.String())
		}
		return bytes.TrimSpace(out.Bytes())
	}
	verify := func(input []byte) (int, string) {
		var out, errb bytes.Buffer
		code := run([]string{"verify"}, bytes.NewReader(input), &out, &errb, noEnv)
		return code, out.String() + errb.String()
	}
	gcd := respond("gcd_lcm", `{"a":391,"b":299}`)
	if code, out := verify(gcd); code != 0 || !strings.Contains(out, "(result text re-rendered)") {
		t.Fatalf("genuine response: exit %d %s", code, out)
	}
	tampered := bytes.Replace(gcd, []byte("LCM(391, 299) = 5083"), []byte("LCM(391, 299) = 9999"), 1)
	if bytes.Equal(tampered, gcd) {
		t.Fatal("the result text to tamper with is not in the response")
	}
	code, out := verify(tampered)
	if code != 1 || !strings.Contains(out, "FAIL: result text differs") || !strings.Contains(out, "LCM(391, 299) = 9999") ||
		!strings.Contains(out, "LCM(391, 299) = 5083") {
		t.Errorf("tampered result text: exit %d %s", code, out)
	}

	// A tool whose text is canonical(facts) (no Legacy function) and one whose
	// input is redacted in the envelope.
	sv := respond("structured_validate", `{"format_name":"json","payload":"{\"a\": [1, 2]}"}`)
	if code, out := verify(sv); code != 0 {
		t.Errorf("structured_validate: exit %d %s", code, out)
	}
	svTampered := bytes.Replace(sv, []byte(`\"valid\":true`), []byte(`\"valid\":false`), 1)
	if bytes.Equal(svTampered, sv) {
		t.Fatalf("no valid:true in the result text: %s", sv)
	}
	if code, out := verify(svTampered); code != 1 || !strings.Contains(out, "result text differs") {
		t.Errorf("structured_validate tampered text: exit %d %s", code, out)
	}

	// The response's tool must be the envelope's.
	v, _ := evidence.ParseJSON(gcd)
	doc := v.(map[string]any)
	doc["tool"] = "hash_text"
	b, _ := evidence.Canonical(doc)
	if code, out := verify(b); code != 1 || !strings.Contains(out, "differs from the envelope's") {
		t.Errorf("tool mismatch: exit %d %s", code, out)
	}
	// A bare envelope: hashes checked, no text.
	b, _ = evidence.Canonical(v.(map[string]any)["structured_result"])
	if code, out := verify(b); code != 0 || !strings.Contains(out, "(no result text)") {
		t.Errorf("bare structured_result: exit %d %s", code, out)
	}
}
