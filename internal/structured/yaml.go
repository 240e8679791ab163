package structured

import (
	"context"
	"errors"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/lexer"
	"github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/token"

	"github.com/precisiond/precisiond/internal/refusal"
)

// The reference reads YAML with PyYAML: yaml.scan over the whole payload
// first (a scanner error is yaml_parse_error; any anchor, alias or tag token
// is yaml_alias_anchor_or_tag_rejected), then yaml.safe_load (YAML 1.1 types,
// merge keys, duplicate keys: the last value wins), then its node count. We
// lex and parse with goccy/go-yaml, refuse what PyYAML's scanner refuses and
// goccy accepts, and build the values PyYAML would build (yamlConstructor), so
// that validity, codes and details agree; parse error messages and positions
// are goccy's (docs/compatibility.md).

// yamlSource reads in the source what goccy's tokens lose: the quoted and
// block scalars the tokens mark, the bad escapes in double quotes, and the
// first tab PyYAML's scanner refuses. To PyYAML a tab is
// text only inside a quoted scalar, inside a block scalar's content (at or
// after its indentation) and inside a comment; anywhere else (indentation,
// between tokens, inside a plain scalar, at the end of a line, on a line of
// its own) it is "found character '\t' that cannot start any token", at the
// tab. goccy reads such tabs as spaces or drops them, so they are found in
// the source, with the quoted scalars and block scalars goccy's tokens mark.
type yamlSource struct {
	src string
	// text holds the byte ranges, in order, where a tab is text: quoted
	// scalars and block scalar content.
	text [][2]int
	// esc is the first bad escape in a double-quoted scalar, at byte escAt.
	esc   *Finding
	escAt int
	// dqTabs are the offsets of the tabs inside double-quoted scalars.
	dqTabs []int
}

// yamlHexEscapes are the escapes of a double-quoted scalar followed by a
// code in hexadecimal digits, and how many; yamlEscapes the others PyYAML
// knows (a line break after the backslash is one too).
var (
	yamlHexEscapes = map[byte]int{'x': 2, 'u': 4, 'U': 8}
	yamlEscapes    = "0abt\tnvfre \"\\/N_LP\r\n"
)

// escape checks the escape whose backslash is at byte j of t.src, as
// PyYAML's scan_flow_scalar_non_spaces does, records the first bad one, and
// returns the offset of its last byte.
func (t *yamlSource) escape(j int) int {
	if j+1 >= len(t.src) {
		return j
	}
	c := t.src[j+1]
	bad := func(at int, msg string) {
		if t.esc == nil {
			l, col := yamlMark(t.src, at)
			f := finding(CodeYAMLParse, msg, ptr(l), ptr(col), "")
			t.esc, t.escAt = &f, at
		}
	}
	if n, ok := yamlHexEscapes[c]; ok {
		for k := j + 2; k < j+2+n; k++ {
			if k >= len(t.src) || !strings.ContainsRune("0123456789abcdefABCDEF", rune(t.src[k])) {
				found := "\x00" // what Python's peek gives past the end
				if k < len(t.src) {
					r, _ := utf8.DecodeRuneInString(t.src[k:])
					found = string(r)
				}
				bad(j+2, "expected escape sequence of "+strconv.Itoa(n)+" hexadecimal numbers, but found "+pyRepr(found))
				return k - 1
			}
		}
		return j + 1 + n
	}
	if strings.IndexByte(yamlEscapes, c) < 0 {
		r, _ := utf8.DecodeRuneInString(t.src[j+1:])
		bad(j+1, "found unknown escape character "+pyRepr(string(r)))
	}
	return j + 1
}

// quoted records the quoted scalar token tk starts.
func (t *yamlSource) quoted(tk *token.Token) {
	q := byte('"')
	if tk.Type == token.SingleQuoteType {
		q = '\''
	}
	start := t.tokenByte(tk, func(b byte) bool { return b == q })
	if start < 0 {
		return
	}
	end := len(t.src)
	for j := start + 1; j < len(t.src); j++ {
		switch {
		case q == '"' && t.src[j] == '\\':
			j = t.escape(j)
		case t.src[j] == q && q == '\'' && j+1 < len(t.src) && t.src[j+1] == '\'':
			j++
		case t.src[j] == q:
			end = j + 1
			j = len(t.src)
		case q == '"' && t.src[j] == '\t':
			t.dqTabs = append(t.dqTabs, j)
		}
	}
	t.text = append(t.text, [2]int{start, end})
}

// tokenByte is the byte offset of tk's first character, which ok accepts:
// its position, or failing that the first such byte on its line at or after
// it (-1: none).
func (t *yamlSource) tokenByte(tk *token.Token, ok func(byte) bool) int {
	if tk.Position == nil {
		return -1
	}
	off := byteOffset(t.src, tk.Position.Line, tk.Position.Column)
	if off < 0 {
		return -1
	}
	for ; off < len(t.src) && t.src[off] != '\n'; off++ {
		if ok(t.src[off]) {
			return off
		}
	}
	return -1
}

// block records the content of the block scalar whose indicator (| or >) is
// tk, inside a block collection at 0-based column parent (-1: none), as
// PyYAML's scan_block_scalar delimits it: the lines after the header, each
// from the scalar's indentation on, up to the first line that has something
// other than spaces before that indentation.
func (t *yamlSource) block(tk *token.Token, parent int) {
	at := t.tokenByte(tk, func(b byte) bool { return b == '|' || b == '>' })
	if at < 0 {
		return
	}
	nl := strings.IndexByte(t.src[at:], '\n')
	if nl < 0 {
		return
	}
	minIndent := max(parent+1, 1)
	indent := 0
	for _, c := range t.src[at+1 : at+nl] {
		if c >= '1' && c <= '9' {
			indent = minIndent + int(c-'0') - 1
		}
		if c == ' ' || c == '#' {
			break
		}
	}
	start := at + nl + 1
	if indent == 0 {
		most := 0
		for off := start; off < len(t.src); {
			n := 0
			for off+n < len(t.src) && t.src[off+n] == ' ' {
				n++
			}
			most = max(most, n)
			if off+n >= len(t.src) || t.src[off+n] != '\n' {
				break
			}
			off += n + 1
		}
		indent = max(minIndent, most)
	}
	end := start
	for off := start; off < len(t.src); {
		lineEnd := len(t.src)
		if k := strings.IndexByte(t.src[off:], '\n'); k >= 0 {
			lineEnd = off + k
		}
		n := 0
		for off+n < lineEnd && t.src[off+n] == ' ' {
			n++
		}
		if n < indent && off+n < lineEnd {
			break // a dedented line, or a tab in the indentation: the block ends
		}
		end = lineEnd
		off = lineEnd + 1
	}
	if end > start {
		t.text = append(t.text, [2]int{start, end})
	}
}

// first returns the offset of the first refused tab before limit.
func (t *yamlSource) first(limit int) (int, bool) {
	limit = min(limit, len(t.src))
	r := 0
	for i := 0; i < limit; i++ {
		for r < len(t.text) && t.text[r][1] <= i {
			r++
		}
		if r < len(t.text) && t.text[r][0] <= i {
			i = t.text[r][1] - 1
			continue
		}
		switch t.src[i] {
		case '\t':
			return i, true
		case '#':
			// A comment starts at a token boundary: after whitespace, a
			// line start, a flow indicator or a quoted scalar.
			if i == 0 || strings.IndexByte(" \n\r[]{},", t.src[i-1]) >= 0 || r > 0 && t.text[r-1][1] == i {
				if k := strings.IndexByte(t.src[i:], '\n'); k >= 0 {
					i += k
				} else {
					i = len(t.src)
				}
			}
		}
	}
	return 0, false
}

// firstNonSpace returns the first character of s after spaces and line
// breaks, or "".
func firstNonSpace(s string) string {
	t := strings.TrimLeft(s, " \t\r\n")
	if t == "" {
		return ""
	}
	return t[:1]
}

// adjacent reports whether b starts right after a's width on the same line.
func adjacent(a, b *token.Token, width int) bool {
	return a.Position != nil && b.Position != nil && a.Position.Line == b.Position.Line && b.Position.Column == a.Position.Column+width
}

// blockFrame is one open block collection in the token-level depth estimate.
type blockFrame struct {
	col     int
	seq     bool
	entries int // key: value pairs seen, for a mapping
}

// maxYAMLMapEntries bounds one block mapping: 5000 pairs are 10001 nodes, over
// the node limit unless keys repeat, and cost goccy's parser about 100 MB of
// short-lived copies.
const maxYAMLMapEntries = 5000

// yamlScan is what the token pass finds.
type yamlScan struct {
	scanErr     *Finding     // a PyYAML scanner error (yaml_parse_error)
	parseErr    *Finding     // a PyYAML parser error goccy does not report
	rejected    bool         // an anchor, alias or tag token
	nesting     int          // estimated deepest nesting of collections
	flowNesting int          // deepest nesting of flow collections
	maxEntries  int          // most key: value pairs in one block mapping
	second      *token.Token // the start of a second document, if any
	// dqTabs are the offsets of the tabs inside double-quoted scalars, which
	// goccy's parser fails on in a flow collection or a key.
	dqTabs []int
}

func tokenAt(tk *token.Token) (*int, *int) {
	if tk == nil || tk.Position == nil {
		return nil, nil
	}
	return ptr(tk.Position.Line), ptr(tk.Position.Column)
}

func yamlErr(tk *token.Token, msg string) *Finding {
	l, c := tokenAt(tk)
	f := finding(CodeYAMLParse, msg, l, c, "")
	return &f
}

// scanYAML is the token pass: PyYAML's scanner errors goccy does not raise
// (a tab or a reserved indicator where a token starts), anchor/alias/tag
// tokens, document markers, and an upper estimate of the nesting from flow
// brackets and block indentation.
func scanYAML(src string, toks token.Tokens) yamlScan {
	source := yamlSource{src: src}
	sc := scanTokens(src, toks, &source)
	// A refused tab before the token error (or anywhere, without one) is
	// the error PyYAML's scanner meets first.
	limit := len(src)
	if sc.scanErr != nil && sc.scanErr.Line != nil && sc.scanErr.Column != nil {
		limit = byteOffset(src, *sc.scanErr.Line, *sc.scanErr.Column) + 1
	}
	if source.esc != nil && source.escAt < limit {
		sc.scanErr, limit = source.esc, source.escAt
	}
	if off, ok := source.first(limit); ok {
		l, c := yamlMark(src, off)
		f := finding(CodeYAMLParse, "found character '\\t' that cannot start any token", ptr(l), ptr(c), "")
		sc.scanErr = &f
	}
	sc.dqTabs = source.dqTabs
	return sc
}

// withoutQuotedTabs returns text with the tabs at offsets (inside
// double-quoted scalars) replaced by a rune text does not contain, and that
// rune: goccy's parser fails on a tab in a double-quoted scalar in a flow
// collection or a key, where PyYAML reads it as text. The constructor turns
// the rune back into a tab.
func withoutQuotedTabs(text string, offsets []int) (string, string) {
	// A private-use rune absent from text: there are more of them than a
	// payload can hold.
	used := map[rune]bool{}
	for _, r := range text {
		if r >= 0xE000 && r <= 0xF8FF || r >= 0xF0000 {
			used[r] = true
		}
	}
	p := rune(0xE000)
	for used[p] {
		if p++; p == 0xF900 {
			p = 0xF0000
		}
	}
	var b strings.Builder
	last := 0
	for _, off := range offsets {
		b.WriteString(text[last:off])
		b.WriteRune(p)
		last = off + 1
	}
	b.WriteString(text[last:])
	return b.String(), string(p)
}

// scanTokens is scanYAML's pass over goccy's tokens; it records the quoted
// and block scalars in source.
func scanTokens(src string, toks token.Tokens, source *yamlSource) yamlScan {
	var sc yamlScan
	var stack []blockFrame
	flow := 0
	push := func(col int, seq bool) {
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			switch {
			case top.col > col:
				stack = stack[:len(stack)-1]
				continue
			case top.col == col && top.seq == seq:
				if !seq {
					top.entries++
					sc.maxEntries = max(sc.maxEntries, top.entries)
				}
				return
			case top.col == col && top.seq && !seq:
				stack = stack[:len(stack)-1]
				continue
			}
			break
		}
		stack = append(stack, blockFrame{col: col, seq: seq, entries: 1})
	}
	started, ended, content := false, false, false
	directiveLine := -1
	var flowKinds []token.Type // the open flow collections, innermost last
	explicit := map[int]bool{} // columns with an explicit key ("? ") waiting for its ':'
	for i, tk := range toks {
		if tk.Position != nil && tk.Position.Line == directiveLine {
			continue // the rest of a %YAML or %TAG line
		}
		switch tk.Type {
		case token.SingleQuoteType, token.DoubleQuoteType:
			source.quoted(tk)
		case token.LiteralType, token.FoldedType:
			parent := -1
			if len(stack) > 0 {
				parent = stack[len(stack)-1].col - 1
			}
			source.block(tk, parent)
		}
		blockContent := i > 0 && (toks[i-1].Type == token.LiteralType || toks[i-1].Type == token.FoldedType)
		// In a flow collection, "k:x" is one plain scalar to PyYAML (a ':'
		// ends a plain key only before a space or a flow indicator); goccy
		// splits it, so what follows that ':' is not a token start.
		glued := flow > 0 && i > 1 && continuesPlain(toks, i-1)
		if sc.parseErr == nil {
			sc.parseErr = structureError(src, toks, i, flowKinds, stack, explicit, glued)
		}
		if glued {
			continue
		}
		if tk.Type == token.InvalidType {
			if c := firstNonSpace(tk.Origin); c == "@" || c == "`" {
				sc.scanErr = yamlErr(tk, "found character '"+c+"' that cannot start any token")
				return sc
			}
		}
		if (tk.Type == token.AnchorType || tk.Type == token.AliasType) && tk.Position != nil {
			if f := anchorName(src, tk); f != nil {
				sc.scanErr = f
				return sc
			}
		}
		if tk.Type == token.MappingValueType && flow == 0 && tk.Prev != nil && tk.Prev.Position != nil && tk.Position != nil &&
			tk.Prev.Position.Line == tk.Position.Line && tk.Position.Column-tk.Prev.Position.Column > 1024 {
			// PyYAML forgets a simple key longer than 1024 characters.
			sc.scanErr = yamlErr(tk, "mapping values are not allowed here")
			return sc
		}
		if tk.Type == token.StringType && !blockContent {
			switch firstNonSpace(tk.Origin) {
			case "%":
				if tk.Position != nil && tk.Position.Column != 1 {
					sc.scanErr = yamlErr(tk, "found character '%' that cannot start any token")
					return sc
				}
			case "!", "&", "*":
				// A plain scalar cannot start with these indicators: to
				// PyYAML it is the token they start.
				sc.rejected = true
			case "@", "`":
				sc.scanErr = yamlErr(tk, "found character '"+firstNonSpace(tk.Origin)+"' that cannot start any token")
				return sc
			case ",", "[", "]", "{", "}":
				if sc.parseErr == nil {
					sc.parseErr = yamlErr(tk, "expected the node content, but found '"+firstNonSpace(tk.Origin)+"'")
				}
			}
		}
		isEnd := tk.Type == token.DocumentEndType
		if isEnd && i+1 < len(toks) && adjacent(tk, toks[i+1], 3) {
			isEnd = false // "...]" is text to PyYAML, not a document end marker
		}
		switch {
		case tk.Type == token.CommentType:
		case isEnd:
			if !started && sc.parseErr == nil {
				sc.parseErr = yamlErr(tk, "expected the node content, but found '<document end>'")
			}
			ended = true
		case tk.Type == token.DocumentHeaderType:
			if content && sc.second == nil {
				sc.second = tk
			}
			started, ended = true, false
		case tk.Type == token.DirectiveType:
			if tk.Position != nil && tk.Position.Column != 1 {
				sc.scanErr = yamlErr(tk, "found character '%' that cannot start any token")
				return sc
			}
			if tk.Position != nil {
				directiveLine = tk.Position.Line
			}
			started = true
		default:
			if ended && sc.parseErr == nil {
				sc.parseErr = yamlErr(tk, "expected '<document start>', but found '<block mapping start>'")
			}
			started, content = true, true
		}
		switch tk.Type {
		case token.AnchorType, token.AliasType, token.TagType:
			sc.rejected = true
		case token.SequenceStartType, token.MappingStartType:
			flow++
			sc.flowNesting = max(sc.flowNesting, flow)
			flowKinds = append(flowKinds, tk.Type)
		case token.SequenceEndType, token.MappingEndType:
			if flow > 0 {
				flow--
				flowKinds = flowKinds[:len(flowKinds)-1]
			}
		case token.SequenceEntryType, token.MappingKeyType:
			if tk.Type == token.MappingKeyType && flow == 0 && tk.Position != nil {
				explicit[tk.Position.Column] = true
			}
			if flow == 0 && tk.Position != nil {
				push(tk.Position.Column, true)
			}
		case token.MappingValueType:
			if flow == 0 && tk.Prev != nil && tk.Prev.Position != nil {
				push(tk.Prev.Position.Column, false)
			}
		default:
			continue
		}
		sc.nesting = max(sc.nesting, len(stack)+flow)
	}
	return sc
}

// plainScalar reports whether tk is a plain (unquoted) scalar.
func plainScalar(tk *token.Token) bool {
	switch tk.Type {
	case token.StringType, token.IntegerType, token.FloatType, token.BoolType, token.NullType,
		token.InfinityType, token.NanType, token.BinaryIntegerType, token.OctetIntegerType, token.HexIntegerType:
		return true
	}
	return false
}

// continuesPlain reports whether the ':' at toks[i], in a flow collection,
// continues a plain scalar to PyYAML rather than ending a key: it follows a
// plain scalar (on its line, or on an earlier one: plain scalars span lines)
// and the next character is none of a space, a line end or a flow indicator.
func continuesPlain(toks token.Tokens, i int) bool {
	if i < 1 || i+1 >= len(toks) || toks[i].Type != token.MappingValueType || !plainScalar(toks[i-1]) {
		return false
	}
	key, colon, next := toks[i-1], toks[i], toks[i+1]
	if key.Position == nil || colon.Position == nil || next.Position == nil || !adjacent(colon, next, 1) ||
		strings.Contains(",[]{}", firstNonSpace(next.Origin)) {
		return false
	}
	return key.Position.Line < colon.Position.Line || adjacent(key, colon, utf8.RuneCountInString(key.Value))
}

// structureError is the PyYAML parser error, where goccy accepts the
// structure, that token i of toks starts: in a flow collection, a plain
// scalar PyYAML ends early (at '?', a bracket or brace, or ": "), a ':' or
// '- ' or ',' where a node must be; in block context, a ':' at the start of
// a line with no key, and a scalar where a key must be that is not followed
// by ':'. flowKinds are the open flow collections, stack the open block
// collections and explicit the columns of explicit keys.
func structureError(src string, toks token.Tokens, i int, flowKinds []token.Type, stack []blockFrame, explicit map[int]bool, cont bool) *Finding {
	tk := toks[i]
	if tk.Position == nil {
		return nil
	}
	var prev *token.Token
	if i > 0 {
		prev = toks[i-1]
	}
	if len(flowKinds) > 0 {
		closer := "]"
		if flowKinds[len(flowKinds)-1] == token.MappingStartType {
			closer = "}"
		}
		first := 1 // where an indicator inside the scalar ends it
		switch {
		case cont:
			// The rest of a plain scalar goccy split at ':': only what
			// ends the scalar matters, from its first character on.
			first = 0
		case tk.Type == token.MappingValueType && prev != nil && prev.Position != nil && prev.Position.Line != tk.Position.Line &&
			!continuesPlain(toks, i):
			// A key must be on the line of its ':'.
			return yamlErr(tk, "expected ',' or '"+closer+"', but got ':'")
		case tk.Type == token.CollectEntryType && prev != nil &&
			(prev.Type == token.CollectEntryType || prev.Type == token.SequenceStartType || prev.Type == token.MappingStartType):
			return yamlErr(tk, "expected the node content, but found ','")
		case tk.Type == token.SequenceEntryType:
			return yamlErr(tk, "expected the node content, but found '-'")
		case !plainScalar(tk):
			return nil
		case strings.HasPrefix(tk.Value, ":") && (prev == nil || prev.Type == token.CollectEntryType || prev.Type == token.MappingValueType ||
			prev.Type == token.SequenceStartType || prev.Type == token.MappingStartType):
			// After a quoted scalar it is the key's ':', after a plain one
			// part of it.
			return yamlErr(tk, "expected the node content, but found ':'")
		case strings.HasPrefix(tk.Value, "?") && prev != nil && prev.Type == token.MappingValueType:
			return yamlErr(tk, "expected the node content, but found '?'")
		}
		if !plainScalar(tk) {
			return nil
		}
		col := tk.Position.Column
		for j, r := range tk.Value {
			if r == '\n' {
				break
			}
			// ": " ends the scalar too, which in a mapping's value is an
			// error (in a sequence it starts a one-pair mapping).
			if j >= first && (strings.ContainsRune("?[]{}", r) || r == ':' && closer == "}" && prev != nil && prev.Type == token.MappingValueType && !cont &&
				(j+1 == len(tk.Value) || strings.ContainsRune(" \t,[]{}", rune(tk.Value[j+1])))) {
				f := finding(CodeYAMLParse, "expected ',' or '"+closer+"', but got '"+string(r)+"'", ptr(tk.Position.Line), ptr(col), "")
				return &f
			}
			col++
		}
		return nil
	}
	switch {
	case tk.Type == token.MappingKeyType:
		return nil
	case tk.Type == token.MappingValueType:
		if prev == nil || prev.Position == nil || prev.Position.Line == tk.Position.Line || explicit[tk.Position.Column] {
			delete(explicit, tk.Position.Column)
			return nil
		}
		// PyYAML unwinds to the innermost collection at or left of the ':'.
		var inner *blockFrame
		for k := range stack {
			if stack[k].col <= tk.Position.Column {
				inner = &stack[k]
			}
		}
		switch {
		case inner == nil:
			return yamlErr(tk, "expected '<document start>', but found '<block mapping start>'")
		case inner.col == tk.Position.Column || prev.Type == token.MappingValueType || prev.Type == token.SequenceEntryType:
			return yamlErr(tk, "expected <block end>, but found ':'")
		}
		// Right of its collection's column, after a complete node, the ':'
		// opens a mapping there.
		return yamlErr(tk, "expected <block end>, but found '<block mapping start>'")
	case prev == nil || prev.Position == nil || prev.Position.Line == tk.Position.Line || len(stack) == 0 ||
		prev.Type != token.MappingValueType && prev.Type != token.SequenceEntryType:
		return nil
	case !plainScalar(tk) && tk.Type != token.SingleQuoteType && tk.Type != token.DoubleQuoteType &&
		tk.Type != token.SequenceStartType && tk.Type != token.MappingStartType:
		return nil
	case tk.Position.Column > stack[len(stack)-1].col:
		return nil
	}
	// A node that starts at its collection's column on a later line is a key
	// to PyYAML: without ':' after it on its line, "could not find expected
	// ':'" where the next token (or the end) is.
	j := i
	if tk.Type == token.SequenceStartType || tk.Type == token.MappingStartType {
		for depth := 0; j < len(toks); j++ {
			switch toks[j].Type {
			case token.SequenceStartType, token.MappingStartType:
				depth++
			case token.SequenceEndType, token.MappingEndType:
				depth--
			}
			if depth == 0 {
				break
			}
		}
		if j == len(toks) {
			return nil
		}
	}
	line := toks[j].Position.Line
	for k := j + 1; k < len(toks); k++ {
		n := toks[k]
		if n.Position == nil || n.Type == token.CommentType {
			continue
		}
		if n.Position.Line == line {
			if n.Type == token.MappingValueType {
				return nil
			}
			continue
		}
		return yamlErr(n, "could not find expected ':'")
	}
	l, c := yamlMark(src, len(src))
	f := finding(CodeYAMLParse, "could not find expected ':'", ptr(l), ptr(c), "")
	return &f
}

// anchorName checks the name after an anchor or alias indicator as PyYAML's
// scanner does: letters, digits, '-' and '_', at least one, then a space,
// line end or one of ?:,]}%@`.
func anchorName(src string, tk *token.Token) *Finding {
	i := byteOffset(src, tk.Position.Line, tk.Position.Column) // the indicator
	if i < 0 || i >= len(src) || (src[i] != '&' && src[i] != '*') {
		return nil
	}
	j := i + 1
	for j < len(src) && (isASCIILetter(src[j]) || src[j] >= '0' && src[j] <= '9' || src[j] == '-' || src[j] == '_') {
		j++
	}
	r, _ := utf8.DecodeRuneInString(src[j:])
	if j == len(src) {
		r = 0
	}
	if j > i+1 && strings.ContainsRune("\x00 \t\r\n\u0085\u2028\u2029?:,]}%@`", r) {
		return nil
	}
	line, col := yamlMark(src, j)
	f := finding(CodeYAMLParse, "expected alphabetic or numeric character, but found "+pyRepr(string(r)), ptr(line), ptr(col), "")
	return &f
}

// byteOffset finds the byte offset of a 1-based line and column (in code
// points; lines end at "\n").
func byteOffset(src string, line, col int) int {
	i := 0
	for l := 1; l < line; l++ {
		j := strings.IndexByte(src[i:], '\n')
		if j < 0 {
			return -1
		}
		i += j + 1
	}
	for c := 1; c < col && i < len(src); c++ {
		_, size := utf8.DecodeRuneInString(src[i:])
		i += size
	}
	return i
}

// yamlMark is PyYAML's mark (1-based line and column, in code points) of a
// byte offset.
func yamlMark(src string, off int) (line, col int) {
	line, col = 1, 1
	for i, r := range src {
		if i >= off {
			break
		}
		switch r {
		case '\n', '\u0085', '\u2028', '\u2029':
			line, col = line+1, 1
		case '\r':
			if i+1 < len(src) && src[i+1] == '\n' {
				col++ // the \n that follows ends the line
				continue
			}
			line, col = line+1, 1
		default:
			col++
		}
	}
	return line, col
}

// yamlReaderError is PyYAML's reader check, run before anything else: only
// printable characters (tab, line breaks and the printable ranges) may occur.
func yamlReaderError(src string) *Finding {
	pos := 0
	for _, r := range src {
		ok := r == 0x9 || r == 0xA || r == 0xD || r >= 0x20 && r <= 0x7E || r == 0x85 ||
			r >= 0xA0 && r <= 0xD7FF || r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF
		if !ok {
			h := strconv.FormatInt(int64(r), 16)
			for len(h) < 4 {
				h = "0" + h
			}
			f := finding(CodeYAMLParse, "unacceptable character #x"+h+": special characters are not allowed\n  in \"<unicode string>\", position "+strconv.Itoa(pos), nil, nil, "")
			return &f
		}
		pos++
	}
	return nil
}

// nodePos returns a node's position; some goccy nodes (a DocumentNode without
// a "---") panic in GetToken, so it is guarded.
func nodePos(n ast.Node) (line, col *int) {
	if n == nil {
		return nil, nil
	}
	defer func() {
		if recover() != nil {
			line, col = nil, nil
		}
	}()
	if d, ok := n.(*ast.DocumentNode); ok {
		if d.Start != nil && d.Start.Position != nil {
			return ptr(d.Start.Position.Line), ptr(d.Start.Position.Column)
		}
		if d.Body == nil {
			return nil, nil
		}
		return nodePos(d.Body)
	}
	return tokenAt(n.GetToken())
}

// validateYAML checks one YAML payload as the reference does. Findings:
// yaml_parse_error, yaml_alias_anchor_or_tag_rejected, and the text of a
// ValueError the reference catches (structured_depth_limit_exceeded,
// structured_node_limit_exceeded, a bad timestamp such as "month must be in
// 1..12", an integer over 4300 digits). Nesting past PyYAML's recursion limit
// is the refusal structured_depth_limit_exceeded, as the reference fails.
func validateYAML(ctx context.Context, src string, lim Limits, res *Result) (err error) {
	defer func() {
		// A panic inside the third-party lexer or parser on hostile input is
		// a parse finding, never a crash.
		if r := recover(); r != nil {
			res.Errors = append(res.Errors, finding(CodeYAMLParse, "could not parse the YAML payload", nil, nil, ""))
			err = nil
		}
	}()
	// goccy's lexer drops a token cut off by the end of input, so the lexer
	// always sees a final line break; it changes neither validity nor counts.
	if f := yamlReaderError(src); f != nil {
		res.Errors = append(res.Errors, *f)
		return nil
	}
	// YAML 1.1 line breaks PyYAML knows and goccy does not.
	breaks := strings.NewReplacer("\u0085", "\n", "\u2028", "\n", "\u2029", "\n").Replace(src)
	text := breaks
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	toks := lexer.Tokenize(text)
	sc := scanYAML(breaks, toks)
	tab := ""
	if len(sc.dqTabs) > 0 {
		// goccy misreads a tab in a double-quoted scalar in a flow
		// collection or a key: read the payload again with the tabs
		// replaced (same lines and columns), and put them back in values.
		var quiet string
		quiet, tab = withoutQuotedTabs(breaks, sc.dqTabs)
		text = quiet
		if !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		toks = lexer.Tokenize(text)
		sc = scanYAML(quiet, toks)
	}
	switch {
	case sc.scanErr != nil:
		res.Errors = append(res.Errors, *sc.scanErr)
		return nil
	case sc.rejected:
		res.Errors = append(res.Errors, valueErrorFinding(CodeYAMLRejected))
		return nil
	case sc.flowNesting > lim.MaxYAMLNesting || sc.nesting > 2*lim.MaxYAMLNesting:
		// PyYAML's composer recurses once per level and exhausts Python's
		// recursion limit (the reference fails; so do we, before parsing).
		return refusal.Domain(ReasonDepthLimit, "maximum recursion depth exceeded")
	case sc.parseErr != nil:
		res.Errors = append(res.Errors, *sc.parseErr)
		return nil
	case sc.maxEntries > maxYAMLMapEntries:
		// goccy's parser copies a block mapping's entries once per entry:
		// its work and garbage grow with the square of the count.
		return refusal.Cost(ReasonYAMLWorkLimit, "a YAML block mapping has more than %d entries; parsing it would cost their square", maxYAMLMapEntries)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	file, perr := parseYAML(toks)
	if perr != nil {
		var se *yaml.SyntaxError
		if sc.second != nil {
			if errors.As(perr, &se) && se.Token != nil && se.Token.Position != nil && sc.second.Position != nil &&
				se.Token.Position.Offset > sc.second.Position.Offset {
				res.Errors = append(res.Errors, *yamlErr(sc.second, "but found another document"))
				return nil
			}
		}
		res.Errors = append(res.Errors, yamlParseFinding(src, perr))
		return nil
	}
	var docs []*ast.DocumentNode
	for _, d := range file.Docs {
		if _, directive := d.Body.(*ast.DirectiveNode); d != nil && !directive {
			docs = append(docs, d)
		}
	}
	if len(docs) > 1 {
		l, c := nodePos(docs[1])
		res.Errors = append(res.Errors, finding(CodeYAMLParse, "but found another document", l, c, ""))
		return nil
	}
	var body ast.Node
	if len(docs) == 1 {
		body = docs[0].Body
	}
	if yamlNesting(body, 0) > lim.MaxYAMLNesting {
		return refusal.Domain(ReasonDepthLimit, "maximum recursion depth exceeded")
	}
	c := &yamlConstructor{tab: tab}
	v := c.document(body)
	switch {
	case c.err != nil:
		res.Errors = append(res.Errors, *c.err)
		return nil
	case c.valueErr != "":
		res.Errors = append(res.Errors, valueErrorFinding(c.valueErr))
		return nil
	}
	depth, nodes, reason := boundedTree(v, lim)
	if reason != "" {
		res.Errors = append(res.Errors, valueErrorFinding(reason))
		return nil
	}
	setTree(res, depth, nodes)
	return nil
}

// yamlParseFinding turns a goccy parse error into the finding, with PyYAML's
// wording and position where the two parsers agree on the cause.
func yamlParseFinding(src string, perr error) Finding {
	var se *yaml.SyntaxError
	if !errors.As(perr, &se) {
		return finding(CodeYAMLParse, "could not parse the YAML payload", nil, nil, "")
	}
	tk := se.Token
	msg := se.Message
	eof := func(m string) Finding {
		l, c := yamlMark(src, len(src))
		return finding(CodeYAMLParse, m, ptr(l), ptr(c), "")
	}
	switch {
	case strings.HasPrefix(msg, "could not find end character of"):
		return eof("found unexpected end of stream")
	case msg == "sequence end token ']' not found":
		return eof("expected ',' or ']', but got '<stream end>'")
	case msg == "mapping end token '}' not found":
		return eof("expected ',' or '}', but got '<stream end>'")
	case msg == "mapping value is not allowed in this context":
		msg = "mapping values are not allowed here"
		for next := tk; next != nil; next = next.Next {
			if next.Type == token.MappingValueType {
				tk = next
				break
			}
		}
	}
	f := finding(CodeYAMLParse, msg, nil, nil, "")
	if tk != nil && tk.Position != nil {
		f.Line, f.Column = ptr(tk.Position.Line), ptr(tk.Position.Column)
	}
	return f
}

// yamlNesting is the deepest nesting of collections below n.
func yamlNesting(n ast.Node, d int) int {
	switch x := n.(type) {
	case *ast.MappingNode:
		m := d + 1
		for _, mv := range x.Values {
			m = max(m, yamlNesting(mv.Key, d+1), yamlNesting(mv.Value, d+1))
		}
		return m
	case *ast.MappingValueNode:
		return max(d+1, yamlNesting(x.Key, d+1), yamlNesting(x.Value, d+1))
	case *ast.MappingKeyNode:
		return yamlNesting(x.Value, d)
	case *ast.SequenceNode:
		m := d + 1
		for _, v := range x.Values {
			m = max(m, yamlNesting(v, d+1))
		}
		return m
	}
	return d
}

// parseYAML runs the parser with a recover: a panic in a third-party parser is
// a parse finding, never a crash.
func parseYAML(toks token.Tokens) (f *ast.File, err error) {
	defer func() {
		if r := recover(); r != nil {
			f, err = nil, errors.New("yaml parser failed")
		}
	}()
	return parser.Parse(toks, 0, parser.AllowDuplicateMapKey())
}

// pyMapping is a dict PyYAML built: keys are Python values (not only str),
// a repeated key keeps its first position and takes the last value.
type pyMapping struct {
	keys, values []any
	index        map[string]int
}

// pySeq is a list PyYAML built (filled after it is created, as PyYAML does).
type pySeq struct{ items []any }

// Dates and times PyYAML builds from YAML 1.1 timestamps.
type (
	pyDate     struct{ y, m, d int }
	pyDateTime struct {
		y, m, d, hh, mm, ss, us int
		aware                   bool
		offset                  int // minutes east of UTC, when aware
	}
)

// yamlConstructor builds the values yaml.safe_load builds, in its order: a
// collection is created empty and filled later, breadth first, so that the
// first error it meets is the reference's.
type yamlConstructor struct {
	queue    []func()
	err      *Finding // a ConstructorError: yaml_parse_error
	valueErr string   // a ValueError: the reference's finding code
	tab      string   // what stands for a tab in quoted scalars (withoutQuotedTabs), or ""
}

func (c *yamlConstructor) failed() bool { return c.err != nil || c.valueErr != "" }

func (c *yamlConstructor) document(body ast.Node) any {
	if body == nil {
		return nil
	}
	v := c.object(body)
	for len(c.queue) > 0 && !c.failed() {
		q := c.queue
		c.queue = nil
		for _, fill := range q {
			if c.failed() {
				break
			}
			fill()
		}
	}
	return v
}

func (c *yamlConstructor) constructorError(n ast.Node, msg string) {
	if c.failed() {
		return
	}
	l, col := nodePos(n)
	f := finding(CodeYAMLParse, msg, l, col, "")
	c.err = &f
}

func nodeID(n ast.Node) string {
	switch unwrapYAML(n).(type) {
	case *ast.MappingNode, *ast.MappingValueNode:
		return "mapping"
	case *ast.SequenceNode:
		return "sequence"
	}
	return "scalar"
}

func unwrapYAML(n ast.Node) ast.Node {
	for {
		switch x := n.(type) {
		case *ast.MappingKeyNode:
			n = x.Value
		case *ast.CommentNode:
			return nil
		default:
			return n
		}
	}
}

type yamlPair struct{ key, value ast.Node }

func mappingPairs(n ast.Node) []yamlPair {
	switch x := n.(type) {
	case *ast.MappingNode:
		out := make([]yamlPair, 0, len(x.Values))
		for _, mv := range x.Values {
			out = append(out, yamlPair{mv.Key, mv.Value})
		}
		return out
	case *ast.MappingValueNode:
		return []yamlPair{{x.Key, x.Value}}
	}
	return nil
}

// isMergeKey reports the plain scalar "<<" (tag:yaml.org,2002:merge).
func isMergeKey(n ast.Node) bool {
	text, plain, ok := yamlScalar(unwrapYAML(n))
	return ok && plain && text == "<<"
}

// flatten is SafeConstructor.flatten_mapping: the pairs of a mapping with its
// merge keys replaced by the merged mappings' pairs, placed first.
func (c *yamlConstructor) flatten(n ast.Node) []yamlPair {
	var merge, own []yamlPair
	for _, p := range mappingPairs(n) {
		if !isMergeKey(p.key) {
			own = append(own, p)
			continue
		}
		switch v := unwrapYAML(p.value).(type) {
		case *ast.MappingNode, *ast.MappingValueNode:
			merge = append(merge, c.flatten(v)...)
		case *ast.SequenceNode:
			var sub [][]yamlPair
			for _, e := range v.Values {
				e = unwrapYAML(e)
				if nodeID(e) != "mapping" {
					c.constructorError(e, "expected a mapping for merging, but found "+nodeID(e))
					return nil
				}
				sub = append(sub, c.flatten(e))
			}
			for i := len(sub) - 1; i >= 0; i-- {
				merge = append(merge, sub[i]...)
			}
		default:
			c.constructorError(p.value, "expected a mapping or list of mappings for merging, but found "+nodeID(p.value))
			return nil
		}
		if c.failed() {
			return nil
		}
	}
	return append(merge, own...)
}

// object is construct_object: a scalar now, a collection empty (filled later).
func (c *yamlConstructor) object(n ast.Node) any {
	n = unwrapYAML(n)
	switch x := n.(type) {
	case nil:
		return nil
	case *ast.MappingNode, *ast.MappingValueNode:
		m := &pyMapping{index: map[string]int{}}
		c.queue = append(c.queue, func() { c.fillMapping(m, x) })
		return m
	case *ast.SequenceNode:
		s := &pySeq{}
		c.queue = append(c.queue, func() {
			for _, e := range x.Values {
				v := c.object(e)
				if c.failed() {
					return
				}
				s.items = append(s.items, v)
			}
		})
		return s
	}
	return c.scalar(n)
}

func (c *yamlConstructor) fillMapping(m *pyMapping, n ast.Node) {
	pairs := c.flatten(n)
	for _, p := range pairs {
		if c.failed() {
			return
		}
		k := c.keyObject(p.key)
		if c.failed() {
			return
		}
		switch k.(type) {
		case *pyMapping, *pySeq:
			c.constructorError(p.key, "found unhashable key")
			return
		}
		v := c.object(p.value)
		if c.failed() {
			return
		}
		id := c.keyID(k)
		if i, ok := m.index[id]; ok {
			m.values[i] = v
			continue
		}
		m.index[id] = len(m.keys)
		m.keys = append(m.keys, k)
		m.values = append(m.values, v)
	}
}

// keyObject constructs a key: as object(), except that a plain "=" is a str
// (flatten_mapping retags it).
func (c *yamlConstructor) keyObject(n ast.Node) any {
	if text, plain, ok := yamlScalar(unwrapYAML(n)); ok && plain && text == "=" {
		return "="
	}
	return c.object(n)
}

// yamlScalar returns a scalar node's text and whether it was plain (only
// plain scalars are typed by the YAML 1.1 resolver).
func yamlScalar(n ast.Node) (text string, plain, ok bool) {
	var tk *token.Token
	switch x := n.(type) {
	case *ast.StringNode:
		tk = x.Token
		if tk != nil && (tk.Type == token.SingleQuoteType || tk.Type == token.DoubleQuoteType) {
			return x.Value, false, true
		}
		if tk != nil {
			return tk.Value, true, true
		}
		return x.Value, true, true
	case *ast.LiteralNode:
		if x.Value != nil {
			return x.Value.Value, false, true
		}
		return "", false, true
	case *ast.NullNode:
		if x.Token != nil {
			return x.Token.Value, true, true
		}
		return "", true, true
	case *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode, *ast.InfinityNode, *ast.NanNode, *ast.MergeKeyNode:
		return x.GetToken().Value, true, true
	}
	return "", false, false
}

// The YAML 1.1 implicit types of PyYAML's resolver, by first character.
var (
	yamlBoolRe    = regexp.MustCompile(`^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$`)
	yamlFloatRe   = regexp.MustCompile(`^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9_]+(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$`)
	yamlIntRe     = regexp.MustCompile(`^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$`)
	yamlNullRe    = regexp.MustCompile(`^(?:~|null|Null|NULL|)$`)
	yamlTimeRe    = regexp.MustCompile(`^(?:[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)$`)
	yamlTimeParts = regexp.MustCompile(`^([0-9][0-9][0-9][0-9])-([0-9][0-9]?)-([0-9][0-9]?)(?:(?:[Tt]|[ \t]+)([0-9][0-9]?):([0-9][0-9]):([0-9][0-9])(?:\.([0-9]*))?(?:[ \t]*(Z|([-+])([0-9][0-9]?)(?::([0-9][0-9]))?))?)?$`)
)

// yamlResolve is PyYAML's implicit resolver for a plain scalar.
func yamlResolve(s string) string {
	first := byte(0)
	if s != "" {
		first = s[0]
	}
	has := func(set string) bool { return strings.IndexByte(set, first) >= 0 }
	switch {
	case has("yYnNtTfFoO") && yamlBoolRe.MatchString(s):
		return "bool"
	case has("-+0123456789.") && yamlFloatRe.MatchString(s):
		return "float"
	case has("-+0123456789") && yamlIntRe.MatchString(s):
		return "int"
	case first == '<' && s == "<<":
		return "merge"
	case (s == "" || has("~nN")) && yamlNullRe.MatchString(s):
		return "null"
	case has("0123456789") && yamlTimeRe.MatchString(s):
		return "timestamp"
	case s == "=":
		return "value"
	}
	return "str"
}

// scalar constructs a scalar as SafeConstructor does.
func (c *yamlConstructor) scalar(n ast.Node) any {
	text, plain, ok := yamlScalar(n)
	if !ok || !plain {
		if c.tab != "" {
			text = strings.ReplaceAll(text, c.tab, "\t")
		}
		return text
	}
	switch yamlResolve(text) {
	case "null":
		return nil
	case "bool":
		switch strings.ToLower(text) {
		case "yes", "true", "on":
			return true
		}
		return false
	case "int":
		return c.yamlInt(text)
	case "float":
		return yamlFloat(text)
	case "timestamp":
		return c.yamlTimestamp(text)
	case "merge":
		c.constructorError(n, "could not determine a constructor for the tag 'tag:yaml.org,2002:merge'")
		return nil
	case "value":
		c.constructorError(n, "could not determine a constructor for the tag 'tag:yaml.org,2002:value'")
		return nil
	}
	return text
}

func (c *yamlConstructor) yamlInt(text string) any {
	v := strings.ReplaceAll(text, "_", "")
	neg := false
	if v != "" && (v[0] == '-' || v[0] == '+') {
		neg = v[0] == '-'
		v = v[1:]
	}
	n := new(big.Int)
	switch {
	case v == "0":
	case strings.HasPrefix(v, "0b"), strings.HasPrefix(v, "0x"):
		base := 2
		if v[1] == 'x' {
			base = 16
		}
		if _, ok := n.SetString(v[2:], base); !ok {
			c.valueErr = "invalid literal for int() with base " + strconv.Itoa(base) + ": " + pyRepr(v[2:])
			return nil
		}
	case v[0] == '0':
		if _, ok := n.SetString(v, 8); !ok {
			c.valueErr = "invalid literal for int() with base 8: " + pyRepr(v)
			return nil
		}
	case strings.Contains(v, ":"):
		base := big.NewInt(1)
		parts := strings.Split(v, ":")
		for i := len(parts) - 1; i >= 0; i-- {
			d, _ := new(big.Int).SetString(parts[i], 10)
			n.Add(n, d.Mul(d, base))
			base.Mul(base, big.NewInt(60))
		}
	default:
		if len(v) > maxIntDigits {
			c.valueErr = "Exceeds the limit (4300 digits) for integer string conversion: value has " + strconv.Itoa(len(v)) +
				" digits; use sys.set_int_max_str_digits() to increase the limit"
			return nil
		}
		n.SetString(v, 10)
	}
	if neg {
		n.Neg(n)
	}
	if n.IsInt64() {
		return n.Int64()
	}
	return n
}

func yamlFloat(text string) float64 {
	v := strings.ToLower(strings.ReplaceAll(text, "_", ""))
	sign := 1.0
	if v != "" && (v[0] == '-' || v[0] == '+') {
		if v[0] == '-' {
			sign = -1
		}
		v = v[1:]
	}
	switch {
	case v == ".inf":
		return sign * math.Inf(1)
	case v == ".nan":
		return math.NaN()
	case strings.Contains(v, ":"):
		parts := strings.Split(v, ":")
		base, value := 1.0, 0.0
		for i := len(parts) - 1; i >= 0; i-- {
			d, _ := strconv.ParseFloat(parts[i], 64)
			value += d * base
			base *= 60
		}
		return sign * value
	}
	f, _ := strconv.ParseFloat(v, 64)
	return sign * f
}

// yamlTimestamp is construct_yaml_timestamp, with the ValueError texts of
// Python's datetime for out-of-range fields.
func (c *yamlConstructor) yamlTimestamp(text string) any {
	m := yamlTimeParts.FindStringSubmatch(text)
	if m == nil {
		return text
	}
	atoi := func(s string) int { n, _ := strconv.Atoi(s); return n }
	y, mo, d := atoi(m[1]), atoi(m[2]), atoi(m[3])
	if m[4] == "" {
		if msg := checkDate(y, mo, d); msg != "" {
			c.valueErr = msg
			return nil
		}
		return pyDate{y, mo, d}
	}
	dt := pyDateTime{y: y, m: mo, d: d, hh: atoi(m[4]), mm: atoi(m[5]), ss: atoi(m[6])}
	if m[7] != "" {
		f := m[7]
		if len(f) > 6 {
			f = f[:6]
		}
		for len(f) < 6 {
			f += "0"
		}
		dt.us = atoi(f)
	}
	switch {
	case m[9] != "":
		off := atoi(m[10])*60 + atoi(m[11])
		if m[9] == "-" {
			off = -off
		}
		if off <= -24*60 || off >= 24*60 {
			c.valueErr = "offset must be a timedelta strictly between -timedelta(hours=24) and timedelta(hours=24), not " + timedeltaRepr(off*60) + "."
			return nil
		}
		dt.aware, dt.offset = true, off
	case m[8] != "":
		dt.aware = true
	}
	if msg := checkDate(y, mo, d); msg != "" {
		c.valueErr = msg
		return nil
	}
	switch {
	case dt.hh > 23:
		c.valueErr = "hour must be in 0..23"
	case dt.mm > 59:
		c.valueErr = "minute must be in 0..59"
	case dt.ss > 59:
		c.valueErr = "second must be in 0..59"
	}
	if c.valueErr != "" {
		return nil
	}
	return dt
}

// checkDate is datetime.date's argument check.
func checkDate(y, m, d int) string {
	switch {
	case y < 1 || y > 9999:
		return "year " + strconv.Itoa(y) + " is out of range"
	case m < 1 || m > 12:
		return "month must be in 1..12"
	}
	days := [...]int{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}[m-1]
	if m == 2 && y%4 == 0 && (y%100 != 0 || y%400 == 0) {
		days = 29
	}
	if d < 1 || d > days {
		return "day is out of range for month"
	}
	return ""
}

// timedeltaRepr is repr(datetime.timedelta(seconds=s)).
func timedeltaRepr(s int) string {
	days := s / 86400
	rem := s % 86400
	if rem < 0 {
		days--
		rem += 86400
	}
	var parts []string
	if days != 0 {
		parts = append(parts, "days="+strconv.Itoa(days))
	}
	if rem != 0 {
		parts = append(parts, "seconds="+strconv.Itoa(rem))
	}
	if len(parts) == 0 {
		return "datetime.timedelta(0)"
	}
	return "datetime.timedelta(" + strings.Join(parts, ", ") + ")"
}

// keyID identifies a dict key as Python's equality does: 1, 1.0 and True are
// one key; every NaN is a distinct one; a date never equals a datetime, nor a
// naive datetime an aware one.
func (c *yamlConstructor) keyID(k any) string {
	switch x := k.(type) {
	case nil:
		return "z"
	case bool:
		if x {
			return "n1"
		}
		return "n0"
	case int64:
		return "n" + strconv.FormatInt(x, 10)
	case *big.Int:
		return "n" + x.String()
	case float64:
		switch {
		case math.IsNaN(x):
			return "nan" // every .nan is one object to PyYAML
		case math.IsInf(x, 0):
			return "n" + strconv.FormatFloat(x, 'g', -1, 64)
		case x == math.Trunc(x):
			i, _ := big.NewFloat(x).Int(nil)
			return "n" + i.String()
		}
		return "f" + strconv.FormatFloat(x, 'g', -1, 64)
	case string:
		return "s" + x
	case pyDate:
		return "d" + strconv.Itoa(x.y) + "-" + strconv.Itoa(x.m) + "-" + strconv.Itoa(x.d)
	case pyDateTime:
		if x.aware {
			// Compare as instants: shift to UTC minutes.
			t := (((int64(daysFromCivil(x.y, x.m, x.d))*24+int64(x.hh))*60+int64(x.mm)-int64(x.offset))*60+int64(x.ss))*1000000 + int64(x.us)
			return "T" + strconv.FormatInt(t, 10)
		}
		return "t" + strconv.Itoa(x.y) + "-" + strconv.Itoa(x.m) + "-" + strconv.Itoa(x.d) + " " + strconv.Itoa(x.hh) + ":" +
			strconv.Itoa(x.mm) + ":" + strconv.Itoa(x.ss) + "." + strconv.Itoa(x.us)
	}
	return "?"
}

// daysFromCivil counts days since 1970-01-01 in the proleptic Gregorian calendar.
func daysFromCivil(y, m, d int) int {
	if m <= 2 {
		y--
	}
	era := y / 400
	if y < 0 && y%400 != 0 {
		era--
	}
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}
