package version

import (
	"strings"

	"github.com/precisiond/precisiond/internal/refusal"
)

// debVersion is a Debian version as dpkg 1.21's parseversion splits it.
type debVersion struct {
	epoch             int64
	version, revision string
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isAlpha(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// parseDebian is dpkg's parseversion, refusing what dpkg only warns about
// (a version not starting with a digit, characters outside [A-Za-z0-9.+~-:]
// in the upstream part or [A-Za-z0-9.+~] in the revision) as well as its
// errors, and the empty string (which dpkg --compare-versions reads as no
// version).
func parseDebian(s string) (*debVersion, error) {
	v, msg := debParse(s)
	if msg != "" {
		return nil, refusal.Domain(InvalidVersion, "invalid Debian version %s: %s", quote(s), msg)
	}
	return v, nil
}

func debParse(s string) (*debVersion, string) {
	if strings.IndexByte(s, 0) >= 0 {
		return nil, "version string has a NUL character"
	}
	i := 0
	for i < len(s) && isBlank(s[i]) {
		i++
	}
	if i == len(s) {
		return nil, "version string is empty"
	}
	end := i
	for end < len(s) && !isBlank(s[end]) {
		end++
	}
	for j := end; j < len(s); j++ {
		if !isBlank(s[j]) {
			return nil, "version string has embedded spaces"
		}
	}
	str := s[i:end]
	v := &debVersion{}
	if colon := strings.IndexByte(str, ':'); colon >= 0 {
		epoch, endp, ok := strtol(str)
		switch {
		case !ok:
			return nil, "epoch in version is empty"
		case endp != colon:
			return nil, "epoch in version is not number"
		case epoch < 0:
			return nil, "epoch in version is negative"
		case epoch > 1<<31-1:
			return nil, "epoch in version is too big"
		case colon+1 == len(str):
			return nil, "nothing after colon in version number"
		}
		v.epoch = epoch
		str = str[colon+1:]
	}
	v.version = str
	if h := strings.LastIndexByte(str, '-'); h >= 0 {
		v.version, v.revision = str[:h], str[h+1:]
		if v.revision == "" {
			return nil, "revision number is empty"
		}
	}
	if v.version == "" {
		return nil, "version number is empty"
	}
	if !isDigit(v.version[0]) {
		return nil, "version number does not start with digit"
	}
	for k := 1; k < len(v.version); k++ {
		c := v.version[k]
		if !isDigit(c) && !isAlpha(c) && !strings.ContainsRune(".-+~:", rune(c)) {
			return nil, "invalid character in version number"
		}
	}
	for k := 0; k < len(v.revision); k++ {
		c := v.revision[k]
		if !isDigit(c) && !isAlpha(c) && !strings.ContainsRune(".+~", rune(c)) {
			return nil, "invalid character in revision number"
		}
	}
	return v, ""
}

// strtol is C's strtol(s, &end, 10) on a long of 64 bits: leading isspace,
// a sign, digits; ok is false when no digit was read. An out-of-range value
// saturates, as with ERANGE, which is beyond any valid epoch either way.
func strtol(s string) (n int64, end int, ok bool) {
	i := 0
	for i < len(s) && (s[i] == ' ' || (s[i] >= '\t' && s[i] <= '\r')) {
		i++
	}
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	start := i
	const limit = 1 << 40 // far above INT_MAX; saturate beyond
	for i < len(s) && isDigit(s[i]) {
		if n < limit {
			n = n*10 + int64(s[i]-'0')
		}
		i++
	}
	if i == start {
		return 0, 0, false
	}
	if neg {
		n = -n
	}
	return n, i, true
}

// debOrder is dpkg's order(): digits 0, letters themselves, ~ below
// everything, the end of the part 0, other characters after letters.
func debOrder(s string, i int) int {
	if i >= len(s) {
		return 0
	}
	c := s[i]
	switch {
	case isDigit(c):
		return 0
	case isAlpha(c):
		return int(c)
	case c == '~':
		return -1
	}
	return int(c) + 256
}

// verrevcmp is dpkg's comparison of an upstream version or revision.
func verrevcmp(a, b string) int {
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		firstDiff := 0
		for (i < len(a) && !isDigit(a[i])) || (j < len(b) && !isDigit(b[j])) {
			ac, bc := debOrder(a, i), debOrder(b, j)
			if ac != bc {
				return ac - bc
			}
			i++
			j++
		}
		for i < len(a) && a[i] == '0' {
			i++
		}
		for j < len(b) && b[j] == '0' {
			j++
		}
		for i < len(a) && j < len(b) && isDigit(a[i]) && isDigit(b[j]) {
			if firstDiff == 0 {
				firstDiff = int(a[i]) - int(b[j])
			}
			i++
			j++
		}
		if i < len(a) && isDigit(a[i]) {
			return 1
		}
		if j < len(b) && isDigit(b[j]) {
			return -1
		}
		if firstDiff != 0 {
			return firstDiff
		}
	}
	return 0
}

// compareDebian is dpkg_version_compare: epoch, upstream, revision.
func compareDebian(a, b *debVersion) int {
	switch {
	case a.epoch > b.epoch:
		return 1
	case a.epoch < b.epoch:
		return -1
	}
	if c := verrevcmp(a.version, b.version); c != 0 {
		return c
	}
	return verrevcmp(a.revision, b.revision)
}

// debRelation is one relation of a Debian dependency: <<, <=, =, >=, >>.
type debRelation struct {
	op string
	v  *debVersion
}

// parseDebianRelation reads "REL VERSION" with optional blanks around and
// between; the obsolete < and > are refused.
func parseDebianRelation(c string) (debRelation, error) {
	s := strings.Trim(c, " \t")
	var op string
	for _, o := range []string{"<<", "<=", ">=", ">>", "="} {
		if strings.HasPrefix(s, o) {
			op = o
			break
		}
	}
	if op == "" {
		if strings.HasPrefix(s, "<") || strings.HasPrefix(s, ">") {
			return debRelation{}, refusal.Domain(InvalidConstraint, "Debian relation %s: the obsolete %s is not accepted; use %s%s or %s=", quote(c), s[:1], s[:1], s[:1], s[:1])
		}
		return debRelation{}, refusal.Domain(InvalidConstraint, "Debian relation %s does not start with <<, <=, =, >= or >>", quote(c))
	}
	rest := s[len(op):]
	v, msg := debParse(rest)
	if msg == "" && strings.Trim(rest, " \t") == "" {
		msg = "version string is empty"
	}
	if msg != "" {
		return debRelation{}, refusal.Domain(InvalidConstraint, "Debian relation %s: %s", quote(c), msg)
	}
	return debRelation{op: op, v: v}, nil
}

func (r debRelation) test(v *debVersion) bool {
	d := compareDebian(v, r.v)
	switch r.op {
	case "<<":
		return d < 0
	case "<=":
		return d <= 0
	case "=":
		return d == 0
	case ">=":
		return d >= 0
	}
	return d > 0 // >>
}
