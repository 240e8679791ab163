package regexpy

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// lateCancel is a context whose Err is nil for its first n calls and
// context.Canceled after: it reaches the checks inside the VM that a context
// cancelled from the start would never get to.
type lateCancel struct {
	context.Context
	n atomic.Int64
}

func (c *lateCancel) Err() error {
	if c.n.Add(-1) < 0 {
		return context.Canceled
	}
	return nil
}

func (c *lateCancel) Done() <-chan struct{} { return nil }

func (c *lateCancel) Deadline() (time.Time, bool) { return time.Time{}, false }

// TestContextInsideAdd: the context is also checked while the VM follows the
// empty-width part of the program at one position, not only between
// positions; the first check inside add comes before any step is taken.
func TestContextInsideAdd(t *testing.T) {
	re, err := Compile(`(?:a|b)*c`, "")
	if err != nil {
		t.Fatal(err)
	}
	ctx := &lateCancel{Context: context.Background()}
	ctx.n.Store(1) // the check at the first position passes, the one in add does not
	err = re.FindAll(ctx, []rune("ababab"), Limits{}, func(Match) bool { return true })
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled from inside add", err)
	}
}

// TestCaptureCopiesCharged: a new thread copies every capture slot, so a
// pattern with many groups that its threads never pass through still pays
// for them. `a|(b)(b)...(b)` with 500 groups matches each a of the text
// with a thread that copies 1002 slots; charged one step per 16 groups, the
// text needs far more steps than the same pattern without groups.
func TestCaptureCopiesCharged(t *testing.T) {
	text := []rune(strings.Repeat("a", 10_000))
	run := func(pattern string) error {
		re, err := Compile(pattern, "")
		if err != nil {
			t.Fatal(err)
		}
		return re.FindAll(context.Background(), text, Limits{MaxSteps: 300_000}, func(Match) bool { return true })
	}
	if err := run("a|" + strings.Repeat("(?:b)", 500)); err != nil {
		t.Fatalf("without groups: %v", err)
	}
	var ce *CostError
	if err := run("a|" + strings.Repeat("(b)", 500)); !errors.As(err, &ce) {
		t.Fatalf("500 groups: got %v, want the step limit", err)
	}
}
