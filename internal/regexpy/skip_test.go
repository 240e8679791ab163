package regexpy

import (
	"reflect"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

// skipSeeds are patterns whose matches begin with ASCII-only sets (the
// inline skip of firstOnlyASCII) and some that do not.
var skipSeeds = []string{`^ERROR (\d+): (.*)$`, `E`, `[a-c]x`, `(?:ab|cd)+`, `x|y\d`, `[K]`, `k`, `(?i)k`, `(?i)s`,
	`[^a]`, `\d`, `(?a)\d+`, `é`, `\bthe\b`, `a*`, `(?m)^$`, `[\x00-\x7f]+`, `[\x7f\x80]`}

// skipTexts exercise the skip: long runs without a possible start, non-ASCII
// characters (U+212A folds to k, U+017F to s), line starts.
var skipTexts = []string{"", "INFO 1: ok\nERROR 2: bad\nINFO 3\nERROR 44: worse", strings.Repeat("zz", 1500) + "Eab",
	"K\u212ak\u017fsS", "ééé x1 y2 ab cd abcd", "\x7f\x80\u0080"}

// noSkip is re with the search's skip switched off: a thread is started at
// every position (the VM before any first-character test).
func noSkip(re *Regexp) *Regexp {
	c := *re
	c.first, c.firstOnlyASCII = nil, false
	c.machines = &sync.Pool{} // a pooled machine runs the Regexp that made it
	return &c
}

// TestSkipMatchesNoSkip: the VM gives the same matches with and without its
// skip to the next possible start, and uses the inline ASCII test exactly for
// first sets without non-ASCII members.
func TestSkipMatchesNoSkip(t *testing.T) {
	for _, p := range skipSeeds {
		for _, fl := range []string{"", "m", "i"} {
			re, err := Compile(p, fl)
			if err != nil {
				t.Fatalf("%q: %v", p, err)
			}
			for _, text := range skipTexts {
				checkSkip(t, re, text)
			}
		}
	}
	for p, want := range map[string]bool{`E`: true, `^ERROR (\d+)`: true, `(?i)k`: false, `é`: false, `\d`: false, `(?a)\d`: true, `a*`: false} {
		re, err := Compile(p, "m")
		if err != nil {
			t.Fatal(err)
		}
		if re.firstOnlyASCII != want {
			t.Errorf("%q: firstOnlyASCII %v, want %v", p, re.firstOnlyASCII, want)
		}
	}
}

func checkSkip(t *testing.T, re *Regexp, text string) {
	t.Helper()
	rs := []rune(text)
	lim := Limits{MaxMatches: 1000}
	got, err1 := matchesWith(t, re, rs, lim, false)
	want, err2 := matchesWith(t, noSkip(re), rs, lim, false)
	if (err1 == nil) != (err2 == nil) || !reflect.DeepEqual(got, want) {
		t.Fatalf("%s on %q:\n with skip %v %v\n without %v %v", re.GoPattern, text, got, err1, want, err2)
	}
}

// FuzzSkipMatchesNoSkip is TestSkipMatchesNoSkip on any pattern and text.
func FuzzSkipMatchesNoSkip(f *testing.F) {
	for _, p := range skipSeeds {
		f.Add(p, "m", skipTexts[1])
		f.Add(p, "i", skipTexts[3])
	}
	f.Fuzz(func(t *testing.T, pattern, flags, text string) {
		if re := fuzzCompile(pattern, flags, text, 300); re != nil {
			checkSkip(t, re, text)
		}
	})
}

// fuzzCompile is the compiled pattern of a differential fuzz input, or nil
// when the input is not one to compare: a pattern over 100 bytes, a text
// over maxText, text that is not UTF-8, or a pattern that does not compile.
func fuzzCompile(pattern, flags, text string, maxText int) *Regexp {
	if len(pattern) > 100 || len(text) > maxText || !utf8.ValidString(pattern) || !utf8.ValidString(text) {
		return nil
	}
	re, err := Compile(pattern, flags)
	if err != nil {
		return nil
	}
	return re
}
