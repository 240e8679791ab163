package structured

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// The reference parses XML with defusedxml's ElementTree, that is expat with
// namespace processing. This file checks well-formedness (XML 1.0 plus
// Namespaces in XML 1.0) the way expat does and reports expat's error string,
// line and column ("not well-formed (invalid token): line 1, column 8"), so
// that the finding is the reference's; testdata/xml_expat.json holds expat's
// own answers for the cases the tests replay. There is no DTD: the reference
// refuses any payload that mentions "<!doctype" or "<!entity" before parsing,
// so only the five predefined entities exist.

// Expat's error strings (XML_ErrorString).
const (
	xmlErrSyntax        = "syntax error"
	xmlErrNoElements    = "no element found"
	xmlErrInvalidToken  = "not well-formed (invalid token)"
	xmlErrUnclosedToken = "unclosed token"
	xmlErrTagMismatch   = "mismatched tag"
	xmlErrDuplicateAttr = "duplicate attribute"
	xmlErrJunk          = "junk after document element"
	xmlErrParamEntity   = "illegal parameter entity reference"
	xmlErrUndefEntity   = "undefined entity"
	xmlErrBadCharRef    = "reference to invalid character number"
	xmlErrMisplacedDecl = "XML or text declaration not at start of entity"
	xmlErrUnclosedCDATA = "unclosed CDATA section"
	xmlErrUnboundPrefix = "unbound prefix"
	xmlErrUndeclaring   = "must not undeclare prefix"
	xmlErrXMLDecl       = "XML declaration not well-formed"
	xmlErrReservedXML   = "reserved prefix (xml) must not be undeclared or bound to another namespace name"
	xmlErrReservedXMLNS = "reserved prefix (xmlns) must not be declared or undeclared"
	xmlErrReservedURI   = "prefix must not be bound to one of the reserved namespace names"
)

const (
	xmlNamespace   = "http://www.w3.org/XML/1998/namespace"
	xmlnsNamespace = "http://www.w3.org/2000/xmlns/"
)

// xmlError is an expat error: its string and the byte offset it points at.
type xmlError struct {
	msg string
	off int
}

// xmlParser walks one document.
type xmlParser struct {
	s        string
	err      *xmlError
	open     []xmlOpen
	bindings []xmlBinding
	root     *pySeq // the element tree: each element a list of its children
}

type xmlOpen struct {
	name     string // raw qualified name
	bindings int    // len(bindings) before this element's declarations
	element  *pySeq // the element, collecting its children
}

type xmlBinding struct{ prefix, uri string }

func (p *xmlParser) fail(msg string, off int) bool {
	if p.err == nil {
		p.err = &xmlError{msg, off}
	}
	return false
}

// xmlPosition is expat's line (1-based) and column (0-based, in characters)
// of a byte offset; "\r\n", "\r" and "\n" each end a line.
func xmlPosition(s string, off int) (line, col int) {
	line = 1
	for i := 0; i < off && i < len(s); {
		c := s[i]
		switch {
		case c == '\r':
			line, col = line+1, 0
			if i+1 < len(s) && s[i+1] == '\n' && i+1 < off {
				i++
			}
			i++
		case c == '\n':
			line, col = line+1, 0
			i++
		case c < utf8.RuneSelf:
			col++
			i++
		default:
			_, size := utf8.DecodeRuneInString(s[i:])
			col++
			i += size
		}
	}
	return line, col
}

func (p *xmlParser) at(i int) (rune, int) {
	if i >= len(p.s) {
		return -1, 0
	}
	if c := p.s[i]; c < utf8.RuneSelf {
		return rune(c), 1
	}
	return utf8.DecodeRuneInString(p.s[i:])
}

// nameEnd returns the end of the run of NameChars from j and the character
// there with its width (negative at the end of the input).
func (p *xmlParser) nameEnd(j int) (int, rune, int) {
	for {
		c, m := p.at(j)
		if c < 0 || !isNameChar(c) {
			return j, c, m
		}
		j += m
	}
}

func isXMLSpace(r rune) bool { return r == ' ' || r == '\t' || r == '\r' || r == '\n' }

// isXMLChar is the XML 1.0 Char production.
func isXMLChar(r rune) bool {
	switch {
	case r == '\t' || r == '\n' || r == '\r':
		return true
	case r < 0x20:
		return false
	case r >= 0xD800 && r <= 0xDFFF, r == 0xFFFE, r == 0xFFFF:
		return false
	}
	return r <= 0x10FFFF
}

func isNameStart(r rune) bool { return r >= 0 && inRanges(xmlNameStart, r) }
func isNameChar(r rune) bool  { return r >= 0 && inRanges(xmlNameChar, r) }

// checkXML reports expat's first error, or counts the element tree as the
// reference does after parsing: elements only, the root at depth 1, the same
// walk as JSON's (boundedTree), each element a list of its children.
func checkXML(s string, lim Limits) (depth, elements int, reason string, err *xmlError) {
	p := &xmlParser{s: s}
	p.document()
	if p.err != nil {
		return 0, 0, "", p.err
	}
	depth, elements, reason = boundedTree(p.root, lim)
	return depth, elements, reason, nil
}

// Prolog token kinds (expat's XmlPrologTok, for what a document without a DTD
// can meet).
type prologTok int

const (
	ptNone prologTok = iota
	ptSpace
	ptPI
	ptXMLDecl
	ptComment
	ptInstance // "<" followed by a name start: the root element
	ptOther    // any other token: a syntax error in the prolog, junk after the root
	ptParamRef
	ptInvalid  // an invalid token; end is the offending character
	ptPartial  // a token cut off by the end of the document
	ptBadXMLPI // "<?XML": an invalid token at end
)

func (p *xmlParser) document() {
	i := 0
	if strings.HasPrefix(p.s, "\ufeff") {
		i = 3
	}
	first := true
	p.walkTokens(i, func(tok prologTok, i, end int) bool {
		switch tok {
		case ptNone:
			p.fail(xmlErrNoElements, len(p.s))
			return false
		case ptSpace, ptPI, ptComment:
		case ptXMLDecl:
			if !first {
				p.fail(xmlErrMisplacedDecl, i)
				return false
			}
			if !p.xmlDecl(i, end) {
				return false
			}
		case ptInstance:
			end = p.element(i)
			if p.err == nil {
				p.epilog(end)
			}
			return false
		case ptParamRef:
			p.fail(xmlErrParamEntity, i)
			return false
		default:
			p.fail(xmlErrSyntax, i)
			return false
		}
		first = false
		return true
	})
}

func (p *xmlParser) epilog(i int) {
	p.walkTokens(i, func(tok prologTok, i, _ int) bool {
		switch tok {
		case ptNone:
			return false
		case ptSpace, ptPI, ptComment:
			return true
		}
		p.fail(xmlErrJunk, i)
		return false
	})
}

// walkTokens scans the tokens outside the root element from i. It fails the
// document at an invalid token (the error is at its end) or a cut-off one (at
// its start); visit handles every other token, which starts at i and ends at
// end, and returns false to stop.
func (p *xmlParser) walkTokens(i int, visit func(tok prologTok, i, end int) bool) {
	for {
		tok, end := p.prologToken(i)
		switch tok {
		case ptInvalid, ptBadXMLPI:
			p.fail(xmlErrInvalidToken, end)
			return
		case ptPartial:
			p.fail(xmlErrUnclosedToken, i)
			return
		}
		if !visit(tok, i, end) {
			return
		}
		i = end
	}
}

// prologToken scans one token at i outside the root element. For ptInvalid
// end is the offending character; otherwise it is the token's end.
func (p *xmlParser) prologToken(i int) (prologTok, int) {
	r, n := p.at(i)
	switch {
	case r < 0:
		return ptNone, i
	case isXMLSpace(r):
		for isXMLSpace(r) {
			i += n
			r, n = p.at(i)
		}
		return ptSpace, i
	case r == '<':
		return p.markupToken(i, false)
	case r == '"' || r == '\'':
		j := i + 1
		for {
			c, m := p.at(j)
			switch {
			case c < 0:
				return ptPartial, j
			case c == r:
				j += m
				c, _ = p.at(j)
				switch {
				case c < 0, isXMLSpace(c), c == '>', c == '%', c == '[':
					return ptOther, j
				}
				return ptInvalid, j
			case !isXMLChar(c):
				return ptInvalid, j
			}
			j += m
		}
	case r == '%':
		j := i + 1
		c, m := p.at(j)
		switch {
		case c < 0:
			return ptPartial, j
		case isXMLSpace(c):
			return ptOther, j
		case !isNameStart(c):
			return ptInvalid, j
		}
		for j += m; ; j += m {
			c, m = p.at(j)
			switch {
			case c < 0:
				return ptPartial, j
			case c == ';':
				return ptParamRef, j + 1
			case !isNameChar(c):
				return ptInvalid, j
			}
		}
	case r == '[' || r == '(' || r == '|' || r == ',' || r == '>':
		return ptOther, i + 1
	case r == ']' || r == ')':
		return ptOther, i + 1
	case r == ':' || isNameChar(r):
		return p.nameToken(i, r, n)
	}
	return ptInvalid, i
}

// nameToken scans a run of name characters and colons outside the root
// element, starting with r (n bytes) at i, as expat's prolog tokenizer reads
// it: a name, a prefixed name (a name, one colon and a name character) or a
// name token (anything else: a colon or a non-start character first, a second
// colon, a colon before a non-name character). The kind shows twice: a name
// that ends with its colon at the end of the document is cut off (an unclosed
// token), and a name token cannot take a trailing '+', '*' or '?'.
func (p *xmlParser) nameToken(i int, r rune, n int) (prologTok, int) {
	const (
		name = iota
		prefixed
		nmtoken
	)
	kind := nmtoken
	if isNameStart(r) {
		kind = name
	}
	for j := i + n; ; {
		c, m := p.at(j)
		switch {
		case c < 0:
			return ptOther, j
		case c == ':':
			j += m
			if kind != name {
				kind = nmtoken
				continue
			}
			c, m = p.at(j)
			switch {
			case c < 0:
				return ptPartial, j
			case isNameChar(c):
				kind = prefixed
				j += m
			default:
				kind = nmtoken
			}
		case isNameChar(c):
			j += m
		case isXMLSpace(c), c == '>', c == ')', c == ',', c == '|', c == '[', c == '%':
			return ptOther, j
		case c == '+' || c == '*' || c == '?':
			if kind == nmtoken {
				return ptInvalid, j
			}
			return ptOther, j + 1
		default:
			return ptInvalid, j
		}
	}
}

// markupToken scans a token starting with '<' outside the root element.
func (p *xmlParser) markupToken(i int, content bool) (prologTok, int) {
	r, n := p.at(i + 1)
	switch {
	case r < 0:
		return ptPartial, i + 1
	case r == '?':
		return p.piToken(i)
	case r == '!':
		j := i + 2
		c, m := p.at(j)
		switch {
		case c < 0:
			return ptPartial, j
		case c == '-':
			return p.commentToken(i)
		case c == '[':
			return ptOther, j + m
		case isNameStart(c):
			if j, c, _ = p.nameEnd(j + m); c < 0 {
				return ptPartial, j
			}
			if isXMLSpace(c) || c == '%' {
				return ptOther, j // a declaration: a syntax error without a DTD
			}
			return ptInvalid, j
		}
		return ptInvalid, j
	case isNameStart(r):
		return ptInstance, i
	}
	_ = n
	return ptInvalid, i + 1
}

// piToken scans "<?target ...?>" at i.
func (p *xmlParser) piToken(i int) (prologTok, int) {
	j := i + 2
	c, m := p.at(j)
	if c < 0 {
		return ptPartial, j
	}
	if !isNameStart(c) {
		return ptInvalid, j
	}
	start := j
	if j, c, m = p.nameEnd(j + m); c < 0 {
		return ptPartial, j
	}
	target := p.s[start:j]
	tok := ptPI
	if strings.EqualFold(target, "xml") {
		if target != "xml" {
			return ptBadXMLPI, j
		}
		tok = ptXMLDecl
	}
	switch {
	case c == '?':
		if t, end, closed := p.piClose(j, tok); closed {
			return t, end
		}
		return ptInvalid, j + 1
	case !isXMLSpace(c):
		return ptInvalid, j
	}
	for j += m; ; {
		c, m = p.at(j)
		switch {
		case c < 0:
			return ptPartial, j
		case !isXMLChar(c):
			return ptInvalid, j
		case c == '?':
			if t, end, closed := p.piClose(j, tok); closed {
				return t, end
			}
		}
		j += m
	}
}

// piClose looks at the '?' at j in a processing instruction: "?>" ends it as
// tok, the end of the document cuts it off.
func (p *xmlParser) piClose(j int, tok prologTok) (prologTok, int, bool) {
	switch c, _ := p.at(j + 1); {
	case c < 0:
		return ptPartial, j + 1, true
	case c == '>':
		return tok, j + 2, true
	}
	return 0, 0, false
}

// commentToken scans "<!--...-->" at i.
func (p *xmlParser) commentToken(i int) (prologTok, int) {
	j := i + 3 // after "<!-"
	c, _ := p.at(j)
	if c < 0 {
		return ptPartial, j
	}
	if c != '-' {
		return ptInvalid, j
	}
	for j++; ; {
		c, m := p.at(j)
		switch {
		case c < 0:
			return ptPartial, j
		case !isXMLChar(c):
			return ptInvalid, j
		case c == '-':
			c2, _ := p.at(j + 1)
			if c2 < 0 {
				return ptPartial, j + 1
			}
			if c2 == '-' {
				c3, _ := p.at(j + 2)
				if c3 < 0 {
					return ptPartial, j + 2
				}
				if c3 != '>' {
					return ptInvalid, j + 2
				}
				return ptComment, j + 3
			}
		}
		j += m
	}
}

// xmlDecl checks the pseudo-attributes of the XML declaration spanning
// [i, end): version first, then encoding, then standalone (yes or no), as
// expat's parser does. The declared encoding is not used: the reference hands
// expat a str, which it always reads as UTF-8.
func (p *xmlParser) xmlDecl(i, end int) bool {
	s := p.s[:end-2] // without "?>"
	nameStart := 0
	name, _, next, ok := pseudoAttr(s, i+5, &nameStart) // after "<?xml"
	switch {
	case !ok || name == "":
		return p.fail(xmlErrXMLDecl, next)
	case name != "version":
		return p.fail(xmlErrXMLDecl, nameStart)
	}
	name, val, next, ok := pseudoAttr(s, next, &nameStart)
	if !ok {
		return p.fail(xmlErrXMLDecl, next)
	}
	if name == "" {
		return true
	}
	valStart := next - len(val) - 1
	if name == "encoding" {
		if val == "" || !isASCIILetter(val[0]) {
			return p.fail(xmlErrXMLDecl, valStart)
		}
		name, val, next, ok = pseudoAttr(s, next, &nameStart)
		if !ok {
			return p.fail(xmlErrXMLDecl, next)
		}
		if name == "" {
			return true
		}
		valStart = next - len(val) - 1
	}
	if name != "standalone" {
		return p.fail(xmlErrXMLDecl, nameStart)
	}
	if val != "yes" && val != "no" {
		return p.fail(xmlErrXMLDecl, valStart)
	}
	for next < len(s) && isXMLSpace(rune(s[next])) {
		next++
	}
	if next != len(s) {
		return p.fail(xmlErrXMLDecl, next)
	}
	return true
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// pseudoAttr reads one pseudo-attribute (S name S? = S? quoted value) from
// s at pos, as expat does: the value may hold only ASCII letters, digits, '.',
// '-' and '_'. With nothing left it returns name "". On failure next is the
// offending offset.
func pseudoAttr(s string, pos int, nameStart *int) (name, val string, next int, ok bool) {
	if pos == len(s) {
		return "", "", pos, true
	}
	if !isXMLSpace(rune(s[pos])) {
		return "", "", pos, false
	}
	for pos < len(s) && isXMLSpace(rune(s[pos])) {
		pos++
	}
	if pos == len(s) {
		return "", "", pos, true
	}
	*nameStart = pos
	start := pos
	for {
		if pos >= len(s) || s[pos] >= utf8.RuneSelf {
			return "", "", pos, false
		}
		if s[pos] == '=' {
			name = s[start:pos]
			break
		}
		if isXMLSpace(rune(s[pos])) {
			name = s[start:pos]
			for pos < len(s) && isXMLSpace(rune(s[pos])) {
				pos++
			}
			if pos >= len(s) || s[pos] != '=' {
				return "", "", pos, false
			}
			break
		}
		pos++
	}
	if name == "" {
		return "", "", pos, false
	}
	pos++
	for pos < len(s) && isXMLSpace(rune(s[pos])) {
		pos++
	}
	if pos >= len(s) || s[pos] != '"' && s[pos] != '\'' {
		return "", "", pos, false
	}
	quote := s[pos]
	pos++
	vstart := pos
	for ; ; pos++ {
		if pos >= len(s) {
			return "", "", pos, false
		}
		c := s[pos]
		if c == quote {
			break
		}
		if !(isASCIILetter(c) || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '_') {
			return "", "", pos, false
		}
	}
	return name, s[vstart:pos], pos + 1, true
}

// qname scans a name with at most one colon, both parts non-empty, starting
// at i; it returns the end, or fails at the offending character.
func (p *xmlParser) qname(i int) (end int, ok bool) {
	c, m := p.at(i)
	if c < 0 {
		return i, true // the caller reports the cut-off token
	}
	if !isNameStart(c) {
		return i, false
	}
	colon := false
	for i += m; ; i += m {
		c, m = p.at(i)
		switch {
		case c < 0:
			return i, true
		case c == ':' && !colon:
			colon = true
			c2, _ := p.at(i + 1)
			if c2 < 0 {
				return i + 1, true
			}
			if !isNameStart(c2) {
				return i + 1, false
			}
		case isNameChar(c):
		default:
			return i, true
		}
	}
}

// element parses the root element at i (a '<' followed by a name start) and
// everything up to its end tag; it returns the offset after it.
func (p *xmlParser) element(i int) int {
	for {
		r, _ := p.at(i)
		switch {
		case r < 0:
			p.fail(xmlErrNoElements, len(p.s))
			return i
		case r == '<':
			next, ok := p.markup(i)
			if !ok {
				return i
			}
			i = next
			if len(p.open) == 0 {
				return i
			}
		case r == '&':
			next, sem, ok := p.reference(i, nil)
			if !ok {
				return i
			}
			if sem != nil {
				p.fail(sem.msg, sem.off)
				return i
			}
			i = next
		case r == ']':
			if strings.HasPrefix(p.s[i:], "]]>") {
				p.fail(xmlErrInvalidToken, i+2)
				return i
			}
			i++
		default:
			c, n := p.at(i)
			if !isXMLChar(c) {
				p.fail(xmlErrInvalidToken, i)
				return i
			}
			i += n
		}
	}
}

// inContent handles a processing instruction or comment token (tok, ending
// at end) that starts at i inside the root element: it is skipped, or fails the
// document (an XML declaration, a cut-off or an invalid token).
func (p *xmlParser) inContent(i int, tok prologTok, end int) (int, bool) {
	switch tok {
	case ptPI, ptComment:
		return end, true
	case ptXMLDecl:
		return i, p.fail(xmlErrMisplacedDecl, i)
	case ptPartial:
		return i, p.fail(xmlErrUnclosedToken, i)
	}
	return i, p.fail(xmlErrInvalidToken, end)
}

// markup handles one token starting with '<' inside the root element.
func (p *xmlParser) markup(i int) (int, bool) {
	r, m := p.at(i + 1)
	switch {
	case r < 0:
		return i, p.fail(xmlErrUnclosedToken, i)
	case r == '/':
		return p.endTag(i)
	case r == '?':
		tok, end := p.piToken(i)
		return p.inContent(i, tok, end)
	case r == '!':
		j := i + 2
		c, _ := p.at(j)
		switch {
		case c < 0:
			return i, p.fail(xmlErrUnclosedToken, i)
		case c == '-':
			tok, end := p.commentToken(i)
			return p.inContent(i, tok, end)
		case c == '[':
			const open = "[CDATA["
			for k := 0; k < len(open); k++ {
				if j+k >= len(p.s) {
					return i, p.fail(xmlErrUnclosedToken, i)
				}
				if p.s[j+k] != open[k] {
					return i, p.fail(xmlErrInvalidToken, j+k)
				}
			}
			return p.cdata(j + len(open))
		}
		return i, p.fail(xmlErrInvalidToken, j)
	case isNameStart(r):
		return p.startTag(i)
	}
	_ = m
	return i, p.fail(xmlErrInvalidToken, i+1)
}

func (p *xmlParser) cdata(i int) (int, bool) {
	for {
		c, n := p.at(i)
		switch {
		case c < 0:
			return i, p.fail(xmlErrUnclosedCDATA, len(p.s))
		case c == ']' && strings.HasPrefix(p.s[i:], "]]>"):
			return i + 3, true
		case !isXMLChar(c):
			return i, p.fail(xmlErrInvalidToken, i)
		}
		i += n
	}
}

// reference scans "&name;" or a character reference at i; out, when not nil,
// receives the replacement text. A syntax error fails the parser (ok false);
// an undefined entity or a character reference to a non-XML character is
// returned as sem, for the caller to report where expat reports it.
func (p *xmlParser) reference(i int, out *strings.Builder) (next int, sem *xmlError, ok bool) {
	j := i + 1
	c, m := p.at(j)
	switch {
	case c < 0:
		return i, nil, p.fail(xmlErrUnclosedToken, i)
	case c == '#':
		j++
		c, _ = p.at(j)
		hex := c == 'x'
		if hex {
			j++
		}
		digits := j
		value := 0
		for ; ; j++ {
			c, _ = p.at(j)
			var d int
			switch {
			case c < 0:
				return i, nil, p.fail(xmlErrUnclosedToken, i)
			case c >= '0' && c <= '9':
				d = int(c - '0')
			case hex && c >= 'a' && c <= 'f':
				d = int(c-'a') + 10
			case hex && c >= 'A' && c <= 'F':
				d = int(c-'A') + 10
			case c == ';' && j > digits:
				if value >= 0x110000 || !isXMLChar(rune(value)) {
					return j + 1, &xmlError{xmlErrBadCharRef, i}, true
				}
				if out != nil {
					out.WriteRune(rune(value))
				}
				return j + 1, nil, true
			default:
				return i, nil, p.fail(xmlErrInvalidToken, j)
			}
			if value < 0x110000 {
				if hex {
					value = value*16 + d
				} else {
					value = value*10 + d
				}
			}
		}
	case !isNameStart(c):
		return i, nil, p.fail(xmlErrInvalidToken, j)
	}
	start := j
	for j += m; ; j += m {
		c, m = p.at(j)
		switch {
		case c < 0:
			return i, nil, p.fail(xmlErrUnclosedToken, i)
		case c == ';':
			rep, known := predefinedEntities[p.s[start:j]]
			if !known {
				return j + 1, &xmlError{xmlErrUndefEntity, i}, true
			}
			if out != nil {
				out.WriteString(rep)
			}
			return j + 1, nil, true
		case !isNameChar(c):
			return i, nil, p.fail(xmlErrInvalidToken, j)
		}
	}
}

var predefinedEntities = map[string]string{"lt": "<", "gt": ">", "amp": "&", "quot": "\"", "apos": "'"}

// endTag handles "</name S? >" at i.
func (p *xmlParser) endTag(i int) (int, bool) {
	nameAt := i + 2
	end, ok := p.qname(nameAt)
	if !ok {
		return i, p.fail(xmlErrInvalidToken, end)
	}
	c, n := p.at(end)
	if end == nameAt {
		if c < 0 {
			return i, p.fail(xmlErrUnclosedToken, i)
		}
		return i, p.fail(xmlErrInvalidToken, end)
	}
	j := end
	for isXMLSpace(c) {
		j += n
		c, n = p.at(j)
	}
	switch {
	case c < 0:
		return i, p.fail(xmlErrUnclosedToken, i)
	case c != '>':
		return i, p.fail(xmlErrInvalidToken, j)
	}
	top := p.open[len(p.open)-1]
	if p.s[nameAt:end] != top.name {
		return i, p.fail(xmlErrTagMismatch, nameAt)
	}
	p.bindings = p.bindings[:top.bindings]
	p.open = p.open[:len(p.open)-1]
	return j + 1, true
}

type xmlAttr struct {
	name    string
	nameOff int
	value   string    // normalized, references replaced
	err     *xmlError // a reference error in the value
}

// startTag handles a start tag or empty element at i: the whole tag is
// tokenized first (invalid tokens win), then its attributes are checked in
// order as expat's storeAtts does.
func (p *xmlParser) startTag(i int) (int, bool) {
	nameEnd, ok := p.qname(i + 1)
	if !ok {
		return i, p.fail(xmlErrInvalidToken, nameEnd)
	}
	name := p.s[i+1 : nameEnd]
	var attrs []xmlAttr
	j := nameEnd
	empty := false
	for done := false; !done; {
		c, n := p.at(j)
		switch {
		case c < 0:
			return i, p.fail(xmlErrUnclosedToken, i)
		case c == '>':
			j++
			done = true
			continue
		case c == '/':
			c2, _ := p.at(j + 1)
			if c2 < 0 {
				return i, p.fail(xmlErrUnclosedToken, i)
			}
			if c2 != '>' {
				return i, p.fail(xmlErrInvalidToken, j+1)
			}
			j += 2
			empty, done = true, true
			continue
		case !isXMLSpace(c):
			return i, p.fail(xmlErrInvalidToken, j)
		}
		for isXMLSpace(c) {
			j += n
			c, n = p.at(j)
		}
		if c < 0 {
			return i, p.fail(xmlErrUnclosedToken, i)
		}
		if c == '>' || c == '/' {
			continue
		}
		a, next, ok := p.attribute(i, j)
		if !ok {
			return i, false
		}
		attrs = append(attrs, a)
		j = next
		c, _ = p.at(j)
		if c >= 0 && !isXMLSpace(c) && c != '>' && c != '/' {
			return i, p.fail(xmlErrInvalidToken, j)
		}
	}
	bindings := len(p.bindings)
	if !p.storeAtts(i, name, attrs) {
		return i, false
	}
	element := &pySeq{}
	if len(p.open) > 0 {
		parent := p.open[len(p.open)-1].element
		parent.items = append(parent.items, element)
	} else {
		p.root = element
	}
	if empty {
		p.bindings = p.bindings[:bindings]
		return j, true
	}
	p.open = append(p.open, xmlOpen{name: name, bindings: bindings, element: element})
	return j, true
}

// attribute scans name S? = S? "value" at j inside the tag starting at tag.
func (p *xmlParser) attribute(tag, j int) (xmlAttr, int, bool) {
	an := j
	ae, ok := p.qname(an)
	if !ok || ae == an {
		return xmlAttr{}, j, p.fail(xmlErrInvalidToken, ae)
	}
	j = ae
	c, n := p.at(j)
	for isXMLSpace(c) {
		j += n
		c, n = p.at(j)
	}
	if c < 0 {
		return xmlAttr{}, j, p.fail(xmlErrUnclosedToken, tag)
	}
	if c != '=' {
		return xmlAttr{}, j, p.fail(xmlErrInvalidToken, j)
	}
	j++
	c, n = p.at(j)
	for isXMLSpace(c) {
		j += n
		c, n = p.at(j)
	}
	if c < 0 {
		return xmlAttr{}, j, p.fail(xmlErrUnclosedToken, tag)
	}
	if c != '"' && c != '\'' {
		return xmlAttr{}, j, p.fail(xmlErrInvalidToken, j)
	}
	quote := c
	a := xmlAttr{name: p.s[an:ae], nameOff: an}
	var val strings.Builder
	for j++; ; {
		c, n = p.at(j)
		switch {
		case c < 0:
			return xmlAttr{}, j, p.fail(xmlErrUnclosedToken, tag)
		case c == quote:
			a.value = val.String()
			return a, j + 1, true
		case c == '<' || !isXMLChar(c):
			return xmlAttr{}, j, p.fail(xmlErrInvalidToken, j)
		case c == '&':
			next, sem, ok := p.reference(j, &val)
			if !ok {
				return xmlAttr{}, j, false
			}
			if sem != nil && a.err == nil {
				if sem.msg == xmlErrUndefEntity {
					sem.off = tag // expat reports it at the tag
				}
				a.err = sem
			}
			j = next
			continue
		case c == '\r':
			val.WriteByte(' ')
			if strings.HasPrefix(p.s[j:], "\r\n") {
				j++
			}
		case c == '\t' || c == '\n':
			val.WriteByte(' ')
		default:
			val.WriteString(p.s[j : j+n])
		}
		j += n
	}
}

// storeAtts checks a start tag's attributes in order (duplicates, value
// errors, namespace declarations), then that every prefix is bound and no two
// attributes expand to the same name, then the element's own prefix. Errors
// other than a duplicate name or a bad character reference point at the tag.
func (p *xmlParser) storeAtts(tag int, name string, attrs []xmlAttr) bool {
	seen := make(map[string]bool, len(attrs))
	for _, a := range attrs {
		if seen[a.name] {
			return p.fail(xmlErrDuplicateAttr, a.nameOff)
		}
		seen[a.name] = true
		if a.err != nil {
			return p.fail(a.err.msg, a.err.off)
		}
		prefix, local, hasPrefix := strings.Cut(a.name, ":")
		switch {
		case a.name == "xmlns":
			if msg := p.addBinding("", a.value); msg != "" {
				return p.fail(msg, tag)
			}
		case hasPrefix && prefix == "xmlns":
			if msg := p.addBinding(local, a.value); msg != "" {
				return p.fail(msg, tag)
			}
		}
	}
	expanded := make(map[string]bool, len(attrs))
	for _, a := range attrs {
		prefix, local, hasPrefix := strings.Cut(a.name, ":")
		if !hasPrefix || prefix == "xmlns" {
			continue
		}
		uri, bound := p.lookup(prefix)
		if !bound {
			return p.fail(xmlErrUnboundPrefix, tag)
		}
		key := uri + "}" + local
		if expanded[key] {
			return p.fail(xmlErrDuplicateAttr, tag)
		}
		expanded[key] = true
	}
	if prefix, _, hasPrefix := strings.Cut(name, ":"); hasPrefix {
		if _, bound := p.lookup(prefix); !bound {
			return p.fail(xmlErrUnboundPrefix, tag)
		}
	}
	return true
}

// addBinding declares prefix (the default namespace when "") as expat's
// addBinding checks it; it returns expat's error string or "".
func (p *xmlParser) addBinding(prefix, uri string) string {
	if uri == "" && prefix != "" {
		return xmlErrUndeclaring
	}
	if prefix == "xmlns" {
		return xmlErrReservedXMLNS
	}
	if strings.IndexByte(uri, '}') >= 0 {
		// The namespace separator the reference's parser uses.
		return xmlErrSyntax
	}
	mustBeXML := prefix == "xml"
	isXML := uri == xmlNamespace
	isXMLNS := !mustBeXML && uri == xmlnsNamespace
	if mustBeXML != isXML {
		if mustBeXML {
			return xmlErrReservedXML
		}
		return xmlErrReservedURI
	}
	if isXMLNS {
		return xmlErrReservedURI
	}
	p.bindings = append(p.bindings, xmlBinding{prefix, uri})
	return ""
}

func (p *xmlParser) lookup(prefix string) (string, bool) {
	for k := len(p.bindings) - 1; k >= 0; k-- {
		if p.bindings[k].prefix == prefix {
			return p.bindings[k].uri, p.bindings[k].uri != ""
		}
	}
	if prefix == "xml" {
		return xmlNamespace, true
	}
	return "", false
}

// forbiddenXML are the substrings the reference refuses, case-insensitively,
// anywhere in an XML payload before parsing it.
var forbiddenXML = []string{"<!doctype", "<!entity", "<xi:include", "xinclude"}

// validateXML checks an XML payload as the reference does: a payload that
// mentions a DTD, an entity declaration or XInclude is refused
// (xml_forbidden_construct); otherwise expat's first error is the finding
// xml_parse_error with expat's message; a well-formed document is counted
// (elements only) and over the limits the finding is xml_parse_error with the
// limit's name as message.
func validateXML(src string, lim Limits, res *Result) {
	lower := asciiLower(src)
	for _, f := range forbiddenXML {
		if strings.Contains(lower, f) {
			res.Errors = append(res.Errors, finding(CodeXMLForbidden, "DTD, entities and XInclude are disabled", nil, nil, ""))
			return
		}
	}
	depth, elements, reason, err := checkXML(src, lim)
	switch {
	case err != nil:
		line, col := xmlPosition(src, err.off)
		res.Errors = append(res.Errors, finding(CodeXMLParse, err.msg+": line "+strconv.Itoa(line)+", column "+strconv.Itoa(col), nil, nil, ""))
	case reason != "":
		res.Errors = append(res.Errors, finding(CodeXMLParse, reason, nil, nil, ""))
	default:
		setTree(res, depth, elements)
	}
}

// asciiLower lower-cases ASCII letters only: Python's casefold() changes no
// other character into one of the letters the forbidden strings use.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 32
		}
	}
	return string(b)
}

// inRanges reports whether r lies in one of the sorted, disjoint ranges t.
func inRanges(t [][2]rune, r rune) bool {
	lo, hi := 0, len(t)
	for lo < hi {
		m := (lo + hi) / 2
		switch {
		case r < t[m][0]:
			hi = m
		case r > t[m][1]:
			lo = m + 1
		default:
			return true
		}
	}
	return false
}
