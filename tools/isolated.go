package tools

import (
	"context"
	"fmt"

	"github.com/precisiond/precisiond/contracts"
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

// Isolated returns t with every call executed by r. The contract, validation and
// envelope stay in process (the registry does not change); only Execute, on
// arguments already normalized and validated, moves out.
func Isolated(t Tool, r Runner) Tool { return IsolatedWhen(t, r, nil) }

// IsolatedWhen is Isolated for the calls whose normalized arguments satisfy
// when (nil: every call); the others run in process. A tool whose cheap calls are
// provably bounded (structured_validate without a schema) keeps them fast.
func IsolatedWhen(t Tool, r Runner, when func(args map[string]any) bool) Tool {
	return &isolatedTool{inner: t, runner: r, when: when}
}

type isolatedTool struct {
	inner  Tool
	runner Runner
	when   func(map[string]any) bool
}

var _ Tool = (*isolatedTool)(nil)

func (t *isolatedTool) Contract() *contracts.Contract { return t.inner.Contract() }

// Render re-renders in this process: it runs nothing.
func (t *isolatedTool) Render(input, facts map[string]any) (string, error) {
	r, ok := t.inner.(Renderer)
	if !ok {
		return "", fmt.Errorf("%s cannot re-render its result text", t.inner.Contract().Tool)
	}
	return r.Render(input, facts)
}

func (t *isolatedTool) argHints() map[string]func(string) []string {
	if h, ok := t.inner.(argHinter); ok {
		return h.argHints()
	}
	return nil
}

// Canonicalize runs in this process, before the call is sent anywhere.
func (t *isolatedTool) Canonicalize(args map[string]any) {
	if c, ok := t.inner.(Canonicalizer); ok {
		c.Canonicalize(args)
	}
}

func (t *isolatedTool) Execute(ctx context.Context, args map[string]any) (Output, error) {
	if t.when != nil && !t.when(args) {
		return t.inner.Execute(ctx, args)
	}
	return t.runner.Execute(ctx, t.inner.Contract().Tool, args)
}

// IsolateByName wraps the tools of list named in isolate with Isolated (or with
// IsolatedWhen where when names a predicate for that tool) and returns the new
// list in the same order, plus the names that matched no tool.
func IsolateByName(list []Tool, r Runner, isolate []string, when map[string]func(map[string]any) bool) ([]Tool, []string) {
	want := map[string]bool{}
	for _, n := range isolate {
		want[n] = true
	}
	out := make([]Tool, len(list))
	for i, t := range list {
		name := t.Contract().Tool
		if want[name] {
			out[i] = IsolatedWhen(t, r, when[name])
			delete(want, name)
		} else {
			out[i] = t
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
