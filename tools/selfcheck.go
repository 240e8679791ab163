package tools

import (
	"context"
	"fmt"
	"reflect"

	"github.com/precisiond/precisiond/evidence"
)

// CheckExamples runs every contract example through the execution path and
// returns an error naming the first whose facts differ from the documented ones.
// The service refuses to start when it fails (SPEC §3).
func CheckExamples(ctx context.Context, reg *Registry) error {
	for _, e := range reg.tools {
		for _, ex := range e.contract.Examples {
			resp, err := reg.runExample(ctx, e, ex.Args)
			if err != nil {
				return fmt.Errorf("%s example %q: %v", e.contract.Tool, ex.Title, err)
			}
			got, err1 := evidence.Canonical(resp)
			want, err2 := evidence.Canonical(ex.Facts)
			if err1 != nil || err2 != nil || !reflect.DeepEqual(got, want) {
				return fmt.Errorf("%s example %q: facts %s, documented %s", e.contract.Tool, ex.Title, got, want)
			}
		}
	}
	return nil
}

// runExample executes one example without the limiter or the enabled check, so
// that the self-check does not depend on runtime state.
func (r *Registry) runExample(ctx context.Context, e entry, args map[string]any) (map[string]any, error) {
	normalized := e.contract.ApplyDefaults(args)
	if err := e.contract.ValidateInput(normalized); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, DefaultTimeout)
	defer cancel()
	out, err := run(ctx, e.tool, normalized)
	if err != nil {
		return nil, err
	}
	if err := e.contract.ValidateOutput(out.Facts); err != nil {
		return nil, err
	}
	return out.Facts, nil
}
