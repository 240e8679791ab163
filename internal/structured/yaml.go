package structured

import (
	"context"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"

	"github.com/precisiond/precisiond/internal/refusal"
)

// The reference reads YAML with PyYAML: yaml.scan over the whole payload
// first (a scanner error is yaml_parse_error; any anchor, alias or tag token
// is yaml_alias_anchor_or_tag_rejected), then yaml.safe_load (YAML 1.1 types,
// merge keys, duplicate keys: the last value wins), then its node count. We
// do the same with a YAML 1.1 scanner and parser of our own (yamlscan.go,
// yamlparse.go), held to PyYAML's verdicts, messages and marks by
// TestYAMLAgreesWithPyYAML, and build the values PyYAML would build
// (yamlConstructor).

// yamlReaderError is PyYAML's reader check, run before anything else: only
// printable characters (tab, line breaks and the printable ranges) may occur.
func yamlReaderError(src string) *Finding {
	pos := 0
	for _, r := range src {
		ok := r == 0x9 || r == 0xA || r == 0xD || r >= 0x20 && r <= 0x7E || r == 0x85 ||
			r >= 0xA0 && r <= 0xD7FF || r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF
		if !ok {
			h := strconv.FormatInt(int64(r), 16)
			for len(h) < 4 {
				h = "0" + h
			}
			f := finding(CodeYAMLParse, "unacceptable character #x"+h+": special characters are not allowed\n  in \"<unicode string>\", position "+strconv.Itoa(pos), nil, nil, "")
			return &f
		}
		pos++
	}
	return nil
}

// syntaxFinding is the yaml_parse_error of a scanner, parser or constructor
// error, at PyYAML's 1-based line and column.
func syntaxFinding(e *yamlSyntax) Finding {
	if e.valueErr {
		return valueErrorFinding(e.msg)
	}
	return finding(CodeYAMLParse, e.msg, ptr(int(e.mark.line)+1), ptr(int(e.mark.col)+1), "")
}

// validateYAML checks one YAML payload as the reference does. Findings:
// yaml_parse_error, yaml_alias_anchor_or_tag_rejected, and the text of a
// ValueError the reference catches (structured_depth_limit_exceeded,
// structured_node_limit_exceeded, a bad timestamp such as "month must be in
// 1..12", an integer over 4300 digits, an escape past U+10FFFF). Nesting
// past PyYAML's recursion limit is the refusal
// structured_depth_limit_exceeded, as the reference fails.
func validateYAML(ctx context.Context, src string, lim Limits, res *Result) error {
	if f := yamlReaderError(src); f != nil {
		res.Errors = append(res.Errors, *f)
		return nil
	}
	buf := getYAMLBuffers()
	defer putYAMLBuffers(buf)
	toks, serr := scanYAMLTokens(src, buf)
	if serr != nil {
		res.Errors = append(res.Errors, syntaxFinding(serr))
		return nil
	}
	for _, t := range toks {
		if t.kind == ytAlias || t.kind == ytAnchor || t.kind == ytTag {
			res.Errors = append(res.Errors, valueErrorFinding(CodeYAMLRejected))
			return nil
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	doc, perr, tooDeep := parseYAMLTokens(toks, lim.MaxYAMLNesting, buf)
	switch {
	case tooDeep:
		// PyYAML's composer recurses once per level and exhausts Python's
		// recursion limit: the reference fails, and so do we.
		return refusal.Domain(ReasonDepthLimit, "maximum recursion depth exceeded")
	case perr != nil:
		res.Errors = append(res.Errors, syntaxFinding(perr))
		return nil
	}
	c := &yamlConstructor{}
	v := c.document(doc)
	switch {
	case c.err != nil:
		res.Errors = append(res.Errors, *c.err)
		return nil
	case c.valueErr != "":
		res.Errors = append(res.Errors, valueErrorFinding(c.valueErr))
		return nil
	}
	depth, nodes, reason := boundedTree(v, lim)
	if reason != "" {
		res.Errors = append(res.Errors, valueErrorFinding(reason))
		return nil
	}
	setTree(res, depth, nodes)
	return nil
}

// pyMapping is a dict PyYAML built: keys are Python values (not only str;
// a YAML str is a *string), a repeated key keeps its first position and
// takes the last value.
type pyMapping struct {
	entries []pyEntry
	index   map[pyKey]int // built once the mapping outgrows a linear search
}

// pyEntry is one key of a pyMapping, its identity and its value.
type pyEntry struct {
	id   pyKey
	k, v any
}

// pyKey identifies a dict key as Python's equality does (keyID).
type pyKey struct {
	kind byte
	n    int64
	s    string
}

// find is the position of the key id, or -1.
func (m *pyMapping) find(id pyKey) int {
	if m.index != nil {
		if i, ok := m.index[id]; ok {
			return i
		}
		return -1
	}
	for i := range m.entries {
		if m.entries[i].id == id {
			return i
		}
	}
	return -1
}

// add appends a new key and its value.
func (m *pyMapping) add(id pyKey, k, v any) {
	m.entries = append(m.entries, pyEntry{id, k, v})
	switch {
	case m.index != nil:
		m.index[id] = len(m.entries) - 1
	case len(m.entries) > 16:
		m.index = make(map[pyKey]int, 2*len(m.entries))
		for i := range m.entries {
			m.index[m.entries[i].id] = i
		}
	}
}

// pySeq is a list PyYAML built (filled after it is created, as PyYAML does).
type pySeq struct{ items []any }

// Dates and times PyYAML builds from YAML 1.1 timestamps.
type (
	pyDate     struct{ y, m, d int }
	pyDateTime struct {
		y, m, d, hh, mm, ss, us int
		aware                   bool
		offset                  int // minutes east of UTC, when aware
	}
)

// yamlConstructor builds the values yaml.safe_load builds, in its order: a
// collection is created empty and filled later, breadth first, so that the
// first error it meets is the reference's.
type yamlConstructor struct {
	queue    []yamlFill
	err      *Finding // a ConstructorError: yaml_parse_error
	valueErr string   // a ValueError: the reference's finding code
	// Blocks the collections are carved from, a few allocations for many
	// small collections.
	maps    []pyMapping
	seqs    []pySeq
	entries []pyEntry
	items   []any
}

// carve takes n elements of capacity (length 0) from the block, starting a
// new block when it has too few left.
func carve[T any](block *[]T, n int) []T {
	b := *block
	if cap(b)-len(b) < n {
		b = make([]T, 0, max(n, 2*cap(b), 8))
	}
	out := b[len(b) : len(b) : len(b)+n]
	*block = b[:len(b)+n]
	return out
}

// one takes one zero element from the block.
func one[T any](block *[]T) *T {
	s := carve(block, 1)[:1]
	return &s[0]
}

// yamlFill is a collection created empty and filled later: a mapping (m)
// or a sequence (s) from node n.
type yamlFill struct {
	n *ynode
	m *pyMapping
	s *pySeq
}

func (c *yamlConstructor) failed() bool { return c.err != nil || c.valueErr != "" }

func (c *yamlConstructor) document(body *ynode) any {
	if body == nil {
		return nil
	}
	v := c.object(body)
	for len(c.queue) > 0 && !c.failed() {
		q := c.queue
		c.queue = nil
		for _, fill := range q {
			if c.failed() {
				break
			}
			if fill.m != nil {
				c.fillMapping(fill.m, fill.n)
			} else {
				c.fillSeq(fill.s, fill.n)
			}
		}
	}
	return v
}

func (c *yamlConstructor) constructorError(n *ynode, msg string) {
	if c.failed() {
		return
	}
	f := finding(CodeYAMLParse, msg, ptr(int(n.mark.line)+1), ptr(int(n.mark.col)+1), "")
	c.err = &f
}

// yamlPair is a mapping's key and value nodes.
type yamlPair struct{ key, value *ynode }

func mappingPairs(n *ynode) []yamlPair {
	out := make([]yamlPair, 0, len(n.kids)/2)
	for i := 0; i+1 < len(n.kids); i += 2 {
		out = append(out, yamlPair{n.kids[i], n.kids[i+1]})
	}
	return out
}

// isMergeKey reports the plain scalar "<<" (tag:yaml.org,2002:merge).
func isMergeKey(n *ynode) bool { return n.kind == ynScalar && n.plain && n.value == "<<" }

// flatten is SafeConstructor.flatten_mapping: the pairs of a mapping with its
// merge keys replaced by the merged mappings' pairs, placed first.
func (c *yamlConstructor) flatten(n *ynode) []yamlPair {
	var merge, own []yamlPair
	for _, p := range mappingPairs(n) {
		if !isMergeKey(p.key) {
			own = append(own, p)
			continue
		}
		switch v := p.value; v.kind {
		case ynMap:
			merge = append(merge, c.flatten(v)...)
		case ynSeq:
			var sub [][]yamlPair
			for _, e := range v.kids {
				if e.kind != ynMap {
					c.constructorError(e, "expected a mapping for merging, but found "+e.id())
					return nil
				}
				sub = append(sub, c.flatten(e))
			}
			for i := len(sub) - 1; i >= 0; i-- {
				merge = append(merge, sub[i]...)
			}
		default:
			c.constructorError(v, "expected a mapping or list of mappings for merging, but found "+v.id())
			return nil
		}
		if c.failed() {
			return nil
		}
	}
	return append(merge, own...)
}

// object is construct_object: a scalar now, a collection empty (filled later).
func (c *yamlConstructor) object(n *ynode) any {
	switch n.kind {
	case ynMap:
		m := one(&c.maps)
		c.queue = append(c.queue, yamlFill{n: n, m: m})
		return m
	case ynSeq:
		s := one(&c.seqs)
		c.queue = append(c.queue, yamlFill{n: n, s: s})
		return s
	}
	return c.scalar(n)
}

func (c *yamlConstructor) fillSeq(s *pySeq, n *ynode) {
	s.items = carve(&c.items, len(n.kids))
	for _, e := range n.kids {
		v := c.object(e)
		if c.failed() {
			return
		}
		s.items = append(s.items, v)
	}
}

func (c *yamlConstructor) fillMapping(m *pyMapping, n *ynode) {
	merges := false
	for i := 0; i < len(n.kids); i += 2 {
		merges = merges || isMergeKey(n.kids[i])
	}
	if !merges {
		m.entries = carve(&c.entries, len(n.kids)/2)
		for i := 0; i+1 < len(n.kids) && !c.failed(); i += 2 {
			c.addPair(m, n.kids[i], n.kids[i+1])
		}
		return
	}
	pairs := c.flatten(n)
	m.entries = carve(&c.entries, len(pairs))
	for _, p := range pairs {
		if c.failed() {
			return
		}
		c.addPair(m, p.key, p.value)
	}
}

// addPair constructs a key and its value into m: a repeated key keeps its
// place and takes the new value.
func (c *yamlConstructor) addPair(m *pyMapping, kn, vn *ynode) {
	k := c.keyObject(kn)
	if c.failed() {
		return
	}
	switch k.(type) {
	case *pyMapping, *pySeq:
		c.constructorError(kn, "found unhashable key")
		return
	}
	v := c.object(vn)
	if c.failed() {
		return
	}
	id := keyID(k)
	if i := m.find(id); i >= 0 {
		m.entries[i].v = v
		return
	}
	m.add(id, k, v)
}

// keyObject constructs a key: as object(), except that a plain "=" is a str
// (flatten_mapping retags it).
func (c *yamlConstructor) keyObject(n *ynode) any {
	if n.kind == ynScalar && n.plain && n.value == "=" {
		return &n.value
	}
	return c.object(n)
}

// The YAML 1.1 implicit types of PyYAML's resolver, by first character.
var (
	yamlFloatRe   = regexp.MustCompile(`^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9_]+(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$`)
	yamlIntRe     = regexp.MustCompile(`^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$`)
	yamlTimeRe    = regexp.MustCompile(`^(?:[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)$`)
	yamlTimeParts = regexp.MustCompile(`^([0-9][0-9][0-9][0-9])-([0-9][0-9]?)-([0-9][0-9]?)(?:(?:[Tt]|[ \t]+)([0-9][0-9]?):([0-9][0-9]):([0-9][0-9])(?:\.([0-9]*))?(?:[ \t]*(Z|([-+])([0-9][0-9]?)(?::([0-9][0-9]))?))?)?$`)
)

// yamlResolve is PyYAML's implicit resolver for a plain scalar.
func yamlResolve(s string) string {
	if plainDecimal(s) {
		return "int"
	}
	first := byte(0)
	if s != "" {
		first = s[0]
	}
	has := func(set string) bool { return strings.IndexByte(set, first) >= 0 }
	switch {
	case len(s) <= 5 && yamlBool(s):
		return "bool"
	case has("-+0123456789.") && yamlFloatRe.MatchString(s):
		return "float"
	case has("-+0123456789") && yamlIntRe.MatchString(s):
		return "int"
	case first == '<' && s == "<<":
		return "merge"
	case s == "" || s == "~" || s == "null" || s == "Null" || s == "NULL":
		return "null"
	case has("0123456789") && yamlTimeRe.MatchString(s):
		return "timestamp"
	case s == "=":
		return "value"
	}
	return "str"
}

// yamlBool reports the YAML 1.1 booleans of PyYAML's resolver.
func yamlBool(s string) bool {
	switch s {
	case "yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE", "on", "On", "ON", "off", "Off", "OFF":
		return true
	}
	return false
}

// plainDecimal reports a plain decimal integer without sign, underscores
// or leading zero: the common case the resolver's expressions need not see.
func plainDecimal(s string) bool {
	if s == "" || s[0] == '0' && len(s) > 1 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// scalar constructs a scalar as SafeConstructor does. A str is the node's
// own text, by pointer (*string): boxing a pointer allocates nothing. The
// node lives in the reader's pooled buffers, so a built value is only read
// before they go back to the pool (validateYAML's end).
func (c *yamlConstructor) scalar(n *ynode) any {
	text := n.value
	if !n.plain {
		return &n.value
	}
	switch yamlResolve(text) {
	case "null":
		return nil
	case "bool":
		switch strings.ToLower(text) {
		case "yes", "true", "on":
			return true
		}
		return false
	case "int":
		return c.yamlInt(text)
	case "float":
		return yamlFloat(text)
	case "timestamp":
		return c.yamlTimestamp(text)
	case "merge":
		c.constructorError(n, "could not determine a constructor for the tag 'tag:yaml.org,2002:merge'")
		return nil
	case "value":
		c.constructorError(n, "could not determine a constructor for the tag 'tag:yaml.org,2002:value'")
		return nil
	}
	return &n.value
}

func (c *yamlConstructor) yamlInt(text string) any {
	v := strings.ReplaceAll(text, "_", "")
	neg := false
	if v != "" && (v[0] == '-' || v[0] == '+') {
		neg = v[0] == '-'
		v = v[1:]
	}
	if len(v) > 0 && len(v) <= 18 && (v[0] != '0' || len(v) == 1) {
		if i, err := strconv.ParseInt(v, 10, 64); err == nil {
			if neg {
				i = -i
			}
			return i
		}
	}
	n := new(big.Int)
	switch {
	case v == "0":
	case strings.HasPrefix(v, "0b"), strings.HasPrefix(v, "0x"):
		base := 2
		if v[1] == 'x' {
			base = 16
		}
		if _, ok := n.SetString(v[2:], base); !ok {
			c.valueErr = "invalid literal for int() with base " + strconv.Itoa(base) + ": " + pyRepr(v[2:])
			return nil
		}
	case v[0] == '0':
		if _, ok := n.SetString(v, 8); !ok {
			c.valueErr = "invalid literal for int() with base 8: " + pyRepr(v)
			return nil
		}
	case strings.Contains(v, ":"):
		base := big.NewInt(1)
		parts := strings.Split(v, ":")
		for i := len(parts) - 1; i >= 0; i-- {
			d, _ := new(big.Int).SetString(parts[i], 10)
			n.Add(n, d.Mul(d, base))
			base.Mul(base, big.NewInt(60))
		}
	default:
		if len(v) > maxIntDigits {
			c.valueErr = "Exceeds the limit (4300 digits) for integer string conversion: value has " + strconv.Itoa(len(v)) +
				" digits; use sys.set_int_max_str_digits() to increase the limit"
			return nil
		}
		n.SetString(v, 10)
	}
	if neg {
		n.Neg(n)
	}
	if n.IsInt64() {
		return n.Int64()
	}
	return n
}

func yamlFloat(text string) float64 {
	v := strings.ToLower(strings.ReplaceAll(text, "_", ""))
	sign := 1.0
	if v != "" && (v[0] == '-' || v[0] == '+') {
		if v[0] == '-' {
			sign = -1
		}
		v = v[1:]
	}
	switch {
	case v == ".inf":
		return sign * math.Inf(1)
	case v == ".nan":
		return math.NaN()
	case strings.Contains(v, ":"):
		parts := strings.Split(v, ":")
		base, value := 1.0, 0.0
		for i := len(parts) - 1; i >= 0; i-- {
			d, _ := strconv.ParseFloat(parts[i], 64)
			value += d * base
			base *= 60
		}
		return sign * value
	}
	f, _ := strconv.ParseFloat(v, 64)
	return sign * f
}

// yamlTimestamp is construct_yaml_timestamp, with the ValueError texts of
// Python's datetime for out-of-range fields.
func (c *yamlConstructor) yamlTimestamp(text string) any {
	m := yamlTimeParts.FindStringSubmatch(text)
	if m == nil {
		return text
	}
	atoi := func(s string) int { n, _ := strconv.Atoi(s); return n }
	y, mo, d := atoi(m[1]), atoi(m[2]), atoi(m[3])
	if m[4] == "" {
		if msg := checkDate(y, mo, d); msg != "" {
			c.valueErr = msg
			return nil
		}
		return pyDate{y, mo, d}
	}
	dt := pyDateTime{y: y, m: mo, d: d, hh: atoi(m[4]), mm: atoi(m[5]), ss: atoi(m[6])}
	if m[7] != "" {
		f := m[7]
		if len(f) > 6 {
			f = f[:6]
		}
		for len(f) < 6 {
			f += "0"
		}
		dt.us = atoi(f)
	}
	switch {
	case m[9] != "":
		off := atoi(m[10])*60 + atoi(m[11])
		if m[9] == "-" {
			off = -off
		}
		if off <= -24*60 || off >= 24*60 {
			c.valueErr = "offset must be a timedelta strictly between -timedelta(hours=24) and timedelta(hours=24), not " + timedeltaRepr(off*60) + "."
			return nil
		}
		dt.aware, dt.offset = true, off
	case m[8] != "":
		dt.aware = true
	}
	if msg := checkDate(y, mo, d); msg != "" {
		c.valueErr = msg
		return nil
	}
	switch {
	case dt.hh > 23:
		c.valueErr = "hour must be in 0..23"
	case dt.mm > 59:
		c.valueErr = "minute must be in 0..59"
	case dt.ss > 59:
		c.valueErr = "second must be in 0..59"
	}
	if c.valueErr != "" {
		return nil
	}
	return dt
}

// checkDate is datetime.date's argument check.
func checkDate(y, m, d int) string {
	switch {
	case y < 1 || y > 9999:
		return "year " + strconv.Itoa(y) + " is out of range"
	case m < 1 || m > 12:
		return "month must be in 1..12"
	}
	days := [...]int{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}[m-1]
	if m == 2 && y%4 == 0 && (y%100 != 0 || y%400 == 0) {
		days = 29
	}
	if d < 1 || d > days {
		return "day is out of range for month"
	}
	return ""
}

// timedeltaRepr is repr(datetime.timedelta(seconds=s)).
func timedeltaRepr(s int) string {
	days := s / 86400
	rem := s % 86400
	if rem < 0 {
		days--
		rem += 86400
	}
	var parts []string
	if days != 0 {
		parts = append(parts, "days="+strconv.Itoa(days))
	}
	if rem != 0 {
		parts = append(parts, "seconds="+strconv.Itoa(rem))
	}
	if len(parts) == 0 {
		return "datetime.timedelta(0)"
	}
	return "datetime.timedelta(" + strings.Join(parts, ", ") + ")"
}

// keyID identifies a dict key as Python's equality does: 1, 1.0 and True are
// one key; every NaN is a distinct one; a date never equals a datetime, nor a
// naive datetime an aware one.
func keyID(k any) pyKey {
	switch x := k.(type) {
	case nil:
		return pyKey{kind: 'z'}
	case bool:
		if x {
			return pyKey{kind: 'n', n: 1}
		}
		return pyKey{kind: 'n'}
	case int64:
		return pyKey{kind: 'n', n: x}
	case *big.Int:
		return pyKey{kind: 'N', s: x.String()}
	case float64:
		switch {
		case math.IsNaN(x):
			return pyKey{kind: 'F', s: "nan"} // every .nan is one object to PyYAML
		case math.IsInf(x, 0):
			return pyKey{kind: 'F', s: strconv.FormatFloat(x, 'g', -1, 64)}
		case x == math.Trunc(x):
			if x >= -(1<<63) && x < 1<<63 {
				return pyKey{kind: 'n', n: int64(x)}
			}
			i, _ := big.NewFloat(x).Int(nil)
			return pyKey{kind: 'N', s: i.String()}
		}
		return pyKey{kind: 'f', s: strconv.FormatFloat(x, 'g', -1, 64)}
	case string:
		return pyKey{kind: 's', s: x}
	case *string:
		return pyKey{kind: 's', s: *x}
	case pyDate:
		return pyKey{kind: 'd', n: int64(daysFromCivil(x.y, x.m, x.d))}
	case pyDateTime:
		t := (((int64(daysFromCivil(x.y, x.m, x.d))*24+int64(x.hh))*60+int64(x.mm))*60+int64(x.ss))*1000000 + int64(x.us)
		if x.aware {
			// Compare as instants: shift to UTC.
			return pyKey{kind: 'T', n: t - int64(x.offset)*60*1000000}
		}
		return pyKey{kind: 't', n: t}
	}
	return pyKey{kind: '?'}
}

// daysFromCivil counts days since 1970-01-01 in the proleptic Gregorian calendar.
func daysFromCivil(y, m, d int) int {
	if m <= 2 {
		y--
	}
	era := y / 400
	if y < 0 && y%400 != 0 {
		era--
	}
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}
