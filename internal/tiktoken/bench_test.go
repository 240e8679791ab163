package tiktoken

import (
	"context"
	"strings"
	"testing"
)

func benchCount(b *testing.B, name, text string) {
	e := Get(name)
	if _, err := e.Count(""); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(text)))
	b.ResetTimer()
	for b.Loop() {
		if _, err := e.Count(text); err != nil {
			b.Fatal(err)
		}
	}
}

var prose = strings.Repeat("The quick brown fox doesn't jump over the lazy dog; it's 1234 metres away.\n日本語のテキストも少し。 😀👍🏽\n", 5000)

func BenchmarkCountO200kProse(b *testing.B)  { benchCount(b, "o200k_base", prose) }
func BenchmarkCountCl100kProse(b *testing.B) { benchCount(b, "cl100k_base", prose) }
func BenchmarkCountNoSpace(b *testing.B) {
	benchCount(b, "o200k_base", strings.Repeat("supercalifragilistic", 5000))
}

func BenchmarkPrefix(b *testing.B) {
	e := Get("o200k_base")
	b.SetBytes(int64(len(prose)))
	for b.Loop() {
		if _, err := e.Analyze(context.Background(), prose, 8000, 0); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLoad(b *testing.B) {
	for b.Loop() {
		if _, err := loadRanks(o200kRanks); err != nil {
			b.Fatal(err)
		}
	}
}
