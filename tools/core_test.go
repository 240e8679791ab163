package tools

import (
	"context"
	"strings"
	"testing"
)

// FuzzRomanNumeral: any string either parses to a numeral whose rendering reads
// back to the same value, or is refused with a typed error.
func FuzzRomanNumeral(f *testing.F) {
	for _, s := range []string{"MCMXCIV", "iiii", "", "MMMCMXCIX", "4000", "-1", "IΙ", "mmxxvi"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, ok := fromRoman(s)
		if !ok {
			return
		}
		if n < 1 || n > 3999 || !strings.EqualFold(toRoman(n), s) {
			t.Fatalf("fromRoman(%q) = %d, renders %s", s, n, toRoman(n))
		}
	})
}

func BenchmarkHashText(b *testing.B) {
	reg := NewRegistry([]Tool{hashText()})
	for _, size := range []int{16, 1 << 20} {
		args := map[string]any{"text": strings.Repeat("a", size), "algorithm": "sha256"}
		b.Run(itoa(size), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := reg.Invoke(context.Background(), Request{Tool: "hash_text", Args: args}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkGCDLCM(b *testing.B) {
	reg := NewRegistry([]Tool{gcdLCM()})
	args := map[string]any{"a": jsonNum("391"), "b": jsonNum("299")}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := reg.Invoke(context.Background(), Request{Tool: "gcd_lcm", Args: args}); err != nil {
			b.Fatal(err)
		}
	}
}
