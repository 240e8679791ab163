package expr

import (
	"math/big"
	"testing"

	"github.com/precisiond/precisiond/internal/vectors"
)

type fixedCase struct {
	W   int    `json:"w"`
	R   string `json:"r"`
	Sin string `json:"sin"`
	Cos string `json:"cos"`
	Exp string `json:"exp"`
	Pi  string `json:"pi"`
	Ln2 string `json:"ln2"`
}

func hexInt(t *testing.T, s string) *big.Int {
	t.Helper()
	v, ok := new(big.Int).SetString(s, 16)
	if !ok {
		t.Fatalf("bad hex %.40q", s)
	}
	return v
}

// TestFixedKernels checks sinCosFixed and expFixed, and the series of pi and
// ln 2 (Machin's formula and 2·atanh(1/3), their series by binary splitting
// within 2 units each), against mpmath
// (testdata/gen_fixed.py) from 64 to 50000 bits, both sides of the
// precision where they start halving their argument: within 2 units of
// 2^-w for sin and cos with halving (w >= 256), within the one unit per
// series term their callers' guard bits assume otherwise.
func TestFixedKernels(t *testing.T) {
	tick := func() {}
	n := 0
	for _, c := range vectors.Cases[fixedCase](t, "testdata/fixed.json", 30) {
		if c.Pi != "" {
			// The constants' series, before the caches' guard bits.
			for _, k := range []struct {
				name, want string
				got        *big.Int
				tol        int64
			}{
				// 16·atan(1/5) - 4·atan(1/239) and 2·atanh(1/3), each
				// series within 2 units.
				{"pi", c.Pi, piCache.calc(c.W, tick), 16*2 + 4*2}, {"ln 2", c.Ln2, ln2Cache.calc(c.W, tick), 2 * 2},
			} {
				if d := new(big.Int).Sub(k.got, hexInt(t, k.want)); d.CmpAbs(big.NewInt(k.tol)) > 0 {
					t.Errorf("%s·2^%d: off by %v units (tolerance %d)", k.name, c.W, d, k.tol)
				}
				n++
			}
			continue
		}
		r := hexInt(t, c.R)
		// A series at w bits has fewer than w/4 terms for |r| < 1.
		seriesTol := big.NewInt(int64(c.W/4 + 1))
		for _, k := range []struct {
			name string
			want string
			got  *big.Int
			tol  *big.Int
		}{
			{"sin", c.Sin, sinCosFixed(r, c.W, false, tick), map[bool]*big.Int{true: big.NewInt(2), false: seriesTol}[expHalvings(c.W) >= 8]},
			{"cos", c.Cos, sinCosFixed(r, c.W, true, tick), map[bool]*big.Int{true: big.NewInt(2), false: seriesTol}[expHalvings(c.W) >= 8]},
			{"exp", c.Exp, expFixed(r, c.W, tick), seriesTol},
		} {
			d := new(big.Int).Sub(k.got, hexInt(t, k.want))
			if d.CmpAbs(k.tol) > 0 {
				t.Errorf("%s(%.24s…/2^%d): off by %v units of 2^-%d (tolerance %v)", k.name, c.R, c.W, d, c.W, k.tol)
			}
			n++
		}
	}
	t.Logf("%d values checked", n)
}
