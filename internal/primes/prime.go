package primes

import "math/big"

// mrBases64 make Miller–Rabin deterministic for every n < 3.3·10^24 (and thus
// for every n < 2^64).
var mrBases64 = []int64{2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37}

// IsPrime reports whether n is prime: proven for n < 2^64 (deterministic
// Miller–Rabin), Baillie–PSW above (strong base-2 Miller–Rabin + strong Lucas).
func IsPrime(n *big.Int) bool {
	if n.Cmp(big.NewInt(2)) < 0 {
		return false
	}
	for _, p := range smallPrimes[:64] {
		if modWord(n, p) == 0 {
			return n.IsUint64() && n.Uint64() == p
		}
	}
	if n.BitLen() <= 64 {
		for _, a := range mrBases64 {
			if !strongProbablePrime(n, big.NewInt(a)) {
				return false
			}
		}
		return true
	}
	return strongProbablePrime(n, big.NewInt(2)) && strongLucas(n)
}

// strongProbablePrime is one Miller–Rabin round with base a (n odd, n > a).
func strongProbablePrime(n, a *big.Int) bool {
	nm1 := new(big.Int).Sub(n, big1)
	d := new(big.Int).Set(nm1)
	s := d.TrailingZeroBits()
	d.Rsh(d, s)
	x := new(big.Int).Exp(a, d, n)
	if x.Cmp(big1) == 0 || x.Cmp(nm1) == 0 {
		return true
	}
	for i := uint(1); i < s; i++ {
		x.Mul(x, x)
		x.Mod(x, n)
		if x.Cmp(nm1) == 0 {
			return true
		}
		if x.Cmp(big1) == 0 {
			return false
		}
	}
	return false
}

// strongLucas is the strong Lucas probable-prime test with Selfridge's method A
// parameters: D the first of 5, -7, 9, -11, ... with Jacobi(D/n) = -1, P = 1,
// Q = (1-D)/4. n must be odd and not divisible by small primes.
func strongLucas(n *big.Int) bool {
	// A perfect square has no D with Jacobi -1; it is composite.
	if r := new(big.Int).Sqrt(n); new(big.Int).Mul(r, r).Cmp(n) == 0 {
		return false
	}
	var D int64 = 5
	for {
		j := big.Jacobi(new(big.Int).Mod(big.NewInt(D), n), n)
		if j == -1 {
			break
		}
		if j == 0 && new(big.Int).Abs(big.NewInt(D)).Cmp(n) != 0 {
			return false // D shares a factor with n
		}
		if D > 0 {
			D = -(D + 2)
		} else {
			D = -D + 2
		}
	}
	P := big.NewInt(1)
	Q := big.NewInt((1 - D) / 4)
	bD := new(big.Int).Mod(big.NewInt(D), n)
	bQ := new(big.Int).Mod(Q, n)

	half := func(x *big.Int) *big.Int {
		if x.Bit(0) == 1 {
			x.Add(x, n)
		}
		return x.Rsh(x, 1)
	}

	d := new(big.Int).Add(n, big1)
	s := d.TrailingZeroBits()
	d.Rsh(d, s)

	U := big.NewInt(1)
	V := new(big.Int).Set(P)
	Qk := new(big.Int).Set(bQ)
	t := new(big.Int)
	for i := d.BitLen() - 2; i >= 0; i-- {
		// k -> 2k
		U.Mul(U, V)
		U.Mod(U, n)
		V.Mul(V, V)
		V.Sub(V, t.Lsh(Qk, 1))
		V.Mod(V, n)
		Qk.Mul(Qk, Qk)
		Qk.Mod(Qk, n)
		if d.Bit(i) == 1 {
			// k -> k+1
			nu := new(big.Int).Mul(P, U)
			nu.Add(nu, V)
			nu.Mod(nu, n)
			nv := new(big.Int).Mul(bD, U)
			nv.Add(nv, new(big.Int).Mul(P, V))
			nv.Mod(nv, n)
			U = half(nu)
			V = half(nv)
			Qk.Mul(Qk, bQ)
			Qk.Mod(Qk, n)
		}
	}
	if U.Sign() == 0 || V.Sign() == 0 {
		return true
	}
	for r := uint(1); r < s; r++ {
		V.Mul(V, V)
		V.Sub(V, t.Lsh(Qk, 1))
		V.Mod(V, n)
		if V.Sign() == 0 {
			return true
		}
		Qk.Mul(Qk, Qk)
		Qk.Mod(Qk, n)
	}
	return false
}
