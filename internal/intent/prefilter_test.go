package intent

import (
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// corpusTexts are every text of the corpus, the reference cases and the
// contracts' examples, each also split into its numbered items.
func corpusTexts(t *testing.T, r *Rules) []string {
	t.Helper()
	files, err := filepath.Glob("testdata/corpus/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus files: %v", err)
	}
	files = append(files, "testdata/reference/cases.json")
	var texts []string
	for _, f := range files {
		c := readCorpus(t, f)
		for _, p := range c.Positive {
			texts = append(texts, p.Text)
		}
		for _, n := range c.Negative {
			texts = append(texts, n.Text)
		}
	}
	for _, tool := range r.Tools() {
		ex := r.Examples(tool)
		for _, e := range append(ex.Accept, ex.Decline...) {
			texts = append(texts, e.Text)
		}
	}
	var out []string
	for _, text := range texts {
		out = append(out, text)
		if segs, _, ok := segments(text); ok {
			for _, sg := range segs {
				out = append(out, text[sg.start:sg.end])
			}
		}
	}
	return out
}

// TestPrefilterSuperset checks the property the prefilters rest on: whenever
// a pattern matches a text, its prefilter matches it too (so skipping the
// pattern when the prefilter fails changes nothing). It also checks that
// the big patterns got a prefilter small enough for Go's backtracker, and
// that the prefilters do reject texts (a prefilter that matched everything
// would pass the first check and save nothing).
func TestPrefilterSuperset(t *testing.T) {
	r, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	texts := corpusTexts(t, r)
	matched, rejected, withPre := 0, 0, 0
	for _, ts := range r.tools {
		for _, p := range ts.patterns {
			n := instsOf(p.re.String())
			if p.pre == nil {
				if ts.name == "unit_convert" {
					t.Errorf("%s %s (%d instructions) has no prefilter", ts.name, p.id, n)
				}
				continue
			}
			withPre++
			if m := instsOf(p.pre.String()); m > maxInsts || m >= n {
				t.Errorf("%s %s: prefilter of %d instructions for a pattern of %d", ts.name, p.id, m, n)
			}
			for _, text := range texts {
				for _, s := range []string{text, collapse(text), strings.ToUpper(collapse(text))} {
					full, pre := p.re.MatchString(s), p.pre.MatchString(s)
					if full && !pre {
						t.Errorf("%s %s matches %q, its prefilter does not", ts.name, p.id, s)
					}
					if full {
						matched++
					}
					if !pre {
						rejected++
					}
				}
			}
		}
	}
	t.Logf("%d patterns with a prefilter, %d texts, %d matches, %d rejected by the prefilter", withPre, len(texts),
		matched, rejected)
	if matched == 0 || rejected == 0 {
		t.Errorf("the check saw %d matches and %d rejections; it needs both", matched, rejected)
	}
}

// TestPrefilterMaps checks the rewrite itself: a map whose keys are all
// plain words becomes the generic piece, any other map stays as it is; the
// piece matches every key and stops before a word no later key word starts
// with and before punctuation no key has.
func TestPrefilterMaps(t *testing.T) {
	var g generics
	plain := map[string]string{"km/h": "km/h", "kilometer pro stunde": "km/h", "°c": "degC", "fuß": "ft"}
	got := g.genericMaps(map[string]map[string]string{
		"plain": plain,
		"regex": {"a.b": "x", "c": "y"},
		"blank": {" lead": "x", "z": "y"},
	})
	if _, ok := got["plain"][genericMarker(0)]; !ok || len(got["plain"]) != 1 || len(g.pieces) != 1 {
		t.Fatalf("plain map: %v, pieces %q", got["plain"], g.pieces)
	}
	for _, name := range []string{"regex", "blank"} {
		if len(got[name]) != 2 {
			t.Errorf("%s map was rewritten: %v", name, got[name])
		}
	}
	piece := regexp.MustCompile("(?i)^(?:" + g.pieces[0] + ")")
	for k := range plain {
		if m := piece.FindString(k + " um."); m != k {
			t.Errorf("the piece %q takes %q of key %q", g.pieces[0], m, k)
		}
	}
	if m := piece.FindString("m/s um."); m != "m/s" {
		t.Errorf("the piece takes %q of \"m/s um.\"", m)
	}
	if p := prefilter(10, "^a$", &g); p != nil {
		t.Errorf("a small pattern got a prefilter: %v", p)
	}
}

// TestFoldStable checks the runes whose slot text the prefilter's match may
// stand for: ASCII and those whose case variants of a lower-case key have
// their length, not "ẞ" (a key's "ß" is shorter) or "ſ" (its key "s" is).
func TestFoldStable(t *testing.T) {
	for s, want := range map[string]bool{"km/h": true, "Fuß": true, "FUß": true, "°C": true, "m²": true,
		"Zürich": true, "FUẞ": false, "ſ": false, "\u212a": false, "İ": false} {
		if got := foldStable(s); got != want {
			t.Errorf("foldStable(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestPrefilterFast checks that a pattern's match through its prefilter
// (compiled.match) is, on every corpus text, exactly the pattern's own.
func TestPrefilterFast(t *testing.T) {
	r, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	texts := corpusTexts(t, r)
	fast, compared := 0, 0
	for _, ts := range r.tools {
		for _, p := range ts.patterns {
			if p.fast == nil {
				continue
			}
			fast++
			for _, text := range texts {
				for _, s := range []string{text, collapse(text), strings.ToUpper(collapse(text))} {
					got, want := p.match(s), p.re.FindStringSubmatchIndex(s)
					if !slices.Equal(got, want) {
						t.Errorf("%s %s on %q: %v, the pattern gives %v", ts.name, p.id, s, got, want)
					}
					if want != nil {
						compared++
					}
				}
			}
		}
	}
	t.Logf("%d patterns use their prefilter's match; %d matches compared", fast, compared)
	if u := r.byName["unit_convert"]; u == nil || u.patterns[0].fast == nil {
		t.Error("unit_convert's first pattern does not use its prefilter's match")
	}
	if compared == 0 {
		t.Error("no match compared")
	}
}
