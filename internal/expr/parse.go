package expr

import (
	"fmt"
	"math/big"
	"strings"
	"unicode/utf8"

	"github.com/precisiond/precisiond/internal/bigx"
)

// MaxLength is the longest expression accepted, in characters (code points).
const MaxLength = 2000

// MaxDepth is the deepest nesting of parentheses, calls, unary operators and
// right-associative powers accepted.
const MaxDepth = 100

// maxLiteralExp bounds the decimal exponent of a literal such as 1e30000 so that
// its exact value stays within the result-bit limit.
const maxLiteralExp = 30103

type tokKind int

const (
	tEOF tokKind = iota
	tNum
	tIdent
	tOp // + - * / // % ** ( ) ,
)

type token struct {
	kind tokKind
	text string
	pos  int // 1-based character position
	num  *big.Rat
}

// Node is a parsed expression. String renders it fully parenthesized, in a form
// that parses back to the same tree.
type Node interface {
	String() string
}

type (
	numNode struct {
		v   *big.Rat
		src string
	}
	identNode struct {
		name string
		pos  int
	}
	callNode struct {
		name string
		args []Node
		pos  int
	}
	unaryNode struct {
		op string
		x  Node
	}
	binNode struct {
		op   string
		l, r Node
		pos  int
	}
	// percentNode is N% (N/100), or N% of X when of is non-nil.
	percentNode struct {
		x  Node
		of Node
	}
)

func (n *numNode) String() string   { return n.src }
func (n *identNode) String() string { return n.name }
func (n *callNode) String() string {
	parts := make([]string, len(n.args))
	for i, a := range n.args {
		parts[i] = a.String()
	}
	return n.name + "(" + strings.Join(parts, ", ") + ")"
}
func (n *unaryNode) String() string { return "(" + n.op + n.x.String() + ")" }
func (n *binNode) String() string {
	return "(" + n.l.String() + " " + n.op + " " + n.r.String() + ")"
}
func (n *percentNode) String() string {
	if n.of != nil {
		return "(" + n.x.String() + "% of " + n.of.String() + ")"
	}
	return "(" + n.x.String() + "%)"
}

func syntaxErr(pos int, format string, args ...any) *Error {
	return &Error{Reason: ReasonSyntax, Pos: pos, Msg: fmt.Sprintf("syntax error at position %d: ", pos) + fmt.Sprintf(format, args...)}
}

func lex(src string) ([]token, *Error) {
	var toks []token
	rs := []rune(src)
	i := 0
	for i < len(rs) {
		c := rs[i]
		pos := i + 1
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c >= '0' && c <= '9' || c == '.':
			j, v, err := lexNumber(rs, i)
			if err != nil {
				return nil, err
			}
			toks = append(toks, token{kind: tNum, text: string(rs[i:j]), pos: pos, num: v})
			i = j
		case c == '_' || c < utf8.RuneSelf && (c|0x20 >= 'a' && c|0x20 <= 'z'):
			j := i
			for j < len(rs) && (rs[j] == '_' || rs[j] < utf8.RuneSelf && (rs[j]|0x20 >= 'a' && rs[j]|0x20 <= 'z' || rs[j] >= '0' && rs[j] <= '9')) {
				j++
			}
			name := string(rs[i:j])
			// Accept the math. prefix models often write (math.sqrt, math.pi).
			if name == "math" && j+1 < len(rs) && rs[j] == '.' && (rs[j+1] == '_' || rs[j+1] < utf8.RuneSelf && rs[j+1]|0x20 >= 'a' && rs[j+1]|0x20 <= 'z') {
				k := j + 1
				for k < len(rs) && (rs[k] == '_' || rs[k] < utf8.RuneSelf && (rs[k]|0x20 >= 'a' && rs[k]|0x20 <= 'z' || rs[k] >= '0' && rs[k] <= '9')) {
					k++
				}
				name = string(rs[j+1 : k])
				j = k
			}
			toks = append(toks, token{kind: tIdent, text: name, pos: pos})
			i = j
		case c == '*' || c == '/':
			if i+1 < len(rs) && rs[i+1] == c {
				toks = append(toks, token{kind: tOp, text: string([]rune{c, c}), pos: pos})
				i += 2
			} else {
				toks = append(toks, token{kind: tOp, text: string(c), pos: pos})
				i++
			}
		case strings.ContainsRune("+-%(),", c):
			toks = append(toks, token{kind: tOp, text: string(c), pos: pos})
			i++
		case c == '^':
			return nil, syntaxErr(pos, "'^' is bitwise XOR in Python syntax and is not supported; use ** for powers")
		default:
			return nil, syntaxErr(pos, "unexpected character %q", c)
		}
	}
	toks = append(toks, token{kind: tEOF, pos: len(rs) + 1})
	return toks, nil
}

// lexNumber scans a Python-style decimal literal (digits with optional single
// underscores between digits, optional fraction, optional exponent) exactly.
func lexNumber(rs []rune, i int) (int, *big.Rat, *Error) {
	start := i
	var mant strings.Builder
	digits := func() bool {
		n := 0
		for i < len(rs) {
			if rs[i] >= '0' && rs[i] <= '9' {
				mant.WriteRune(rs[i])
				i++
				n++
			} else if rs[i] == '_' && n > 0 && i+1 < len(rs) && rs[i+1] >= '0' && rs[i+1] <= '9' {
				i++
			} else {
				break
			}
		}
		return n > 0
	}
	intPart := digits()
	fracDigits := 0
	fracPart := false
	if i < len(rs) && rs[i] == '.' {
		i++
		before := mant.Len()
		fracPart = digits()
		fracDigits = mant.Len() - before
	}
	if !intPart && !fracPart {
		return 0, nil, syntaxErr(start+1, "malformed number")
	}
	exp := 0
	if i < len(rs) && (rs[i] == 'e' || rs[i] == 'E') {
		j := i + 1
		neg := false
		if j < len(rs) && (rs[j] == '+' || rs[j] == '-') {
			neg = rs[j] == '-'
			j++
		}
		k := j
		for k < len(rs) && rs[k] >= '0' && rs[k] <= '9' {
			k++
		}
		if k == j {
			return 0, nil, syntaxErr(start+1, "malformed exponent in number")
		}
		es := string(rs[j:k])
		if len(es) > 6 {
			return 0, nil, &Error{Reason: ReasonResultTooLarge, Cost: true, Pos: start + 1, Msg: fmt.Sprintf("number literal at position %d has an exponent beyond ±%d", start+1, maxLiteralExp)}
		}
		fmt.Sscan(es, &exp)
		if neg {
			exp = -exp
		}
		i = k
	}
	if i < len(rs) && (rs[i] == '_' || rs[i] == '.' || rs[i] < utf8.RuneSelf && (rs[i]|0x20 >= 'a' && rs[i]|0x20 <= 'z')) {
		return 0, nil, syntaxErr(i+1, "unexpected %q after number", rs[i])
	}
	exp -= fracDigits
	m, _ := new(big.Int).SetString(mant.String(), 10)
	if m.Sign() != 0 && (exp > maxLiteralExp || exp < -maxLiteralExp) {
		return 0, nil, &Error{Reason: ReasonResultTooLarge, Cost: true, Pos: start + 1, Msg: fmt.Sprintf("number literal at position %d has an exponent beyond ±%d", start+1, maxLiteralExp)}
	}
	v := new(big.Rat).SetInt(m)
	if m.Sign() != 0 && exp != 0 {
		v.Mul(v, bigx.Pow10Rat(exp))
	}
	return i, v, nil
}

type parser struct {
	toks  []token
	i     int
	depth int
}

// Parse parses an expression. Errors are *Error with reason syntax_error (with a
// 1-based character position) or nesting_too_deep / expression_too_long (cost).
func Parse(src string) (Node, error) {
	n, err := parse(src)
	if err != nil {
		return nil, err
	}
	return n, nil
}

func parse(src string) (Node, *Error) {
	if l := utf8.RuneCountInString(src); l > MaxLength {
		return nil, &Error{Reason: ReasonTooLong, Cost: true, Msg: fmt.Sprintf("expression has %d characters; the limit is %d", l, MaxLength)}
	}
	if !utf8.ValidString(src) {
		return nil, syntaxErr(1, "expression is not valid UTF-8")
	}
	toks, err := lex(src)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks}
	var n Node
	if err := p.guard(func() { n = p.expr() }); err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tEOF {
		return nil, syntaxErr(t.pos, "unexpected %s", describe(t))
	}
	return n, nil
}

// guard runs f, turning the parser's internal panics into errors.
func (p *parser) guard(f func()) (err *Error) {
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(*Error)
			if !ok {
				panic(r)
			}
			err = e
		}
	}()
	f()
	return nil
}

func describe(t token) string {
	switch t.kind {
	case tEOF:
		return "end of expression"
	case tNum:
		return fmt.Sprintf("number %q", t.text)
	case tIdent:
		return fmt.Sprintf("name %q", t.text)
	}
	return fmt.Sprintf("%q", t.text)
}

func (p *parser) peek() token  { return p.toks[p.i] }
func (p *parser) peek2() token { return p.toks[min(p.i+1, len(p.toks)-1)] }
func (p *parser) next() token {
	t := p.toks[p.i]
	if p.i < len(p.toks)-1 {
		p.i++
	}
	return t
}
func (p *parser) isOp(s string) bool {
	t := p.peek()
	return t.kind == tOp && t.text == s
}

func (p *parser) enter() {
	p.depth++
	if p.depth > MaxDepth {
		panic(&Error{Reason: ReasonNesting, Cost: true, Pos: p.peek().pos, Msg: fmt.Sprintf("expression nests deeper than %d levels (at position %d)", MaxDepth, p.peek().pos)})
	}
}
func (p *parser) leave() { p.depth-- }

// startsOperand reports whether t can begin an operand (so that a preceding %
// is the modulo operator rather than a percent sign).
func startsOperand(t token) bool {
	switch t.kind {
	case tNum:
		return true
	case tIdent:
		return t.text != "of" && t.text != "von"
	case tOp:
		return t.text == "(" || t.text == "+" || t.text == "-"
	}
	return false
}

// expr := term (('+'|'-') term)*
func (p *parser) expr() Node {
	n := p.term()
	for p.isOp("+") || p.isOp("-") {
		t := p.next()
		n = &binNode{op: t.text, l: n, r: p.term(), pos: t.pos}
	}
	return n
}

// term := unary (('*'|'/'|'//'|'%') unary)*
func (p *parser) term() Node {
	n := p.unary()
	for {
		t := p.peek()
		if t.kind != tOp || (t.text != "*" && t.text != "/" && t.text != "//" && t.text != "%") {
			return n
		}
		p.next()
		n = &binNode{op: t.text, l: n, r: p.unary(), pos: t.pos}
	}
}

// unary := ('+'|'-') unary | power
func (p *parser) unary() Node {
	if p.isOp("+") || p.isOp("-") {
		t := p.next()
		p.enter()
		x := p.unary()
		p.leave()
		return &unaryNode{op: t.text, x: x}
	}
	return p.power()
}

// power := postfix ('**' unary)?   (right-associative; binds tighter than a unary
// minus on its left, looser than one on its right: -2**-1 == -(2**(-1))).
func (p *parser) power() Node {
	base := p.postfix()
	if p.isOp("**") {
		t := p.next()
		p.enter()
		e := p.unary()
		p.leave()
		return &binNode{op: "**", l: base, r: e, pos: t.pos}
	}
	return base
}

// postfix := primary ('%' [('of'|'von') unary])*  where '%' is a percent sign only
// when what follows cannot start an operand (otherwise it is modulo).
func (p *parser) postfix() Node {
	n := p.primary()
	for p.isOp("%") {
		after := p.peek2()
		if after.kind == tIdent && (after.text == "of" || after.text == "von") {
			p.next()
			p.next()
			p.enter()
			of := p.unary()
			p.leave()
			n = &percentNode{x: n, of: of}
			continue
		}
		if startsOperand(after) {
			return n
		}
		p.next()
		n = &percentNode{x: n}
	}
	return n
}

func (p *parser) primary() Node {
	t := p.next()
	switch t.kind {
	case tNum:
		return &numNode{v: t.num, src: t.text}
	case tIdent:
		if t.text == "of" || t.text == "von" {
			return p.fail(t, "%q must follow a percentage, as in 10%% of 50", t.text)
		}
		if p.isOp("(") {
			p.next()
			p.enter()
			defer p.leave()
			var args []Node
			if !p.isOp(")") {
				for {
					args = append(args, p.expr())
					if p.isOp(",") {
						p.next()
						continue
					}
					break
				}
			}
			if !p.isOp(")") {
				return p.fail(p.peek(), "expected ',' or ')' in the arguments of %s(, found %s", t.text, describe(p.peek()))
			}
			p.next()
			return &callNode{name: t.text, args: args, pos: t.pos}
		}
		return &identNode{name: t.text, pos: t.pos}
	case tOp:
		if t.text == "(" {
			p.enter()
			defer p.leave()
			n := p.expr()
			if !p.isOp(")") {
				return p.fail(p.peek(), "expected ')' to close the '(' at position %d, found %s", t.pos, describe(p.peek()))
			}
			p.next()
			return n
		}
	}
	return p.fail(t, "unexpected %s", describe(t))
}

func (p *parser) fail(t token, format string, args ...any) Node {
	panic(syntaxErr(t.pos, format, args...))
}
