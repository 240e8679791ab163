package tools

import (
	"encoding"
	"encoding/json"
	"math/big"
	"reflect"
	"strconv"
	"strings"
	"sync"
)

// fastDecode sets dst (settable) from generic JSON src exactly as a
// json.Decoder with UseNumber and DisallowUnknownFields would from src's
// encoding, for the shapes tool inputs are made of: structs with plain json
// tags, strings, bools, integers, floats, pointers, any, slices, string-keyed
// maps, json.Number and *big.Int. It reports false, possibly after writing part
// of dst, for anything else or anything the decoder would refuse (a key that is
// not a field name exactly, a type mismatch, an overflow); decodeStrict then
// decodes a fresh value the slow way, so answers and errors are unchanged.
func fastDecode(dst reflect.Value, src any) bool {
	t := dst.Type()
	switch t {
	case numberType:
		n, ok := src.(json.Number)
		if !ok {
			return false
		}
		dst.SetString(string(n))
		return true
	case bigIntPtrType:
		if src == nil {
			dst.SetZero()
			return true
		}
		n, ok := src.(json.Number)
		if !ok || !plainInteger(string(n)) {
			return false
		}
		z, ok := new(big.Int).SetString(string(n), 10)
		if !ok {
			return false
		}
		dst.Set(reflect.ValueOf(z))
		return true
	}
	if t.Kind() == reflect.Pointer {
		if src == nil {
			dst.SetZero()
			return true
		}
		if customDecoding(t.Elem()) {
			return false
		}
		p := reflect.New(t.Elem())
		if !fastDecode(p.Elem(), src) {
			return false
		}
		dst.Set(p)
		return true
	}
	if customDecoding(t) {
		return false
	}
	switch t.Kind() {
	case reflect.Interface:
		if t.NumMethod() != 0 {
			return false
		}
		if src == nil {
			dst.SetZero()
			return true
		}
		// The tool gets its own copy, as decoding would give it.
		c, ok := copyGeneric(src)
		if !ok {
			return false
		}
		dst.Set(reflect.ValueOf(c))
		return true
	case reflect.String:
		s, ok := src.(string)
		if !ok {
			return false
		}
		dst.SetString(s)
		return true
	case reflect.Bool:
		b, ok := src.(bool)
		if !ok {
			return false
		}
		dst.SetBool(b)
		return true
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, ok := src.(json.Number)
		if !ok {
			return false
		}
		i, err := strconv.ParseInt(string(n), 10, 64)
		if err != nil || dst.OverflowInt(i) {
			return false
		}
		dst.SetInt(i)
		return true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		n, ok := src.(json.Number)
		if !ok {
			return false
		}
		u, err := strconv.ParseUint(string(n), 10, 64)
		if err != nil || dst.OverflowUint(u) {
			return false
		}
		dst.SetUint(u)
		return true
	case reflect.Float32, reflect.Float64:
		n, ok := src.(json.Number)
		if !ok {
			return false
		}
		f, err := strconv.ParseFloat(string(n), t.Bits())
		if err != nil || dst.OverflowFloat(f) {
			return false
		}
		dst.SetFloat(f)
		return true
	case reflect.Slice:
		if src == nil {
			dst.SetZero()
			return true
		}
		list, ok := src.([]any)
		if !ok || t.Elem().Kind() == reflect.Uint8 {
			return false
		}
		s := reflect.MakeSlice(t, len(list), len(list))
		for i, e := range list {
			if !fastDecode(s.Index(i), e) {
				return false
			}
		}
		dst.Set(s)
		return true
	case reflect.Map:
		if src == nil {
			dst.SetZero()
			return true
		}
		obj, ok := src.(map[string]any)
		if !ok || t.Key().Kind() != reflect.String || customDecoding(t.Key()) {
			return false
		}
		m := reflect.MakeMapWithSize(t, len(obj))
		for k, e := range obj {
			ev := reflect.New(t.Elem()).Elem()
			if !fastDecode(ev, e) {
				return false
			}
			m.SetMapIndex(reflect.ValueOf(k).Convert(t.Key()), ev)
		}
		dst.Set(m)
		return true
	case reflect.Struct:
		obj, ok := src.(map[string]any)
		if !ok {
			return false
		}
		info := inputFields(t)
		if info == nil {
			return false
		}
		for k, e := range obj {
			i, ok := info[k]
			if !ok {
				return false // unknown, or matched only case-insensitively: the slow path decides
			}
			if !fastDecode(dst.Field(i), e) {
				return false
			}
		}
		return true
	}
	return false
}

var (
	numberType    = reflect.TypeFor[json.Number]()
	bigIntPtrType = reflect.TypeFor[*big.Int]()
	unmarshalerT  = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshT  = reflect.TypeFor[encoding.TextUnmarshaler]()
	inputFieldsBy sync.Map // reflect.Type -> map[string]int (nil: not a plain struct)
)

// customDecoding reports whether encoding/json would call a method of t or *t.
func customDecoding(t reflect.Type) bool {
	pt := reflect.PointerTo(t)
	return t.Implements(unmarshalerT) || t.Implements(textUnmarshT) || pt.Implements(unmarshalerT) || pt.Implements(textUnmarshT)
}

// plainInteger reports whether n is an integer literal without a leading zero
// (so big.Int's base-0 text parsing and base 10 agree).
func plainInteger(n string) bool {
	d := strings.TrimPrefix(n, "-")
	if d == "" || (d[0] == '0' && len(d) > 1) {
		return false
	}
	for i := 0; i < len(d); i++ {
		if d[i] < '0' || d[i] > '9' {
			return false
		}
	}
	return true
}

// inputFields maps the JSON names of a plain struct's fields to their index; nil
// when a field needs encoding/json's full rules (embedding, options, "-").
func inputFields(t reflect.Type) map[string]int {
	if v, ok := inputFieldsBy.Load(t); ok {
		return v.(map[string]int)
	}
	m := map[string]int{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if f.Anonymous {
			m = nil
			break
		}
		if !f.IsExported() {
			continue
		}
		tag := f.Tag.Get("json")
		name, opts, _ := strings.Cut(tag, ",")
		if tag == "-" || (opts != "" && opts != "omitempty") || !plainName(name) {
			m = nil
			break
		}
		if name == "" {
			name = f.Name
		}
		if _, dup := m[name]; dup {
			m = nil
			break
		}
		m[name] = i
	}
	inputFieldsBy.Store(t, m)
	return m
}

// copyGeneric deep-copies generic JSON values; false for any other type.
func copyGeneric(v any) (any, bool) {
	switch x := v.(type) {
	case nil, bool, string:
		return v, true
	case json.Number:
		return v, validNumber(string(x))
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			c, ok := copyGeneric(e)
			if !ok {
				return nil, false
			}
			m[k] = c
		}
		return m, true
	case []any:
		s := make([]any, len(x))
		for i, e := range x {
			c, ok := copyGeneric(e)
			if !ok {
				return nil, false
			}
			s[i] = c
		}
		return s, true
	}
	return nil, false
}

// validNumber reports whether n parses as a JSON number the way a decoder
// would hand it on (a decimal literal); anything unusual takes the slow path.
func validNumber(n string) bool {
	if n == "" {
		return false
	}
	for i := 0; i < len(n); i++ {
		c := n[i]
		if !(c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E') {
			return false
		}
	}
	_, err := strconv.ParseFloat(n, 64)
	return err == nil || strings.Contains(err.Error(), "range")
}

func plainName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}
