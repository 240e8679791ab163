package surface

import (
	"bytes"
	"slices"
)

// Scanning JSON text that is known to be valid (json.Valid has passed), for
// the hot paths that read a request's few top-level members without decoding
// it: /invoke's body and an MCP JSON-RPC message.

// Members reads the object b (valid JSON) whose keys are among keys, each
// at most once and written without escapes: vals[i] is the raw value of
// keys[i], nil when absent. It reports false for any other b.
func Members(b []byte, vals [][]byte, keys ...string) bool {
	return EachMember(b, func(key, val []byte) bool {
		i := slices.Index(keys, string(key))
		if i < 0 || vals[i] != nil {
			return false // another key, or a key twice
		}
		vals[i] = val
		return true
	})
}

// PlainString decodes a JSON string of printable ASCII without escapes.
func PlainString(v []byte) (string, bool) {
	if len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' {
		return "", false
	}
	s := v[1 : len(v)-1]
	for _, c := range s {
		if c < 0x20 || c > 0x7e || c == '\\' || c == '"' {
			return "", false
		}
	}
	return string(s), true
}

// EachMember calls fn for every member of the JSON object b (valid JSON,
// leading and trailing whitespace allowed) with the key's raw text (between
// the quotes) and the value's raw bytes. It reports false when b is not an
// object, a key has an escape, or fn returns false.
func EachMember(b []byte, fn func(key, val []byte) bool) bool {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return false
	}
	i = skipSpace(b, i+1)
	if b[i] == '}' {
		return true
	}
	for {
		end := ValueEnd(b, i) // the key
		key := b[i+1 : end-1]
		if bytes.IndexByte(key, '\\') >= 0 {
			return false
		}
		i = skipSpace(b, skipSpace(b, end)+1) // past ':'
		end = ValueEnd(b, i)
		if !fn(key, b[i:end]) {
			return false
		}
		i = skipSpace(b, end)
		if b[i] == '}' {
			return true
		}
		i = skipSpace(b, i+1) // past ','
	}
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// ValueEnd returns the index just past the JSON value that starts at b[i]
// (b is valid JSON).
func ValueEnd(b []byte, i int) int {
	switch b[i] {
	case '"':
		for i++; ; i++ {
			switch b[i] {
			case '\\':
				i++
			case '"':
				return i + 1
			}
		}
	case '{', '[':
		depth := 0
		for ; ; i++ {
			switch b[i] {
			case '"':
				i = ValueEnd(b, i) - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
		}
	default: // number, true, false, null
		for i < len(b) {
			switch b[i] {
			case ',', '}', ']', ' ', '\t', '\r', '\n':
				return i
			}
			i++
		}
		return i
	}
}
