package api

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"sync"

	"github.com/precisiond/precisiond/internal/intent"
	"github.com/precisiond/precisiond/internal/surface"
	"github.com/precisiond/precisiond/tools"
)

// IntentRules is the embedded intent rule set, loaded once.
var IntentRules = sync.OnceValues(intent.Load)

// intentRequest is the body of /v1/intents and /v1/answer.
type intentRequest struct {
	text  string
	tools []string // nil: every tool of the registry with an intent contract
}

func (s *Server) decodeIntentRequest(r *http.Request) (intentRequest, *surface.Error) {
	var req intentRequest
	body, aerr := s.readObject(r)
	if aerr != nil {
		return req, aerr
	}
	for k := range body {
		if k != "text" && k != "tools" {
			return req, surface.NewError(surface.CodeInvalidRequest, "unknown field "+surface.QuoteShort(k)+" in request body (allowed: text, tools)")
		}
	}
	text, ok := body["text"].(string)
	if !ok {
		return req, surface.NewError(surface.CodeInvalidRequest, `"text" must be a string`)
	}
	if len(text) > intent.MaxTextBytes {
		return req, surface.NewError(surface.CodePayloadTooLarge, `"text" exceeds 16384 bytes`)
	}
	req.text = text
	if v, present := body["tools"]; present && v != nil {
		list, ok := v.([]any)
		if !ok {
			return req, surface.NewError(surface.CodeInvalidRequest, `"tools" must be an array of tool names`)
		}
		req.tools = []string{}
		for _, e := range list {
			name, ok := e.(string)
			if !ok {
				return req, surface.NewError(surface.CodeInvalidRequest, `"tools" must be an array of tool names`)
			}
			req.tools = append(req.tools, name)
		}
	}
	return req, nil
}

// recognize runs the recognizer over the tools this registry serves (and the
// allowlist, when given).
func (s *Server) recognize(req intentRequest) (*intent.Result, *surface.Error) {
	if _, err := IntentRules(); err != nil {
		s.log.Error("intent rules", "err", err.Error())
		return nil, surface.NewError(tools.CodeInternal, "internal error")
	}
	res, err := RecognizeFor(s.reg, req.text, req.tools)
	if err != nil {
		var ut *intent.UnknownToolError
		if errors.As(err, &ut) {
			return nil, s.unknownTool(ut.Tool)
		}
		return nil, surface.NewError(surface.CodeInvalidRequest, err.Error())
	}
	return res, nil
}

// RecognizeFor recognizes text with the IntentRules among the tools reg
// serves that have an intent contract, narrowed to allow when it is not nil.
// A name in allow that reg does not serve is an *intent.UnknownToolError.
// POST /v1/intents and /v1/answer and precisiond intents and answer all
// recognize through it.
func RecognizeFor(reg *tools.Registry, text string, allow []string) (*intent.Result, error) {
	rules, err := IntentRules()
	if err != nil {
		return nil, err
	}
	served := []string{}
	for _, name := range rules.Tools() {
		if _, _, ok := reg.Lookup(name); ok {
			served = append(served, name)
		}
	}
	if allow != nil {
		for _, name := range allow {
			if _, _, ok := reg.Lookup(name); !ok {
				return nil, &intent.UnknownToolError{Tool: name}
			}
		}
		both := []string{}
		for _, name := range allow {
			if slices.Contains(served, name) {
				both = append(both, name)
			}
		}
		served = both
	}
	return rules.Recognize(text, served)
}

// intents is POST /v1/intents.
func (s *Server) intents(r *http.Request) (any, *surface.Error) {
	res, aerr := s.recognizeRequest(r)
	if aerr != nil {
		return nil, aerr
	}
	return res, nil
}

// recognizeRequest decodes a /v1/intents or /v1/answer body and recognizes
// its text.
func (s *Server) recognizeRequest(r *http.Request) (*intent.Result, *surface.Error) {
	req, aerr := s.decodeIntentRequest(r)
	if aerr != nil {
		return nil, aerr
	}
	return s.recognize(req)
}

// answer is POST /v1/answer: a covered request's intents through the
// execution path of /v1/invoke, and the deterministic answer.
func (s *Server) answer(r *http.Request) (any, *surface.Error) {
	if s.draining.Load() {
		return nil, surface.NewError(surface.CodeShuttingDown, "the service is shutting down")
	}
	res, aerr := s.recognizeRequest(r)
	if aerr != nil {
		return nil, aerr
	}
	if !res.Covered {
		return withStatus{http.StatusUnprocessableEntity, NotCoveredBody(res)}, nil
	}
	ctx := r.Context()
	body, err := AnswerCovered(ctx, s.reg, res, func(ctx context.Context, tool string) error {
		if aerr := s.authorizeTool(ctx, tool); aerr != nil {
			return aerr
		}
		return nil
	})
	if err != nil {
		var ae *surface.Error
		if errors.As(err, &ae) {
			return nil, ae
		}
		var ce *intent.CallError
		if errors.As(err, &ce) {
			return nil, surface.FromError(ctx, s.log, ce.Tool, ce.Err)
		}
		s.log.Error("rendering an answer", "request_id", surface.RequestID(ctx), "err", err.Error())
		return nil, surface.NewError(tools.CodeInternal, "internal error")
	}
	return body, nil
}

// AnswerCovered runs each intent of a covered result through reg, as
// /v1/invoke does, after authorize (nil: every tool) allows its tool, and
// returns the /v1/answer body. An error is authorize's, an *intent.CallError
// (a tool call failed: render it with ErrorResponse) or an internal one.
// POST /v1/answer and precisiond answer both answer through it.
func AnswerCovered(ctx context.Context, reg *tools.Registry, res *intent.Result, authorize func(ctx context.Context, tool string) error) (map[string]any, error) {
	rules, err := IntentRules()
	if err != nil {
		return nil, err
	}
	out, err := rules.Answer(ctx, res, func(ctx context.Context, in intent.Intent) (*tools.Response, error) {
		if authorize != nil {
			if err := authorize(ctx, in.Tool); err != nil {
				return nil, err
			}
		}
		return reg.Invoke(ctx, tools.Request{Tool: in.Tool, Args: in.Args})
	})
	if err != nil {
		var ce *intent.CallError
		if errors.As(err, &ce) {
			var ae *surface.Error
			if errors.As(ce.Err, &ae) {
				return nil, ae
			}
		}
		return nil, err
	}
	return AnswerBody(res, out), nil
}

// AnswerBody is the /v1/answer success body.
func AnswerBody(res *intent.Result, out *intent.Answered) map[string]any {
	results := make([]any, len(out.Responses))
	for i, resp := range out.Responses {
		results[i] = ResponseBody(resp)
	}
	return map[string]any{
		"answer":             out.Text,
		"covered":            true,
		"intents":            res.Intents,
		"results":            results,
		"recognizer_version": res.Version,
		"recognizer_hash":    res.Hash,
	}
}

// NotCoveredBody is /v1/answer's 422 body: the error and what was found.
func NotCoveredBody(res *intent.Result) map[string]any {
	return map[string]any{
		"error":              "the request is not completely a set of recognised intents; plan it with a model (see intents and declined)",
		"error_code":         surface.CodeNotCovered,
		"tool":               "",
		"covered":            false,
		"intents":            res.Intents,
		"declined":           res.Decline,
		"recognizer_version": res.Version,
		"recognizer_hash":    res.Hash,
	}
}
