package units

import (
	"sort"
	"strconv"
	"strings"
)

// Dims is a dimensionality: base dimension name (without brackets, e.g. "length")
// to exponent counted in halves (2 means squared, 3 means ** 1.5). Zero exponents
// are never stored. A nil or empty Dims is dimensionless.
type Dims map[string]int

// maxDimHalves bounds every exponent of a dimensionality (in halves: 512 means
// ** 256); it keeps nested powers of a 64-character expression from growing
// without end.
const maxDimHalves = 512

// Mul returns the dimensionality of a product.
func (d Dims) Mul(e Dims) Dims {
	out := make(Dims, len(d)+len(e))
	for k, v := range d {
		out[k] = v
	}
	for k, v := range e {
		if s := out[k] + v; s == 0 {
			delete(out, k)
		} else {
			out[k] = s
		}
	}
	return out
}

// Inv returns the dimensionality of a reciprocal.
func (d Dims) Inv() Dims {
	out := make(Dims, len(d))
	for k, v := range d {
		out[k] = -v
	}
	return out
}

// Pow returns d raised to halves/2. ok is false when an exponent would not be a
// multiple of one half or would exceed maxDimHalves.
func (d Dims) Pow(halves int) (Dims, bool) {
	out := make(Dims, len(d))
	for k, v := range d {
		p := v * halves
		if p%2 != 0 {
			return nil, false
		}
		p /= 2
		if p > maxDimHalves || p < -maxDimHalves {
			return nil, false
		}
		if p != 0 {
			out[k] = p
		}
	}
	return out, true
}

// Equal reports whether d and e are the same dimensionality.
func (d Dims) Equal(e Dims) bool {
	if len(d) != len(e) {
		return false
	}
	for k, v := range d {
		if e[k] != v {
			return false
		}
	}
	return true
}

// baseDimOrder fixes the order in which String lists base dimensions; dimensions
// not listed (a user-visible one only appears through exotic definitions) follow
// in alphabetical order.
var baseDimOrder = map[string]int{
	"length": 0, "mass": 1, "time": 2, "current": 3, "temperature": 4,
	"substance": 5, "luminosity": 6, "printing_unit": 7,
}

// String renders d the way pint prints a dimensionality: positive exponents
// first, then each negative one after " / ", exponents other than 1 as " ** n"
// ("[length] / [time] ** 2", "[mass] * [length] ** 2 / [time] ** 3"), "1 / [time]"
// when no exponent is positive and "dimensionless" when there is no dimension.
// Within each part base dimensions follow the order length, mass, time, current,
// temperature, substance, luminosity, printing_unit.
func (d Dims) String() string {
	if len(d) == 0 {
		return "dimensionless"
	}
	names := make([]string, 0, len(d))
	for k := range d {
		names = append(names, k)
	}
	sort.Slice(names, func(i, j int) bool {
		oi, iok := baseDimOrder[names[i]]
		oj, jok := baseDimOrder[names[j]]
		switch {
		case iok && jok:
			return oi < oj
		case iok != jok:
			return iok
		}
		return names[i] < names[j]
	})
	var pos, neg []string
	for _, n := range names {
		v := d[n]
		term := "[" + n + "]"
		a := v
		if a < 0 {
			a = -a
		}
		if a != 2 {
			term += " ** " + halvesString(a)
		}
		if v > 0 {
			pos = append(pos, term)
		} else {
			neg = append(neg, term)
		}
	}
	out := strings.Join(pos, " * ")
	if out == "" {
		out = "1"
	}
	for _, n := range neg {
		out += " / " + n
	}
	return out
}

func halvesString(h int) string {
	if h%2 == 0 {
		return strconv.Itoa(h / 2)
	}
	s := strconv.Itoa(h / 2)
	if h < 0 && h/2 == 0 {
		s = "-0"
	}
	return s + ".5"
}
