package version

import "testing"

func BenchmarkSemverRange(b *testing.B) {
	v, _ := parseSemver("1.2.3")
	for b.Loop() {
		r, err := parseSemverRange("^0.2.3 || ~1.2.0 || 1.2.3 - 2.0.0 || >=3.0.0-rc.1 <4")
		if err != nil {
			b.Fatal(err)
		}
		r.test(v)
	}
}

func BenchmarkSemverParse(b *testing.B) {
	for b.Loop() {
		if _, err := parseSemver("1.2.3-beta.11+build.5"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPEP440Specifiers(b *testing.B) {
	v, _ := parsePEP440("1.4.7")
	for b.Loop() {
		s, err := parseSpecifierSet("~=1.4.5, !=1.4.6, <2.0.dev0")
		if err != nil {
			b.Fatal(err)
		}
		s.contains(v)
	}
}

func BenchmarkDebianCompare(b *testing.B) {
	for b.Loop() {
		x, _ := parseDebian("1:2.30~rc1-1ubuntu0.1")
		y, _ := parseDebian("1:2.30-1")
		compareDebian(x, y)
	}
}
