package regexpy

import (
	"context"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

func findAll(t testing.TB, pattern, flags, text string, lim Limits) ([]Match, error) {
	t.Helper()
	re, err := Compile(pattern, flags)
	if err != nil {
		return nil, err
	}
	var ms []Match
	err = re.FindAll(context.Background(), []rune(text), lim, func(m Match) bool {
		ms = append(ms, Match{Groups: append([][2]int(nil), m.Groups...)})
		return true
	})
	return ms, err
}

// TestCatastrophicBacktracking: (a+)+$ against 100 000 a's and a b. A backtracking
// engine needs ~2^100000 steps; there is no match (the text ends in b, and $ needs
// an a right before the end or a final newline).
func TestCatastrophicBacktracking(t *testing.T) {
	text := strings.Repeat("a", 100000) + "b"
	ms, err := findAll(t, `(a+)+$`, "", text, Limits{MaxSteps: 100_000_000})
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 0 {
		t.Fatalf("got %d matches, want 0", len(ms))
	}
	// Without the b the whole run matches once, then the empty match at the end.
	ms, err = findAll(t, `(a+)+$`, "", text[:100000], Limits{MaxSteps: 100_000_000})
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 1 || ms[0].Groups[0] != [2]int{0, 100000} {
		t.Fatalf("got %v, want one match [0,100000)", ms)
	}
}

// TestUnsupported: repetition counts beyond RE2's 1000 are refused, the
// constructs that need backtracking compile for the backtracker and say so,
// and look-behind syntax inside a class or escaped is plain text.
func TestUnsupported(t *testing.T) {
	for pattern, construct := range map[string]string{
		`x{1001}`:       "repetition count above 1000",
		`(?=a{2,1001})`: "repetition count above 1000",
	} {
		_, err := Compile(pattern, "")
		var ue *UnsupportedError
		if !errors.As(err, &ue) || !strings.Contains(ue.Construct, construct) {
			t.Errorf("%q: got %v, want unsupported %q", pattern, err, construct)
		}
	}
	for pattern, construct := range map[string]string{
		`(?<=x)a`:          "look-behind",
		`(?<!x)a`:          "negative look-behind",
		`a(?=b)`:           "look-ahead",
		`a(?!b)`:           "negative look-ahead",
		`(a)\1`:            `backreference \1`,
		`(?P<q>a)(?P=q)`:   "named backreference (?P=q)",
		`(?>a)`:            "atomic group",
		`a*+`:              "possessive quantifier *+",
		`(a)?(?(1)b|c)`:    "conditional",
		`\N{EM DASH}`:      "",
		`[(?<=x)]\(?<=x\)`: "",
	} {
		re, err := Compile(pattern, "")
		if err != nil {
			t.Errorf("%q: %v", pattern, err)
			continue
		}
		if got := re.Backtracking(); (construct == "") != (got == "") || !strings.Contains(got, construct) {
			t.Errorf("%q: Backtracking() %q, want %q", pattern, got, construct)
		}
	}
}

// TestSyntaxErrorWins: CPython reports a syntax error anywhere, even after a
// construct we cannot run.
func TestSyntaxErrorWins(t *testing.T) {
	for _, p := range []string{`(?=a)(`, `a*+*`, `\1(a)`, `(?<=a)[`} {
		_, err := Compile(p, "")
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("%q: got %v, want a syntax error", p, err)
		}
	}
}

func TestLimits(t *testing.T) {
	_, err := findAll(t, `x`, "", strings.Repeat("x", 50), Limits{MaxMatches: 10})
	var ce *CostError
	if !errors.As(err, &ce) {
		t.Errorf("match limit: got %v, want CostError", err)
	}
	// a*b|a over n a's rescans the rest of the text for every match: quadratic
	// work, stopped by the step budget.
	_, err = findAll(t, `a*b|a`, "", strings.Repeat("a", 20000), Limits{MaxSteps: 1_000_000})
	if !errors.As(err, &ce) {
		t.Errorf("step limit: got %v, want CostError", err)
	}
	if _, err := Compile(strings.Repeat("(", 300)+strings.Repeat(")", 300), ""); err == nil {
		t.Errorf("deep nesting: got nil error")
	}
	if _, err := Compile(`((a{1000}){1000}){1000}`, ""); err == nil {
		t.Errorf("huge program: got nil error")
	}
}

func TestCancelled(t *testing.T) {
	re, err := Compile(`a`, "")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := re.FindAll(ctx, []rune("aaaa"), Limits{}, func(Match) bool { return true }); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
}

func TestFlagsArgument(t *testing.T) {
	if _, err := Compile("a", "x"); err == nil {
		t.Error(`flags "x": got nil error`)
	}
	ms, err := findAll(t, `^b.`, "ms", "a\nb\nc", Limits{})
	if err != nil || len(ms) != 1 || ms[0].Groups[0] != [2]int{2, 4} {
		t.Errorf("got %v %v, want one match [2,4)", ms, err)
	}
}

// FuzzCompile: translation never panics; what compiles runs without panicking, and
// every match lies inside the text in order, with groups inside their match.
func FuzzCompile(f *testing.F) {
	for _, s := range []string{`\d+`, `(?P<a>x)|(?P<b>y)`, `(?i)straße`, `[^\W\d]+`, `(a+)+$`, `(?x) a # c`,
		`\bé`, `a{,2}`, `[]a-]`, `(?<=x)`, `\1`, `(?#c)`, `x{1001}`, `(?a:\w)`, `$`, `(|a)*`, `[\d-z]`, `\N{X}`,
		`(?(1)a|b)`, `\U0001F600`, `[\0-\377]`, `(?-i:a)`, `((((`, `a**`, `(a*)+b`, `(?:(a)|b*)*`, `(a|){2,5}`,
		`((a*)*)*`, `(a*?){3,}`,
		// constructs of the backtracker
		`(?<=\$)\d+`, `(?<!a)b`, `(\w+)\s+\1`, `(?P<q>['"]).*?(?P=q)`, `"(?:[^"\\]|\\.)*+"`, `(?>a+)b`,
		`a++b`, `(a)?(?(1)b|c)`, `(?P<o><)?\w+(?(o)>)`, `\N{EM DASH}`, `[\N{DIGIT ONE}-\N{DIGIT NINE}]`,
		`(?=(a+))*`, `(a+)+\1$`, `(?<=a*)b`, `(?(?=a)a|b)`, `(?<x>a)`, `(?i)(\w)\1`, `(?:(a)|(?=b))*b\1`} {
		for _, fl := range []string{"", "i", "ms"} {
			f.Add(s, fl, "a1 b22\nc333 é_ aaab")
		}
	}
	f.Fuzz(func(t *testing.T, pattern, flags, text string) {
		if len(pattern) > 200 || len(text) > 500 || !utf8.ValidString(pattern) || !utf8.ValidString(text) {
			return
		}
		re, err := Compile(pattern, flags)
		if err != nil {
			var se *SyntaxError
			var ue *UnsupportedError
			var le *TooLargeError
			if !errors.As(err, &se) && !errors.As(err, &ue) && !errors.As(err, &le) {
				t.Fatalf("%q: untyped error %v", pattern, err)
			}
			return
		}
		rs := []rune(text)
		last := 0
		err = re.FindAll(context.Background(), rs, Limits{MaxSteps: 5_000_000, MaxMatches: 10000}, func(m Match) bool {
			g := m.Groups[0]
			if g[0] < last || g[1] < g[0] || g[1] > len(rs) {
				t.Fatalf("%q on %q: match %v after %d", pattern, text, g, last)
			}
			for _, sub := range m.Groups[1:] {
				// look-around can capture outside the match, never outside the text
				if sub[0] >= 0 && (sub[1] > len(rs) || sub[1] < sub[0]) {
					t.Fatalf("%q on %q: group %v outside the text (match %v)", pattern, text, sub, g)
				}
				if sub[0] >= 0 && re.sre == nil && (sub[0] < g[0] || sub[1] > g[1]) {
					t.Fatalf("%q on %q: group %v outside match %v", pattern, text, sub, g)
				}
			}
			last = g[1]
			return true
		})
		var ce *CostError
		if err != nil && !errors.As(err, &ce) {
			t.Fatalf("%q: %v", pattern, err)
		}
	})
}

func benchFind(b *testing.B, pattern, text string) {
	rs := []rune(text)
	b.ReportAllocs()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		re, err := Compile(pattern, "")
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		if err := re.FindAll(context.Background(), rs, Limits{}, func(Match) bool { n++; return true }); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEmailSmall(b *testing.B) {
	benchFind(b, `(?P<user>\w+)@(?P<host>[\w.]+)`, "joe@example.com, ann@test.org and more")
}

func BenchmarkEmail1MiB(b *testing.B) {
	unit := "contact joe@example.com or ann@test.org; café Straße 12345\n"
	benchFind(b, `(?P<user>\w+)@(?P<host>[\w.]+)`, strings.Repeat(unit, (1<<20)/len(unit)))
}

func BenchmarkCatastrophic100k(b *testing.B) {
	benchFind(b, `(a+)+$`, strings.Repeat("a", 100000)+"b")
}

// BenchmarkCompileUncached measures translation and compilation without the cache
// (large Unicode classes dominate).
func BenchmarkCompileUncached(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := compile(`(?P<user>\w+)@(?P<host>[\w.]+)`, ""); err != nil {
			b.Fatal(err)
		}
	}
}

// TestCacheIsTransparent: a cached pattern gives the same matches as a fresh one.
func TestCacheIsTransparent(t *testing.T) {
	text := []rune("ab12 cd3")
	collect := func(re *Regexp) []Match {
		var ms []Match
		if err := re.FindAll(context.Background(), text, Limits{}, func(m Match) bool { ms = append(ms, Match{Groups: append([][2]int(nil), m.Groups...)}); return true }); err != nil {
			t.Fatal(err)
		}
		return ms
	}
	a, _ := Compile(`(\d)+`, "")
	b, _ := Compile(`(\d)+`, "")
	c, _ := compile(`(\d)+`, "")
	if a != b {
		t.Error("second Compile did not come from the cache")
	}
	if ga, gc := collect(a), collect(c); len(ga) != 2 || len(gc) != 2 || ga[1].Groups[1] != gc[1].Groups[1] {
		t.Errorf("cached %v, fresh %v", ga, gc)
	}
}

// TestEmptyIterationCaptures: CPython lets a repeat run one empty iteration at a
// position and keeps its captures (its zero-width protection stops the next one).
// Expected values are CPython 3.11's re.search(...).span(1).
func TestEmptyIterationCaptures(t *testing.T) {
	for _, tc := range []struct {
		pattern, text string
		group1        [2]int
	}{
		{`(a*)+b`, "aab", [2]int{2, 2}},
		{`(a*)*`, "aab", [2]int{2, 2}},
		{`(a+)+b`, "aab", [2]int{0, 2}},
		{`(a|)+`, "aa", [2]int{2, 2}},
	} {
		ms, err := findAll(t, tc.pattern, "", tc.text, Limits{})
		if err != nil || len(ms) == 0 {
			t.Fatalf("%s: %v %v", tc.pattern, ms, err)
		}
		if got := ms[0].Groups[1]; got != tc.group1 {
			t.Errorf("%s on %q: group 1 %v, want %v", tc.pattern, tc.text, got, tc.group1)
		}
	}
}

// TestNestedNullableLoops: nested repeats with empty-matching bodies and captures
// (the instrumented case of loops.go) stay bounded: an answer or a CostError.
func TestNestedNullableLoops(t *testing.T) {
	p := strings.Repeat("(", 12) + "a*" + strings.Repeat(")*", 12)
	_, err := findAll(t, p, "", strings.Repeat("ab", 50000), Limits{MaxSteps: 5_000_000})
	var ce *CostError
	if err != nil && !errors.As(err, &ce) {
		t.Fatalf("got %v, want nil or CostError", err)
	}
	// Spans as CPython gives for 3 repetitions ([(0, 2), (2, 2), (3, 3)]); with 30,
	// CPython's backtracking does not finish, the finditer rules give the same spans.
	ms, err := findAll(t, strings.Repeat("(a*)*", 30), "", "aab", Limits{MaxSteps: 5_000_000})
	if err != nil || len(ms) != 3 || ms[0].Groups[0] != [2]int{0, 2} {
		t.Fatalf("got %v %v, want matches [0,2), [2,2), [3,3)", ms, err)
	}
}

// BenchmarkSparse1MiB: few matches in a long text; the first-character prefilter
// skips most positions.
func BenchmarkSparse1MiB(b *testing.B) {
	unit := strings.Repeat("the quick brown fox jumps over the lazy dog ", 20) + "on 2024-11 "
	benchFind(b, `(?P<year>\d{4})-(?P<month>\d\d)`, strings.Repeat(unit, (1<<20)/len(unit)))
}
