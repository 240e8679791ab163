package tools

// coreTools lists, in catalogue order: gcd_lcm, hash_text, base64_codec, roman_numeral.
func coreTools(deps Deps) []Tool {
	return []Tool{gcdLCM(), hashText(), base64Codec(), romanNumeral()}
}
