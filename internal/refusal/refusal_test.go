package refusal

import (
	"errors"
	"fmt"
	"testing"
)

func TestRefusal(t *testing.T) {
	d := Domain("division_by_zero", "division by %s", "zero")
	c := Cost("too_big", "n has %d bits", 70000)
	if d.Costly || !c.Costly {
		t.Fatalf("Costly: domain %v, cost %v", d.Costly, c.Costly)
	}
	if d.Error() != "division_by_zero: division by zero" || c.Message != "n has 70000 bits" {
		t.Fatalf("messages: %q, %q", d.Error(), c.Message)
	}
	var got *Error
	if !errors.As(fmt.Errorf("wrapped: %w", c), &got) || got != c {
		t.Fatal("a wrapped refusal is not found by errors.As")
	}
}
