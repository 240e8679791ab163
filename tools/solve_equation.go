package tools

import (
	"context"
	"strings"

	"github.com/precisiond/precisiond/internal/poly"
)

type solveEquationInput struct {
	Equation string `json:"equation"`
	Variable string `json:"variable"`
}

type solveSolution struct {
	Exact   string  `json:"exact"`
	Decimal *string `json:"decimal"`
	IsReal  *bool   `json:"is_real"`
}

type solveEquationFacts struct {
	Equation      string          `json:"equation"`
	Variable      string          `json:"variable"`
	Parameters    []string        `json:"parameters"`
	Degree        int             `json:"degree"`
	Solutions     []solveSolution `json:"solutions"`
	SolutionCount int             `json:"solution_count"`
	Method        string          `json:"method"`
	NonrealOmit   int             `json:"nonreal_roots_omitted"`
}

// solveEquation solves a polynomial equation in one variable; the
// parser, exact root finding and SymPy-style printing live in internal/poly.
func solveEquation() Tool {
	return Define(Def[solveEquationInput, solveEquationFacts]{
		Name: "solve_equation",
		Run: func(ctx context.Context, in solveEquationInput) (solveEquationFacts, []Warning, error) {
			r, err := poly.Solve(ctx, in.Equation, in.Variable, poly.DefaultLimits)
			if err != nil {
				return solveEquationFacts{}, nil, err // a refusal is mapped by the execution path
			}
			f := solveEquationFacts{
				Equation: in.Equation, Variable: in.Variable, Parameters: r.Parameters,
				Degree: r.Degree, SolutionCount: len(r.Solutions), Method: r.Method,
				NonrealOmit: r.OmittedNonReal, Solutions: make([]solveSolution, 0, len(r.Solutions)),
			}
			if f.Parameters == nil {
				f.Parameters = []string{}
			}
			for _, s := range r.Solutions {
				out := solveSolution{Exact: s.Exact}
				if s.Form != "symbolic" {
					d, real := s.Decimal, s.IsReal
					out.Decimal, out.IsReal = &d, &real
				}
				f.Solutions = append(f.Solutions, out)
			}
			var w []Warning
			if r.OmittedNonReal > 0 {
				w = append(w, Warning{Code: "nonreal_roots_omitted", Message: "an irreducible factor of degree 3 or more has non-real roots; only its real roots are reported (see nonreal_roots_omitted)"})
			}
			if r.Generic {
				w = append(w, Warning{Code: "generic_solution", Message: "symbolic solution valid where the leading coefficient in " + in.Variable + " is non-zero, as sympy.solve returns it"})
			}
			return f, w, nil
		},
		Legacy: func(in solveEquationInput, out solveEquationFacts) string {
			parts := make([]string, len(out.Solutions))
			for i, s := range out.Solutions {
				parts[i] = s.Exact
			}
			return "solve(" + in.Equation + ", " + in.Variable + ") = [" + strings.Join(parts, ", ") + "]"
		},
	})
}
