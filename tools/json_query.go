package tools

import (
	"context"
	"errors"

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

// jsonQuery is the upgraded json_query tool (SPEC §7.2): full JMESPath with
// exact numbers and bounded evaluation; see internal/jmes.
func jsonQuery() Tool {
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
			res, err := q.Search(ctx, doc, jmes.DefaultLimits)
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
// cost_limit_exceeded/evaluation_limit, runtime → the JMESPath error name.
func jmesError(err error) error {
	var je *jmes.Error
	if !errors.As(err, &je) {
		return err // context errors and bugs pass through
	}
	switch je.Kind {
	case jmes.KindSyntax:
		return Fail("invalid_jmespath", "invalid JMESPath expression: %s", je.Message)
	case jmes.KindLimit:
		return TooCostly("evaluation_limit", "%s", je.Message)
	}
	return Fail(je.Kind, "%s", je.Message)
}
