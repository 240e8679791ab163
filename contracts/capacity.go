package contracts

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
)

// unbounded is the capacity of a schema that puts no limit on the number of
// JSON values an instance may hold.
const unbounded = math.MaxInt64

// capacity returns the most JSON values (every object, array and scalar
// counts one) an instance valid against schema can hold, from the schema's
// own limits: maxItems of arrays, the declared properties of closed objects,
// the widest branch of anyOf/oneOf. A schema that allows an unlimited number
// (an array without maxItems, an open object, $ref, ...) is unbounded.
//
// Input schemas of contracts are closed and bounded, so an instance with more
// values than its schema's capacity is invalid for certain; ValidateInput
// refuses it before the schema library builds an error for each of its
// values (hundreds of bytes apiece: a 1 MiB argument object of tiny values
// would otherwise cost hundreds of MiB).
func capacity(schema any) int64 {
	s, ok := schema.(map[string]any)
	if !ok {
		if schema == false {
			return 0
		}
		return unbounded
	}
	if _, ok := s["$ref"]; ok {
		return unbounded
	}
	own := ownCapacity(s)
	for _, kw := range []string{"anyOf", "oneOf"} {
		branches, ok := s[kw].([]any)
		if !ok {
			continue
		}
		var widest int64
		for _, b := range branches {
			widest = max(widest, capacity(b))
		}
		own = min(own, widest)
	}
	return own
}

// ownCapacity is capacity from the keywords of s itself (not its branches).
func ownCapacity(s map[string]any) int64 {
	types := map[string]bool{}
	switch t := s["type"].(type) {
	case string:
		types[t] = true
	case []any:
		for _, e := range t {
			if name, ok := e.(string); ok {
				types[name] = true
			}
		}
	default:
		if _, ok := s["const"]; ok {
			return valuesIn(s["const"])
		}
		if _, hasAny := s["anyOf"]; hasAny {
			return unbounded // the branches decide
		}
		if _, hasOne := s["oneOf"]; hasOne {
			return unbounded
		}
		return unbounded // no type: anything
	}
	var widest int64
	for t := range types {
		var n int64
		switch t {
		case "array":
			n = arrayCapacity(s)
		case "object":
			n = objectCapacity(s)
		default:
			n = 1
		}
		widest = max(widest, n)
	}
	return widest
}

func arrayCapacity(s map[string]any) int64 {
	maxItems, ok := intKeyword(s, "maxItems")
	if !ok {
		return unbounded
	}
	items := capacity(s["items"])
	if _, has := s["items"]; !has {
		items = unbounded
	}
	return add(1, mul(maxItems, items))
}

func objectCapacity(s map[string]any) int64 {
	if s["additionalProperties"] != false {
		return unbounded
	}
	if _, ok := s["patternProperties"]; ok {
		return unbounded
	}
	props, _ := s["properties"].(map[string]any)
	n := int64(1)
	for _, p := range props {
		n = add(n, capacity(p))
	}
	return n
}

func intKeyword(s map[string]any, kw string) (int64, bool) {
	switch v := s[kw].(type) {
	case json.Number:
		n, err := v.Int64()
		return n, err == nil && n >= 0
	case float64:
		return int64(v), v >= 0
	}
	return 0, false
}

func add(a, b int64) int64 {
	if a > unbounded-b {
		return unbounded
	}
	return a + b
}

func mul(a, b int64) int64 {
	if a != 0 && b > unbounded/a {
		return unbounded
	}
	return a * b
}

// valuesIn counts the JSON values of v, stopping once the count passes limit.
func valuesIn(v any) int64 { return countValues(v, unbounded) }

func countValues(v any, limit int64) int64 {
	n := int64(1)
	switch x := v.(type) {
	case map[string]any:
		for _, e := range x {
			if n > limit {
				return n
			}
			n = add(n, countValues(e, limit-n))
		}
	case []any:
		for _, e := range x {
			if n > limit {
				return n
			}
			n = add(n, countValues(e, limit-n))
		}
	}
	return n
}

// valueSlack is how many values over its capacity an instance may hold and
// still be evaluated by the schema library, which then names the exact limit
// it breaks; beyond it ValidateInput refuses at once.
const valueSlack = 1024

// tooManyValues is the error of an instance with more values than its
// schema's capacity.
func tooManyValues(limit int64) *ValidationError {
	return &ValidationError{Details: []Detail{{Path: "", Keyword: "maxItems",
		Message: fmt.Sprintf("the arguments hold more than %d JSON values, the most this schema accepts (maxItems and declared properties)", limit)}}}
}

// window is the number of elements of a long array validated at a time.
const window = 1000

// windowable reports whether the arrays an instance of schema may hold can be
// validated window by window: each element on its own (items), with no
// keyword that relates an element to its position or to the other elements'
// presence (prefixItems, contains, unevaluatedItems) and no $ref to follow.
// Elements outside a window cannot make one of its errors wrong: item errors
// hold for the whole array, and uniqueItems or maxItems failing in a window
// fail for the whole array too; only minItems is then ignored.
func windowable(schema any) bool {
	switch x := schema.(type) {
	case map[string]any:
		for k, v := range x {
			switch k {
			case "prefixItems", "contains", "minContains", "maxContains", "unevaluatedItems", "$ref", "$dynamicRef":
				return false
			}
			if !windowable(v) {
				return false
			}
		}
	case []any:
		for _, v := range x {
			if !windowable(v) {
				return false
			}
		}
	}
	return true
}

// shiftIndex returns path with the element index after name moved by off
// (a path into a window made a path into the whole array).
func shiftIndex(path []string, name string, off int) []string {
	if len(path) < 2 || path[0] != name {
		return path
	}
	i, err := strconv.Atoi(path[1])
	if err != nil {
		return path
	}
	out := slices.Clone(path)
	out[1] = strconv.Itoa(i + off)
	return out
}

// validateInWindows validates args with each long array among its top-level
// values cut into windows of at most window elements, and returns the first
// failing window's errors with element paths pointing into the whole array.
// The schema library builds an error object per failing element, so a 100 000
// element array of wrong types would otherwise cost ~70 MiB; a window costs
// under 1 MiB. It returns nil when every window is valid (the whole instance
// must then still be validated, for keywords over the whole array).
func (c *Contract) validateInWindows(args map[string]any) error {
	for name, v := range args {
		arr, ok := v.([]any)
		if !ok || len(arr) <= window || !c.windowed[name] {
			continue
		}
		// The other long arrays are cut to their first window: validating
		// each of them whole with every window of this one would make two
		// 100 000-element arrays (x and y) cost 100 windows × 100 000
		// elements. Each array has its own turn of this loop.
		probe := make(map[string]any, len(args))
		for k, e := range args {
			if other, ok := e.([]any); ok && k != name && len(other) > window && c.windowed[k] {
				e = other[:window]
			}
			probe[k] = e
		}
		for off := 0; off < len(arr); off += window {
			probe[name] = arr[off:min(off+window, len(arr))]
			err := validate(c.input, c.InputSchema, probe)
			if err == nil {
				continue
			}
			ve, ok := err.(*ValidationError)
			if !ok {
				return err
			}
			var kept []Detail
			for _, d := range ve.Details {
				if d.Keyword == "minItems" {
					continue // a window is shorter than the array
				}
				d.Path = pointer(shiftIndex(unpointer(d.Path), name, off))
				kept = append(kept, d)
			}
			if len(kept) > 0 {
				out := &ValidationError{Details: kept}
				if f := ve.first; f != nil && f.validator != "minItems" {
					g := *f
					g.parts = shiftIndex(f.parts, name, off)
					out.first = &g
				}
				return out
			}
		}
	}
	return nil
}
