// Package exactstats computes descriptive statistics exactly, with Python's
// statistics-module semantics but on exact decimal values instead of floats:
// every input is the decimal number it is written as, rational results are exact
// (rendered in full when the decimal expansion terminates, otherwise rounded to 34
// significant digits), and square roots and n-th roots are correctly rounded.
package exactstats

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"strings"

	"github.com/precisiond/precisiond/internal/bigx"
	"github.com/precisiond/precisiond/internal/exactdec"
	"github.com/precisiond/precisiond/internal/refusal"
)

// Limits of the statistics_calc contract.
const (
	MaxValues      = 100000 // values per call
	MaxValueDigits = 50     // significant digits per value (leading and trailing zeros not counted)
	MaxValueExp    = 100    // |exponent| as written (1e100, 2.5E-100)
	MaxValueChars  = 200    // characters per value
)

// Error is a refusal of the input (see package refusal): Costly marks a
// cost-limit refusal rather than a domain refusal.
type Error = refusal.Error

var (
	fail   = refusal.Domain
	costly = refusal.Cost
)

// short quotes at most 32 bytes of a value for an error message.
func short(s string) string {
	if len(s) > 32 {
		s = s[:32] + "…"
	}
	return fmt.Sprintf("%q", s)
}

// ParseValue reads one data value: an optional sign, digits with an optional
// point, an optional exponent (Python float() syntax without spaces, underscores,
// infinities or NaN). Reasons: invalid_number, non_finite_value, value_out_of_range.
func ParseValue(s string, index int) (exactdec.Decimal, error) {
	if len(s) > MaxValueChars {
		return exactdec.Decimal{}, fail("value_out_of_range", "value %d is longer than %d characters", index, MaxValueChars)
	}
	d, err := exactdec.Parse(s, MaxValueDigits, MaxValueExp)
	switch err {
	case nil:
		return d, nil
	case exactdec.ErrRange:
		return exactdec.Decimal{}, fail("value_out_of_range", "value %d %s has more than %d significant digits or an exponent beyond ±%d", index, short(s), MaxValueDigits, MaxValueExp)
	}
	l := strings.ToLower(strings.TrimLeft(s, "+-"))
	if l == "inf" || l == "infinity" || l == "nan" {
		return exactdec.Decimal{}, fail("non_finite_value", "value %d %s is not finite", index, short(s))
	}
	return exactdec.Decimal{}, fail("invalid_number", "value %d %s is not a decimal number", index, short(s))
}

// ParseString reads the comma-separated form "1, 2.5, -3e2": items are trimmed of
// spaces, tabs and newlines; an empty item is an error. The count limit is
// checked before any value is parsed.
func ParseString(ctx context.Context, data string) ([]exactdec.Decimal, error) {
	if strings.Count(data, ",")+1 > MaxValues {
		return nil, costly("too_many_values", "more than %d values", MaxValues)
	}
	if strings.TrimSpace(data) == "" {
		return nil, fail("empty_data", "no data values")
	}
	return parseEach(ctx, strings.Split(data, ","), func(i int, it string) (string, error) {
		it = strings.Trim(it, " \t\r\n")
		if it == "" {
			return "", fail("invalid_number", "value %d is empty", i)
		}
		return it, nil
	})
}

// ParseList reads the array form: JSON numbers (json.Number, kept as written) or
// decimal strings (not trimmed).
func ParseList(ctx context.Context, data []any) ([]exactdec.Decimal, error) {
	if len(data) > MaxValues {
		return nil, costly("too_many_values", "more than %d values", MaxValues)
	}
	if len(data) == 0 {
		return nil, fail("empty_data", "no data values")
	}
	return parseEach(ctx, data, func(i int, v any) (string, error) {
		switch x := v.(type) {
		case json.Number:
			return string(x), nil
		case string:
			return x, nil
		}
		return "", fail("invalid_number", "value %d is not a number or a decimal string", i)
	})
}

// parseEach parses the values of items, whose text text gives, in order,
// checking ctx every 4096 items.
func parseEach[T any](ctx context.Context, items []T, text func(i int, item T) (string, error)) ([]exactdec.Decimal, error) {
	out := make([]exactdec.Decimal, 0, len(items))
	for i, it := range items {
		if i%4096 == 4095 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		s, err := text(i, it)
		if err != nil {
			return nil, err
		}
		d, err := ParseValue(s, i)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, nil
}

// scaled returns the values as integers X_i = x_i·10^s with the smallest s >= 0
// that makes all of them integral.
func scaled(values []exactdec.Decimal) ([]*big.Int, int) {
	s := 0
	for _, v := range values {
		if -v.Exp > s {
			s = -v.Exp
		}
	}
	xs := make([]*big.Int, len(values))
	for i, v := range values {
		xs[i] = new(big.Int).Mul(v.Coef, bigx.Pow10(v.Exp+s))
	}
	return xs, s
}
