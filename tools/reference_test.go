package tools

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/precisiond/precisiond/evidence"
)

// The side-by-side harness for the eight wire-compatible tools: the reference
// sidecar's own answers (tools/testdata/reference/<tool>/vectors.json, written
// by the generators beside them through refrunner.py; README.md there) are
// replayed through precisiond's registry. A case matches when precisiond
// answers as the reference did (compareRef); otherwise the first of the tool's
// listed differences that explains it must do so, or the test fails. Every
// difference is documented by its id under the tool's section of
// docs/compatibility.md and must be needed by at least one case.

// refCase is one case of a vectors file.
type refCase struct {
	ID     string
	Args   map[string]any
	Ref    refAnswer
	Oracle map[string]any // values the generator computed itself
}

// refAnswer is one service's answer: the facts and the legacy result text, or
// an error.
type refAnswer struct {
	Facts     map[string]any
	Result    string
	ErrorCode string
	Error     string // the reference's error text
	ToolText  string // the reference's tool text behind tool_result_error
}

// refOutcome is a replayed case: the reference's answer, ours, and what differs.
type refOutcome struct {
	refCase
	Got   refAnswer          // ours; Error is our message
	Err   *Error             // ours, when we refused
	Diffs []string           // "facts.<key>", "result", "error_code", "reason", "message", "schema", "answered", "refused"
	all   map[string]refCase // every case of the tool, by id
	spec  *refSpec
}

// refDifference is one documented difference from the reference.
type refDifference struct {
	ID       string                   // in backticks under the tool's section of docs/compatibility.md
	Cases    []string                 // when set, the only cases it explains, each of which must differ
	Explains func(o *refOutcome) bool // whether it accounts for the case; nil: any difference of Cases
}

// refSpec is how one tool is compared with the reference.
type refSpec struct {
	Tool        string
	ExtraFacts  []string          // facts precisiond adds to the reference's
	Messages    bool              // tool_execution_error: our message is the reference's text
	Versions    map[string]string // what the vectors must have been written with
	Differences []refDifference
}

func loadRefCases(t *testing.T, s refSpec) []refCase {
	t.Helper()
	doc := readExact(t, filepath.Join("testdata", "reference", s.Tool, "vectors.json"))
	versions, _ := doc["versions"].(map[string]any)
	for lib, want := range s.Versions {
		if versions[lib] != want {
			t.Fatalf("vectors written with %s %v, want %s", lib, versions[lib], want)
		}
	}
	raws, _ := doc["cases"].([]any)
	seen := map[string]bool{}
	cases := make([]refCase, 0, len(raws))
	for i, r := range raws {
		m, _ := r.(map[string]any)
		ref, _ := m["reference"].(map[string]any)
		var c refCase
		c.ID, _ = m["id"].(string)
		c.Args, _ = m["args"].(map[string]any)
		c.Oracle, _ = m["oracle"].(map[string]any)
		c.Ref.Facts, _ = ref["facts"].(map[string]any)
		c.Ref.ErrorCode, _ = ref["error_code"].(string)
		c.Ref.Error, _ = ref["error"].(string)
		c.Ref.ToolText, _ = ref["tool_text"].(string)
		if c.ID == "" || seen[c.ID] || c.Args == nil || (c.Ref.Facts == nil) == (c.Ref.ErrorCode == "") {
			t.Fatalf("case %d (%q): malformed or repeated", i, c.ID)
		}
		seen[c.ID] = true
		c.Ref.Result, _ = ref["result"].(string)
		if _, ok := ref["result"]; !ok && c.Ref.Facts != nil {
			c.Ref.Result = canonicalText(c.Ref.Facts) // recorded only where it is not the canonical facts
		}
		cases = append(cases, c)
	}
	return cases
}

func (a refAnswer) String() string {
	if a.Facts != nil {
		return "result " + strconv.Quote(a.Result) + " facts " + canonicalText(a.Facts)
	}
	return a.ErrorCode + ": " + a.Error + a.ToolText
}

func canonicalText(v any) string {
	b, err := evidence.Canonical(v)
	if err != nil {
		return "<" + err.Error() + ">"
	}
	return string(b)
}

var machineCode = regexp.MustCompile(`^[a-z0-9_\[\]]+$`)

// compareRef lists what differs between want (the reference's answer) and
// o.Got: every fact (precisiond may add s.ExtraFacts), the legacy text, the
// error code; for tool_execution_error the reason where the reference's text is
// a machine code (and the message where s.Messages); for input_schema_invalid
// the whole error text ("Input schema validation failed for '<tool>':
// <path>:<keyword>", the reference's first error in its order).
func (s refSpec) compareRef(want refAnswer, o *refOutcome) []string {
	var diffs []string
	switch got := o.Got; {
	case want.Facts != nil && got.Facts == nil:
		return []string{"refused"}
	case want.Facts == nil && got.Facts != nil:
		return []string{"answered"}
	case want.Facts != nil:
		for k, v := range want.Facts {
			if g, ok := got.Facts[k]; !ok || canonicalText(v) != canonicalText(g) {
				diffs = append(diffs, "facts."+k)
			}
		}
		for k := range got.Facts {
			if _, ok := want.Facts[k]; !ok && !slices.Contains(s.ExtraFacts, k) {
				diffs = append(diffs, "facts."+k)
			}
		}
		if got.Result != want.Result {
			diffs = append(diffs, "result")
		}
	case got.ErrorCode != want.ErrorCode:
		return []string{"error_code"}
	case want.ErrorCode == CodeExecution:
		text := strings.TrimPrefix(want.Error, "Error in '"+s.Tool+"': ")
		if machineCode.MatchString(text) && o.Err.Reason != text {
			diffs = append(diffs, "reason")
		}
		if s.Messages && o.Err.Message != text {
			diffs = append(diffs, "message")
		}
	case want.ErrorCode == CodeInputSchemaInvalid:
		if o.Err.Message != want.Error {
			diffs = append(diffs, "schema")
		}
	}
	slices.Sort(diffs)
	return diffs
}

// matchesRef reports whether o.Got is want exactly (for differences whose
// answer is another reference answer or an oracle's).
func (s refSpec) matchesRef(want refAnswer, o *refOutcome) bool {
	return len(s.compareRef(want, o)) == 0
}

// replayReference runs every case of s.Tool through the registry and checks it
// matches the reference or is explained by one of s.Differences.
func replayReference(t *testing.T, s refSpec) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "compatibility.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, found := strings.Cut(string(doc), "\n## "+s.Tool+"\n")
	section, _, _ = strings.Cut(section, "\n## ")
	if !found {
		t.Fatalf("docs/compatibility.md has no section ## %s", s.Tool)
	}
	cases := loadRefCases(t, s)
	all := make(map[string]refCase, len(cases))
	for _, c := range cases {
		all[c.ID] = c
	}
	reg := testRegistry(t)
	used := map[string]map[string]bool{}
	exact := 0
	for _, c := range cases {
		o := &refOutcome{refCase: c, all: all, spec: &s}
		resp, err := reg.Invoke(context.Background(), Request{Tool: s.Tool, Args: c.Args})
		switch {
		case err == nil:
			o.Got = refAnswer{Facts: resp.Envelope.Facts(), Result: resp.Result}
		case errors.As(err, &o.Err):
			o.Got = refAnswer{ErrorCode: o.Err.Code, Error: o.Err.Message}
		default:
			t.Fatalf("%s: untyped error %v", c.ID, err)
		}
		if o.Diffs = s.compareRef(c.Ref, o); len(o.Diffs) == 0 {
			exact++
			continue
		}
		i := slices.IndexFunc(s.Differences, func(d refDifference) bool {
			return (d.Cases == nil || slices.Contains(d.Cases, c.ID)) && (d.Explains == nil || d.Explains(o))
		})
		if i < 0 {
			t.Errorf("%s %s: an unexplained difference in %v\nreference  %s\nprecisiond %s",
				c.ID, canonicalText(c.Args), o.Diffs, c.Ref, o.Got)
			continue
		}
		id := s.Differences[i].ID
		if used[id] == nil {
			used[id] = map[string]bool{}
		}
		used[id][c.ID] = true
	}
	for _, d := range s.Differences {
		if !strings.Contains(section, "`"+d.ID+"`") {
			t.Errorf("difference %s is not documented under ## %s in docs/compatibility.md", d.ID, s.Tool)
		}
		if len(used[d.ID]) == 0 {
			t.Errorf("difference %s explains no case: drop it here and in docs/compatibility.md", d.ID)
		}
		for _, id := range d.Cases {
			if !used[d.ID][id] {
				t.Errorf("case %s is listed under difference %s but matches the reference or is explained otherwise", id, d.ID)
			}
		}
	}
	n := map[string]int{}
	for id, cs := range used {
		n[id] = len(cs)
	}
	t.Logf("%d cases: %d match exactly, differences %v", len(cases), exact, n)
}

func TestReference(t *testing.T) {
	for _, s := range referenceSpecs {
		t.Run(s.Tool, func(t *testing.T) { replayReference(t, s) })
	}
}
