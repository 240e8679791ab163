package version

import (
	"strings"
	"testing"
)

// The parsers never panic; what parses reads back from its normal form as
// an equal version, and a constraint that parses can be tested.

func FuzzSemverVersion(f *testing.F) {
	for _, s := range []string{"1.2.3", "v1.2.3-alpha.1+b", " 1.0.0-0 ", "01.2.3", "1.2.3-9007199254740993"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := parseSemver(s)
		if err != nil {
			return
		}
		w, err := parseSemver(v.str)
		if err != nil || w.str != v.str || compareSemver(v, w) != 0 {
			t.Fatalf("%q: normal form %q reads back as %v, %v", s, v.str, w, err)
		}
	})
}

func FuzzSemverRange(f *testing.F) {
	for _, s := range []string{"^0.2.3 || 1.x", "1.2.3 - 2", "~1.2.3-beta >=1.0.0 <2", "*", ">= 1.2.3 || ||", "^9007199254740991.0.0"} {
		f.Add(s, "1.2.3-beta.1")
	}
	f.Fuzz(func(t *testing.T, r, v string) {
		if len(r) > 1024 {
			return
		}
		rg, err := parseSemverRange(r)
		if err != nil {
			return
		}
		if sv, err := parseSemver(v); err == nil {
			rg.test(sv)
		}
	})
}

func FuzzPEP440Version(f *testing.F) {
	for _, s := range []string{"1.0", "1!2.0rc1.post2.dev3+abc.5", "v1.0-RC1", " 1.0.poſt1", "1.0+İ", "01.002"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := parsePEP440(s)
		if err != nil {
			return
		}
		w, err := parsePEP440(v.String())
		if err != nil || w.String() != v.String() || comparePEP440(v, w) != 0 {
			t.Fatalf("%q: normal form %q reads back as %v, %v", s, v.String(), w, err)
		}
	})
}

func FuzzPEP440Specifier(f *testing.F) {
	for _, s := range []string{"~=1.4.5a4", ">=1.0, !=1.5.*, <2", "===foobar", "==1.0.*", ">1.0.post1"} {
		f.Add(s, "1.5.0rc1")
	}
	f.Fuzz(func(t *testing.T, c, v string) {
		set, err := parseSpecifierSet(c)
		if err != nil {
			return
		}
		if pv, err := parsePEP440(v); err == nil {
			set.contains(pv)
		}
	})
}

func FuzzDebianVersion(f *testing.F) {
	for _, s := range []string{"1:2.3-1", "1.0~rc1", "\n1:1.0", "-0:1.0", "a1.0", "1.0-"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := parseDebian(s)
		if err != nil {
			return
		}
		w, err := parseDebian(strings.Trim(s, " \t"))
		if err != nil || compareDebian(v, w) != 0 {
			t.Fatalf("%q: trimmed reads back as %v, %v", s, w, err)
		}
	})
}

func FuzzDebianRelation(f *testing.F) {
	for _, s := range []string{">= 1:2.3-1", "<<1.0", "< 1.0", "= 1.0 x", ">>"} {
		f.Add(s, "1.0-1")
	}
	f.Fuzz(func(t *testing.T, c, v string) {
		rel, err := parseDebianRelation(c)
		if err != nil {
			return
		}
		if dv, err := parseDebian(v); err == nil {
			rel.test(dv)
		}
	})
}

// FuzzSemverRegexpSets: on text whose identifier runs are at most 250
// characters, the unbounded patterns read a range as npm's bounded ones do.
func FuzzSemverRegexpSets(f *testing.F) {
	for _, s := range []string{"^0.2.3 || 1.x", "1.2.3-" + strings.Repeat("a", 240) + " - 2", ">=1.2.3-0a.b+c <2", "~> 1.2 || * - 3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, r string) {
		if len(r) > 1024 || semverRegexpsFor(r) != semverFast {
			return
		}
		a, errA := parseSemverRangePart(semverExact, r)
		b, errB := parseSemverRangePart(semverFast, r)
		if (errA == nil) != (errB == nil) || len(a) != len(b) {
			t.Fatalf("%q: exact %v %v, fast %v %v", r, a, errA, b, errB)
		}
		for i := range a {
			if a[i].value != b[i].value || a[i].any != b[i].any {
				t.Fatalf("%q: comparator %d: exact %q, fast %q", r, i, a[i].value, b[i].value)
			}
		}
	})
}
