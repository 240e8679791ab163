package tools

// textTools lists, in catalogue order: regex_extract, subnet_calc, text_analyze.
func textTools(deps Deps) []Tool {
	return []Tool{regexExtract(), subnetCalc(), textAnalyze()}
}
