// Package expr parses and evaluates arithmetic expressions in Python operator
// syntax with exact rational arithmetic and correctly rounded irrational results.
//
// Rationals (integer and decimal literals, + - * / // % and integer powers) are
// exact big.Rat values. A few irrational forms are carried exactly: c·√r (c
// rational, r a non-square integer), q·π and e^q (q rational), so that
// sqrt(2)**2, sqrt(8)/sqrt(2), sin(pi/6), cos(pi), log(e**3) and similar come out
// exact. Everything else is a constructive real: a node that can be approximated
// to any binary precision with a proven error bound, and the final value is
// correctly rounded to the requested number of significant digits.
//
// Input is never evaluated as code: a tokenizer and a recursive-descent parser
// with a depth limit build a tree, and the evaluator walks it.
package expr

// Machine reasons of *Error.
const (
	ReasonSyntax             = "syntax_error"
	ReasonUnknownIdentifier  = "unknown_identifier"
	ReasonUnknownFunction    = "unknown_function"
	ReasonArgCount           = "wrong_argument_count"
	ReasonIntegerRequired    = "integer_required"
	ReasonDomain             = "math_domain_error"
	ReasonDivisionByZero     = "division_by_zero"
	ReasonPrecisionExhausted = "precision_exhausted"

	// Cost reasons (Error.Cost is true).
	ReasonTooLong          = "expression_too_long"
	ReasonNesting          = "nesting_too_deep"
	ReasonResultTooLarge   = "result_too_large"
	ReasonExponent         = "exponent_too_large"
	ReasonFactorial        = "factorial_too_large"
	ReasonArgumentTooLarge = "argument_too_large"
)

// Error is a refusal of the input: a syntax error, a domain error or a cost limit.
type Error struct {
	Reason string // machine reason, one of the Reason* constants
	Msg    string // human message, safe to show
	Pos    int    // 1-based character position for syntax errors, else 0
	Cost   bool   // true when a declared cost limit was hit
}

func (e *Error) Error() string { return e.Reason + ": " + e.Msg }
