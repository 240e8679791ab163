package poly

import "context"

func solveSymbolic(ctx context.Context, eq *Equation, used []bool) (*Result, error) {
	return nil, fail("unsupported_symbolic", "symbolic parameters are not supported yet")
}
