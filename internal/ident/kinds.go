package ident

import (
	"strconv"
	"strings"
)

// mod97 is stdnum's iso7064 mod_97_10 checksum: each character read with
// int(c, 36), the decimal strings joined and taken modulo 97. ok is false when
// a character is not a digit or letter, or there is none (invalid_format).
func mod97(rs []rune) (int, bool) {
	if len(rs) == 0 {
		return 0, false
	}
	m := 0
	for _, r := range rs {
		v, ok := base36(r)
		if !ok {
			return 0, false
		}
		if v < 10 {
			m = (m*10 + v) % 97
		} else {
			m = (m*100 + v) % 97
		}
	}
	return m, true
}

// checkMod97 is mod_97_10.validate: the checksum must be 1.
func checkMod97(rs []rune) error {
	m, ok := mod97(rs)
	if !ok {
		return invalid(InvalidFormat)
	}
	if m != 1 {
		return invalid(InvalidChecksum)
	}
	return nil
}

// matchBBAN matches bban against a SWIFT structure such as 4!n4!n12!c.
func matchBBAN(structure string, bban []rune) bool {
	i := 0
	for structure != "" {
		bang := strings.IndexByte(structure, '!')
		n, _ := strconv.Atoi(structure[:bang])
		class := structure[bang+1]
		structure = structure[bang+2:]
		for range n {
			if i >= len(bban) {
				return false
			}
			r := bban[i]
			ok := false
			switch class {
			case 'n':
				ok = r >= '0' && r <= '9'
			case 'a':
				ok = r >= 'A' && r <= 'Z'
			case 'c':
				ok = r >= '0' && r <= '9' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z'
			}
			if !ok {
				return false
			}
			i++
		}
	}
	return i == len(bban)
}

func validateIBAN(value string) (Result, error) {
	n := compact(value, " -.", true)
	head := min(4, len(n))
	rotated := append(append([]rune{}, n[head:]...), n[:head]...)
	if err := checkMod97(rotated); err != nil {
		return Result{}, err
	}
	if len(n) < 2 {
		return Result{}, invalid(InvalidComponent)
	}
	structure, ok := ibanBBAN[string(n[:2])]
	if !ok {
		return Result{}, invalid(InvalidComponent)
	}
	if !matchBBAN(structure, n[head:]) {
		return Result{}, invalid(InvalidFormat)
	}
	s := string(n)
	if err := checkIBANCountry(s); err != nil {
		return Result{}, err
	}
	// the check digits are not checked to be ASCII digits (stdnum reads any
	// Unicode decimal digit there), so cut by characters, not bytes
	var groups []string
	for i := 0; i < len(n); i += 4 {
		groups = append(groups, string(n[i:min(i+4, len(n))]))
	}
	return Result{Compact: s, Formatted: strings.Join(groups, " "),
		IBAN: &IBANDetails{Country: string(n[:2]), CheckDigits: string(n[2:4]), BBAN: string(n[4:])}}, nil
}

// checkIBANCountry applies the national checks stdnum's country iban modules
// add (be, es, me, no) to an IBAN whose BBAN structure matched.
func checkIBANCountry(s string) error {
	bban := string([]rune(s)[4:]) // ASCII: its structure matched
	switch s[:2] {
	case "BE":
		// two check digits: the first ten digits modulo 97, 97 for 0
		n, _ := strconv.ParseUint(bban[:len(bban)-2], 10, 64)
		c := n % 97
		if c == 0 {
			c = 97
		}
		if bban[len(bban)-2:] != strconv.FormatUint(c+100, 10)[1:] {
			return invalid(InvalidChecksum)
		}
		bank, _ := strconv.Atoi(bban[:3])
		for _, r := range beBanks {
			if bank >= r[0] && bank <= r[1] {
				return nil
			}
		}
		return invalid(InvalidComponent)
	case "ES":
		// the CCC's two check digits over bank+branch and over the account
		if bban[8:10] != esCheck("00"+bban[:8])+esCheck(bban[10:]) {
			return invalid(InvalidChecksum)
		}
	case "ME":
		if m, _ := mod97([]rune(bban)); m != 1 {
			return invalid(InvalidChecksum)
		}
	case "NO":
		// the kontonummer: 0000 + a 7-digit Luhn number, or 11 digits mod 11
		if strings.HasPrefix(bban, "0000") {
			if !luhnValid(bban[4:]) {
				return invalid(InvalidChecksum)
			}
			return nil
		}
		weights := []int{6, 7, 8, 9, 4, 5, 6, 7, 8, 9}
		sum := 0
		for i, w := range weights {
			sum += w * digit(rune(bban[i]))
		}
		if strconv.Itoa(sum%11) != bban[10:] {
			return invalid(InvalidChecksum)
		}
	}
	return nil
}

// esCheck is one check digit of a Spanish CCC (weights 2^i modulo 11).
func esCheck(digits string) string {
	sum := 0
	for i := range len(digits) {
		sum += digit(rune(digits[i])) << i
	}
	c := sum % 11
	if c >= 2 {
		c = 11 - c
	}
	return strconv.Itoa(c)
}

func validateBIC(value string) (Result, error) {
	n := compact(value, " -", true)
	if len(n) != 8 && len(n) != 11 {
		return Result{}, invalid(InvalidLength)
	}
	for i, r := range n {
		letter := r >= 'A' && r <= 'Z'
		if !letter && (i < 6 || r < '0' || r > '9') {
			return Result{}, invalid(InvalidFormat)
		}
	}
	s := string(n)
	return Result{Compact: s, Formatted: s}, nil
}

// isbn10Check is the ISBN-10 check character of nine digits.
func isbn10Check(digits []rune) rune {
	sum := 0
	for i, r := range digits {
		sum += (i + 1) * digit(r)
	}
	if c := sum % 11; c != 10 {
		return rune('0' + c)
	}
	return 'X'
}

// eanCheck is the GS1 check digit of the digits before it.
func eanCheck(digits []rune) rune {
	sum := 0
	for i := range digits {
		w := 3
		if i%2 == 1 {
			w = 1
		}
		sum += w * digit(digits[len(digits)-1-i])
	}
	return rune('0' + pyMod(10-sum, 10))
}

// checkEAN is stdnum's ean.validate on compacted digits.
func checkEAN(n []rune) error {
	if !isdigits(n) {
		return invalid(InvalidFormat)
	}
	switch len(n) {
	case 8, 12, 13, 14:
	default:
		return invalid(InvalidLength)
	}
	if eanCheck(n[:len(n)-1]) != n[len(n)-1] {
		return invalid(InvalidChecksum)
	}
	return nil
}

func validateISBN(value string) (Result, error) {
	n := compact(value, " -", true)
	if len(n) == 9 {
		n = append([]rune{'0'}, n...)
	}
	if len(n) == 0 || !isdigits(n[:len(n)-1]) {
		return Result{}, invalid(InvalidFormat)
	}
	var d ISBNDetails
	switch len(n) {
	case 10:
		if isbn10Check(n[:9]) != n[9] {
			return Result{}, invalid(InvalidChecksum)
		}
		d.ISBN10 = string(n)
		d.ISBN13 = "978" + string(n[:9]) + string(eanCheck([]rune("978"+string(n[:9]))))
	case 13:
		if err := checkEAN(n); err != nil {
			return Result{}, err
		}
		prefix := string(n[:3])
		if prefix != "978" && prefix != "979" {
			return Result{}, invalid(InvalidComponent)
		}
		d.ISBN13 = string(n)
		if prefix == "978" {
			d.ISBN10 = string(n[3:12]) + string(isbn10Check(n[3:12]))
		}
	default:
		return Result{}, invalid(InvalidLength)
	}
	s := string(n)
	return Result{Compact: s, Formatted: formatISBN(s), ISBN: &d}, nil
}

func validateISSN(value string) (Result, error) {
	n := compact(value, " -", true)
	if len(n) == 0 || !isdigits(n[:len(n)-1]) {
		return Result{}, invalid(InvalidFormat)
	}
	if len(n) != 8 {
		return Result{}, invalid(InvalidLength)
	}
	sum := 0
	for i, r := range n[:7] {
		sum += (8 - i) * digit(r)
	}
	check := '0' + rune(pyMod(11-sum, 11))
	if check == '0'+10 {
		check = 'X'
	}
	if check != n[7] {
		return Result{}, invalid(InvalidChecksum)
	}
	s := string(n)
	return Result{Compact: s, Formatted: s[:4] + "-" + s[4:]}, nil
}

func validateEAN(value string) (Result, error) {
	n := compact(value, " -", false)
	if err := checkEAN(n); err != nil {
		return Result{}, err
	}
	s := string(n)
	return Result{Compact: s, Formatted: s, EAN: &EANDetails{Length: len(n)}}, nil
}

func validateISIN(value string) (Result, error) {
	n := compact(value, " ", true)
	for _, r := range n {
		if !(r >= '0' && r <= '9' || r >= 'A' && r <= 'Z') {
			return Result{}, invalid(InvalidFormat)
		}
	}
	if len(n) != 12 {
		return Result{}, invalid(InvalidLength)
	}
	s := string(n)
	if !isinCountries[s[:2]] {
		return Result{}, invalid(InvalidComponent)
	}
	// letters become their two-digit values; then Luhn doubling from the right
	var digits []byte
	for _, r := range s[:11] {
		v, _ := base36(r)
		digits = strconv.AppendInt(digits, int64(v), 10)
	}
	sum := 0
	for i := range digits {
		d := int(digits[len(digits)-1-i] - '0')
		if i%2 == 0 {
			d *= 2
		}
		sum += d/10 + d%10
	}
	if byte('0'+pyMod(10-sum, 10)) != s[11] {
		return Result{}, invalid(InvalidChecksum)
	}
	return Result{Compact: s, Formatted: s}, nil
}

func validateLEI(value string) (Result, error) {
	n := compact(value, " -", true)
	if err := checkMod97(n); err != nil {
		return Result{}, err
	}
	s := string(n)
	return Result{Compact: s, Formatted: s}, nil
}

// luhnValid: s is non-empty ASCII digits whose Luhn checksum is 0.
func luhnValid(s string) bool {
	sum := 0
	for i := range len(s) {
		d := int(s[len(s)-1-i] - '0')
		if i%2 == 1 {
			d *= 2
		}
		sum += d/10 + d%10
	}
	return sum%10 == 0
}

func validateLuhn(value string) (Result, error) {
	// stdnum's luhn module has no compact(): the value is checked as given
	if value == "" || !isdigits([]rune(value)) {
		return Result{}, invalid(InvalidFormat)
	}
	if !luhnValid(value) {
		return Result{}, invalid(InvalidChecksum)
	}
	return Result{Compact: value, Formatted: value, Luhn: &LuhnDetails{CheckDigit: value[len(value)-1:]}}, nil
}
