package tools

import (
	"encoding/json"
	"fmt"

	"github.com/precisiond/precisiond/contracts"
)

// contractLimit returns the integer limit key that the contract of tool
// declares. Tools read their byte budgets from their contract, so the
// declared limit and the enforced one cannot drift apart; a missing or
// non-integer limit is a broken contract and panics at start-up, when the
// tool is defined.
func contractLimit(tool, key string) int {
	n, ok := contracts.MustLoad(tool).Limits[key].(json.Number)
	if !ok {
		panic(fmt.Sprintf("tools: contract %s declares no integer limit %s", tool, key))
	}
	v, err := n.Int64()
	if err != nil || v <= 0 {
		panic(fmt.Sprintf("tools: contract %s: limit %s = %s is not a positive integer", tool, key, n))
	}
	return int(v)
}
