package refusaltest

import (
	"errors"
	"fmt"
	"testing"

	"github.com/precisiond/precisiond/internal/refusal"
)

// recorder is a testing.TB that records Fatalf instead of stopping the test.
type recorder struct {
	testing.TB
	failed bool
}

func (r *recorder) Helper() {}

func (r *recorder) Fatalf(string, ...any) { r.failed = true }

func TestRefused(t *testing.T) {
	typed := refusal.Domain("bad", "bad input")
	for _, c := range []struct {
		name          string
		err           error
		refused, fail bool
	}{
		{"nil", nil, false, false},
		{"typed", typed, true, false},
		{"wrapped", fmt.Errorf("parse: %w", typed), true, false},
		{"untyped", errors.New("boom"), true, true},
	} {
		r := &recorder{TB: t}
		if got := Refused[*refusal.Error](r, c.err, "x"); got != c.refused || r.failed != c.fail {
			t.Errorf("%s: Refused = %v, failed = %v; want %v, %v", c.name, got, r.failed, c.refused, c.fail)
		}
	}
}
