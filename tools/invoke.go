package tools

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"time"
	"unicode/utf8"

	"github.com/precisiond/precisiond/contracts"
	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/internal/refusal"
)

// Request is one tool call, as every surface receives it.
type Request struct {
	Tool         string
	Args         map[string]any // generic JSON (numbers as json.Number); nil means {}
	ContractHash string         // optional pin; empty means no pin
}

// Response is a successful call: the legacy text line and the envelope.
type Response struct {
	Result   string
	Tool     string
	Envelope *evidence.Envelope
}

// InternalError wraps a failure that is a bug or an unexpected condition. Its
// message is for logs only; clients see "internal error".
type InternalError struct {
	Tool  string
	Err   error
	Stack []byte
}

func (e *InternalError) Error() string { return fmt.Sprintf("%s: %v", e.Tool, e.Err) }
func (e *InternalError) Unwrap() error { return e.Err }

// DefaultTimeout is the per-call deadline applied when the context has none.
const DefaultTimeout = 5 * time.Second

// Invoke runs one call through the single execution path of SPEC §5: find tool →
// enabled? → pin matches? → apply schema defaults → validate input → run under a
// deadline → validate facts → build envelope → check max_result_chars.
//
// Errors are *Error with one of the Code* constants (unknown_tool, tool_disabled,
// contract_mismatch, input_schema_invalid, tool_execution_error,
// cost_limit_exceeded, timeout, tool_result_too_large, output_schema_invalid,
// overloaded) or *InternalError for anything else. ctx should carry the per-call
// deadline; without one DefaultTimeout applies.
func (r *Registry) Invoke(ctx context.Context, req Request) (*Response, error) {
	obs := r.observer.Load()
	if obs == nil {
		return r.invoke(ctx, req)
	}
	start := time.Now()
	resp, err := r.invoke(ctx, req)
	(*obs)(req.Tool, Outcome(err), time.Since(start))
	return resp, err
}

// Outcome names the result of a call for metrics: "ok" for success, else the
// error code (internal_error for anything that is not an *Error).
func Outcome(err error) string {
	if err == nil {
		return "ok"
	}
	var te *Error
	if errors.As(err, &te) {
		return te.Code
	}
	return CodeInternal
}

func (r *Registry) invoke(ctx context.Context, req Request) (*Response, error) {
	i, ok := r.byName[req.Tool]
	if !ok {
		return nil, &Error{Code: CodeUnknownTool, Message: fmt.Sprintf("unknown tool: %s", req.Tool)}
	}
	e := r.tools[i]
	if !r.Enabled(req.Tool) {
		return nil, &Error{Code: CodeToolDisabled, Reason: "disabled", Message: fmt.Sprintf("tool %s is disabled", req.Tool)}
	}
	if req.ContractHash != "" && req.ContractHash != e.contractHash {
		return nil, &Error{Code: CodeContractMismatch, Reason: "contract_hash_differs",
			Message: fmt.Sprintf("contract_hash %s does not match the current contract %s of %s", req.ContractHash, e.contractHash, req.Tool)}
	}
	args := req.Args
	if args == nil {
		args = map[string]any{}
	}
	if err := evidence.CheckNumbers(args); err != nil {
		return nil, &Error{Code: CodeInputSchemaInvalid, Reason: "number_out_of_range", Message: err.Error(),
			Details: []contracts.Detail{{Path: "", Keyword: "number", Message: err.Error()}}}
	}
	c := e.contract
	normalized := c.ApplyDefaults(args)
	if err := c.ValidateInput(normalized); err != nil {
		var ve *contracts.ValidationError
		if errors.As(err, &ve) {
			return nil, &Error{Code: CodeInputSchemaInvalid, Reason: "schema_validation_failed", Message: ve.Error(), Details: ve.Details}
		}
		return nil, &InternalError{Tool: req.Tool, Err: err}
	}

	if r.limit != nil {
		release, err := r.limit.Acquire(ctx)
		if err != nil {
			return nil, err
		}
		defer release()
	}
	if _, has := ctx.Deadline(); !has {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DefaultTimeout)
		defer cancel()
	}
	out, err := run(ctx, e.tool, normalized)
	if err != nil {
		return nil, classify(req.Tool, ctx, err)
	}
	if err := c.ValidateOutput(out.Facts); err != nil {
		return nil, &Error{Code: CodeOutputSchema, Reason: "facts_schema_mismatch",
			Message: fmt.Sprintf("%s produced facts that fail its own outputSchema (%v)", req.Tool, err)}
	}
	env, err := evidence.Build(c, e.contractHash, normalized, out.Facts, out.Warnings)
	if err != nil {
		return nil, &InternalError{Tool: req.Tool, Err: err}
	}
	if max, ok := maxResultChars(c); ok && utf8.RuneCountInString(out.Text) > max {
		return nil, &Error{Code: CodeResultTooLarge, Reason: "max_result_chars",
			Message: fmt.Sprintf("result has %d characters, more than the limit of %d", utf8.RuneCountInString(out.Text), max)}
	}
	return &Response{Result: out.Text, Tool: req.Tool, Envelope: env}, nil
}

func maxResultChars(c *contracts.Contract) (int, bool) {
	n, ok := c.Limits["max_result_chars"].(interface{ Int64() (int64, error) })
	if !ok {
		return 0, false
	}
	v, err := n.Int64()
	return int(v), err == nil
}

// run executes the tool in its own goroutine so that the deadline is kept even by
// a tool that fails to check its context, and turns a panic into an error.
func run(ctx context.Context, t Tool, args map[string]any) (Output, error) {
	type result struct {
		out Output
		err error
	}
	ch := make(chan result, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				ch <- result{err: &InternalError{Tool: t.Contract().Tool, Err: fmt.Errorf("panic: %v", p), Stack: debug.Stack()}}
			}
		}()
		out, err := t.Execute(ctx, args)
		ch <- result{out, err}
	}()
	select {
	case res := <-ch:
		return res.out, res.err
	case <-ctx.Done():
		return Output{}, ctx.Err()
	}
}

func classify(tool string, ctx context.Context, err error) error {
	var te *Error
	if errors.As(err, &te) {
		return te
	}
	var re *refusal.Error
	if errors.As(err, &re) {
		if re.Costly {
			return &Error{Code: CodeCostLimit, Reason: re.Reason, Message: re.Message}
		}
		return &Error{Code: CodeExecution, Reason: re.Reason, Message: re.Message}
	}
	if errors.Is(err, context.DeadlineExceeded) || (errors.Is(err, context.Canceled) && ctx.Err() != nil) {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return &Error{Code: CodeTimeout, Reason: "deadline_exceeded", Message: fmt.Sprintf("%s did not finish within the deadline", tool)}
		}
		return &Error{Code: CodeTimeout, Reason: "canceled", Message: fmt.Sprintf("%s was canceled", tool)}
	}
	var ie *InternalError
	if errors.As(err, &ie) {
		return ie
	}
	return &InternalError{Tool: tool, Err: err}
}

// Limiter bounds concurrent executions. A call waits at most QueueWait for a slot,
// then is refused with CodeOverloaded.
type Limiter struct {
	slots     chan struct{}
	queueWait time.Duration
	onReject  func()
}

// NewLimiter returns a limiter with n slots; callers wait up to queueWait for one.
// onReject, if not nil, is called for every refused call (a metrics hook).
func NewLimiter(n int, queueWait time.Duration, onReject func()) *Limiter {
	if n < 1 {
		n = 1
	}
	return &Limiter{slots: make(chan struct{}, n), queueWait: queueWait, onReject: onReject}
}

// Acquire takes a slot and returns its release function, or an *Error with
// CodeOverloaded when none frees up in time.
func (l *Limiter) Acquire(ctx context.Context) (func(), error) {
	select {
	case l.slots <- struct{}{}:
		return l.release, nil
	default:
	}
	t := time.NewTimer(l.queueWait)
	defer t.Stop()
	select {
	case l.slots <- struct{}{}:
		return l.release, nil
	case <-t.C:
	case <-ctx.Done():
	}
	if l.onReject != nil {
		l.onReject()
	}
	return nil, &Error{Code: CodeOverloaded, Reason: "concurrency_limit", Message: "too many concurrent calls; retry shortly"}
}

func (l *Limiter) release() { <-l.slots }

// InFlight reports how many calls hold a slot right now.
func (l *Limiter) InFlight() int { return len(l.slots) }

// Capacity is the number of slots.
func (l *Limiter) Capacity() int { return cap(l.slots) }
