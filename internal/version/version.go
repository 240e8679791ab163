// Package version compares, sorts and matches version strings of three
// schemes exactly as their reference implementations do: npm's semver
// package (SemVer 2.0.0 precedence and npm ranges), Python's packaging
// (PEP 440 Version and SpecifierSet) and dpkg (Debian versions and one
// relation). The semantics, and where they surprise, are in
// docs/data-versions.md; the oracle vectors that pin them are under
// tools/testdata/version_compare.
package version

import (
	"slices"
	"strconv"

	"github.com/precisiond/precisiond/internal/refusal"
)

// The reasons a call is refused.
const (
	InvalidVersion    = "invalid_version"
	InvalidConstraint = "invalid_constraint"
	UnknownScheme     = "unknown_scheme"
)

// Schemes are the version schemes, in documentation order.
var Schemes = []string{"semver", "pep440", "debian"}

// A parsed version of some scheme.
type parsed any

type scheme struct {
	parse      func(string) (parsed, error)           // refusal invalid_version
	normalized func(raw string, v parsed) string      // the form compare answers
	compare    func(a, b parsed) int                  // -1, 0, 1
	satisfies  func(v parsed, c string) (bool, error) // refusal invalid_constraint
}

var schemes = map[string]scheme{
	"semver": {
		parse:      func(s string) (parsed, error) { return parseSemver(s) },
		normalized: func(_ string, v parsed) string { return v.(*semverVersion).str },
		compare:    func(a, b parsed) int { return compareSemver(a.(*semverVersion), b.(*semverVersion)) },
		satisfies: func(v parsed, c string) (bool, error) {
			r, err := parseSemverRange(c)
			if err != nil {
				return false, err
			}
			return r.test(v.(*semverVersion)), nil
		},
	},
	"pep440": {
		parse:      func(s string) (parsed, error) { return parsePEP440(s) },
		normalized: func(_ string, v parsed) string { return v.(*pepVersion).String() },
		compare:    func(a, b parsed) int { return comparePEP440(a.(*pepVersion), b.(*pepVersion)) },
		satisfies: func(v parsed, c string) (bool, error) {
			set, err := parseSpecifierSet(c)
			if err != nil {
				return false, err
			}
			return set.contains(v.(*pepVersion)), nil
		},
	},
	"debian": {
		parse:      func(s string) (parsed, error) { return parseDebian(s) },
		normalized: func(raw string, _ parsed) string { return raw },
		compare:    func(a, b parsed) int { return sign(compareDebian(a.(*debVersion), b.(*debVersion))) },
		satisfies: func(v parsed, c string) (bool, error) {
			rel, err := parseDebianRelation(c)
			if err != nil {
				return false, err
			}
			return rel.test(v.(*debVersion)), nil
		},
	},
}

func lookup(name string) (scheme, error) {
	s, ok := schemes[name]
	if !ok {
		return scheme{}, refusal.Domain(UnknownScheme, "unknown version scheme %s", quote(name))
	}
	return s, nil
}

func sign(c int) int {
	switch {
	case c < 0:
		return -1
	case c > 0:
		return 1
	}
	return 0
}

// Comparison is the answer of Compare.
type Comparison struct {
	Result      int // -1 when a < b, 0 when equal in precedence, 1 when a > b
	ANormalized string
	BNormalized string
}

// Compare compares a and b in the scheme. Errors: refusals invalid_version
// (naming the version) and unknown_scheme.
func Compare(schemeName, a, b string) (Comparison, error) {
	s, err := lookup(schemeName)
	if err != nil {
		return Comparison{}, err
	}
	va, err := s.parse(a)
	if err != nil {
		return Comparison{}, err
	}
	vb, err := s.parse(b)
	if err != nil {
		return Comparison{}, err
	}
	return Comparison{Result: s.compare(va, vb), ANormalized: s.normalized(a, va), BNormalized: s.normalized(b, vb)}, nil
}

// parseAll parses every version; the first one that does not parse is
// refused with its position.
func parseAll(s scheme, versions []string) ([]parsed, error) {
	out := make([]parsed, len(versions))
	for i, v := range versions {
		p, err := s.parse(v)
		if err != nil {
			if r, ok := err.(*refusal.Error); ok {
				return nil, refusal.Domain(r.Reason, "versions[%d]: %s", i, r.Message)
			}
			return nil, err
		}
		out[i] = p
	}
	return out, nil
}

// Sort returns versions in ascending precedence, versions of equal
// precedence in their given order, each as given. Errors as Compare's.
func Sort(schemeName string, versions []string) ([]string, error) {
	s, err := lookup(schemeName)
	if err != nil {
		return nil, err
	}
	ps, err := parseAll(s, versions)
	if err != nil {
		return nil, err
	}
	idx := make([]int, len(versions))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(i, j int) int { return s.compare(ps[i], ps[j]) })
	out := make([]string, len(idx))
	for k, i := range idx {
		out[k] = versions[i]
	}
	return out, nil
}

// Max returns the version of highest precedence as given, the first of
// equal ones (Python's max()). Errors as Compare's.
func Max(schemeName string, versions []string) (string, error) {
	s, err := lookup(schemeName)
	if err != nil {
		return "", err
	}
	ps, err := parseAll(s, versions)
	if err != nil {
		return "", err
	}
	best := 0
	for i := 1; i < len(ps); i++ {
		if s.compare(ps[i], ps[best]) > 0 {
			best = i
		}
	}
	return versions[best], nil
}

// Satisfies reports whether version satisfies constraint. The version is
// checked first. Errors: refusals invalid_version, invalid_constraint and
// unknown_scheme.
func Satisfies(schemeName, version, constraint string) (bool, error) {
	s, err := lookup(schemeName)
	if err != nil {
		return false, err
	}
	v, err := s.parse(version)
	if err != nil {
		return false, err
	}
	return s.satisfies(v, constraint)
}

// quote quotes s for a message, Go syntax, control characters escaped.
func quote(s string) string { return strconv.Quote(s) }
