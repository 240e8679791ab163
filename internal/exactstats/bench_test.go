package exactstats

import (
	"context"
	"strconv"
	"strings"
	"testing"
)

func benchValues(b *testing.B, n int) string {
	b.Helper()
	var sb strings.Builder
	for i := 1; i <= n; i++ {
		if i > 1 {
			sb.WriteByte(',')
		}
		sb.WriteString(strconv.Itoa(i % 9973))
		sb.WriteString(".")
		sb.WriteString(strconv.Itoa(i % 97))
	}
	return sb.String()
}

func benchOp(b *testing.B, n int, ops ...string) {
	vals, err := ParseString(context.Background(), benchValues(b, n))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Compute(context.Background(), vals, ops, Options{QuantilesN: 4, QuantilesMethod: "exclusive"}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkHarmonicMean100k(b *testing.B)  { benchOp(b, MaxValues, "harmonic_mean") }
func BenchmarkModes100k(b *testing.B)         { benchOp(b, MaxValues, "mode", "multimode") }
func BenchmarkGeometricMean100k(b *testing.B) { benchOp(b, MaxValues, "geometric_mean") }
func BenchmarkAllOps100k(b *testing.B)        { benchOp(b, MaxValues, Operations...) }
func BenchmarkAllOps10(b *testing.B)          { benchOp(b, 10, Operations...) }

func BenchmarkParseString100k(b *testing.B) {
	s := benchValues(b, MaxValues)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseString(context.Background(), s); err != nil {
			b.Fatal(err)
		}
	}
}
