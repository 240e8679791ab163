package contracts

import (
	"encoding/json"
	"maps"
	"math/big"
	"regexp"
	"slices"
	"strconv"
	"unicode/utf8"
)

// A precheck is a contract schema compiled, when the contract loads, into a
// tree that decides the common case quickly: an instance it finds valid is
// valid, and validate answers nil without asking the schema library. Every
// other instance (invalid, or holding something the precheck does not know)
// goes to jsonschema/v6, which stays the one authority for every refusal and
// its details. The library's own cost per call is mostly its generality: a
// scope, a validator and an evaluation record per value, and each number
// formatted and parsed back as a big.Rat; the precheck compares an integer
// that fits an int64 as an int64.
//
// It knows the keywords the contracts use (precheckKeywords) with the
// library's meaning in draft 2020-12, and nothing else: a schema with any other
// keyword has no precheck, so the library validates all of its instances. Its
// verdicts are exact; a value of a Go type a JSON decoder does not produce
// (float64, int…) is unknown. TestPrecheckAgreesWithJSONSchema checks it
// against the library on every vector of every tool, and FuzzPrecheck on
// arbitrary JSON.
type precheck struct {
	always *bool // a boolean schema

	types uint8 // kind bits; 0: any type

	enum     []any
	hasConst bool
	konst    any

	minLen, maxLen int // -1: none
	pattern        *regexp.Regexp

	min, max, exMin, exMax *bound

	props              map[string]*precheck
	propList           []namedPrecheck // props in name order: walked instead of the instance
	required           []string
	additional         *precheck // nil: any other property allowed
	minProps, maxProps int       // -1: none

	items              *precheck
	minItems, maxItems int // -1: none
	unique             bool

	allOf, anyOf, oneOf []*precheck
	not                 *precheck
	cond, then, els     *precheck // if, then, else
}

// namedPrecheck is one entry of properties.
type namedPrecheck struct {
	name  string
	check *precheck
}

// verdict is a precheck's answer.
type verdict uint8

const (
	unknown verdict = iota // ask the library
	valid
	invalid
)

// Kind bits of a JSON value, as the schema's "type" names them.
const (
	kNull uint8 = 1 << iota
	kBoolean
	kNumber
	kInteger // a type bit only: an integer value is kNumber
	kString
	kArray
	kObject
)

var kindBits = map[string]uint8{"null": kNull, "boolean": kBoolean, "number": kNumber, "integer": kInteger,
	"string": kString, "array": kArray, "object": kObject}

// precheckKeywords are the keywords a precheck knows; the annotations among
// them assert nothing.
var precheckKeywords = map[string]bool{
	"description": true, "title": true, "default": true, "examples": true, "$comment": true,
	"type": true, "enum": true, "const": true,
	"minLength": true, "maxLength": true, "pattern": true,
	"minimum": true, "maximum": true, "exclusiveMinimum": true, "exclusiveMaximum": true,
	"properties": true, "required": true, "additionalProperties": true, "minProperties": true, "maxProperties": true,
	"items": true, "minItems": true, "maxItems": true, "uniqueItems": true,
	"allOf": true, "anyOf": true, "oneOf": true, "not": true, "if": true, "then": true, "else": true,
}

// compilePrecheck compiles a schema (generic JSON as a contract holds it) into
// a precheck, or nil when it uses a keyword or a form the precheck does not
// know.
func compilePrecheck(schema any) *precheck {
	switch s := schema.(type) {
	case bool:
		return &precheck{always: &s}
	case map[string]any:
		p := &precheck{minLen: -1, maxLen: -1, minProps: -1, maxProps: -1, minItems: -1, maxItems: -1}
		for k, v := range s {
			if !precheckKeywords[k] || !p.set(k, v) {
				return nil
			}
		}
		return p
	}
	return nil
}

// set compiles one keyword into p; false when its value has a form the
// precheck does not know.
func (p *precheck) set(k string, v any) bool {
	ok := true
	switch k {
	case "description", "title", "default", "examples", "$comment":
	case "type":
		p.types, ok = typeBits(v)
	case "enum":
		p.enum, ok = v.([]any)
	case "const":
		p.hasConst, p.konst = true, v
	case "minLength":
		p.minLen, ok = count(v)
	case "maxLength":
		p.maxLen, ok = count(v)
	case "pattern":
		s, isStr := v.(string)
		var err error
		if p.pattern, err = regexp.Compile(s); !isStr || err != nil {
			return false
		}
	case "minimum":
		p.min, ok = newBound(v)
	case "maximum":
		p.max, ok = newBound(v)
	case "exclusiveMinimum":
		p.exMin, ok = newBound(v)
	case "exclusiveMaximum":
		p.exMax, ok = newBound(v)
	case "properties":
		m, isObj := v.(map[string]any)
		if !isObj {
			return false
		}
		p.props = make(map[string]*precheck, len(m))
		for _, name := range slices.Sorted(maps.Keys(m)) {
			if p.props[name] = compilePrecheck(m[name]); p.props[name] == nil {
				return false
			}
			p.propList = append(p.propList, namedPrecheck{name, p.props[name]})
		}
	case "required":
		list, isList := v.([]any)
		for _, e := range list {
			s, isStr := e.(string)
			if !isStr {
				return false
			}
			p.required = append(p.required, s)
		}
		ok = isList
	case "additionalProperties":
		p.additional = compilePrecheck(v)
		ok = p.additional != nil
	case "minProperties":
		p.minProps, ok = count(v)
	case "maxProperties":
		p.maxProps, ok = count(v)
	case "items":
		p.items = compilePrecheck(v)
		ok = p.items != nil
	case "minItems":
		p.minItems, ok = count(v)
	case "maxItems":
		p.maxItems, ok = count(v)
	case "uniqueItems":
		p.unique, ok = v.(bool)
	case "allOf":
		p.allOf, ok = compileAll(v)
	case "anyOf":
		p.anyOf, ok = compileAll(v)
	case "oneOf":
		p.oneOf, ok = compileAll(v)
	case "not":
		p.not = compilePrecheck(v)
		ok = p.not != nil
	case "if":
		p.cond = compilePrecheck(v)
		ok = p.cond != nil
	case "then":
		p.then = compilePrecheck(v)
		ok = p.then != nil
	case "else":
		p.els = compilePrecheck(v)
		ok = p.els != nil
	default:
		return false
	}
	return ok
}

func typeBits(v any) (uint8, bool) {
	if s, ok := v.(string); ok {
		b := kindBits[s]
		return b, b != 0
	}
	list, ok := v.([]any)
	if !ok || len(list) == 0 {
		return 0, false
	}
	var bits uint8
	for _, e := range list {
		b, ok := typeBits(e)
		if !ok {
			return 0, false
		}
		bits |= b
	}
	return bits, true
}

// count reads a non-negative integer keyword (minLength…).
func count(v any) (int, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	i, err := strconv.Atoi(string(n))
	return i, err == nil && i >= 0
}

func compileAll(v any) ([]*precheck, bool) {
	list, ok := v.([]any)
	if !ok || len(list) == 0 {
		return nil, false
	}
	out := make([]*precheck, len(list))
	for i, sub := range list {
		if out[i] = compilePrecheck(sub); out[i] == nil {
			return nil, false
		}
	}
	return out, true
}

// bound is a number of minimum, maximum, exclusiveMinimum or
// exclusiveMaximum: exact, and as an int64 when it is an integer that fits.
type bound struct {
	rat   *big.Rat
	i     int64
	isI64 bool
}

func newBound(v any) (*bound, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return nil, false
	}
	r, ok := new(big.Rat).SetString(string(n))
	if !ok {
		return nil, false
	}
	b := &bound{rat: r}
	if r.IsInt() && r.Num().IsInt64() {
		b.i, b.isI64 = r.Num().Int64(), true
	}
	return b, true
}

// number is a json.Number as the precheck reads it: an integer that fits an
// int64 written plainly (no fraction, exponent or leading zero) as i; any
// other only when a keyword needs its value, then exactly, as the library
// does (big.Rat).
type number struct {
	text  string
	i     int64
	isI64 bool
	rat   *big.Rat
}

func readNumber(s string) number {
	if plainInt(s) {
		if i, err := strconv.ParseInt(s, 10, 64); err == nil {
			return number{text: s, i: i, isI64: true}
		}
	}
	return number{text: s}
}

// plainInt reports whether s is -?(0|[1-9][0-9]*) of at most 18 digits.
func plainInt(s string) bool {
	if s != "" && s[0] == '-' {
		s = s[1:]
	}
	if s == "" || len(s) > 18 || (s[0] == '0' && len(s) > 1) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// exact is the number's value; false for a text that is no number.
func (n *number) exact() (*big.Rat, bool) {
	if n.rat == nil {
		if n.isI64 {
			n.rat = new(big.Rat).SetInt64(n.i)
		} else if r, ok := new(big.Rat).SetString(n.text); ok {
			n.rat = r
		} else {
			return nil, false
		}
	}
	return n.rat, true
}

// isInteger is the verdict of type integer on a number.
func (n *number) isInteger() verdict {
	if n.isI64 {
		return valid
	}
	r, ok := n.exact()
	if !ok {
		return unknown
	}
	return holds(r.IsInt())
}

// within is the verdict of a bound: want holds the results of n's
// comparison with b (-1, 0, +1) that satisfy it.
func (n *number) within(b *bound, want ...int) verdict {
	if b == nil {
		return valid
	}
	var c int
	if n.isI64 && b.isI64 {
		switch {
		case n.i < b.i:
			c = -1
		case n.i > b.i:
			c = 1
		}
	} else {
		r, ok := n.exact()
		if !ok {
			return unknown
		}
		c = r.Cmp(b.rat)
	}
	for _, w := range want {
		if c == w {
			return valid
		}
	}
	return invalid
}

// kindOf is the kind bit of a generic JSON value, 0 for a Go type a JSON
// decoder does not produce.
func kindOf(v any) uint8 {
	switch v.(type) {
	case nil:
		return kNull
	case bool:
		return kBoolean
	case json.Number:
		return kNumber
	case string:
		return kString
	case []any:
		return kArray
	case map[string]any:
		return kObject
	}
	return 0
}

// both is the verdict of two keywords of one schema: invalid if either is,
// else unknown if either is.
func both(a, b verdict) verdict {
	if a == invalid || b == invalid {
		return invalid
	}
	if a == unknown || b == unknown {
		return unknown
	}
	return valid
}

func holds(ok bool) verdict {
	if ok {
		return valid
	}
	return invalid
}

// check decides v against the schema p was compiled from.
func (p *precheck) check(v any) verdict {
	if p.always != nil {
		return holds(*p.always)
	}
	k := kindOf(v)
	if k == 0 {
		return unknown
	}
	var num number
	if k == kNumber {
		num = readNumber(string(v.(json.Number)))
	}
	if p.types != 0 && p.types&k == 0 {
		if k != kNumber || p.types&kInteger == 0 {
			return invalid
		}
		if r := num.isInteger(); r != valid {
			return r
		}
	}
	res := valid
	if p.hasConst {
		if res = equal(v, p.konst); res == invalid {
			return invalid
		}
	}
	if p.enum != nil {
		res = both(res, p.inEnum(v))
	}
	if res == invalid {
		return invalid
	}
	switch k {
	case kString:
		res = both(res, p.checkString(v.(string)))
	case kNumber:
		res = both(res, p.checkNumber(&num))
	case kObject:
		res = both(res, p.checkObject(v.(map[string]any)))
	case kArray:
		res = both(res, p.checkArray(v.([]any)))
	}
	if res == invalid {
		return invalid
	}
	return both(res, p.checkApplicators(v))
}

func (p *precheck) inEnum(v any) verdict {
	res := invalid
	for _, e := range p.enum {
		switch equal(v, e) {
		case valid:
			return valid
		case unknown:
			res = unknown
		}
	}
	return res
}

func (p *precheck) checkString(s string) verdict {
	if p.minLen >= 0 || p.maxLen >= 0 {
		n := utf8.RuneCountInString(s)
		if (p.minLen >= 0 && n < p.minLen) || (p.maxLen >= 0 && n > p.maxLen) {
			return invalid
		}
	}
	return holds(p.pattern == nil || p.pattern.MatchString(s))
}

func (p *precheck) checkNumber(n *number) verdict {
	res := n.within(p.min, 0, 1)
	for _, r := range []verdict{n.within(p.max, -1, 0), n.within(p.exMin, 1), n.within(p.exMax, -1)} {
		res = both(res, r)
	}
	return res
}

func (p *precheck) checkObject(obj map[string]any) verdict {
	if (p.minProps >= 0 && len(obj) < p.minProps) || (p.maxProps >= 0 && len(obj) > p.maxProps) {
		return invalid
	}
	for _, name := range p.required {
		if _, ok := obj[name]; !ok {
			return invalid
		}
	}
	// The declared properties are looked up rather than the instance's
	// members ranged over (a map range costs more than a few look-ups for
	// the small objects of tool calls); the instance is walked only when it
	// has members beyond them and additionalProperties constrains those.
	res := valid
	declared := 0
	for _, np := range p.propList {
		e, ok := obj[np.name]
		if !ok {
			continue
		}
		declared++
		if res = both(res, np.check.check(e)); res == invalid {
			return invalid
		}
	}
	if declared == len(obj) || p.additional == nil {
		return res
	}
	for name, e := range obj {
		if _, ok := p.props[name]; ok {
			continue
		}
		if res = both(res, p.additional.check(e)); res == invalid {
			return invalid
		}
	}
	return res
}

func (p *precheck) checkArray(arr []any) verdict {
	if (p.minItems >= 0 && len(arr) < p.minItems) || (p.maxItems >= 0 && len(arr) > p.maxItems) {
		return invalid
	}
	res := valid
	if p.items != nil {
		for _, e := range arr {
			if res = both(res, p.items.check(e)); res == invalid {
				return invalid
			}
		}
	}
	if p.unique {
		res = both(res, uniqueScalars(arr))
	}
	return res
}

// uniqueScalars decides uniqueItems for an array of strings, numbers,
// booleans and nulls (numbers equal by value, as the library has it); an
// array holding arrays or objects is left to the library.
func uniqueScalars(arr []any) verdict {
	type numKey string // a number's exact value, as big.Rat writes it
	seen := make(map[any]bool, len(arr))
	for _, e := range arr {
		key := e
		switch x := e.(type) {
		case string, bool, nil:
		case json.Number:
			n := readNumber(string(x))
			r, ok := n.exact()
			if !ok {
				return unknown
			}
			key = numKey(r.RatString())
		default:
			return unknown
		}
		if seen[key] {
			return invalid
		}
		seen[key] = true
	}
	return valid
}

func (p *precheck) checkApplicators(v any) verdict {
	res := valid
	for _, sub := range p.allOf {
		if res = both(res, sub.check(v)); res == invalid {
			return invalid
		}
	}
	if p.anyOf != nil {
		some := invalid
		for _, sub := range p.anyOf {
			if r := sub.check(v); r == valid {
				some = valid
				break
			} else if r == unknown {
				some = unknown
			}
		}
		res = both(res, some)
	}
	if p.oneOf != nil {
		n := 0
		for _, sub := range p.oneOf {
			switch sub.check(v) {
			case valid:
				n++
			case unknown:
				return unknown
			}
		}
		res = both(res, holds(n == 1))
	}
	if p.not != nil {
		switch p.not.check(v) {
		case valid:
			return invalid
		case unknown:
			res = both(res, unknown)
		}
	}
	if p.cond != nil {
		next := p.els
		switch p.cond.check(v) {
		case unknown:
			return both(res, unknown)
		case valid:
			next = p.then
		}
		if next != nil {
			res = both(res, next.check(v))
		}
	}
	return res
}

// equal is JSON equality as the library's const, enum and uniqueItems have
// it: numbers by value (1 = 1.0), objects by members, arrays in order.
func equal(a, b any) verdict {
	ka, kb := kindOf(a), kindOf(b)
	if ka == 0 || kb == 0 {
		return unknown
	}
	if ka != kb {
		return invalid
	}
	switch x := a.(type) {
	case nil:
		return valid
	case bool:
		return holds(x == b.(bool))
	case string:
		return holds(x == b.(string))
	case json.Number:
		na, nb := readNumber(string(x)), readNumber(string(b.(json.Number)))
		if na.isI64 && nb.isI64 {
			return holds(na.i == nb.i)
		}
		ra, ok1 := na.exact()
		rb, ok2 := nb.exact()
		if !ok1 || !ok2 {
			return unknown
		}
		return holds(ra.Cmp(rb) == 0)
	case []any:
		y := b.([]any)
		if len(x) != len(y) {
			return invalid
		}
		res := valid
		for i := range x {
			if res = both(res, equal(x[i], y[i])); res == invalid {
				return invalid
			}
		}
		return res
	case map[string]any:
		y := b.(map[string]any)
		if len(x) != len(y) {
			return invalid
		}
		res := valid
		for k, e := range x {
			f, ok := y[k]
			if !ok {
				return invalid
			}
			if res = both(res, equal(e, f)); res == invalid {
				return invalid
			}
		}
		return res
	}
	return unknown
}
