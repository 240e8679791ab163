package regexpy

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"regexp/syntax"
	"strings"
	"testing"
)

// matchesWith runs findAll with the chosen engine and collects the matches.
func matchesWith(t testing.TB, re *Regexp, text []rune, lim Limits, backtrack bool) ([]Match, error) {
	t.Helper()
	var ms []Match
	err := re.findAll(context.Background(), text, "", lim, func(m Match) bool {
		ms = append(ms, Match{Groups: append([][2]int(nil), m.Groups...)})
		return true
	}, backtrack)
	return ms, err
}

// backtrackSeeds are patterns over the features the backtracker handles:
// captures, alternation priority, lazy and greedy repeats, empty matches,
// Python's $ and \b, anchors, classes, case folding.
var backtrackSeeds = []string{`\d+`, `(\d{4})-(\d{2})-(\d{2})`, `(?P<user>\w+)@(?P<host>[\w.]+)`, `\bthe\b`,
	`(\w+)=("[^"]*"|\S+)`, `a|ab`, `ab|a`, `(a|ab)(c|bcd)(d*)`, `(a+?)(b*)`, `x*`, `(x*)`, `a*?`, `$`, `^`, `\B`,
	`(?m)^(\w+)$`, `(?s).+`, `.+`, `(a)|(b)`, `(?:(a)|b)+`, `[^\W\d]+`, `é+`, `(?i)straße`, `\b\w+\b`,
	`(a+)+$`, `a{2,3}?`, `(?a)\w+`, `\s*,\s*`, `(?:a|b)*c`, `\Z`, `\A(\w)`, `(ab|a)(bc|c)?`}

// TestBacktrackMatchesVM: the backtracker and the VM give the same matches,
// captures included, on the seed patterns over a few texts.
func TestBacktrackMatchesVM(t *testing.T) {
	texts := []string{"", "a", "ab abc abcd aab", "The cat; the mat, THE end. theirs", "2024-03-15 and 1999-12-31x",
		"joe@example.com, ann@test.org é_x", "k=v x=\"a b\" y=2", "aaab\nxyz\nab\n", "Straße STRASSE strasse", " , ,, a,b "}
	n := 0
	for _, p := range backtrackSeeds {
		for _, fl := range []string{"", "i"} {
			re, err := Compile(p, fl)
			if err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			if re.loops {
				continue
			}
			for _, s := range texts {
				rs := []rune(s)
				vm, err1 := matchesWith(t, re, rs, Limits{}, false)
				bt, err2 := matchesWith(t, re, rs, Limits{}, true)
				if err1 != nil || err2 != nil || !reflect.DeepEqual(vm, bt) {
					t.Errorf("%s (%s) on %q:\n VM %v %v\n backtracker %v %v", p, fl, s, vm, err1, bt, err2)
				}
				n++
			}
		}
	}
	if n < 500 {
		t.Fatalf("only %d comparisons", n)
	}
}

// TestUseBacktrack: the backtracker is chosen only for programs without loop
// markers and for texts where neither engine can reach the step budget.
func TestUseBacktrack(t *testing.T) {
	re, _ := Compile(`(\d{4})-(\d{2})`, "")
	if !re.useBacktrack(100, Limits{MaxSteps: 50_000_000}) {
		t.Error("short text: not chosen")
	}
	if re.useBacktrack(20000, Limits{MaxSteps: 50_000_000}) {
		t.Error("long text: chosen")
	}
	if re.useBacktrack(100, Limits{MaxSteps: 1000}) {
		t.Error("chosen although the step budget could be reached")
	}
	loops, _ := Compile(`(a*)+b`, "")
	if !loops.loops || loops.useBacktrack(10, Limits{}) {
		t.Error("a program with loop markers: chosen")
	}
}

// TestBacktrackCancelled: a cancelled context ends a backtracking search.
func TestBacktrackCancelled(t *testing.T) {
	re, _ := Compile(`(a|aa)*c`, "")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := re.findAll(ctx, []rune(strings.Repeat("a", 500)), "", Limits{}, func(Match) bool { return true }, true)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
}

// FuzzBacktrackMatchesVM: for any pattern and short text, the backtracker
// and the VM agree (patterns with loop markers are the VM's alone).
func FuzzBacktrackMatchesVM(f *testing.F) {
	for _, p := range backtrackSeeds {
		for _, fl := range []string{"", "i", "ms"} {
			f.Add(p, fl, "a1 b22\nc333 é_ aaab the The ab@c.d x=1")
		}
	}
	f.Fuzz(func(t *testing.T, pattern, flags, text string) {
		re := fuzzCompile(pattern, flags, text, 200)
		if re == nil {
			return
		}
		checkASCIISets(t, re)
		if re.loops {
			return
		}
		rs := []rune(text)
		if int64(len(rs)+1)*int64(len(re.prog.Inst)) > maxBacktrackStates {
			return
		}
		lim := Limits{MaxMatches: 1000}
		vm, err1 := matchesWith(t, re, rs, lim, false)
		bt, err2 := matchesWith(t, re, rs, lim, true)
		if (err1 == nil) != (err2 == nil) || !reflect.DeepEqual(vm, bt) {
			t.Fatalf("%q (%q) on %q:\n VM %v %v\n backtracker %v %v", pattern, flags, text, vm, err1, bt, err2)
		}
		// useBacktrack's bound: the VM never needs more steps than it says,
		// so with that budget the VM reaches no CostError and the backtracker
		// (which has no budget) can answer in its place.
		nprog := int64(len(re.prog.Inst))
		bound := int64(len(rs)+2) * int64(len(rs)+1) * nprog * (2 + int64(re.ncap)/32)
		if !re.useBacktrack(len(rs), Limits{MaxSteps: bound}) {
			t.Fatalf("%q on %q: not chosen with its own bound %d", pattern, text, bound)
		}
		var ce *CostError
		if _, err := matchesWith(t, re, rs, Limits{MaxMatches: 1000, MaxSteps: bound}, false); errors.As(err, &ce) {
			t.Fatalf("%q (%q) on %q: the VM needs more than the bound of %d steps: %v", pattern, flags, text, bound, err)
		}
	})
}

// checkASCIISets: the precomputed ASCII sets answer as MatchRune does, for
// every class instruction and for the first characters of a match.
func checkASCIISets(t *testing.T, re *Regexp) {
	t.Helper()
	for pc := range re.prog.Inst {
		inst := &re.prog.Inst[pc]
		if inst.Op != syntax.InstRune {
			continue
		}
		for r := rune(0); r < 128; r++ {
			if got, want := re.matchRune(uint32(pc), inst, r), inst.MatchRune(r); got != want {
				t.Fatalf("%s: instruction %d on %q: set says %v, MatchRune %v", re.GoPattern, pc, r, got, want)
			}
		}
	}
	if re.first == nil {
		return
	}
	for r := rune(0); r < 128; r++ {
		want := false
		for _, inst := range re.first {
			want = want || inst.MatchRune(r)
		}
		if got := re.canStart(r); got != want {
			t.Fatalf("%s: canStart(%q) = %v, want %v", re.GoPattern, r, got, want)
		}
	}
}

func TestASCIISets(t *testing.T) {
	for _, p := range append(backtrackSeeds, `[^a-z]`, `[\W\d]`, `(?i)[k-m]`, `(?i)s`, `[\x00-\x7f]`, `\S\D`, `[^\s]+x`) {
		for _, fl := range []string{"", "i"} {
			re, err := Compile(p, fl)
			if err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			checkASCIISets(t, re)
		}
	}
}

// buffered runs findAllBuffered and, when it leaves the call to the VM, the
// VM, as FindAllText does; it reports whether the backtracker answered.
func buffered(t testing.TB, re *Regexp, text []rune, lim Limits) ([]Match, error, bool) {
	t.Helper()
	var ms []Match
	collect := func(m Match) bool {
		ms = append(ms, Match{Groups: append([][2]int(nil), m.Groups...)})
		return true
	}
	done, err := re.findAllBuffered(context.Background(), text, "", lim, collect)
	if done {
		return ms, err, true
	}
	if len(ms) > 0 {
		t.Fatalf("%s: findAllBuffered visited %d matches and left the call to the VM", re.GoPattern, len(ms))
	}
	err = re.findAll(context.Background(), text, "", lim, collect, false)
	return ms, err, false
}

// vmSteps is the number of steps the VM takes over all of text's searches.
func vmSteps(re *Regexp, text []rune) int64 {
	m := re.machine(context.Background(), text, Limits{})
	defer re.release(m)
	pos, mustAdvance := 0, false
	for pos <= len(text) {
		caps, err := m.search(pos, mustAdvance)
		if err != nil || caps == nil {
			break
		}
		mustAdvance, pos = caps[0] == caps[1], caps[1]
	}
	return m.steps
}

// checkBuffered: under the step budget steps (0: none) and match limit
// maxMatches, findAllBuffered with its VM fallback answers exactly as the VM
// alone: the same matches and the same error (kind and text).
func checkBuffered(t testing.TB, re *Regexp, text string, steps int64, maxMatches int) bool {
	t.Helper()
	rs := []rune(text)
	lim := Limits{MaxSteps: steps, MaxMatches: maxMatches}
	want, wantErr := matchesWith(t, re, rs, lim, false)
	got, err, done := buffered(t, re, rs, lim)
	if fmt.Sprint(err) != fmt.Sprint(wantErr) || !reflect.DeepEqual(got, want) {
		t.Fatalf("%s on %q, %+v (backtracker answered: %v):\n buffered %v %v\n VM %v %v", re.GoPattern, text, lim, done, got, err, want, wantErr)
	}
	return done
}

// TestBufferedMatchesVM: on the seed patterns over texts long and short, and
// under step budgets from none to below what the VM needs, the buffered
// backtracker answers as the VM; it answers itself at the budgets the VM
// needs comfortably, and leaves a budget the VM runs out of to the VM.
func TestBufferedMatchesVM(t *testing.T) {
	texts := []string{"", "ab abc abcd aab", "joe@example.com, ann@test.org é_x", "k=v x=\"a b\" y=2", "aaab\nxyz\nab\n",
		strings.Repeat("user1@host.example.org and some filler text ", 60), strings.Repeat("INFO 1: ok\nERROR 22: bad thing\n", 80),
		strings.Repeat("a", 700) + "b", strings.Repeat("ab ", 300)}
	answered, vm := 0, 0
	for _, p := range append(backtrackSeeds, `^ERROR (\d+): (.*)$`, `a*b|a`, `(a|b)*c`) {
		for _, fl := range []string{"", "m", "i"} {
			re, err := Compile(p, fl)
			if err != nil {
				t.Fatal(err)
			}
			if re.loops {
				continue
			}
			for _, text := range texts {
				need := vmSteps(re, []rune(text))
				for _, steps := range []int64{0, 1, need / 2, need - 1, need, 2 * need, need * int64(len(re.prog.Inst)) * 8} {
					for _, mm := range []int{0, 3} {
						if checkBuffered(t, re, text, steps, mm) {
							answered++
						} else {
							vm++
						}
					}
				}
			}
		}
	}
	if answered == 0 || vm == 0 {
		t.Errorf("the backtracker answered %d times and left %d calls to the VM: both should happen", answered, vm)
	}
	// The long inputs of bench/compare_inputs.json are the backtracker's
	// under regex_extract's budget.
	for _, c := range []struct{ pattern, flags, text string }{
		{`(?P<user>\w+)@(?P<host>[\w.]+)`, "", strings.Repeat("user0@host0.example.org and some filler text ", 320)},
		{`^ERROR (\d+): (.*)$`, "m", strings.Repeat("INFO 1000: request 0 served in 0 ms from cache=miss\n", 4000) + "ERROR 1: x\n"},
	} {
		re, err := Compile(c.pattern, c.flags)
		if err != nil {
			t.Fatal(err)
		}
		if re.useBacktrack(len([]rune(c.text)), Limits{MaxSteps: 50_000_000}) || !re.useBuffered(len([]rune(c.text))) {
			t.Errorf("%s: not a buffered search", c.pattern)
		}
		if !checkBuffered(t, re, c.text, 50_000_000, 1_000_000) {
			t.Errorf("%s: left to the VM under regex_extract's budget", c.pattern)
		}
	}
}

// FuzzBufferedMatchesVM is TestBufferedMatchesVM on any pattern, text, step
// budget and match limit.
func FuzzBufferedMatchesVM(f *testing.F) {
	for _, p := range backtrackSeeds {
		f.Add(p, "", "a1 b22\nc333 é_ aaab the The ab@c.d x=1", uint32(0), uint8(0))
		f.Add(p, "m", strings.Repeat("ab@c.d x=1\n", 20), uint32(500), uint8(2))
	}
	f.Fuzz(func(t *testing.T, pattern, flags, text string, steps uint32, maxMatches uint8) {
		re := fuzzCompile(pattern, flags, text, 2000)
		if re == nil || re.loops {
			return
		}
		checkBuffered(t, re, text, int64(steps), int(maxMatches))
	})
}

// TestStartPC: the instruction every path from the start reaches is found
// past captures and assertions, and there is none where the start branches.
func TestStartPC(t *testing.T) {
	for p, want := range map[string]syntax.InstOp{`(?P<user>\w+)@`: syntax.InstRune, `\b(x)`: syntax.InstRune1,
		`(\w+)=`: syntax.InstRune, `ab|cd`: syntax.InstFail, `x*`: syntax.InstFail} {
		re, err := Compile(p, "")
		if err != nil {
			t.Fatal(err)
		}
		got := syntax.InstFail // 0: none
		if re.startPC != 0 {
			got = re.prog.Inst[re.startPC].Op
		}
		if got != want {
			t.Errorf("%q: start instruction %v, want %v", p, got, want)
		}
	}
}
