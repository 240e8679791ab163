package regexpy

import (
	"context"
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
	checkASCIISkip(t, re, text, want, err2)
}

// checkASCIISkip: FindAllText with the text as ASCII bytes (the
// strings.IndexByte skip) gives the matches of the VM without any skip,
// with either engine; on text that is not ASCII the bytes are ignored.
func checkASCIISkip(t *testing.T, re *Regexp, text string, want []Match, wantErr error) {
	t.Helper()
	rs := []rune(text)
	ascii := text
	for i := 0; i < len(text); i++ {
		if text[i] >= utf8.RuneSelf {
			ascii = ""
		}
	}
	for _, bt := range []bool{false, true} {
		if bt && (re.loops || int64(len(rs)+1)*int64(len(re.prog.Inst)) > maxBacktrackStates) {
			continue
		}
		var got []Match
		err := re.findAll(context.Background(), rs, ascii, Limits{MaxMatches: 1000}, func(m Match) bool {
			got = append(got, Match{Groups: append([][2]int(nil), m.Groups...)})
			return true
		}, bt)
		if (err == nil) != (wantErr == nil) || !reflect.DeepEqual(got, want) {
			t.Fatalf("%s on %q (backtracker %v, ASCII %v):\n with the IndexByte skip %v %v\n without any skip %v %v",
				re.GoPattern, text, bt, ascii != "", got, err, want, wantErr)
		}
	}
}

// TestASCIISkip: the patterns that begin with one ASCII character get the
// IndexByte skip, and it finds what the VM without a skip finds, on long
// texts with the character rare, absent, at the ends and not ASCII.
func TestASCIISkip(t *testing.T) {
	for p, want := range map[string]int{`^ERROR (\d+): (.*)$`: 'E', `E`: 'E', `x|y\d`: -1, `(?i)k`: -1, `[K]`: 'K',
		`\x7f+`: 0x7f, `a*`: -1, `é`: -1, `(?:@|@@)x`: '@', `\bq`: 'q'} {
		re, err := Compile(p, "m")
		if err != nil {
			t.Fatal(err)
		}
		if re.firstByte != want {
			t.Errorf("%q: firstByte %d, want %d", p, re.firstByte, want)
		}
		for _, text := range append(skipTexts, strings.Repeat("INFO 1: ok\n", 300)+"ERROR 7: x\nE", "E"+strings.Repeat("z", 3000),
			strings.Repeat("a@x q", 400), "K\u212a") {
			rs := []rune(text)
			want, err := matchesWith(t, noSkip(re), rs, Limits{MaxMatches: 1000}, false)
			checkASCIISkip(t, re, text, want, err)
		}
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
// over maxText, text that is not UTF-8, or a pattern that does not compile
// for the VM.
func fuzzCompile(pattern, flags, text string, maxText int) *Regexp {
	if len(pattern) > 100 || len(text) > maxText || !utf8.ValidString(pattern) || !utf8.ValidString(text) {
		return nil
	}
	re, err := Compile(pattern, flags)
	if err != nil || re.sre != nil {
		return nil // not compiled, or not for the VM (sre.go)
	}
	return re
}
