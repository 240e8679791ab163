package tiktoken

import "unicode/utf8"

// scanner splits text into pre-tokens as js-tiktoken's regular expressions
// do (leftmost alternative first, greedy with backtracking, "u" flag), by
// hand: Go's regexp has neither the lookahead of \s+(?!\S) nor
// backtracking. It works on byte offsets of valid UTF-8 and records the
// furthest offset each match looked at, so that a prefix of the text can
// reuse the pieces whose matches never looked at the cut (see prefix.go).
//
// cl100k_base:
//
//	'(s|t|re|ve|m|ll|d) (ASCII, either case) | [^\r\n\p{L}\p{N}]?\p{L}+ | \p{N}{1,3} |
//	 ?[^\s\p{L}\p{N}]+[\r\n]* | \s*[\r\n]+ | \s+(?!\S) | \s+
//
// o200k_base:
//
//	[^\r\n\p{L}\p{N}]?[Lu Lt Lm Lo M]*[Ll Lm Lo M]+('s|'t|'re|'ve|'m|'ll|'d)? |
//	[^\r\n\p{L}\p{N}]?[Lu Lt Lm Lo M]+[Ll Lm Lo M]*('s|...)? | \p{N}{1,3} |
//	 ?[^\s\p{L}\p{N}]+[\r\n/]* | \s*[\r\n]+ | \s+(?!\S) | \s+
type scanner struct {
	s    string
	end  int // the text ends here for this scan
	seen int // furthest offset looked at (end when the end was seen)
}

// at is the code point at offset i, its class and its size; clsEnd at or
// past the end.
func (z *scanner) at(i int) (rune, class, int) {
	if i >= z.end {
		z.seen = max(z.seen, z.end)
		return -1, clsEnd, 0
	}
	z.seen = max(z.seen, i)
	if b := z.s[i]; b < utf8.RuneSelf {
		return rune(b), asciiClass[b], 1
	}
	r, n := utf8.DecodeRuneInString(z.s[i:z.end])
	return r, classOf(r), n
}

func (z *scanner) cls(i int) class {
	_, c, _ := z.at(i)
	return c
}

// next returns the end of the pre-token starting at p < z.end.
func (z *scanner) next(p int, o200k bool) int {
	if o200k {
		return z.nextO200k(p)
	}
	return z.nextCl100k(p)
}

func (z *scanner) nextCl100k(p int) int {
	r0, c0, n0 := z.at(p)
	if r0 == '\'' {
		if n := z.contraction(p); n > 0 {
			return p + n
		}
	}
	if isPrefix(r0, c0) && isLetter(z.cls(p+n0)) {
		return z.run(p+n0, isLetter)
	}
	if isLetter(c0) {
		return z.run(p, isLetter)
	}
	if c0 == clsNumber {
		return z.digits(p)
	}
	if r0 == ' ' && isPunct(z.cls(p+1)) {
		return z.newlines(z.run(p+1, isPunct), false)
	}
	if isPunct(c0) {
		return z.newlines(z.run(p, isPunct), false)
	}
	return z.space(p)
}

func (z *scanner) nextO200k(p int) int {
	r0, c0, n0 := z.at(p)
	pre := isPrefix(r0, c0)
	if pre {
		if q, ok := z.upperLower(p + n0); ok {
			return z.optContraction(q)
		}
	}
	if q, ok := z.upperLower(p); ok {
		return z.optContraction(q)
	}
	if pre && inUpper(z.cls(p+n0)) {
		return z.optContraction(z.run(z.run(p+n0, inUpper), inLower))
	}
	if inUpper(c0) {
		return z.optContraction(z.run(z.run(p, inUpper), inLower))
	}
	if c0 == clsNumber {
		return z.digits(p)
	}
	if r0 == ' ' && isPunct(z.cls(p+1)) {
		return z.newlines(z.run(p+1, isPunct), true)
	}
	if isPunct(c0) {
		return z.newlines(z.run(p, isPunct), true)
	}
	return z.space(p)
}

// run is the end of the run of code points from i whose class is in.
func (z *scanner) run(i int, in func(class) bool) int {
	for {
		_, c, n := z.at(i)
		if !in(c) {
			return i
		}
		i += n
	}
}

// upperLower matches [Lu Lt Lm Lo M]*[Ll Lm Lo M]+ at q: the greedy first
// part gives back code points until the second can match.
func (z *scanner) upperLower(q int) (int, bool) {
	a := z.run(q, inUpper)
	if inLower(z.cls(a)) { // a code point not in the first set: Ll
		return z.run(a, inLower), true
	}
	// Give back: the last code point before a that is in the second set
	// matches it alone (the next one, if any, is Lu or Lt), or, when it is
	// the one just before a, up to a (which is not in the second set).
	for k := a; k > q; {
		r, n := utf8.DecodeLastRuneInString(z.s[q:k])
		k -= n
		if inLower(classOf(r)) {
			return k + n, true
		}
	}
	return 0, false
}

func (z *scanner) digits(p int) int {
	q := p
	for range 3 {
		_, c, n := z.at(q)
		if c != clsNumber {
			break
		}
		q += n
	}
	return q
}

// newlines takes [\r\n]* (and '/' for o200k_base) after a punctuation run.
func (z *scanner) newlines(i int, slash bool) int {
	for {
		r, _, _ := z.at(i)
		if r != '\r' && r != '\n' && !(slash && r == '/') {
			return i
		}
		i++
	}
}

// space matches \s*[\r\n]+ | \s+(?!\S) | \s+ at a whitespace code point.
func (z *scanner) space(p int) int {
	e := z.run(p, func(c class) bool { return c == clsSpace })
	for j := e - 1; j >= p; j-- { // \s*[\r\n]+ ends after the run's last \r or \n
		if b := z.s[j]; b == '\r' || b == '\n' {
			return j + 1
		}
	}
	if e == z.end { // \s+(?!\S) at the end of the text
		return e
	}
	// \s+(?!\S) gives back the last whitespace code point, when that leaves one
	_, n := utf8.DecodeLastRuneInString(z.s[p:e])
	if e-n > p {
		return e - n
	}
	return e // \s+
}

// contraction is the length of '(s|t|re|ve|m|ll|d) (ASCII, either case) at
// p, or 0.
func (z *scanner) contraction(p int) int {
	r1, _, _ := z.at(p + 1)
	switch r1 | 0x20 {
	case 's', 't', 'm', 'd':
		if r1 < utf8.RuneSelf {
			return 2
		}
	case 'r', 'v', 'l':
		if r1 >= utf8.RuneSelf {
			return 0
		}
		r2, _, _ := z.at(p + 2)
		want := 'e'
		if r1|0x20 == 'l' {
			want = 'l'
		}
		if r2 >= 0 && r2 < utf8.RuneSelf && r2|0x20 == want {
			return 3
		}
	}
	return 0
}

func (z *scanner) optContraction(q int) int {
	if r, _, _ := z.at(q); r == '\'' {
		return q + z.contraction(q)
	}
	return q
}
