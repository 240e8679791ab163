package poly

import (
	"errors"
	"math/big"
	"strings"
)

// A reader for the expressions this package prints (SymPy's str() of a
// root): integers, + - * / **, parentheses, sqrt(...), I, parameter names and
// CRootOf(<polynomial>, k). The root self-check (verify.go) evaluates the
// printed text itself, not the solver's internal representation, so a
// printing mistake is caught as surely as an arithmetic one.

// snode is a node of a printed expression.
type snode struct {
	op   byte     // 'n' number, 's' symbol, 'i' I, '+' sum, '*' product, '/' quotient, '-' negation, '^' power
	num  *big.Rat // 'n'; '^': the exponent (always a rational number)
	name string   // 's'
	kids []*snode
}

var errSexpr = errors.New("poly: unreadable printed root")

// maxSexprDepth bounds the nesting of a printed root (ours never exceed a few
// levels; the bound keeps the recursive reader safe on any input).
const maxSexprDepth = 64

type sreader struct {
	s     string
	pos   int
	depth int
}

// parseSexpr reads a printed root; CRootOf roots are handled by the caller.
func parseSexpr(s string) (*snode, error) {
	r := &sreader{s: s}
	n, err := r.sum()
	if err != nil {
		return nil, err
	}
	r.space()
	if r.pos != len(r.s) {
		return nil, errSexpr
	}
	return n, nil
}

func (r *sreader) space() {
	for r.pos < len(r.s) && r.s[r.pos] == ' ' {
		r.pos++
	}
}

// eat consumes tok (after spaces) when it comes next; "*" never eats "**".
func (r *sreader) eat(tok string) bool {
	r.space()
	if !strings.HasPrefix(r.s[r.pos:], tok) {
		return false
	}
	if tok == "*" && strings.HasPrefix(r.s[r.pos:], "**") {
		return false
	}
	r.pos += len(tok)
	return true
}

func (r *sreader) enter() error {
	r.depth++
	if r.depth > maxSexprDepth {
		return errSexpr
	}
	return nil
}

func (r *sreader) sum() (*snode, error) {
	if err := r.enter(); err != nil {
		return nil, err
	}
	defer func() { r.depth-- }()
	first, err := r.product()
	if err != nil {
		return nil, err
	}
	terms := []*snode{first}
	for {
		var neg bool
		switch {
		case r.eat("+"):
		case r.eat("-"):
			neg = true
		default:
			if len(terms) == 1 {
				return first, nil
			}
			return &snode{op: '+', kids: terms}, nil
		}
		t, err := r.product()
		if err != nil {
			return nil, err
		}
		if neg {
			t = &snode{op: '-', kids: []*snode{t}}
		}
		terms = append(terms, t)
	}
}

func (r *sreader) product() (*snode, error) {
	n, err := r.unary()
	if err != nil {
		return nil, err
	}
	for {
		var op byte
		switch {
		case r.eat("*"):
			op = '*'
		case r.eat("/"):
			op = '/'
		default:
			return n, nil
		}
		m, err := r.unary()
		if err != nil {
			return nil, err
		}
		n = &snode{op: op, kids: []*snode{n, m}}
	}
}

// unary follows Python: -2**(1/3) is -(2**(1/3)).
func (r *sreader) unary() (*snode, error) {
	if err := r.enter(); err != nil {
		return nil, err
	}
	defer func() { r.depth-- }()
	if r.eat("-") {
		n, err := r.unary()
		if err != nil {
			return nil, err
		}
		return &snode{op: '-', kids: []*snode{n}}, nil
	}
	return r.power()
}

func (r *sreader) power() (*snode, error) {
	base, err := r.atom()
	if err != nil {
		return nil, err
	}
	if !r.eat("**") {
		return base, nil
	}
	e, err := r.unary()
	if err != nil {
		return nil, err
	}
	q, ok := constRat(e)
	if !ok {
		return nil, errSexpr
	}
	return &snode{op: '^', num: q, kids: []*snode{base}}, nil
}

func (r *sreader) atom() (*snode, error) {
	r.space()
	if r.pos >= len(r.s) {
		return nil, errSexpr
	}
	c := r.s[r.pos]
	switch {
	case c == '(':
		r.pos++
		n, err := r.sum()
		if err != nil {
			return nil, err
		}
		if !r.eat(")") {
			return nil, errSexpr
		}
		return n, nil
	case isDigit(c):
		start := r.pos
		for r.pos < len(r.s) && isDigit(r.s[r.pos]) {
			r.pos++
		}
		v, _ := new(big.Rat).SetString(r.s[start:r.pos])
		return &snode{op: 'n', num: v}, nil
	case isIdentStart(c):
		start := r.pos
		for r.pos < len(r.s) && (isIdentStart(r.s[r.pos]) || isDigit(r.s[r.pos])) {
			r.pos++
		}
		name := r.s[start:r.pos]
		switch name {
		case "I":
			return &snode{op: 'i'}, nil
		case "sqrt":
			if !r.eat("(") {
				return nil, errSexpr
			}
			n, err := r.sum()
			if err != nil {
				return nil, err
			}
			if !r.eat(")") {
				return nil, errSexpr
			}
			return &snode{op: '^', num: big.NewRat(1, 2), kids: []*snode{n}}, nil
		}
		if IsReservedName(name) {
			return nil, errSexpr
		}
		return &snode{op: 's', name: name}, nil
	}
	return nil, errSexpr
}

// constRat folds an exponent (numbers only) to a rational.
func constRat(n *snode) (*big.Rat, bool) {
	switch n.op {
	case 'n':
		return n.num, true
	case '-':
		v, ok := constRat(n.kids[0])
		if !ok {
			return nil, false
		}
		return new(big.Rat).Neg(v), true
	case '/', '*':
		a, ok1 := constRat(n.kids[0])
		b, ok2 := constRat(n.kids[1])
		if !ok1 || !ok2 {
			return nil, false
		}
		if n.op == '*' {
			return new(big.Rat).Mul(a, b), true
		}
		if b.Sign() == 0 {
			return nil, false
		}
		return new(big.Rat).Quo(a, b), true
	}
	return nil, false
}

// litBits is the total bit length of the integers written in the expression,
// a measure of how much cancellation its numeric evaluation can suffer.
func (n *snode) litBits() int {
	b := 0
	if n.op == 'n' {
		b += n.num.Num().BitLen() + n.num.Denom().BitLen()
	}
	for _, k := range n.kids {
		b += k.litBits()
	}
	return b
}

// hasSymbol reports whether a parameter occurs.
func (n *snode) hasSymbol() bool {
	if n.op == 's' {
		return true
	}
	for _, k := range n.kids {
		if k.hasSymbol() {
			return true
		}
	}
	return false
}

// parseCRootOf splits "CRootOf(<poly>, k)" into the polynomial text and k.
func parseCRootOf(s string) (string, int, bool) {
	if !strings.HasPrefix(s, "CRootOf(") || !strings.HasSuffix(s, ")") {
		return "", 0, false
	}
	body := s[len("CRootOf(") : len(s)-1]
	i := strings.LastIndex(body, ", ")
	if i < 0 {
		return "", 0, false
	}
	k, ok := new(big.Int).SetString(body[i+2:], 10)
	if !ok || k.Sign() < 0 || !k.IsInt64() || k.Int64() > 1<<16 {
		return "", 0, false
	}
	return body[:i], int(k.Int64()), true
}
