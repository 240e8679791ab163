package tools

import (
	"context"
	"errors"
	"unicode/utf8"

	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/internal/jmes"
)

type jsonQueryInput struct {
	JSONStr string `json:"json_str"`
	Path    string `json:"path"`
}

type jsonQueryFacts struct {
	Path       string `json:"path"`
	Result     any    `json:"result"`
	ResultType string `json:"result_type"`
}

// jsonQueryOverhead is the room kept in max_result_chars for everything but
// the result: the facts' keys and result_type, and the legacy text's " = ".
const jsonQueryOverhead = 64

// jsonQuery is the upgraded json_query tool (README, Tools): full JMESPath with
// exact numbers and bounded evaluation; see internal/jmes. The result may
// take max_result_chars less the path and jsonQueryOverhead; evaluation may
// build max_eval_work_bytes of values in total and take max_eval_steps steps.
func jsonQuery() Tool {
	maxChars := contractLimit("json_query", "max_result_chars")
	base := jmes.Limits{
		MaxSteps:     contractLimit("json_query", "max_eval_steps"),
		MaxWorkBytes: contractLimit("json_query", "max_eval_work_bytes"),
	}
	return Define(Def[jsonQueryInput, jsonQueryFacts]{
		Name: "json_query",
		Run: func(ctx context.Context, in jsonQueryInput) (jsonQueryFacts, []Warning, error) {
			q, err := jmes.Compile(in.Path)
			if err != nil {
				return jsonQueryFacts{}, nil, jmesError(err)
			}
			doc, err := jmes.ParseInput(in.JSONStr)
			if err != nil {
				var ie *jmes.InputError
				if errors.As(err, &ie) {
					if ie.Reason == "invalid_json" {
						return jsonQueryFacts{}, nil, Fail(ie.Reason, "json_str is not valid JSON: %s", ie.Message)
					}
					return jsonQueryFacts{}, nil, TooCostly(ie.Reason, "%s", ie.Message)
				}
				return jsonQueryFacts{}, nil, err
			}
			lim := base
			lim.MaxResultBytes = max(maxChars-utf8.RuneCountInString(in.Path)-jsonQueryOverhead, 0)
			res, err := q.Search(ctx, doc, lim)
			if err != nil {
				return jsonQueryFacts{}, nil, jmesError(err)
			}
			g, err := jmes.ToGeneric(res)
			if err != nil {
				return jsonQueryFacts{}, nil, jmesError(err)
			}
			return jsonQueryFacts{Path: in.Path, Result: g, ResultType: jmes.TypeName(res)}, nil, nil
		},
		Legacy: func(_ jsonQueryInput, out jsonQueryFacts) string {
			b, err := evidence.Canonical(out.Result)
			if err != nil {
				return out.Path
			}
			return out.Path + " = " + string(b)
		},
	})
}

// jmesError maps evaluator errors: syntax → invalid_jmespath, budget →
// cost_limit_exceeded with reason work_limit or result_too_large, runtime →
// the JMESPath error name.
func jmesError(err error) error {
	var je *jmes.Error
	if !errors.As(err, &je) {
		return err // context errors and bugs pass through
	}
	switch je.Kind {
	case jmes.KindSyntax:
		return Fail("invalid_jmespath", "invalid JMESPath expression: %s", je.Message)
	case jmes.KindLimit:
		return TooCostly(je.Reason, "%s", je.Message)
	}
	return Fail(je.Kind, "%s", je.Message)
}
