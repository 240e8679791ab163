package textstats

import (
	"context"
	"math/big"
	"strings"
	"testing"
)

func TestSyllables(t *testing.T) {
	// Expected counts follow the documented rules step by step.
	for w, want := range map[string]int{
		"the": 1, "make": 1, "table": 2, "agree": 2, "whale": 1, "jumped": 1, "wanted": 2,
		"makes": 1, "boxes": 2, "horses": 2, "beautiful": 3, "rhythm": 1, "2024": 1,
		"straße": 1, "café": 1, "supercalifragilisticexpialidocious": 13,
	} {
		if got := Syllables(w); got != want {
			t.Errorf("Syllables(%q): got %d, want %d", w, got, want)
		}
	}
}

func TestRound2(t *testing.T) {
	for _, tc := range []struct {
		num, den int64
		want     string
	}{{1, 200, "0.01"}, {-1, 200, "-0.01"}, {-1, 1000, "0.00"}, {12345, 1000, "12.35"}, {0, 1, "0.00"}, {7, 1, "7.00"}} {
		if got := round2(ratOf(tc.num, tc.den)); got != tc.want {
			t.Errorf("round2(%d/%d): got %s, want %s", tc.num, tc.den, got, tc.want)
		}
	}
}

// TestOneMiB analyzes a full 1 MiB text: counts follow from its construction.
func TestOneMiB(t *testing.T) {
	unit := "Word one. " // 10 bytes: 2 words, 1 sentence
	text := strings.Repeat(unit, MaxBytes/len(unit))
	st, err := Analyze(context.Background(), text)
	if err != nil {
		t.Fatal(err)
	}
	n := MaxBytes / len(unit)
	if st.Words != 2*n || st.Sentences != n || st.UniqueWords != 2 || st.Paragraphs != 1 || st.Characters != len(text) {
		t.Errorf("got %+v, want %d words, %d sentences", st, 2*n, n)
	}
}

func TestCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Analyze(ctx, "some text"); err == nil {
		t.Fatal("got nil error for a cancelled context")
	}
}

// FuzzAnalyze: never panics, and the counts keep their invariants.
func FuzzAnalyze(f *testing.F) {
	for _, s := range []string{"", "Hello world.", "Dr. Smith... went?! Home\n\nNew para", "don't--stop 3.14",
		"中文。", "e\u0301 \u2028", "\xff\xfe invalid utf8", "'''", "a-", "-a", "...!!!"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		st, err := Analyze(context.Background(), s)
		if err != nil {
			t.Fatal(err)
		}
		if st.CharactersNoWhitespace > st.Characters || st.UniqueWords > st.Words || st.Sentences > st.Words ||
			(st.Words > 0) != (st.Sentences > 0) || st.Syllables < st.Words || (st.Words > 0) != (st.FleschReadingEase != "") {
			t.Fatalf("%q: inconsistent %+v", s, st)
		}
		if st.Paragraphs > 0 && st.CharactersNoWhitespace == 0 {
			t.Fatalf("%q: paragraph without text", s)
		}
	})
}

func benchText(b *testing.B, text string) {
	b.ReportAllocs()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		if _, err := Analyze(context.Background(), text); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAnalyzeSmall(b *testing.B) {
	benchText(b, "The quick brown fox jumps over the lazy dog. It's well-known!")
}

func BenchmarkAnalyze1MiB(b *testing.B) {
	unit := "The quick brown fox jumps over the lazy dog. Über café naïve 3.14?\n\n"
	benchText(b, strings.Repeat(unit, MaxBytes/len(unit)))
}

func ratOf(a, b int64) *big.Rat { return big.NewRat(a, b) }
