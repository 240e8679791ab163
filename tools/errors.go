package tools

import (
	"fmt"

	"github.com/precisiond/precisiond/contracts"
)

// Error codes of the wire-compatible error table (README, Errors).
const (
	CodeUnknownTool        = "unknown_tool"
	CodeToolDisabled       = "tool_disabled"
	CodeContractMismatch   = "contract_mismatch"
	CodeInputSchemaInvalid = "input_schema_invalid"
	CodeExecution          = "tool_execution_error"
	// CodeToolResult is a refusal the reference sidecar reports as a tool that
	// returned an error text (unit_convert's failing conversions); our reason
	// and message say what failed.
	CodeToolResult = "tool_result_error"
	// CodeWrongArguments is the reference's answer when its tool function
	// cannot take the arguments (its TypeError path): for unit_convert, a
	// from_unit whose numeric factor has no real value.
	CodeWrongArguments = "wrong_arguments"
	CodeCostLimit      = "cost_limit_exceeded"
	CodeTimeout        = "timeout"
	CodeResultTooLarge = "tool_result_too_large"
	CodeOutputSchema   = "output_schema_invalid"
	CodeInternal       = "internal_error"
	CodeOverloaded     = "overloaded"
	// CodeStoreUnavailable: the call needs the store every replica shares
	// (generate_file's downloads; plans, toggles and downloads on other
	// routes) and the store is not configured, not answering or refusing
	// writes; a condition of the service, not of the input: retry later.
	CodeStoreUnavailable = "store_unavailable"
	// CodeInvalidRequest is a malformed request: for Call, arguments that are
	// not a JSON object (reason args_not_json or args_not_object).
	CodeInvalidRequest = "invalid_request"
)

// Error is a typed, client-visible error of the execution path. Tools return it
// (through Fail and TooCostly) to refuse input on domain grounds; a
// *refusal.Error from an engine under internal/ is mapped the same way.
// Everything else a tool returns is treated as an internal error and never shown
// to the client.
type Error struct {
	Code    string             // one of the Code* constants
	Reason  string             // machine reason, e.g. "division_by_zero"; may be empty
	Message string             // human message, safe to show
	Details []contracts.Detail // schema error details, for input_schema_invalid
}

func (e *Error) Error() string {
	if e.Reason != "" {
		return e.Code + " (" + e.Reason + "): " + e.Message
	}
	return e.Code + ": " + e.Message
}

// Fail returns a tool_execution_error: the tool refuses the input on domain grounds,
// with a machine reason such as "division_by_zero".
func Fail(reason, format string, args ...any) *Error {
	return &Error{Code: CodeExecution, Reason: reason, Message: fmt.Sprintf(format, args...)}
}

// FailResult returns a tool_result_error: a refusal on domain grounds by a tool
// whose reference answers it so (see CodeToolResult).
func FailResult(reason, format string, args ...any) *Error {
	return &Error{Code: CodeToolResult, Reason: reason, Message: fmt.Sprintf(format, args...)}
}

// Reasons of store_unavailable errors.
const (
	ReasonStoreNotConfigured = "not_configured" // the service runs without a store
	ReasonStoreNotAnswering  = "not_answering"  // the store did not answer in time
	ReasonStoreRefused       = "refused"        // the store answered but refused (read-only, full, denied)
)

// StoreUnavailable returns a store_unavailable error with one of the
// ReasonStore* reasons.
func StoreUnavailable(reason, format string, args ...any) *Error {
	return &Error{Code: CodeStoreUnavailable, Reason: reason, Message: fmt.Sprintf(format, args...)}
}

// TooCostly returns a cost_limit_exceeded error: the input would exceed a declared
// cost limit (exponent, bits, iterations); check before the expensive work starts.
func TooCostly(reason, format string, args ...any) *Error {
	return &Error{Code: CodeCostLimit, Reason: reason, Message: fmt.Sprintf(format, args...)}
}
