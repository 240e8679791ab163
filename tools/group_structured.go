package tools

// structuredTools lists, in catalogue order: structured_validate, json_query.
func structuredTools(deps Deps) []Tool {
	return []Tool{structuredValidate(), jsonQuery()}
}
