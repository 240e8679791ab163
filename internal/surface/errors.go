package surface

import (
	"context"
	"errors"
	"log/slog"
	"net/http"

	"github.com/precisiond/precisiond/contracts"
	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/plans"
	"github.com/precisiond/precisiond/tools"
)

// Transport-level error codes (the error table in README, Errors); tool-level
// codes live in package tools.
const (
	CodeInvalidRequest  = tools.CodeInvalidRequest
	CodePayloadTooLarge = "payload_too_large"
	CodeUnsupportedType = "unsupported_media_type"
	CodeShuttingDown    = "shutting_down"
	CodeNotFound        = "not_found"
	CodeUnauthorized    = "unauthorized"
	CodeForbidden       = "forbidden"
	CodeMethodNotAllow  = "method_not_allowed"
	CodeRateLimited     = "rate_limited"     // past the token's rate_per_minute (429 with Retry-After)
	CodeAuthDown        = "auth_unavailable" // an OAuth token cannot be verified now (503)
	CodeNotCovered      = "not_covered"      // /v1/answer: the text is not wholly recognised intents (422)
)

// statusOf is the one table from error codes to HTTP statuses. /v1/invoke and
// every non-invoke route use it; /invoke answers 200 for tool-level errors, as the
// reference does.
var statusOf = map[string]int{
	tools.CodeUnknownTool:        http.StatusNotFound,
	tools.CodeToolDisabled:       http.StatusForbidden,
	tools.CodeContractMismatch:   http.StatusConflict,
	tools.CodeInputSchemaInvalid: http.StatusBadRequest,
	tools.CodeExecution:          http.StatusUnprocessableEntity,
	tools.CodeToolResult:         http.StatusUnprocessableEntity,
	tools.CodeWrongArguments:     http.StatusUnprocessableEntity,
	tools.CodeCostLimit:          http.StatusUnprocessableEntity,
	tools.CodeTimeout:            http.StatusGatewayTimeout,
	tools.CodeResultTooLarge:     http.StatusUnprocessableEntity,
	tools.CodeOutputSchema:       http.StatusInternalServerError,
	tools.CodeInternal:           http.StatusInternalServerError,
	tools.CodeOverloaded:         http.StatusServiceUnavailable,
	tools.CodeStoreUnavailable:   http.StatusServiceUnavailable,
	plans.CodeInvalidPlan:        http.StatusUnprocessableEntity,
	plans.CodeUnknownPlan:        http.StatusNotFound,
	plans.CodeUnknownRun:         http.StatusNotFound,
	CodeInvalidRequest:           http.StatusBadRequest,
	CodePayloadTooLarge:          http.StatusRequestEntityTooLarge,
	CodeUnsupportedType:          http.StatusUnsupportedMediaType,
	CodeShuttingDown:             http.StatusServiceUnavailable,
	CodeNotFound:                 http.StatusNotFound,
	CodeUnauthorized:             http.StatusUnauthorized,
	CodeForbidden:                http.StatusForbidden,
	CodeMethodNotAllow:           http.StatusMethodNotAllowed,
	CodeRateLimited:              http.StatusTooManyRequests,
	CodeAuthDown:                 http.StatusServiceUnavailable,
	CodeNotCovered:               http.StatusUnprocessableEntity,
}

// transportCodes are answered with their real status on /invoke as well.
var transportCodes = map[string]bool{
	CodeInvalidRequest: true, CodePayloadTooLarge: true, CodeUnsupportedType: true,
	CodeShuttingDown: true, tools.CodeOverloaded: true, CodeNotFound: true,
	CodeMethodNotAllow: true, CodeAuthDown: true,
}

// Error is what the handlers of both surfaces return: REST writes it with
// WriteError (api's route wrapper), MCP puts ErrorBody into a tool result.
type Error struct {
	Code    string
	Reason  string
	Message string
	Tool    string
	Details []contracts.Detail
	// Challenge, when set, is sent as WWW-Authenticate (an OAuth scope
	// refusal).
	Challenge string
	// Scope is the scope (space separated) an insufficient_scope refusal
	// names in Challenge.
	Scope string
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// NewError is an error of a code and a message.
func NewError(code, message string) *Error { return &Error{Code: code, Message: message} }

// FromError converts any error of the execution path. Internal errors are logged
// with the request id and shown as "internal error" only.
func FromError(ctx context.Context, log *slog.Logger, tool string, err error) *Error {
	var te *tools.Error
	if errors.As(err, &te) {
		switch {
		case te.Code == tools.CodeInvalidRequest && te.Reason == tools.ReasonArgsNotJSON:
			// The arguments are part of the request body.
			return NewError(CodeInvalidRequest, "request body is not valid JSON: "+te.Message)
		case te.Code == tools.CodeOutputSchema:
			log.Error("facts failed their schema", "request_id", RequestID(ctx), "tool", tool, "err", te.Message)
			return &Error{Code: te.Code, Reason: te.Reason, Message: "internal error: the tool produced facts that fail its own schema", Tool: tool}
		}
		return &Error{Code: te.Code, Reason: te.Reason, Message: te.Message, Tool: tool, Details: te.Details}
	}
	var ie *tools.InternalError
	attrs := []any{"request_id", RequestID(ctx), "tool", tool, "err", err.Error()}
	if errors.As(err, &ie) && ie.Stack != nil {
		attrs = append(attrs, "stack", string(ie.Stack))
	}
	log.Error("internal error", attrs...)
	return &Error{Code: tools.CodeInternal, Message: "internal error", Tool: tool}
}

// ErrorBody is the wire-compatible error shape.
func ErrorBody(e *Error) map[string]any {
	body := map[string]any{"error": e.Message, "error_code": e.Code, "tool": e.Tool}
	if e.Reason != "" {
		body["reason"] = e.Reason
	}
	if len(e.Details) > 0 {
		ds := make([]any, len(e.Details))
		for i, d := range e.Details {
			ds[i] = detailBody(d)
		}
		body["details"] = ds
	}
	return body
}

// detailBody is one entry of an error's details: path, keyword, message and,
// when the schema enumerates what is valid there, allowed.
func detailBody(d contracts.Detail) map[string]any {
	m := map[string]any{"path": d.Path, "keyword": d.Keyword, "message": d.Message}
	if len(d.Allowed) > 0 {
		m["allowed"] = d.Allowed
	}
	return m
}

// StatusFor is the HTTP status of an error code; legacy200 keeps tool-level
// errors at HTTP 200 (/invoke, as the reference does).
func StatusFor(code string, legacy200 bool) int {
	if legacy200 && !transportCodes[code] {
		return http.StatusOK
	}
	if status := statusOf[code]; status != 0 {
		return status
	}
	return http.StatusInternalServerError
}

// WriteError writes e with the status of its code. It is the one writer of
// error bodies: the route wrapper, the router's fallbacks and the middleware
// that refuses requests before any route all use it.
func WriteError(w http.ResponseWriter, e *Error, legacy200 bool) {
	status := StatusFor(e.Code, legacy200)
	if e.Challenge != "" {
		w.Header().Set("WWW-Authenticate", e.Challenge)
	}
	if status == http.StatusServiceUnavailable {
		w.Header().Set("Retry-After", "1")
	}
	WriteJSON(w, status, ErrorBody(e))
}

// ErrorResponse converts an error of the execution path into the wire error body
// and the status /v1/invoke would use. Internal errors are logged and hidden.
func ErrorResponse(ctx context.Context, log *slog.Logger, tool string, err error) (int, map[string]any) {
	e := FromError(ctx, log, tool, err)
	return StatusFor(e.Code, false), ErrorBody(e)
}

// WriteJSON writes v as canonical JSON with a status (an internal error body
// if v cannot be encoded).
func WriteJSON(w http.ResponseWriter, status int, v any) {
	b, err := evidence.Canonical(v)
	if err != nil {
		status = http.StatusInternalServerError
		b = []byte(`{"error":"internal error","error_code":"internal_error","tool":""}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}
