package evidence

import (
	"testing"
	"unicode/utf8"
)

// TestRuneCharsMatchesCanonical checks RuneChars against what Canonical
// writes, for every rune below U+0100 and a few beyond.
func TestRuneCharsMatchesCanonical(t *testing.T) {
	runes := []rune{0x2028, 0x2029, 0xfeff, 0x10ffff, 'é', '€'}
	for r := rune(0); r < 0x100; r++ {
		runes = append(runes, r)
	}
	for _, r := range runes {
		b, err := Canonical(string(r))
		if err != nil {
			t.Fatal(err)
		}
		if got, want := RuneChars(r), utf8.RuneCount(b)-2; got != want {
			t.Errorf("RuneChars(%U) = %d, Canonical writes %d (%s)", r, got, want, b)
		}
	}
}
