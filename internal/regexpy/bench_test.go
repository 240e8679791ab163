package regexpy

import (
	"context"
	"testing"
)

// BenchmarkFindAllSmall times the matcher alone on the small inputs of
// bench/compare_inputs.json (the pattern is compiled, and cached, outside the
// loop).
func BenchmarkFindAllSmall(b *testing.B) {
	for _, c := range []struct{ name, pattern, flags, text string }{
		{"ISO_dates", `(\d{4})-(\d{2})-(\d{2})`, "", "Invoice 2024-03-15 was paid on 2024-04-02; the next one is due 2024-05-01."},
		{"emails", `(?P<user>\w+)@(?P<host>[\w.]+)`, "", "Contact alice@example.com or bob_smith@mail.example.org for details, not carol@."},
		{"word_ignoring_case", `\bthe\b`, "i", "The cat sat on the mat; THE end, then theirs."},
		{"key=value_pairs", `(\w+)=("[^"]*"|\S+)`, "", `user=alice id=42 note="hello world" ok=true`},
	} {
		re, err := Compile(c.pattern, c.flags)
		if err != nil {
			b.Fatal(err)
		}
		text := []rune(c.text)
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				n := 0
				if err := re.FindAll(context.Background(), text, Limits{MaxSteps: 1 << 30}, func(Match) bool { n++; return true }); err != nil || n == 0 {
					b.Fatal(n, err)
				}
			}
		})
	}
}

// BenchmarkFindAllBacktracking times the backtracking engine (sre.go) on
// small inputs with the constructs it exists for.
func BenchmarkFindAllBacktracking(b *testing.B) {
	for _, c := range []struct{ name, pattern, text string }{
		{"lookbehind_amounts", `(?<=\$)\d+(?:\.\d\d)?`, "Items: $12.50, $3 and 45 units; total $15.50 due 2024-05-01."},
		{"repeated_words", `\b(\w+)\s+\1\b`, "the the cat sat on on the mat, said said the the dog."},
		{"quoted_possessive", `"(?:[^"\\]|\\.)*+"`, `say "hi \"there\"" and "bye" then "x\\y" ok`},
		{"conditional_tags", `(?P<o><)?\w+(?(o)>)`, "<b> bold </b> and <i> plain text <x>"},
	} {
		re, err := Compile(c.pattern, "")
		if err != nil || re.Backtracking() == "" {
			b.Fatal(c.pattern, err)
		}
		text := []rune(c.text)
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				n := 0
				if err := re.FindAll(context.Background(), text, Limits{MaxSteps: 1 << 30}, func(Match) bool { n++; return true }); err != nil || n == 0 {
					b.Fatal(n, err)
				}
			}
		})
	}
}
