package version

import (
	"regexp"
	"strings"

	"github.com/precisiond/precisiond/internal/refusal"
)

// PEP 440 as packaging 23.0 reads it (Version, Specifier, SpecifierSet).
// Python matches these patterns with re.IGNORECASE over Unicode text, where
// İ (U+0130) and ı (U+0131) match i, ſ (U+017F) matches s and K (U+212A)
// matches k; RE2's case folding knows the last two only, so the first two
// are spelled out where an i can match. Numbers are kept as strings of
// ASCII digits without leading zeros and compared by length, then digits:
// Python's ints have no size limit, and neither does this.
const (
	pepPreL   = `alpha|beta|prev[iİı]ew|pre|a|b|c|rc`
	pepPostL  = `po[sſ]t|rev|r`
	pepLocalC = `[a-z0-9İı]`
	pepLocal  = `(?:\+` + pepLocalC + `+(?:[-_.]` + pepLocalC + `+)*)`
	pepSuffix = `(?:[-_.]?(?:` + pepPreL + `)[-_.]?[0-9]*)?` +
		`(?:(?:-[0-9]+)|(?:[-_.]?(?:` + pepPostL + `)[-_.]?[0-9]*))?` +
		`(?:[-_.]?dev[-_.]?[0-9]*)?`
)

var (
	pepVersionRe = regexp.MustCompile(`^(?i)v?(?:(?:(?P<epoch>[0-9]+)!)?(?P<release>[0-9]+(?:\.[0-9]+)*)` +
		`(?P<pre>[-_.]?(?P<pre_l>a|b|c|rc|alpha|beta|pre|prev[iİı]ew)[-_.]?(?P<pre_n>[0-9]+)?)?` +
		`(?P<post>(?:-(?P<post_n1>[0-9]+))|(?:[-_.]?(?P<post_l>` + pepPostL + `)[-_.]?(?P<post_n2>[0-9]+)?))?` +
		`(?P<dev>[-_.]?(?P<dev_l>dev)[-_.]?(?P<dev_n>[0-9]+)?)?)` +
		`(?:\+(?P<local>` + pepLocalC + `+(?:[-_.]` + pepLocalC + `+)*))?$`)
	pepSpecEqual  = regexp.MustCompile(`^(?i)v?(?:[0-9]+!)?[0-9]+(?:\.[0-9]+)*(?:\.\*|` + pepSuffix + pepLocal + `?)?$`)
	pepSpecCompat = regexp.MustCompile(`^(?i)v?(?:[0-9]+!)?[0-9]+(?:\.[0-9]+)+` + pepSuffix + `$`)
	pepSpecOther  = regexp.MustCompile(`^(?i)v?(?:[0-9]+!)?[0-9]+(?:\.[0-9]+)*` + pepSuffix + `$`)
	pepGroups     = map[string]int{}
	pepSplitRe    = regexp.MustCompile(`^([0-9]+)((?:a|b|c|rc)[0-9]+)$`)
)

func init() {
	for i, n := range pepVersionRe.SubexpNames() {
		if n != "" {
			pepGroups[n] = i
		}
	}
}

// pySpace reports whether r is whitespace to Python (str.isspace, re's \s).
func pySpace(r rune) bool {
	switch {
	case r >= '\t' && r <= '\r', r >= 0x1c && r <= 0x20, r == 0x85, r == 0xa0, r == 0x1680,
		r >= 0x2000 && r <= 0x200a, r == 0x2028, r == 0x2029, r == 0x202f, r == 0x205f, r == 0x3000:
		return true
	}
	return false
}

func pyStrip(s string) string { return strings.TrimFunc(s, pySpace) }

// pyLower is Python's str.lower for the text these patterns admit: ASCII,
// İ (which lowers to i and a combining dot above), ı, ſ and K.
func pyLower(s string) string {
	return strings.ToLower(strings.ReplaceAll(s, "İ", "i\u0307"))
}

// digits normalizes a string of ASCII digits as int() then str() would.
func digits(s string) string {
	s = strings.TrimLeft(s, "0")
	if s == "" {
		return "0"
	}
	return s
}

func cmpDigits(a, b string) int {
	if len(a) != len(b) {
		return sign(len(a) - len(b))
	}
	return strings.Compare(a, b)
}

type pepLetter struct {
	set    bool
	letter string
	num    string
}

type pepLocalPart struct {
	num bool
	s   string
}

// pepVersion is a parsed packaging Version.
type pepVersion struct {
	epoch   string
	release []string
	pre     pepLetter
	post    pepLetter
	dev     pepLetter
	local   []pepLocalPart // nil when there is none
}

func parsePEP440(s string) (*pepVersion, error) {
	v, ok := pepParse(s)
	if !ok {
		return nil, refusal.Domain(InvalidVersion, "invalid PEP 440 version %s", quote(s))
	}
	// A version whose normal form reads back as another version (only
	// post-release spellings with ſ and pre-release or local segments
	// with İ) is refused rather than answered with a form that packaging
	// itself could not read back.
	back, ok := pepParse(v.String())
	if !ok || comparePEP440(v, back) != 0 || back.String() != v.String() {
		return nil, refusal.Domain(InvalidVersion, "PEP 440 version %s has no normal form that reads back as itself", quote(s))
	}
	return v, nil
}

func pepParse(s string) (*pepVersion, bool) {
	m := pepVersionRe.FindStringSubmatch(pyStrip(s))
	if m == nil {
		return nil, false
	}
	g := func(n string) string { return m[pepGroups[n]] }
	v := &pepVersion{epoch: "0"}
	if e := g("epoch"); e != "" {
		v.epoch = digits(e)
	}
	for _, r := range strings.Split(g("release"), ".") {
		v.release = append(v.release, digits(r))
	}
	v.pre = pepLetterVersion(g("pre_l"), g("pre_n"))
	n := g("post_n1")
	if n == "" {
		n = g("post_n2")
	}
	v.post = pepLetterVersion(g("post_l"), n)
	v.dev = pepLetterVersion(g("dev_l"), g("dev_n"))
	if l := g("local"); l != "" {
		for _, p := range strings.FieldsFunc(l, func(r rune) bool { return r == '.' || r == '_' || r == '-' }) {
			if allDigits(p) {
				v.local = append(v.local, pepLocalPart{num: true, s: digits(p)})
			} else {
				v.local = append(v.local, pepLocalPart{s: pyLower(p)})
			}
		}
	}
	return v, true
}

// pepLetterVersion is packaging's _parse_letter_version.
func pepLetterVersion(letter, number string) pepLetter {
	if letter != "" {
		letter = pyLower(letter)
		switch letter {
		case "alpha":
			letter = "a"
		case "beta":
			letter = "b"
		case "c", "pre", "preview":
			letter = "rc"
		case "rev", "r":
			letter = "post"
		}
		return pepLetter{set: true, letter: letter, num: digits(number)}
	}
	if number != "" {
		return pepLetter{set: true, letter: "post", num: digits(number)}
	}
	return pepLetter{}
}

func (v *pepVersion) isPre() bool  { return v.dev.set || v.pre.set }
func (v *pepVersion) isPost() bool { return v.post.set }

// canonical is str(Version) without the local segment, the release's
// trailing .0s stripped when strip is set (canonicalize_version).
func (v *pepVersion) canonical(strip bool) string {
	rel := v.release
	if strip {
		for len(rel) > 1 && rel[len(rel)-1] == "0" {
			rel = rel[:len(rel)-1]
		}
	}
	var b strings.Builder
	if v.epoch != "0" {
		b.WriteString(v.epoch + "!")
	}
	b.WriteString(strings.Join(rel, "."))
	if v.pre.set {
		b.WriteString(v.pre.letter + v.pre.num)
	}
	if v.post.set {
		b.WriteString(".post" + v.post.num)
	}
	if v.dev.set {
		b.WriteString(".dev" + v.dev.num)
	}
	return b.String()
}

// String is str(Version), the normal form.
func (v *pepVersion) String() string {
	s := v.canonical(false)
	if v.local != nil {
		parts := make([]string, len(v.local))
		for i, p := range v.local {
			parts[i] = p.s
		}
		s += "+" + strings.Join(parts, ".")
	}
	return s
}

func (v *pepVersion) public() *pepVersion {
	p := *v
	p.local = nil
	return &p
}

// The three-valued parts of packaging's comparison key: -inf, a value, +inf.
const (
	negInf = -1
	value  = 0
	posInf = 1
)

func cmpLetter(a, b pepLetter, aKind, bKind int) int {
	if aKind != bKind {
		return sign(aKind - bKind)
	}
	if aKind != value {
		return 0
	}
	if c := strings.Compare(a.letter, b.letter); c != 0 {
		return c
	}
	return cmpDigits(a.num, b.num)
}

func (v *pepVersion) preKind() int {
	switch {
	case !v.pre.set && !v.post.set && v.dev.set:
		return negInf
	case !v.pre.set:
		return posInf
	}
	return value
}

func kindOf(l pepLetter, missing int) int {
	if l.set {
		return value
	}
	return missing
}

// comparePEP440 orders by packaging's _cmpkey: epoch, release without
// trailing zeros, pre, post, dev, local.
func comparePEP440(a, b *pepVersion) int {
	if c := cmpDigits(a.epoch, b.epoch); c != 0 {
		return c
	}
	ra, rb := stripZeros(a.release), stripZeros(b.release)
	for i := 0; i < len(ra) && i < len(rb); i++ {
		if c := cmpDigits(ra[i], rb[i]); c != 0 {
			return c
		}
	}
	if len(ra) != len(rb) {
		return sign(len(ra) - len(rb))
	}
	if c := cmpLetter(a.pre, b.pre, a.preKind(), b.preKind()); c != 0 {
		return c
	}
	if c := cmpLetter(a.post, b.post, kindOf(a.post, negInf), kindOf(b.post, negInf)); c != 0 {
		return c
	}
	if c := cmpLetter(a.dev, b.dev, kindOf(a.dev, posInf), kindOf(b.dev, posInf)); c != 0 {
		return c
	}
	switch {
	case a.local == nil && b.local == nil:
		return 0
	case a.local == nil:
		return -1
	case b.local == nil:
		return 1
	}
	for i := 0; i < len(a.local) && i < len(b.local); i++ {
		x, y := a.local[i], b.local[i]
		switch {
		case x.num && y.num:
			if c := cmpDigits(x.s, y.s); c != 0 {
				return c
			}
		case x.num:
			return 1
		case y.num:
			return -1
		default:
			if c := strings.Compare(x.s, y.s); c != 0 {
				return c
			}
		}
	}
	return sign(len(a.local) - len(b.local))
}

func stripZeros(rel []string) []string {
	for len(rel) > 0 && rel[len(rel)-1] == "0" {
		rel = rel[:len(rel)-1]
	}
	return rel
}

// pepSpecifier is one parsed Specifier: its operator and its version as
// written (stripped).
type pepSpecifier struct {
	op, ver     string
	prereleases bool
}

type pepSpecifierSet []pepSpecifier

// parseSpecifierSet is SpecifierSet(c): comma-separated specifiers, empty
// ones skipped. An === specifier whose version is not a PEP 440 version is
// refused: packaging 23.0 raises InvalidVersion for it whenever it decides
// whether the set admits prereleases (depending on the set's iteration
// order), so no answer would be reliable.
func parseSpecifierSet(c string) (pepSpecifierSet, error) {
	var set pepSpecifierSet
	for _, part := range strings.Split(c, ",") {
		part = pyStrip(part)
		if part == "" {
			continue
		}
		sp, ok := parseSpecifier(part)
		if !ok {
			return nil, refusal.Domain(InvalidConstraint, "invalid PEP 440 specifier %s in %s", quote(part), quote(c))
		}
		set = append(set, sp)
	}
	return set, nil
}

func parseSpecifier(s string) (pepSpecifier, bool) {
	var op string
	for _, o := range []string{"===", "~=", "==", "!=", "<=", ">=", "<", ">"} {
		if strings.HasPrefix(s, o) {
			op = o
			break
		}
	}
	if op == "" {
		return pepSpecifier{}, false
	}
	ver := pyStrip(s[len(op):])
	sp := pepSpecifier{op: op, ver: ver}
	switch op {
	case "===":
		if strings.ContainsFunc(ver, func(r rune) bool { return pySpace(r) || r == ';' || r == ')' }) {
			return sp, false
		}
		v, ok := pepParse(ver)
		if !ok {
			return sp, false
		}
		sp.prereleases = v.isPre()
		return sp, true
	case "==", "!=":
		if !pepSpecEqual.MatchString(ver) {
			return sp, false
		}
	case "~=":
		if !pepSpecCompat.MatchString(ver) {
			return sp, false
		}
	default:
		if !pepSpecOther.MatchString(ver) {
			return sp, false
		}
	}
	switch op {
	case "==", "~=", ">=", "<=":
		v, _ := pepParse(strings.TrimSuffix(ver, ".*"))
		sp.prereleases = v.isPre()
	}
	return sp, true
}

// contains is SpecifierSet.contains(item) with its default prereleases.
func (set pepSpecifierSet) contains(item *pepVersion) bool {
	pre := false
	for _, sp := range set {
		pre = pre || sp.prereleases
	}
	if !pre && item.isPre() {
		return false
	}
	for _, sp := range set {
		if !sp.contains(item) {
			return false
		}
	}
	return true
}

func mustPEP(s string) *pepVersion {
	v, _ := pepParse(s) // the specifier grammar admits only versions
	return v
}

func (sp pepSpecifier) contains(item *pepVersion) bool {
	switch sp.op {
	case "===":
		return pyLower(item.String()) == pyLower(sp.ver)
	case "==":
		return pepEqual(item, sp.ver)
	case "!=":
		return !pepEqual(item, sp.ver)
	case "<=":
		return comparePEP440(item.public(), mustPEP(sp.ver)) <= 0
	case ">=":
		return comparePEP440(item.public(), mustPEP(sp.ver)) >= 0
	case "<":
		spec := mustPEP(sp.ver)
		if comparePEP440(item, spec) >= 0 {
			return false
		}
		return spec.isPre() || !item.isPre() || !sameBase(item, spec)
	case ">":
		spec := mustPEP(sp.ver)
		if comparePEP440(item, spec) <= 0 {
			return false
		}
		if !spec.isPost() && item.isPost() && sameBase(item, spec) {
			return false
		}
		return item.local == nil || !sameBase(item, spec)
	}
	// ~=: >= the version and == its prefix, taken from the version as
	// written without its last release part and any suffix.
	var keep []string
	for _, p := range pepVersionSplit(sp.ver) {
		if strings.HasPrefix(p, "dev") || strings.HasPrefix(p, "a") || strings.HasPrefix(p, "b") ||
			strings.HasPrefix(p, "rc") || strings.HasPrefix(p, "post") {
			break
		}
		keep = append(keep, p)
	}
	if len(keep) > 0 {
		keep = keep[:len(keep)-1]
	}
	prefix := strings.Join(keep, ".") + ".*"
	return comparePEP440(item.public(), mustPEP(sp.ver)) >= 0 && pepEqual(item, prefix)
}

func sameBase(a, b *pepVersion) bool {
	return cmpDigits(a.epoch, b.epoch) == 0 && equalStrings(stripZeros(a.release), stripZeros(b.release))
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// pepEqual is Specifier._compare_equal.
func pepEqual(item *pepVersion, spec string) bool {
	if !strings.HasSuffix(spec, ".*") {
		sv := mustPEP(spec)
		if sv.local == nil {
			item = item.public()
		}
		return comparePEP440(item, sv) == 0
	}
	prospective := item.public().canonical(true)
	s := strings.TrimSuffix(spec, ".*")
	if sv, ok := pepParse(s); ok { // canonicalize_version keeps what it cannot read
		s = sv.canonical(false)
	}
	splitSpec := pepVersionSplit(s)
	padded := pepPad(pepVersionSplit(prospective), splitSpec)
	if len(padded) > len(splitSpec) {
		padded = padded[:len(splitSpec)]
	}
	return equalStrings(padded, splitSpec)
}

// pepVersionSplit is packaging's _version_split.
func pepVersionSplit(v string) []string {
	var out []string
	for _, item := range strings.Split(v, ".") {
		if m := pepSplitRe.FindStringSubmatch(item); m != nil {
			out = append(out, m[1], m[2])
		} else {
			out = append(out, item)
		}
	}
	return out
}

// pepPad is the left half of packaging's _pad_version: left with zeros
// added after its leading numeric parts up to as many as right has.
func pepPad(left, right []string) []string {
	ln, rn := leadingDigits(left), leadingDigits(right)
	out := append([]string{}, left[:ln]...)
	for i := ln; i < rn; i++ {
		out = append(out, "0")
	}
	return append(out, left[ln:]...)
}

func leadingDigits(parts []string) int {
	n := 0
	for n < len(parts) && allDigits(parts[n]) {
		n++
	}
	return n
}
