package tools

import (
	"context"
	"encoding/json"
	"errors"
	"math/big"

	"github.com/precisiond/precisiond/internal/exactprob"
)

type exactProbabilityInput struct {
	Operation    string       `json:"operation"`
	N            *json.Number `json:"n"`
	K            *json.Number `json:"k"`
	Numerator    *json.Number `json:"numerator"`
	Denominator  *json.Number `json:"denominator"`
	DecimalScale *json.Number `json:"decimal_scale"`
	Rounding     *string      `json:"rounding"`
}

type exactProbabilityFacts struct {
	Operation              string   `json:"operation"`
	N                      *int64   `json:"n"`
	K                      *int64   `json:"k"`
	ProbabilityNumerator   *big.Int `json:"probability_numerator"`
	ProbabilityDenominator *big.Int `json:"probability_denominator"`
	ResultNumerator        *big.Int `json:"result_numerator"`
	ResultDenominator      *big.Int `json:"result_denominator"`
	Fraction               string   `json:"fraction"`
	DecimalScale           *int64   `json:"decimal_scale"`
	Rounding               *string  `json:"rounding"`
	Decimal                *string  `json:"decimal"`
}

// smallInt converts a schema-validated integer (which JSON may spell 3.0 or 3e0)
// to int64; the schema bounds it, so failure is a bug.
func smallInt(n *json.Number) (*int64, error) {
	if n == nil {
		return nil, nil
	}
	r, ok := new(big.Rat).SetString(string(*n))
	if !ok || !r.IsInt() || !r.Num().IsInt64() {
		return nil, errors.New("exact_probability: validated integer out of range")
	}
	v := r.Num().Int64()
	return &v, nil
}

func numText(n *json.Number) *string {
	if n == nil {
		return nil
	}
	s := string(*n)
	return &s
}

// exactProbability is the wire-compatible exact_probability tool (README, Tools).
func exactProbability() Tool {
	return Define(Def[exactProbabilityInput, exactProbabilityFacts]{
		Name: "exact_probability",
		Run: func(_ context.Context, in exactProbabilityInput) (exactProbabilityFacts, []Warning, error) {
			var f exactProbabilityFacts
			n, err := smallInt(in.N)
			if err != nil {
				return f, nil, err
			}
			k, err := smallInt(in.K)
			if err != nil {
				return f, nil, err
			}
			scale, err := smallInt(in.DecimalScale)
			if err != nil {
				return f, nil, err
			}
			out, err := exactprob.Compute(exactprob.Input{
				Operation: in.Operation, N: n, K: k,
				Numerator: numText(in.Numerator), Denominator: numText(in.Denominator),
				Scale: scale, Rounding: in.Rounding,
			})
			if err != nil {
				return f, nil, err // a refusal is mapped by the execution path
			}
			return exactProbabilityFacts{
				Operation:              in.Operation,
				N:                      n,
				K:                      k,
				ProbabilityNumerator:   out.ProbNum,
				ProbabilityDenominator: out.ProbDen,
				ResultNumerator:        out.ResultNum,
				ResultDenominator:      out.ResultDen,
				Fraction:               out.ResultNum.String() + "/" + out.ResultDen.String(),
				DecimalScale:           scale,
				Rounding:               in.Rounding,
				Decimal:                out.Decimal,
			}, nil, nil
		},
	})
}
