package advstats

import (
	"context"
	"math/big"
	"slices"

	"github.com/precisiond/precisiond/internal/bigx"
	"github.com/precisiond/precisiond/internal/exactdec"
)

// moments holds n and the centred sums of squares and products of x and y,
// each multiplied by n (so that they stay integers): sxx = n·ΣX² - (ΣX)²
// etc. over the scaled integers X = x·10^a, Y = y·10^b.
type moments struct {
	n             int64
	a, b          int
	sx, sy        *big.Int
	sxx, syy, sxy *big.Int
}

// pairMoments computes the moments of decimal x and y, scaling one value at
// a time.
func pairMoments(ctx context.Context, x, y []exactdec.Decimal) (moments, error) {
	a, b := scale(x), scale(y)
	return intMoments(ctx, len(x), func(i int, dst *big.Int) *big.Int { return scaledInto(dst, x[i], a) },
		func(i int, dst *big.Int) *big.Int { return scaledInto(dst, y[i], b) }, a, b)
}

// intMoments computes the moments of n integer pairs that fx and fy write
// into a scratch integer.
func intMoments(ctx context.Context, n int, fx, fy func(i int, dst *big.Int) *big.Int, a, b int) (moments, error) {
	m := moments{n: int64(n), a: a, b: b, sx: new(big.Int), sy: new(big.Int)}
	xx, yy, xy, t := new(big.Int), new(big.Int), new(big.Int), new(big.Int)
	var xi, yi big.Int
	for i := range n {
		if i%4096 == 4095 {
			if err := ctx.Err(); err != nil {
				return m, err
			}
		}
		X, Y := fx(i, &xi), fy(i, &yi)
		m.sx.Add(m.sx, X)
		m.sy.Add(m.sy, Y)
		xx.Add(xx, t.Mul(X, X))
		yy.Add(yy, t.Mul(Y, Y))
		xy.Add(xy, t.Mul(X, Y))
	}
	nb := big.NewInt(m.n)
	centred := func(sum2, s1, s2 *big.Int) *big.Int {
		r := new(big.Int).Mul(nb, sum2)
		return r.Sub(r, new(big.Int).Mul(s1, s2))
	}
	m.sxx, m.syy, m.sxy = centred(xx, m.sx, m.sx), centred(yy, m.sy, m.sy), centred(xy, m.sx, m.sy)
	return m, nil
}

// Regression is ordinary least squares as scipy.stats.linregress answers it.
type Regression struct {
	Slope, Intercept Number
	RSquared         *Number // nil when every y is equal (r is then undefined)
	Stderr           *Number // the slope's standard error; nil for n = 2
	N                int
}

// checkPairs refuses x and y of different lengths or fewer than min points.
// Reasons: length_mismatch, too_few_points.
func checkPairs(x, y []exactdec.Decimal, min int) error {
	if len(x) != len(y) {
		return fail("length_mismatch", "x has %d values and y %d", len(x), len(y))
	}
	if len(x) < min {
		return fail("too_few_points", "%d points; at least %d are needed", len(x), min)
	}
	return nil
}

// LinearRegression fits y = slope·x + intercept. Reasons: length_mismatch,
// too_few_points (n < 2), zero_variance_x (every x equal: the slope is
// undefined).
func LinearRegression(ctx context.Context, x, y []exactdec.Decimal) (Regression, error) {
	if err := checkPairs(x, y, 2); err != nil {
		return Regression{}, err
	}
	m, err := pairMoments(ctx, x, y)
	if err != nil {
		return Regression{}, err
	}
	if m.sxx.Sign() == 0 {
		return Regression{}, fail("zero_variance_x", "every x is equal: the slope is undefined")
	}
	// slope = (sxy / 10^(a+b)) / (sxx / 10^(2a)) = sxy·10^a / (sxx·10^b)
	slope := new(big.Rat).SetFrac(new(big.Int).Mul(m.sxy, bigx.Pow10(m.a)), new(big.Int).Mul(m.sxx, bigx.Pow10(m.b)))
	// intercept = mean(y) - slope·mean(x)
	n := big.NewInt(m.n)
	my := new(big.Rat).SetFrac(m.sy, new(big.Int).Mul(n, bigx.Pow10(m.b)))
	mx := new(big.Rat).SetFrac(m.sx, new(big.Int).Mul(n, bigx.Pow10(m.a)))
	icpt := new(big.Rat).Sub(my, new(big.Rat).Mul(slope, mx))
	r := Regression{Slope: ratNumber(slope), Intercept: ratNumber(icpt), N: len(x)}
	if m.syy.Sign() != 0 {
		// r² = sxy² / (sxx·syy): the scales cancel.
		r2 := new(big.Rat).SetFrac(new(big.Int).Mul(m.sxy, m.sxy), new(big.Int).Mul(m.sxx, m.syy))
		v := ratNumber(r2)
		r.RSquared = &v
	}
	if m.n > 2 {
		// scipy: sqrt((1 - r²)·ssym / ssxm / (n - 2)), and (1 - r²)·syy =
		// (sxx·syy - sxy²)/sxx, so stderr² = (sxx·syy - sxy²)·10^(2a) /
		// (sxx²·10^(2b)·(n - 2)).
		num := new(big.Int).Mul(m.sxx, m.syy)
		num.Sub(num, new(big.Int).Mul(m.sxy, m.sxy))
		num.Mul(num, bigx.Pow10(2*m.a))
		den := new(big.Int).Mul(m.sxx, m.sxx)
		den.Mul(den, bigx.Pow10(2*m.b))
		den.Mul(den, big.NewInt(m.n-2))
		v := signedSqrtNumber(1, num, den)
		r.Stderr = &v
	}
	return r, nil
}

// CorrelationMethods lists the correlation methods.
var CorrelationMethods = []string{"pearson", "spearman", "kendall"}

// Correlation is scipy.stats' pearsonr, spearmanr (average ranks) or
// kendalltau (tau-b) coefficient. Reasons: unknown_method, length_mismatch,
// too_few_points (n < 2), zero_variance (x or y constant: the coefficient is
// undefined).
func Correlation(ctx context.Context, x, y []exactdec.Decimal, method string) (Number, error) {
	if !slices.Contains(CorrelationMethods, method) {
		return Number{}, fail("unknown_method", "unknown correlation method %q", method)
	}
	if err := checkPairs(x, y, 2); err != nil {
		return Number{}, err
	}
	if method == "kendall" {
		return kendall(ctx, x, y)
	}
	var m moments
	var err error
	if method == "spearman" {
		// Average ranks are half-integers: doubled, they are integers.
		rx, ry := ranks2(x), ranks2(y)
		m, err = intMoments(ctx, len(x), func(i int, dst *big.Int) *big.Int { return dst.SetInt64(rx[i]) },
			func(i int, dst *big.Int) *big.Int { return dst.SetInt64(ry[i]) }, 0, 0)
	} else {
		m, err = pairMoments(ctx, x, y)
	}
	if err != nil {
		return Number{}, err
	}
	if m.sxx.Sign() == 0 || m.syy.Sign() == 0 {
		return Number{}, fail("zero_variance", "x or y is constant: the correlation is undefined")
	}
	// r = sxy / sqrt(sxx·syy) = sign(sxy)·sqrt(sxy² / (sxx·syy))
	return signedSqrtNumber(m.sxy.Sign(), new(big.Int).Mul(m.sxy, m.sxy), new(big.Int).Mul(m.sxx, m.syy)), nil
}

// ranks2 returns twice the average ranks (1-based) of values.
func ranks2(values []exactdec.Decimal) []int64 {
	idx := order(values)
	c := newComparer(values)
	out := make([]int64, len(values))
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && c.cmp(values, idx[j+1], idx[i]) == 0 {
			j++
		}
		// positions i..j (0-based) have ranks i+1..j+1; twice their mean is i+j+2.
		for k := i; k <= j; k++ {
			out[idx[k]] = int64(i + j + 2)
		}
		i = j + 1
	}
	return out
}

// denseRanks maps values to 0-based dense ranks (equal values, equal ranks).
func denseRanks(values []exactdec.Decimal) []int {
	idx := order(values)
	c := newComparer(values)
	out := make([]int, len(values))
	r := 0
	for k, i := range idx {
		if k > 0 && c.cmp(values, i, idx[k-1]) != 0 {
			r++
		}
		out[i] = r
	}
	return out
}

// kendall is tau-b = (C - D) / sqrt((n0 - n1)(n0 - n2)) with scipy's tie
// counts, in O(n log n): the discordant pairs are the strict inversions of y
// once the pairs are sorted by (x, y) (Knight's algorithm).
func kendall(ctx context.Context, x, y []exactdec.Decimal) (Number, error) {
	rx, ry := denseRanks(x), denseRanks(y)
	n := len(rx)
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(i, j int) int {
		if rx[i] != rx[j] {
			return rx[i] - rx[j]
		}
		return ry[i] - ry[j]
	})
	ties := func(key func(k int) [2]int) int64 {
		var t int64
		for i := 0; i < n; {
			j := i
			for j+1 < n && key(j+1) == key(i) {
				j++
			}
			c := int64(j - i + 1)
			t += c * (c - 1) / 2
			i = j + 1
		}
		return t
	}
	xtie := ties(func(k int) [2]int { return [2]int{rx[idx[k]], 0} })
	ntie := ties(func(k int) [2]int { return [2]int{rx[idx[k]], ry[idx[k]]} })
	seq := make([]int, n)
	for k, i := range idx {
		seq[k] = ry[i]
	}
	sortedY := slices.Clone(seq)
	slices.Sort(sortedY)
	ytie := ties(func(k int) [2]int { return [2]int{sortedY[k], 0} })
	dis, err := inversions(ctx, seq)
	if err != nil {
		return Number{}, err
	}
	tot := int64(n) * int64(n-1) / 2
	if xtie == tot || ytie == tot {
		return Number{}, fail("zero_variance", "x or y is constant: the correlation is undefined")
	}
	cmd := big.NewInt(tot - xtie - ytie + ntie - 2*dis)
	num := new(big.Int).Mul(cmd, cmd)
	den := new(big.Int).Mul(big.NewInt(tot-xtie), big.NewInt(tot-ytie))
	return signedSqrtNumber(cmd.Sign(), num, den), nil
}

// inversions counts the pairs i < j with s[i] > s[j] by a bottom-up merge
// sort (s is reordered), checking ctx once per pass.
func inversions(ctx context.Context, s []int) (int64, error) {
	n := len(s)
	buf := make([]int, n)
	var inv int64
	for width := 1; width < n; width *= 2 {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		for lo := 0; lo < n-width; lo += 2 * width {
			mid, hi := lo+width, min(lo+2*width, n)
			i, j, k := lo, mid, lo
			for i < mid && j < hi {
				if s[j] < s[i] {
					inv += int64(mid - i)
					buf[k] = s[j]
					j++
				} else {
					buf[k] = s[i]
					i++
				}
				k++
			}
			k += copy(buf[k:], s[i:mid])
			copy(buf[k:], s[j:hi])
			copy(s[lo:hi], buf[lo:hi])
		}
	}
	return inv, nil
}
