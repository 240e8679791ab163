package intent

import (
	"encoding/json"
	"math/big"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The tool's input schema is the authority over an intent's arguments
// (extract: a candidate whose arguments the schema refuses is declined as
// invalid_value). Running the JSON-Schema library on every intent costs
// about as much as recognising it, so each tool also gets an argCheck
// compiled from its input schema for the keywords the intent rules' values
// meet (type, properties, required, additionalProperties, enum, const,
// minimum, maximum, minLength, maxLength, pattern, items, minItems,
// maxItems). It is one-sided: it answers true only when every keyword it
// reads holds and it knows every keyword of the schema, so true means the
// schema accepts the arguments; false means "not shown", and the schema
// library decides. A schema with any other keyword (allOf, anyOf, if,
// uniqueItems, …) gets no argCheck. TestArgCheck compares the two on every
// corpus intent and on altered arguments.

// argCheck is a compiled schema node; nil accepts nothing (the library
// decides).
type argCheck struct {
	types     []string // allowed JSON types; nil: any
	props     map[string]*argCheck
	propList  []namedCheck // props in name order
	required  []string
	closed    bool      // additionalProperties: false
	extra     *argCheck // additionalProperties as a schema
	enum      []string  // the strings of an enum
	enumNums  []string  // the numbers of an enum, as written
	hasEnum   bool
	constStr  *string
	min, max  *big.Rat
	minI64    int64 // min as int64, when minInt
	maxI64    int64
	minInt    bool
	maxInt    bool
	minLen    int // -1: none
	maxLen    int
	pattern   *regexp.Regexp
	items     *argCheck
	hasItems  bool
	minItems  int
	maxItems  int // -1: none
	unchecked bool
}

// namedCheck is one property's check.
type namedCheck struct {
	name  string
	check *argCheck
}

// annotations are keywords that assert nothing.
var annotations = []string{"description", "default", "title", "examples", "$comment", "deprecated", "readOnly",
	"writeOnly"}

// compileArgCheck compiles schema, or returns nil when it has a keyword
// argCheck does not know.
func compileArgCheck(schema any) *argCheck {
	if schema == true {
		return &argCheck{minLen: -1, maxLen: -1, maxItems: -1, unchecked: true}
	}
	s, ok := schema.(map[string]any)
	if !ok {
		return nil
	}
	c := &argCheck{minLen: -1, maxLen: -1, maxItems: -1}
	for kw, v := range s {
		switch kw {
		case "type":
			switch t := v.(type) {
			case string:
				c.types = []string{t}
			case []any:
				for _, e := range t {
					name, ok := e.(string)
					if !ok {
						return nil
					}
					c.types = append(c.types, name)
				}
			default:
				return nil
			}
		case "properties":
			ps, ok := v.(map[string]any)
			if !ok {
				return nil
			}
			c.props = make(map[string]*argCheck, len(ps))
			for name, p := range ps {
				if c.props[name] = compileArgCheck(p); c.props[name] == nil {
					return nil
				}
				c.propList = append(c.propList, namedCheck{name, c.props[name]})
			}
			slices.SortFunc(c.propList, func(a, b namedCheck) int { return strings.Compare(a.name, b.name) })
		case "required":
			list, ok := v.([]any)
			if !ok {
				return nil
			}
			for _, e := range list {
				name, ok := e.(string)
				if !ok {
					return nil
				}
				c.required = append(c.required, name)
			}
		case "additionalProperties":
			if v == false {
				c.closed = true
			} else if c.extra = compileArgCheck(v); c.extra == nil {
				return nil
			}
		case "enum":
			list, ok := v.([]any)
			if !ok {
				return nil
			}
			c.hasEnum = true
			for _, e := range list {
				switch x := e.(type) {
				case string:
					c.enum = append(c.enum, x)
				case json.Number:
					c.enumNums = append(c.enumNums, x.String())
				}
			}
		case "const":
			s, ok := v.(string)
			if !ok {
				return nil
			}
			c.constStr = &s
		case "minimum", "maximum":
			n, ok := v.(json.Number)
			if !ok {
				return nil
			}
			r, ok := new(big.Rat).SetString(n.String())
			if !ok {
				return nil
			}
			i, isInt := int64(0), r.IsInt() && r.Num().IsInt64()
			if isInt {
				i = r.Num().Int64()
			}
			if kw == "minimum" {
				c.min, c.minI64, c.minInt = r, i, isInt
			} else {
				c.max, c.maxI64, c.maxInt = r, i, isInt
			}
		case "minLength", "maxLength", "minItems", "maxItems":
			n, ok := v.(json.Number)
			if !ok {
				return nil
			}
			i, err := strconv.Atoi(n.String())
			if err != nil || i < 0 {
				return nil
			}
			switch kw {
			case "minLength":
				c.minLen = i
			case "maxLength":
				c.maxLen = i
			case "minItems":
				c.minItems = i
			default:
				c.maxItems = i
			}
		case "pattern":
			p, ok := v.(string)
			if !ok {
				return nil
			}
			re, err := regexp.Compile(p)
			if err != nil {
				return nil
			}
			c.pattern = re
		case "items":
			c.hasItems = true
			if c.items = compileArgCheck(v); c.items == nil {
				return nil
			}
		default:
			if !slices.Contains(annotations, kw) {
				return nil
			}
		}
	}
	return c
}

// valid reports whether v surely satisfies the schema c was compiled from.
// As in JSON Schema, the keywords for strings (minLength, maxLength,
// pattern) hold for any other type, as do those for numbers (minimum,
// maximum), arrays and objects; enum and const apply to every type.
func (c *argCheck) valid(v any) bool {
	if c == nil {
		return false
	}
	if c.unchecked {
		return true
	}
	switch x := v.(type) {
	case map[string]any:
		if !c.allows("object") {
			return false
		}
		for _, name := range c.required {
			if _, ok := x[name]; !ok {
				return false
			}
		}
		known := 0
		for _, p := range c.propList {
			if e, ok := x[p.name]; ok {
				known++
				if !p.check.valid(e) {
					return false
				}
			}
		}
		if known < len(x) {
			// Names the schema does not declare.
			if c.closed {
				return false
			}
			if c.extra != nil {
				for name, e := range x {
					if _, ok := c.props[name]; !ok && !c.extra.valid(e) {
						return false
					}
				}
			}
		}
		return !c.hasEnum && c.constStr == nil
	case []any:
		if !c.allows("array") || len(x) < c.minItems || c.maxItems >= 0 && len(x) > c.maxItems {
			return false
		}
		if c.hasItems {
			for _, e := range x {
				if !c.items.valid(e) {
					return false
				}
			}
		}
		return !c.hasEnum && c.constStr == nil
	case string:
		if !c.allows("string") {
			return false
		}
		if c.minLen >= 0 || c.maxLen >= 0 {
			n := utf8.RuneCountInString(x)
			if n < c.minLen || c.maxLen >= 0 && n > c.maxLen {
				return false
			}
		}
		if c.pattern != nil && !c.pattern.MatchString(x) {
			return false
		}
		return (!c.hasEnum || slices.Contains(c.enum, x)) && (c.constStr == nil || *c.constStr == x)
	case json.Number:
		integer := isIntegerText(x.String())
		if !(c.allows("number") || integer && c.allows("integer")) || !isDecimalText(x.String()) {
			return false
		}
		// The same text is the same number (1 and 1.0 are too, but that
		// is left to the library).
		if c.hasEnum && !slices.Contains(c.enumNums, x.String()) || c.constStr != nil {
			return false
		}
		return c.inRange(x.String(), integer)
	case bool:
		return c.allows("boolean") && !c.hasEnum && c.constStr == nil
	}
	return false
}

func (c *argCheck) allows(t string) bool {
	return c.types == nil || slices.Contains(c.types, t)
}

// inRange checks minimum and maximum for the decimal text n.
func (c *argCheck) inRange(n string, integer bool) bool {
	if c.min == nil && c.max == nil {
		return true
	}
	if integer && len(n) <= 18 {
		i, err := strconv.ParseInt(n, 10, 64)
		if err == nil && (c.min == nil || c.minInt) && (c.max == nil || c.maxInt) {
			return (c.min == nil || i >= c.minI64) && (c.max == nil || i <= c.maxI64)
		}
	}
	r, ok := new(big.Rat).SetString(n)
	if !ok {
		return false
	}
	return (c.min == nil || r.Cmp(c.min) >= 0) && (c.max == nil || r.Cmp(c.max) <= 0)
}

// isIntegerText reports whether s is an optional minus and digits.
func isIntegerText(s string) bool {
	if len(s) > 0 && s[0] == '-' {
		s = s[1:]
	}
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

// isDecimalText reports whether s is an optional minus, digits and an
// optional fraction of digits: the numbers the rules write.
func isDecimalText(s string) bool {
	ip, frac, ok := cutByte(s, '.')
	if !ok {
		return isIntegerText(s)
	}
	return isIntegerText(ip) && frac != "" && isIntegerText(frac) && frac[0] != '-'
}

func cutByte(s string, c byte) (string, string, bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}
