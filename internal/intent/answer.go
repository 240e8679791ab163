package intent

import (
	"context"
	"fmt"

	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/tools"
)

// Call runs one intent through the registry's execution path (the caller adds
// its own checks, such as a token's scope).
type Call func(ctx context.Context, in Intent) (*tools.Response, error)

// CallError is the failure of one intent's call.
type CallError struct {
	Tool string
	Err  error
}

func (e *CallError) Error() string { return e.Tool + ": " + e.Err.Error() }
func (e *CallError) Unwrap() error { return e.Err }

// Answered is the deterministic answer of a covered request.
type Answered struct {
	Text      string
	Responses []*tools.Response
}

// Answer runs every intent of a covered result through call, in order, and
// renders the answer from the facts. It returns a *CallError for a call that
// fails and an error for a result that is not covered or a fact the answer
// cannot be written from.
func (r *Rules) Answer(ctx context.Context, res *Result, call Call) (*Answered, error) {
	if !res.Covered || len(res.Intents) == 0 {
		return nil, fmt.Errorf("intent: the request is not covered")
	}
	out := &Answered{}
	sentences := make([]string, 0, len(res.Intents))
	for _, in := range res.Intents {
		resp, err := call(ctx, in)
		if err != nil {
			return nil, &CallError{Tool: in.Tool, Err: err}
		}
		facts, err := genericFacts(resp)
		if err != nil {
			return nil, err
		}
		s, err := r.Render(in, facts)
		if err != nil {
			return nil, err
		}
		sentences = append(sentences, s)
		out.Responses = append(out.Responses, resp)
	}
	out.Text = Answer(sentences)
	return out, nil
}

// genericFacts is the facts of a response as generic JSON (numbers as
// json.Number), as a client reads them.
func genericFacts(resp *tools.Response) (map[string]any, error) {
	b, err := evidence.Canonical(resp.Envelope.Facts())
	if err != nil {
		return nil, err
	}
	v, err := evidence.ParseJSON(b)
	if err != nil {
		return nil, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("intent: the facts of %s are not an object", resp.Tool)
	}
	return m, nil
}
