package units

import (
	"fmt"
	"math/big"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/precisiond/precisiond/internal/bigx"
)

// The unit-expression language is pint's: names joined by `*`, `/`, whitespace
// (multiplication) and `**` or `^` (powers), parentheses, Unicode superscripts
// (m², s⁻¹), the words `per`, `square`, `sq`, `cubic`, `squared`, `cubed`, the
// pretty operators `·` `⋅` `×` `÷` `⁄` `−`, and `°` read as "degree" (so `°C` is
// `degreeC`). Operators have Python's precedence: `*` and `/` bind equally and
// left to right (`J/kg K` is `(J/kg)*K`, as in pint), `**` binds tighter and to
// the right, and a unary minus is only allowed in exponents.

// Node is a parsed unit expression.
type Node interface{ node() }

// Name is a unit name as written (prefix, unit and plural `s` still joined).
type Name struct {
	Text string
	Pos  int // byte offset in the input
}

// Num is a numeric literal, exact.
type Num struct {
	Val  *big.Rat
	Text string
}

// Bin is a product (Op '*') or quotient (Op '/').
type Bin struct {
	Op   byte
	L, R Node
}

// Pow raises X to Halves/2.
type Pow struct {
	X      Node
	Halves int
}

// Neg is a unary minus; only definitions use it (as `-2.0023...`).
type Neg struct{ X Node }

func (Name) node() {}
func (Num) node()  {}
func (Bin) node()  {}
func (Pow) node()  {}
func (Neg) node()  {}

// SyntaxError is a malformed unit expression; Pos is a byte offset.
type SyntaxError struct {
	Pos int
	Msg string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("%s at offset %d", e.Msg, e.Pos) }

// Parsing limits: nesting depth, the largest exponent magnitude, and the decimal
// exponent of a numeric literal.
const (
	maxDepth       = 32
	maxExponent    = 128
	maxLiteralExp  = 400
	maxLiteralLen  = 1000
	maxExprLen     = 4096
	superscriptSet = "⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺"
)

type tokKind int

const (
	tEOF tokKind = iota
	tName
	tNum
	tMul
	tDiv
	tPow
	tLParen
	tRParen
	tMinus
	tPlus
	tSuper // a run of superscript digits, value in halves
)

type token struct {
	kind tokKind
	text string
	pos  int
	num  *big.Rat
	sup  int
}

func isIdentStart(r rune) bool {
	return r == '_' || r == '°' || unicode.IsLetter(r)
}

func isIdentCont(r rune) bool {
	return isIdentStart(r) || unicode.IsDigit(r) || unicode.In(r, unicode.Mn, unicode.Mc) || r == '∞'
}

func lex(s string) ([]token, error) {
	var toks []token
	i := 0
	for i < len(s) {
		r, w := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && w <= 1 {
			return nil, &SyntaxError{i, "invalid UTF-8"}
		}
		switch {
		case unicode.IsSpace(r):
			i += w
		case r == '*':
			if strings.HasPrefix(s[i:], "**") {
				toks = append(toks, token{kind: tPow, pos: i})
				i += 2
			} else {
				toks = append(toks, token{kind: tMul, pos: i})
				i++
			}
		case r == '^':
			toks = append(toks, token{kind: tPow, pos: i})
			i++
		case r == '·' || r == '⋅' || r == '×':
			toks = append(toks, token{kind: tMul, pos: i})
			i += w
		case r == '/' || r == '÷' || r == '⁄':
			toks = append(toks, token{kind: tDiv, pos: i})
			i += w
		case r == '(':
			toks = append(toks, token{kind: tLParen, pos: i})
			i++
		case r == ')':
			toks = append(toks, token{kind: tRParen, pos: i})
			i++
		case r == '-' || r == '−':
			toks = append(toks, token{kind: tMinus, pos: i})
			i += w
		case r == '+':
			toks = append(toks, token{kind: tPlus, pos: i})
			i++
		case r == '%' || r == '‰':
			toks = append(toks, token{kind: tName, text: string(r), pos: i})
			i += w
		case strings.ContainsRune(superscriptSet, r):
			start := i
			neg := false
			digits := 0
			val := 0
			for i < len(s) {
				r2, w2 := utf8.DecodeRuneInString(s[i:])
				if (r2 == '⁻' || r2 == '⁺') && i == start {
					neg = r2 == '⁻'
					i += w2
					continue
				}
				d := strings.IndexRune("⁰¹²³⁴⁵⁶⁷⁸⁹", r2)
				if d < 0 {
					break
				}
				digits++
				if digits > 3 {
					return nil, &SyntaxError{start, "superscript exponent too long"}
				}
				val = val*10 + utf8.RuneCountInString("⁰¹²³⁴⁵⁶⁷⁸⁹"[:d])
				i += w2
			}
			if digits == 0 {
				return nil, &SyntaxError{start, "superscript sign without digits"}
			}
			if neg {
				val = -val
			}
			toks = append(toks, token{kind: tSuper, pos: start, sup: 2 * val})
		case unicode.IsDigit(r) && r < utf8.RuneSelf || r == '.':
			start := i
			j := scanNumber(s, i)
			if j == i {
				return nil, &SyntaxError{i, fmt.Sprintf("unexpected character %q", r)}
			}
			v, err := parseLiteral(s[i:j])
			if err != nil {
				return nil, &SyntaxError{start, err.Error()}
			}
			toks = append(toks, token{kind: tNum, text: s[i:j], pos: start, num: v})
			i = j
		case isIdentStart(r):
			start := i
			var b strings.Builder
			for i < len(s) {
				r2, w2 := utf8.DecodeRuneInString(s[i:])
				if !isIdentCont(r2) {
					break
				}
				if r2 == '°' {
					// pint rewrites the degree sign to the word before parsing.
					b.WriteString("degree")
				} else {
					b.WriteString(s[i : i+w2])
				}
				i += w2
			}
			toks = append(toks, token{kind: tName, text: b.String(), pos: start})
		default:
			return nil, &SyntaxError{i, fmt.Sprintf("unexpected character %q", r)}
		}
	}
	return append(toks, token{kind: tEOF, pos: len(s)}), nil
}

// scanNumber returns the end of a decimal literal starting at i: digits, an
// optional fraction and an optional exponent (`e` only counts when digits follow).
func scanNumber(s string, i int) int {
	j := i
	digits := 0
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
		digits++
	}
	if j < len(s) && s[j] == '.' {
		j++
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
			digits++
		}
	}
	if digits == 0 {
		return i
	}
	if j < len(s) && (s[j] == 'e' || s[j] == 'E') {
		k := j + 1
		if k < len(s) && (s[k] == '+' || s[k] == '-') {
			k++
		}
		if k < len(s) && s[k] >= '0' && s[k] <= '9' {
			for k < len(s) && s[k] >= '0' && s[k] <= '9' {
				k++
			}
			j = k
		}
	}
	return j
}

// parseLiteral converts a decimal literal to an exact rational, refusing
// exponents beyond ±maxLiteralExp before any big arithmetic happens.
func parseLiteral(lit string) (*big.Rat, error) {
	if len(lit) > maxLiteralLen {
		return nil, fmt.Errorf("numeric literal longer than %d characters", maxLiteralLen)
	}
	mant, exp := lit, 0
	if k := strings.IndexAny(lit, "eE"); k >= 0 {
		mant = lit[:k]
		es := lit[k+1:]
		neg := false
		if es != "" && (es[0] == '+' || es[0] == '-') {
			neg = es[0] == '-'
			es = es[1:]
		}
		es = strings.TrimLeft(es, "0")
		if len(es) > 4 {
			return nil, fmt.Errorf("numeric literal exponent out of range")
		}
		for _, c := range es {
			exp = exp*10 + int(c-'0')
		}
		if neg {
			exp = -exp
		}
	}
	intPart, frac, _ := strings.Cut(mant, ".")
	exp -= len(frac)
	digits := strings.TrimLeft(intPart+frac, "0")
	if digits == "" {
		return new(big.Rat), nil
	}
	if adj := exp + len(digits) - 1; adj > maxLiteralExp || adj < -maxLiteralExp {
		return nil, fmt.Errorf("numeric literal exponent out of range")
	}
	n, ok := new(big.Int).SetString(digits, 10)
	if !ok {
		return nil, fmt.Errorf("invalid numeric literal")
	}
	return new(big.Rat).Mul(new(big.Rat).SetInt(n), bigx.Pow10Rat(exp)), nil
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

type parser struct {
	toks  []token
	i     int
	depth int
}

// Parse parses a unit expression (pint syntax) into a tree. It returns a
// *SyntaxError for malformed input; it never evaluates anything.
func Parse(s string) (Node, error) {
	if len(s) > maxExprLen {
		return nil, &SyntaxError{0, "expression too long"}
	}
	toks, err := lex(s)
	if err != nil {
		return nil, err
	}
	if toks[0].kind == tEOF {
		return nil, &SyntaxError{0, "empty unit expression"}
	}
	return parseAll(toks, (*parser).expr)
}

// inParens reads what follows an opening parenthesis: inner, then the
// closing parenthesis.
func inParens[T any](p *parser, inner func() (T, error)) (T, error) {
	var zero T
	v, err := inner()
	if err != nil {
		return zero, err
	}
	if c := p.next(); c.kind != tRParen {
		return zero, &SyntaxError{c.pos, "expected ')' but found " + describe(c)}
	}
	return v, nil
}

// parseAll reads toks with rule, which must consume them all: a token left
// over is a syntax error.
func parseAll[T any](toks []token, rule func(*parser) (T, error)) (T, error) {
	var zero T
	p := &parser{toks: toks}
	v, err := rule(p)
	if err != nil {
		return zero, err
	}
	if t := p.peek(); t.kind != tEOF {
		return zero, &SyntaxError{t.pos, "unexpected " + describe(t)}
	}
	return v, nil
}

func describe(t token) string {
	switch t.kind {
	case tEOF:
		return "end of expression"
	case tName:
		return fmt.Sprintf("name %q", t.text)
	case tNum:
		return fmt.Sprintf("number %q", t.text)
	case tMul:
		return "'*'"
	case tDiv:
		return "'/'"
	case tPow:
		return "'**'"
	case tLParen:
		return "'('"
	case tRParen:
		return "')'"
	case tMinus:
		return "'-'"
	case tPlus:
		return "'+'"
	case tSuper:
		return "superscript exponent"
	}
	return "token"
}

func (p *parser) peek() token { return p.toks[p.i] }
func (p *parser) next() token { t := p.toks[p.i]; p.i++; return t }

func (p *parser) enter(pos int) error {
	p.depth++
	if p.depth > maxDepth {
		return &SyntaxError{pos, "expression nested too deeply"}
	}
	return nil
}

// startsOperand reports whether t can begin a factor, i.e. whether juxtaposition
// ("N m") means multiplication here.
func startsOperand(t token) bool {
	switch t.kind {
	case tName:
		return t.text != "per" && t.text != "squared" && t.text != "cubed"
	case tNum, tLParen:
		return true
	}
	return false
}

func (p *parser) expr() (Node, error) {
	if err := p.enter(p.peek().pos); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	left, err := p.unary()
	if err != nil {
		return nil, err
	}
	for {
		t := p.peek()
		var op byte
		switch {
		case t.kind == tMul:
			op = '*'
			p.next()
		case t.kind == tDiv || t.kind == tName && t.text == "per":
			op = '/'
			p.next()
		case startsOperand(t):
			op = '*'
		default:
			return left, nil
		}
		right, err := p.unary()
		if err != nil {
			return nil, err
		}
		left = Bin{Op: op, L: left, R: right}
	}
}

func (p *parser) unary() (Node, error) {
	return signed(p, p.unary, p.power, func(x Node) Node { return Neg{X: x} })
}

// signed reads one unary sign and the signed value after it (self, so that
// signs repeat, each counted against the nesting depth), or operand when no
// sign comes next; neg negates.
func signed[T any](p *parser, self, operand func() (T, error), neg func(T) T) (T, error) {
	t := p.peek()
	if t.kind != tMinus && t.kind != tPlus {
		return operand()
	}
	if err := p.enter(t.pos); err != nil {
		var zero T
		return zero, err
	}
	defer func() { p.depth-- }()
	p.next()
	x, err := self()
	if err != nil || t.kind == tPlus {
		return x, err
	}
	return neg(x), nil
}

func (p *parser) power() (Node, error) {
	base, err := p.postfix()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind == tPow {
		p.next()
		h, err := p.exponent()
		if err != nil {
			return nil, err
		}
		return Pow{X: base, Halves: h}, nil
	}
	return base, nil
}

func (p *parser) postfix() (Node, error) {
	x, err := p.atom()
	if err != nil {
		return nil, err
	}
	for {
		t := p.peek()
		switch {
		case t.kind == tSuper:
			p.next()
			if t.sup > 2*maxExponent || t.sup < -2*maxExponent {
				return nil, &SyntaxError{t.pos, fmt.Sprintf("exponent beyond ±%d", maxExponent)}
			}
			x = Pow{X: x, Halves: t.sup}
		case t.kind == tName && t.text == "squared":
			p.next()
			x = Pow{X: x, Halves: 4}
		case t.kind == tName && t.text == "cubed":
			p.next()
			x = Pow{X: x, Halves: 6}
		default:
			return x, nil
		}
	}
}

func (p *parser) atom() (Node, error) {
	t := p.next()
	switch t.kind {
	case tName:
		switch t.text {
		case "square", "sq", "cubic":
			if nt := p.peek(); nt.kind == tName || nt.kind == tLParen {
				if err := p.enter(t.pos); err != nil {
					return nil, err
				}
				defer func() { p.depth-- }()
				x, err := p.postfix()
				if err != nil {
					return nil, err
				}
				h := 4
				if t.text == "cubic" {
					h = 6
				}
				return Pow{X: x, Halves: h}, nil
			}
		case "per", "squared", "cubed":
			return nil, &SyntaxError{t.pos, fmt.Sprintf("%q needs a unit before it", t.text)}
		}
		return Name{Text: t.text, Pos: t.pos}, nil
	case tNum:
		return Num{Val: t.num, Text: t.text}, nil
	case tLParen:
		return inParens(p, p.expr)
	}
	return nil, &SyntaxError{t.pos, "expected a unit but found " + describe(t)}
}

// exponent parses the right side of `**`: a signed number or a parenthesized
// arithmetic expression of numbers, optionally raised again (right-associative).
// The value must be a multiple of 1/2 within ±maxExponent.
func (p *parser) exponent() (int, error) {
	pos := p.peek().pos
	v, err := p.numUnary()
	if err != nil {
		return 0, err
	}
	if p.peek().kind == tPow {
		p.next()
		e, err := p.exponent()
		if err != nil {
			return 0, err
		}
		if e%2 != 0 {
			return 0, &SyntaxError{pos, "fractional power of an exponent"}
		}
		if v, err = ratPowBounded(v, e/2, pos); err != nil {
			return 0, err
		}
	}
	return halvesOf(v, pos)
}

func halvesOf(v *big.Rat, pos int) (int, error) {
	twice := new(big.Rat).Mul(v, big.NewRat(2, 1))
	if !twice.IsInt() {
		return 0, &SyntaxError{pos, "exponent must be a multiple of 1/2"}
	}
	if twice.Num().CmpAbs(big.NewInt(2*maxExponent)) > 0 {
		return 0, &SyntaxError{pos, fmt.Sprintf("exponent beyond ±%d", maxExponent)}
	}
	return int(twice.Num().Int64()), nil
}

func ratPowBounded(v *big.Rat, k, pos int) (*big.Rat, error) {
	if k < 0 && v.Sign() == 0 {
		return nil, &SyntaxError{pos, "zero to a negative power"}
	}
	if (v.Num().BitLen()+v.Denom().BitLen())*abs(k) > 4096 {
		return nil, &SyntaxError{pos, "exponent value too large"}
	}
	r := ratPow(v, abs(k))
	if k < 0 {
		r.Inv(r)
	}
	return r, nil
}

// numUnary, numSum, numProduct and numAtom evaluate the small arithmetic allowed
// in exponents (and in offset definitions): + - * / and parentheses over numbers.
func (p *parser) numUnary() (*big.Rat, error) {
	return signed(p, p.numUnary, p.numAtom, func(v *big.Rat) *big.Rat { return new(big.Rat).Neg(v) })
}

func (p *parser) numAtom() (*big.Rat, error) {
	t := p.next()
	switch t.kind {
	case tNum:
		return t.num, nil
	case tLParen:
		if err := p.enter(t.pos); err != nil {
			return nil, err
		}
		defer func() { p.depth-- }()
		return inParens(p, p.numSum)
	}
	return nil, &SyntaxError{t.pos, "expected a number but found " + describe(t)}
}

func (p *parser) numSum() (*big.Rat, error) {
	return p.numLevel(tPlus, tMinus, p.numProduct, func(op token, v, w *big.Rat) (*big.Rat, error) {
		if op.kind == tPlus {
			return new(big.Rat).Add(v, w), nil
		}
		return new(big.Rat).Sub(v, w), nil
	})
}

func (p *parser) numProduct() (*big.Rat, error) {
	return p.numLevel(tMul, tDiv, p.numUnary, func(op token, v, w *big.Rat) (*big.Rat, error) {
		if op.kind == tMul {
			return new(big.Rat).Mul(v, w), nil
		}
		if w.Sign() == 0 {
			return nil, &SyntaxError{op.pos, "division by zero"}
		}
		return new(big.Rat).Quo(v, w), nil
	})
}

// numLevel reads operand (op operand)* for the two left-associative operators
// op1 and op2 of one precedence level, combining the values with apply.
func (p *parser) numLevel(op1, op2 tokKind, operand func() (*big.Rat, error), apply func(op token, v, w *big.Rat) (*big.Rat, error)) (*big.Rat, error) {
	v, err := operand()
	if err != nil {
		return nil, err
	}
	for {
		t := p.peek()
		if t.kind != op1 && t.kind != op2 {
			return v, nil
		}
		p.next()
		w, err := operand()
		if err != nil {
			return nil, err
		}
		if v, err = apply(t, v, w); err != nil {
			return nil, err
		}
	}
}

// ParseNumber evaluates a purely numeric expression (`233.15 + 200 / 9`), as
// used by offset definitions.
func ParseNumber(s string) (*big.Rat, error) {
	toks, err := lex(s)
	if err != nil {
		return nil, err
	}
	return parseAll(toks, (*parser).numSum)
}

// String renders a tree in a normalized pint syntax that Parse reads back to the
// same tree: names as written, `*`, `/`, `**`, parentheses where needed.
func String(n Node) string {
	var b strings.Builder
	writeNode(&b, n, 0)
	return b.String()
}

// precedence levels: 0 sum context, 1 product, 2 unary, 3 power base.
func writeNode(b *strings.Builder, n Node, ctx int) {
	switch n := n.(type) {
	case Name:
		b.WriteString(n.Text)
	case Num:
		b.WriteString(n.Text)
	case Bin:
		if ctx > 1 {
			b.WriteByte('(')
		}
		writeNode(b, n.L, 1)
		b.WriteByte(' ')
		b.WriteByte(n.Op)
		b.WriteByte(' ')
		writeNode(b, n.R, 2) // a right operand binds tighter: a / (b * c)
		if ctx > 1 {
			b.WriteByte(')')
		}
	case Pow:
		if _, nested := n.X.(Pow); nested {
			b.WriteByte('(')
			writeNode(b, n.X, 0)
			b.WriteByte(')')
		} else {
			writeNode(b, n.X, 3)
		}
		b.WriteString(" ** ")
		if n.Halves%2 == 0 {
			fmt.Fprintf(b, "%d", n.Halves/2)
		} else {
			fmt.Fprintf(b, "(%d/2)", n.Halves)
		}
	case Neg:
		if ctx > 2 {
			b.WriteByte('(')
		}
		b.WriteByte('-')
		writeNode(b, n.X, 2)
		if ctx > 2 {
			b.WriteByte(')')
		}
	}
}

// ParseDecimal converts a JSON number (optional '-', digits, fraction,
// exponent) to an exact rational. It refuses literals longer than 1000
// characters or with a decimal exponent beyond ±400 before doing big arithmetic.
func ParseDecimal(s string) (*big.Rat, error) {
	neg := strings.HasPrefix(s, "-")
	body := strings.TrimPrefix(s, "-")
	if body == "" || scanNumber(body, 0) != len(body) {
		return nil, fmt.Errorf("not a decimal number")
	}
	v, err := parseLiteral(body)
	if err != nil {
		return nil, err
	}
	if neg {
		v.Neg(v)
	}
	return v, nil
}
