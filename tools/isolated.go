package tools

import (
	"context"
	"slices"
)

// Runner executes a tool's Execute somewhere else: in a worker process with OS
// limits (internal/worker's Pool), so that work which cannot be interrupted or
// bounded in process is killed, with everything it allocated, at the deadline.
// Execute must return when ctx ends (with ctx.Err()), leaving no work running;
// its other errors are *Error (cost_limit_exceeded for a worker that hit its
// memory or CPU limit), *refusal.Error, or anything else for an internal error.
type Runner interface {
	Execute(ctx context.Context, tool string, args map[string]any) (Output, error)
}

// Isolated returns t with its calls executed by r: every call, or the calls
// that t.IsolateWhen accepts (the others run in process). The contract,
// validation, canonical spellings, hints, re-rendering and the envelope stay
// in process (the registry does not change); only Execute, on arguments
// already normalized and validated, moves out.
func Isolated(t Tool, r Runner) Tool {
	inner, when, name := t.Execute, t.IsolateWhen, t.Name()
	t.Execute = func(ctx context.Context, args map[string]any) (Output, error) {
		if when != nil && !when(args) {
			return inner(ctx, args)
		}
		return r.Execute(ctx, name, args)
	}
	return t
}

// IsolateByName wraps the tools of list named in isolate with Isolated and
// returns the new list in the same order, plus the names that matched no tool.
func IsolateByName(list []Tool, r Runner, isolate []string) ([]Tool, []string) {
	want := map[string]bool{}
	for _, n := range isolate {
		want[n] = true
	}
	out := slices.Clone(list)
	for i, t := range out {
		if want[t.Name()] {
			out[i] = Isolated(t, r)
			delete(want, t.Name())
		}
	}
	var unknown []string
	for _, n := range isolate {
		if want[n] {
			unknown = append(unknown, n)
		}
	}
	return out, unknown
}

// AppendArgs appends generic JSON arguments (what a JSON decoder with UseNumber
// produces) as JSON, numbers copied as written: how a Runner hands a tool the
// very arguments the registry validated. It reports false for a value of any
// other type.
func AppendArgs(b []byte, args any) ([]byte, bool) { return appendArgs(b, args) }
