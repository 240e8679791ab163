package version

import (
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf16"

	"github.com/precisiond/precisiond/internal/refusal"
)

// npm semver's limits (internal/constants.js): a version string of more than
// maxSemverLength UTF-16 code units is refused, and so is a major, minor or
// patch above Number.MAX_SAFE_INTEGER.
const (
	maxSemverLength = 256
	maxSafeInteger  = 1<<53 - 1
)

// The grammar of npm semver's safe regular expressions (internal/re.js, the
// "safeRe" forms: unbounded repetitions of \d, \s and identifier characters
// capped as there), written as RE2 patterns. RE2 keeps the leftmost-first
// choice of a backtracking engine for alternatives and captures, so replace
// and match results agree with JavaScript's; and it runs in linear time.
const (
	reNum        = `0|[1-9]\d{0,256}`
	reNumLoose   = `\d{1,256}`
	reNonNum     = `\d{0,256}[a-zA-Z-][a-zA-Z0-9-]{0,250}`
	reMain       = `(` + reNum + `)\.(` + reNum + `)\.(` + reNum + `)`
	reMainLoose  = `(` + reNumLoose + `)\.(` + reNumLoose + `)\.(` + reNumLoose + `)`
	rePreID      = `(?:` + reNonNum + `|` + reNum + `)`
	rePreIDLoose = `(?:` + reNonNum + `|` + reNumLoose + `)`
	rePre        = `(?:-(` + rePreID + `(?:\.` + rePreID + `)*))`
	rePreLoose   = `(?:-?(` + rePreIDLoose + `(?:\.` + rePreIDLoose + `)*))`
	reBuildID    = `[a-zA-Z0-9-]{1,250}`
	reBuild      = `(?:\+(` + reBuildID + `(?:\.` + reBuildID + `)*))`
	reFullPlain  = `v?` + reMain + rePre + `?` + reBuild + `?`
	reLoosePlain = `[v=\s]*` + reMainLoose + rePreLoose + `?` + reBuild + `?`
	reGTLT       = `((?:<|>)?=?)`
	reXID        = reNum + `|x|X|\*`
	reXPlain     = `[v=\s]*(` + reXID + `)(?:\.(` + reXID + `)(?:\.(` + reXID + `)(?:` + rePre + `)?` + reBuild + `?)?)?`
)

var semverBuildStrip = regexp.MustCompile(`(?:\+([a-zA-Z0-9-]+(?:\.[a-zA-Z0-9-]+)*))`)

// semverRegexps are the patterns a version or range is read with.
type semverRegexps struct {
	full, hyphen, compTrim, tildeTrim, caretTrim, tilde, caret, xRange, star, gte0, comp *regexp.Regexp
}

func newSemverRegexps(bound func(string) string) *semverRegexps {
	c := func(p string) *regexp.Regexp { return regexp.MustCompile(bound(p)) }
	return &semverRegexps{
		full:      c(`^` + reFullPlain + `$`),
		hyphen:    c(`^\s?(` + reXPlain + `)\s-\s(` + reXPlain + `)\s?$`),
		compTrim:  c(`(\s?)` + reGTLT + `\s?(` + reLoosePlain + `|` + reXPlain + `)`),
		tildeTrim: c(`(\s?)(?:~>?)\s`),
		caretTrim: c(`(\s?)(?:\^)\s`),
		tilde:     c(`^(?:~>?)` + reXPlain + `$`),
		caret:     c(`^(?:\^)` + reXPlain + `$`),
		xRange:    c(`^` + reGTLT + `\s?` + reXPlain + `$`),
		star:      c(`(<|>)?=?\s?\*`),
		gte0:      c(`^\s?>=\s?0\.0\.0\s?$`),
		comp:      c(`^` + reGTLT + `\s?(` + reFullPlain + `)$|^$`),
	}
}

// Two sets of the same patterns: npm's bounded repetitions, and the same
// with the bounds dropped. Every bounded class (\d, [a-zA-Z0-9-]) is one of
// the identifier characters, and no bound is below 250, so on text whose
// runs of identifier characters are all at most 250 long the two sets match
// alike; the unbounded set compiles to programs a tenth the size.
var (
	semverExact = newSemverRegexps(func(p string) string { return p })
	semverFast  = newSemverRegexps(strings.NewReplacer(`\d{0,256}`, `\d*`, `\d{1,256}`, `\d+`,
		`[a-zA-Z0-9-]{0,250}`, `[a-zA-Z0-9-]*`, `[a-zA-Z0-9-]{1,250}`, `[a-zA-Z0-9-]+`).Replace)
)

// semverRegexpsFor picks the set for s.
func semverRegexpsFor(s string) *semverRegexps {
	run := 0
	for i := 0; i < len(s); i++ {
		if c := s[i]; isDigit(c) || isAlpha(c) || c == '-' {
			if run++; run > 250 {
				return semverExact
			}
		} else {
			run = 0
		}
	}
	return semverFast
}

// semverID is one prerelease identifier as npm semver holds it: a JavaScript
// number when it is all digits and below MAX_SAFE_INTEGER, else a string.
type semverID struct {
	isNum bool
	num   uint64
	s     string
}

// semverVersion is a parsed SemVer (build metadata dropped: it never takes
// part in precedence).
type semverVersion struct {
	major, minor, patch uint64
	pre                 []semverID
	str                 string // npm's version property: what valid() returns
}

// jsSpace reports whether r is JavaScript whitespace (\s, String.trim):
// WhiteSpace and LineTerminator of ECMAScript.
func jsSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}

// parseSemver is npm semver's new SemVer(s) with default options; the error
// is a refusal with reason invalid_version.
func parseSemver(s string) (*semverVersion, error) {
	if utf16Len(s) > maxSemverLength {
		return nil, refusal.Domain(InvalidVersion, "version %s is longer than %d characters", quote(s), maxSemverLength)
	}
	t := strings.TrimFunc(s, jsSpace)
	v, ok := semverFromFull(semverRegexpsFor(t), t)
	if !ok {
		return nil, refusal.Domain(InvalidVersion, "invalid SemVer version %s", quote(s))
	}
	return v, nil
}

func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// semverFromFull matches s against FULL and builds the version, refusing
// components above MAX_SAFE_INTEGER as the SemVer constructor does.
func semverFromFull(re *semverRegexps, s string) (*semverVersion, bool) {
	m := re.full.FindStringSubmatch(s)
	if m == nil {
		return nil, false
	}
	v := &semverVersion{}
	for i, p := range []*uint64{&v.major, &v.minor, &v.patch} {
		n, err := strconv.ParseUint(m[i+1], 10, 64)
		if err != nil || n > maxSafeInteger {
			return nil, false
		}
		*p = n
	}
	v.str = m[1] + "." + m[2] + "." + m[3]
	if m[4] != "" {
		for _, id := range strings.Split(m[4], ".") {
			v.pre = append(v.pre, newSemverID(id))
		}
		v.str += "-" + m[4]
	}
	return v, true
}

func newSemverID(id string) semverID {
	if allDigits(id) {
		if n, err := strconv.ParseUint(id, 10, 64); err == nil && n < maxSafeInteger {
			return semverID{isNum: true, num: n, s: id}
		}
	}
	return semverID{s: id}
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// jsNumber is Number(s) for a string of digits: the nearest double, as
// JavaScript compares two all-digit identifiers.
func jsNumber(s string) float64 {
	f, _ := strconv.ParseFloat(s, 64)
	return f
}

// compareSemverIDs is compareIdentifiers of npm semver.
func compareSemverIDs(a, b semverID) int {
	if a.isNum && b.isNum {
		return cmpU(a.num, b.num)
	}
	anum := a.isNum || allDigits(a.s)
	bnum := b.isNum || allDigits(b.s)
	switch {
	case anum && bnum:
		x, y := jsNumber(a.s), jsNumber(b.s)
		switch {
		case x == y:
			return 0
		case x < y:
			return -1
		}
		return 1
	case anum:
		return -1
	case bnum:
		return 1
	}
	return strings.Compare(a.s, b.s) // ASCII: UTF-16 order is byte order
}

func cmpU(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// compareSemver is SemVer.compare: main version, then prerelease precedence;
// as npm, two prerelease identifiers that differ as values end the
// comparison with their own order.
func compareSemver(a, b *semverVersion) int {
	if a.str == b.str {
		return 0
	}
	if c := cmpU(a.major, b.major); c != 0 {
		return c
	}
	if c := cmpU(a.minor, b.minor); c != 0 {
		return c
	}
	if c := cmpU(a.patch, b.patch); c != 0 {
		return c
	}
	switch {
	case len(a.pre) > 0 && len(b.pre) == 0:
		return -1
	case len(a.pre) == 0 && len(b.pre) > 0:
		return 1
	case len(a.pre) == 0:
		return 0
	}
	for i := 0; ; i++ {
		switch {
		case i >= len(a.pre) && i >= len(b.pre):
			return 0
		case i >= len(b.pre):
			return 1
		case i >= len(a.pre):
			return -1
		}
		x, y := a.pre[i], b.pre[i]
		if x.isNum == y.isNum && x.s == y.s {
			continue
		}
		return compareSemverIDs(x, y)
	}
}

// semverComparator is one comparator of a range; any is the empty
// comparator that every version satisfies.
type semverComparator struct {
	op    string // "", "<", "<=", ">", ">="
	v     *semverVersion
	any   bool
	value string
}

// semverRange is a parsed range: a disjunction of comparator sets.
type semverRange [][]semverComparator

// parseSemverRange is npm semver's new Range(r) with default options; the
// error is a refusal with reason invalid_constraint.
func parseSemverRange(r string) (semverRange, error) {
	raw := strings.Join(strings.FieldsFunc(r, jsSpace), " ")
	re := semverRegexpsFor(raw)
	var set semverRange
	for _, part := range strings.Split(raw, "||") {
		comps, err := parseSemverRangePart(re, strings.TrimSpace(part))
		if err != nil {
			return nil, refusal.Domain(InvalidConstraint, "invalid SemVer range %s: %s", quote(r), err.Error())
		}
		set = append(set, comps)
	}
	if len(set) > 1 {
		first := set[0]
		kept := set[:0:0]
		for _, c := range set {
			if !c[0].isNullSet() {
				kept = append(kept, c)
			}
		}
		set = kept
		if len(set) == 0 {
			set = semverRange{first}
		} else if len(set) > 1 {
			for _, c := range set {
				if len(c) == 1 && c[0].any {
					set = semverRange{c}
					break
				}
			}
		}
	}
	return set, nil
}

func (c semverComparator) isNullSet() bool { return c.value == "<0.0.0-0" }

type semverSyntaxError string

func (e semverSyntaxError) Error() string { return string(e) }

// parseSemverRangePart is Range.parseRange: the desugaring of hyphen,
// tilde, caret, x and star ranges into primitive comparators.
func parseSemverRangePart(re *semverRegexps, r string) ([]semverComparator, error) {
	r = semverBuildStrip.ReplaceAllString(r, "")
	r = replaceSubmatch(re.hyphen, r, semverHyphenReplace)
	r = re.compTrim.ReplaceAllString(r, "$1$2$3")
	r = re.tildeTrim.ReplaceAllString(r, "$1~")
	r = re.caretTrim.ReplaceAllString(r, "$1^")
	var parts []string
	for _, comp := range strings.Split(r, " ") {
		parts = append(parts, semverParseComparator(re, comp))
	}
	// Every comparator is read (and may be invalid) before a null set
	// short-cuts the rest, as npm maps them all to Comparators first.
	var comps []semverComparator
	for _, comp := range strings.Fields(strings.Join(parts, " ")) {
		c, err := newSemverComparator(re, re.gte0.ReplaceAllString(comp, ""))
		if err != nil {
			return nil, err
		}
		comps = append(comps, c)
	}
	var out []semverComparator
	seen := map[string]int{}
	for _, c := range comps {
		if c.isNullSet() {
			return []semverComparator{c}, nil
		}
		if i, ok := seen[c.value]; ok {
			out[i] = c // a Map keeps the first key's place and the last value
			continue
		}
		seen[c.value] = len(out)
		out = append(out, c)
	}
	if len(out) == 0 { // an empty part: split(/\s+/) of "" is [""]
		c, _ := newSemverComparator(re, "")
		out = append(out, c)
	}
	if len(out) > 1 {
		if i, ok := seen[""]; ok {
			out = append(out[:i:i], out[i+1:]...)
		}
	}
	return out, nil
}

func newSemverComparator(re *semverRegexps, comp string) (semverComparator, error) {
	m := re.comp.FindStringSubmatch(comp)
	if m == nil {
		return semverComparator{}, semverSyntaxError("invalid comparator " + quote(comp))
	}
	if m[2] == "" {
		return semverComparator{any: true}, nil
	}
	op := m[1]
	if op == "=" {
		op = ""
	}
	if utf16Len(m[2]) > maxSemverLength {
		return semverComparator{}, semverSyntaxError("version in comparator " + quote(comp) + " is too long")
	}
	v, ok := semverFromFull(re, m[2])
	if !ok {
		return semverComparator{}, semverSyntaxError("invalid version in comparator " + quote(comp))
	}
	return semverComparator{op: op, v: v, value: op + v.str}, nil
}

// replaceSubmatch replaces every match of re in s with f of its submatches
// (JavaScript's replace with a function; the patterns used with it are
// anchored or global as npm's are).
func replaceSubmatch(re *regexp.Regexp, s string, f func(m []string) string) string {
	return re.ReplaceAllStringFunc(s, func(match string) string {
		return f(re.FindStringSubmatch(match))
	})
}

// isX is npm's isX: an absent component, x, X or *.
func isX(id string) bool { return id == "" || id == "x" || id == "X" || id == "*" }

// inc is +id + 1 as JavaScript writes it: exact up to MAX_SAFE_INTEGER; a
// larger result is refused later by the comparator's version check, so its
// exact digits do not matter beyond being above the limit.
func inc(id string) string {
	n, ok := new(big.Int).SetString(id, 10)
	if !ok {
		return "NaN"
	}
	return n.Add(n, big.NewInt(1)).String()
}

func semverHyphenReplace(m []string) string {
	from, fM, fm, fp := m[1], m[2], m[3], m[4]
	to, tM, tm, tp, tpr := m[7], m[8], m[9], m[10], m[11]
	switch {
	case isX(fM):
		from = ""
	case isX(fm):
		from = ">=" + fM + ".0.0"
	case isX(fp):
		from = ">=" + fM + "." + fm + ".0"
	default:
		from = ">=" + from
	}
	switch {
	case isX(tM):
		to = ""
	case isX(tm):
		to = "<" + inc(tM) + ".0.0-0"
	case isX(tp):
		to = "<" + tM + "." + inc(tm) + ".0-0"
	case tpr != "":
		to = "<=" + tM + "." + tm + "." + tp + "-" + tpr
	default:
		to = "<=" + to
	}
	return strings.TrimSpace(from + " " + to)
}

// semverParseComparator is parseComparator: carets, tildes, x-ranges, stars.
func semverParseComparator(re *semverRegexps, comp string) string {
	comp = mapFields(comp, func(c string) string { return replaceSubmatch(re.caret, c, semverCaretReplace) })
	comp = mapFields(comp, func(c string) string { return replaceSubmatch(re.tilde, c, semverTildeReplace) })
	comp = mapFields(comp, func(c string) string {
		c = strings.TrimSpace(c)
		return replaceSubmatch(re.xRange, c, func(m []string) string { return semverXRangeReplace(c, m) })
	})
	comp = strings.TrimSpace(comp)
	if loc := re.star.FindStringIndex(comp); loc != nil {
		comp = comp[:loc[0]] + comp[loc[1]:]
	}
	return comp
}

// mapFields is comp.trim().split(/\s+/).map(f).join(' ') (the empty
// fields JavaScript keeps at the ends or between doubled spaces only come
// back as spaces that a later trim or split removes).
func mapFields(comp string, f func(string) string) string {
	fields := strings.Fields(comp)
	for i, c := range fields {
		fields[i] = f(c)
	}
	return strings.Join(fields, " ")
}

func semverTildeReplace(m []string) string {
	M, mi, p, pr := m[1], m[2], m[3], m[4]
	switch {
	case isX(M):
		return ""
	case isX(mi):
		return ">=" + M + ".0.0 <" + inc(M) + ".0.0-0"
	case isX(p):
		return ">=" + M + "." + mi + ".0 <" + M + "." + inc(mi) + ".0-0"
	case pr != "":
		return ">=" + M + "." + mi + "." + p + "-" + pr + " <" + M + "." + inc(mi) + ".0-0"
	}
	return ">=" + M + "." + mi + "." + p + " <" + M + "." + inc(mi) + ".0-0"
}

func semverCaretReplace(m []string) string {
	M, mi, p, pr := m[1], m[2], m[3], m[4]
	base := ">=" + M + "." + mi + "." + p
	if pr != "" {
		base += "-" + pr
	}
	switch {
	case isX(M):
		return ""
	case isX(mi):
		return ">=" + M + ".0.0 <" + inc(M) + ".0.0-0"
	case isX(p):
		if M == "0" {
			return ">=" + M + "." + mi + ".0 <" + M + "." + inc(mi) + ".0-0"
		}
		return ">=" + M + "." + mi + ".0 <" + inc(M) + ".0.0-0"
	case M == "0" && mi == "0":
		return base + " <" + M + "." + mi + "." + inc(p) + "-0"
	case M == "0":
		return base + " <" + M + "." + inc(mi) + ".0-0"
	}
	return base + " <" + inc(M) + ".0.0-0"
}

func semverXRangeReplace(comp string, m []string) string {
	ret, gtlt, M, mi, p := m[0], m[1], m[2], m[3], m[4]
	if (isX(M) && !isX(mi)) || (isX(mi) && p != "" && !isX(p)) {
		return comp
	}
	xM := isX(M)
	xm := xM || isX(mi)
	xp := xm || isX(p)
	if gtlt == "=" && xp {
		gtlt = ""
	}
	pr := ""
	switch {
	case xM:
		if gtlt == ">" || gtlt == "<" {
			return "<0.0.0-0"
		}
		return "*"
	case gtlt != "" && xp:
		if xm {
			mi = "0"
		}
		p = "0"
		switch gtlt {
		case ">":
			gtlt = ">="
			if xm {
				M, mi, p = inc(M), "0", "0"
			} else {
				mi, p = inc(mi), "0"
			}
		case "<=":
			gtlt = "<"
			if xm {
				M = inc(M)
			} else {
				mi = inc(mi)
			}
		}
		if gtlt == "<" {
			pr = "-0"
		}
		return gtlt + M + "." + mi + "." + p + pr
	case xm:
		return ">=" + M + ".0.0 <" + inc(M) + ".0.0-0"
	case xp:
		return ">=" + M + "." + mi + ".0 <" + M + "." + inc(mi) + ".0-0"
	}
	return ret
}

// test is Range.test for a parsed version.
func (r semverRange) test(v *semverVersion) bool {
	for _, set := range r {
		if semverTestSet(set, v) {
			return true
		}
	}
	return false
}

func semverTestSet(set []semverComparator, v *semverVersion) bool {
	for _, c := range set {
		if !c.test(v) {
			return false
		}
	}
	if len(v.pre) == 0 {
		return true
	}
	// A prerelease satisfies only a set with a comparator that names a
	// prerelease of the same major.minor.patch.
	for _, c := range set {
		if c.any || len(c.v.pre) == 0 {
			continue
		}
		if c.v.major == v.major && c.v.minor == v.minor && c.v.patch == v.patch {
			return true
		}
	}
	return false
}

func (c semverComparator) test(v *semverVersion) bool {
	if c.any {
		return true
	}
	d := compareSemver(v, c.v)
	switch c.op {
	case "":
		return d == 0
	case "<":
		return d < 0
	case "<=":
		return d <= 0
	case ">":
		return d > 0
	}
	return d >= 0 // ">="
}
