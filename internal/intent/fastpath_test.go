package intent

import (
	"math/big"
	"strings"
	"testing"
)

// The reference readers the fast paths of values.go must agree with: the
// regexes and big.Int that canonicalInteger and canonicalDate fall back to,
// and collapse and lowering by strings.Fields and strings.ToLower.

func refInteger(s string) (string, bool) {
	s = strings.ReplaceAll(s, " ", "")
	if !integerText.MatchString(s) || len(s) > 400 {
		return "", false
	}
	var n big.Int
	if _, ok := n.SetString(s, 10); !ok {
		return "", false
	}
	return n.String(), true
}

// refDecimal is canonicalDecimal without its integer fast path.
func refDecimal(s string) (string, error) {
	if _, ok := shortInteger(s); ok {
		s = " " + s // a blank, which the reading drops, skips the fast path
	}
	return canonicalDecimal(s)
}

func refDate(s string) (y, mo, d int, ok bool) {
	if m := isoDate.FindStringSubmatch(s); m != nil {
		return atoi(m[1]), atoi(m[2]), atoi(m[3]), true
	}
	if m := germanDate.FindStringSubmatch(s); m != nil {
		return atoi(m[3]), atoi(m[2]), atoi(m[1]), true
	}
	return 0, 0, 0, false
}

var fastPathSeeds = []string{"0", "-0", "+0", "007", "-007", "+7", "301", "-5", "999999999999999999", "1000000000000000000",
	"-999999999999999999", "12 345", "", "-", "+", "1a", "١٢", "2026-07-29", "2026-7-3", "29.07.2026", "3.7.2026",
	"2026-07-029", "20260-07-29", "2026-07-29 ", "2026--07", "1.2.3.4", "0000-00-00", "31.02.2026", "2026-02-29",
	"9999-12-31", "1.1.0001", "29.07.26", "2026/07/29", "  a  b ", "a\tb", "a  b", "Km/H", "Fuß", "NEW  York", "a\u00a0b",
	"x ", " x", "ä b"}

func checkFastPaths(t *testing.T, s string) {
	if got, ok := shortInteger(s); ok {
		if want, wok := refInteger(s); !wok || got != want {
			t.Errorf("shortInteger(%q) = %q, the reference gives %q, %v", s, got, want, wok)
		}
	}
	got, err := canonicalDecimal(s)
	want, werr := refDecimal(s)
	if got != want || (err == nil) != (werr == nil) {
		t.Errorf("canonicalDecimal(%q) = %q, %v; without the fast path %q, %v", s, got, err, want, werr)
	}
	y, mo, d, ok := splitDate(s)
	ry, rmo, rd, rok := refDate(s)
	if ok != rok || ok && (y != ry || mo != rmo || d != rd) {
		t.Errorf("splitDate(%q) = %d %d %d %v, the regexes give %d %d %d %v", s, y, mo, d, ok, ry, rmo, rd, rok)
	}
	if got, err := canonicalDate(s); err == nil && (got != pad(ry, 4)+"-"+pad(rmo, 2)+"-"+pad(rd, 2) || !rok) {
		t.Errorf("canonicalDate(%q) = %q, the regexes read %d-%d-%d", s, got, ry, rmo, rd)
	}
	if got, want := collapse(s), strings.Join(strings.Fields(s), " "); got != want {
		t.Errorf("collapse(%q) = %q, want %q", s, got, want)
	}
	if got, want := string(lowerKey(nil, s)), strings.ToLower(strings.Join(strings.Fields(s), " ")); got != want {
		t.Errorf("lowerKey(%q) = %q, want %q", s, got, want)
	}
}

// TestFastPaths compares the fast paths with the reference readers on
// chosen inputs and on every integer, date and word string of the corpus.
func TestFastPaths(t *testing.T) {
	r, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	inputs := append([]string(nil), fastPathSeeds...)
	for _, text := range corpusTexts(t, r) {
		inputs = append(inputs, text)
		inputs = append(inputs, strings.FieldsFunc(text, func(c rune) bool { return c == ' ' || c == '?' || c == ',' })...)
	}
	for _, s := range inputs {
		checkFastPaths(t, s)
	}
	if n, ok := shortInteger("-007"); !ok || n != "-7" {
		t.Errorf("shortInteger(-007) = %q, %v", n, ok)
	}
}

// FuzzFastPaths: the fast paths agree with the reference readers on any
// string.
func FuzzFastPaths(f *testing.F) {
	for _, s := range fastPathSeeds {
		f.Add(s)
	}
	f.Fuzz(checkFastPaths)
}
