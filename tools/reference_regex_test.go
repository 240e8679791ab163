package tools

import (
	"errors"
	"path/filepath"
	"testing"
)

// TestReferenceRegex replays tools/testdata/reference/regex_extract/vectors.json
// (gen_regex.py there): random patterns over every construct of Python
// 3.11's re, sent to the reference sidecar, whose answer is only a text; the
// generator keeps the re.findall behind that text as the oracle (having
// checked that the reference's text is exactly the one built from it).
// precisiond's facts must give the same findall: total_matches is its
// length, and each match its item (the match without groups, the group with
// one, the list of groups with more, "" for a group that did not take
// part); a pattern re refuses is refused with invalid_regex and the same
// message.
func TestReferenceRegex(t *testing.T) {
	doc := readExact(t, filepath.Join("testdata", "reference", "regex_extract", "vectors.json"))
	versions, _ := doc["versions"].(map[string]any)
	if versions["python"] != "3.11.7" || versions["unicodedata"] != "14.0.0" {
		t.Fatalf("vectors written with Python %v (unicodedata %v), want 3.11.7 (14.0.0)", versions["python"], versions["unicodedata"])
	}
	raws, _ := doc["cases"].([]any)
	answered, refused := 0, 0
	for _, r := range raws {
		c, _ := r.(map[string]any)
		id, _ := c["id"].(string)
		args, _ := c["args"].(map[string]any)
		oracle, _ := c["oracle"].(map[string]any)
		if id == "" || args == nil || oracle == nil {
			t.Fatalf("malformed case %v", c)
		}
		args["limit"] = jsonInt(1000)
		facts, err := textInvoke(t, "regex_extract", args)
		if msg, ok := oracle["error"].(string); ok {
			var te *Error
			if !errors.As(err, &te) || te.Code != CodeExecution || te.Reason != "invalid_regex" || te.Message != "invalid regular expression: "+msg {
				t.Errorf("%s %q: got %v, want invalid_regex %q", id, args["pattern"], err, msg)
			}
			refused++
			continue
		}
		if err != nil {
			t.Errorf("%s %q on %q: %v", id, args["pattern"], args["text"], err)
			continue
		}
		answered++
		want, _ := oracle["findall"].([]any)
		if canonicalText(facts["total_matches"]) != canonicalText(oracle["count"]) {
			t.Errorf("%s %q on %q: total_matches %v, want %v", id, args["pattern"], args["text"], facts["total_matches"], oracle["count"])
			continue
		}
		matches, _ := facts["matches"].([]any)
		got := make([]any, 0, len(matches))
		for _, m := range matches {
			mm, _ := m.(map[string]any)
			groups, _ := mm["groups"].([]any)
			item := make([]any, len(groups))
			for i, g := range groups {
				if g == nil {
					g = ""
				}
				item[i] = g
			}
			switch len(groups) {
			case 0:
				got = append(got, mm["match"])
			case 1:
				got = append(got, item[0])
			default:
				got = append(got, item)
			}
		}
		if canonicalText(got) != canonicalText(want) {
			t.Errorf("%s %q on %q (flags %v):\n got  %s\n want %s", id, args["pattern"], args["text"], args["flags"], canonicalText(got), canonicalText(want))
		}
	}
	if answered < 500 || refused < 50 {
		t.Fatalf("%d answered and %d refused cases; the vectors should hold at least 500 and 50", answered, refused)
	}
}
