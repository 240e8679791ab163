package poly

import (
	"iter"
	"math/big"
	"strings"

	"github.com/precisiond/precisiond/internal/bigx"
)

// How SymPy reaches a root decides how it is printed. sympy.solve splits an
// equation written as a product (f1*f2 = 0) and solves every factor on its
// own; each piece then goes through roots(), which
//
//   - takes x**k out, rescales x = b*z when the coefficients allow it
//     (preprocess_roots / _integer_basis: 5*x**4 + 24*x**2 - 32 is solved as
//     5*z**4 + 6*z**2 - 2 with x = 2*z, hence 2*sqrt(-3/5 + sqrt(19)/5));
//   - solves a piece that is one irreducible factor by decomposition, so a
//     biquadratic's roots come from sqrt(y) expanded into real and imaginary
//     parts (I*sqrt(3/5 + sqrt(19)/5));
//   - solves the factors of any other piece one by one, a biquadratic factor
//     by the quartic formula, which leaves sqrt(y) of a negative y as it is
//     (sqrt(1/2 - sqrt(5)/2) in x**5 - x**4 - x**3 + x**2 - x + 1).
//
// pieceCtx carries what a factor's printing needs from its piece.

type pieceCtx struct {
	basis  *big.Int // x = basis*z; nil for 1
	single bool     // the piece (x**k removed) is this one irreducible factor
}

// ctxFor returns the context of the irreducible factor h among the pieces
// (the polynomials SymPy hands to roots()).
func ctxFor(pieces []IPoly, h IPoly) pieceCtx {
	for _, p := range pieces {
		if _, ok := divExact(p, h); !ok {
			continue
		}
		q := dropZeroRoots(p).primitive()
		return pieceCtx{basis: integerBasis(q), single: polyEqual(q, h.primitive())}
	}
	return pieceCtx{}
}

func dropZeroRoots(p IPoly) IPoly {
	i := 0
	for i < len(p)-1 && p[i].Sign() == 0 {
		i++
	}
	return p[i:]
}

func polyEqual(a, b IPoly) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Cmp(b[i]) != 0 {
			return false
		}
	}
	return true
}

// scaled returns primitive(h(b*z)), the factor as roots() sees it after
// rescaling.
func scaled(h IPoly, b *big.Int) IPoly {
	if b == nil {
		return h
	}
	out := make(IPoly, len(h))
	bk := big.NewInt(1)
	for i, c := range h {
		out[i] = new(big.Int).Mul(c, bk)
		bk = new(big.Int).Mul(bk, b)
	}
	return out.primitive()
}

// integerBasis is SymPy's _integer_basis: the largest b > 1 with
// p(b*z) = m*q(z) for an integer polynomial q with smaller coefficients,
// or nil. SymPy enumerates the divisors of the coefficients' gcd; this
// takes each prime below 2^15 (and a remaining cofactor) to the highest
// power that divides every coefficient as required, which is the same
// largest divisor.
func integerBasis(p IPoly) *big.Int {
	var monoms []int
	var coeffs []*big.Int
	for i := len(p) - 1; i >= 0; i-- {
		if p[i].Sign() != 0 {
			monoms = append(monoms, i)
			coeffs = append(coeffs, new(big.Int).Abs(p[i]))
		}
	}
	if len(coeffs) < 2 || coeffs[0].Cmp(coeffs[len(coeffs)-1]) >= 0 {
		return nil
	}
	n := monoms[0]
	rc := make([]*big.Int, len(coeffs))
	rm := make([]int, len(monoms))
	for i := range coeffs {
		rc[i] = coeffs[len(coeffs)-1-i]
		rm[i] = n - monoms[len(monoms)-1-i]
	}
	rc, rm = rc[:len(rc)-1], rm[:len(rm)-1]
	if len(rm) == 1 {
		if r, exact := bigx.Root(rc[0], rm[0]); exact && r.Cmp(big.NewInt(1)) > 0 {
			return r
		}
		return nil
	}
	g := new(big.Int)
	for _, c := range rc {
		g.GCD(nil, nil, g, c)
	}
	if g.BitLen() > 4096 {
		return nil
	}
	div := big.NewInt(1)
	for _, f := range smallFactors(g) {
		t := -1
		for i, c := range rc {
			v := 0
			for x := new(big.Int).Set(c); ; v++ {
				q, r := new(big.Int).QuoRem(x, f.p, new(big.Int))
				if r.Sign() != 0 || x.Sign() == 0 {
					break
				}
				x = q
			}
			if k := v / rm[i]; t < 0 || k < t {
				t = k
			}
		}
		if t > 0 {
			div.Mul(div, new(big.Int).Exp(f.p, big.NewInt(int64(t)), nil))
		}
	}
	if div.Cmp(big.NewInt(1)) == 0 {
		return nil
	}
	return div
}

// productFactors returns the factors of an equation written as a product
// equal to zero (SymPy's solve splits it), each as the text SymPy would see;
// nil when the equation is not such a product.
func productFactors(toks []token) [][]token {
	// split at the top-level '='
	eq := -1
	for i, t := range topLevelOps(toks) {
		if t.text == "=" || t.text == "==" {
			eq = i
			break
		}
	}
	end := len(toks)
	if end > 0 && toks[end-1].kind == tEOF {
		end--
	}
	side := toks[:end]
	if eq >= 0 {
		lhs, rhs := toks[:eq], toks[eq+1:end]
		switch {
		case isZeroTokens(rhs):
			side = lhs
		case isZeroTokens(lhs):
			side = rhs
		default:
			return nil
		}
	}
	fs := splitProduct(side, 0)
	if len(fs) < 2 {
		return nil
	}
	return fs
}

func isZeroTokens(ts []token) bool {
	if len(ts) == 0 {
		return false
	}
	eq, err := Parse(joinTokens(ts), "x", DefaultLimits)
	return err == nil && len(eq.Poly) == 0
}

// equationFactors returns the factors containing the variable of an
// equation written as a product equal to zero, parsed; nil otherwise.
func equationFactors(s, v string, lim Limits) []MPoly {
	toks, err := tokenize(s)
	if err != nil {
		return nil
	}
	var out []MPoly
	for _, f := range productFactors(toks) {
		eq, err := Parse(joinTokens(f), v, lim)
		if err != nil {
			return nil
		}
		if eq.Poly.degIn(0) > 0 {
			out = append(out, eq.Poly)
		}
	}
	if len(out) < 2 {
		return nil
	}
	return out
}

// splitProduct splits a token range at top-level '*' (dropping '/'
// divisors, numbers), flattening parenthesized products and a leading sign.
func splitProduct(ts []token, level int) [][]token {
	if level > 16 || len(ts) == 0 {
		return [][]token{ts}
	}
	if ts[0].kind == tOp && (ts[0].text == "-" || ts[0].text == "+") {
		ts = ts[1:]
		if len(ts) == 0 {
			return nil
		}
	}
	if wrapped(ts) {
		return splitProduct(ts[1:len(ts)-1], level+1)
	}
	var out [][]token
	start := 0
	divisor := false
	flush := func(i int) {
		part := ts[start:i]
		if !divisor {
			if wrapped(part) {
				out = append(out, splitProduct(part, level+1)...)
			} else {
				out = append(out, part)
			}
		}
	}
	for i, t := range topLevelOps(ts) {
		switch t.text {
		case "+", "-":
			if i > 0 && operandEnd(ts[i-1]) {
				return [][]token{ts} // a sum
			}
		case "*", "/":
			flush(i)
			start = i + 1
			divisor = t.text == "/"
		}
	}
	flush(len(ts))
	return out
}

func operandEnd(t token) bool {
	return t.kind == tNum || t.kind == tIdent || (t.kind == tOp && t.text == ")")
}

// wrapped reports whether the range is one parenthesized group.
func wrapped(ts []token) bool {
	if len(ts) < 2 || ts[0].text != "(" || ts[len(ts)-1].text != ")" {
		return false
	}
	for i, t := range topLevelOps(ts) {
		if t.text == ")" && i != len(ts)-1 {
			return false
		}
	}
	return true
}

// topLevelOps yields the operator tokens of ts that stand outside every
// parenthesis, with their indices: a closing parenthesis that returns to the
// top level is yielded, opening ones never are.
func topLevelOps(ts []token) iter.Seq2[int, token] {
	return func(yield func(int, token) bool) {
		depth := 0
		for i, t := range ts {
			if t.kind != tOp {
				continue
			}
			switch t.text {
			case "(":
				depth++
				continue
			case ")":
				depth--
			}
			if depth == 0 && !yield(i, t) {
				return
			}
		}
	}
}

// joinTokens returns the texts of ts, each followed by a space, for Parse.
func joinTokens(ts []token) string {
	var b strings.Builder
	for _, t := range ts {
		b.WriteString(t.text + " ")
	}
	return b.String()
}
