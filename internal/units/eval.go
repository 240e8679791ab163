package units

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strings"

	"github.com/precisiond/precisiond/internal/suggest"
)

// Expr is an evaluated unit expression.
type Expr struct {
	F Factor // value of one of it in base units (for an offset unit: its scale)
	D Dims
	// Offset is the lone offset unit (degree_Celsius, ...) when the expression is
	// exactly one such unit; conversions then go through its zero point.
	Offset *Unit
}

// UnknownUnitError names a unit token that no prefix/unit/plural split explains.
type UnknownUnitError struct {
	Token string
	// Suggestions are up to MaxSuggestions known names the token (or the whole
	// expression) may have meant, best first; each resolves in the registry.
	Suggestions []string
	// Expressions are the whole expression with each suggestion put in place of
	// the token ("furlong/fortnight" for "furlong/fortnite"), in the same order;
	// a suggestion whose place cannot be found in the source is left out.
	Expressions []string
}

func (e *UnknownUnitError) Error() string {
	return fmt.Sprintf("unknown unit %q", e.Token) + suggest.Phrase(e.Suggestions)
}

// OffsetError reports an offset unit (degC, degF, degRe) used where only a
// multiplicative unit can stand: with a prefix, a power, or beside other units.
type OffsetError struct {
	Unit string
	Why  string
}

func (e *OffsetError) Error() string {
	return fmt.Sprintf("offset unit %s %s; for temperature differences use kelvin, degR or delta_%s", e.Unit, e.Why, e.Unit)
}

// LogUnitError reports a logarithmic unit (decibel, neper, ...).
type LogUnitError struct{ Unit string }

func (e *LogUnitError) Error() string {
	return fmt.Sprintf("logarithmic unit %s is not supported", e.Unit)
}

// ScaleError reports a numeric factor inside a target unit expression ("1000
// m"), which pint refuses as well ("Unit expression cannot have a scaling
// factor"); a source expression may carry one (see ParseQuantity).
type ScaleError struct{ Text string }

func (e *ScaleError) Error() string {
	return fmt.Sprintf("unit expression cannot have a scaling factor (%s)", e.Text)
}

// ExponentError reports an expression whose powers exceed the declared bounds.
type ExponentError struct{ Msg string }

func (e *ExponentError) Error() string { return e.Msg }

// term is one distinct (prefix, unit) of an expression.
type term struct {
	prefix *Prefix
	unit   *Unit
	name   string // as first written, for messages
}

type container struct {
	order []string
	terms map[string]term
	exp   map[string]int // halves
	// scale is the product of the numeric factors of a source expression
	// (ParseQuantity); nil when numbers other than 1 are refused.
	scale *Factor
	names int // unit names written, "dimensionless" included
}

func (c *container) add(key string, t term, halves int) {
	if _, ok := c.terms[key]; !ok {
		c.order = append(c.order, key)
		c.terms[key] = t
	}
	c.exp[key] += halves
}

// Parse parses and evaluates a unit expression such as "km/h", "m**2", "kWh",
// "lbf*ft" or "degC", as pint parses a target unit: a numeric factor other than
// 1 is refused. Errors: *SyntaxError, *UnknownUnitError, *OffsetError,
// *LogUnitError, *ScaleError, *ExponentError, and ErrTooLarge.
func (r *Registry) Parse(s string) (Expr, error) {
	return r.parse(s, &container{terms: map[string]term{}, exp: map[string]int{}})
}

// NumberError reports a source expression that pint evaluates to a plain
// number, or a numeric factor with no exact value (0**-1, (-2)**0.5).
type NumberError struct {
	Msg string
	Err error // the cause, when there is one (ErrNegativeRoot)
}

func (e *NumberError) Error() string { return e.Msg }

func (e *NumberError) Unwrap() error { return e.Err }

// ParseQuantity parses a source expression as pint's parse_expression reads
// the reference's from_unit: numeric factors are part of the quantity ("1000 m"
// is one thing worth 1000 m, "-m" is -1 m, "2**3 m" is 8 m) and are folded into
// the factor exactly; an expression with no unit at all ("3") is refused, as the
// reference fails on it (pint returns a plain number, which has no .to()). An
// offset unit takes no factor. Errors: those of Parse except *ScaleError, and
// *NumberError.
func (r *Registry) ParseQuantity(s string) (Expr, error) {
	one := One()
	c := &container{terms: map[string]term{}, exp: map[string]int{}, scale: &one}
	e, err := r.parse(s, c)
	if err != nil {
		return Expr{}, err
	}
	if c.names == 0 {
		return Expr{}, &NumberError{Msg: "the expression is a plain number, not a unit (pint evaluates it to a number)"}
	}
	if c.scale.IsRational() && c.scale.Q.Cmp(ratOne) == 0 {
		return e, nil
	}
	if e.Offset != nil {
		return Expr{}, &OffsetError{Unit: e.Offset.Name, Why: "cannot be multiplied by a number"}
	}
	e.F = e.F.Mul(*c.scale)
	if e.F.Bits() > maxFactorBits {
		return Expr{}, ErrTooLarge
	}
	return e, nil
}

func (r *Registry) parse(s string, c *container) (Expr, error) {
	n, err := Parse(s)
	if err != nil {
		return Expr{}, err
	}
	if err := r.collect(n, 2, c, s); err != nil {
		return Expr{}, err
	}
	f, d := One(), Dims{}
	var offset *Unit
	nonzero := 0
	for _, k := range c.order {
		if c.exp[k] != 0 {
			nonzero++
		}
	}
	for _, k := range c.order {
		h := c.exp[k]
		if h == 0 {
			continue
		}
		t := c.terms[k]
		if t.unit.Log {
			return Expr{}, &LogUnitError{Unit: t.unit.Name}
		}
		if t.unit.Offset != nil {
			switch {
			case t.prefix != nil:
				return Expr{}, &OffsetError{Unit: t.name, Why: "cannot take a prefix"}
			case h != 2:
				return Expr{}, &OffsetError{Unit: t.name, Why: "cannot be raised to a power"}
			case nonzero > 1:
				return Expr{}, &OffsetError{Unit: t.name, Why: "cannot be multiplied or divided by other units"}
			}
			offset = t.unit
		}
		if h > maxDimHalves || h < -maxDimHalves {
			return Expr{}, &ExponentError{Msg: fmt.Sprintf("exponent of %s beyond ±%d", t.name, maxDimHalves/2)}
		}
		uf := t.unit.F
		if t.prefix != nil {
			uf = uf.Mul(RatFactor(t.prefix.F))
		}
		p, err := uf.Pow(h)
		if err != nil {
			return Expr{}, err
		}
		dp, ok := t.unit.D.Pow(h)
		if !ok {
			return Expr{}, &ExponentError{Msg: fmt.Sprintf("power of %s gives a dimension exponent that is not a multiple of 1/2 or beyond ±%d", t.name, maxDimHalves/2)}
		}
		f = f.Mul(p)
		if f.Bits() > maxFactorBits {
			return Expr{}, ErrTooLarge
		}
		d = d.Mul(dp)
	}
	return Expr{F: f, D: d, Offset: offset}, nil
}

// collect walks the tree, adding each unit with its exponent (in halves, scaled
// by the powers around it) to c.
func (r *Registry) collect(n Node, halves int, c *container, src string) error {
	switch n := n.(type) {
	case Name:
		c.names++
		if n.Text == "dimensionless" {
			return nil
		}
		p, u, ok := r.Lookup(n.Text)
		if !ok {
			e := &UnknownUnitError{Token: n.Text}
			r.suggest(e, src, n.Pos)
			return e
		}
		key := u.Name
		if p != nil {
			key = p.Name + "|" + key // "|" never occurs in a name
		}
		c.add(key, term{prefix: p, unit: u, name: n.Text}, halves)
		return nil
	case Num:
		if n.Val.Cmp(ratOne) == 0 {
			return nil
		}
		if c.scale == nil {
			return &ScaleError{Text: n.Text}
		}
		return c.mulScale(RatFactor(n.Val), halves, n.Text)
	case Neg:
		if c.scale == nil {
			return &ScaleError{Text: "-"}
		}
		if err := c.mulScale(RatFactor(big.NewRat(-1, 1)), halves, "-"); err != nil {
			return err
		}
		return r.collect(n.X, halves, c, src)
	case Bin:
		if err := r.collect(n.L, halves, c, src); err != nil {
			return err
		}
		if n.Op == '/' {
			return r.collect(n.R, -halves, c, src)
		}
		return r.collect(n.R, halves, c, src)
	case Pow:
		h := halves * n.Halves
		if h%2 != 0 {
			return &ExponentError{Msg: "exponent is not a multiple of 1/2"}
		}
		h /= 2
		if h > maxDimHalves || h < -maxDimHalves {
			return &ExponentError{Msg: fmt.Sprintf("exponent beyond ±%d", maxDimHalves/2)}
		}
		return r.collect(n.X, h, c, src)
	}
	return fmt.Errorf("units: unknown node %T", n)
}

// mulScale multiplies the source expression's numeric factor by x raised to
// halves/2.
func (c *container) mulScale(x Factor, halves int, text string) error {
	p, err := x.Pow(halves)
	switch {
	case errors.Is(err, ErrTooLarge):
		return err
	case errors.Is(err, ErrNegativeRoot):
		return &NumberError{Msg: fmt.Sprintf("the factor %s is raised to a fractional power", text), Err: err}
	case err != nil:
		return &NumberError{Msg: fmt.Sprintf("the factor %s: %v", text, err)}
	}
	s := c.scale.Mul(p)
	if s.Bits() > maxFactorBits {
		return ErrTooLarge
	}
	c.scale = &s
	return nil
}

// hint suggests what an unknown token may have meant: the underscore-joined
// spelling when an expression written with spaces ("imperial gallon") is one
// known unit (whole is then true: it replaces the whole expression), else the
// token in lower case ("Celsius" -> "celsius"), since pint's names are
// case-sensitive.
func (r *Registry) hint(src, token string) (s string, whole bool) {
	var b []rune
	inSpace := false
	for _, c := range src {
		if c == ' ' || c == '\t' {
			inSpace = true
			continue
		}
		if inSpace && len(b) > 0 {
			b = append(b, '_')
		}
		inSpace = false
		b = append(b, c)
	}
	if joined := string(b); joined != src && len(joined) <= 64 {
		if _, _, ok := r.Lookup(joined); ok {
			return joined, true
		}
	}
	if lower := strings.ToLower(token); lower != token {
		if _, _, ok := r.Lookup(lower); ok {
			return lower, false
		}
	}
	return "", false
}

// Result is the outcome of a conversion.
type Result struct {
	// Exact is the converted value when it is an exact rational; nil otherwise.
	Exact *big.Rat
	// Approx is the converted value to approxPrec bits when it is irrational or
	// rests on an approximated constant; nil when Exact is set.
	Approx *big.Float
	// Dims is the common dimensionality of both units.
	Dims Dims
	From Expr
	To   Expr
}

// MismatchError reports units of different dimensionality.
type MismatchError struct{ From, To Dims }

func (e *MismatchError) Error() string {
	return fmt.Sprintf("cannot convert from %s to %s", e.From, e.To)
}

// Convert converts value (exact) from one unit expression to another. Offset
// units standing alone convert through their zero points (value·scale + offset
// in kelvin, then back); everything else multiplies by the ratio of factors.
// Errors: those of Parse, and *MismatchError.
func (r *Registry) Convert(value *big.Rat, from, to string) (Result, error) {
	fe, err := r.Parse(from)
	if err != nil {
		return Result{}, err
	}
	te, err := r.Parse(to)
	if err != nil {
		return Result{}, err
	}
	return ConvertExpr(value, fe, te)
}

// ConvertExpr converts value between two evaluated expressions.
func ConvertExpr(value *big.Rat, fe, te Expr) (Result, error) {
	if !fe.D.Equal(te.D) {
		return Result{}, &MismatchError{From: fe.D, To: te.D}
	}
	res := Result{Dims: fe.D, From: fe, To: te}
	if fe.Offset == nil && te.Offset == nil {
		ratio := fe.F.Div(te.F)
		if ratio.IsRational() || value.Sign() == 0 {
			res.Exact = new(big.Rat).Mul(value, ratio.Q)
			return res, nil
		}
		v := new(big.Float).SetPrec(approxPrec + 64).SetRat(value)
		v.Mul(v, ratio.Float(approxPrec+64))
		res.Approx = v.SetPrec(approxPrec)
		return res, nil
	}
	// An offset unit is alone on its side, so both sides are temperatures whose
	// scales are rational in pint's file; anything else is a bug in the data.
	if !fe.F.IsRational() || !te.F.IsRational() {
		return Result{}, fmt.Errorf("units: offset conversion with an irrational scale")
	}
	base := new(big.Rat).Mul(value, fe.F.Q)
	if fe.Offset != nil {
		base.Add(base, fe.Offset.Offset)
	}
	if te.Offset != nil {
		base.Sub(base, te.Offset.Offset)
	}
	res.Exact = base.Quo(base, te.F.Q)
	return res, nil
}

// Decimal renders the converted value: exactly when it is a rational with a
// terminating decimal expansion (exact = true), otherwise rounded half-to-even
// to SigDigits significant digits.
func (r Result) Decimal() (s string, exact bool) {
	if r.Exact != nil {
		return DecimalString(r.Exact)
	}
	q, _ := r.Approx.Rat(nil)
	neg, digits, exp := RoundSig(q, SigDigits)
	return FormatDecimal(neg, digits, exp), false
}

// Float64 returns the converted value as the nearest float64 (for an exact
// rational, correctly rounded like Python's float(Fraction)); ok is false when
// it overflows.
func (r Result) Float64() (f float64, ok bool) {
	if r.Exact != nil {
		f, _ = r.Exact.Float64()
	} else {
		f, _ = r.Approx.Float64()
	}
	return f, !math.IsInf(f, 0)
}

// Rational reports whether the conversion factor is exact and rational, so that
// the converted value is an exact rational number.
func (r Result) Rational() bool { return r.Exact != nil }

// ApproximateConstant reports whether either unit rests on a constant given only
// as a truncated expansion (or a root computed numerically).
func (r Result) ApproximateConstant() bool { return r.From.F.Approx || r.To.F.Approx }
