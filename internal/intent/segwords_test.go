package intent

import (
	"strings"
	"testing"
)

// TestSegmentWords checks segmentWords against words, its specification: on
// every corpus, reference and example text (as is, collapsed, in capitals,
// with "ſ", the Kelvin sign and "ẞ", and with a few odd runes) it finds as
// many words, each the same or, for a word words lower-cases, "" when no
// trigger or decline phrase has that word. Every word the rules compare
// with is therefore read alike.
func TestSegmentWords(t *testing.T) {
	r, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	odd := strings.NewReplacer("s", "ſ", "k", "\u212a", "ß", "ẞ")
	texts := []string{"Rechne 72 KM/H in M/S um.", "ÜBER 3 Kilometer: Größe ÄÖÜ", "İstanbul \u212aelvin °C 5+3=8",
		"A\xffB", "ǅemal ǈubljana Ⅻ ⓐⒶ", "X" + strings.Repeat("Ü", 40) + " done"}
	for _, text := range corpusTexts(t, r) {
		c := collapse(text)
		texts = append(texts, text, c, strings.ToUpper(c), odd.Replace(c))
	}
	blanks := 0
	for _, s := range texts {
		want := words(s)
		got := r.segmentWords(nil, s)
		if len(got) != len(want) {
			t.Fatalf("%q: segmentWords %q, words %q", s, got, want)
		}
		for i := range got {
			switch {
			case got[i] == want[i]:
			case got[i] == "" && r.vocab[want[i]] == "" && want[i] != "":
				blanks++
			default:
				t.Fatalf("%q: word %d is %q, words says %q", s, i, got[i], want[i])
			}
		}
	}
	t.Logf("%d texts, %d words outside the vocabulary read as \"\"", len(texts), blanks)
	if blanks == 0 {
		t.Error("no word was left out")
	}
}
