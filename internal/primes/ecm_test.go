package primes

import (
	"context"
	"errors"
	"math/big"
	"math/rand/v2"
	"testing"
)

// affineX returns X/Z as a plain integer mod n (Z invertible).
func affineX(t *testing.T, m *mont, p point) *big.Int {
	t.Helper()
	x := m.toBig(m.fromMont(p.x))
	z := m.toBig(m.fromMont(p.z))
	inv := new(big.Int).ModInverse(z, m.nb)
	if inv == nil {
		t.Fatalf("Z not invertible")
	}
	return x.Mul(x, inv).Mod(x, m.nb)
}

// testCurve is the Suyama curve for sigma modulo the prime 2^127 - 1, where
// every non-zero Z is invertible.
func testCurve(t *testing.T, sigma int64) (*curve, point) {
	t.Helper()
	n := new(big.Int).Sub(new(big.Int).Lsh(big1, 127), big1)
	m := newMont(n)
	s := big.NewInt(sigma)
	u := new(big.Int).Sub(new(big.Int).Mul(s, s), big.NewInt(5))
	v := new(big.Int).Lsh(s, 2)
	u3 := new(big.Int).Exp(u, big.NewInt(3), n)
	v3 := new(big.Int).Exp(v, big.NewInt(3), n)
	// a24 = (v-u)^3 (3u+v) / (16 u^3 v), computed independently of ecmCurve.
	num := new(big.Int).Sub(v, u)
	num.Exp(num, big.NewInt(3), n)
	num.Mul(num, new(big.Int).Add(new(big.Int).Mul(u, big.NewInt(3)), v))
	den := new(big.Int).Mul(big.NewInt(16), u3)
	den.Mul(den, v)
	a24 := num.Mul(num, new(big.Int).ModInverse(den.Mod(den, n), n)).Mod(num, n)
	return &curve{m: m, a24: m.to(a24)}, point{x: m.to(u3), z: m.to(v3)}
}

// TestLadderMatchesChain checks dbl, add and the ladder against the chain
// P, 2P, 3P, ... built from differential additions alone, and checks the
// x-only doubling against the affine formula x(2P) = (x²-1)² / (4x(x²+Ax+1)).
func TestLadderMatchesChain(t *testing.T) {
	for _, sigma := range []int64{6, 7, 11, 1000} {
		c, p := testCurve(t, sigma)
		m := c.m
		n := m.nb
		prev, cur := p, c.dbl(&p)
		// A = 4·a24 - 2.
		A := new(big.Int).Lsh(m.toBig(m.fromMont(c.a24)), 2)
		A.Sub(A, big.NewInt(2))
		x := affineX(t, m, p)
		x2 := new(big.Int).Mul(x, x)
		num := new(big.Int).Sub(x2, big1)
		num.Mul(num, num)
		den := new(big.Int).Add(x2, new(big.Int).Mul(A, x))
		den.Add(den, big1).Mul(den, x).Lsh(den, 2).Mod(den, n)
		want2 := num.Mul(num, new(big.Int).ModInverse(den, n)).Mod(num, n)
		if got := affineX(t, m, cur); got.Cmp(want2) != 0 {
			t.Fatalf("sigma %d: x(2P) = %s, want %s", sigma, got, want2)
		}
		// addZ1 with the normalized base point agrees with add.
		pn := point{x: m.to(affineX(t, m, p)), z: m.to(big1)}
		a, b := c.ladder(&pn, 7), c.ladder(&pn, 8)
		if got, want := affineX(t, m, c.addZ1(&b, &a, pn.x)), affineX(t, m, c.add(&b, &a, &pn)); got.Cmp(want) != 0 {
			t.Fatalf("sigma %d: addZ1 %s, add %s", sigma, got, want)
		}
		for k := uint64(2); k <= 300; k++ {
			if got, want := affineX(t, m, c.ladder(&p, k)), affineX(t, m, cur); got.Cmp(want) != 0 {
				t.Fatalf("sigma %d: ladder(%d) = %s, chain %s", sigma, k, got, want)
			}
			prev, cur = cur, c.add(&cur, &p, &prev)
		}
	}
}

// TestNormalize checks the batched inversion against math/big.
func TestNormalize(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	n := new(big.Int).Sub(new(big.Int).Lsh(big1, 255), big.NewInt(19))
	m := newMont(n)
	var xs, zs []limbs
	var want []*big.Int
	for range 50 {
		x := new(big.Int).Mod(randBits(rng, 255), n)
		z := new(big.Int).Mod(randBits(rng, 255), n)
		xs, zs = append(xs, m.to(x)), append(zs, m.to(z))
		w := new(big.Int).Mul(x, new(big.Int).ModInverse(z, n))
		want = append(want, w.Mod(w, n))
	}
	if d, ok := normalize(m, xs, zs); !ok {
		t.Fatalf("normalize failed: %v", d)
	}
	for i := range xs {
		if got := m.toBig(m.fromMont(xs[i])); got.Cmp(want[i]) != 0 {
			t.Fatalf("%d: got %s want %s", i, got, want[i])
		}
	}
	// A zero Z modulo one prime of a composite modulus reveals that prime.
	p := new(big.Int).Sub(new(big.Int).Lsh(big1, 61), big1)
	q := new(big.Int).Sub(new(big.Int).Lsh(big1, 89), big1)
	nc := new(big.Int).Mul(p, q)
	mc := newMont(nc)
	xs = []limbs{mc.to(big.NewInt(5)), mc.to(big.NewInt(7))}
	zs = []limbs{mc.to(big.NewInt(3)), mc.to(new(big.Int).Mul(p, big.NewInt(11)))}
	if d, ok := normalize(mc, xs, zs); ok || d == nil || d.Cmp(p) != 0 {
		t.Fatalf("got %v, %v; want the factor %s", d, ok, p)
	}
}

// TestECMSplits runs ECM alone (no rho) on products of two primes of 9 to 14
// digits and checks that it returns a proper factor, the same one with the
// same number of curves on a second run.
func TestECMSplits(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for i := range 8 {
		p := nextPrime(randDigits(rng, 9+i%6))
		q := nextPrime(randDigits(rng, 20+i%5))
		n := new(big.Int).Mul(p, q)
		var got [2]*big.Int
		var curves [2]int64
		for run := range 2 {
			f := &factorer{ctx: context.Background(), budget: 0, cap: 0, maxWork: DefaultECMWork}
			d, err := f.ecm(n)
			if err != nil {
				t.Fatalf("%s = %s·%s: %v", n, p, q, err)
			}
			if d == nil || new(big.Int).Mod(n, d).Sign() != 0 || d.Cmp(big1) == 0 || d.Cmp(n) == 0 {
				t.Fatalf("%s: %v is not a proper factor", n, d)
			}
			got[run], curves[run] = d, f.curves
		}
		if got[0].Cmp(got[1]) != 0 || curves[0] != curves[1] {
			t.Fatalf("%s: runs differ: %s after %d curves, %s after %d", n, got[0], curves[0], got[1], curves[1])
		}
	}
}

// TestCostLimitAccounting spends an ECM budget on a 60-digit balanced
// semiprime and checks the refusal and the accounting: curves are paid for
// before they run, so the work never exceeds the budget, and the refusal comes
// only when the rest cannot pay for the next curve. (The golden vectors check
// the real budget through the tool.)
//
// With the default budget it is the deterministic refusal the tool gives: the
// budget, not the clock, ends the call, and two runs spend the same work.
func TestCostLimitAccounting(t *testing.T) {
	n, _ := new(big.Int).SetString("30000000000000000000000000371803000000000000000000000009807031", 10) // (10^30+57)(3·10^31+...)
	budgets := []int64{1 << 24, DefaultECMWork}
	if testing.Short() {
		budgets = budgets[:1] // the default budget costs seconds of ECM; the full run checks it
	}
	for _, budget := range budgets {
		var spent [2]int64
		for run := range spent {
			f := &factorer{ctx: context.Background(), budget: DefaultLimits.RhoIterations, cap: DefaultLimits.RhoIterations,
				maxWork: budget, counts: map[string]int{}, primes: map[string]*big.Int{}}
			err := f.split(n, 1)
			if !errors.Is(err, ErrCostLimit) {
				t.Fatalf("budget %d: got %v, want the work limit", budget, err)
			}
			// 60 digits: 4 limbs, weight 12. Find the level of the refused curve.
			var next int64
			for i, seen := 0, int64(0); ; i++ {
				if seen += int64(ecmLevels[i].Curves); f.curves < seen {
					next = ecmLevels[i].cost * 12
					break
				}
			}
			if f.work > budget || f.work+next <= budget || f.curves < 20 {
				t.Fatalf("work %d of %d after %d curves (next curve costs %d)", f.work, budget, f.curves, next)
			}
			spent[run] = f.work
		}
		if spent[0] != spent[1] {
			t.Fatalf("budget %d: runs spent %d and %d", budget, spent[0], spent[1])
		}
	}
}

// TestECMContext checks that a cancelled context ends ECM with its error.
func TestECMContext(t *testing.T) {
	n, _ := new(big.Int).SetString("30000000000000000000000000371803000000000000000000000009807031", 10)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	f := &factorer{ctx: ctx, maxWork: DefaultECMWork}
	d, err := f.ecm(n)
	if !errors.Is(err, context.Canceled) || d != nil || f.curves != 1 {
		t.Fatalf("got %v, %v after %d curves; want context.Canceled in the first", d, err, f.curves)
	}
}

func randDigits(rng *rand.Rand, d int) *big.Int {
	lo := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(d-1)), nil)
	x := new(big.Int).Mod(randBits(rng, 4*d), new(big.Int).Mul(lo, big.NewInt(8)))
	return x.Add(x, lo)
}

func nextPrime(x *big.Int) *big.Int {
	p := new(big.Int).Set(x)
	for !p.ProbablyPrime(20) {
		p.Add(p, big1)
	}
	return p
}

// TestConcurrentFactorize factors the same 30-digit semiprime from several
// goroutines at once (the schedule's tables are built once and shared) and
// checks every answer and its work count.
func TestConcurrentFactorize(t *testing.T) {
	n, _ := new(big.Int).SetString("600000000000184300000000001869", 10) // 300000000000089 × 2000000000000021
	type out struct {
		text string
		work int64
		err  error
	}
	ch := make(chan out)
	for range 4 {
		go func() {
			r, err := Factorize(context.Background(), n, DefaultLimits)
			if err != nil {
				ch <- out{err: err}
				return
			}
			ch <- out{text: r.Factorization(), work: r.ECMWork}
		}()
	}
	var first out
	for i := range 4 {
		o := <-ch
		if o.err != nil || o.text != "300000000000089 × 2000000000000021" {
			t.Fatalf("got %q, %v", o.text, o.err)
		}
		if i == 0 {
			first = o
		} else if o.work != first.work {
			t.Fatalf("work differs between runs: %d and %d", o.work, first.work)
		}
	}
}
