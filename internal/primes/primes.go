// Package primes factors integers below 2^256: trial division by the primes
// below 2^16, perfect-power detection, Pollard–Brent rho with fixed seeds (the
// whole job below 2^64, a short run above), then Lenstra's elliptic-curve method
// with a fixed curve sequence (ecm.go), so the output and the work done are
// reproducible; primality is proven by deterministic Miller–Rabin below 2^64 and
// decided by Baillie–PSW (strong base-2 Miller–Rabin plus strong Lucas with
// Selfridge's parameters) above.
//
// BPSW has no known counterexample, and none exists below 2^64; above 2^64 a
// "prime" verdict is therefore BPSW-probable, which the contract states.
package primes

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"math/bits"
	"sort"
	"strings"

	"github.com/precisiond/precisiond/internal/bigx"
)

// MaxBits is the largest input size: n < 2^MaxBits.
const MaxBits = 256

// Limits bounds the work of one factorization. Both budgets are counted in a
// machine-independent way, so a number either factors within them everywhere or
// fails everywhere.
type Limits struct {
	// RhoIterations is the budget of Pollard–Brent iterations (each one a
	// modular squaring plus a multiplication) over the whole call.
	RhoIterations int64
	// ECMWork is the budget of ECM work units over the whole call: a curve
	// costs its modular multiplications times 4, 7 or 12 for a modulus of 2, 3
	// or 4 64-bit limbs (in proportion to the cost of one multiplication).
	// A curve is paid for before it runs and refused when the rest of the
	// budget cannot pay for it.
	ECMWork int64
	// Progress, when set, is called as the work goes on with the budget spent
	// so far (Pollard–Brent iterations plus ECM work units) and the whole
	// budget: a measure that only grows, for progress reports.
	Progress func(spent, budget int64)
}

// DefaultLimits are the limits the prime_factorize tool declares.
var DefaultLimits = Limits{RhoIterations: 1 << 22, ECMWork: DefaultECMWork}

// DefaultECMWork is the default ECM work budget (see Limits.ECMWork). It is
// sized so that the budget, not the 5 s call deadline, ends a hopeless call on
// a busy machine: spending all of it took 0.45 CPU-seconds here and 0.6 under
// -race (docs/numbers-calc.md has the measurements), so the refusal comes
// long before the deadline even when the call gets a fraction of a core.
const DefaultECMWork = 120_000_000

// ShortRho is the number of Pollard–Brent iterations tried on a composite
// above 2^64 before ECM takes over: rho finds factors below about 2^30 faster
// than a curve does.
const ShortRho = 1 << 15

// ErrCostLimit is returned (wrapped) when a work budget runs out.
var ErrCostLimit = errors.New("factoring work budget exhausted")

// errShortRho ends the short rho run on a large composite.
var errShortRho = errors.New("short rho run over")

// Factor is one prime power of a factorization.
type Factor struct {
	Prime    *big.Int
	Exponent int
}

// Result is a complete factorization of N.
type Result struct {
	N          *big.Int
	Factors    []Factor // ascending primes
	IsPrime    bool
	Iterations int64 // Pollard–Brent iterations used (reproducible)
	Curves     int64 // ECM curves run (reproducible)
	ECMWork    int64 // ECM work units spent (reproducible)
}

// Factorization renders "2^3 × 3^2 × 5".
func (r *Result) Factorization() string {
	parts := make([]string, len(r.Factors))
	for i, f := range r.Factors {
		if f.Exponent == 1 {
			parts[i] = f.Prime.String()
		} else {
			parts[i] = fmt.Sprintf("%s^%d", f.Prime, f.Exponent)
		}
	}
	return strings.Join(parts, " × ")
}

// DivisorCount is the product of (exponent + 1).
func (r *Result) DivisorCount() *big.Int {
	d := big.NewInt(1)
	for _, f := range r.Factors {
		d.Mul(d, big.NewInt(int64(f.Exponent+1)))
	}
	return d
}

var smallPrimes = func() []uint64 {
	const limit = 1 << 16
	sieve := make([]bool, limit)
	var ps []uint64
	for i := 2; i < limit; i++ {
		if !sieve[i] {
			ps = append(ps, uint64(i))
			if i > limit/i {
				continue // i*i is past the limit (and may overflow a 32-bit int)
			}
			for j := i * i; j < limit; j += i {
				sieve[j] = true
			}
		}
	}
	return ps
}()

// Factorize factors n (2 <= n < 2^256) within the limits. It returns an error
// wrapping ErrCostLimit when a budget runs out, and the context's error when it
// ends.
func Factorize(ctx context.Context, n *big.Int, lim Limits) (*Result, error) {
	if n.Cmp(big.NewInt(2)) < 0 || n.BitLen() > MaxBits {
		return nil, fmt.Errorf("primes: n out of range")
	}
	f := &factorer{ctx: ctx, budget: lim.RhoIterations, cap: lim.RhoIterations, maxWork: lim.ECMWork,
		counts: map[string]int{}, primes: map[string]*big.Int{}, progress: lim.Progress}
	if err := f.run(new(big.Int).Set(n)); err != nil {
		return nil, err
	}
	res := &Result{N: new(big.Int).Set(n), Iterations: f.used, Curves: f.curves, ECMWork: f.work}
	for k, e := range f.counts {
		res.Factors = append(res.Factors, Factor{Prime: f.primes[k], Exponent: e})
	}
	sort.Slice(res.Factors, func(i, j int) bool { return res.Factors[i].Prime.Cmp(res.Factors[j].Prime) < 0 })
	res.IsPrime = len(res.Factors) == 1 && res.Factors[0].Exponent == 1
	return res, nil
}

type factorer struct {
	ctx     context.Context
	budget  int64 // rho iterations for the whole call
	cap     int64 // end of the current short rho run (<= budget)
	used    int64
	maxWork int64 // ECM work units for the whole call
	work    int64
	curves  int64
	counts  map[string]int
	primes  map[string]*big.Int
	// progress is Limits.Progress (nil: none).
	progress func(spent, budget int64)
}

// tick reports the budget spent so far to f.progress.
func (f *factorer) tick() {
	if f.progress != nil {
		f.progress(f.used+f.work, f.budget+f.maxWork)
	}
}

func (f *factorer) add(p *big.Int, e int) {
	k := p.String()
	if _, ok := f.primes[k]; !ok {
		f.primes[k] = new(big.Int).Set(p)
	}
	f.counts[k] += e
}

// modWord returns n mod m for n >= 0, m > 0, without allocating, whatever
// the size of big.Word.
func modWord(n *big.Int, m uint64) uint64 {
	ws := n.Bits()
	var r uint64
	for i := len(ws) - 1; i >= 0; i-- {
		if bits.UintSize == 64 {
			_, r = bits.Div64(r, uint64(ws[i]), m)
			continue
		}
		// r·2^32 + w, as a 128-bit dividend whose high word r>>32 is below m.
		_, r = bits.Div64(r>>32, r<<32|uint64(ws[i]), m)
	}
	return r
}

// trialGroups packs the small primes into products below 2^64, so one
// remainder of n serves several primes.
var trialGroups = func() [][]uint64 {
	var gs [][]uint64
	var cur []uint64
	prod := uint64(1)
	for _, p := range smallPrimes {
		if hi, _ := bits.Mul64(prod, p); hi != 0 {
			gs = append(gs, cur)
			cur, prod = nil, 1
		}
		cur = append(cur, p)
		prod *= p
	}
	return append(gs, cur)
}()

func (f *factorer) run(n *big.Int) error {
	for gi, g := range trialGroups {
		if gi%64 == 0 {
			if err := f.ctx.Err(); err != nil {
				return err
			}
		}
		if n.BitLen() <= 64 && g[0]*g[0] > n.Uint64() {
			break
		}
		prod := uint64(1)
		for _, p := range g {
			prod *= p
		}
		r := modWord(n, prod)
		for _, p := range g {
			if r%p != 0 {
				continue
			}
			bp := new(big.Int).SetUint64(p)
			e := 0
			for modWord(n, p) == 0 {
				n.Quo(n, bp)
				e++
			}
			f.add(bp, e)
		}
	}
	if n.Cmp(big1) == 0 {
		return nil
	}
	if n.Cmp(new(big.Int).SetUint64(1<<32)) < 0 {
		// No factor below 2^16 and n < 2^32: n is prime.
		f.add(n, 1)
		return nil
	}
	return f.split(n, 1)
}

// split factors n (no prime factor below 2^16), multiplicity mult.
func (f *factorer) split(n *big.Int, mult int) error {
	if err := f.ctx.Err(); err != nil {
		return err
	}
	if IsPrime(n) {
		f.add(n, mult)
		return nil
	}
	if r, k := perfectPower(n); k > 1 {
		return f.split(r, mult*k)
	}
	d, err := f.findFactor(n)
	if err != nil {
		return err
	}
	q := new(big.Int).Quo(n, d)
	// d and q may share primes; gcd-splitting keeps both parts honest.
	if err := f.split(d, mult); err != nil {
		return err
	}
	return f.split(q, mult)
}

// perfectPower returns (r, k) with n = r^k and k maximal, or (n, 1).
func perfectPower(n *big.Int) (*big.Int, int) {
	best, bk := n, 1
	for k := 2; k <= n.BitLen(); k++ {
		if r, ok := bigx.Root(n, k); ok {
			// Take the largest exponent by recursing on the root.
			rr, kk := perfectPower(r)
			best, bk = rr, k*kk
			break
		}
	}
	return best, bk
}

var big1 = big.NewInt(1)

// findFactor returns a proper factor of the composite n (no prime factor below
// 2^16, not a perfect power): Pollard–Brent alone below 2^64, where every
// factor is below 2^32; above, a short rho run and then ECM.
func (f *factorer) findFactor(n *big.Int) (*big.Int, error) {
	if n.IsUint64() {
		return f.brent(n)
	}
	f.cap = min(f.used+ShortRho, f.budget)
	d, err := f.brentMont(n, 1)
	f.cap = f.budget
	if err != nil && !errors.Is(err, errShortRho) && !errors.Is(err, ErrCostLimit) {
		return nil, err
	}
	if d != nil {
		return d, nil
	}
	return f.ecm(n)
}

// brent finds a non-trivial factor of the composite n with Pollard–Brent rho,
// f(x) = x² + c, x0 = 2, trying c = 1, 2, 3, ... in order.
func (f *factorer) brent(n *big.Int) (*big.Int, error) {
	if n.Bit(0) == 0 {
		return big.NewInt(2), nil
	}
	for c := uint64(1); ; c++ {
		var d *big.Int
		var err error
		if n.IsUint64() {
			var d64 uint64
			d64, err = f.brent64(n.Uint64(), c)
			if d64 != 0 {
				d = new(big.Int).SetUint64(d64)
			}
		} else if n.BitLen() <= 256 {
			d, err = f.brentMont(n, c)
		} else {
			d, err = f.brentBig(n, c)
		}
		if err != nil {
			return nil, err
		}
		if d != nil {
			return d, nil
		}
	}
}

const batch = 128

func (f *factorer) spend(k int64) error {
	f.used += k
	if f.used > f.budget {
		return fmt.Errorf("%w: %d Pollard-Brent iterations", ErrCostLimit, f.budget)
	}
	if f.used > f.cap {
		return errShortRho
	}
	if f.used%(batch*8) < k {
		f.tick()
		return f.ctx.Err()
	}
	return nil
}

func mulmod(a, b, m uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	_, r := bits.Div64(hi, lo, m)
	return r
}

func gcd64(a, b uint64) uint64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}
