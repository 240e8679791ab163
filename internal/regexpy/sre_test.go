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

// TestSREStackBound: a repeat of a group nests one backtracking step per
// iteration; past maxBacktrackDepth the call is a CostError (never a Go
// stack overflow), below it an answer.
func TestSREStackBound(t *testing.T) {
	re, err := Compile(`(?:ab)*(?=x)`, "")
	if err != nil || re.Backtracking() == "" {
		t.Fatalf("%v %q", err, re.Backtracking())
	}
	below := []rune(strings.Repeat("ab", maxBacktrackDepth/4) + "x")
	ms, err := allMatches(re, below, Limits{MaxSteps: 50_000_000})
	if err != nil || len(ms) != 2 || ms[0].Groups[0] != [2]int{0, len(below) - 1} {
		t.Fatalf("below the bound: %v %v", ms, err)
	}
	above := []rune(strings.Repeat("ab", maxBacktrackDepth+1) + "x")
	_, err = allMatches(re, above, Limits{MaxSteps: 50_000_000})
	var ce *CostError
	if !errors.As(err, &ce) || !strings.Contains(ce.Msg, "stack") {
		t.Fatalf("above the bound: got %v, want a CostError on the stack", err)
	}
}

// TestSREStepBudget: the step count is the budget's only measure, so the
// same call stops at the same point for any budget: with a budget of n
// steps a catastrophic pattern is refused, and a pattern that needs fewer
// steps answers.
func TestSREStepBudget(t *testing.T) {
	re, _ := Compile(`(a+)+\1$`, "")
	text := []rune(strings.Repeat("a", 30) + "!")
	for _, budget := range []int64{1000, 100_000, 5_000_000} {
		_, err := allMatches(re, text, Limits{MaxSteps: budget})
		var ce *CostError
		if !errors.As(err, &ce) || !strings.Contains(ce.Msg, "steps") {
			t.Errorf("budget %d: got %v, want a CostError on steps", budget, err)
		}
	}
	ok, err := Compile(`((?>a+))+\1$`, "")
	if err != nil {
		t.Fatal(err)
	}
	if ms, err := allMatches(ok, text, Limits{MaxSteps: 100_000}); err != nil || len(ms) != 0 {
		t.Errorf("atomic form: %v %v, want no match within the budget", ms, err)
	}
}
