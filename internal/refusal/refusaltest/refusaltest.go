// Package refusaltest checks, in tests and fuzz targets, that an engine refuses
// bad input with its typed error and not with an untyped one: the check every
// fuzz target of the engines makes, written once.
package refusaltest

import (
	"errors"
	"testing"
)

// Refused reports whether err is non-nil, after failing the test unless err is
// (or wraps) an E; input, when not empty, is quoted in the failure. A fuzz
// target calls it to stop at a refusal:
//
//	v, err := Parse(s)
//	if refusaltest.Refused[*Error](t, err, s) {
//		return
//	}
func Refused[E error](t testing.TB, err error, input string) bool {
	t.Helper()
	if err == nil {
		return false
	}
	var e E
	if !errors.As(err, &e) {
		if input != "" {
			t.Fatalf("%q: untyped error %T %v", input, err, err)
		}
		t.Fatalf("untyped error %T %v", err, err)
	}
	return true
}
