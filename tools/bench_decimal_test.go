package tools

import (
	"strconv"
	"strings"
	"testing"
)

func BenchmarkDecimalFinanceSmall(b *testing.B) {
	benchTool(b, "decimal_finance", map[string]any{"operation": "add", "operands": []any{"0.1", "0.2"},
		"currency": "EUR", "scale": jsonNum("2"), "rounding": "half_even"})
}

func BenchmarkDecimalFinanceLarge(b *testing.B) {
	// 10000 compounding periods on a 128-digit base, the most expensive request.
	benchTool(b, "decimal_finance", map[string]any{"operation": "compound_interest",
		"operands": []any{"123456789012345678901234567890.123456789012", "7.123456789", "1000", "10"},
		"currency": "EUR", "scale": jsonNum("12"), "rounding": "half_even"})
}

func BenchmarkExactProbabilitySmall(b *testing.B) {
	benchTool(b, "exact_probability", map[string]any{"operation": "binomial_probability",
		"n": jsonNum("10"), "k": jsonNum("3"), "numerator": jsonNum("1"), "denominator": jsonNum("2"),
		"decimal_scale": jsonNum("6"), "rounding": "half_even"})
}

func BenchmarkExactProbabilityLarge(b *testing.B) {
	// n = 1000 with a 13-bit denominator: a 13000-bit (3914-digit) exact result,
	// close to the 4300-digit limit of JSON integers.
	benchTool(b, "exact_probability", map[string]any{"operation": "binomial_probability",
		"n": jsonNum("1000"), "k": jsonNum("500"), "numerator": jsonNum("4096"), "denominator": jsonNum("8191"),
		"decimal_scale": jsonNum("18"), "rounding": "half_even"})
}

func BenchmarkStatisticsCalcSmall(b *testing.B) {
	benchTool(b, "statistics_calc", map[string]any{"data": "1,2,3,4,5"})
}

func BenchmarkStatisticsCalcLarge(b *testing.B) {
	// 100000 values (the limit), every operation.
	var sb strings.Builder
	for i := 1; i <= 100000; i++ {
		if i > 1 {
			sb.WriteByte(',')
		}
		sb.WriteString(strconv.Itoa(i % 9973))
		sb.WriteString(".")
		sb.WriteString(strconv.Itoa(i % 97))
	}
	benchTool(b, "statistics_calc", map[string]any{"data": sb.String(),
		"operations": "count,sum,mean,median,mode,multimode,min,max,range,variance,stdev,pvariance,pstdev,geometric_mean,harmonic_mean,quantiles"})
}
