package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/internal/units"
)

type unitInput struct {
	Value json.Number `json:"value"`
	From  string      `json:"from_unit"`
	To    string      `json:"to_unit"`
}

type unitFacts struct {
	Value          json.Number    `json:"value"`
	FromUnit       string         `json:"from_unit"`
	ConvertedValue evidence.Float `json:"converted_value"`
	ToUnit         string         `json:"to_unit"`
	Rendered       string         `json:"rendered"`
	ExactValue     string         `json:"exact_value"`
	Dimension      string         `json:"dimension"`
}

// unitConvert is the wire-compatible unit_convert tool (README, Tools): pint's unit
// vocabulary, exact rational conversion, offset temperatures done right.
func unitConvert() Tool {
	return Define(Def[unitInput, unitFacts]{
		Name: "unit_convert",
		Run:  runUnitConvert,
		Legacy: func(_ unitInput, out unitFacts) string {
			return out.Rendered
		},
	})
}

func runUnitConvert(_ context.Context, in unitInput) (unitFacts, []Warning, error) {
	v, err := units.ParseDecimal(in.Value.String())
	if err != nil {
		return unitFacts{}, nil, FailResult("value_out_of_range", "value %s: %v", in.Value, err)
	}
	vf, err := strconv.ParseFloat(in.Value.String(), 64)
	if err != nil || math.IsInf(vf, 0) {
		return unitFacts{}, nil, FailResult("value_out_of_range", "value %s is not finite as a double", in.Value)
	}
	reg := units.Default()
	from, err := reg.ParseQuantity(in.From)
	if err != nil {
		return unitFacts{}, nil, unitError("from_unit", in.From, err)
	}
	to, err := reg.Parse(in.To)
	if err != nil {
		return unitFacts{}, nil, unitError("to_unit", in.To, err)
	}
	res, err := units.ConvertExpr(v, from, to)
	if err != nil {
		var mm *units.MismatchError
		if errors.As(err, &mm) {
			e := FailResult("dimensionality_mismatch", "cannot convert from %q (%s) to %q (%s)", in.From, mm.From, in.To, mm.To)
			if f, t, why, ok := reg.TemperatureHint(in.From, in.To); ok {
				// "F" to "C": the farad and the coulomb, where degF and degC were meant.
				e.Message += fmt.Sprintf(": %s (did you mean %q to %q?)", why, f, t)
				if f != strings.TrimSpace(in.From) {
					withHints(e, "/from_unit", f)
				}
				if t != strings.TrimSpace(in.To) {
					withHints(e, "/to_unit", t)
				}
			}
			return unitFacts{}, nil, e
		}
		return unitFacts{}, nil, err
	}
	cv, ok := res.Float64()
	if !ok {
		return unitFacts{}, nil, FailResult("result_out_of_range", "the converted value is beyond the range of a double")
	}
	if cv == 0 && vf == 0 && math.Signbit(vf) && evidence.IsFloatLiteral(in.Value.String()) && from.Offset == nil && to.Offset == nil && from.F.Q.Sign()*to.F.Q.Sign() > 0 {
		// -0.0 sent as a float: the reference's float product keeps the sign
		// ("-0.0 km = -0 m"); exact arithmetic has no negative zero.
		cv = math.Copysign(0, -1)
	}
	exact, terminating := res.Decimal()
	var warnings []Warning
	switch {
	case terminating:
	case res.Rational():
		warnings = append(warnings, Warning{Code: "rounded", Message: "the exact result is a rational number whose decimal expansion does not terminate; exact_value is rounded half-even to 34 significant digits"})
	case res.ApproximateConstant():
		warnings = append(warnings, Warning{Code: "rounded", Message: "the conversion rests on a constant that the unit definitions give only as a truncated decimal expansion (or a root computed to 512 bits); exact_value is rounded to 34 significant digits"})
	default:
		warnings = append(warnings, Warning{Code: "rounded", Message: "the conversion factor is irrational (it involves pi or a square root); exact_value is correctly rounded to 34 significant digits"})
	}
	if cv == 0 && exact != "0" {
		warnings = append(warnings, Warning{Code: "float_underflow", Message: "converted_value underflows to 0.0 as a double; exact_value holds the result"})
	}
	// The reference prints the value it received with f"{value}": Python's json
	// gave it an int for an integer literal (digits, any size) and a float
	// otherwise (repr form: 100.0, 1e-05, 1e+16), exactly as canonical JSON
	// writes the number.
	shown, err := evidence.AppendCanonical(nil, in.Value)
	if err != nil {
		return unitFacts{}, nil, FailResult("value_out_of_range", "value %s: %v", in.Value, err)
	}
	rendered := string(shown) + " " + in.From + " = " + units.FormatG10(cv) + " " + in.To
	return unitFacts{
		Value:          in.Value,
		FromUnit:       in.From,
		ConvertedValue: evidence.Float(cv),
		ToUnit:         in.To,
		Rendered:       rendered,
		ExactValue:     exact,
		Dimension:      res.Dims.String(),
	}, warnings, nil
}

// unitError maps the errors of units.Registry.Parse to the tool's reasons.
func unitError(field, expr string, err error) error {
	var (
		syn  *units.SyntaxError
		unk  *units.UnknownUnitError
		off  *units.OffsetError
		lg   *units.LogUnitError
		sc   *units.ScaleError
		expo *units.ExponentError
		num  *units.NumberError
	)
	switch {
	case errors.Is(err, units.ErrNegativeRoot):
		// pint's magnitude is complex; the reference's facts cannot hold it
		// (float() raises TypeError): wrong_arguments.
		return &Error{Code: CodeWrongArguments, Reason: "invalid_unit_expression", Message: fmt.Sprintf("%s %q: %v", field, expr, err)}
	case errors.As(err, &unk):
		return withHints(FailResult("unknown_unit", "%s %q: %v", field, expr, unk), "/"+field, unk.Expressions...)
	case errors.As(err, &syn), errors.As(err, &sc), errors.As(err, &num):
		// units returns these unwrapped: err is the one found.
		return FailResult("invalid_unit_expression", "%s %q: %v", field, expr, err)
	case errors.As(err, &off):
		return FailResult("offset_unit_not_multiplicative", "%s %q: %v", field, expr, off)
	case errors.As(err, &lg):
		return FailResult("unsupported_unit", "%s %q: %v", field, expr, lg)
	case errors.As(err, &expo):
		return TooCostly("exponent_too_large", "%s %q: %v", field, expr, expo)
	case errors.Is(err, units.ErrTooLarge):
		return TooCostly("exponent_too_large", "%s %q: the powers build a conversion factor larger than 65536 bits", field, expr)
	}
	return err
}
