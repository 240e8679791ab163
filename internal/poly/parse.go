// Package poly solves polynomial equations in one variable exactly: a real
// tokenizer and recursive-descent parser turns the equation text into a
// polynomial with rational coefficients (optionally in symbolic parameters);
// nothing is ever evaluated as code. Roots come back in SymPy's printing style
// and order where the class of root allows it (rational, quadratic surds, real
// and complex), as CRootOf(...) with a 34-digit decimal otherwise.
package poly

import (
	"fmt"
	"math/big"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/precisiond/precisiond/internal/bigx"
	"github.com/precisiond/precisiond/internal/refusal"
)

// Limits bound the work one call may do; every limit is checked before the
// expensive step it guards.
type Limits struct {
	MaxEquationChars int // length of the equation text
	MaxDepth         int // parenthesis / unary / power nesting
	MaxDegree        int // degree in the variable (and in every parameter)
	MaxTerms         int // terms of any intermediate polynomial
	MaxCoeffBits     int // bits of any numerator or denominator of a coefficient
	MaxParams        int // distinct symbolic parameters
}

// DefaultLimits are the limits declared in the solve_equation contract.
var DefaultLimits = Limits{
	MaxEquationChars: 1000,
	MaxDepth:         100,
	MaxDegree:        64,
	MaxTerms:         2000,
	MaxCoeffBits:     2048,
	MaxParams:        6,
}

// Error is a refusal of the input (see package refusal): Costly marks a
// cost-limit refusal rather than a domain refusal.
type Error = refusal.Error

var (
	fail   = refusal.Domain
	costly = refusal.Cost
)

// ---------------------------------------------------------------------------
// Multivariate polynomials with rational coefficients.

// A monomial is the byte string of exponents, indexed by variable number;
// trailing zero exponents are trimmed so that equal monomials have equal keys.
// Exponents are bounded by MaxDegree (≤ 255), so one byte each suffices.
type mono string

// MPoly is a polynomial in the variables of its parser with big.Rat
// coefficients; zero coefficients are never stored.
type MPoly map[mono]*big.Rat

func constPoly(r *big.Rat) MPoly {
	p := MPoly{}
	if r.Sign() != 0 {
		p[""] = new(big.Rat).Set(r)
	}
	return p
}

func varPoly(i int) MPoly {
	b := make([]byte, i+1)
	b[i] = 1
	return MPoly{mono(b): big.NewRat(1, 1)}
}

func (p MPoly) isConst() bool {
	for m := range p {
		if m != "" {
			return false
		}
	}
	return true
}

func (p MPoly) constValue() *big.Rat {
	if c, ok := p[""]; ok {
		return c
	}
	return new(big.Rat)
}

func monoMul(a, b mono) mono {
	n := max(len(a), len(b))
	out := make([]byte, n)
	for i := range n {
		var x, y byte
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		out[i] = x + y
	}
	return mono(out)
}

func addInto(dst MPoly, m mono, c *big.Rat) {
	if old, ok := dst[m]; ok {
		old.Add(old, c)
		if old.Sign() == 0 {
			delete(dst, m)
		}
		return
	}
	if c.Sign() != 0 {
		dst[m] = new(big.Rat).Set(c)
	}
}

func (p MPoly) add(q MPoly, sign int) MPoly {
	out := MPoly{}
	for m, c := range p {
		out[m] = new(big.Rat).Set(c)
	}
	for m, c := range q {
		if sign < 0 {
			addInto(out, m, new(big.Rat).Neg(c))
		} else {
			addInto(out, m, c)
		}
	}
	return out
}

func (p MPoly) mul(q MPoly) MPoly {
	out := MPoly{}
	t := new(big.Rat)
	for m1, c1 := range p {
		for m2, c2 := range q {
			addInto(out, monoMul(m1, m2), t.Mul(c1, c2))
		}
	}
	return out
}

func (p MPoly) scale(r *big.Rat) MPoly {
	out := MPoly{}
	for m, c := range p {
		addInto(out, m, new(big.Rat).Mul(c, r))
	}
	return out
}

// degIn is the degree of p in variable v (0 for the zero polynomial).
func (p MPoly) degIn(v int) int {
	d := 0
	for m := range p {
		if v < len(m) && int(m[v]) > d {
			d = int(m[v])
		}
	}
	return d
}

// coeffsIn0 returns the coefficients of p in variable 0 (cs[i] of x^i),
// for a polynomial in that variable alone.
func (p MPoly) coeffsIn0() []*big.Rat {
	cs := make([]*big.Rat, p.degIn(0)+1)
	for i := range cs {
		cs[i] = new(big.Rat)
	}
	for m, c := range p {
		d := 0
		if len(m) > 0 {
			d = int(m[0])
		}
		cs[d].Set(c)
	}
	return cs
}

func (p MPoly) maxCoeffBits() int {
	b := 0
	for _, c := range p {
		b = max(b, c.Num().BitLen(), c.Denom().BitLen())
	}
	return b
}

// ---------------------------------------------------------------------------
// Tokenizer.

type tokKind int

const (
	tEOF tokKind = iota
	tNum
	tIdent
	tOp // + - * / ** ^ ( ) , =
)

type token struct {
	kind tokKind
	text string
	pos  int
}

func isIdentStart(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func tokenize(s string) ([]token, error) {
	var toks []token
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case isDigit(c) || (c == '.' && i+1 < len(s) && isDigit(s[i+1])):
			j := i
			for j < len(s) && isDigit(s[j]) {
				j++
			}
			if j < len(s) && s[j] == '.' {
				j++
				for j < len(s) && isDigit(s[j]) {
					j++
				}
			}
			if j < len(s) && (s[j] == 'e' || s[j] == 'E') {
				k := j + 1
				if k < len(s) && (s[k] == '+' || s[k] == '-') {
					k++
				}
				if k < len(s) && isDigit(s[k]) {
					for k < len(s) && isDigit(s[k]) {
						k++
					}
					j = k
				}
			}
			if j < len(s) && (isIdentStart(s[j]) || isDigit(s[j]) || s[j] == '.') {
				return nil, fail("invalid_syntax", "malformed number or implicit multiplication at offset %d (write 2*x, not 2x)", i)
			}
			toks = append(toks, token{tNum, s[i:j], i})
			i = j
		case isIdentStart(c):
			j := i
			for j < len(s) && (isIdentStart(s[j]) || isDigit(s[j])) {
				j++
			}
			toks = append(toks, token{tIdent, s[i:j], i})
			i = j
		case c == '*' || c == '=':
			// "**" is one operator; "==" reads as "=".
			n := 1
			if i+1 < len(s) && s[i+1] == c {
				n = 2
			}
			op := s[i : i+n]
			if c == '=' {
				op = "="
			}
			toks = append(toks, token{tOp, op, i})
			i += n
		case strings.IndexByte("+-/^(),", c) >= 0:
			toks = append(toks, token{tOp, string(c), i})
			i++
		default:
			r, _ := utf8.DecodeRuneInString(s[i:])
			return nil, fail("invalid_syntax", "unexpected character %q at offset %d", r, i)
		}
	}
	toks = append(toks, token{tEOF, "", len(s)})
	return toks, nil
}

// ---------------------------------------------------------------------------
// Parser.

// reservedNames are SymPy constants and functions that a polynomial equation
// cannot contain; naming them gives a precise refusal instead of treating
// them as parameters (which would silently change the meaning).
var reservedNames = map[string]string{
	"I": "imaginary unit", "E": "Euler's number", "pi": "pi", "oo": "infinity",
	"zoo": "complex infinity", "nan": "not a number", "S": "SymPy singleton",
	"N": "SymPy evaluation", "Q": "SymPy assumptions", "O": "order symbol",
	"lambda": "Python keyword", "None": "Python constant", "True": "Python constant",
	"False": "Python constant", "beta": "SymPy function", "gamma": "SymPy function",
	"zeta": "SymPy function", "Lambda": "SymPy function", "exp": "function",
	"sqrt": "function", "log": "function", "ln": "function", "sin": "function",
	"cos": "function", "tan": "function", "abs": "function", "Abs": "function",
	"and": "Python keyword", "or": "Python keyword", "not": "Python keyword",
	"if": "Python keyword", "else": "Python keyword", "in": "Python keyword",
	"is": "Python keyword", "for": "Python keyword", "def": "Python keyword",
	"class": "Python keyword", "import": "Python keyword", "from": "Python keyword",
	"return": "Python keyword", "del": "Python keyword", "pass": "Python keyword",
	"with": "Python keyword", "as": "Python keyword", "global": "Python keyword",
	"while": "Python keyword", "try": "Python keyword", "raise": "Python keyword",
	"elif": "Python keyword", "except": "Python keyword", "finally": "Python keyword",
	"yield": "Python keyword", "assert": "Python keyword", "break": "Python keyword",
	"continue": "Python keyword", "nonlocal": "Python keyword", "await": "Python keyword",
	"async": "Python keyword",
}

// IsReservedName reports whether name cannot be used as the variable or a
// parameter because SymPy/Python give it another meaning.
func IsReservedName(name string) bool { _, ok := reservedNames[name]; return ok }

type parser struct {
	toks   []token
	pos    int
	depth  int
	lim    Limits
	vars   []string // vars[0] is the solve variable
	solveV string
}

// Equation is a parsed equation lhs - rhs = 0.
type Equation struct {
	Poly MPoly    // lhs - rhs
	Vars []string // Vars[0] is the variable; the rest are parameters, in order of appearance
}

// Parse parses "lhs = rhs" or an expression meant to equal zero, in the
// variable v. Errors: invalid_syntax, not_polynomial, unsupported_constant,
// too_many_parameters, division_by_zero (tool errors) and equation_too_long,
// degree_too_large, too_many_terms, coefficient_too_large, nesting_too_deep
// (cost errors).
func Parse(s, v string, lim Limits) (*Equation, error) {
	if len(s) > lim.MaxEquationChars {
		return nil, costly("equation_too_long", "equation has %d characters, the limit is %d", len(s), lim.MaxEquationChars)
	}
	if IsReservedName(v) {
		return nil, fail("invalid_variable", "%q cannot be the variable: it names a SymPy/Python constant or function", v)
	}
	toks, err := tokenize(s)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks, lim: lim, vars: []string{v}, solveV: v}
	lhs, err := p.sum()
	if err != nil {
		return nil, err
	}
	poly := lhs
	if p.peek().text == "=" && p.peek().kind == tOp {
		p.pos++
		rhs, err := p.sum()
		if err != nil {
			return nil, err
		}
		poly = lhs.add(rhs, -1)
	}
	if t := p.peek(); t.kind != tEOF {
		if t.text == "=" {
			return nil, fail("invalid_syntax", "more than one '=' (at offset %d)", t.pos)
		}
		return nil, fail("invalid_syntax", "unexpected %q at offset %d", t.text, t.pos)
	}
	if err := p.checkSize(poly); err != nil {
		return nil, err
	}
	return &Equation{Poly: poly, Vars: p.vars}, nil
}

func (p *parser) peek() token { return p.toks[p.pos] }

func (p *parser) enter() error {
	p.depth++
	if p.depth > p.lim.MaxDepth {
		return costly("nesting_too_deep", "expression nesting exceeds %d levels", p.lim.MaxDepth)
	}
	return nil
}

func (p *parser) checkSize(q MPoly) error {
	if len(q) > p.lim.MaxTerms {
		return costly("too_many_terms", "an intermediate polynomial has %d terms, the limit is %d", len(q), p.lim.MaxTerms)
	}
	if b := q.maxCoeffBits(); b > p.lim.MaxCoeffBits {
		return costly("coefficient_too_large", "a coefficient needs %d bits, the limit is %d", b, p.lim.MaxCoeffBits)
	}
	return nil
}

func (p *parser) sum() (MPoly, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	return p.chain(p.term, "+", "-", func(acc, rhs MPoly, t token) (MPoly, error) {
		// acc is owned by this call (every parser step returns a fresh
		// polynomial), so the sum is accumulated in place: linear, not quadratic.
		for m, c := range rhs {
			if t.text == "-" {
				c = new(big.Rat).Neg(c)
			}
			addInto(acc, m, c)
		}
		return acc, nil
	})
}

func (p *parser) term() (MPoly, error) {
	return p.chain(p.unary, "*", "/", func(acc, rhs MPoly, t token) (MPoly, error) {
		if t.text == "*" {
			if err := p.checkProduct(acc, rhs); err != nil {
				return nil, err
			}
			return acc.mul(rhs), nil
		}
		if !rhs.isConst() {
			if rhs.degIn(0) > 0 {
				return nil, fail("not_polynomial", "division by an expression containing %s (at offset %d): not a polynomial equation", p.solveV, t.pos)
			}
			return nil, fail("unsupported_parameter_division", "division by an expression in the parameters (at offset %d) is not supported; multiply it out", t.pos)
		}
		c := rhs.constValue()
		if c.Sign() == 0 {
			return nil, fail("division_by_zero", "division by zero at offset %d", t.pos)
		}
		return acc.scale(new(big.Rat).Inv(c)), nil
	})
}

// chain parses operand (op operand)* for the left-associative operators op1
// and op2, folding each right operand into the result with apply and checking
// the size limits after every step.
func (p *parser) chain(operand func() (MPoly, error), op1, op2 string, apply func(acc, rhs MPoly, op token) (MPoly, error)) (MPoly, error) {
	acc, err := operand()
	if err != nil {
		return nil, err
	}
	for {
		t := p.peek()
		if t.kind != tOp || (t.text != op1 && t.text != op2) {
			return acc, nil
		}
		p.pos++
		rhs, err := operand()
		if err != nil {
			return nil, err
		}
		if acc, err = apply(acc, rhs, t); err != nil {
			return nil, err
		}
		if err := p.checkSize(acc); err != nil {
			return nil, err
		}
	}
}

func (p *parser) checkProduct(a, b MPoly) error {
	if len(a)*len(b) > p.lim.MaxTerms*4 {
		return costly("too_many_terms", "a product would have up to %d terms, the limit is %d", len(a)*len(b), p.lim.MaxTerms)
	}
	for v := range p.vars {
		if d := a.degIn(v) + b.degIn(v); d > p.lim.MaxDegree {
			return costly("degree_too_large", "degree %d in %s exceeds the limit %d", d, p.vars[v], p.lim.MaxDegree)
		}
	}
	if a.maxCoeffBits()+b.maxCoeffBits() > 2*p.lim.MaxCoeffBits {
		return costly("coefficient_too_large", "a coefficient would exceed %d bits", p.lim.MaxCoeffBits)
	}
	return nil
}

func (p *parser) unary() (MPoly, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	t := p.peek()
	if t.kind == tOp && (t.text == "-" || t.text == "+") {
		p.pos++
		v, err := p.unary()
		if err != nil {
			return nil, err
		}
		if t.text == "-" {
			return v.scale(big.NewRat(-1, 1)), nil
		}
		return v, nil
	}
	return p.power()
}

func (p *parser) power() (MPoly, error) {
	base, err := p.atom()
	if err != nil {
		return nil, err
	}
	t := p.peek()
	if t.kind != tOp || (t.text != "**" && t.text != "^") {
		return base, nil
	}
	p.pos++
	exp, err := p.unary() // right-associative; the exponent may carry a sign, as in Python
	if err != nil {
		return nil, err
	}
	if !exp.isConst() {
		if exp.degIn(0) > 0 {
			return nil, fail("not_polynomial", "%s appears in an exponent (at offset %d): not a polynomial equation", p.solveV, t.pos)
		}
		return nil, fail("not_polynomial", "symbolic exponent at offset %d: not a polynomial equation", t.pos)
	}
	e := exp.constValue()
	if !e.IsInt() {
		if base.isConst() {
			return nil, fail("irrational_coefficient", "non-integer power of a number at offset %d: coefficients must be rational", t.pos)
		}
		return nil, fail("not_polynomial", "non-integer exponent at offset %d: not a polynomial equation", t.pos)
	}
	n := e.Num()
	if base.isConst() {
		return p.constPow(base.constValue(), n, t.pos)
	}
	if n.Sign() < 0 {
		if base.degIn(0) > 0 {
			return nil, fail("not_polynomial", "negative power of an expression in %s (at offset %d): not a polynomial equation", p.solveV, t.pos)
		}
		return nil, fail("unsupported_parameter_division", "negative power of a parameter expression (at offset %d) is not supported", t.pos)
	}
	if !n.IsInt64() || n.Int64() > int64(p.lim.MaxDegree) {
		return nil, costly("degree_too_large", "exponent %s exceeds the degree limit %d", n.String(), p.lim.MaxDegree)
	}
	k := int(n.Int64())
	for v := range p.vars {
		if base.degIn(v)*k > p.lim.MaxDegree {
			return nil, costly("degree_too_large", "degree %d in %s exceeds the limit %d", base.degIn(v)*k, p.vars[v], p.lim.MaxDegree)
		}
	}
	if base.maxCoeffBits()*k > 4*p.lim.MaxCoeffBits {
		return nil, costly("coefficient_too_large", "a power's coefficients would exceed %d bits", p.lim.MaxCoeffBits)
	}
	acc := constPoly(big.NewRat(1, 1))
	for i := 0; i < k; i++ {
		if err := p.checkProduct(acc, base); err != nil {
			return nil, err
		}
		acc = acc.mul(base)
		if err := p.checkSize(acc); err != nil {
			return nil, err
		}
	}
	return acc, nil
}

func (p *parser) constPow(b *big.Rat, n *big.Int, pos int) (MPoly, error) {
	if b.Sign() == 0 {
		if n.Sign() < 0 {
			return nil, fail("division_by_zero", "zero to a negative power at offset %d", pos)
		}
		if n.Sign() == 0 {
			return constPoly(big.NewRat(1, 1)), nil
		}
		return MPoly{}, nil
	}
	abs := new(big.Int).Abs(n)
	bits := max(b.Num().BitLen(), b.Denom().BitLen())
	one := b.Num().CmpAbs(big.NewInt(1)) == 0 && b.Denom().Cmp(big.NewInt(1)) == 0
	if !one && (!abs.IsInt64() || abs.Int64() > int64(p.lim.MaxCoeffBits) || int64(bits-1)*abs.Int64() > int64(p.lim.MaxCoeffBits)) {
		return nil, costly("coefficient_too_large", "a power at offset %d would exceed %d bits", pos, p.lim.MaxCoeffBits)
	}
	if one {
		r := new(big.Rat).Set(b)
		if b.Sign() < 0 && abs.Bit(0) == 0 {
			r.Neg(r)
		}
		return constPoly(r), nil
	}
	k := abs.Int64()
	num := new(big.Int).Exp(b.Num(), big.NewInt(k), nil)
	den := new(big.Int).Exp(b.Denom(), big.NewInt(k), nil)
	r := new(big.Rat).SetFrac(num, den)
	if n.Sign() < 0 {
		r.Inv(r)
	}
	return constPoly(r), nil
}

func (p *parser) atom() (MPoly, error) {
	t := p.peek()
	switch t.kind {
	case tNum:
		p.pos++
		return parseNumber(t)
	case tIdent:
		p.pos++
		if n := p.peek(); n.kind == tOp && n.text == "(" {
			return nil, fail("not_polynomial", "function call %s(...) at offset %d: only polynomial equations are solved", t.text, t.pos)
		}
		if what, ok := reservedNames[t.text]; ok {
			return nil, fail("unsupported_constant", "%q (%s) at offset %d cannot appear in a polynomial equation with rational coefficients", t.text, what, t.pos)
		}
		for i, v := range p.vars {
			if v == t.text {
				return varPoly(i), nil
			}
		}
		if len(p.vars)-1 >= p.lim.MaxParams {
			return nil, costly("too_many_parameters", "more than %d symbolic parameters", p.lim.MaxParams)
		}
		p.vars = append(p.vars, t.text)
		return varPoly(len(p.vars) - 1), nil
	case tOp:
		if t.text == "(" {
			p.pos++
			v, err := p.sum()
			if err != nil {
				return nil, err
			}
			if c := p.peek(); c.kind != tOp || c.text != ")" {
				return nil, fail("invalid_syntax", "expected ')' at offset %d", c.pos)
			}
			p.pos++
			return v, nil
		}
		return nil, fail("invalid_syntax", "unexpected %q at offset %d", t.text, t.pos)
	}
	return nil, fail("invalid_syntax", "unexpected end of equation")
}

func parseNumber(t token) (MPoly, error) {
	s := t.text
	mant, exp := s, ""
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mant, exp = s[:i], s[i+1:]
	}
	if len(exp) > 4 {
		return nil, costly("coefficient_too_large", "exponent of the number at offset %d is too large", t.pos)
	}
	r, ok := new(big.Rat).SetString(mant)
	if !ok {
		return nil, fail("invalid_syntax", "malformed number %q at offset %d", s, t.pos)
	}
	if exp != "" {
		var e int
		if _, err := fmt.Sscan(exp, &e); err != nil {
			return nil, fail("invalid_syntax", "malformed number %q at offset %d", s, t.pos)
		}
		if e > 600 || e < -600 {
			return nil, costly("coefficient_too_large", "number %q at offset %d is out of range (|exponent| ≤ 600)", s, t.pos)
		}
		r.Mul(r, bigx.Pow10Rat(e))
	}
	return constPoly(r), nil
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// String prints the polynomial in a canonical, parseable form (terms sorted
// by their monomial text), used to check that parsing round-trips.
func (p MPoly) String(vars []string) string {
	type term struct{ mon, text string }
	var ts []term
	for m, c := range p {
		var fs []string
		for i, e := range []byte(m) {
			if e == 0 {
				continue
			}
			if e == 1 {
				fs = append(fs, vars[i])
			} else {
				fs = append(fs, vars[i]+"**"+itoa(int(e)))
			}
		}
		slices.Sort(fs)
		mon := strings.Join(fs, "*")
		text := "(" + c.Num().String() + "/" + c.Denom().String() + ")"
		if mon != "" {
			text += "*" + mon
		}
		ts = append(ts, term{mon, text})
	}
	if len(ts) == 0 {
		return "0"
	}
	slices.SortFunc(ts, func(a, b term) int { return strings.Compare(a.mon, b.mon) })
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.text
	}
	return strings.Join(out, " + ")
}
