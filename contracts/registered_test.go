package contracts_test

import (
	"slices"
	"testing"

	"github.com/precisiond/precisiond/contracts"
	"github.com/precisiond/precisiond/tools"
)

// TestEveryDefinitionIsRegistered: every defs/*.json loads, and the service's
// tool list (tools.Builtin) has exactly one tool per definition, using that
// very contract.
func TestEveryDefinitionIsRegistered(t *testing.T) {
	names := contracts.Names()
	if len(names) == 0 {
		t.Fatal("no embedded contracts")
	}
	var builtin []string
	for _, tool := range tools.Builtin(tools.Deps{}) {
		c := tool.Contract
		builtin = append(builtin, c.Tool)
		if loaded, err := contracts.Load(c.Tool); err != nil || loaded != c {
			t.Errorf("%s: the registered contract is not defs/%s.json (%v)", c.Tool, c.Tool, err)
		}
	}
	slices.Sort(builtin)
	if !slices.Equal(builtin, names) {
		t.Errorf("registered tools %v\ndefinitions      %v", builtin, names)
	}
}
