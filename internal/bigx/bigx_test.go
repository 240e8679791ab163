package bigx

import (
	"math/big"
	"math/rand/v2"
	"testing"
)

func TestPow10(t *testing.T) {
	p := big.NewInt(1)
	for n := 0; n <= pow10Cached+3; n++ {
		if got := Pow10(n); got.Cmp(p) != 0 {
			t.Fatalf("Pow10(%d) = %v", n, got)
		}
		p.Mul(p, big.NewInt(10))
	}
	if got := Pow10(5000).String(); len(got) != 5001 || got[0] != '1' {
		t.Fatalf("Pow10(5000) has %d digits", len(got))
	}
	defer func() {
		if recover() == nil {
			t.Fatal("Pow10(-1) did not panic")
		}
	}()
	Pow10(-1)
}

func TestPow10Rat(t *testing.T) {
	for _, c := range []struct {
		e    int
		want string
	}{{0, "1/1"}, {3, "1000/1"}, {-2, "1/100"}, {-2100, "1/1" + zeros(2100)}} {
		r := Pow10Rat(c.e)
		if r.String() != c.want {
			t.Errorf("Pow10Rat(%d) = %s", c.e, r)
		}
		// The result is the caller's: changing it leaves the shared table alone.
		r.Mul(r, big.NewRat(7, 1))
	}
	if Pow10(3).Int64() != 1000 || Pow10(2).Int64() != 100 {
		t.Fatal("the shared table was modified through a Pow10Rat result")
	}
}

func zeros(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = '0'
	}
	return string(b)
}

// TestRootAgainstPowers checks Root against exact powers and their neighbours:
// floor((r^k)^(1/k)) = r, floor((r^k - 1)^(1/k)) = r - 1, and
// floor((r^k + 1)^(1/k)) = r, for many r and k.
func TestRootAgainstPowers(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 400 {
		k := 1 + rng.IntN(12)
		buf := make([]byte, 1+rng.IntN(40))
		for i := range buf {
			buf[i] = byte(rng.Uint32())
		}
		r := new(big.Int).SetBytes(buf)
		r.Add(r, big.NewInt(2))
		n := new(big.Int).Exp(r, big.NewInt(int64(k)), nil)
		if got, exact := Root(n, k); got.Cmp(r) != 0 || !exact {
			t.Fatalf("Root(%v^%d) = %v, %v", r, k, got, exact)
		}
		below := new(big.Int).Sub(n, big.NewInt(1))
		want := new(big.Int).Sub(r, big.NewInt(1))
		if got, exact := Root(below, k); got.Cmp(want) != 0 || exact != (k == 1) {
			t.Fatalf("Root(%v^%d - 1) = %v, %v", r, k, got, exact)
		}
		above := new(big.Int).Add(n, big.NewInt(1))
		want = r
		if k == 1 {
			want = above
		}
		if got, exact := Root(above, k); got.Cmp(want) != 0 || exact != (k == 1) {
			t.Fatalf("Root(%v^%d + 1) = %v, %v", r, k, got, exact)
		}
	}
}

func TestRootSmall(t *testing.T) {
	for n := int64(0); n <= 2000; n++ {
		for k := 1; k <= 12; k++ {
			// The reference: the largest r with r^k <= n, by counting.
			r := int64(0)
			for pow(r+1, k) <= n {
				r++
			}
			got, exact := Root(big.NewInt(n), k)
			if got.Int64() != r || exact != (pow(r, k) == n) {
				t.Fatalf("Root(%d, %d) = %v, %v; want %d", n, k, got, exact, r)
			}
		}
	}
}

func pow(b int64, k int) int64 {
	p := int64(1)
	for range k {
		p *= b
	}
	return p
}

func TestRootDoesNotModifyInput(t *testing.T) {
	n := big.NewInt(1 << 40)
	r, _ := Root(n, 1)
	r.SetInt64(5)
	if n.Int64() != 1<<40 {
		t.Fatal("Root(n, 1) aliases n")
	}
	Root(n, 3)
	if n.Int64() != 1<<40 {
		t.Fatal("Root modified n")
	}
}

func TestRootPanics(t *testing.T) {
	for _, c := range []struct {
		n int64
		k int
	}{{-1, 2}, {4, 0}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Root(%d, %d) did not panic", c.n, c.k)
				}
			}()
			Root(big.NewInt(c.n), c.k)
		}()
	}
}

// TestTerminatingScale compares TerminatingScale and Strip5 with factoring out
// 2 and 5 one at a time, on 2^a·5^b·m for m coprime to 10 and large exponents
// (the doubling divisors of Strip5 must find 5^b exactly).
func TestTerminatingScale(t *testing.T) {
	for _, a := range []int{0, 1, 7, 64, 300} {
		for _, b := range []int{0, 1, 12, 13, 14, 26, 27, 100, 1001} {
			for _, m := range []int64{1, 3, 7 * 11, 1<<31 - 1} {
				den := new(big.Int).Lsh(big.NewInt(m), uint(a))
				den.Mul(den, new(big.Int).Exp(big.NewInt(5), big.NewInt(int64(b)), nil))
				x := new(big.Int).Rsh(den, uint(a))
				if got := Strip5(x); got != b || x.Cmp(big.NewInt(m)) != 0 {
					t.Errorf("Strip5(5^%d·%d) = %d leaving %v", b, m, got, x)
				}
				k, ok := TerminatingScale(den)
				if ok != (m == 1) || (ok && k != max(a, b)) {
					t.Errorf("TerminatingScale(2^%d·5^%d·%d) = %d, %v", a, b, m, k, ok)
				}
			}
		}
	}
	if k, ok := TerminatingScale(big.NewInt(1)); !ok || k != 0 {
		t.Errorf("TerminatingScale(1) = %d, %v", k, ok)
	}
}
