package test

import "testing"

// TestTypeScriptPlans2 runs test/mcp-client/plans2.mjs: the two tasks of
// issue 35 as the reusable_plan_guide prompt's plans, with the official
// TypeScript SDK client on /mcp/compact, every answer checked against
// plans/testdata/plans2.json (Python's datetime and zoneinfo).
func TestTypeScriptPlans2(t *testing.T) {
	node, dir := nodeClient(t)
	base, _, srvLog := serveBinary(t)
	runNode(t, node, dir, srvLog, "plans2.mjs", base)
}
