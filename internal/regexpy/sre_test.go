package regexpy

import (
	"context"
	"errors"
	"reflect"
	"regexp/syntax"
	"strings"
	"testing"
	"unicode/utf8"
)

// compileSRE compiles pattern for the backtracking engine even when it needs
// none of its constructs, so that the two engines can be compared on the
// patterns both run.
func compileSRE(pattern, flags string) (*Regexp, error) {
	var fl flagSet
	for _, c := range flags {
		switch c {
		case 'i':
			fl.i = true
		case 'm':
			fl.m = true
		case 's':
			fl.s = true
		default:
			return nil, &SyntaxError{Msg: "flag"}
		}
	}
	t, err := translate(pattern, fl)
	if err != nil {
		return nil, err
	}
	parsed, err := syntax.Parse(t.out.String(), syntax.Perl)
	if err != nil {
		return nil, err
	}
	return compileBacktrack(t, parsed, t.out.String())
}

func allMatches(re *Regexp, text []rune, lim Limits) ([]Match, error) {
	var ms []Match
	err := re.FindAll(context.Background(), text, lim, func(m Match) bool {
		ms = append(ms, Match{Groups: append([][2]int(nil), m.Groups...)})
		return true
	})
	return ms, err
}

// sreSeeds: patterns both engines run (no backtracking construct).
var sreSeeds = append([]string{`(a*)*`, `(a*)+b`, `(a*){2,3}b`, `(a*)*?b`, `((a)|b*)*`, `(?:(a)|(b)|)+`,
	`(a|)+`, `(a|b)*`, `\w*`, `|a`, `a??`, `(?:)|b`, `((a*)*)*`, `(a*?){3,}`, `(a|){2,5}`, `(?:(a)|b*)*`,
	`(?i)k+`, `(?a)(?i)s+`, `[^\W\d]+`, `(?x) a b # c`, `(a)?b`, `x{2,4}?y`, `(?s:.)+?$`}, backtrackSeeds...)

var sreTexts = []string{"", "a", "ab abc abcd aab", "aab", "abba", "The cat; the mat", "k K \u212a sS\u017f",
	"aaab\nxyz\nab\n", "xxxyy xxy", " , ,, a,b ", "é_x 12"}

// TestSREMatchesVM: on patterns without backtracking constructs the
// backtracking engine gives the VM's matches, captures of repeats included
// (the VM's loop markers reproduce sre's zero-width rules; the backtracker
// runs them).
func TestSREMatchesVM(t *testing.T) {
	n := 0
	for _, p := range sreSeeds {
		for _, fl := range []string{"", "i", "ms"} {
			vmRe, err := Compile(p, fl)
			if err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			bt, err := compileSRE(p, fl)
			if err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			for _, s := range sreTexts {
				rs := []rune(s)
				want, err1 := allMatches(vmRe, rs, Limits{})
				got, err2 := allMatches(bt, rs, Limits{})
				if err1 != nil || err2 != nil || !reflect.DeepEqual(want, got) {
					t.Errorf("%s (%s) on %q:\n VM  %v %v\n sre %v %v", p, fl, s, want, err1, got, err2)
				}
				n++
			}
		}
	}
	if n < 1000 {
		t.Fatalf("only %d comparisons", n)
	}
}

// FuzzSREMatchesVM: for any pattern both engines run and a short text, they
// agree, unless the backtracker reports its step budget (it may need
// exponential work where the VM does not).
func FuzzSREMatchesVM(f *testing.F) {
	for _, p := range sreSeeds {
		f.Add(p, "", "aab abba a1 b22\nc333 é_ the The x=1")
		f.Add(p, "i", "k K \u212a sS\u017f aAb")
	}
	f.Fuzz(func(t *testing.T, pattern, flags, text string) {
		if len(pattern) > 100 || len(text) > 200 || !utf8.ValidString(pattern) || !utf8.ValidString(text) {
			return
		}
		vmRe, err := Compile(pattern, flags)
		if err != nil || vmRe.sre != nil {
			return
		}
		bt, err := compileSRE(pattern, flags)
		if err != nil {
			t.Fatalf("%q: the VM compiles it, the backtracker: %v", pattern, err)
		}
		rs := []rune(text)
		lim := Limits{MaxSteps: 2_000_000, MaxMatches: 1000}
		got, err2 := allMatches(bt, rs, lim)
		var ce *CostError
		if errors.As(err2, &ce) && !strings.Contains(ce.Msg, "matches") {
			return
		}
		want, err1 := allMatches(vmRe, rs, Limits{MaxMatches: 1000})
		if (err1 == nil) != (err2 == nil) || !reflect.DeepEqual(want, got) {
			t.Fatalf("%q (%q) on %q:\n VM  %v %v\n sre %v %v", pattern, flags, text, want, err1, got, err2)
		}
	})
}
