package tools

import (
	"context"
	"errors"
	"fmt"

	"github.com/precisiond/precisiond/internal/structured"
)

type structuredValidateInput struct {
	FormatName string  `json:"format_name"`
	Payload    string  `json:"payload"`
	SchemaJSON *string `json:"schema_json"`
	CSVDialect *string `json:"csv_dialect"`
}

// structuredValidate is the wire-compatible structured_validate tool (SPEC
// §7.1): findings (limits, syntax, refused constructs, schema violations) are
// facts with valid:false; only argument misuse is an error. See
// internal/structured.
func structuredValidate() Tool {
	return Define(Def[structuredValidateInput, structured.Result]{
		Name: "structured_validate",
		Run: func(ctx context.Context, in structuredValidateInput) (structured.Result, []Warning, error) {
			res, err := structured.Validate(ctx, structured.Request{
				Format: in.FormatName, Payload: in.Payload, Schema: in.SchemaJSON, Dialect: in.CSVDialect,
			}, structured.DefaultLimits)
			switch {
			case errors.Is(err, structured.ErrDialectRequired):
				return res, nil, Fail("csv_dialect_required", "%s", err.Error())
			case errors.Is(err, structured.ErrSchemaNotJSON):
				return res, nil, Fail("schema_requires_json", "%s", err.Error())
			case errors.Is(err, structured.ErrUnknownFormat), errors.Is(err, structured.ErrUnknownDialect):
				return res, nil, Fail("invalid_argument", "%s", err.Error())
			case err != nil:
				return res, nil, err
			}
			var warnings []Warning
			for _, w := range res.Warnings {
				if w.Code == "csv_formula_prefix" {
					warnings = append(warnings, Warning{Code: w.Code, Message: fmt.Sprintf(
						"%d field(s) start with =, +, - or @ and are not numbers; a spreadsheet would run them as formulas", w.Count)})
				}
			}
			return res, warnings, nil
		},
	})
}
