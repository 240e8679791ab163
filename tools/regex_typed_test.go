package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/precisiond/precisiond/contracts"
	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/internal/regexpy"
)

// regexTypedMutations turn valid facts into facts the outputSchema may or
// may not accept: each must get the schema's verdict from check, and, when
// accepted, the canonical bytes of the generic path from appendCanonical.
var regexTypedMutations = map[string]func(f *regexFacts){
	"negative start":        func(f *regexFacts) { f.Matches[0].Start = -1 },
	"negative end":          func(f *regexFacts) { f.Matches[0].End = -2 },
	"negative total":        func(f *regexFacts) { f.TotalMatches = -1 },
	"negative offset":       func(f *regexFacts) { f.Offset = -1 },
	"limit 0":               func(f *regexFacts) { f.Limit = 0 },
	"limit 1":               func(f *regexFacts) { f.Limit = 1 },
	"number group":          func(f *regexFacts) { f.Matches[0].Groups = []any{json.Number("1")} },
	"bool group":            func(f *regexFacts) { f.Matches[0].Groups = []any{"a", true} },
	"null group":            func(f *regexFacts) { f.Matches[0].Groups = []any{nil, "b"} },
	"nil groups":            func(f *regexFacts) { f.Matches[0].Groups = nil },
	"float named":           func(f *regexFacts) { f.Matches[0].Named = map[string]any{"x": 1.5} },
	"decoded named":         func(f *regexFacts) { f.Matches[0].Named = map[string]any{"é": "v", "a": nil, "Z": "\n"} },
	"empty decoded named":   func(f *regexFacts) { f.Matches[0].Named = map[string]any{} },
	"negative next_offset":  func(f *regexFacts) { n := -3; f.NextOffset = &n },
	"odd cursor":            func(f *regexFacts) { c := "\u2028\"\\\x01"; f.NextCursor = &c },
	"odd match":             func(f *regexFacts) { f.Matches[0].Match = "\x00\"\\é😀\x7f" },
	"no matches":            func(f *regexFacts) { f.Matches = nil },
	"large numbers":         func(f *regexFacts) { f.TotalMatches, f.Offset = math.MaxInt, math.MaxInt/2 },
	"has more":              func(f *regexFacts) { f.HasMore = !f.HasMore },
	"named beyond groups":   func(f *regexFacts) { f.names = append(f.names, regexName{"zz", len(f.Matches[0].Groups) + 1}) },
	"named before group 1":  func(f *regexFacts) { f.names = append(f.names, regexName{"zz", 0}) },
	"named bool via groups": func(f *regexFacts) { f.names = []regexName{{"n", 1}}; f.Matches[0].Groups = []any{false} },
}

// checkRegexTyped compares the typed facts path with the generic one on f:
// check's verdict with the outputSchema's on generic(), and, when valid,
// appendCanonical with evidence.Canonical(generic()).
func checkRegexTyped(t *testing.T, c *contracts.Contract, name string, f *regexFacts) (valid bool) {
	t.Helper()
	var g map[string]any
	var panicked any
	func() {
		defer func() { panicked = recover() }()
		g = f.generic()
	}()
	checkErr := f.check()
	if panicked != nil {
		// A generic form that cannot even be built must be refused first.
		if checkErr == nil {
			t.Errorf("%s: check accepts facts whose generic form panics (%v)", name, panicked)
		}
		return false
	}
	schemaErr := c.ValidateOutput(g)
	if (checkErr == nil) != (schemaErr == nil) {
		t.Errorf("%s: check says %v, the outputSchema %v", name, checkErr, schemaErr)
		return false
	}
	if checkErr != nil {
		return false
	}
	want, err := evidence.Canonical(g)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if got := f.appendCanonical([]byte("prefix")); string(got) != "prefix"+string(want) {
		t.Errorf("%s: typed canonical\n%s\ngeneric canonical\n%s", name, got[6:], want)
	}
	return true
}

// regexPageOf is the page of a call's arguments, or false when the call
// is refused before facts exist.
func regexPageOf(args map[string]any) (regexFacts, bool) {
	in, err := decodeStrict[regexInput](args)
	if err != nil || in.Limit == 0 {
		in.Limit = 20
	}
	if err != nil {
		return regexFacts{}, false
	}
	re, err := regexpy.Compile(in.Pattern, in.Flags)
	if err != nil {
		return regexFacts{}, false
	}
	f, _, err := regexPage(context.Background(), re, in.Text, in.Offset, in.Limit, 1<<20)
	return f, err == nil
}

// TestRegexTypedFacts: regex_extract's typed facts (check, appendCanonical)
// agree with the outputSchema validator and the canonical encoder on the
// generic form, for the page of every oracle case and for each of those
// pages altered in every way of regexTypedMutations; and a call through the
// registry hashes exactly what the generic path hashes.
func TestRegexTypedFacts(t *testing.T) {
	c := contracts.MustLoad("regex_extract")
	cases := loadGolden(t, "testdata/regex_extract/oracle_re.json")
	pages, mutated, refused := 0, 0, 0
	for _, tc := range cases {
		f, ok := regexPageOf(tc.Args)
		if !ok {
			continue
		}
		pages++
		if !checkRegexTyped(t, c, tc.Name, &f) {
			t.Errorf("%s: a page of the tool is refused", tc.Name)
		}
		if len(f.Matches) == 0 {
			continue
		}
		for name, mutate := range regexTypedMutations {
			g := withNamed(f) // a copy whose matches can be altered
			g.Matches = append([]regexMatch(nil), f.Matches...)
			for i := range g.Matches {
				g.Matches[i].Named = nil
				g.Matches[i].Groups = append([]any(nil), f.Matches[i].Groups...)
			}
			g.names = append([]regexName(nil), f.names...)
			mutate(&g)
			mutated++
			if !checkRegexTyped(t, c, tc.Name+" / "+name, &g) {
				refused++
			}
		}
	}
	if pages < len(cases)/2 || refused == 0 || refused == mutated {
		t.Errorf("%d pages of %d cases, %d of %d mutations refused: the comparison is not exercising both verdicts", pages, len(cases), refused, mutated)
	}

	// End to end: the envelope's result_hash and bytes are those of the
	// generic facts.
	reg := testRegistry(t)
	for _, tc := range cases[:min(len(cases), 40)] {
		resp, err := reg.Invoke(context.Background(), Request{Tool: "regex_extract", Args: tc.Args})
		if err != nil {
			continue
		}
		env := resp.Envelope
		// The generic facts are made once, whoever asks first.
		done := make(chan map[string]any)
		for range 2 {
			go func() { done <- env.Facts() }()
		}
		if a, b := <-done, <-done; reflect.ValueOf(a).Pointer() != reflect.ValueOf(b).Pointer() {
			t.Errorf("%s: two readers got two generic forms", tc.Name)
		}
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(env); err != nil || strings.TrimSuffix(buf.String(), "\n") != string(resp.EnvelopeJSON) {
			t.Errorf("%s: the JSON encoding of the envelope differs from its bytes (%v)", tc.Name, err)
		}
		rh, err := evidence.ResultHash(env.ContractHash, env.InputNormalized, env.Facts())
		if err != nil || rh != env.ResultHash {
			t.Errorf("%s: result_hash %s, generic facts hash to %s (%v)", tc.Name, env.ResultHash, rh, err)
		}
		want, err := evidence.Canonical(env.Generic())
		if err != nil || string(want) != string(resp.EnvelopeJSON) {
			t.Errorf("%s: envelope bytes differ from canonical(generic) (%v)", tc.Name, err)
		}
	}
}

// FuzzRegexTypedFacts compares the typed facts path with the generic one
// on pages of arbitrary patterns and texts, altered by the fuzzer's numbers
// and group values.
func FuzzRegexTypedFacts(f *testing.F) {
	f.Add(`(?P<user>\w+)@(?P<host>[\w.]+)`, "joe@example.com ann@test.org", 0, 0, 20, uint8(0), "")
	f.Add(`(\d+)-(\d+)?`, "1-2 3- 45-6", -1, 3, 1, uint8(1), "x")
	f.Add(`\w*`, "ab cd", 2, -4, 0, uint8(2), "\u2028")
	f.Add(`(?P<b>b)|(?P<a>a)`, "abba", 1, math.MaxInt, 7, uint8(3), `"\`)
	c := contracts.MustLoad("regex_extract")
	f.Fuzz(func(t *testing.T, pattern, text string, start, total, limit int, kind uint8, s string) {
		if len(pattern) > 200 || len(text) > 2000 {
			return
		}
		facts, ok := regexPageOf(map[string]any{"pattern": pattern, "text": text})
		if !ok {
			return
		}
		checkRegexTyped(t, c, "page", &facts)
		facts.TotalMatches, facts.Limit = total, limit
		if len(facts.Matches) > 0 {
			m := &facts.Matches[0]
			m.Start, m.Match = start, s
			groups := append([]any{}, m.Groups...)
			switch kind % 6 {
			case 1:
				groups = append(groups, json.Number("1"))
			case 2:
				groups = append(groups, nil)
			case 3:
				groups = append(groups, s)
			case 4:
				m.Named = map[string]any{s: s, "k": nil}
			case 5:
				m.Named = map[string]any{s: int(kind)}
			}
			m.Groups = groups
		}
		checkRegexTyped(t, c, "altered page", &facts)
	})
}
