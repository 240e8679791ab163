package intent

import (
	"regexp"
	"regexp/syntax"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A pattern with large vocabulary alternations ({map:units}, the zone and
// constant names) compiles to more instructions than Go's bounded
// backtracker takes (500), so Go runs it on its slower NFA simulation even
// for a short segment, although most patterns tried on a segment do not
// match it. For such a pattern the loader derives a prefilter: the same
// regex with each {map:…} replaced by a generic "1 to n blank-separated
// words" (n: the most words of a key of that map). Every key is such a
// string (a map with any other key is kept as it is), and a regex's language
// only grows when a part is replaced by a larger one; so a segment the
// prefilter does not match cannot match the pattern, and the pattern runs
// only when its prefilter matches. Both are RE2, linear in the text; what is
// recognised does not change (TestPrefilterSuperset checks it on every
// corpus and example text).

// Most patterns with a prefilter go further (fastGroups): when every {map:…}
// of the pattern is a whole named group, (?P<g>{map:m}), the prefilter
// keeps the groups, and its match is
// taken as the pattern's when the text of each such group is ASCII and, in
// lower case, a key of m. The pattern's own match is then the same:
//   - that match of the prefilter is a match of the pattern (each map group's
//     text is a key, which the alternation matches; everything else of the
//     two regexes is the same);
//   - the pattern prefers no other: the two regexes differ only at the map
//     slots, where both prefer the longer text (the alternation lists the
//     keys longest first, the generic piece is greedy; for ASCII text a
//     key's length is its text's), so they rank all matches alike.
// Otherwise (a group's text is not a key, or not ASCII, where Unicode case
// folding could make key length and text length differ) the pattern runs.
// TestPrefilterFast compares the two on every corpus text.

// genericWords is the generic piece for the keys of a map: one to n runs of
// word characters separated by single blanks, n the most words of a key.
// Word characters are all but the blank and the punctuation in
// wordBreaks that no key contains, so that a slot stops before a trailing
// "?" or "." as a key does. A word after the first must begin with a
// letter that begins a later word of some key (for the units c, f, h, k, m,
// p, s: "per", "pro", "stunde", …), so that a slot does not swallow the
// words that follow it in the pattern ("in m/s um" stops at "m/s", "to
// miles" at "km"). Every key is such a
// string, so the piece matches every key; and at a given start the piece
// prefers the longer text, as the alternation of keys (longest first) does
// (the first word is greedy, a later word needs the blank after the one
// before, and one text has one split into first word and later words).
func genericWords(keys []string) string {
	var ex strings.Builder
	ex.WriteString("[^ ")
	for _, c := range wordBreaks {
		if !slices.ContainsFunc(keys, func(k string) bool { return strings.ContainsRune(k, c) }) {
			ex.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	ex.WriteString("]")
	word := ex.String()
	n := 0
	var starts []rune // first letters of later words
	for _, k := range keys {
		ws := strings.Split(k, " ")
		n = max(n, len(ws))
		for _, w := range ws[1:] {
			if r, _ := utf8.DecodeRuneInString(strings.ToLower(w)); !slices.Contains(starts, r) {
				starts = append(starts, r)
			}
		}
	}
	if n <= 1 {
		return word + "+"
	}
	slices.Sort(starts)
	var class strings.Builder
	for _, r := range starts {
		if strings.ContainsRune(`\]^-[`, r) {
			class.WriteByte('\\')
		}
		class.WriteRune(r)
	}
	// A character class is one instruction: a 1 KiB text stays within
	// the backtracker's reach (its visited set is 256 Kibit, so a program
	// of more than 256 instructions runs on the NFA for 1 KiB).
	return word + "+(?: [" + class.String() + "]" + word + "*){0," + strconv.Itoa(n-1) + "}"
}

// wordBreaks are the characters a generic piece does not take into a word
// unless a key of its map has them.
const wordBreaks = `.,;:!?"()`

// maxInsts is the program size up to which Go's regexp uses its backtracker
// (regexp's maxBacktrackProg).
const maxInsts = 500

// plainWords matches a word string with no regex syntax in it.
var plainWords = regexp.MustCompile(`^[^ |()\[\]{}.*+?^$\\]+(?: [^ |()\[\]{}.*+?^$\\]+)*$`)

// isWordList reports whether every string of alts is a plain word string.
func isWordList(alts []string) bool {
	for _, a := range alts {
		if !plainWords.MatchString(a) {
			return false
		}
	}
	return len(alts) > 0
}

// generics collects the generic pieces of one prefilter: genericMaps stands
// a marker for each, which prefilter replaces.
type generics struct{ pieces []string }

// genericMaps returns maps whose keys are all plain word strings (at most 9
// words), each as a map with the single key marker(i), piece i being
// genericWords of its keys; expand writes that key for {map:name}, and
// prefilter replaces it by the piece (expand quotes keys, so the generic
// piece is substituted after expansion). Other maps are kept as they are.
func (g *generics) genericMaps(maps map[string]map[string]string) map[string]map[string]string {
	out := make(map[string]map[string]string, len(maps))
	for k, m := range maps {
		keys := make([]string, 0, len(m))
		n := 0
		for key := range m {
			keys = append(keys, key)
			n = max(n, len(strings.Split(key, " ")))
		}
		if isWordList(keys) && n <= 9 {
			slices.Sort(keys)
			out[k] = map[string]string{genericMarker(len(g.pieces)): ""}
			g.pieces = append(g.pieces, genericWords(keys))
		} else {
			out[k] = m
		}
	}
	return out
}

// genericMarker stands for generic piece i in a generic map; it survives
// regexp.QuoteMeta unchanged.
func genericMarker(i int) string { return "GENERICWORDSMARKER" + strconv.Itoa(i) + "X" }

// prefilter returns the prefilter regex for a pattern of insts instructions
// whose generic expansion (flags, anchors and all) is src, with the markers
// of g, or nil when the pattern is small enough for the backtracker or the
// prefilter is no smaller.
func prefilter(patternInsts int, src string, g *generics) *regexp.Regexp {
	if patternInsts <= maxInsts {
		return nil
	}
	for i, p := range g.pieces {
		src = strings.ReplaceAll(src, genericMarker(i), p)
	}
	re, err := syntax.Parse(src, syntax.Perl)
	if err != nil {
		return nil
	}
	if n := progInsts(re); n > maxInsts || n >= patternInsts {
		return nil
	}
	p, err := regexp.Compile(src)
	if err != nil {
		return nil
	}
	return p
}

// progInsts is the size of the program Go's regexp runs for re.
func progInsts(re *syntax.Regexp) int {
	prog, err := syntax.Compile(re.Simplify())
	if err != nil {
		return 1 << 30
	}
	return len(prog.Inst)
}

// instsOf is progInsts of a regex source.
func instsOf(src string) int {
	re, err := syntax.Parse(src, syntax.Perl)
	if err != nil {
		return 1 << 30
	}
	return progInsts(re)
}

// match returns the sub-match indexes of p on text, as p.re's
// FindStringSubmatchIndex does, or nil.
func (p *compiled) match(text string) []int {
	if p.pre == nil {
		return p.re.FindStringSubmatchIndex(text)
	}
	if p.fast == nil {
		if !p.pre.MatchString(text) {
			return nil
		}
		return p.re.FindStringSubmatchIndex(text)
	}
	m := p.pre.FindStringSubmatchIndex(text)
	if m == nil {
		return nil
	}
	for g, keys := range p.fast {
		s, e := m[2*g], m[2*g+1]
		if s < 0 {
			continue
		}
		w := text[s:e]
		if !foldStable(w) {
			return p.re.FindStringSubmatchIndex(text)
		}
		if _, ok := keys[strings.ToLower(w)]; !ok {
			return p.re.FindStringSubmatchIndex(text)
		}
	}
	return m
}

// foldStable reports whether the case-insensitive alternation of the keys
// ranks the keys that match a prefix of s as the generic piece ranks texts,
// by length, and matches s itself against the key strings.ToLower(s). That
// holds for ASCII (the keys have no "ſ" and are in lower case, so no key
// rune folds to an ASCII one of another length) and for a rune r whose
// lower-case form is one of its case variants and whose variants that can
// stand in a lower-case key all have r's length in UTF-8 ("ü", "é", "ß";
// not "ẞ", whose key rune "ß" is shorter).
func foldStable(s string) bool {
	for _, r := range s {
		if r < utf8.RuneSelf {
			continue
		}
		lower, n := unicode.ToLower(r), utf8.RuneLen(r)
		ok := lower == r
		for q := unicode.SimpleFold(r); q != r; q = unicode.SimpleFold(q) {
			ok = ok || q == lower
			if unicode.ToLower(q) == q && utf8.RuneLen(q) != n {
				return false
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// mapSlot is a {map:name} in a regex, with the group it may be the whole of.
var mapSlot = regexp.MustCompile(`\(\?P<([A-Za-z0-9_]+)>\{map:([a-z_]+)\}\)|\{map:([a-z_]+)\}`)

// fastGroups returns, for a pattern whose prefilter can stand in for it, the
// sub-match index of each map group with its map; nil when it cannot: a
// {map:…} that is not a whole named group, a macro of the pattern that names
// a map, a map that was not made generic, a key that is not in lower case or
// has an "ſ", or groups that differ between the two regexes.
func fastGroups(p *compiled, src string, macros map[string]string, maps ...map[string]map[string]string) map[int]map[string]string {
	if p.pre == nil || !slices.Equal(p.pre.SubexpNames(), p.re.SubexpNames()) {
		return nil
	}
	for _, ref := range macroRef.FindAllStringSubmatch(src, -1) {
		if v, ok := macros[ref[1]]; ok && !strings.HasPrefix(ref[0], "{map:") && strings.Contains(v, "{map:") {
			return nil
		}
	}
	out := map[int]map[string]string{}
	for _, sm := range mapSlot.FindAllStringSubmatch(src, -1) {
		if sm[1] == "" {
			return nil
		}
		group, name := sm[1], sm[2]
		var keys map[string]string
		for _, ms := range maps {
			if keys = ms[name]; keys != nil {
				break
			}
		}
		list := make([]string, 0, len(keys))
		for k := range keys {
			// A lower-case key matches ASCII text only with its own
			// length, but for "ſ", which folds to "s".
			if k != strings.ToLower(k) || strings.ContainsRune(k, 'ſ') {
				return nil
			}
			list = append(list, k)
		}
		if !isWordList(list) {
			return nil
		}
		out[p.re.SubexpIndex(group)] = keys
	}
	if len(out) == 0 {
		return nil
	}
	return out
}
