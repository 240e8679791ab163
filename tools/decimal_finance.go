package tools

import (
	"context"

	"github.com/precisiond/precisiond/internal/exactdec"
)

type decimalFinanceInput struct {
	Operation string   `json:"operation"`
	Operands  []string `json:"operands"`
	Currency  string   `json:"currency"`
	Scale     int      `json:"scale"`
	Rounding  string   `json:"rounding"`
}

type decimalFinanceFacts struct {
	Operation            string   `json:"operation"`
	Operands             []string `json:"operands"`
	Currency             string   `json:"currency"`
	Scale                int      `json:"scale"`
	Rounding             string   `json:"rounding"`
	CalculationPrecision int      `json:"calculation_precision"`
	CalculationValue     string   `json:"calculation_value"`
	Result               string   `json:"result"`
}

// decimalFinance is the wire-compatible decimal_finance tool (README, Tools): Python
// decimal arithmetic under the reference's 128-digit context, reproduced in
// internal/exactdec with the reference's checks and reasons.
func decimalFinance() Tool {
	return Define(Def[decimalFinanceInput, decimalFinanceFacts]{
		Name: "decimal_finance",
		Run: func(_ context.Context, in decimalFinanceInput) (decimalFinanceFacts, []Warning, error) {
			res, err := exactdec.Finance(in.Operation, in.Operands, in.Scale, in.Rounding)
			if err != nil {
				return decimalFinanceFacts{}, nil, err // a refusal is mapped by the execution path
			}
			return decimalFinanceFacts{
				Operation:            in.Operation,
				Operands:             in.Operands,
				Currency:             in.Currency,
				Scale:                in.Scale,
				Rounding:             in.Rounding,
				CalculationPrecision: exactdec.FinancePrec,
				CalculationValue:     res.Plain,
				Result:               res.Result,
			}, nil, nil
		},
	})
}
