// Package regexpy runs Python 3.11 `re` patterns: with linear-time RE2-style
// matching where the pattern allows it, else on a step-bounded backtracker.
//
// A small parser reads the pattern with CPython 3.11's `re` syntax rules and writes
// an equivalent pattern in Go's regexp/syntax dialect. Constructs that need
// backtracking (look-around, backreferences, atomic groups, possessive quantifiers,
// conditionals) are written as marker groups, and such a pattern runs on the
// backtracking engine of sre.go, with CPython's sre semantics under a
// deterministic step and stack budget. Every other pattern is compiled by
// regexp/syntax and executed by this package's own Pike VM over the text's code
// points, which gives:
//   - Python's re.finditer rules for empty matches (an empty match may follow a
//     non-empty one at the same position; after an empty match the next match must
//     advance, and a non-empty alternative at that position is taken if one exists);
//   - Python's Unicode classes: \d = category Nd, \w = categories L and N plus "_",
//     \s = str.isspace(), \b/\B over that \w (ASCII forms under the a flag);
//   - Python's anchors: $ without the m flag matches at the end and before a final
//     newline; \Z only at the end; \b and \B never match in an empty string;
//   - captures of repetitions as CPython, including a final empty iteration
//     (loops.go);
//   - offsets in code points.
//
// Case-insensitive matching uses Unicode simple case folding (Go's tables) patched
// with CPython's extra equivalences (pyFoldGroups), and ASCII-only folding under
// the a flag (see docs/data-text.md for the remaining differences).
package regexpy

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// Error kinds returned by Compile.
type (
	// SyntaxError: CPython's re.compile would reject the pattern.
	SyntaxError struct{ Msg string }
	// UnsupportedError: a valid Python construct that needs backtracking or is
	// outside RE2's limits.
	UnsupportedError struct{ Construct string }
	// TooLargeError: the pattern exceeds a size or nesting limit.
	TooLargeError struct{ Msg string }
)

func (e *SyntaxError) Error() string { return "invalid regular expression: " + e.Msg }
func (e *UnsupportedError) Error() string {
	return "unsupported regex feature: " + e.Construct
}
func (e *TooLargeError) Error() string { return "regular expression too large: " + e.Msg }

// MaxPatternLen bounds the pattern, in code points.
const MaxPatternLen = 10000

// maxDepth bounds group nesting.
const maxDepth = 200

// maxRepeat is RE2's largest repetition count.
const maxRepeat = 1000

// pyMaxRepeat is CPython's MAXREPEAT on 64-bit builds.
const pyMaxRepeat = 4294967295

type flagSet struct {
	i, m, s, x, a, u bool
}

// assertion kinds carried by marker groups in the translated pattern.
const (
	assertNone = iota
	assertDollar
	assertWordU
	assertNonWordU
	assertWordA
	assertNonWordA
	assertLoopMark  // loops.go
	assertLoopReset // loops.go
	// Constructs only the backtracker (sre.go) runs. A marker group wraps
	// the construct's body (look-around, atomic, possessive, conditional) or
	// is empty (backreference); markerArg holds its group number.
	assertLookahead
	assertNegLookahead
	assertLookbehind
	assertNegLookbehind
	assertAtomic
	assertPossessive // wraps one repeat
	assertBackref    // exact
	assertBackrefI   // CPython's GROUPREF_UNI_IGNORE: simple lower case
	assertBackrefIA  // GROUPREF_IGNORE: ASCII lower case
	assertCond       // wraps (yes)|(no)
	assertCondYes
	assertCondNo
)

type translator struct {
	p        []rune
	pos      int
	out      strings.Builder
	goCaps   int            // capture groups emitted so far (user + marker)
	groups   int            // Python groups so far
	groupCap []int          // Python group k (1-based; index k) -> Go capture index
	names    map[string]int // Python group name -> number
	open     map[int]bool   // Python groups still open
	markers  map[int]int    // Go capture index -> assertion kind
	depth    int
	// unsupported is the first construct found that neither engine runs.
	// Parsing goes on, so that a syntax error anywhere (which CPython would
	// report) wins.
	unsupported *UnsupportedError
	// backtrack names the first construct that needs the backtracker
	// (sre.go); "" when the linear-time VM runs the pattern.
	backtrack string
	// markerArg: Go capture index of a backreference or conditional marker
	// -> the Python group it refers to.
	markerArg map[int]int
	// lookbehindGroups is CPython's state.lookbehindgroups: inside a
	// look-behind, the number of groups (group 0 included) before the
	// outermost one; 0 outside.
	lookbehindGroups int
	// condRefs: numeric group of a conditional -> the position of its
	// reference, checked once the whole pattern is read (CPython allows a
	// group defined later).
	condRefs map[int]int
}

func (t *translator) refuse(construct string) {
	if t.unsupported == nil {
		t.unsupported = &UnsupportedError{Construct: construct}
	}
}

// needBacktrack records a construct that only the backtracker runs.
func (t *translator) needBacktrack(construct string) {
	if t.backtrack == "" {
		t.backtrack = construct
	}
}

// posErr is a SyntaxError at an explicit position.
func posErr(pos int, format string, args ...any) error {
	return &SyntaxError{Msg: fmt.Sprintf(format, args...) + fmt.Sprintf(" at position %d", pos)}
}

// wrapMarker wraps what was written from output offset fromOut (the last
// item and its quantifier) in a marker group of kind. The Go captures opened
// from there on (every index above fromCaps) move up by one.
func (t *translator) wrapMarker(fromOut, fromCaps, kind int) {
	s := t.out.String()
	t.out.Reset()
	t.out.WriteString(s[:fromOut])
	t.out.WriteByte('(')
	t.out.WriteString(s[fromOut:])
	t.out.WriteByte(')')
	for k, c := range t.groupCap {
		if c > fromCaps {
			t.groupCap[k] = c + 1
		}
	}
	shift := func(m map[int]int) map[int]int {
		n := make(map[int]int, len(m))
		for c, v := range m {
			if c > fromCaps {
				c++
			}
			n[c] = v
		}
		return n
	}
	t.markers, t.markerArg = shift(t.markers), shift(t.markerArg)
	t.goCaps++
	t.markers[fromCaps+1] = kind
}

// openMarker writes the opening of a marker group of kind.
func (t *translator) openMarker(kind int) int {
	t.goCaps++
	t.markers[t.goCaps] = kind
	t.out.WriteByte('(')
	return t.goCaps
}

// checkLookbehindGroup is CPython's checklookbehindgroup: inside a
// look-behind, a reference must name a closed group defined before it. pos
// is the position CPython reports (just after the reference).
func (t *translator) checkLookbehindGroup(gid, pos int) error {
	if t.lookbehindGroups == 0 {
		return nil
	}
	if gid > t.groups || t.open[gid] {
		return posErr(pos, "cannot refer to an open group")
	}
	if gid >= t.lookbehindGroups {
		return posErr(pos, "cannot refer to group defined in the same lookbehind subpattern")
	}
	return nil
}

// itemKind tells what the last item of a sequence was, for quantifier checks.
type itemKind int

const (
	itemNone itemKind = iota
	itemAt
	itemRepeat
	itemAtom
)

func (t *translator) errf(format string, args ...any) error {
	return &SyntaxError{Msg: fmt.Sprintf(format, args...) + fmt.Sprintf(" at position %d", t.pos)}
}

func (t *translator) eof() bool { return t.pos >= len(t.p) }

func (t *translator) peek() rune {
	if t.eof() {
		return -1
	}
	return t.p[t.pos]
}

func (t *translator) peekAt(k int) rune {
	if t.pos+k >= len(t.p) {
		return -1
	}
	return t.p[t.pos+k]
}

func (t *translator) hasPrefix(s string) bool {
	rs := []rune(s)
	if t.pos+len(rs) > len(t.p) {
		return false
	}
	for i, r := range rs {
		if t.p[t.pos+i] != r {
			return false
		}
	}
	return true
}

func isFlagChar(r rune) bool { return strings.ContainsRune("aiLmsux", r) }

// translate converts a Python pattern, with the initial flags, to Go syntax.
func translate(pattern string, fl flagSet) (*translator, error) {
	t := &translator{p: []rune(pattern), names: map[string]int{}, open: map[int]bool{}, markers: map[int]int{},
		markerArg: map[int]int{}, condRefs: map[int]int{}}
	if len(t.p) > MaxPatternLen {
		return nil, &TooLargeError{Msg: fmt.Sprintf("pattern longer than %d characters", MaxPatternLen)}
	}
	t.groupCap = []int{0}
	// Global inline flags are allowed only at the very start of the pattern (3.11).
	for {
		if fl.x {
			t.skipVerbose()
		}
		if t.hasPrefix("(?#") {
			if err := t.skipComment(); err != nil {
				return nil, err
			}
			continue
		}
		if t.hasPrefix("(?") && (isFlagChar(t.peekAt(2)) || t.peekAt(2) == '-') {
			save := t.pos
			t.pos += 2
			add, del, global, err := t.parseFlags()
			if err != nil {
				return nil, err
			}
			if global {
				fl = applyFlags(fl, add, del)
				if fl.a && fl.u {
					return nil, t.errf("ASCII and UNICODE flags are incompatible")
				}
				continue
			}
			t.pos = save
		}
		break
	}
	if err := t.parseAlt(fl, true); err != nil {
		return nil, err
	}
	if !t.eof() {
		if t.peek() == ')' {
			return nil, t.errf("unbalanced parenthesis")
		}
		return nil, t.errf("unexpected end of pattern")
	}
	// A conditional may name a group defined after it; CPython checks at
	// the end, lowest position first.
	bad, badPos := 0, -1
	for g, pos := range t.condRefs {
		if g > t.groups && (badPos < 0 || pos < badPos) {
			bad, badPos = g, pos
		}
	}
	if badPos >= 0 {
		return nil, posErr(badPos, "invalid group reference %d", bad)
	}
	if t.unsupported != nil {
		return nil, t.unsupported
	}
	return t, nil
}

func applyFlags(fl flagSet, add, del string) flagSet {
	set := func(c rune, v bool) {
		switch c {
		case 'i':
			fl.i = v
		case 'm':
			fl.m = v
		case 's':
			fl.s = v
		case 'x':
			fl.x = v
		case 'a':
			fl.a = v
			if v {
				fl.u = false
			}
		case 'u':
			fl.u = v
			if v {
				fl.a = false
			}
		}
	}
	for _, c := range add {
		set(c, true)
	}
	for _, c := range del {
		set(c, false)
	}
	return fl
}

// parseFlags reads the letters after "(?" up to ")" (global) or ":" (scoped),
// following CPython 3.11's _parse_flags checks.
func (t *translator) parseFlags() (add, del string, global bool, err error) {
	c := t.peek()
	if c != '-' {
		for {
			if c == 'L' {
				return "", "", false, posErr(t.pos+1, "bad inline flags: cannot use 'L' flag with a str pattern")
			}
			add += string(c)
			if strings.ContainsRune(add, 'a') && strings.ContainsRune(add, 'u') {
				return "", "", false, posErr(t.pos+1, "bad inline flags: flags 'a', 'u' and 'L' are incompatible")
			}
			t.pos++
			c = t.peek()
			if c < 0 {
				return "", "", false, t.errf("missing -, : or )")
			}
			if c == ')' || c == '-' || c == ':' {
				break
			}
			if !isFlagChar(c) {
				if unicode.IsLetter(c) {
					return "", "", false, t.errf("unknown flag")
				}
				return "", "", false, t.errf("missing -, : or )")
			}
		}
	}
	if c == ')' {
		t.pos++
		return add, "", true, nil
	}
	if c == '-' {
		t.pos++
		c = t.peek()
		if c < 0 {
			return "", "", false, t.errf("missing flag")
		}
		if !isFlagChar(c) {
			if unicode.IsLetter(c) {
				return "", "", false, t.errf("unknown flag")
			}
			return "", "", false, t.errf("missing flag")
		}
		for {
			if c == 'a' || c == 'u' || c == 'L' {
				return "", "", false, posErr(t.pos+1, "bad inline flags: cannot turn off flags 'a', 'u' and 'L'")
			}
			del += string(c)
			t.pos++
			c = t.peek()
			if c < 0 {
				return "", "", false, t.errf("missing :")
			}
			if c == ':' {
				break
			}
			if !isFlagChar(c) {
				if unicode.IsLetter(c) {
					return "", "", false, t.errf("unknown flag")
				}
				return "", "", false, t.errf("missing :")
			}
		}
	}
	// c == ':'
	t.pos++
	for _, a := range add {
		if strings.ContainsRune(del, a) {
			return "", "", false, posErr(t.pos-1, "bad inline flags: flag turned on and off")
		}
	}
	return add, del, false, nil
}

func (t *translator) skipVerbose() {
	for !t.eof() {
		c := t.peek()
		if strings.ContainsRune(" \t\n\r\v\f", c) {
			t.pos++
			continue
		}
		if c == '#' {
			for !t.eof() && t.peek() != '\n' {
				t.pos++
			}
			continue
		}
		return
	}
}

// skipComment skips "(?#...)"; a backslash escapes the next character, as in
// CPython's tokenizer.
func (t *translator) skipComment() error {
	start := t.pos
	t.pos += 3
	for {
		if t.eof() {
			return posErr(start, "missing ), unterminated comment")
		}
		c := t.peek()
		t.pos++
		if c == '\\' {
			if !t.eof() {
				t.pos++
			}
			continue
		}
		if c == ')' {
			return nil
		}
	}
}

// parseAlt parses branches separated by "|" until ")" or the end.
func (t *translator) parseAlt(fl flagSet, top bool) error {
	for {
		if err := t.parseSeq(fl); err != nil {
			return err
		}
		if t.peek() == '|' {
			t.pos++
			t.out.WriteByte('|')
			continue
		}
		return nil
	}
}

func (t *translator) parseSeq(fl flagSet) error {
	last := itemNone
	// where the last item's output begins, and the Go captures before it
	lastOut, lastCaps := 0, 0
	for {
		if fl.x {
			t.skipVerbose()
		}
		if t.eof() {
			return nil
		}
		c := t.peek()
		itemOut, itemCaps := t.out.Len(), t.goCaps
		switch c {
		case '|', ')':
			return nil
		case '*', '+', '?', '{':
			ok, err := t.parseQuantifier(last, lastOut, lastCaps)
			if err != nil {
				return err
			}
			if ok {
				last = itemRepeat
				continue
			}
			// "{" that is not a valid repeat is a literal
			t.pos++
			t.emitLiteral('{', fl)
			last = itemAtom
		case '(':
			k, err := t.parseGroup(fl)
			if err != nil {
				return err
			}
			if k != itemNone {
				last = k
			} else {
				continue // a comment: the last item stays
			}
		case '[':
			if err := t.parseClass(fl); err != nil {
				return err
			}
			last = itemAtom
		case '.':
			t.pos++
			if fl.s {
				t.out.WriteString(`(?s:.)`)
			} else {
				t.out.WriteString(`[^\n]`)
			}
			last = itemAtom
		case '^':
			t.pos++
			if fl.m {
				t.out.WriteString(`(?m:^)`)
			} else {
				t.out.WriteString(`\A`)
			}
			last = itemAt
		case '$':
			t.pos++
			if fl.m {
				t.out.WriteString(`(?m:$)`)
			} else {
				t.emitMarker(assertDollar)
			}
			last = itemAt
		case '\\':
			k, err := t.parseEscape(fl)
			if err != nil {
				return err
			}
			last = k
		default:
			t.pos++
			t.emitLiteral(c, fl)
			last = itemAtom
		}
		lastOut, lastCaps = itemOut, itemCaps
	}
}

func (t *translator) emitMarker(kind int) {
	t.goCaps++
	t.markers[t.goCaps] = kind
	t.out.WriteString("()")
}

// pyFoldGroups are the characters whose case-insensitive equivalents in CPython
// (lower() equality plus sre's extra equivalences) differ from Unicode simple case
// folding; found by comparing every code point (see docs/data-text.md).
var pyFoldGroups = [][]rune{{'I', 'i', 0x130, 0x131}, {0x390, 0x1fd3}, {0x3b0, 0x1fe3}, {0xfb05, 0xfb06}}

func pyFoldGroup(r rune) []rune {
	for _, g := range pyFoldGroups {
		for _, x := range g {
			if x == r {
				return g
			}
		}
	}
	return nil
}

// asciiOther returns the other case of an ASCII letter, or -1.
func asciiOther(r rune) rune {
	switch {
	case r >= 'a' && r <= 'z':
		return r - 'a' + 'A'
	case r >= 'A' && r <= 'Z':
		return r - 'A' + 'a'
	}
	return -1
}

func (t *translator) emitLiteral(r rune, fl flagSet) {
	switch {
	case fl.i && fl.a: // ASCII-only case folding
		if o := asciiOther(r); o >= 0 {
			fmt.Fprintf(&t.out, `[\x{%x}\x{%x}]`, r, o)
			return
		}
	case fl.i:
		if g := pyFoldGroup(r); g != nil {
			t.out.WriteByte('[')
			for _, x := range g {
				fmt.Fprintf(&t.out, `\x{%x}`, x)
			}
			t.out.WriteByte(']')
			return
		}
		if unicode.SimpleFold(r) != r {
			fmt.Fprintf(&t.out, `(?i:\x{%x})`, r)
			return
		}
	}
	fmt.Fprintf(&t.out, `\x{%x}`, r)
}

// parseQuantifier handles * + ? {m,n} with an optional lazy "?" or possessive "+".
// It returns false (consuming nothing) for a "{" that is not a valid repeat.
func (t *translator) parseQuantifier(last itemKind, lastOut, lastCaps int) (bool, error) {
	c := t.peek()
	start := t.pos
	var q string
	if c == '{' {
		j := t.pos + 1
		if j < len(t.p) && t.p[j] == '}' {
			return false, nil
		}
		lo, hi := "", ""
		for j < len(t.p) && t.p[j] >= '0' && t.p[j] <= '9' {
			lo += string(t.p[j])
			j++
		}
		comma := false
		if j < len(t.p) && t.p[j] == ',' {
			comma = true
			j++
			for j < len(t.p) && t.p[j] >= '0' && t.p[j] <= '9' {
				hi += string(t.p[j])
				j++
			}
		} else {
			hi = lo
		}
		if j >= len(t.p) || t.p[j] != '}' {
			return false, nil
		}
		t.pos = j + 1
		min, max := uint64(0), uint64(pyMaxRepeat)
		var err error
		if lo != "" {
			if min, err = strconv.ParseUint(lo, 10, 64); err != nil || min >= pyMaxRepeat {
				return false, t.errf("the repetition number is too large")
			}
		}
		if hi != "" {
			if max, err = strconv.ParseUint(hi, 10, 64); err != nil || max >= pyMaxRepeat {
				return false, t.errf("the repetition number is too large")
			}
			if max < min {
				return false, posErr(start+1, "min repeat greater than max repeat")
			}
		}
		if min > maxRepeat || (hi != "" && max > maxRepeat) {
			t.refuse(fmt.Sprintf("repetition count above %d in %q", maxRepeat, string(t.p[start:t.pos])))
			min, max = 1, 1
		}
		switch {
		case !comma:
			q = fmt.Sprintf("{%d}", min)
		case hi == "":
			q = fmt.Sprintf("{%d,}", min)
		default:
			q = fmt.Sprintf("{%d,%d}", min, max)
		}
	} else {
		t.pos++
		q = string(c)
	}
	if last == itemNone || last == itemAt {
		t.pos = start
		return false, t.errf("nothing to repeat")
	}
	if last == itemRepeat {
		t.pos = start
		return false, t.errf("multiple repeat")
	}
	switch t.peek() {
	case '?':
		t.pos++
		q += "?"
	case '+':
		t.needBacktrack("possessive quantifier " + string(t.p[start:t.pos+1]))
		t.pos++
		t.out.WriteString(q)
		t.wrapMarker(lastOut, lastCaps, assertPossessive)
		return true, nil
	}
	t.out.WriteString(q)
	return true, nil
}

func isIdentStart(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.Is(unicode.Nl, r) || unicode.Is(unicode.Other_ID_Start, r)
}

func isIdentCont(r rune) bool {
	return isIdentStart(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r) ||
		unicode.Is(unicode.Nd, r) || unicode.Is(unicode.Pc, r) || unicode.Is(unicode.Other_ID_Continue, r)
}

func (t *translator) readName(term rune) (string, error) {
	j := t.pos
	for j < len(t.p) && t.p[j] != term {
		j++
	}
	if j >= len(t.p) {
		return "", t.errf("missing %c, unterminated name", term)
	}
	name := string(t.p[t.pos:j])
	if name == "" {
		return "", t.errf("missing group name")
	}
	for i, r := range []rune(name) {
		if (i == 0 && !isIdentStart(r)) || (i > 0 && !isIdentCont(r)) {
			return "", t.errf("bad character in group name %s", pyRepr(name))
		}
	}
	t.pos = j + 1
	return name, nil
}

// parseGroup handles everything that starts with "(".
func (t *translator) parseGroup(fl flagSet) (itemKind, error) {
	start := t.pos
	t.pos++ // (
	name := ""
	capture := true
	marker := assertNone // a marker group (sre.go) instead of (?:...)
	condGroup := 0
	lookbehind := false
	sub := fl
	if t.peek() == '?' {
		t.pos++
		c := t.peek()
		switch {
		case c == 'P' && t.peekAt(1) == '<':
			t.pos += 2
			n, err := t.readName('>')
			if err != nil {
				return 0, err
			}
			name = n
		case c == 'P' && t.peekAt(1) == '=':
			t.pos += 2
			nameAt := t.pos
			n, err := t.readName(')')
			if err != nil {
				return 0, err
			}
			k, ok := t.names[n]
			if !ok {
				return 0, posErr(nameAt, "unknown group name %s", pyRepr(n))
			}
			if t.open[k] {
				return 0, posErr(nameAt, "cannot refer to an open group")
			}
			if err := t.checkLookbehindGroup(k, t.pos); err != nil {
				return 0, err
			}
			t.needBacktrack("named backreference (?P=" + n + ")")
			t.emitBackref(k, fl)
			return itemAtom, nil
		case c == 'P':
			if t.peekAt(1) < 0 {
				t.pos++
				return 0, t.errf("unexpected end of pattern")
			}
			return 0, posErr(start+1, "unknown extension ?P%s", string(t.peekAt(1)))
		case c == '<' && (t.peekAt(1) == '=' || t.peekAt(1) == '!'):
			if t.peekAt(1) == '=' {
				t.needBacktrack("look-behind (?<=...)")
				marker = assertLookbehind
			} else {
				t.needBacktrack("negative look-behind (?<!...)")
				marker = assertNegLookbehind
			}
			t.pos += 2
			capture = false
			lookbehind = true
		case c == '<':
			// (?<name>...) is PCRE's spelling of a named group; CPython 3.11 has
			// only (?P<name>...) and refuses it as an unknown extension.
			if t.peekAt(1) < 0 {
				t.pos += 1
				return 0, t.errf("unexpected end of pattern")
			}
			return 0, posErr(t.pos-1, "unknown extension ?<%s", string(t.peekAt(1)))
		case c == '=':
			t.needBacktrack("look-ahead (?=...)")
			marker = assertLookahead
			t.pos++
			capture = false
		case c == '!':
			t.needBacktrack("negative look-ahead (?!...)")
			marker = assertNegLookahead
			t.pos++
			capture = false
		case c == '>':
			t.needBacktrack("atomic group (?>...)")
			marker = assertAtomic
			t.pos++
			capture = false
		case c == '(':
			t.needBacktrack("conditional (?(...)...)")
			t.pos++
			j := t.pos
			for j < len(t.p) && t.p[j] != ')' {
				j++
			}
			if j >= len(t.p) {
				if j == t.pos {
					t.pos = j
					return 0, t.errf("missing group name")
				}
				return 0, posErr(t.pos, "missing ), unterminated name")
			}
			if j == t.pos {
				t.pos = j + 1
				return 0, posErr(j, "missing group name")
			}
			cond := string(t.p[t.pos:j])
			condAt := t.pos
			t.pos = j + 1
			g, err := t.checkCondition(cond, condAt)
			if err != nil {
				return 0, err
			}
			if err := t.checkLookbehindGroup(g, t.pos); err != nil {
				return 0, err
			}
			condGroup = g
			marker = assertCond
			capture = false
		case c == '#':
			t.pos = start
			return itemNone, t.skipComment()
		case c == ':':
			t.pos++
			capture = false
		case isFlagChar(c) || c == '-':
			add, del, global, err := t.parseFlags()
			if err != nil {
				return 0, err
			}
			if global {
				return 0, &SyntaxError{Msg: fmt.Sprintf("global flags not at the start of the expression at position %d", start)}
			}
			sub = applyFlags(fl, add, del)
			capture = false
		case c < 0:
			return 0, t.errf("unexpected end of pattern")
		default:
			return 0, posErr(start+1, "unknown extension ?%c", c)
		}
	}
	t.depth++
	if t.depth > maxDepth {
		return 0, &TooLargeError{Msg: fmt.Sprintf("groups nested deeper than %d", maxDepth)}
	}
	saveLB := t.lookbehindGroups
	if lookbehind && saveLB == 0 {
		t.lookbehindGroups = t.groups + 1
	}
	num := 0
	switch {
	case capture:
		if name != "" {
			if _, dup := t.names[name]; dup {
				return 0, posErr(t.pos-len([]rune(name))-1, "redefinition of group name %s as group %d; was group %d", pyRepr(name), t.groups+1, t.names[name])
			}
		}
		t.groups++
		num = t.groups
		t.goCaps++
		t.groupCap = append(t.groupCap, t.goCaps)
		if name != "" {
			t.names[name] = num
		}
		t.open[num] = true
		t.out.WriteByte('(')
	case marker != assertNone:
		c := t.openMarker(marker)
		if marker == assertCond {
			t.markerArg[c] = condGroup
		}
	default:
		t.out.WriteString("(?:")
	}
	if marker == assertCond {
		// (yes)|(no): at most two branches; a missing no matches empty
		t.openMarker(assertCondYes)
		if err := t.parseSeq(sub); err != nil {
			return 0, err
		}
		t.out.WriteString(")|")
		t.openMarker(assertCondNo)
		if t.peek() == '|' {
			t.pos++
			if err := t.parseSeq(sub); err != nil {
				return 0, err
			}
			if t.peek() == '|' {
				return 0, t.errf("conditional backref with more than two branches")
			}
		}
		t.out.WriteByte(')')
	} else if err := t.parseAlt(sub, false); err != nil {
		return 0, err
	}
	if t.peek() != ')' {
		return 0, &SyntaxError{Msg: fmt.Sprintf("missing ), unterminated subpattern at position %d", start)}
	}
	t.pos++
	t.out.WriteByte(')')
	t.depth--
	t.lookbehindGroups = saveLB
	if capture {
		delete(t.open, num)
	}
	return itemAtom, nil
}

// emitBackref writes an empty marker group for a reference to group k,
// matched with the case rules of the flags in force (CPython's GROUPREF,
// GROUPREF_UNI_IGNORE, GROUPREF_IGNORE).
func (t *translator) emitBackref(k int, fl flagSet) {
	kind := assertBackref
	switch {
	case fl.i && fl.a:
		kind = assertBackrefIA
	case fl.i:
		kind = assertBackrefI
	}
	c := t.openMarker(kind)
	t.markerArg[c] = k
	t.out.WriteByte(')')
}

// checkCondition applies CPython's checks to the group reference of a
// conditional (?(ref)yes|no) at position at, and returns its group number.
func (t *translator) checkCondition(cond string, at int) (int, error) {
	ident := cond != ""
	for i, r := range []rune(cond) {
		if (i == 0 && !isIdentStart(r)) || (i > 0 && !isIdentCont(r)) {
			ident = false
		}
	}
	if ident {
		g, ok := t.names[cond]
		if !ok {
			return 0, posErr(at, "unknown group name %s", pyRepr(cond))
		}
		return g, nil
	}
	// int(): optional surrounding whitespace, a sign, digits of any script,
	// underscores between digits; CPython then refuses a negative number.
	n, dec, ok := pyInt(cond)
	if !ok || n < 0 {
		return 0, posErr(at, "bad character in group name %s", pyRepr(cond))
	}
	if n == 0 {
		return 0, posErr(at, "bad group number")
	}
	if n >= pyMaxGroups {
		return 0, posErr(at, "invalid group reference %s", dec)
	}
	if _, seen := t.condRefs[n]; !seen {
		t.condRefs[n] = at
	}
	return n, nil
}

// pyMaxGroups is CPython 3.11's MAXGROUPS on 64-bit builds (MAXREPEAT // 2).
const pyMaxGroups = pyMaxRepeat / 2

// pyInt parses s as Python's int() does for a decimal string. A value at or
// above pyMaxGroups saturates there (no group number reaches it; int may be
// 32 bits); dec is the value in ASCII decimal (as Python's %d prints it),
// whatever its size.
func pyInt(s string) (n int, dec string, ok bool) {
	s = strings.TrimFunc(s, unicode.IsSpace)
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	if s == "" || strings.HasPrefix(s, "_") || strings.HasSuffix(s, "_") || strings.Contains(s, "__") {
		return 0, "", false
	}
	var digits []byte
	for _, r := range s {
		if r == '_' {
			continue
		}
		if !unicode.Is(unicode.Nd, r) {
			return 0, "", false
		}
		d := int(digitValue(r))
		if len(digits) > 0 || d != 0 {
			digits = append(digits, byte('0'+d))
		}
		if n > (pyMaxGroups-d)/10 {
			n = pyMaxGroups // saturated, without overflowing a 32-bit int
		} else {
			n = n*10 + d
		}
	}
	dec = string(digits)
	if dec == "" {
		dec = "0"
	}
	if neg {
		n, dec = -n, "-"+dec
	}
	return n, dec, true
}

// digitValue is the value of a decimal digit (category Nd): the digits of
// every script come in runs of ten from zero.
func digitValue(r rune) rune {
	z := r
	for z > 0 && unicode.Is(unicode.Nd, z-1) {
		z--
	}
	return (r - z) % 10
}

var pyWhitespace = []rune{'\t', '\n', '\v', '\f', '\r', 0x1c, 0x1d, 0x1e, 0x1f, ' ', 0x85, 0xa0, 0x1680,
	0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a,
	0x2028, 0x2029, 0x202f, 0x205f, 0x3000}

const goSpaceClass = `\t-\r\x{1c}-\x{20}\x{85}\x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}`

// categoryPattern renders \d \D \s \S \w \W outside a class.
func categoryPattern(c rune, ascii bool) string {
	var pos, neg string
	switch c {
	case 'd', 'D':
		pos, neg = `\p{Nd}`, `\P{Nd}`
		if ascii {
			pos, neg = `[0-9]`, `[^0-9]`
		}
	case 's', 'S':
		pos, neg = `[`+goSpaceClass+`]`, `[^`+goSpaceClass+`]`
		if ascii {
			pos, neg = `[\t-\r ]`, `[^\t-\r ]`
		}
	case 'w', 'W':
		pos, neg = `[\p{L}\p{N}_]`, `[^\p{L}\p{N}_]`
		if ascii {
			pos, neg = `[0-9A-Za-z_]`, `[^0-9A-Za-z_]`
		}
	}
	if unicode.IsUpper(c) {
		return neg
	}
	return pos
}

// parseEscape handles a backslash sequence outside a class.
func (t *translator) parseEscape(fl flagSet) (itemKind, error) {
	start := t.pos
	t.pos++
	if t.eof() {
		return 0, posErr(start, "bad escape (end of pattern)")
	}
	c := t.peek()
	switch c {
	case 'A':
		t.pos++
		t.out.WriteString(`\A`)
		return itemAt, nil
	case 'Z':
		t.pos++
		t.out.WriteString(`\z`)
		return itemAt, nil
	case 'b', 'B':
		t.pos++
		switch {
		case c == 'b' && fl.a:
			t.emitMarker(assertWordA)
		case c == 'b':
			t.emitMarker(assertWordU)
		case fl.a:
			t.emitMarker(assertNonWordA)
		default:
			t.emitMarker(assertNonWordU)
		}
		return itemAt, nil
	case 'd', 'D', 's', 'S', 'w', 'W':
		t.pos++
		t.out.WriteString(categoryPattern(c, fl.a))
		return itemAtom, nil
	}
	if c >= '1' && c <= '9' {
		// octal escape (three octal digits) or a group reference
		if t.peekAt(1) >= '0' && t.peekAt(1) <= '7' && c <= '7' && t.peekAt(2) >= '0' && t.peekAt(2) <= '7' {
			v, _ := strconv.ParseUint(string(t.p[t.pos:t.pos+3]), 8, 32)
			if v > 0o377 {
				return 0, posErr(start, "octal escape value \\%s outside of range 0-0o377", string(t.p[t.pos:t.pos+3]))
			}
			t.pos += 3
			t.emitLiteral(rune(v), fl)
			return itemAtom, nil
		}
		j := t.pos + 1
		if j < len(t.p) && t.p[j] >= '0' && t.p[j] <= '9' {
			j++
		}
		ref := string(t.p[t.pos:j])
		k, _ := strconv.Atoi(ref)
		t.pos = j
		if k > t.groups {
			return 0, posErr(start+1, "invalid group reference %d", k)
		}
		if t.open[k] {
			return 0, posErr(start, "cannot refer to an open group")
		}
		if err := t.checkLookbehindGroup(k, t.pos); err != nil {
			return 0, err
		}
		t.needBacktrack("backreference \\" + ref)
		t.emitBackref(k, fl)
		return itemAtom, nil
	}
	r, err := t.literalEscape(c, false)
	if err != nil {
		t.pos = start
		return 0, err
	}
	t.emitLiteral(r, fl)
	return itemAtom, nil
}

// literalEscape reads an escape that stands for one character; t.pos is at the
// character after the backslash. inClass selects CPython's class escape rules.
func (t *translator) literalEscape(c rune, inClass bool) (rune, error) {
	bs := t.pos - 1 // the backslash, where CPython reports escape errors
	switch c {
	case 'a':
		t.pos++
		return '\a', nil
	case 'f':
		t.pos++
		return '\f', nil
	case 'n':
		t.pos++
		return '\n', nil
	case 'r':
		t.pos++
		return '\r', nil
	case 't':
		t.pos++
		return '\t', nil
	case 'v':
		t.pos++
		return '\v', nil
	case '\\':
		t.pos++
		return '\\', nil
	case 'x', 'u', 'U':
		n := map[rune]int{'x': 2, 'u': 4, 'U': 8}[c]
		if t.pos+1+n > len(t.p) {
			return 0, posErr(bs, "incomplete escape \\%c%s", c, hexPrefix(t.p[t.pos+1:]))
		}
		digits := string(t.p[t.pos+1 : t.pos+1+n])
		v, err := strconv.ParseUint(digits, 16, 32)
		if err != nil || strings.ContainsAny(digits, "+-_") {
			return 0, posErr(bs, "incomplete escape \\%c%s", c, hexPrefix(t.p[t.pos+1:t.pos+1+n]))
		}
		if v > unicode.MaxRune {
			return 0, posErr(bs, "bad escape \\%c%s", c, digits)
		}
		t.pos += 1 + n
		return rune(v), nil
	case 'N':
		// CPython: unicodedata.lookup, which takes aliases and named
		// sequences; a sequence is more than one character: refused.
		t.pos++
		if t.peek() != '{' {
			return 0, t.errf("missing {")
		}
		t.pos++
		j := t.pos
		for j < len(t.p) && t.p[j] != '}' {
			j++
		}
		if j >= len(t.p) {
			if j == t.pos {
				t.pos = j
				return 0, t.errf("missing character name")
			}
			return 0, posErr(t.pos, "missing }, unterminated name")
		}
		if j == t.pos {
			return 0, posErr(j, "missing character name")
		}
		name := string(t.p[t.pos:j])
		t.pos = j + 1
		r, ok := lookupName(name)
		if !ok {
			return 0, posErr(bs, "undefined character name %s", pyRepr(name))
		}
		return r, nil
	case '0':
		j := t.pos + 1
		for j < len(t.p) && j < t.pos+3 && t.p[j] >= '0' && t.p[j] <= '7' {
			j++
		}
		v, _ := strconv.ParseUint(string(t.p[t.pos:j]), 8, 32)
		t.pos = j
		return rune(v), nil
	}
	if inClass && c >= '1' && c <= '7' {
		j := t.pos
		for j < len(t.p) && j < t.pos+3 && t.p[j] >= '0' && t.p[j] <= '7' {
			j++
		}
		v, _ := strconv.ParseUint(string(t.p[t.pos:j]), 8, 32)
		if v > 0o377 {
			return 0, posErr(bs, "octal escape value \\%s outside of range 0-0o377", string(t.p[t.pos:j]))
		}
		t.pos = j
		return rune(v), nil
	}
	if c < 128 && (unicode.IsLetter(c) || unicode.IsDigit(c)) {
		return 0, posErr(bs, "bad escape \\%c", c)
	}
	t.pos++
	return c, nil
}

// pyRepr is Python's repr of a str, as CPython's error messages quote names:
// single quotes unless the text has one and no double quote; backslash,
// the quote, \t \n \r and unprintable characters escaped.
func pyRepr(s string) string {
	q := byte('\'')
	if strings.ContainsRune(s, '\'') && !strings.ContainsRune(s, '"') {
		q = '"'
	}
	var b strings.Builder
	b.WriteByte(q)
	for _, r := range s {
		switch {
		case r == '\\' || r == rune(q):
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case unicode.IsPrint(r):
			b.WriteRune(r)
		case r < 0x100:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r < 0x10000:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			fmt.Fprintf(&b, `\U%08x`, r)
		}
	}
	b.WriteByte(q)
	return b.String()
}

// hexPrefix is the leading ASCII hex digits of p (what CPython's escape
// parser read before it stopped).
func hexPrefix(p []rune) string {
	n := 0
	for n < len(p) && strings.ContainsRune("0123456789abcdefABCDEF", p[n]) {
		n++
	}
	return string(p[:n])
}
