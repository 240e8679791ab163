package tools

// calcTools lists, in catalogue order: calculate, prime_factorize.
func calcTools(deps Deps) []Tool {
	return []Tool{calculate(), primeFactorize()}
}
