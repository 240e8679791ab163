package tools

// unitTools lists, in catalogue order: unit_convert.
func unitTools(deps Deps) []Tool {
	return []Tool{unitConvert()}
}
