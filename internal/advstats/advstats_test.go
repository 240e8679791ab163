package advstats

import (
	"context"
	"math/big"
	mrand "math/rand"
	"math/rand/v2"
	"testing"

	"github.com/precisiond/precisiond/internal/exactdec"
)

// TestInversions: the merge-sort count equals the pairwise count.
func TestInversions(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 300 {
		n := r.IntN(70)
		s := make([]int, n)
		for i := range s {
			s[i] = r.IntN(1 + trial%12)
		}
		var want int64
		for i := range s {
			for j := i + 1; j < n; j++ {
				if s[i] > s[j] {
					want++
				}
			}
		}
		got, err := inversions(context.Background(), append([]int(nil), s...))
		if err != nil || got != want {
			t.Fatalf("%v: %d inversions (%v), want %d", s, got, err, want)
		}
	}
}

// TestTQuantileCloses: the t quantile solves F(t) - 1/2 = q within its bound
// at a higher precision than it was found at, for even and odd df, and the
// bound is far below the 30th digit.
func TestTQuantileCloses(t *testing.T) {
	for _, nu := range []int64{1, 2, 3, 4, 7, 30, 101, 1000, 99999} {
		for _, q := range []*big.Rat{big.NewRat(1, 4), big.NewRat(19, 40), big.NewRat(4999, 10000), big.NewRat(1, 1000)} {
			tt, bound, err := tQuantile(context.Background(), q, nu, 192)
			if err != nil {
				t.Fatalf("df %d q %v: %v", nu, q, err)
			}
			if rel := new(big.Float).Quo(bound, tt); rel.Cmp(big.NewFloat(1e-40)) > 0 {
				t.Errorf("df %d q %v: relative bound %v", nu, q, rel)
			}
			// F at t ± 4·bound (384 bits) brackets q.
			for _, sign := range []int{-1, 1} {
				d := new(big.Float).SetPrec(384).SetMantExp(bound, 2)
				if sign < 0 {
					d.Neg(d)
				}
				at := new(big.Float).SetPrec(384).Add(tt, d)
				g := tcdfHalf(at, nu, 384)
				if c := g.Cmp(new(big.Float).SetPrec(384).SetRat(q)); c != sign {
					t.Errorf("df %d q %v: F(t %+d·4·bound) - 1/2 compares %d to q", nu, q, sign, c)
				}
			}
		}
	}
}

// TestSqrtNumber: perfect squares give fractions; an irrational root's 30
// digits d satisfy d² < x < (d + 1 ulp)² as exact rationals.
func TestSqrtNumber(t *testing.T) {
	if n := signedSqrtNumber(-1, big.NewInt(9), big.NewInt(16)); n.Fraction == nil || *n.Fraction != "-3/4" || n.Decimal != "-0.75" || !n.Exact {
		t.Errorf("-sqrt(9/16) = %+v", n)
	}
	r := mrand.New(mrand.NewSource(34))
	for range 200 {
		num := new(big.Int).Rand(r, new(big.Int).Lsh(big.NewInt(1), uint(1+r.Intn(300))))
		num.Add(num, big.NewInt(2))
		den := new(big.Int).Rand(r, new(big.Int).Lsh(big.NewInt(1), uint(1+r.Intn(300))))
		den.Add(den, big.NewInt(1))
		n := signedSqrtNumber(1, num, den)
		if n.Fraction != nil {
			continue
		}
		d, err := exactdec.Parse(n.Decimal, 40, 400)
		if err != nil {
			t.Fatalf("%s: %v", n.Decimal, err)
		}
		x := new(big.Rat).SetFrac(num, den)
		lo := d.Rat()
		ulp := exactdec.Decimal{Coef: big.NewInt(1), Exp: d.Adjusted() - (Digits - 1)}.Rat()
		half := new(big.Rat).Quo(ulp, big.NewRat(2, 1))
		a := new(big.Rat).Sub(lo, half)
		b := new(big.Rat).Add(lo, half)
		if new(big.Rat).Mul(a, a).Cmp(x) >= 0 || new(big.Rat).Mul(b, b).Cmp(x) <= 0 {
			t.Errorf("sqrt(%v/%v) = %s is not within half an ulp", num, den, n.Decimal)
		}
		if !new(big.Rat).Quo(lo, ulp).IsInt() {
			t.Errorf("%s is not rounded to %d significant digits", n.Decimal, Digits)
		}
	}
}
