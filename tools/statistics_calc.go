package tools

import (
	"context"
	"errors"
	"strings"

	"github.com/precisiond/precisiond/internal/exactdec"
	"github.com/precisiond/precisiond/internal/exactstats"
)

type statisticsInput struct {
	Data            any    `json:"data"`       // "1,2,3" or [1, "2.5", ...]
	Operations      any    `json:"operations"` // "mean,median" or ["mean", "median"]
	QuantilesN      int    `json:"quantiles_n"`
	QuantilesMethod string `json:"quantiles_method"`
}

type statisticsResult struct {
	Value  *string   `json:"value,omitempty"`
	Values *[]string `json:"values,omitempty"`
	Exact  bool      `json:"exact"`
}

type statisticsFacts struct {
	Count           int                         `json:"count"`
	Operations      []string                    `json:"operations"`
	Results         map[string]statisticsResult `json:"results"`
	Precision       int                         `json:"precision"`
	QuantilesN      int                         `json:"quantiles_n"`
	QuantilesMethod string                      `json:"quantiles_method"`
}

// statisticsCalc is the upgraded statistics_calc tool (README, Tools): Python
// statistics semantics on exact decimal values (internal/exactstats).
func statisticsCalc() Tool {
	return Define(Def[statisticsInput, statisticsFacts]{
		Name: "statistics_calc",
		Run: func(ctx context.Context, in statisticsInput) (statisticsFacts, []Warning, error) {
			var f statisticsFacts
			var names []string
			switch ops := in.Operations.(type) {
			case string:
				names = strings.Split(ops, ",")
			case []any:
				for _, o := range ops {
					s, _ := o.(string)
					names = append(names, s)
				}
			default:
				names = strings.Split(exactstats.DefaultOperations, ",")
			}
			ops, err := exactstats.ParseOperations(names)
			if err != nil {
				return f, nil, err
			}
			var values []exactdec.Decimal
			switch d := in.Data.(type) {
			case string:
				values, err = exactstats.ParseString(ctx, d)
			case []any:
				values, err = exactstats.ParseList(ctx, d)
			default:
				err = errors.New("statistics_calc: data is neither a string nor an array")
			}
			if err != nil {
				return f, nil, err
			}
			res, err := exactstats.Compute(ctx, values, ops, exactstats.Options{
				QuantilesN: in.QuantilesN, QuantilesMethod: in.QuantilesMethod})
			if err != nil {
				return f, nil, err
			}
			f = statisticsFacts{Count: len(values), Operations: ops, Results: map[string]statisticsResult{},
				Precision: exactstats.Precision, QuantilesN: in.QuantilesN, QuantilesMethod: in.QuantilesMethod}
			var rounded []string
			for _, op := range ops {
				r := res[op]
				sr := statisticsResult{Value: r.Value, Exact: r.Exact}
				if r.Value == nil {
					vals := r.Values
					if vals == nil {
						vals = []string{}
					}
					sr.Values = &vals
				}
				f.Results[op] = sr
				if !r.Exact {
					rounded = append(rounded, op)
				}
			}
			var warnings []Warning
			if len(rounded) > 0 {
				warnings = append(warnings, Warning{Code: "rounded",
					Message: strings.Join(rounded, ", ") + ": not a terminating decimal; rounded half-even to 34 significant digits"})
			}
			return f, warnings, nil
		},
		Legacy: func(_ statisticsInput, f statisticsFacts) string {
			parts := make([]string, 0, len(f.Operations))
			for _, op := range f.Operations {
				r := f.Results[op]
				eq := " = "
				if !r.Exact {
					eq = " ≈ "
				}
				if r.Value != nil {
					parts = append(parts, op+eq+*r.Value)
				} else if r.Values != nil {
					parts = append(parts, op+eq+"["+strings.Join(*r.Values, ", ")+"]")
				}
			}
			return strings.Join(parts, "  |  ")
		},
	})
}
