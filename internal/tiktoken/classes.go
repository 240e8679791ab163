package tiktoken

import (
	"sort"
	"unicode/utf8"
)

// class is what the pre-tokenization patterns ask of a code point: \p{L}
// split into the case classes o200k_base uses, \p{M}, \p{N} and JavaScript's
// \s (which, unlike Unicode White_Space, holds U+FEFF and not U+0085).
type class uint8

const (
	clsOther  class = iota // none of the below: [^\s\p{L}\p{N}] minus marks
	clsUpper               // Lu, Lt
	clsLower               // Ll
	clsLetter              // Lm, Lo
	clsMark                // M
	clsNumber              // N
	clsSpace               // \s
	clsEnd                 // past the end of the text being scanned
)

type classRange struct {
	lo, hi uint32
	c      class
}

var asciiClass = func() (t [utf8.RuneSelf]class) {
	for r := range t {
		t[r] = lookupClass(rune(r))
	}
	return t
}()

func lookupClass(r rune) class {
	i := sort.Search(len(classRanges), func(i int) bool { return classRanges[i].hi >= uint32(r) })
	if i < len(classRanges) && classRanges[i].lo <= uint32(r) {
		return classRanges[i].c
	}
	return clsOther
}

func classOf(r rune) class {
	if r < utf8.RuneSelf {
		return asciiClass[r]
	}
	return lookupClass(r)
}

func isLetter(c class) bool { return c >= clsUpper && c <= clsLetter }

// inUpper is o200k_base's [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}].
func inUpper(c class) bool { return c == clsUpper || c == clsLetter || c == clsMark }

// inLower is o200k_base's [\p{Ll}\p{Lm}\p{Lo}\p{M}].
func inLower(c class) bool { return c == clsLower || c == clsLetter || c == clsMark }

// isPunct is [^\s\p{L}\p{N}].
func isPunct(c class) bool { return c == clsOther || c == clsMark }

// isPrefix is [^\r\n\p{L}\p{N}].
func isPrefix(r rune, c class) bool {
	return r != '\r' && r != '\n' && !isLetter(c) && c != clsNumber && c != clsEnd
}
