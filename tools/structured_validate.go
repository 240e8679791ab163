package tools

import (
	"context"
	"fmt"

	"github.com/precisiond/precisiond/internal/structured"
)

type structuredValidateInput struct {
	FormatName string  `json:"format_name"`
	Payload    string  `json:"payload"`
	SchemaJSON *string `json:"schema_json"`
	CSVDialect *string `json:"csv_dialect"`
}

// structuredValidate is the wire-compatible structured_validate tool: the
// reference's structured_validate (docs/compatibility.md lists what we do
// differently). Findings are
// facts with valid:false; where the reference raises, the refusal from
// internal/structured is mapped by the execution path (tool_execution_error
// with the reference's reason, or cost_limit_exceeded for the schema work
// budget).
func structuredValidate() Tool {
	return Define(Def[structuredValidateInput, structured.Result]{
		Name: "structured_validate",
		// Without a schema a call is this tool's own bounded parser; only the
		// schema library cannot be interrupted, so only those calls go to a
		// worker when the tool is isolated.
		IsolateWhen: func(args map[string]any) bool { return args["schema_json"] != nil },
		Run: func(ctx context.Context, in structuredValidateInput) (structured.Result, []Warning, error) {
			res, err := structured.Validate(ctx, structured.Request{
				Format: in.FormatName, Payload: in.Payload, Schema: in.SchemaJSON, Dialect: in.CSVDialect,
			}, structured.DefaultLimits)
			if err != nil {
				return res, nil, err
			}
			var warnings []Warning
			for _, w := range res.Warnings {
				if w.Code == "csv_formula_prefix" {
					warnings = append(warnings, Warning{Code: w.Code, Message: fmt.Sprintf(
						"%d field(s) start with =, +, - or @ (after leading whitespace); a spreadsheet may run them as formulas", w.Count)})
				}
			}
			return res, warnings, nil
		},
	})
}
