package ident

import (
	"fmt"
	"strings"
)

// validateUUID parses value as CPython's uuid.UUID(hex=value) does: every
// "urn:" and then every "uuid:" removed, braces stripped from both ends, every
// hyphen removed; 32 characters must remain (invalid_length) and int(s, 16)
// must read them (invalid_format).
func validateUUID(value string) (Result, error) {
	s := strings.ReplaceAll(value, "urn:", "")
	s = strings.ReplaceAll(s, "uuid:", "")
	s = strings.Trim(s, "{}")
	s = strings.ReplaceAll(s, "-", "")
	rs := []rune(s)
	if len(rs) != 32 {
		return Result{}, invalid(InvalidLength)
	}
	hi, lo, ok := parseHex128(rs)
	if !ok {
		return Result{}, invalid(InvalidFormat)
	}
	d := UUIDDetails{}
	// the variant bits are the top bits of the 9th byte, the top of lo
	switch {
	case lo&(1<<63) == 0:
		d.Variant = "ncs"
	case lo&(1<<62) == 0:
		d.Variant = "rfc4122"
		d.Version, d.HasVersion = int(hi>>12&0xf), true
	case lo&(1<<61) == 0:
		d.Variant = "microsoft"
	default:
		d.Variant = "future"
	}
	h := fmt.Sprintf("%016x%016x", hi, lo)
	return Result{Compact: h, Formatted: h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:], UUID: &d}, nil
}

// parseHex128 is Python's int(s, 16) for a value below 2**128: surrounding
// whitespace, one + sign, a 0x prefix and single underscores between digits
// (or after the prefix) are allowed, and Unicode decimal digits read as digits.
func parseHex128(rs []rune) (hi, lo uint64, ok bool) {
	rs = strip(rs)
	if len(rs) > 0 && (rs[0] == '+' || rs[0] == '-') {
		if rs[0] == '-' {
			return 0, 0, false // cannot happen: hyphens were removed
		}
		rs = rs[1:]
	}
	afterPrefix := false
	if len(rs) >= 2 && rs[0] == '0' && (rs[1] == 'x' || rs[1] == 'X') {
		rs = rs[2:]
		afterPrefix = true
	}
	digits := 0
	prevUnderscore := false
	for i, r := range rs {
		if r == '_' {
			if prevUnderscore || (i == 0 && !afterPrefix) {
				return 0, 0, false
			}
			prevUnderscore = true
			continue
		}
		var v int
		switch {
		case r >= 'a' && r <= 'f':
			v = int(r-'a') + 10
		case r >= 'A' && r <= 'F':
			v = int(r-'A') + 10
		default:
			d, isDigit := decimal(r)
			if !isDigit {
				return 0, 0, false
			}
			v = d
		}
		prevUnderscore = false
		digits++
		hi = hi<<4 | lo>>60
		lo = lo<<4 | uint64(v)
	}
	if digits == 0 || prevUnderscore {
		return 0, 0, false
	}
	return hi, lo, true
}
