package tools

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/precisiond/precisiond/contracts"
	"github.com/precisiond/precisiond/internal/allocs"
	"github.com/precisiond/precisiond/internal/jmes"
)

// TestJSONQueryHostile sends the json_query requests of issue 13 through the
// execution path: each is refused with a typed cost_limit_exceeded while it
// is being built, allocating a small fraction of what it stands for.
func TestJSONQueryHostile(t *testing.T) {
	reg := testRegistry(t)
	xs := `"` + strings.Repeat("x", 100_000) + `"`
	blowup := "[@,@]" + strings.Repeat(" | [@,@]", 10) // [@,@] piped 11 times: 2^11 references
	for _, tc := range []struct {
		name, doc, path, reason string
		maxAlloc                uint64
	}{
		{"[@,@] x 11 over a 100 000-byte string", xs, blowup, "work_limit", 2 << 20},
		{"the document itself is larger than the result", xs, "@", "result_too_large", 2 << 20},
		{"a join larger than the result", xs, "join('', [@, @])", "result_too_large", 2 << 20},
		{"to_string of the blow-up", xs, "to_string(" + blowup + ")", "work_limit", 2 << 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			alloc := allocs.Bytes(func() {
				_, err = reg.Invoke(context.Background(), Request{Tool: "json_query", Args: map[string]any{"json_str": tc.doc, "path": tc.path}})
			})
			wantToolError(t, err, CodeCostLimit, tc.reason)
			// The arguments alone are 100 kB and are copied a few times on the
			// way in; the refused value would have been 200 MB.
			t.Logf("allocated %d bytes", alloc)
			if alloc > tc.maxAlloc {
				t.Errorf("allocated %d bytes, want at most %d", alloc, tc.maxAlloc)
			}
		})
	}
}

// TestJSONQueryResultFitsMaxResultChars: the largest result the budget
// admits fits the legacy text into max_result_chars; one character more is
// refused by the evaluator, not after the text was built.
func TestJSONQueryResultFitsMaxResultChars(t *testing.T) {
	reg := testRegistry(t)
	maxChars := contractLimit("json_query", "max_result_chars")
	path := "@"
	room := maxChars - utf8.RuneCountInString(path) - jsonQueryOverhead
	doc := `"` + strings.Repeat("é", room-2) + `"` // room characters of JSON
	resp, err := reg.Invoke(context.Background(), Request{Tool: "json_query", Args: map[string]any{"json_str": doc, "path": path}})
	if err != nil {
		t.Fatalf("%d characters: %v", room, err)
	}
	if got := utf8.RuneCountInString(resp.Result); got > maxChars {
		t.Fatalf("legacy text has %d characters, more than %d", got, maxChars)
	}
	doc = `"` + strings.Repeat("é", room-1) + `"` // room+1 characters of JSON
	_, err = reg.Invoke(context.Background(), Request{Tool: "json_query", Args: map[string]any{"json_str": doc, "path": path}})
	wantToolError(t, err, CodeCostLimit, "result_too_large")
}

// TestJSONQueryLimitsDeclared: the work budget the contract declares is the
// evaluator's WorkFactor times max_result_chars, as its description says.
func TestJSONQueryLimitsDeclared(t *testing.T) {
	c := contracts.MustLoad("json_query")
	if got, want := contractLimit("json_query", "max_eval_work_bytes"), jmes.WorkFactor*contractLimit("json_query", "max_result_chars"); got != want {
		t.Errorf("max_eval_work_bytes = %d, want %d", got, want)
	}
	if got := contractLimit("json_query", "max_eval_steps"); got != jmes.DefaultSteps {
		t.Errorf("max_eval_steps = %d, want %d", got, jmes.DefaultSteps)
	}
	if !strings.Contains(c.Description, "256 times max_result_chars") {
		t.Errorf("the description does not state the work budget")
	}
}
