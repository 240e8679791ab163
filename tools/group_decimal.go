package tools

// decimalTools lists, in catalogue order: decimal_finance, exact_probability, statistics_calc.
func decimalTools(deps Deps) []Tool {
	return []Tool{decimalFinance(), exactProbability(), statisticsCalc()}
}
