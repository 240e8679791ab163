package tools

// equationTools lists, in catalogue order: solve_equation.
func equationTools(deps Deps) []Tool {
	return []Tool{solveEquation()}
}
