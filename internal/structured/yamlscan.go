package structured

import (
	"slices"
	"strconv"
	"sync"
	"unicode/utf8"
)

// The YAML 1.1 scanner of the validation path. It turns the payload into the
// token stream of YAML 1.1 (stream, directives, document markers, block and
// flow collection indicators, keys, values, entries, anchors, aliases, tags,
// scalars) and fails where PyYAML's scanner fails, with its problem text
// and mark. It is written from the YAML 1.1 specification and from PyYAML's
// observable verdicts (testdata/yaml_pyyaml.json): what a token may start
// with, which characters end a plain scalar, where a simple key may be
// (one line, at most 1024 characters), and that a tab is text only inside
// quoted scalars, block scalar content and comments.

// ytKind is the kind of a YAML token.
type ytKind uint8

const (
	ytStreamStart ytKind = iota
	ytStreamEnd
	ytDirective
	ytDocStart
	ytDocEnd
	ytBlockSeqStart
	ytBlockMapStart
	ytBlockEnd
	ytFlowSeqStart
	ytFlowMapStart
	ytFlowSeqEnd
	ytFlowMapEnd
	ytKey
	ytValue
	ytBlockEntry
	ytFlowEntry
	ytAlias
	ytAnchor
	ytTag
	ytScalar
)

// ytNames are the token names PyYAML's parser errors quote.
var ytNames = [...]string{
	ytStreamStart: "<stream start>", ytStreamEnd: "<stream end>", ytDirective: "<directive>",
	ytDocStart: "<document start>", ytDocEnd: "<document end>",
	ytBlockSeqStart: "<block sequence start>", ytBlockMapStart: "<block mapping start>", ytBlockEnd: "<block end>",
	ytFlowSeqStart: "[", ytFlowMapStart: "{", ytFlowSeqEnd: "]", ytFlowMapEnd: "}",
	ytKey: "?", ytValue: ":", ytBlockEntry: "-", ytFlowEntry: ",",
	ytAlias: "<alias>", ytAnchor: "<anchor>", ytTag: "<tag>", ytScalar: "<scalar>",
}

// ymark is a position: 0-based line and column in code points.
type ymark struct{ line, col int32 }

// ytoken is one token. A scalar has its value and whether it was plain; a
// directive its name in value and, for YAML, its version (major, minor) or,
// for TAG, its handle in handle.
type ytoken struct {
	kind       ytKind
	plain      bool
	pre        uint8 // while scanning: preKey or preMapKey, tokens that go before it
	start, end ymark
	value      string
	dir        *ydirective
}

// What a token found to start a simple key needs before it: a KEY, or a
// block mapping start and a KEY (its count of tokens).
const (
	preKey    = 1
	preMapKey = 2
)

// ydirective is what a %YAML or %TAG directive says.
type ydirective struct {
	major  int
	handle string
}

// yamlSyntax is a scanner, parser or constructor error: PyYAML's problem
// text and mark.
type yamlSyntax struct {
	msg  string
	mark ymark
	// valueErr: a Python ValueError instead (an escape past U+10FFFF),
	// whose text the reference reports as the finding's code.
	valueErr bool
}

// simpleKey is a place where a KEY token may have to be inserted, once the
// ':' that makes the preceding node a key is met.
type simpleKey struct {
	level    int // the flow level it belongs to
	tok      int // index in the token list of the key's first token
	required bool
	pos      int // offset in code points, for the 1024-character bound
	mark     ymark
}

// yamlBuffers are the scanner's and parser's working memory, reused from
// one payload to the next (yamlBufferPool): the payload's characters, its
// tokens, and the first blocks of nodes and of children lists.
type yamlBuffers struct {
	src   []rune
	toks  []ytoken
	nodes []ynode
	ptrs  []*ynode
}

// yamlBufferPool keeps yamlBuffers of payloads up to 64 KiB.
var yamlBufferPool = sync.Pool{New: func() any { return new(yamlBuffers) }}

func getYAMLBuffers() *yamlBuffers { return yamlBufferPool.Get().(*yamlBuffers) }

// putYAMLBuffers returns b to the pool, without the strings its tokens and
// nodes hold (each use clears what it filled), unless it grew past what a
// 64 KiB payload needs.
func putYAMLBuffers(b *yamlBuffers) {
	if cap(b.src) > 1<<17 || cap(b.toks) > 1<<17 || cap(b.nodes) > 1<<17 || cap(b.ptrs) > 1<<17 {
		return
	}
	clear(b.toks)
	clear(b.nodes)
	clear(b.ptrs)
	b.src, b.toks, b.nodes, b.ptrs = b.src[:0], b.toks[:0], b.nodes[:0], b.ptrs[:0]
	yamlBufferPool.Put(b)
}

// yscanner holds the scanning state.
type yscanner struct {
	src       []rune
	text      string // the payload, when it is valid UTF-8 ("" otherwise)
	pos       int
	bpos      int // the byte offset in text of src[pos]
	line, col int
	toks      []ytoken
	flow      int // flow nesting; PyYAML lets a stray ']' take it below 0
	indent    int
	indents   []int
	allowKey  bool
	keys      []simpleKey // the live ones from keyLo on (dropStaleKeys)
	keyLo     int
	inserted  int    // KEY and mapping start tokens to put in place (expandKeys)
	chunk     []rune // scratch for scalar values
	gap       []rune // scratch for the whitespace inside a plain scalar
	// surrogates: the quoted scalar being scanned has an escaped surrogate.
	surrogates bool
	breakText  []rune // scratch for line breaks inside scalars
}

// scanYAMLTokens scans the whole payload, as yaml.scan does before the
// reference loads anything: the tokens, or the first scanner error.
func scanYAMLTokens(src string, buf *yamlBuffers) (toks []ytoken, err *yamlSyntax) {
	if cap(buf.toks) < len(src)/3 {
		// About one token for every three bytes of a dense document.
		buf.toks = make([]ytoken, 0, len(src)/3+16)
	}
	s := &yscanner{src: buf.src[:0], toks: buf.toks[:0], indent: -1, allowKey: true}
	for _, r := range src {
		s.src = append(s.src, r)
	}
	if utf8.ValidString(src) {
		s.text = src
	}
	defer func() {
		buf.src, buf.toks = s.src, s.toks
		if r := recover(); r != nil {
			e, ok := r.(*yamlSyntax)
			if !ok {
				panic(r)
			}
			toks, err = nil, e
		}
	}()
	s.emit(ytStreamStart, s.mark())
	for s.next() {
	}
	s.expandKeys()
	return s.toks, nil
}

// expandKeys puts the KEY and block mapping start tokens in front of the
// tokens marked for them, moving every token once, from the back.
func (s *yscanner) expandKeys() {
	if s.inserted == 0 {
		return
	}
	n := len(s.toks)
	s.toks = slices.Grow(s.toks, s.inserted)[:n+s.inserted]
	w := len(s.toks)
	for r := n - 1; r >= 0; r-- {
		t := s.toks[r]
		pre := t.pre
		t.pre = 0
		w--
		s.toks[w] = t
		if pre == 0 {
			continue
		}
		w--
		s.toks[w] = ytoken{kind: ytKey, start: t.start, end: t.start}
		if pre == preMapKey {
			w--
			s.toks[w] = ytoken{kind: ytBlockMapStart, start: t.start, end: t.start}
		}
	}
}

func (s *yscanner) fail(msg string, m ymark) { panic(&yamlSyntax{msg: msg, mark: m}) }

func (s *yscanner) mark() ymark { return ymark{int32(s.line), int32(s.col)} }

// at is the character k places ahead, 0 past the end (the reader refuses a
// NUL in the payload, so 0 only ever means the end).
func (s *yscanner) at(k int) rune {
	if i := s.pos + k; i < len(s.src) {
		return s.src[i]
	}
	return 0
}

func (s *yscanner) skip(n int) {
	for ; n > 0 && s.pos < len(s.src); n-- {
		r := s.src[s.pos]
		s.pos++
		s.bpos += utf8.RuneLen(r)
		switch {
		case r == '\n' || r == 0x85 || r == 0x2028 || r == 0x2029 || r == '\r' && s.at(0) != '\n':
			s.line, s.col = s.line+1, 0
		case r != 0xFEFF:
			s.col++
		}
	}
}

func isYBreak(r rune) bool { return r == '\r' || r == '\n' || r == 0x85 || r == 0x2028 || r == 0x2029 }

// isYEnd: a line break or the end.
func isYEnd(r rune) bool { return r == 0 || isYBreak(r) }

// isYBlank: a space, a tab, a line break or the end.
func isYBlank(r rune) bool { return r == ' ' || r == '\t' || isYEnd(r) }

func isYWord(r rune) bool {
	return r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '-' || r == '_'
}

func isYHex(r rune) bool { return r >= '0' && r <= '9' || r >= 'a' && r <= 'f' || r >= 'A' && r <= 'F' }

func runeRepr(r rune) string {
	if r == 0 {
		return "'\\x00'"
	}
	return pyRepr(string(r))
}

// scalarText is a scalar's value: the payload's own bytes from byte offset
// from to the scan position when the value is them unchanged (raw), else a
// copy of text.
func (s *yscanner) scalarText(raw bool, from int, text []rune) string {
	if raw && s.text != "" {
		return s.text[from:s.bpos]
	}
	return string(text)
}

func (s *yscanner) emit(k ytKind, start ymark) {
	s.toks = append(s.toks, ytoken{kind: k, start: start, end: s.mark()})
}

// lineBreak consumes one line break and returns it as the scalar text holds
// it ("\r\n", "\r", "\n" and NEL are "\n"), or 0 when there is none.
func (s *yscanner) lineBreak() rune {
	switch r := s.at(0); r {
	case '\r', '\n', 0x85:
		if r == '\r' && s.at(1) == '\n' {
			s.skip(2)
		} else {
			s.skip(1)
		}
		return '\n'
	case 0x2028, 0x2029:
		s.skip(1)
		return r
	}
	return 0
}

// docMarker reports "---" or "..." at the scan position, followed by a blank.
func (s *yscanner) docMarker() bool {
	c := s.at(0)
	return (c == '-' || c == '.') && s.at(1) == c && s.at(2) == c && isYBlank(s.at(3))
}

// next scans up to and including the next token (the block ends and the key
// it implies included); false after the stream end.
func (s *yscanner) next() bool {
	s.toNextToken()
	s.dropStaleKeys()
	s.unindent(s.col)
	c := s.at(0)
	switch {
	case c == 0:
		s.unindent(-1)
		s.dropKey()
		s.allowKey = false
		s.keys, s.keyLo = s.keys[:0], 0
		s.emit(ytStreamEnd, s.mark())
		return false
	case c == '%' && s.col == 0:
		s.directive()
	case s.col == 0 && s.docMarker():
		s.unindent(-1)
		s.dropKey()
		s.allowKey = false
		m := s.mark()
		s.skip(3)
		if c == '-' {
			s.emit(ytDocStart, m)
		} else {
			s.emit(ytDocEnd, m)
		}
	case c == '[' || c == '{':
		s.saveKey()
		s.flow++
		s.allowKey = true
		m := s.mark()
		s.skip(1)
		if c == '[' {
			s.emit(ytFlowSeqStart, m)
		} else {
			s.emit(ytFlowMapStart, m)
		}
	case c == ']' || c == '}':
		s.dropKey()
		s.flow--
		s.allowKey = false
		m := s.mark()
		s.skip(1)
		if c == ']' {
			s.emit(ytFlowSeqEnd, m)
		} else {
			s.emit(ytFlowMapEnd, m)
		}
	case c == ',':
		s.allowKey = true
		s.dropKey()
		m := s.mark()
		s.skip(1)
		s.emit(ytFlowEntry, m)
	case c == '-' && isYBlank(s.at(1)):
		s.indicator(ytBlockEntry, ytBlockSeqStart, "sequence entries are not allowed here")
	case c == '?' && (s.flow != 0 || isYBlank(s.at(1))):
		s.indicator(ytKey, ytBlockMapStart, "mapping keys are not allowed here")
	case c == ':' && (s.flow != 0 || isYBlank(s.at(1))):
		s.value()
	case c == '*' || c == '&':
		s.saveKey()
		s.allowKey = false
		s.anchor()
	case c == '!':
		s.saveKey()
		s.allowKey = false
		s.tag()
	case (c == '|' || c == '>') && s.flow == 0:
		s.allowKey = true
		s.dropKey()
		s.blockScalar(c == '>')
	case c == '\'' || c == '"':
		s.saveKey()
		s.allowKey = false
		s.quoted(c == '"')
	case s.plainStarts(c):
		s.saveKey()
		s.allowKey = false
		s.plain()
	default:
		s.fail("found character "+runeRepr(c)+" that cannot start any token", s.mark())
	}
	// PyYAML looks for stale keys again as soon as a token is scanned, so a
	// required key is missed where the token that follows it ends (a plain
	// scalar over several lines), before the next one is looked for.
	s.dropStaleKeys()
	return true
}

// plainStarts reports whether a plain scalar starts at c.
func (s *yscanner) plainStarts(c rune) bool {
	switch c {
	case 0, ' ', '\t', '\r', '\n', 0x85, 0x2028, 0x2029, '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
		return !isYBlank(s.at(1)) && s.flow == 0 && (c == '?' || c == ':')
	case '-':
		return !isYBlank(s.at(1))
	}
	return true
}

// toNextToken skips spaces, comments and line breaks (a byte order mark
// at the very start too); a line break in block context allows a simple key.
func (s *yscanner) toNextToken() {
	if s.pos == 0 && s.at(0) == 0xFEFF {
		s.skip(1)
	}
	for {
		for s.at(0) == ' ' {
			s.skip(1)
		}
		if s.at(0) == '#' {
			for !isYEnd(s.at(0)) {
				s.skip(1)
			}
		}
		if s.lineBreak() == 0 {
			return
		}
		if s.flow == 0 {
			s.allowKey = true
		}
	}
}

// dropStaleKeys forgets the possible simple keys that can no longer be keys
// (another line, or more than 1024 characters back); a required one is an
// error. s.keys is in the order the keys were saved, so by position and by
// flow level (a level's key is dropped before the scanner leaves the level,
// and replaced when it saves another): the stale ones come first, and the
// current level's key, if any, is the last. Both make the bookkeeping
// constant time per token, however deep the flow nesting.
func (s *yscanner) dropStaleKeys() {
	i := s.keyLo
	for ; i < len(s.keys); i++ {
		k := s.keys[i]
		if int(k.mark.line) == s.line && s.pos-k.pos <= 1024 {
			break
		}
		if k.required {
			s.failKey()
		}
	}
	s.keyLo = i
	if i == len(s.keys) {
		s.keys, s.keyLo = s.keys[:0], 0
	}
}

// forgetKey removes the key at i, the last (keyAt).
func (s *yscanner) forgetKey(i int) {
	s.keys = s.keys[:i]
	if i == s.keyLo {
		s.keys, s.keyLo = s.keys[:0], 0
	}
}

func (s *yscanner) failKey() { s.fail("could not find expected ':'", s.mark()) }

// keyAt is the index in s.keys of the current flow level's possible key, or
// -1 (see dropStaleKeys: it can only be the last).
func (s *yscanner) keyAt() int {
	if n := len(s.keys); n > s.keyLo && s.keys[n-1].level == s.flow {
		return n - 1
	}
	return -1
}

// saveKey records that the token about to be scanned may be a simple key.
func (s *yscanner) saveKey() {
	if !s.allowKey {
		return
	}
	required := s.flow == 0 && s.indent == s.col
	s.dropKey()
	if s.keyLo > 0 && len(s.keys) == cap(s.keys) {
		// Reuse the room the stale keys left at the front.
		n := copy(s.keys, s.keys[s.keyLo:])
		s.keys, s.keyLo = s.keys[:n], 0
	}
	s.keys = append(s.keys, simpleKey{level: s.flow, tok: len(s.toks), required: required, pos: s.pos, mark: s.mark()})
}

// dropKey forgets the current level's possible key; a required one is an
// error.
func (s *yscanner) dropKey() {
	if i := s.keyAt(); i >= 0 {
		if s.keys[i].required {
			s.failKey()
		}
		s.forgetKey(i)
	}
}

// unindent closes the block collections indented deeper than col (block
// context only).
func (s *yscanner) unindent(col int) {
	if s.flow != 0 {
		return
	}
	for s.indent > col {
		s.indent = s.indents[len(s.indents)-1]
		s.indents = s.indents[:len(s.indents)-1]
		s.emit(ytBlockEnd, s.mark())
	}
}

// indentTo opens a block collection at col if it is deeper than the current
// one.
func (s *yscanner) indentTo(col int) bool {
	if s.indent < col {
		s.indents = append(s.indents, s.indent)
		s.indent = col
		return true
	}
	return false
}

// indicator scans '- ' or '? ': in block context it may open a block
// collection, and is refused where no simple key could start.
func (s *yscanner) indicator(k, open ytKind, refused string) {
	if s.flow == 0 {
		if !s.allowKey {
			s.fail(refused, s.mark())
		}
		if s.indentTo(s.col) {
			s.emit(open, s.mark())
		}
	}
	s.allowKey = k == ytBlockEntry || s.flow == 0
	s.dropKey()
	m := s.mark()
	s.skip(1)
	s.emit(k, m)
}

// value scans ':'. After a possible simple key it inserts the KEY token
// (and, in block context, the mapping start) before the key's tokens.
func (s *yscanner) value() {
	if i := s.keyAt(); i >= 0 {
		k := s.keys[i]
		s.forgetKey(i)
		// The KEY (and a mapping start) go before the key's first token;
		// they are marked there and put in place once the scan is done
		// (expandKeys), so that no token is moved more than once.
		s.toks[k.tok].pre = preKey
		if s.flow == 0 && s.indentTo(int(k.mark.col)) {
			s.toks[k.tok].pre = preMapKey
		}
		s.inserted += int(s.toks[k.tok].pre)
		s.allowKey = false
	} else {
		if s.flow == 0 {
			if !s.allowKey {
				s.fail("mapping values are not allowed here", s.mark())
			}
			if s.indentTo(s.col) {
				s.emit(ytBlockMapStart, s.mark())
			}
		}
		s.allowKey = s.flow == 0
		s.dropKey()
	}
	m := s.mark()
	s.skip(1)
	s.emit(ytValue, m)
}

// directive scans a %YAML, %TAG or other directive line.
func (s *yscanner) directive() {
	s.unindent(-1)
	s.dropKey()
	s.allowKey = false
	start := s.mark()
	s.skip(1)
	n := 0
	for isYWord(s.at(n)) {
		n++
	}
	if n == 0 || !(isYEnd(s.at(n)) || s.at(n) == ' ') {
		s.skip(n)
		s.fail("expected alphabetic or numeric character, but found "+runeRepr(s.at(0)), s.mark())
	}
	name := string(s.src[s.pos : s.pos+n])
	s.skip(n)
	t := ytoken{kind: ytDirective, start: start, value: name, dir: &ydirective{}}
	switch name {
	case "YAML":
		s.spaces()
		t.dir.major = s.number()
		if s.at(0) != '.' {
			s.fail("expected a digit or '.', but found "+runeRepr(s.at(0)), s.mark())
		}
		s.skip(1)
		s.number()
		if c := s.at(0); !isYEnd(c) && c != ' ' {
			s.fail("expected a digit or ' ', but found "+runeRepr(c), s.mark())
		}
	case "TAG":
		s.spaces()
		t.dir.handle = s.tagHandle()
		if s.at(0) != ' ' {
			s.fail("expected ' ', but found "+runeRepr(s.at(0)), s.mark())
		}
		s.spaces()
		s.tagURI()
		if c := s.at(0); !isYEnd(c) && c != ' ' {
			s.fail("expected ' ', but found "+runeRepr(c), s.mark())
		}
	default:
		for !isYEnd(s.at(0)) {
			s.skip(1)
		}
	}
	s.spaces()
	if s.at(0) == '#' {
		for !isYEnd(s.at(0)) {
			s.skip(1)
		}
	}
	if !isYEnd(s.at(0)) {
		s.fail("expected a comment or a line break, but found "+runeRepr(s.at(0)), s.mark())
	}
	t.end = s.mark()
	s.toks = append(s.toks, t)
	s.lineBreak()
}

func (s *yscanner) spaces() {
	for s.at(0) == ' ' {
		s.skip(1)
	}
}

// number scans the digits of a %YAML version part.
func (s *yscanner) number() int {
	if c := s.at(0); c < '0' || c > '9' {
		s.fail("expected a digit, but found "+runeRepr(c), s.mark())
	}
	n := 0
	for s.at(n) >= '0' && s.at(n) <= '9' {
		n++
	}
	v, err := strconv.Atoi(string(s.src[s.pos : s.pos+n]))
	if err != nil {
		v = 1 << 30 // a version too large for an int is not 1
	}
	s.skip(n)
	return v
}

// tagHandle scans "!", "!!" or "!word!".
func (s *yscanner) tagHandle() string {
	if c := s.at(0); c != '!' {
		s.fail("expected '!', but found "+runeRepr(c), s.mark())
	}
	n := 1
	if s.at(1) != ' ' {
		for isYWord(s.at(n)) {
			n++
		}
		if s.at(n) != '!' {
			s.skip(n)
			s.fail("expected '!', but found "+runeRepr(s.at(0)), s.mark())
		}
		n++
	}
	v := string(s.src[s.pos : s.pos+n])
	s.skip(n)
	return v
}

// isURIChar: the characters of a tag URI besides %-escapes.
func isURIChar(r rune) bool {
	if r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
		return true
	}
	switch r {
	case '-', ';', '/', '?', ':', '@', '&', '=', '+', '$', ',', '_', '.', '!', '~', '*', '\'', '(', ')', '[', ']':
		return true
	}
	return false
}

// tagURI scans a tag's URI (its value is never used: a tag is refused).
func (s *yscanner) tagURI() string {
	start := s.pos
	n := 0
	for {
		c := s.at(0)
		switch {
		case c == '%':
			s.uriEscapes()
			n++
			continue
		case isURIChar(c):
			s.skip(1)
			n++
			continue
		}
		break
	}
	if n == 0 {
		s.fail("expected URI, but found "+runeRepr(s.at(0)), s.mark())
	}
	return string(s.src[start:s.pos])
}

// uriEscapes scans a run of %XX escapes, which must spell UTF-8.
func (s *yscanner) uriEscapes() {
	start := s.mark()
	var b []byte
	for s.at(0) == '%' {
		s.skip(1)
		for k := 0; k < 2; k++ {
			if !isYHex(s.at(k)) {
				s.fail("expected URI escape sequence of 2 hexadecimal numbers, but found "+runeRepr(s.at(k)), s.mark())
			}
		}
		v, _ := strconv.ParseUint(string(s.src[s.pos:s.pos+2]), 16, 8)
		b = append(b, byte(v))
		s.skip(2)
	}
	if msg := utf8DecodeError(b); msg != "" {
		s.fail(msg, start)
	}
}

// utf8DecodeError is Python's UnicodeDecodeError text for bytes that are
// not UTF-8, or "".
func utf8DecodeError(b []byte) string {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r != utf8.RuneError || n > 1 {
			i += n
			continue
		}
		head := "'utf-8' codec can't decode byte 0x" + strconv.FormatUint(uint64(b[i]), 16) + " in position " + strconv.Itoa(i)
		c := b[i]
		need := 0
		switch {
		case c >= 0xC2 && c <= 0xDF:
			need = 1
		case c >= 0xE0 && c <= 0xEF:
			need = 2
		case c >= 0xF0 && c <= 0xF4:
			need = 3
		default:
			return head + ": invalid start byte"
		}
		// How far the bytes continue a valid sequence decides Python's
		// wording: cut short by the end, or a bad continuation byte.
		j := i + 1
		for ; j <= i+need && j < len(b); j++ {
			lo, hi := byte(0x80), byte(0xBF)
			if j == i+1 {
				switch c {
				case 0xE0:
					lo = 0xA0
				case 0xED:
					hi = 0x9F
				case 0xF0:
					lo = 0x90
				case 0xF4:
					hi = 0x8F
				}
			}
			if b[j] < lo || b[j] > hi {
				if j == i+1 {
					return head + ": invalid continuation byte"
				}
				return "'utf-8' codec can't decode bytes in position " + strconv.Itoa(i) + "-" + strconv.Itoa(j-1) + ": invalid continuation byte"
			}
		}
		if j == i+1 {
			return head + ": unexpected end of data"
		}
		return "'utf-8' codec can't decode bytes in position " + strconv.Itoa(i) + "-" + strconv.Itoa(j-1) + ": unexpected end of data"
	}
	return ""
}

// anchor scans "&name" or "*name".
func (s *yscanner) anchor() {
	start := s.mark()
	kind := ytAnchor
	if s.at(0) == '*' {
		kind = ytAlias
	}
	s.skip(1)
	n := 0
	for isYWord(s.at(n)) {
		n++
	}
	s.skip(n)
	c := s.at(0)
	ok := n > 0
	if ok && !isYBlank(c) {
		switch c {
		case '?', ':', ',', ']', '}', '%', '@', '`':
		default:
			ok = false
		}
	}
	if !ok {
		s.fail("expected alphabetic or numeric character, but found "+runeRepr(c), s.mark())
	}
	s.emit(kind, start)
}

// tag scans "!", "!<uri>", "!suffix", "!!suffix" or "!handle!suffix".
func (s *yscanner) tag() {
	start := s.mark()
	switch c := s.at(1); {
	case c == '<':
		s.skip(2)
		s.tagURI()
		if s.at(0) != '>' {
			s.fail("expected '>', but found "+runeRepr(s.at(0)), s.mark())
		}
		s.skip(1)
	case isYBlank(c):
		s.skip(1)
	default:
		n, handle := 1, false
		for c := s.at(n); !isYEnd(c) && c != ' '; c = s.at(n) {
			if c == '!' {
				handle = true
				break
			}
			n++
		}
		if handle {
			s.tagHandle()
		} else {
			s.skip(1)
		}
		s.tagURI()
	}
	if c := s.at(0); !isYEnd(c) && c != ' ' {
		s.fail("expected ' ', but found "+runeRepr(c), s.mark())
	}
	s.emit(ytTag, start)
}

// blockScalar scans a literal (|) or folded (>) block scalar.
func (s *yscanner) blockScalar(folded bool) {
	start := s.mark()
	s.skip(1)
	chomp, inc := 0, 0 // chomp: -1 strip, 0 clip, 1 keep
	for range 2 {
		switch c := s.at(0); {
		case (c == '+' || c == '-') && chomp == 0:
			chomp = -1
			if c == '+' {
				chomp = 1
			}
			s.skip(1)
		case c >= '0' && c <= '9' && inc == 0:
			if c == '0' {
				s.fail("expected indentation indicator in the range 1-9, but found 0", s.mark())
			}
			inc = int(c - '0')
			s.skip(1)
		}
	}
	if c := s.at(0); !isYEnd(c) && c != ' ' {
		s.fail("expected chomping or indentation indicators, but found "+runeRepr(c), s.mark())
	}
	s.spaces()
	if s.at(0) == '#' {
		for !isYEnd(s.at(0)) {
			s.skip(1)
		}
	}
	if !isYEnd(s.at(0)) {
		s.fail("expected a comment or a line break, but found "+runeRepr(s.at(0)), s.mark())
	}
	s.lineBreak()
	minIndent := max(s.indent+1, 1)
	var indent int
	breaks := s.breakText[:0]
	var end ymark
	if inc == 0 {
		// The indentation is that of the first non-empty line.
		most := 0
		end = s.mark()
		for c := s.at(0); c == ' ' || isYBreak(c); c = s.at(0) {
			if c == ' ' {
				s.skip(1)
				most = max(most, s.col)
				continue
			}
			breaks = append(breaks, s.lineBreak())
			end = s.mark()
		}
		indent = max(minIndent, most)
	} else {
		indent = minIndent + inc - 1
		breaks, end = s.blockBreaks(indent, breaks)
	}
	text := s.chunk[:0]
	var lineBreak rune
	for s.col == indent && s.at(0) != 0 {
		text = append(text, breaks...)
		leadingText := s.at(0) != ' ' && s.at(0) != '\t'
		from := s.pos
		for !isYEnd(s.at(0)) {
			s.skip(1)
		}
		text = append(text, s.src[from:s.pos]...)
		lineBreak = s.lineBreak()
		breaks, end = s.blockBreaks(indent, breaks[:0])
		if s.col != indent || s.at(0) == 0 {
			break
		}
		if folded && lineBreak == '\n' && leadingText && s.at(0) != ' ' && s.at(0) != '\t' {
			if len(breaks) == 0 {
				text = append(text, ' ')
			}
		} else {
			text = append(text, lineBreak)
		}
	}
	if chomp != -1 && lineBreak != 0 {
		text = append(text, lineBreak)
	}
	if chomp == 1 {
		text = append(text, breaks...)
	}
	s.toks = append(s.toks, ytoken{kind: ytScalar, start: start, end: end, value: string(text)})
	s.chunk, s.breakText = text, breaks
}

// blockBreaks skips the indentation up to indent and the empty lines of a
// block scalar, appending their line breaks to breaks.
func (s *yscanner) blockBreaks(indent int, breaks []rune) ([]rune, ymark) {
	end := s.mark()
	for s.col < indent && s.at(0) == ' ' {
		s.skip(1)
	}
	for isYBreak(s.at(0)) {
		breaks = append(breaks, s.lineBreak())
		end = s.mark()
		for s.col < indent && s.at(0) == ' ' {
			s.skip(1)
		}
	}
	return breaks, end
}

// yamlEscapeText is what each one-character escape of a double-quoted
// scalar stands for.
var yamlEscapeText = map[rune]rune{
	'0': 0, 'a': 7, 'b': 8, 't': 9, '\t': 9, 'n': 10, 'v': 11, 'f': 12, 'r': 13, 'e': 27, ' ': ' ',
	'"': '"', '/': '/', '\\': '\\', 'N': 0x85, '_': 0xA0, 'L': 0x2028, 'P': 0x2029,
}

// quoted scans a single- or double-quoted scalar.
func (s *yscanner) quoted(double bool) {
	start := s.mark()
	q := s.at(0)
	s.skip(1)
	text := s.chunk[:0]
	from, raw := s.bpos, true
	for {
		// A run of text up to a quote, a backslash or whitespace.
		for c := s.at(0); ; c = s.at(0) {
			switch {
			case c == '\'' && !double && s.at(1) == '\'':
				text = append(text, '\'')
				s.skip(2)
				raw = false
				continue
			case c == '\'' && double, (c == '"' || c == '\\') && !double:
				text = append(text, c)
				s.skip(1)
				continue
			case c == '\\' && double:
				text = s.escape(text)
				raw = false
				continue
			case c == q || isYBlank(c):
			default:
				text = append(text, c)
				s.skip(1)
				continue
			}
			break
		}
		if s.at(0) == q {
			break
		}
		// Whitespace: spaces and tabs kept inside a line, folded across
		// line breaks.
		from := s.pos
		for s.at(0) == ' ' || s.at(0) == '\t' {
			s.skip(1)
		}
		switch c := s.at(0); {
		case c == 0:
			s.fail("found unexpected end of stream", s.mark())
		case isYBreak(c):
			raw = false
			lb := s.lineBreak()
			breaks := s.quotedBreaks(s.breakText[:0])
			switch {
			case lb != '\n':
				text = append(text, lb)
			case len(breaks) == 0:
				text = append(text, ' ')
			}
			text = append(text, breaks...)
			s.breakText = breaks
		default:
			text = append(text, s.src[from:s.pos]...)
		}
	}
	value := s.scalarText(raw, from, text)
	if s.surrogates {
		// Python keeps an escaped lone surrogate as a character of its
		// own: WTF-8 keeps it distinct from U+FFFD and from the others.
		var b []byte
		for _, r := range text {
			b = appendWTF8(b, r)
		}
		value, s.surrogates = string(b), false
	}
	s.skip(1)
	s.toks = append(s.toks, ytoken{kind: ytScalar, start: start, end: s.mark(), value: value})
	s.chunk = text
}

// escape reads the escape at a backslash of a double-quoted scalar.
func (s *yscanner) escape(text []rune) []rune {
	s.skip(1)
	c := s.at(0)
	if r, ok := yamlEscapeText[c]; ok {
		s.skip(1)
		return append(text, r)
	}
	if n := hexEscapeLen(c); n > 0 {
		s.skip(1)
		for k := 0; k < n; k++ {
			if !isYHex(s.at(k)) {
				s.fail("expected escape sequence of "+strconv.Itoa(n)+" hexadecimal numbers, but found "+runeRepr(s.at(k)), s.mark())
			}
		}
		v, _ := strconv.ParseUint(string(s.src[s.pos:s.pos+n]), 16, 32)
		if v > 0x10FFFF {
			panic(&yamlSyntax{msg: "chr() arg not in range(0x110000)", valueErr: true})
		}
		s.skip(n)
		if v >= 0xD800 && v <= 0xDFFF {
			s.surrogates = true
		}
		return append(text, rune(v))
	}
	if isYBreak(c) {
		s.lineBreak()
		breaks := s.quotedBreaks(s.breakText[:0])
		s.breakText = breaks
		return append(text, breaks...)
	}
	s.fail("found unknown escape character "+runeRepr(c), s.mark())
	return text
}

// quotedBreaks skips the line breaks and indentation inside a quoted
// scalar, appending the breaks; a document marker there is an error.
func (s *yscanner) quotedBreaks(breaks []rune) []rune {
	for {
		if s.docMarker() {
			s.fail("found unexpected document separator", s.mark())
		}
		for s.at(0) == ' ' || s.at(0) == '\t' {
			s.skip(1)
		}
		if !isYBreak(s.at(0)) {
			return breaks
		}
		breaks = append(breaks, s.lineBreak())
	}
}

// plain scans a plain scalar, which may continue on more indented lines.
func (s *yscanner) plain() {
	start := s.mark()
	end := start
	indent := s.indent + 1
	text := s.chunk[:0]
	gap := s.gap[:0]
	// raw: the value is the payload's bytes from from to rawEnd, as long as
	// no gap between runs folded a line break.
	from, rawEnd, raw, folded := s.bpos, s.bpos, true, false
	for s.at(0) != '#' {
		n := 0
		for {
			c := s.at(n)
			if isYBlank(c) || s.flow != 0 && (c == ',' || c == '?' || c == '[' || c == ']' || c == '{' || c == '}') {
				break
			}
			if c == ':' {
				d := s.at(n + 1)
				if isYBlank(d) || s.flow != 0 && (d == ',' || d == '[' || d == ']' || d == '{' || d == '}') {
					break
				}
			}
			n++
		}
		if n == 0 {
			break
		}
		s.allowKey = false
		text = append(text, gap...)
		text = append(text, s.src[s.pos:s.pos+n]...)
		s.skip(n)
		end = s.mark()
		if raw = raw && !folded; raw {
			rawEnd = s.bpos
		}
		var more bool
		line := s.line
		gap, more = s.plainGap(gap[:0])
		folded = s.line != line
		if !more || s.at(0) == '#' || s.flow == 0 && s.col < indent {
			break
		}
	}
	var value string
	if raw && s.text != "" {
		value = s.text[from:rawEnd]
	} else {
		value = string(text)
	}
	s.toks = append(s.toks, ytoken{kind: ytScalar, plain: true, start: start, end: end, value: value})
	s.chunk, s.gap = text, gap
}

// plainGap skips the spaces and line breaks after a run of a plain scalar
// and returns what they fold to; more is false when the scalar cannot go
// on (no whitespace, or a document marker).
func (s *yscanner) plainGap(gap []rune) ([]rune, bool) {
	from := s.pos
	s.spaces()
	if !isYBreak(s.at(0)) {
		if s.pos == from {
			return gap, false
		}
		return append(gap, s.src[from:s.pos]...), true
	}
	lb := s.lineBreak()
	s.allowKey = true
	if s.docMarker() {
		return gap, false
	}
	breaks := s.breakText[:0]
	for c := s.at(0); c == ' ' || isYBreak(c); c = s.at(0) {
		if c == ' ' {
			s.skip(1)
			continue
		}
		breaks = append(breaks, s.lineBreak())
		if s.docMarker() {
			return gap, false
		}
	}
	switch {
	case lb != '\n':
		gap = append(gap, lb)
	case len(breaks) == 0:
		gap = append(gap, ' ')
	}
	s.breakText = breaks
	return append(gap, breaks...), true
}

// hexEscapeLen is how many hexadecimal digits follow \x, \u and \U.
func hexEscapeLen(c rune) int {
	switch c {
	case 'x':
		return 2
	case 'u':
		return 4
	case 'U':
		return 8
	}
	return 0
}
