package tools

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// BenchmarkTools covers, through the whole execution path (defaults, input
// validation, run, output validation, envelope and hashes), the tools that have no
// benchmark of their own elsewhere in this package: a small input and a large or
// worst-case one each. The other tools' benchmarks live beside their tests
// (BenchmarkTimeTools, BenchmarkHashText, BenchmarkStatisticsCalc*, ...).
func BenchmarkTools(b *testing.B) {
	var md strings.Builder
	for i := 0; i < 60; i++ {
		fmt.Fprintf(&md, "## Section %d\n\nParagraph **%d** with *emphasis* and `code`.\n\n| a | b |\n|---|---|\n| %d | %d |\n\n- one\n- two\n\n", i, i, i, i*i)
	}
	jsonArgs := func(m map[string]any) string {
		b, _ := json.Marshal(m)
		return string(b)
	}
	for _, bc := range []struct{ name, tool, args string }{
		{"base64_codec/small", "base64_codec", `{"text":"hello"}`},
		{"base64_codec/large", "base64_codec", jsonArgs(map[string]any{"text": strings.Repeat("Grüße aus Köln ", 4000), "variant": "urlsafe"})},
		{"calculate/small", "calculate", `{"expression":"2**32 - 1"}`},
		{"calculate/large", "calculate", `{"expression":"factorial(500) / 7**200 + sqrt(2) * log(10, 3)","precision":300}`},
		{"gcd_lcm/small", "gcd_lcm", `{"a":391,"b":299}`},
		{"gcd_lcm/large", "gcd_lcm", `{"a":-999999999999999989,"b":1000000000000000000,"operation":"lcm"}`},
		{"prime_factorize/small", "prime_factorize", `{"n":360}`},
		{"prime_factorize/large", "prime_factorize", `{"n":"1000000016000000063"}`},
		{"roman_numeral/small", "roman_numeral", `{"value":1994}`},
		{"roman_numeral/large", "roman_numeral", `{"value":"mmmdccclxxxviii"}`},
		{"generate_file/small", "generate_file", `{"content":"# Report\n\nHello **world**.\n","format":"md"}`},
		{"generate_file/large", "generate_file", jsonArgs(map[string]any{"content": md.String(), "format": "docx"})},
	} {
		b.Run(bc.name, func(b *testing.B) { benchInvoke(b, bc.tool, bc.args) })
	}
}
