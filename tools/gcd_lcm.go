package tools

import (
	"context"
	"math/big"
)

type gcdInput struct {
	A         *big.Int `json:"a"`
	B         *big.Int `json:"b"`
	Operation string   `json:"operation"`
}

type gcdFacts struct {
	A         *big.Int `json:"a"`
	B         *big.Int `json:"b"`
	Operation string   `json:"operation"`
	GCD       *big.Int `json:"gcd"`
	LCM       *big.Int `json:"lcm"`
}

// gcdLCM is the wire-compatible gcd_lcm tool (README, Tools).
func gcdLCM() Tool {
	return Define(Def[gcdInput, gcdFacts]{
		Name: "gcd_lcm",
		Run: func(_ context.Context, in gcdInput) (gcdFacts, []Warning, error) {
			a := new(big.Int).Abs(in.A)
			b := new(big.Int).Abs(in.B)
			g := new(big.Int).GCD(nil, nil, a, b) // GCD(0,0) = 0
			l := new(big.Int)
			if a.Sign() != 0 && b.Sign() != 0 {
				l.Mul(a, b).Quo(l, g)
			}
			return gcdFacts{A: in.A, B: in.B, Operation: in.Operation, GCD: g, LCM: l}, nil, nil
		},
		Legacy: func(in gcdInput, out gcdFacts) string {
			g := "GCD(" + in.A.String() + ", " + in.B.String() + ") = " + out.GCD.String()
			l := "LCM(" + in.A.String() + ", " + in.B.String() + ") = " + out.LCM.String()
			switch in.Operation {
			case "gcd":
				return g
			case "lcm":
				return l
			}
			return g + "  |  " + l
		},
	})
}
