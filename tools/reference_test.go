package tools

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/precisiond/precisiond/evidence"
)

// The side-by-side harness for the wire-compatible tools: vectors of the
// reference sidecar's own answers (tools/testdata/<tool>/reference/reference.json,
// written by tools/testdata/oracle/gen_reference_*.py through
// reference_runner.py, which runs the reference's execute_tool under Python)
// replayed through precisiond's registry.

// refVector is one case of tools/testdata/<tool>/reference/reference.json: the
// reference sidecar's own answer to args.
type refVector struct {
	Args map[string]any
	Ref  map[string]any // result, facts, or error and error_code; tool_text for hidden unit_convert errors
}

func loadReference(t *testing.T, tool string) []refVector {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", tool, "reference", "reference.json"))
	if err != nil {
		t.Fatal(err)
	}
	v, err := evidence.ParseJSON(raw)
	if err != nil {
		t.Fatal(err)
	}
	cases, _ := v.(map[string]any)["cases"].([]any)
	out := make([]refVector, 0, len(cases))
	for _, c := range cases {
		m, _ := c.(map[string]any)
		args, _ := m["args"].(map[string]any)
		ref, _ := m["reference"].(map[string]any)
		if args == nil || ref == nil {
			t.Fatalf("%s: malformed case %v", tool, c)
		}
		out = append(out, refVector{Args: args, Ref: ref})
	}
	return out
}

// refOutcome is how precisiond's answer to a reference vector compares.
type refOutcome struct {
	v        refVector
	resp     *Response
	err      *Error // precisiond's typed error, or nil when it answered
	diffKeys []string
}

func (o refOutcome) refFacts() map[string]any { f, _ := o.v.Ref["facts"].(map[string]any); return f }
func (o refOutcome) refCode() string          { s, _ := o.v.Ref["error_code"].(string); return s }
func (o refOutcome) refText() string          { s, _ := o.v.Ref["tool_text"].(string); return s }
func (o refOutcome) arg(k string) string      { s, _ := o.v.Args[k].(string); return s }

// compareWithReference replays every reference vector of tool. A case passes
// when precisiond answers exactly as the reference did (the same legacy result
// and the same value for every fact the reference returns; precisiond may add
// facts its contract declares), or refuses when the reference refused with the
// same error_code. Any other case must be explained by judge, which names the
// documented difference; every name it gives must appear, as `name`, under the
// tool's section of docs/compatibility.md. It returns how often each was seen.
func compareWithReference(t *testing.T, tool string, judge func(refOutcome) string) map[string]int {
	t.Helper()
	doc, err := os.ReadFile("../docs/compatibility.md")
	if err != nil {
		t.Fatal(err)
	}
	section := compatSection(string(doc), tool)
	if section == "" {
		t.Fatalf("docs/compatibility.md has no section ## %s", tool)
	}
	reg := testRegistry(t)
	seen := map[string]int{}
	vectors := loadReference(t, tool)
	if len(vectors) < 500 {
		t.Fatalf("%s: only %d reference vectors", tool, len(vectors))
	}
	for _, v := range vectors {
		resp, err := reg.Invoke(context.Background(), Request{Tool: tool, Args: v.Args})
		o := refOutcome{v: v, resp: resp}
		if err != nil {
			if !errors.As(err, &o.err) {
				t.Fatalf("%s %v: untyped error %v", tool, v.Args, err)
			}
		}
		exact := false
		switch {
		case o.err != nil && o.refCode() != "":
			exact = o.err.Code == o.refCode()
		case o.err == nil && o.refFacts() != nil:
			if v.Ref["result"] != resp.Result {
				o.diffKeys = append(o.diffKeys, "result")
			}
			for k, want := range o.refFacts() {
				a, _ := evidence.Canonical(want)
				b, _ := evidence.Canonical(resp.Envelope.Facts[k])
				if string(a) != string(b) {
					o.diffKeys = append(o.diffKeys, k)
				}
			}
			sort.Strings(o.diffKeys)
			exact = len(o.diffKeys) == 0
		}
		if exact {
			seen[""]++
			continue
		}
		tag := judge(o)
		if tag == "" {
			a, _ := evidence.Canonical(v.Args)
			r, _ := evidence.Canonical(v.Ref)
			ours := "error " + errString(o.err)
			if o.err == nil {
				f, _ := evidence.Canonical(resp.Envelope.Facts)
				ours = "result " + strconv.Quote(resp.Result) + " facts " + string(f)
			}
			t.Errorf("%s %s: an undocumented difference (keys %v)\nreference %s\nprecisiond %s", tool, a, o.diffKeys, r, ours)
			continue
		}
		if !strings.Contains(section, "`"+tag+"`") {
			t.Errorf("%s: difference %q is not documented under ## %s in docs/compatibility.md", tool, tag, tool)
		}
		seen[tag]++
	}
	t.Logf("%s: %v", tool, seen)
	return seen
}

func errString(e *Error) string {
	if e == nil {
		return "<nil>"
	}
	return e.Error()
}

// compatSection is the text of "## name" in docs/compatibility.md, up to the
// next "## " heading.
func compatSection(doc, name string) string {
	i := strings.Index(doc, "\n## "+name+"\n")
	if i < 0 {
		return ""
	}
	rest := doc[i+len("\n## "+name+"\n"):]
	if j := strings.Index(rest, "\n## "); j >= 0 {
		rest = rest[:j]
	}
	return rest
}
