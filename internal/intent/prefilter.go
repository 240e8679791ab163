package intent

import (
	"regexp"
	"regexp/syntax"
	"slices"
	"strconv"
	"strings"
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

// genericWords is the generic piece for a map whose longest key has n words:
// one to n runs of non-blanks separated by single blanks.
func genericWords(n int) string {
	if n <= 1 {
		return `[^ ]+`
	}
	return `[^ ]+(?: [^ ]+){0,` + strconv.Itoa(n-1) + `}`
}

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

// genericMaps returns maps whose keys are all plain word strings, each as a
// map with the single key genericMarker(n), n the most words of a key;
// expand writes that key for {map:name}, and prefilter replaces it by
// genericWords(n) (expand quotes keys, so the generic piece is substituted
// after expansion). Other maps are kept as they are.
func genericMaps(maps map[string]map[string]string) map[string]map[string]string {
	out := make(map[string]map[string]string, len(maps))
	for k, m := range maps {
		keys := make([]string, 0, len(m))
		n := 0
		for key := range m {
			keys = append(keys, key)
			n = max(n, len(strings.Split(key, " ")))
		}
		if isWordList(keys) && n <= 9 {
			out[k] = map[string]string{genericMarker(n): ""}
		} else {
			out[k] = m
		}
	}
	return out
}

// genericMarker stands for genericWords(n) (1 ≤ n ≤ 9) in a generic map; it
// survives regexp.QuoteMeta unchanged.
func genericMarker(n int) string { return "GENERICWORDSMARKER" + strconv.Itoa(n) + "X" }

// prefilter returns the prefilter regex for a pattern of insts instructions
// whose generic expansion (flags, anchors and all) is src, or nil when the
// pattern is small enough for the backtracker or src is no smaller.
func prefilter(patternInsts int, src string) *regexp.Regexp {
	if patternInsts <= maxInsts {
		return nil
	}
	for n := 1; n <= 9; n++ {
		src = strings.ReplaceAll(src, genericMarker(n), genericWords(n))
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
		if !isASCII(w) {
			return p.re.FindStringSubmatchIndex(text)
		}
		if _, ok := keys[strings.ToLower(w)]; !ok {
			return p.re.FindStringSubmatchIndex(text)
		}
	}
	return m
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
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
