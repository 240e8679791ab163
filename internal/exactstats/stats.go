package exactstats

import (
	"context"
	"math"
	"math/big"
	"slices"
	"strings"

	"github.com/precisiond/precisiond/internal/bigx"
	"github.com/precisiond/precisiond/internal/exactdec"
)

// Precision is the number of significant digits of results that do not terminate.
const Precision = 34

// maxExactDigits bounds the significant digits of an exact (terminating) result;
// longer expansions are rounded to Precision digits and flagged inexact.
const maxExactDigits = 200

// MaxRootBits bounds the total size (sum of bit lengths of the scaled values) for
// harmonic_mean, which sums exact reciprocals over a common denominator.
const MaxRootBits = 2_000_000

// Operations lists every operation, in documentation order.
var Operations = []string{"count", "sum", "mean", "median", "mode", "multimode", "min", "max",
	"range", "variance", "stdev", "pvariance", "pstdev", "geometric_mean", "harmonic_mean", "quantiles"}

// DefaultOperations is the default selection (wire-compatible).
const DefaultOperations = "mean,median,stdev,min,max,sum,count"

// Result is one operation's answer: Value for scalars, Values for multimode and
// quantiles; Exact says every string is the exact value.
type Result struct {
	Value  *string
	Values []string
	Exact  bool
}

// Options are the quantiles parameters (Python's n and method).
type Options struct {
	QuantilesN      int
	QuantilesMethod string // exclusive | inclusive
}

// ParseOperations splits "mean, median" (or takes a list), trims, drops
// duplicates keeping the first, and checks every name. Reasons: no_operations,
// unknown_operation.
func ParseOperations(list []string) ([]string, error) {
	var out []string
	for _, op := range list {
		op = strings.TrimSpace(op)
		if op == "" {
			continue
		}
		if !slices.Contains(Operations, op) {
			return nil, fail("unknown_operation", "unknown operation %s (known: %s)", short(op), strings.Join(Operations, ", "))
		}
		if !slices.Contains(out, op) {
			out = append(out, op)
		}
	}
	if len(out) == 0 {
		return nil, fail("no_operations", "no operation requested")
	}
	return out, nil
}

// data is the parsed sample, scaled to integers: x_i = X[i] / 10^S.
type data struct {
	X      []*big.Int
	S      int
	sorted []*big.Int
	den    *big.Int // 10^S

	modeCache []*big.Int
}

func (d *data) sortedX() []*big.Int {
	if d.sorted == nil {
		d.sorted = slices.Clone(d.X)
		slices.SortStableFunc(d.sorted, func(a, b *big.Int) int { return a.Cmp(b) })
	}
	return d.sorted
}

// Compute runs the operations on the values. Errors are *Error (reasons
// empty_data, needs_at_least_two_values, negative_value, harmonic_mean_too_costly)
// or the context's error.
func Compute(ctx context.Context, values []exactdec.Decimal, ops []string, opt Options) (map[string]Result, error) {
	if len(values) == 0 {
		return nil, fail("empty_data", "no data values")
	}
	xs, s := scaled(values)
	d := &data{X: xs, S: s, den: bigx.Pow10(s)}
	// Cost limits are checked before any operation runs.
	if slices.Contains(ops, "harmonic_mean") {
		if err := d.harmonicCost(); err != nil {
			return nil, err
		}
	}
	out := make(map[string]Result, len(ops))
	for _, op := range ops {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		r, err := d.run(ctx, op, opt)
		if err != nil {
			return nil, err
		}
		out[op] = r
	}
	return out, nil
}

func (d *data) n() int64 { return int64(len(d.X)) }

func scalar(s string, exact bool) Result { return Result{Value: &s, Exact: exact} }

// rat renders num/den (den > 0) as a scalar result.
func rat(num, den *big.Int) Result {
	s, exact := RatString(num, den)
	return scalar(s, exact)
}

func (d *data) value(x *big.Int) Result { return rat(x, d.den) }

func (d *data) sum() *big.Int {
	t := new(big.Int)
	for _, x := range d.X {
		t.Add(t, x)
	}
	return t
}

// sumSquares returns n·ΣX² − (ΣX)², the numerator shared by the variances.
func (d *data) spread() *big.Int {
	sum, sq := new(big.Int), new(big.Int)
	var t big.Int
	for _, x := range d.X {
		sum.Add(sum, x)
		sq.Add(sq, t.Mul(x, x))
	}
	sq.Mul(sq, big.NewInt(d.n()))
	return sq.Sub(sq, sum.Mul(sum, sum))
}

func (d *data) run(ctx context.Context, op string, opt Options) (Result, error) {
	n := d.n()
	bn := big.NewInt(n)
	switch op {
	case "count":
		return scalar(bn.String(), true), nil
	case "sum":
		return d.value(d.sum()), nil
	case "mean":
		return rat(d.sum(), new(big.Int).Mul(bn, d.den)), nil
	case "median":
		x := d.sortedX()
		if n%2 == 1 {
			return d.value(x[n/2]), nil
		}
		t := new(big.Int).Add(x[n/2-1], x[n/2])
		return rat(t, new(big.Int).Lsh(d.den, 1)), nil
	case "min":
		return d.value(d.sortedX()[0]), nil
	case "max":
		return d.value(d.sortedX()[n-1]), nil
	case "range":
		x := d.sortedX()
		return d.value(new(big.Int).Sub(x[n-1], x[0])), nil
	case "mode", "multimode":
		modes := d.modes()
		if op == "mode" {
			return d.value(modes[0]), nil
		}
		vals := make([]string, len(modes))
		for i, m := range modes {
			vals[i], _ = RatString(m, d.den) // X/10^S always terminates
		}
		return Result{Values: vals, Exact: true}, nil
	case "variance", "stdev", "pvariance", "pstdev":
		sample := op == "variance" || op == "stdev"
		if sample && n < 2 {
			return Result{}, fail("needs_at_least_two_values", "%s needs at least two data values", op)
		}
		den := new(big.Int).Mul(d.den, d.den)
		if sample {
			den.Mul(den, big.NewInt(n*(n-1)))
		} else {
			den.Mul(den, big.NewInt(n))
			den.Mul(den, bn)
		}
		num := d.spread()
		if op == "variance" || op == "pvariance" {
			return rat(num, den), nil
		}
		s, exact := SqrtRatString(num, den)
		return scalar(s, exact), nil
	case "geometric_mean":
		return d.geometricMean(ctx)
	case "harmonic_mean":
		return d.harmonicMean(ctx)
	case "quantiles":
		return d.quantiles(opt)
	}
	return Result{}, fail("unknown_operation", "unknown operation %s", short(op))
}

// modes returns the most common values in order of first occurrence (Python's
// multimode; mode is the first of them). Equal values are found as runs of the
// sorted order, so no hashing of big numbers is needed.
func (d *data) modes() []*big.Int {
	if d.modeCache != nil {
		return d.modeCache
	}
	idx := make([]int, len(d.X))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return d.X[a].Cmp(d.X[b]) })
	type run struct{ first, count int }
	var runs []run
	best := 0
	for i := 0; i < len(idx); {
		j := i + 1
		for j < len(idx) && d.X[idx[j]].Cmp(d.X[idx[i]]) == 0 {
			j++
		}
		// Stable sort: idx[i] is the first occurrence of this value.
		runs = append(runs, run{first: idx[i], count: j - i})
		best = max(best, j-i)
		i = j
	}
	var firsts []int
	for _, r := range runs {
		if r.count == best {
			firsts = append(firsts, r.first)
		}
	}
	slices.Sort(firsts)
	out := make([]*big.Int, len(firsts))
	for i, f := range firsts {
		out[i] = d.X[f]
	}
	d.modeCache = out
	return out
}

func (d *data) quantiles(opt Options) (Result, error) {
	x := d.sortedX()
	ld := int64(len(x))
	if ld < 2 {
		return Result{}, fail("needs_at_least_two_values", "quantiles needs at least two data values")
	}
	n := int64(opt.QuantilesN)
	den := new(big.Int).Mul(d.den, big.NewInt(n))
	vals := make([]string, 0, n-1)
	exact := true
	var a, b big.Int
	for i := int64(1); i < n; i++ {
		var lo, hi *big.Int
		var delta int64
		if opt.QuantilesMethod == "inclusive" {
			m := ld - 1
			j := i * m / n
			delta = i*m - j*n
			lo, hi = x[j], x[j+1]
		} else {
			m := ld + 1
			j := i * m / n
			j = max(1, min(ld-1, j))
			delta = i*m - j*n
			lo, hi = x[j-1], x[j]
		}
		a.Mul(lo, big.NewInt(n-delta))
		b.Mul(hi, big.NewInt(delta))
		num := new(big.Int).Add(&a, &b)
		s, ex := RatString(num, den)
		exact = exact && ex
		vals = append(vals, s)
	}
	return Result{Values: vals, Exact: exact}, nil
}

// harmonicMean is n / Σ(1/x_i) exactly, as Python 3.11's harmonic_mean.
func (d *data) harmonicMean(ctx context.Context) (Result, error) {
	// Python scans in order: the first negative value is an error, the first zero
	// (before any negative) makes the result 0.
	for _, x := range d.X {
		switch x.Sign() {
		case -1:
			return Result{}, fail("negative_value", "harmonic_mean is not defined for negative values")
		case 0:
			return scalar("0", true), nil
		}
	}
	if len(d.X) == 1 {
		return d.value(d.X[0]), nil
	}
	if err := d.harmonicCost(); err != nil {
		return Result{}, err
	}
	// Σ 1/X_i = P/Q by binary splitting (balanced products keep it fast).
	p, q, err := reciprocalSum(ctx, d.X)
	if err != nil {
		return Result{}, err
	}
	// hm = n / (10^S · P/Q) = n·Q / (10^S·P)
	num := q.Mul(q, big.NewInt(d.n()))
	den := p.Mul(p, d.den)
	return rat(num, den), nil
}

// harmonicCost refuses a harmonic mean whose exact reciprocal sum would exceed
// MaxRootBits; data that short-cuts (a zero or negative value first) costs nothing.
func (d *data) harmonicCost() error {
	bits := 0
	for _, x := range d.X {
		if x.Sign() <= 0 {
			return nil
		}
		bits += x.BitLen()
	}
	if bits > MaxRootBits {
		return costly("harmonic_mean_too_costly", "harmonic_mean over values totalling %d bits exceeds %d bits", bits, MaxRootBits)
	}
	return nil
}

func reciprocalSum(ctx context.Context, xs []*big.Int) (*big.Int, *big.Int, error) {
	if len(xs) == 1 {
		return big.NewInt(1), new(big.Int).Set(xs[0]), nil
	}
	if len(xs) >= 1024 {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
	}
	m := len(xs) / 2
	p1, q1, err := reciprocalSum(ctx, xs[:m])
	if err != nil {
		return nil, nil, err
	}
	p2, q2, err := reciprocalSum(ctx, xs[m:])
	if err != nil {
		return nil, nil, err
	}
	p := new(big.Int).Mul(p1, q2)
	p.Add(p, new(big.Int).Mul(p2, q1))
	q := q1.Mul(q1, q2)
	// Reduce while the numbers are small (a gcd is quadratic): repeated or
	// related values then keep the fraction tiny all the way up.
	if q.BitLen() <= reduceBits {
		g := new(big.Int).GCD(nil, nil, p, q)
		if g.BitLen() > 1 {
			p.Quo(p, g)
			q.Quo(q, g)
		}
	}
	return p, q, nil
}

// reduceBits bounds the size up to which partial sums are reduced by their gcd.
const reduceBits = 1 << 13

// geometricMean is (Π x_i)^(1/n): 0 when a value is 0 (Python 3.12+), negative
// values refused. The root is computed in binary floating point with far more
// precision than needed (relative error below 10^-130) and then rounded to
// Precision digits; a result that is within 10^-78 of a decimal of at most 70
// digits is proved exact when that is affordable.
func (d *data) geometricMean(ctx context.Context) (Result, error) {
	for _, x := range d.X {
		if x.Sign() < 0 {
			return Result{}, fail("negative_value", "geometric_mean is not defined for negative values")
		}
	}
	for _, x := range d.X {
		if x.Sign() == 0 {
			return scalar("0", true), nil
		}
	}
	const prec = 480
	prod := new(big.Float).SetPrec(prec).SetInt64(1)
	var f big.Float
	f.SetPrec(prec)
	for i, x := range d.X {
		if i%4096 == 4095 {
			if err := ctx.Err(); err != nil {
				return Result{}, err
			}
		}
		prod.Mul(prod, f.SetInt(x))
	}
	root := nthRoot(prod, d.n(), prec)
	// Divide by 10^S exactly enough: both are far more precise than 34 digits.
	root.Quo(root, new(big.Float).SetPrec(prec).SetInt(d.den))
	text := root.Text('e', 80) // d.ddd…e±X, correctly rounded from the binary value
	mant, exp := splitE(text)
	digits := strings.Replace(mant, ".", "", 1)
	coef, _ := new(big.Int).SetString(digits, 10)
	approx := exactdec.Decimal{Coef: coef, Exp: exp - (len(digits) - 1)}
	// If the 81 digits are (to within the last few) a decimal of at most 70
	// significant digits followed by zeros or nines, the root may be exactly that
	// decimal: prove it when affordable.
	for p := 1; p <= 70; p++ {
		tail := digits[p : len(digits)-2]
		if strings.Trim(tail, "0") == "" || strings.Trim(tail, "9") == "" {
			cand, _ := exactdec.RoundSig(approx, p, exactdec.HalfEven)
			if d.verifyRoot(ctx, cand) {
				return scalar(exactdec.Plain(cand), true), nil
			}
			break
		}
	}
	rounded, _ := exactdec.RoundSig(approx, Precision, exactdec.HalfEven)
	return scalar(exactdec.Fixed(rounded), false), nil
}

// verifyRoot reports whether r^n == Π X_i / 10^(S·n) exactly, when the numbers
// involved stay under a few million bits; otherwise false.
func (d *data) verifyRoot(ctx context.Context, r exactdec.Decimal) bool {
	// r = C·10^e with C stripped of trailing zeros.
	c := new(big.Int).Set(r.Coef)
	e := r.Exp
	var q, m big.Int
	for c.Sign() != 0 {
		q.QuoRem(c, big.NewInt(10), &m)
		if m.Sign() != 0 {
			break
		}
		c.Set(&q)
		e++
	}
	n := d.n()
	total := 0
	for _, x := range d.X {
		total += x.BitLen()
	}
	if total > 4_000_000 || int64(c.BitLen())*n > 4_000_000 {
		return false
	}
	prod, err := product(ctx, d.X)
	if err != nil {
		return false
	}
	// C^n · 10^(e·n) == prod · 10^(-S·n)  ⇔  C^n · 10^((e+S)·n) == prod
	lhs := new(big.Int).Exp(c, big.NewInt(n), nil)
	k := (int64(e) + int64(d.S)) * n
	rhs := prod
	if k >= 0 {
		lhs.Mul(lhs, bigx.Pow10(int(k)))
	} else {
		rhs = new(big.Int).Mul(prod, bigx.Pow10(int(-k)))
	}
	return lhs.Cmp(rhs) == 0
}

func product(ctx context.Context, xs []*big.Int) (*big.Int, error) {
	if len(xs) == 1 {
		return new(big.Int).Set(xs[0]), nil
	}
	if len(xs) >= 1024 {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	m := len(xs) / 2
	a, err := product(ctx, xs[:m])
	if err != nil {
		return nil, err
	}
	b, err := product(ctx, xs[m:])
	if err != nil {
		return nil, err
	}
	return a.Mul(a, b), nil
}

// nthRoot returns p^(1/n) for p > 0 by Newton's iteration from a float64 guess.
func nthRoot(p *big.Float, n int64, prec uint) *big.Float {
	if n == 1 {
		return new(big.Float).SetPrec(prec).Set(p)
	}
	mant := new(big.Float)
	e := p.MantExp(mant) // p = mant · 2^e, 0.5 <= mant < 1
	mf, _ := mant.Float64()
	l := (float64(e) + math.Log2(mf)) / float64(n)
	fl := math.Floor(l)
	y := new(big.Float).SetPrec(prec).SetFloat64(math.Exp2(l - fl))
	y.SetMantExp(y, int(fl))
	bn := new(big.Float).SetPrec(prec).SetInt64(n)
	bn1 := new(big.Float).SetPrec(prec).SetInt64(n - 1)
	for range 12 {
		// y ← ((n−1)·y + p / y^(n−1)) / n
		t := powFloat(y, n-1, prec)
		t.Quo(p, t)
		u := new(big.Float).SetPrec(prec).Mul(bn1, y)
		u.Add(u, t)
		u.Quo(u, bn)
		if u.Cmp(y) == 0 {
			break
		}
		y = u
	}
	return y
}

func powFloat(x *big.Float, n int64, prec uint) *big.Float {
	r := new(big.Float).SetPrec(prec).SetInt64(1)
	b := new(big.Float).SetPrec(prec).Set(x)
	for n > 0 {
		if n&1 == 1 {
			r.Mul(r, b)
		}
		n >>= 1
		if n > 0 {
			b.Mul(b, b)
		}
	}
	return r
}

func splitE(s string) (string, int) {
	i := strings.IndexByte(s, 'e')
	exp := 0
	sign := 1
	j := i + 1
	if s[j] == '-' {
		sign = -1
	}
	for _, ch := range s[j+1:] {
		exp = exp*10 + int(ch-'0')
	}
	return s[:i], sign * exp
}
