package tools

import (
	"context"
	"testing"

	"github.com/precisiond/precisiond/contracts"
)

// TestStartupSelfCheck: the built-in read-only tools pass their examples,
// and the count covers every example of a list.
func TestStartupSelfCheck(t *testing.T) {
	if err := StartupSelfCheck(context.Background()); err != nil {
		t.Fatal(err)
	}
	list := []Tool{
		{Contract: &contracts.Contract{Examples: make([]contracts.Example, 2)}},
		{Contract: &contracts.Contract{Examples: make([]contracts.Example, 3)}},
	}
	if got, want := CountExamples(list), 5; got != want {
		t.Errorf("CountExamples: got %d, want %d", got, want)
	}
}
