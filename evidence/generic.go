package evidence

import (
	"encoding"
	"encoding/json"
	"math"
	"math/big"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// fastGeneric converts v into generic JSON values by reflection, giving exactly
// what ToGeneric's encode-then-decode round trip gives, for the value shapes
// facts are made of: structs with plain json tags (omitempty allowed), strings,
// bools, integers, pointers, interfaces, slices, string-keyed maps, json.Number,
// Float and *big.Int. For anything else (another json.Marshaler or
// TextMarshaler, plain floats, embedded fields, ",string", arrays, byte slices,
// invalid UTF-8, non-finite Float, malformed json.Number) it reports false and
// ToGeneric takes the round trip, so its answer, errors included, is unchanged.
func fastGeneric(v reflect.Value) (any, bool) {
	if !v.IsValid() {
		return nil, true
	}
	t := v.Type()
	switch t {
	case numberType:
		n := v.String()
		if n == "" {
			n = "0" // as encoding/json writes an empty Number
		}
		if !validJSONNumber(n) {
			return nil, false
		}
		return json.Number(n), true
	case floatType:
		f := v.Float()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, false
		}
		return json.Number(AppendPyFloat(nil, f)), true
	case bigIntPtrType:
		if v.IsNil() {
			return nil, true
		}
		return json.Number(v.Interface().(*big.Int).String()), true
	}
	if t.Kind() == reflect.Pointer && (t.Elem() == floatType || t.Elem() == numberType) {
		// Nullable Float / json.Number: encoding/json writes null or the element.
		if v.IsNil() {
			return nil, true
		}
		return fastGeneric(v.Elem())
	}
	if hasCustomEncoding(t) {
		return nil, false
	}
	switch t.Kind() {
	case reflect.Bool:
		return v.Bool(), true
	case reflect.String:
		s := v.String()
		if !utf8.ValidString(s) {
			return nil, false
		}
		return s, true
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return json.Number(strconv.FormatInt(v.Int(), 10)), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return json.Number(strconv.FormatUint(v.Uint(), 10)), true
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil, true
		}
		return fastGeneric(v.Elem())
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return nil, false // []byte is base64 text
		}
		if v.IsNil() {
			return nil, true
		}
		out := make([]any, v.Len())
		for i := range out {
			e, ok := fastGeneric(v.Index(i))
			if !ok {
				return nil, false
			}
			out[i] = e
		}
		return out, true
	case reflect.Map:
		if t.Key().Kind() != reflect.String || hasCustomEncoding(t.Key()) {
			return nil, false
		}
		if v.IsNil() {
			return nil, true
		}
		out := make(map[string]any, v.Len())
		it := v.MapRange()
		for it.Next() {
			k := it.Key().String()
			if !utf8.ValidString(k) {
				return nil, false
			}
			e, ok := fastGeneric(it.Value())
			if !ok {
				return nil, false
			}
			out[k] = e
		}
		return out, true
	case reflect.Struct:
		info := structFields(t)
		if !info.ok {
			return nil, false
		}
		out := make(map[string]any, len(info.fields))
		for _, f := range info.fields {
			fv := v.Field(f.index)
			if f.omitEmpty && isEmptyValue(fv) {
				continue
			}
			e, ok := fastGeneric(fv)
			if !ok {
				return nil, false
			}
			out[f.name] = e
		}
		return out, true
	}
	return nil, false
}

var (
	numberType     = reflect.TypeFor[json.Number]()
	floatType      = reflect.TypeFor[Float]()
	bigIntPtrType  = reflect.TypeFor[*big.Int]()
	marshalerType  = reflect.TypeFor[json.Marshaler]()
	textMarshaler  = reflect.TypeFor[encoding.TextMarshaler]()
	structInfoByTy sync.Map // reflect.Type -> *structInfo
)

// hasCustomEncoding reports whether encoding/json would call a method of t
// (or *t) instead of encoding its kind.
func hasCustomEncoding(t reflect.Type) bool {
	if t.Implements(marshalerType) || t.Implements(textMarshaler) {
		return true
	}
	if t.Kind() != reflect.Pointer {
		pt := reflect.PointerTo(t)
		return pt.Implements(marshalerType) || pt.Implements(textMarshaler)
	}
	return false
}

type fieldInfo struct {
	index     int
	name      string
	omitEmpty bool
}

type structInfo struct {
	fields []fieldInfo
	ok     bool // false: a field needs encoding/json's full rules
}

func structFields(t reflect.Type) *structInfo {
	if si, ok := structInfoByTy.Load(t); ok {
		return si.(*structInfo)
	}
	si := &structInfo{ok: true}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if f.Anonymous {
			si.ok = false
			break
		}
		if !f.IsExported() {
			continue
		}
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		fi := fieldInfo{index: i, name: name}
		for opts != "" {
			var o string
			o, opts, _ = strings.Cut(opts, ",")
			switch o {
			case "omitempty":
				fi.omitEmpty = true
			case "":
			default: // ",string", "omitzero", ...
				si.ok = false
			}
		}
		if fi.name == "" {
			fi.name = f.Name
		} else if !validTagName(fi.name) {
			si.ok = false
		}
		si.fields = append(si.fields, fi)
	}
	// Two fields with one JSON name follow encoding/json's conflict rules.
	seen := map[string]bool{}
	for _, f := range si.fields {
		if seen[f.name] {
			si.ok = false
		}
		seen[f.name] = true
	}
	structInfoByTy.Store(t, si)
	return si
}

// validTagName accepts the tag names encoding/json uses as given (it ignores a
// tag name with other characters and falls back to the field name).
func validTagName(s string) bool {
	for _, c := range s {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		default:
			return false
		}
	}
	return true
}

func isEmptyValue(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool:
		return !v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int() == 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return v.Uint() == 0
	case reflect.Float32, reflect.Float64:
		return v.Float() == 0
	case reflect.Interface, reflect.Pointer:
		return v.IsNil()
	}
	return false
}

// validJSONNumber reports whether s is a JSON number literal.
func validJSONNumber(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	default:
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if i >= len(s) || s[i] < '0' || s[i] > '9' {
			return false
		}
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if i >= len(s) || s[i] < '0' || s[i] > '9' {
			return false
		}
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	}
	return i == len(s)
}
