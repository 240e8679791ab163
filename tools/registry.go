package tools

import "slices"

// Deps are the services a few tools need from outside the pure-function world
// (only generate_file writes, into its own store). Zero value: no such services.
type Deps struct {
}

// Builtin lists every tool of the service, in catalogue order. The order is
// explicit and fixed: it is the order of GET /tools, /health and MCP tools/list.
func Builtin(deps Deps) []Tool {
	return slices.Concat(
		coreTools(deps),       // group_core.go
		decimalTools(deps),    // group_decimal.go
		calcTools(deps),       // group_calc.go
		equationTools(deps),   // group_equation.go
		timeTools(deps),       // group_time.go
		structuredTools(deps), // group_structured.go
		textTools(deps),       // group_text.go
		unitTools(deps),       // group_unit.go
		fileTools(deps),       // group_file.go
	)
}
