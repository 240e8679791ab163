// Package refusal is the one error type the engines under internal/ use to refuse
// input: a machine reason, a message that is safe to show, and whether a declared
// cost limit (rather than the domain) was the ground. Package tools maps it to
// tool_execution_error or cost_limit_exceeded in one place, so an engine never
// needs to know how it is served.
package refusal

import "fmt"

// Error is a refusal of the input.
type Error struct {
	Reason  string // machine reason, e.g. "division_by_zero"
	Message string // human message; never echoes a redacted payload
	Costly  bool   // a declared cost limit, not the domain, refused the input
}

// Error implements error.
func (e *Error) Error() string { return e.Reason + ": " + e.Message }

// Domain returns a refusal on domain grounds (tool_execution_error).
func Domain(reason, format string, args ...any) *Error {
	return &Error{Reason: reason, Message: fmt.Sprintf(format, args...)}
}

// Cost returns a refusal because a declared cost limit would be exceeded
// (cost_limit_exceeded).
func Cost(reason, format string, args ...any) *Error {
	return &Error{Reason: reason, Message: fmt.Sprintf(format, args...), Costly: true}
}
