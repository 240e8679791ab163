package ident

import (
	"strings"
	"unicode"
)

// clean is stdnum's clean(number, deletechars): it replaces the Unicode
// look-alikes of its table (dashes, dots, spaces, full-width digits...) by
// their ASCII character and then drops every character of del.
func clean(s string, del string) []rune {
	out := make([]rune, 0, len(s))
	for _, r := range s {
		if m, ok := cleanChars[r]; ok {
			r = m
		}
		if strings.ContainsRune(del, r) {
			continue
		}
		out = append(out, r)
	}
	return out
}

// strip is Python's str.strip(): it removes str.isspace() characters at both ends.
func strip(rs []rune) []rune {
	for len(rs) > 0 && pySpace[rs[0]] {
		rs = rs[1:]
	}
	for len(rs) > 0 && pySpace[rs[len(rs)-1]] {
		rs = rs[:len(rs)-1]
	}
	return rs
}

// upper is Python's str.upper(), full case mapping included (ß is SS).
func upper(rs []rune) []rune {
	out := make([]rune, 0, len(rs))
	for _, r := range rs {
		if m, ok := pyUpperMulti[r]; ok {
			out = append(out, []rune(m)...)
			continue
		}
		out = append(out, unicode.ToUpper(r))
	}
	return out
}

// compact is the compact() most stdnum modules share:
// clean(number, del).strip(), upper-cased when up is set.
func compact(s, del string, up bool) []rune {
	rs := strip(clean(s, del))
	if up {
		rs = upper(rs)
	}
	return rs
}

// decimal is the value of a Unicode decimal digit as Python's int() reads it.
func decimal(r rune) (int, bool) {
	if r >= '0' && r <= '9' {
		return int(r - '0'), true
	}
	if r < 0x80 {
		return 0, false
	}
	for _, z := range pyDigitZeros {
		if r >= z && r <= z+9 {
			return int(r - z), true
		}
	}
	return 0, false
}

// base36 is int(r, 36) for one character: a decimal digit or an ASCII letter.
func base36(r rune) (int, bool) {
	switch {
	case r >= 'A' && r <= 'Z':
		return int(r-'A') + 10, true
	case r >= 'a' && r <= 'z':
		return int(r-'a') + 10, true
	}
	return decimal(r)
}

// isdigits is stdnum's isdigits: one or more ASCII digits.
func isdigits(rs []rune) bool {
	if len(rs) == 0 {
		return false
	}
	for _, r := range rs {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// digit is the value of an ASCII digit the caller has checked.
func digit(r rune) int { return int(r - '0') }

// pyMod is Python's a % m for m > 0: never negative.
func pyMod(a, m int) int { return ((a % m) + m) % m }
