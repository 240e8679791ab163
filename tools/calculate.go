package tools

import (
	"context"
	"errors"

	"github.com/precisiond/precisiond/internal/expr"
)

type calculateInput struct {
	Expression string `json:"expression"`
	Precision  int    `json:"precision"`
}

type calculateFacts struct {
	Expression string  `json:"expression"`
	Result     string  `json:"result"`
	Exact      bool    `json:"exact"`
	Fraction   *string `json:"fraction"`
	Kind       string  `json:"kind"`
	Precision  int     `json:"precision"`
}

// calculate evaluates an arithmetic expression exactly; the parser and
// the exact/irrational arithmetic live in internal/expr.
func calculate() Tool {
	return Define(Def[calculateInput, calculateFacts]{
		Name: "calculate",
		Run: func(ctx context.Context, in calculateInput) (calculateFacts, []Warning, error) {
			r, err := expr.Eval(ctx, in.Expression, in.Precision)
			if err != nil {
				var ee *expr.Error
				if errors.As(err, &ee) {
					if ee.Cost {
						return calculateFacts{}, nil, TooCostly(ee.Reason, "%s", ee.Msg)
					}
					return calculateFacts{}, nil, Fail(ee.Reason, "%s", ee.Msg)
				}
				return calculateFacts{}, nil, err
			}
			f := calculateFacts{Expression: in.Expression, Result: r.Value, Exact: r.Exact, Kind: r.Kind, Precision: in.Precision}
			if r.Fraction != "" {
				f.Fraction = &r.Fraction
			}
			var w []Warning
			if !r.Exact {
				msg := "the result is the exact rational value (see fraction) rounded half-even to the requested significant digits"
				if r.Kind == expr.KindIrrational {
					msg = "the result is correctly rounded (half-even) to the requested significant digits; it is not exact"
				}
				w = append(w, Warning{Code: "rounded", Message: msg})
			}
			return f, w, nil
		},
		Legacy: func(in calculateInput, out calculateFacts) string {
			if out.Exact {
				return in.Expression + " = " + out.Result
			}
			return in.Expression + " ≈ " + out.Result
		},
	})
}
