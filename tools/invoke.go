package tools

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"time"
	"unicode/utf8"

	"github.com/precisiond/precisiond/contracts"
	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/internal/refusal"
	"github.com/precisiond/precisiond/internal/suggest"
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
	// EnvelopeJSON is canonical(Envelope), written once inside the call's
	// deadline (its size is checked against max_result_chars); surfaces
	// write these bytes.
	EnvelopeJSON []byte
	// Attestation is the JWS that signs the envelope (SetAttester), written
	// beside structured_result; empty when the registry signs nothing.
	Attestation string
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

// DefaultTimeout is the deadline of one call when the registry's Options set
// none. It is the one default of every surface (REST, MCP, CLI).
const DefaultTimeout = 5 * time.Second

// Call runs one call through the single execution path, the one
// entry point of every surface (REST, MCP, CLI): find tool → enabled? → pin
// matches? → start the deadline → take a slot → parse the arguments → apply
// schema defaults → validate input → run → check max_result_chars → validate
// facts → build the envelope. Everything after the slot runs in a goroutine
// that keeps the slot until its work has stopped, even when the caller has
// already been answered with timeout. args is the JSON text of the arguments
// object; empty or "null" mean {}. pin is an optional contract_hash; empty
// means no pin.
//
// Errors are *Error with one of the Code* constants (unknown_tool,
// tool_disabled, contract_mismatch, invalid_request for arguments that are not
// a JSON object, input_schema_invalid, tool_execution_error,
// cost_limit_exceeded, timeout, tool_result_too_large, output_schema_invalid,
// overloaded) or *InternalError for anything else. The deadline is the
// registry's timeout or ctx's, whichever is earlier.
func (r *Registry) Call(ctx context.Context, tool string, args []byte, pin string) (*Response, error) {
	return r.observed(ctx, tool, rawArgs(args), pin)
}

// Invoke is Call for arguments that are already decoded as generic JSON values
// (objects as map[string]any, numbers as json.Number; nil means {}), for
// callers that hold them so (tests, plans). Out-of-range numbers are refused
// with input_schema_invalid reason number_out_of_range.
func (r *Registry) Invoke(ctx context.Context, req Request) (*Response, error) {
	return r.observed(ctx, req.Tool, decodedArgs(req.Args), req.ContractHash)
}

func (r *Registry) observed(ctx context.Context, tool string, args argSource, pin string) (*Response, error) {
	if r.observe == nil {
		return r.call(ctx, tool, args, pin)
	}
	start := time.Now()
	resp, err := r.call(ctx, tool, args, pin)
	if _, known := r.byName[tool]; !known {
		tool = "" // a caller's name for no tool is not a label value
	}
	r.observe(tool, Outcome(err), time.Since(start))
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

// argSource is a call's arguments as a surface received them: JSON text to
// parse, or values already decoded.
type argSource struct {
	raw     []byte
	decoded map[string]any
	isRaw   bool
}

func rawArgs(b []byte) argSource             { return argSource{raw: b, isRaw: true} }
func decodedArgs(m map[string]any) argSource { return argSource{decoded: m} }

// parse returns the arguments as a generic JSON object.
func (a argSource) parse() (map[string]any, error) {
	if !a.isRaw {
		if a.decoded == nil {
			return map[string]any{}, nil
		}
		if err := evidence.CheckNumbers(a.decoded); err != nil {
			return nil, &Error{Code: CodeInputSchemaInvalid, Reason: "number_out_of_range", Message: err.Error(),
				Details: []contracts.Detail{{Path: "", Keyword: "number", Message: err.Error()}}}
		}
		return a.decoded, nil
	}
	raw := bytes.TrimSpace(a.raw)
	if len(raw) == 0 || string(raw) == "null" {
		return map[string]any{}, nil
	}
	v, err := evidence.ParseJSON(raw)
	if err != nil {
		var te *evidence.TextError
		if errors.As(err, &te) {
			msg := "arguments contain " + te.Error()
			return nil, &Error{Code: CodeInputSchemaInvalid, Reason: te.Reason, Message: msg,
				Details: []contracts.Detail{{Path: "", Keyword: "encoding", Message: msg}}}
		}
		return nil, &Error{Code: CodeInvalidRequest, Reason: ReasonArgsNotJSON, Message: err.Error()}
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, &Error{Code: CodeInvalidRequest, Reason: ReasonArgsNotObject, Message: "arguments must be a JSON object"}
	}
	return obj, nil
}

// Reasons of invalid_request errors from Call: the surfaces answer them in their
// own words (REST "request body is not valid JSON", MCP invalid params).
const (
	ReasonArgsNotJSON   = "args_not_json"
	ReasonArgsNotObject = "args_not_object"
)

// resolve finds the entry of a call: unknown_tool, tool_disabled or
// contract_mismatch otherwise.
func (r *Registry) resolve(tool, pin string) (entry, error) {
	i, ok := r.byName[tool]
	if !ok {
		return entry{}, r.UnknownTool(tool)
	}
	e := r.tools[i]
	if !r.Enabled(tool) {
		return entry{}, &Error{Code: CodeToolDisabled, Reason: "disabled", Message: fmt.Sprintf("tool %s is disabled", tool)}
	}
	if pin != "" && pin != e.contractHash {
		return entry{}, &Error{Code: CodeContractMismatch, Reason: "contract_hash_differs",
			Message: fmt.Sprintf("contract_hash %s does not match the current contract %s of %s", pin, e.contractHash, tool)}
	}
	return e, nil
}

func (r *Registry) call(ctx context.Context, tool string, args argSource, pin string) (*Response, error) {
	if len(tool) > MaxToolNameBytes {
		return nil, &Error{Code: CodeInvalidRequest, Reason: "tool_name_too_long",
			Message: fmt.Sprintf("tool name of %d bytes; tool names have at most %d", len(tool), MaxToolNameBytes)}
	}
	e, err := r.resolve(tool, pin)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel() // on return, an abandoned execution sees its context end
	r.waiting.Add(1)
	defer r.waiting.Add(-1)
	release := func() {}
	if r.limit != nil {
		if release, err = r.limit.Acquire(ctx); err != nil {
			return nil, err
		}
	}
	// The execution owns the slot: it is released by the goroutine that does
	// the work, when the work has stopped, not when this caller stops waiting.
	// Until then new calls queue for the slot and are refused with overloaded;
	// they are never started on top.
	done := make(chan result, 1)
	r.started(1)
	go func() {
		res := r.execute(ctx, e, args)
		r.started(-1)
		release()
		done <- res
	}()
	select {
	case res := <-done:
		return res.resp, res.err
	case <-ctx.Done():
		return nil, classify(tool, ctx, ctx.Err())
	}
}

// result is what an execution hands back to its caller.
type result struct {
	resp *Response
	err  error
}

// execute is one call's work, run by the goroutine that holds its slot: parse
// the arguments → apply schema defaults → validate input → canonical spellings
// (zone ids) → (a verified answer from the answer cache, for a contract that
// allows it) → run the tool → check the result's size → validate facts →
// build the envelope → sign it (SetAttester) and keep it in the cache. Every
// step runs under the call's deadline; a panic becomes an internal error.
func (r *Registry) execute(ctx context.Context, e entry, args argSource) (res result) {
	c := e.contract
	defer func() {
		if p := recover(); p != nil {
			res = result{err: &InternalError{Tool: c.Tool, Err: fmt.Errorf("panic: %v", p), Stack: debug.Stack()}}
		}
	}()
	fail := func(err error) result { return result{err: classify(c.Tool, ctx, err)} }
	obj, err := args.parse()
	if err != nil {
		return fail(err)
	}
	normalized := c.ApplyDefaults(obj)
	if err := c.ValidateInput(normalized); err != nil {
		var ve *contracts.ValidationError
		if errors.As(err, &ve) {
			return fail(&Error{Code: CodeInputSchemaInvalid, Reason: "schema_validation_failed", Message: InputErrorMessage(c.Tool, ve),
				Details: withArgHints(e.tool, normalized, ve.Details)})
		}
		return fail(err)
	}
	if e.tool.Canonicalize != nil {
		e.tool.Canonicalize(normalized)
	}
	if err := ctx.Err(); err != nil {
		return fail(err)
	}
	hk := r.currentHooks()
	var key CacheKey
	cacheable := hk.cache != nil && hk.attester != nil && AnswerCacheable(c)
	if cacheable {
		if key, err = cacheKey(c, e.contractHash, normalized); err != nil {
			return fail(err)
		}
		if resp := hk.cache.Lookup(ctx, key); resp != nil {
			return result{resp: resp}
		}
	}
	if r.guard != nil && c.AccessKind == "write" {
		if err := r.guard(); err != nil {
			return fail(err)
		}
	}
	out, err := e.tool.Execute(ctx, normalized)
	if err != nil {
		return fail(err)
	}
	max, limited := maxResultChars(c)
	if limited && len(out.Text) > max {
		// Characters as the reference counts them (Python's len): code points.
		// A text of at most max bytes has at most max characters, so the count
		// is needed only beyond that.
		if n := utf8.RuneCountInString(out.Text); n > max {
			return fail(tooLarge("result text", n, max))
		}
	}
	if err := ctx.Err(); err != nil {
		return fail(err)
	}
	if err := c.ValidateOutput(out.Facts); err != nil {
		return fail(&Error{Code: CodeOutputSchema, Reason: "facts_schema_mismatch",
			Message: fmt.Sprintf("%s produced facts that fail its own outputSchema (%v)", c.Tool, err)})
	}
	env, err := evidence.Build(c, e.contractHash, normalized, out.Facts, out.Warnings)
	if err != nil {
		return fail(err)
	}
	raw, err := env.AppendCanonical(nil)
	if err != nil {
		return fail(err)
	}
	if limited {
		// The envelope repeats the facts with a bounded frame (ids, hashes,
		// source, warnings), so it may exceed the text's limit by that frame
		// only: a result the reference accepts is never refused here.
		if n := len(raw) - env.InputBytes(); n > max+EnvelopeAllowance {
			if n = utf8.RuneCount(raw) - env.InputChars(); n > max+EnvelopeAllowance {
				return fail(tooLarge("envelope (without input_normalized)", n, max+EnvelopeAllowance))
			}
		}
	}
	if err := ctx.Err(); err != nil {
		return fail(err)
	}
	resp := &Response{Result: out.Text, Tool: c.Tool, Envelope: env, EnvelopeJSON: raw}
	if hk.attester != nil {
		if resp.Attestation, err = hk.attester.SignResult(env); err != nil {
			return fail(&InternalError{Tool: c.Tool, Err: err})
		}
		if cacheable {
			hk.cache.Store(ctx, key, resp)
		}
	}
	return result{resp: resp}
}

// InputErrorMessage is the error text of arguments that fail the input
// schema, the reference sidecar's: "Input schema validation failed for
// '<tool>': <path>:<keyword>" of the first failure in its order.
func InputErrorMessage(tool string, ve *contracts.ValidationError) string {
	return fmt.Sprintf("Input schema validation failed for '%s': %s", tool, ve.Error())
}

// UnknownTool is the unknown_tool error for name: its message names the
// registered tools nearest to it (edit distance), its first detail (keyword
// "tool") lists every registered tool, and a did_you_mean detail follows for
// each near one.
func (r *Registry) UnknownTool(name string) *Error {
	names := r.Names()
	near := suggest.Closest(name, names, contracts.MaxSuggestions)
	allowed := make([]any, len(names))
	for i, n := range names {
		allowed[i] = n
	}
	details := []contracts.Detail{{Path: "", Keyword: "tool",
		Message: fmt.Sprintf("no tool is named %q%s", name, suggest.Phrase(near)), Allowed: allowed}}
	return &Error{Code: CodeUnknownTool, Message: "unknown tool: " + name + suggest.Phrase(near),
		Details: append(details, contracts.DidYouMean("", near...)...)}
}

// MaxToolNameBytes bounds the tool name of a call: a longer one is refused
// before it is looked up or logged (tool names are short; an unbounded one
// would be echoed into errors and logs).
const MaxToolNameBytes = 64

// EnvelopeAllowance is how many characters the canonical envelope (without
// input_normalized) may have beyond limits.max_result_chars: the frame around
// the facts (status, tool, contract ids and hash, determinism, source, result
// hash and a few warnings) is well under it.
const EnvelopeAllowance = 4096

func tooLarge(what string, n, max int) *Error {
	return &Error{Code: CodeResultTooLarge, Reason: "max_result_chars",
		Message: fmt.Sprintf("%s has %d characters, more than the limit of %d (max_result_chars, counted in Unicode code points)", what, n, max)}
}

func maxResultChars(c *contracts.Contract) (int, bool) {
	n, ok := c.Limits["max_result_chars"].(interface{ Int64() (int64, error) })
	if !ok {
		return 0, false
	}
	v, err := n.Int64()
	return int(v), err == nil
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

// InFlight reports how many slots are held right now: by executions that have
// not stopped yet.
func (l *Limiter) InFlight() int { return len(l.slots) }

// Capacity is the number of slots.
func (l *Limiter) Capacity() int { return cap(l.slots) }
