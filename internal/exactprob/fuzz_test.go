package exactprob

import (
	"math/big"
	"testing"

	"github.com/precisiond/precisiond/internal/refusal/refusaltest"
)

// FuzzCompute: arbitrary integer texts and small n, k never panic; results are
// reduced with a positive denominator, and binomial probabilities lie in [0, 1].
func FuzzCompute(f *testing.F) {
	f.Add("binomial_probability", int64(10), int64(3), "1", "2", int64(6), "half_even")
	f.Add("fraction", int64(0), int64(0), "-6", "8", int64(-1), "")
	f.Add("fraction", int64(0), int64(0), "1e3", "3.0", int64(2), "up")
	f.Add("combination", int64(4096), int64(2048), "", "", int64(18), "floor")
	f.Fuzz(func(t *testing.T, op string, n, k int64, num, den string, scale int64, rounding string) {
		n, k = ((n%4097)+4097)%4097, ((k%4097)+4097)%4097
		in := Input{Operation: op, N: &n, K: &k}
		if num != "" {
			in.Numerator = &num
		}
		if den != "" {
			in.Denominator = &den
		}
		if scale >= 0 {
			s := scale % 19
			in.Scale = &s
			in.Rounding = &rounding
		}
		out, err := Compute(in)
		if refusaltest.Refused[*Error](t, err, "") {
			return
		}
		if out.ResultDen.Sign() <= 0 {
			t.Fatalf("denominator %s", out.ResultDen)
		}
		if g := new(big.Int).GCD(nil, nil, new(big.Int).Abs(out.ResultNum), out.ResultDen); g.Cmp(big.NewInt(1)) != 0 && out.ResultNum.Sign() != 0 {
			t.Fatalf("result %s/%s not reduced", out.ResultNum, out.ResultDen)
		}
		if op == "binomial_probability" && (out.ResultNum.Sign() < 0 || out.ResultNum.Cmp(out.ResultDen) > 0) {
			t.Fatalf("probability %s/%s outside [0,1]", out.ResultNum, out.ResultDen)
		}
	})
}
