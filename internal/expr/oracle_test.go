package expr

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/precisiond/precisiond/internal/vectors"
)

type oracleCase struct {
	Name string `json:"name"`
	Args struct {
		Expression string `json:"expression"`
		Precision  *int   `json:"precision"`
	} `json:"args"`
	Facts *struct {
		Result   string  `json:"result"`
		Exact    bool    `json:"exact"`
		Fraction *string `json:"fraction"`
		Kind     string  `json:"kind"`
	} `json:"facts"`
	ErrorCode string `json:"error_code"`
	Reason    string `json:"reason"`
}

// TestOracleVectors replays the vectors written by
// tools/testdata/oracle/gen_calculate.py (SymPy/mpmath/fractions/decimal) directly
// against Eval; the tools golden test replays the same files through the full
// execution path.
func TestOracleVectors(t *testing.T) {
	files, err := filepath.Glob("../../tools/testdata/calculate/oracle_*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no oracle vectors: %v", err)
	}
	n := 0
	for _, file := range files {
		for _, c := range vectors.Cases[oracleCase](t, file, 1) {
			if c.ErrorCode == "input_schema_invalid" {
				continue
			}
			n++
			p := 34
			if c.Args.Precision != nil {
				p = *c.Args.Precision
			}
			got, err := Eval(context.Background(), c.Args.Expression, p)
			if c.Facts == nil {
				var ee *Error
				if !errors.As(err, &ee) {
					t.Errorf("%s: got %v, %v; want error %s", c.Name, got, err, c.Reason)
					continue
				}
				if ee.Reason != c.Reason || ee.Cost != (c.ErrorCode == "cost_limit_exceeded") {
					t.Errorf("%s: got error %s (cost=%v), want %s %s", c.Name, ee.Reason, ee.Cost, c.ErrorCode, c.Reason)
				}
				continue
			}
			if err != nil {
				t.Errorf("%s: unexpected error %v", c.Name, err)
				continue
			}
			wantFrac := ""
			if c.Facts.Fraction != nil {
				wantFrac = *c.Facts.Fraction
			}
			if got.Value != c.Facts.Result || got.Exact != c.Facts.Exact || got.Fraction != wantFrac || got.Kind != c.Facts.Kind {
				t.Errorf("%s (p=%d):\n got %q exact=%v frac=%q kind=%s\nwant %q exact=%v frac=%q kind=%s", c.Name, p,
					trunc(got.Value), got.Exact, trunc(got.Fraction), got.Kind, trunc(c.Facts.Result), c.Facts.Exact, trunc(wantFrac), c.Facts.Kind)
			}
		}
	}
	if n < 300 {
		t.Errorf("only %d oracle cases", n)
	}
}

func trunc(s string) string {
	if len(s) > 120 {
		return s[:60] + "…" + s[len(s)-40:]
	}
	return s
}
