package exactdec

import (
	"math/big"
	"testing"
)

// TestSqrtIrrational: roots rounded half-even to the given digits, as
// Python's decimal module gives them at 80 digits then rounds (the expected
// values were computed so, outside this code): small, large and tiny
// magnitudes, and one digit.
func TestSqrtIrrational(t *testing.T) {
	huge := new(big.Int).Add(new(big.Int).Exp(big.NewInt(10), big.NewInt(70), nil), big.NewInt(1))
	tiny := new(big.Int).Exp(big.NewInt(10), big.NewInt(61), nil)
	for _, c := range []struct {
		n, d   *big.Int
		digits int
		want   string
	}{
		{big.NewInt(2), big.NewInt(1), 30, "1.41421356237309504880168872421"},
		{big.NewInt(1), big.NewInt(3), 30, "0.577350269189625764509148780502"},
		{huge, big.NewInt(7), 12, "3.77964473009E+34"},
		{big.NewInt(5), tiny, 20, "7.0710678118654752440E-31"},
		{big.NewInt(3), big.NewInt(1), 1, "2"},
	} {
		got := SqrtIrrational(c.n, c.d, c.digits)
		want, err := Parse(c.want, 100, 100)
		if err != nil {
			t.Fatal(err)
		}
		if got.Cmp(want) != 0 || NumDigits(got.Coef) != c.digits {
			t.Errorf("sqrt(%v/%v) to %d digits: %v, want %s", c.n, c.d, c.digits, got, c.want)
		}
	}
}
