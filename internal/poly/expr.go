package poly

import (
	"cmp"
	"math/big"
	"strings"
)

// This file reproduces, for the root shapes this package produces, how SymPy
// prints an expression (StrPrinter) and how sympy.solve orders solutions
// (default_sort_key). Only the shapes below are modelled:
//
//	rational            -2, 1/3
//	P + Q*sqrt(D)       D square-free integer ≠ 0, 1 (D < 0 gives the I forms)
//
// A sort key is a nested tuple compared like Python tuples.

// key is a Python-like tuple element: int, string, *big.Rat or []key.
type key any

func tup(xs ...key) []key { return xs }

func keyRank(k key) int {
	switch k.(type) {
	case int:
		return 0
	case string:
		return 1
	case *big.Rat:
		return 2
	}
	return 3
}

// cmpKey compares like Python compares tuples. Elements of different kinds
// never meet at the same position for the shapes modelled here; should they,
// they are ordered by kind instead of failing.
func cmpKey(a, b key) int {
	if ra, rb := keyRank(a), keyRank(b); ra != rb {
		return ra - rb
	}
	switch x := a.(type) {
	case int:
		return cmp.Compare(x, b.(int))
	case string:
		return strings.Compare(x, b.(string))
	case *big.Rat:
		return x.Cmp(b.(*big.Rat))
	}
	x, y := a.([]key), b.([]key)
	for i := 0; i < len(x) && i < len(y); i++ {
		if c := cmpKey(x[i], y[i]); c != 0 {
			return c
		}
	}
	return len(x) - len(y)
}

var (
	ckNumber = tup(1, 0, "Number")
	ckImag   = tup(2, 0, "ImaginaryUnit")
	ckMul    = tup(3, 0, "Mul")
	ckAdd    = tup(3, 1, "Add")
	ratOne   = big.NewRat(1, 1)
	ratHalf  = big.NewRat(1, 2)
)

func keyNum(r *big.Rat) key { return tup(ckNumber, tup(0, tup()), tup(), r) }

// keyTerm is the sort key of Q*sqrt(D) (|D| > 1), Q*I or Q*sqrt(|D|)*I.
func keyTerm(q *big.Rat, d *big.Int) key {
	if d.Sign() > 0 {
		return tup(ckNumber, tup(1, tup(d.String())), keyNum(ratHalf), q)
	}
	ad := new(big.Int).Neg(d)
	kI := tup(ckImag, tup(1, tup("I")), keyNum(ratOne), ratOne)
	if ad.Cmp(big.NewInt(1)) == 0 {
		return tup(ckImag, tup(1, tup("I")), keyNum(ratOne), q)
	}
	return tup(ckMul, tup(2, tup(keyTerm(ratOne, ad), kI)), keyNum(ratOne), q)
}

// Surd is the exact value P + Q*sqrt(D) (Q = 0 for a rational).
type Surd struct {
	P, Q *big.Rat
	D    *big.Int
}

func (s Surd) isRational() bool { return s.Q == nil || s.Q.Sign() == 0 }

// termFirst reports whether SymPy prints the sqrt term before the rational
// part (Expr.as_ordered_terms with order=None): terms are sorted by their
// complex value (real terms before imaginary ones, then by the real value),
// except that "positive number + (negative number)*sqrt(d)" keeps the number
// first.
func (s Surd) termFirst() bool {
	if s.D.Sign() < 0 {
		return false
	}
	if s.P.Sign() > 0 && s.Q.Sign() < 0 {
		return false
	}
	// compare P with Q*sqrt(D) numerically (SymPy uses Python floats)
	p, _ := s.P.Float64()
	t := termFloat(s.Q, s.D)
	return t < p
}

func termFloat(q *big.Rat, d *big.Int) float64 {
	qf, _ := q.Float64()
	df, _ := new(big.Float).SetInt(d).Float64()
	return qf * sqrtF(df)
}

func sqrtF(x float64) float64 {
	f := new(big.Float).SetPrec(64).SetFloat64(x)
	f.Sqrt(f)
	v, _ := f.Float64()
	return v
}

func (s Surd) sortKey() key {
	return viaParts(s, keyNum, keyTerm, func(first, second key) key {
		return tup(ckAdd, tup(2, tup(first, second)), keyNum(ratOne), ratOne)
	})
}

// viaParts builds what SymPy builds from s as an Add, for its sort key as for
// its printing: from the rational part alone, from the term Q·√D alone (P =
// 0), or from both in SymPy's order (termFirst) joined by sum.
func viaParts[T any](s Surd, rat func(*big.Rat) T, term func(*big.Rat, *big.Int) T, sum func(first, second T) T) T {
	if s.isRational() {
		return rat(s.P)
	}
	t := term(s.Q, s.D)
	if s.P.Sign() == 0 {
		return t
	}
	p := rat(s.P)
	if s.termFirst() {
		return sum(t, p)
	}
	return sum(p, t)
}

// ratString prints a rational as SymPy does: -2, 1/3, -7/2.
func ratString(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String()
	}
	return r.Num().String() + "/" + r.Denom().String()
}

// termString prints Q*sqrt(D) / Q*I / Q*sqrt(|D|)*I in SymPy's Mul style.
func termString(q *big.Rat, d *big.Int) string {
	var b strings.Builder
	if q.Sign() < 0 {
		b.WriteByte('-')
	}
	num := new(big.Int).Abs(q.Num())
	one := big.NewInt(1)
	var parts []string
	if num.Cmp(one) != 0 {
		parts = append(parts, num.String())
	}
	ad := new(big.Int).Abs(d)
	if ad.Cmp(one) != 0 {
		parts = append(parts, "sqrt("+ad.String()+")")
	}
	if d.Sign() < 0 {
		parts = append(parts, "I")
	}
	b.WriteString(strings.Join(parts, "*"))
	if q.Denom().Cmp(one) != 0 {
		b.WriteString("/" + q.Denom().String())
	}
	return b.String()
}

// String prints the value as SymPy's str() does.
func (s Surd) String() string {
	return viaParts(s, ratString, termString, func(first, second string) string {
		if strings.HasPrefix(second, "-") {
			return first + " - " + second[1:]
		}
		return first + " + " + second
	})
}

// Decimal prints sympy.N(value, 34) as SymPy's str() does.
func (s Surd) Decimal() string {
	if s.isRational() {
		if s.P.Sign() == 0 {
			return "0"
		}
		return mpfString(ratMpf(s.P), false)
	}
	prec := s.workPrec()
	ad := new(big.Float).SetPrec(prec).SetInt(new(big.Int).Abs(s.D))
	ad.Sqrt(ad)
	t := new(big.Float).SetPrec(prec).SetRat(s.Q)
	t.Mul(t, ad)
	if s.D.Sign() > 0 {
		v := new(big.Float).SetPrec(prec).SetRat(s.P)
		v.Add(v, t)
		return mpfString(roundMpf(v), false)
	}
	var re *big.Float
	if s.P.Sign() != 0 {
		re = ratMpf(s.P)
	}
	return complexString(re, roundMpf(t))
}

// workPrec is a working precision that survives the cancellation in
// P + Q*sqrt(D): |P² − Q²D| ≥ 1/den², so the result is at most about
// 2·(bits of P, Q, D) below the terms' magnitude.
func (s Surd) workPrec() uint {
	b := s.P.Num().BitLen() + s.P.Denom().BitLen() + s.D.BitLen()
	if s.Q != nil {
		b += s.Q.Num().BitLen() + s.Q.Denom().BitLen()
	}
	return uint(320 + 2*b)
}

// IsReal reports whether the value is real.
func (s Surd) IsReal() bool { return s.isRational() || s.D.Sign() > 0 }
