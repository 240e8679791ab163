package expr

import (
	"context"
	"fmt"
	"maps"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/precisiond/precisiond/internal/bigx"
)

// MaxPrecision is the largest number of significant digits accepted.
const MaxPrecision = 1000

// Kinds of results.
const (
	KindInteger    = "integer"
	KindRational   = "rational"
	KindIrrational = "irrational"
)

// Result is an evaluated expression.
type Result struct {
	// Value is the decimal result: the exact value for integers and terminating
	// rationals, otherwise the value correctly rounded (half-even) to Precision
	// significant digits, in Python Decimal string form (e.g. 0.3333, 1.414E+50).
	Value string
	// Exact is true when Value is exactly the value of the expression.
	Exact bool
	// Fraction is the exact value as "p/q" (or "p" for integers) when the value is
	// rational, else "".
	Fraction string
	// Kind is integer, rational or irrational.
	Kind string
}

// Eval parses and evaluates src, rounding inexact results to digits significant
// digits (1..MaxPrecision). Errors are *Error (syntax, domain, cost) or the
// context's error.
func Eval(ctx context.Context, src string, digits int) (res *Result, err error) {
	if digits < 1 || digits > MaxPrecision {
		return nil, &Error{Reason: ReasonDomain, Msg: fmt.Sprintf("precision must be 1..%d", MaxPrecision)}
	}
	tree, perr := parse(src)
	if perr != nil {
		return nil, perr
	}
	ev := &evaluator{ctx: ctx}
	ev.number(tree)
	defer func() {
		if r := recover(); r != nil {
			switch e := r.(type) {
			case *Error:
				res, err = nil, e
			case abort:
				res, err = nil, e.err
			default:
				panic(r)
			}
		}
	}()
	v := ev.eval(tree)
	return ev.finish(v, digits), nil
}

// eval evaluates n once per distinct subexpression: a subtree equal to one
// evaluated before (the same operators, names and literals, see number)
// reuses its value, which values are never changed, so that a repeated
// subexpression costs nothing more and x - x is exactly 0.
func (ev *evaluator) eval(n Node) *value {
	ev.tick()
	id, ok := ev.ids[n]
	if !ok {
		id = ev.number(n)
	}
	if id < len(ev.memo) && ev.memo[id] != nil {
		return ev.memo[id]
	}
	v := ev.evalNode(n)
	if id >= len(ev.memo) {
		ev.memo = append(ev.memo, make([]*value, len(ev.keys)+1-len(ev.memo))...)
	}
	ev.memo[id] = v
	return v
}

// cseKey identifies a subexpression: its kind and operator, name or literal,
// and the numbers of its operands (a, b: the first two, more: the others).
type cseKey struct {
	kind byte
	s    string
	a, b int
	more string
}

// number gives every node of the tree the number of its subexpression (equal
// subtrees, equal numbers, from 1) in ev.ids, and returns n's.
func (ev *evaluator) number(n Node) int {
	if ev.ids == nil {
		ev.ids, ev.keys = map[Node]int{}, map[cseKey]int{}
	}
	var k cseKey
	switch n := n.(type) {
	case *numNode:
		k = cseKey{kind: 'n', s: n.src}
	case *identNode:
		k = cseKey{kind: 'i', s: n.name}
	case *unaryNode:
		k = cseKey{kind: 'u', s: n.op, a: ev.number(n.x)}
	case *percentNode:
		k = cseKey{kind: '%', a: ev.number(n.x)}
		if n.of != nil {
			k.b = ev.number(n.of)
		}
	case *binNode:
		k = cseKey{kind: 'b', s: n.op, a: ev.number(n.l), b: ev.number(n.r)}
	case *callNode:
		k = cseKey{kind: 'c', s: n.name}
		var more []byte
		for i, a := range n.args {
			switch id := ev.number(a); i {
			case 0:
				k.a = id
			case 1:
				k.b = id
			default:
				more = strconv.AppendInt(append(more, ','), int64(id), 10)
			}
		}
		k.more = string(more) // numbers start at 1: f(), f(x), f(x, y) differ in a, b
	default:
		panic(fmt.Sprintf("expr: unknown node %T", n))
	}
	id, ok := ev.keys[k]
	if !ok {
		id = len(ev.keys) + 1
		ev.keys[k] = id
	}
	ev.ids[n] = id
	return id
}

func (ev *evaluator) evalNode(n Node) *value {
	switch n := n.(type) {
	case *numNode:
		return ratV(n.v)
	case *identNode:
		switch n.name {
		case "pi":
			return piV(big.NewRat(1, 1))
		case "tau":
			return piV(big.NewRat(2, 1))
		case "e":
			return expV(big.NewRat(1, 1))
		}
		if _, ok := functions[n.name]; ok {
			fail(ReasonSyntax, "%s at position %d is a function; call it as %s(...)", n.name, n.pos, n.name)
		}
		fail(ReasonUnknownIdentifier, "unknown name %q at position %d; constants are pi, e, tau", n.name, n.pos)
	case *unaryNode:
		x := ev.eval(n.x)
		if n.op == "-" {
			return ev.neg(x)
		}
		return x
	case *percentNode:
		p := ev.div(ev.eval(n.x), intV(100))
		if n.of != nil {
			return ev.mul(p, ev.eval(n.of))
		}
		return p
	case *binNode:
		l := ev.eval(n.l)
		r := ev.eval(n.r)
		switch n.op {
		case "+":
			return ev.add(l, r)
		case "-":
			if ev.ids[n.l] == ev.ids[n.r] {
				return ratV(new(big.Rat)) // x - x, whatever x is
			}
			return ev.sub(l, r)
		case "*":
			return ev.mul(l, r)
		case "/":
			return ev.div(l, r)
		case "//":
			return ev.floorDiv(l, r)
		case "%":
			return ev.mod(l, r)
		case "**":
			return ev.pow(l, r)
		}
	case *callNode:
		return ev.call(n)
	}
	panic(fmt.Sprintf("expr: unknown node %T", n))
}

type fnSpec struct{ min, max int } // max < 0: variadic

var functions = map[string]fnSpec{
	"sqrt": {1, 1}, "abs": {1, 1}, "round": {1, 2}, "floor": {1, 1}, "ceil": {1, 1},
	"exp": {1, 1}, "log": {1, 2}, "log10": {1, 1}, "log2": {1, 1},
	"sin": {1, 1}, "cos": {1, 1}, "tan": {1, 1}, "asin": {1, 1}, "acos": {1, 1}, "atan": {1, 1},
	"factorial": {1, 1}, "gcd": {0, -1}, "lcm": {0, -1}, "min": {1, -1}, "max": {1, -1},
	"comb": {2, 2}, "perm": {1, 2}, "hypot": {0, -1}, "atan2": {2, 2},
}

// FunctionNames lists the supported functions, sorted.
func FunctionNames() []string { return slices.Sorted(maps.Keys(functions)) }

func (ev *evaluator) intArg(fn string, v *value) *big.Int {
	if !v.isInt() {
		fail(ReasonIntegerRequired, "%s() needs integer arguments", fn)
	}
	return v.q.Num()
}

func (ev *evaluator) call(n *callNode) *value {
	spec, ok := functions[n.name]
	if !ok {
		if n.name == "pi" || n.name == "e" || n.name == "tau" {
			fail(ReasonSyntax, "%s at position %d is a constant, not a function", n.name, n.pos)
		}
		fail(ReasonUnknownFunction, "unknown function %q at position %d; known: %s", n.name, n.pos, strings.Join(FunctionNames(), ", "))
	}
	if len(n.args) < spec.min || spec.max >= 0 && len(n.args) > spec.max {
		want := fmt.Sprint(spec.min)
		switch {
		case spec.max < 0:
			want = fmt.Sprintf("at least %d", spec.min)
		case spec.max != spec.min:
			want = fmt.Sprintf("%d to %d", spec.min, spec.max)
		}
		fail(ReasonArgCount, "%s() takes %s argument(s), got %d (position %d)", n.name, want, len(n.args), n.pos)
	}
	args := make([]*value, len(n.args))
	for i, a := range n.args {
		args[i] = ev.eval(a)
	}
	switch n.name {
	case "sqrt":
		return ev.sqrtOf(args[0])
	case "abs":
		return ev.absOf(args[0])
	case "floor":
		return bigV(ev.floorInt(args[0]))
	case "ceil":
		f := ev.floorInt(ev.neg(args[0]))
		return bigV(f.Neg(f))
	case "round":
		if len(args) == 1 {
			return bigV(ev.roundHalfEven(args[0], 0))
		}
		nd := ev.intArg("round", args[1])
		if nd.CmpAbs(big.NewInt(maxLiteralExp)) > 0 {
			costly(ReasonExponent, "round() ndigits must be within ±%d", maxLiteralExp)
		}
		k := nd.Int64()
		r := ev.roundHalfEven(args[0], k)
		return ev.mul(bigV(r), ev.powInt(intV(10), big.NewInt(-k)))
	case "exp":
		return ev.expOf(args[0])
	case "log":
		if len(args) == 2 {
			return ev.logBase(args[0], args[1])
		}
		return ev.logOf(args[0])
	case "log10":
		return ev.logBase(args[0], intV(10))
	case "log2":
		return ev.logBase(args[0], intV(2))
	case "sin", "cos", "tan":
		return ev.trig(n.name, args[0])
	case "asin":
		return ev.arcsin(args[0], false)
	case "acos":
		return ev.arcsin(args[0], true)
	case "atan":
		return ev.arctan(args[0])
	case "atan2":
		return ev.atan2(args[0], args[1])
	case "hypot":
		sum := intV(0)
		for _, a := range args {
			sum = ev.add(sum, ev.mul(a, a))
		}
		return ev.sqrtOf(sum)
	case "factorial":
		k := ev.intArg("factorial", args[0])
		if k.Sign() < 0 {
			fail(ReasonDomain, "factorial() not defined for negative values")
		}
		if k.Cmp(big.NewInt(MaxFactorial)) > 0 {
			costly(ReasonFactorial, "factorial(n) needs n <= %d", MaxFactorial)
		}
		if log2Factorial(float64(k.Int64())) > MaxBits+1 {
			costly(ReasonResultTooLarge, "factorial(%d) exceeds %d bits", k.Int64(), MaxBits)
		}
		f := new(big.Int).MulRange(1, max(k.Int64(), 1))
		if f.BitLen() > MaxBits {
			costly(ReasonResultTooLarge, "factorial(%d) exceeds %d bits", k.Int64(), MaxBits)
		}
		return bigV(f)
	case "gcd", "lcm":
		acc := big.NewInt(0)
		if n.name == "lcm" {
			acc = big.NewInt(1)
		}
		for _, a := range args {
			x := new(big.Int).Abs(ev.intArg(n.name, a))
			if n.name == "gcd" {
				acc = new(big.Int).GCD(nil, nil, acc, x)
				continue
			}
			if x.Sign() == 0 || acc.Sign() == 0 {
				acc = big.NewInt(0)
				continue
			}
			g := new(big.Int).GCD(nil, nil, acc, x)
			acc = new(big.Int).Mul(acc, new(big.Int).Quo(x, g))
			if acc.BitLen() > MaxBits {
				costly(ReasonResultTooLarge, "lcm exceeds %d bits", MaxBits)
			}
		}
		return bigV(acc)
	case "min", "max":
		best := args[0]
		for _, a := range args[1:] {
			c := ev.cmp(a, best)
			if n.name == "min" && c < 0 || n.name == "max" && c > 0 {
				best = a
			}
		}
		return best
	case "comb", "perm":
		nn := ev.intArg(n.name, args[0])
		var kk *big.Int
		if len(args) == 2 {
			kk = ev.intArg(n.name, args[1])
		} else {
			kk = nn
		}
		if nn.Sign() < 0 || kk.Sign() < 0 {
			fail(ReasonDomain, "%s() needs non-negative arguments", n.name)
		}
		if kk.Cmp(nn) > 0 {
			return intV(0)
		}
		return bigV(ev.combPerm(n.name == "perm", nn, kk))
	}
	panic("expr: function without implementation: " + n.name)
}

// combPerm computes perm(n,k) = n!/(n-k)! or comb(n,k) = perm(n,k)/k! for
// 0 <= k <= n, refusing results beyond MaxBits before computing them.
func (ev *evaluator) combPerm(perm bool, n, k *big.Int) *big.Int {
	if !perm {
		if nk := new(big.Int).Sub(n, k); nk.Cmp(k) < 0 {
			k = nk
		}
	}
	if k.Sign() == 0 {
		return big.NewInt(1)
	}
	// Lower bound of the result's bits: perm >= (n-k+1)^k, comb >= (n/k)^k.
	if k.BitLen() > 31 {
		costly(ReasonResultTooLarge, "result exceeds %d bits", MaxBits)
	}
	ki := k.Int64()
	var est float64
	if n.BitLen() < 1000 {
		nf, _ := new(big.Float).SetInt(n).Float64()
		kf := float64(ki)
		est = log2Factorial(nf) - log2Factorial(nf-kf)
		if !perm {
			est -= log2Factorial(kf)
		}
	} else {
		est = float64(ki) * float64(n.BitLen()-1-big.NewInt(ki).BitLen())
	}
	if est > MaxBits+64 {
		costly(ReasonResultTooLarge, "result exceeds %d bits", MaxBits)
	}
	acc := big.NewInt(1)
	t := new(big.Int)
	for i := int64(0); i < ki; i++ {
		if i%64 == 0 {
			ev.tick()
		}
		acc.Mul(acc, t.Sub(n, big.NewInt(i)))
		if !perm {
			acc.Quo(acc, big.NewInt(i+1)) // exact: product of i+1 consecutive integers
		}
	}
	if acc.BitLen() > MaxBits {
		costly(ReasonResultTooLarge, "result exceeds %d bits", MaxBits)
	}
	return acc
}

// finish turns a value into a Result.
func (ev *evaluator) finish(v *value, digits int) *Result {
	if v.k == kRat {
		q := v.q
		res := &Result{Fraction: q.RatString(), Kind: KindRational}
		if q.IsInt() {
			res.Kind = KindInteger
			res.Value = q.Num().String()
			res.Exact = true
			return res
		}
		if s, ok := terminating(q); ok {
			res.Value, res.Exact = s, true
			return res
		}
		neg, ds, e := roundRatSig(q, digits)
		res.Value = formatSci(neg, ds, e)
		return res
	}
	x := ev.real(v)
	// Known-nonzero forms may be far below 2^-decisionCap; search further for them.
	var k int
	if v.k == kReal {
		_, k = x.decide()
	} else {
		k = decideFar(x)
	}
	dbits := int(math.Ceil(float64(digits)*math.Log2(10))) + 8
	for extra := 32; ; extra *= 2 {
		p := dbits + k + extra
		m := x.approx(p)
		lo := dyadic(new(big.Int).Sub(m, big1), p)
		hi := dyadic(new(big.Int).Add(m, big1), p)
		if lo.Sign() == hi.Sign() && lo.Sign() != 0 {
			n1, d1, e1 := roundRatSig(lo, digits)
			n2, d2, e2 := roundRatSig(hi, digits)
			if n1 == n2 && d1 == d2 && e1 == e2 {
				return &Result{Value: formatSci(n1, d1, e1), Kind: KindIrrational}
			}
		}
		if extra > 8192 {
			fail(ReasonPrecisionExhausted, "cannot decide the rounding of the result to %d digits: the value lies within 2^-%d of a rounding boundary (it may be exactly rational)", digits, p)
		}
	}
}

// dyadic returns m·2^-p as a rational.
func dyadic(m *big.Int, p int) *big.Rat {
	if p >= 0 {
		return new(big.Rat).SetFrac(m, new(big.Int).Lsh(big1, uint(p)))
	}
	return new(big.Rat).SetInt(new(big.Int).Lsh(m, uint(-p)))
}

// decideFar finds k with |x| >= 2^-k for a value known to be non-zero.
func decideFar(x *real) int {
	p := 32 - x.mag()
	for step := 64; ; step *= 2 {
		p += step
		m := x.approx(p)
		a := new(big.Int).Abs(m)
		if a.Cmp(big2) >= 0 {
			a.Sub(a, big1)
			return p - a.BitLen() + 1
		}
		if p > 4*MaxBits {
			panic(&Error{Reason: ReasonPrecisionExhausted, Msg: "the result is too close to zero to round"})
		}
	}
}

// terminating returns the exact decimal expansion of q when it terminates.
func terminating(q *big.Rat) (string, bool) {
	scale, ok := bigx.TerminatingScale(q.Denom())
	if !ok {
		return "", false
	}
	num := new(big.Int).Mul(q.Num(), bigx.Pow10(scale))
	num.Quo(num, q.Denom())
	neg := num.Sign() < 0
	s := new(big.Int).Abs(num).String()
	if len(s) <= scale {
		s = strings.Repeat("0", scale-len(s)+1) + s
	}
	s = s[:len(s)-scale] + "." + s[len(s)-scale:]
	if neg {
		s = "-" + s
	}
	return s, true
}

// roundRatSig rounds q != 0 to d significant digits, half-even. It returns the
// sign, the d digits and the decimal exponent E of the first digit. It works on
// integers only: big.Rat would normalize 100000-bit operands with slow GCDs.
func roundRatSig(q *big.Rat, d int) (bool, string, int) {
	neg := q.Sign() < 0
	num := new(big.Int).Abs(q.Num())
	den := q.Denom()
	// e = floor(log10(num/den)), estimated from bit lengths, then corrected.
	e := int(math.Floor(float64(num.BitLen()-den.BitLen()) * math.Log10(2)))
	// ge reports num/den >= 10^k.
	ge := func(k int) bool {
		if k >= 0 {
			return num.Cmp(new(big.Int).Mul(den, bigx.Pow10(k))) >= 0
		}
		return new(big.Int).Mul(num, bigx.Pow10(-k)).Cmp(den) >= 0
	}
	for !ge(e) {
		e--
	}
	for ge(e + 1) {
		e++
	}
	// scaled = num·10^(d-1-e) / den, rounded half-even.
	sn, sd := new(big.Int).Set(num), new(big.Int).Set(den)
	if k := d - 1 - e; k >= 0 {
		sn.Mul(sn, bigx.Pow10(k))
	} else {
		sd.Mul(sd, bigx.Pow10(-k))
	}
	fl, rem := new(big.Int).QuoRem(sn, sd, new(big.Int))
	switch c := new(big.Int).Lsh(rem, 1).Cmp(sd); {
	case c > 0, c == 0 && fl.Bit(0) == 1:
		fl.Add(fl, big1)
	}
	ds := fl.String()
	if len(ds) > d {
		ds = ds[:d]
		e++
	}
	return neg, ds, e
}

// formatSci renders sign, digits and the exponent of the first digit the way
// Python's str(Decimal) does: plain notation when the exponent of the last
// digit is <= 0 and the first digit is not below 10^-6, else d.dddE±n.
func formatSci(neg bool, ds string, e int) string {
	exp := e - (len(ds) - 1)
	left := e + 1
	var s string
	if exp <= 0 && left > -6 {
		switch {
		case left <= 0:
			s = "0." + strings.Repeat("0", -left) + ds
		case left >= len(ds):
			s = ds
		default:
			s = ds[:left] + "." + ds[left:]
		}
	} else {
		s = ds[:1]
		if len(ds) > 1 {
			s += "." + ds[1:]
		}
		s += fmt.Sprintf("E%+d", e)
	}
	if neg {
		s = "-" + s
	}
	return s
}
