// Package structured parses and validates structured payloads (JSON, YAML, XML,
// CSV) under declared cost limits, without resolving anything from outside, and
// provides the ordered JSON value model shared with the JMESPath evaluator.
//
// Every limit hit, syntax error and refused construct is a Finding, never a panic:
// parsers check depth before they descend, so 100 000-deep nesting costs one
// bounded scan.
package structured

import "strings"

// Number is a JSON number kept as the exact text the client sent (RFC 8259
// grammar, already validated by the parser).
type Number string

// IsInt reports whether the number was written without a fraction or exponent,
// which Python's json module (the reference) decodes as an int.
func (n Number) IsInt() bool { return !strings.ContainsAny(string(n), ".eE") }

// Object is a JSON object that keeps its keys in first-insertion order, as a
// Python dict does: a repeated key keeps its first position and takes the last
// value.
type Object struct {
	Keys   []string
	Values []any
	index  map[string]int
}

// smallObject is the size up to which lookups scan the key list instead of
// building a map.
const smallObject = 8

// NewObject returns an empty object with room for n members.
func NewObject(n int) *Object {
	return &Object{Keys: make([]string, 0, n), Values: make([]any, 0, n)}
}

// Len returns the number of members.
func (o *Object) Len() int { return len(o.Keys) }

func (o *Object) find(k string) int {
	if o.index != nil {
		if i, ok := o.index[k]; ok {
			return i
		}
		return -1
	}
	for i, key := range o.Keys {
		if key == k {
			return i
		}
	}
	return -1
}

// Get returns the value for key k.
func (o *Object) Get(k string) (any, bool) {
	if i := o.find(k); i >= 0 {
		return o.Values[i], true
	}
	return nil, false
}

// Set sets key k, appending it when new (Python dict semantics).
func (o *Object) Set(k string, v any) {
	if i := o.find(k); i >= 0 {
		o.Values[i] = v
		return
	}
	o.Keys = append(o.Keys, k)
	o.Values = append(o.Values, v)
	if o.index != nil {
		o.index[k] = len(o.Keys) - 1
	} else if len(o.Keys) > smallObject {
		o.index = make(map[string]int, len(o.Keys)*2)
		for i, key := range o.Keys {
			o.index[key] = i
		}
	}
}
