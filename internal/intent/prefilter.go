package intent

import (
	"regexp"
	"regexp/syntax"
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
