package jmes

import (
	"maps"
	"math"
	"math/big"
	"math/bits"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/jmespath-community/go-jmespath/pkg/parsing"

	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/internal/structured"
)

// Argument types of function signatures (a bit set: an argument may allow
// several).
type argType uint16

const (
	tNumber argType = 1 << iota
	tString
	tBool
	tNull
	tArray
	tObject
	tExpref
	tArrayNumber
	tArrayString
	tAny = tNumber | tString | tBool | tNull | tArray | tObject
)

var typeNames = []struct {
	t    argType
	name string
}{
	{tNumber, "number"}, {tString, "string"}, {tBool, "boolean"}, {tNull, "null"},
	{tArray, "array"}, {tObject, "object"}, {tExpref, "expref"},
	{tArrayNumber, "array[number]"}, {tArrayString, "array[string]"},
}

func (t argType) String() string {
	var parts []string
	for _, n := range typeNames {
		if t&n.t != 0 {
			parts = append(parts, n.name)
		}
	}
	return strings.Join(parts, "|")
}

type function struct {
	args     []argType // one entry per positional argument
	optional int       // how many trailing args may be left out
	variadic bool      // the last argument repeats (at least once)
	call     func(in *interp, args []any) (any, error)
}

var functions map[string]*function

func init() {
	functions = map[string]*function{
		"abs":         {args: []argType{tNumber}, call: fnAbs},
		"avg":         {args: []argType{tArrayNumber}, call: fnAvg},
		"ceil":        {args: []argType{tNumber}, call: fnCeil},
		"contains":    {args: []argType{tArray | tString, tAny}, call: fnContains},
		"ends_with":   {args: []argType{tString, tString}, call: fnEndsWith},
		"floor":       {args: []argType{tNumber}, call: fnFloor},
		"join":        {args: []argType{tString, tArrayString}, call: fnJoin},
		"keys":        {args: []argType{tObject}, call: fnKeys},
		"length":      {args: []argType{tString | tArray | tObject}, call: fnLength},
		"map":         {args: []argType{tExpref, tArray}, call: fnMap},
		"max":         {args: []argType{tArrayNumber | tArrayString}, call: fnMax},
		"max_by":      {args: []argType{tArray, tExpref}, call: fnMaxBy},
		"merge":       {args: []argType{tObject}, variadic: true, call: fnMerge},
		"min":         {args: []argType{tArrayNumber | tArrayString}, call: fnMin},
		"min_by":      {args: []argType{tArray, tExpref}, call: fnMinBy},
		"not_null":    {args: []argType{tAny}, variadic: true, call: fnNotNull},
		"reverse":     {args: []argType{tString | tArray}, call: fnReverse},
		"sort":        {args: []argType{tArrayNumber | tArrayString}, call: fnSort},
		"sort_by":     {args: []argType{tArray, tExpref}, call: fnSortBy},
		"starts_with": {args: []argType{tString, tString}, call: fnStartsWith},
		"sum":         {args: []argType{tArrayNumber}, call: fnSum},
		"to_array":    {args: []argType{tAny}, call: fnToArray},
		"to_number":   {args: []argType{tAny}, call: fnToNumber},
		"to_string":   {args: []argType{tAny}, call: fnToString},
		"type":        {args: []argType{tAny}, call: fnType},
		"values":      {args: []argType{tObject}, call: fnValues},
		// JMESPath Community extensions (the parser's own dialect).
		"find_first": {args: []argType{tString, tString, tNumber, tNumber}, optional: 2, call: fnFindFirst},
		"find_last":  {args: []argType{tString, tString, tNumber, tNumber}, optional: 2, call: fnFindLast},
		"from_items": {args: []argType{tArray}, call: fnFromItems},
		"group_by":   {args: []argType{tArray, tExpref}, call: fnGroupBy},
		"items":      {args: []argType{tObject}, call: fnItems},
		"lower":      {args: []argType{tString}, call: fnLower},
		"upper":      {args: []argType{tString}, call: fnUpper},
		"pad_left":   {args: []argType{tString, tNumber, tString}, optional: 1, call: fnPadLeft},
		"pad_right":  {args: []argType{tString, tNumber, tString}, optional: 1, call: fnPadRight},
		"replace":    {args: []argType{tString, tString, tString, tNumber}, optional: 1, call: fnReplace},
		"split":      {args: []argType{tString, tString, tNumber}, optional: 1, call: fnSplit},
		"trim":       {args: []argType{tString, tString}, optional: 1, call: fnTrim},
		"trim_left":  {args: []argType{tString, tString}, optional: 1, call: fnTrimLeft},
		"trim_right": {args: []argType{tString, tString}, optional: 1, call: fnTrimRight},
		"zip":        {args: []argType{tArray}, variadic: true, call: fnZip},
	}
}

// FunctionNames lists the supported functions, sorted.
func FunctionNames() []string { return slices.Sorted(maps.Keys(functions)) }

func matches(t argType, v any) bool {
	switch x := v.(type) {
	case nil:
		return t&tNull != 0
	case bool:
		return t&tBool != 0
	case string:
		return t&tString != 0
	case number:
		return t&tNumber != 0
	case *structured.Object:
		return t&tObject != 0
	case expref:
		return t&tExpref != 0
	case []any:
		if t&tArray != 0 {
			return true
		}
		if t&tArrayNumber != 0 && allOf(x, func(e any) bool { _, ok := e.(number); return ok }) {
			return true
		}
		if t&tArrayString != 0 && allOf(x, func(e any) bool { _, ok := e.(string); return ok }) {
			return true
		}
	}
	return false
}

func allOf(arr []any, pred func(any) bool) bool {
	for _, e := range arr {
		if !pred(e) {
			return false
		}
	}
	return true
}

// call checks arity, then argument types, then runs the function, in the
// order of Python's jmespath.
func (in *interp) call(name string, args []any) (any, error) {
	f, ok := functions[name]
	if !ok && in.dialect == Plans {
		f, ok = planFunctions[name]
	}
	if !ok {
		return nil, errorf(KindUnknownFunction, "unknown function: %s()", name)
	}
	n := len(f.args)
	switch {
	case f.variadic && len(args) < n:
		return nil, errorf(KindInvalidArity, "%s() takes at least %d argument(s) but received %d", name, n, len(args))
	case !f.variadic && (len(args) > n || len(args) < n-f.optional):
		if f.optional > 0 {
			return nil, errorf(KindInvalidArity, "%s() takes %d to %d arguments but received %d", name, n-f.optional, n, len(args))
		}
		return nil, errorf(KindInvalidArity, "%s() takes %d argument(s) but received %d", name, n, len(args))
	}
	for i, a := range args {
		t := f.args[min(i, n-1)]
		if !matches(t, a) {
			return nil, errorf(KindInvalidType, "%s() argument %d: expected %s, received %s", name, i+1, t, TypeName(a))
		}
	}
	if err := in.work(name, args); err != nil {
		return nil, err
	}
	return f.call(in, args)
}

func (in *interp) apply(e expref, v any) (any, error) { return in.eval(e.node, v) }

// work charges a function's linear (or, for sorting, n log n) cost to the step
// budget before it runs, and checks the context: a call on a large array is
// many steps, not one.
func (in *interp) work(name string, args []any) error {
	w := 0
	for _, a := range args {
		switch x := a.(type) {
		case []any:
			w += len(x)
		case string:
			w += len(x) / 64
		case *structured.Object:
			w += x.Len()
		}
	}
	switch name {
	case "sort", "sort_by", "max", "min", "max_by", "min_by":
		w *= bits.Len(uint(w))
	}
	if w == 0 {
		return nil
	}
	in.steps += w
	if in.lim.MaxSteps > 0 && in.steps > in.lim.MaxSteps {
		return limitError(ReasonWorkLimit, "evaluation exceeds %d steps", in.lim.MaxSteps)
	}
	return in.ctx.Err()
}

func negate(n number) number {
	if n.IsInt() {
		return intNum(new(big.Int).Neg(bigInt(n)))
	}
	f, _ := float(n)
	return floatNum(-f)
}

func fnAbs(_ *interp, a []any) (any, error) {
	n := a[0].(number)
	if n.IsInt() {
		return intNum(new(big.Int).Abs(bigInt(n))), nil
	}
	f, _ := float(n)
	return floatNum(math.Abs(f)), nil
}

// sumNums adds like Python's sum(): integers exactly until a float appears.
func sumNums(arr []any) (number, error) {
	acc := new(big.Int)
	isFloat := false
	var facc float64
	for _, e := range arr {
		n := e.(number)
		if !isFloat && n.IsInt() {
			acc.Add(acc, bigInt(n))
			if acc.BitLen() > maxIntBits {
				return "", errorf(KindLimit, "sum exceeds %d bits", maxIntBits)
			}
			continue
		}
		if !isFloat {
			f, ok := new(big.Float).SetInt(acc).Float64()
			if math.IsInf(f, 0) {
				return "", errorf(KindInvalidValue, "integer too large to convert to float")
			}
			_ = ok
			facc, isFloat = f, true
		}
		var f float64
		if n.IsInt() {
			bf, _ := new(big.Float).SetInt(bigInt(n)).Float64()
			if math.IsInf(bf, 0) {
				return "", errorf(KindInvalidValue, "integer too large to convert to float")
			}
			f = bf
		} else {
			f, _ = float(n)
		}
		facc += f
	}
	if isFloat {
		return floatNum(facc), nil
	}
	return intNum(acc), nil
}

func fnSum(_ *interp, a []any) (any, error) { return sumNums(a[0].([]any)) }

func fnAvg(_ *interp, a []any) (any, error) {
	arr := a[0].([]any)
	if len(arr) == 0 {
		return nil, nil
	}
	s, err := sumNums(arr)
	if err != nil {
		return nil, err
	}
	if s.IsInt() {
		// Python: int / float(len) is true division, correctly rounded.
		r := new(big.Rat).SetFrac(bigInt(s), big.NewInt(int64(len(arr))))
		f, _ := r.Float64()
		if math.IsInf(f, 0) {
			return nil, errorf(KindInvalidValue, "average too large for a float")
		}
		return floatNum(f), nil
	}
	f, _ := float(s)
	return floatNum(f / float64(len(arr))), nil
}

// roundInt implements math.ceil/math.floor, which return Python ints.
func roundInt(n number, fn func(float64) float64) (any, error) {
	if n.IsInt() {
		return intNum(bigInt(n)), nil
	}
	f, _ := float(n)
	if math.IsInf(f, 0) {
		return nil, errorf(KindInvalidValue, "cannot convert float infinity to integer")
	}
	z, _ := new(big.Float).SetFloat64(fn(f)).Int(nil)
	return intNum(z), nil
}

func fnCeil(_ *interp, a []any) (any, error)  { return roundInt(a[0].(number), math.Ceil) }
func fnFloor(_ *interp, a []any) (any, error) { return roundInt(a[0].(number), math.Floor) }

func fnContains(in *interp, a []any) (any, error) {
	if s, ok := a[0].(string); ok {
		sub, ok := a[1].(string)
		return ok && strings.Contains(s, sub), nil
	}
	for _, e := range a[0].([]any) {
		eq, err := in.equal(e, a[1])
		if err != nil || eq {
			return eq, err
		}
	}
	return false, nil
}

func fnEndsWith(_ *interp, a []any) (any, error) {
	return strings.HasSuffix(a[0].(string), a[1].(string)), nil
}

func fnStartsWith(_ *interp, a []any) (any, error) {
	return strings.HasPrefix(a[0].(string), a[1].(string)), nil
}

func fnJoin(in *interp, a []any) (any, error) {
	sep := a[0].(string)
	arr := a[1].([]any)
	// The parts may be one string referenced many times: add up the length
	// before building, and stop adding once it is over the budget.
	size := 0
	for _, e := range arr {
		if size += len(e.(string)) + len(sep); size > in.room() {
			break
		}
	}
	if err := in.chargeString(size); err != nil {
		return nil, err
	}
	var b strings.Builder
	b.Grow(size)
	for i, e := range arr {
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(e.(string))
	}
	return b.String(), nil
}

func fnKeys(in *interp, a []any) (any, error) {
	o := a[0].(*structured.Object)
	return perMember(in, o, func(i int) (any, error) {
		k := o.Keys[i]
		return k, in.chargePart(k, 1, elemBytes+boxBytes)
	})
}

// perMember returns the array of one element per member of o, charging its
// brackets first; elem returns member i's element after charging it.
func perMember(in *interp, o *structured.Object, elem func(i int) (any, error)) (any, error) {
	if err := in.charge(2); err != nil {
		return nil, err
	}
	out := make([]any, o.Len())
	for i := range o.Keys {
		e, err := elem(i)
		if err != nil {
			return nil, err
		}
		out[i] = e
	}
	return out, nil
}

func fnValues(in *interp, a []any) (any, error) {
	o := a[0].(*structured.Object)
	if err := in.chargeElems(o.Values); err != nil {
		return nil, err
	}
	return slices.Clone(o.Values), nil
}

func fnLength(_ *interp, a []any) (any, error) {
	switch x := a[0].(type) {
	case string:
		return number(strconv.Itoa(utf8.RuneCountInString(x))), nil
	case []any:
		return number(strconv.Itoa(len(x))), nil
	case *structured.Object:
		return number(strconv.Itoa(x.Len())), nil
	}
	return nil, nil
}

func fnMap(in *interp, a []any) (any, error) {
	e := a[0].(expref)
	arr := a[1].([]any)
	if err := in.charge(2); err != nil {
		return nil, err
	}
	out := make([]any, len(arr))
	for i, el := range arr {
		r, err := in.apply(e, el)
		if err != nil {
			return nil, err
		}
		if err := in.chargeElem(r); err != nil {
			return nil, err
		}
		out[i] = r
	}
	return out, nil
}

// less orders two numbers or two strings.
func less(x, y any) bool {
	if a, ok := x.(number); ok {
		return cmpNum(a, y.(number)) < 0
	}
	return x.(string) < y.(string)
}

func extreme(arr []any, wantMax bool) any {
	if len(arr) == 0 {
		return nil
	}
	best := arr[0]
	for _, e := range arr[1:] {
		if wantMax && less(best, e) || !wantMax && less(e, best) {
			best = e
		}
	}
	return best
}

func fnMax(_ *interp, a []any) (any, error) { return extreme(a[0].([]any), true), nil }
func fnMin(_ *interp, a []any) (any, error) { return extreme(a[0].([]any), false), nil }

// keysBy evaluates the expref on every element; all keys must be numbers or
// all strings (invalid-type otherwise).
func (in *interp) keysBy(name string, arr []any, e expref) ([]any, error) {
	keys := make([]any, len(arr))
	kind := ""
	for i, el := range arr {
		k, err := in.apply(e, el)
		if err != nil {
			return nil, err
		}
		t := TypeName(k)
		if t != "number" && t != "string" {
			return nil, errorf(KindInvalidType, "%s(): expression must give a number or a string, got %s", name, t)
		}
		if kind == "" {
			kind = t
		} else if t != kind {
			return nil, errorf(KindInvalidType, "%s(): expression gave both %s and %s", name, kind, t)
		}
		keys[i] = k
	}
	return keys, nil
}

func byExtreme(in *interp, name string, a []any, wantMax bool) (any, error) {
	arr := a[0].([]any)
	keys, err := in.keysBy(name, arr, a[1].(expref))
	if err != nil || len(arr) == 0 {
		return nil, err
	}
	best := 0
	for i := 1; i < len(arr); i++ {
		if wantMax && less(keys[best], keys[i]) || !wantMax && less(keys[i], keys[best]) {
			best = i
		}
	}
	return arr[best], nil
}

func fnMaxBy(in *interp, a []any) (any, error) { return byExtreme(in, "max_by", a, true) }
func fnMinBy(in *interp, a []any) (any, error) { return byExtreme(in, "min_by", a, false) }

func fnMerge(in *interp, a []any) (any, error) {
	if err := in.charge(2); err != nil {
		return nil, err
	}
	out := structured.NewObject(4)
	for _, o := range a {
		obj := o.(*structured.Object)
		for i, k := range obj.Keys {
			if err := in.chargeMember(k, obj.Values[i]); err != nil {
				return nil, err
			}
			out.Set(k, obj.Values[i])
		}
	}
	return out, nil
}

func fnNotNull(_ *interp, a []any) (any, error) {
	for _, v := range a {
		if v != nil {
			return v, nil
		}
	}
	return nil, nil
}

func fnReverse(in *interp, a []any) (any, error) {
	if s, ok := a[0].(string); ok {
		if err := in.chargeString(len(s)); err != nil {
			return nil, err
		}
		r := []rune(s)
		slices.Reverse(r)
		return string(r), nil
	}
	if err := in.chargeElems(a[0].([]any)); err != nil {
		return nil, err
	}
	arr := slices.Clone(a[0].([]any))
	slices.Reverse(arr)
	return arr, nil
}

func fnSort(in *interp, a []any) (any, error) {
	if err := in.chargeElems(a[0].([]any)); err != nil {
		return nil, err
	}
	arr := slices.Clone(a[0].([]any))
	sort.SliceStable(arr, func(i, j int) bool { return less(arr[i], arr[j]) })
	return arr, nil
}

func fnSortBy(in *interp, a []any) (any, error) {
	arr := a[0].([]any)
	keys, err := in.keysBy("sort_by", arr, a[1].(expref))
	if err != nil {
		return nil, err
	}
	if err := in.chargeElems(arr); err != nil {
		return nil, err
	}
	idx := make([]int, len(arr))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(i, j int) bool { return less(keys[idx[i]], keys[idx[j]]) })
	out := make([]any, len(arr))
	for i, k := range idx {
		out[i] = arr[k]
	}
	return out, nil
}

func fnToArray(in *interp, a []any) (any, error) {
	if arr, ok := a[0].([]any); ok {
		return arr, nil
	}
	if err := in.chargeElems(a[:1]); err != nil {
		return nil, err
	}
	return []any{a[0]}, nil
}

var pyFloatRE = regexp.MustCompile(`^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$`)
var pyIntRE = regexp.MustCompile(`^[+-]?\d+$`)

// fnToNumber converts like Python's jmespath: int(s), then float(s), else null.
// Python-only spellings (surrounding spaces, '_' digit separators, inf, nan)
// are not numbers here; a float beyond the double range is null too.
func fnToNumber(_ *interp, a []any) (any, error) {
	switch x := a[0].(type) {
	case number:
		return x, nil
	case string:
		if len(x) > 4096 {
			return nil, nil
		}
		if pyIntRE.MatchString(x) {
			z, ok := new(big.Int).SetString(strings.TrimPrefix(x, "+"), 10)
			if !ok {
				return nil, nil
			}
			return intNum(z), nil
		}
		if pyFloatRE.MatchString(x) {
			f, err := strconv.ParseFloat(x, 64)
			if err != nil || math.IsInf(f, 0) {
				return nil, nil
			}
			return floatNum(f), nil
		}
	}
	return nil, nil
}

func fnToString(in *interp, a []any) (any, error) {
	if s, ok := a[0].(string); ok {
		return s, nil
	}
	var b strings.Builder
	if err := writeJSONBounded(in, &b, a[0]); err != nil {
		return nil, err
	}
	return b.String(), nil
}

func fnType(_ *interp, a []any) (any, error) { return TypeName(a[0]), nil }

// writeJSONBounded renders v as Python's json.dumps(v, separators=(",", ":"))
// (ASCII-only, keys in insertion order), accounting for its size; it stops as
// soon as the output outgrows the remaining budget (values may share subtrees).
func writeJSONBounded(in *interp, b *strings.Builder, v any) error {
	if !writeJSONCapped(b, v, in.room()) {
		return limitError(ReasonWorkLimit, "to_string() result exceeds the evaluation budget of %d bytes", in.lim.MaxWorkBytes)
	}
	return in.chargeString(b.Len())
}

// writeJSON writes v as writeJSONBounded does, without a budget.
func writeJSON(b *strings.Builder, v any) {
	writeJSONCapped(b, v, math.MaxInt)
}

// writeJSONCapped writes v and reports false when the output passed max bytes.
func writeJSONCapped(b *strings.Builder, v any, max int) bool {
	if b.Len() > max {
		return false
	}
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		if x {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case number:
		if x.IsInt() {
			b.WriteString(bigInt(x).String())
		} else {
			f, _ := float(x)
			switch {
			case math.IsInf(f, 1):
				b.WriteString("Infinity")
			case math.IsInf(f, -1):
				b.WriteString("-Infinity")
			default:
				b.WriteString(FormatFloat(f))
			}
		}
	case string:
		writeString(b, x)
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			if !writeJSONCapped(b, e, max) {
				return false
			}
		}
		b.WriteByte(']')
	case *structured.Object:
		b.WriteByte('{')
		for i, k := range x.Keys {
			if i > 0 {
				b.WriteByte(',')
			}
			writeString(b, k)
			b.WriteByte(':')
			if !writeJSONCapped(b, x.Values[i], max) {
				return false
			}
		}
		b.WriteByte('}')
	default:
		b.WriteString("null")
	}
	return b.Len() <= max
}

const hexDigits = "0123456789abcdef"

// writeString writes s as Python's json.dumps does by default
// (ensure_ascii=True), which to_string() answers in: the two-character escapes
// (evidence.ShortEscape), every other control character and every non-ASCII
// code point as \uXXXX (a surrogate pair above U+FFFF), invalid UTF-8 as
// U+FFFD. It is not evidence's canonical string, which keeps non-ASCII as it is.
func writeString(b *strings.Builder, s string) {
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r < utf8.RuneSelf && evidence.ShortEscape(byte(r)) != 0:
			b.WriteByte('\\')
			b.WriteByte(evidence.ShortEscape(byte(r)))
		case r < 0x20 || r >= utf8.RuneSelf:
			if r > 0xffff {
				r -= 0x10000
				writeU(b, 0xd800+(r>>10))
				writeU(b, 0xdc00+(r&0x3ff))
			} else {
				writeU(b, r)
			}
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
}

func writeU(b *strings.Builder, r rune) {
	b.WriteString(`\u`)
	b.WriteByte(hexDigits[r>>12&0xf])
	b.WriteByte(hexDigits[r>>8&0xf])
	b.WriteByte(hexDigits[r>>4&0xf])
	b.WriteByte(hexDigits[r&0xf])
}

// --- JMESPath Community extensions ---

// countArg returns the optional count argument a[i] of replace() or split():
// -1 (no limit) when it is absent, else a non-negative integer.
func countArg(name string, a []any, i int) (int, error) {
	if len(a) <= i {
		return -1, nil
	}
	c, err := intArg(name, a[i])
	if err != nil {
		return 0, err
	}
	if c < 0 {
		return 0, errorf(KindInvalidValue, "%s() count must not be negative", name)
	}
	return c, nil
}

func intArg(name string, v any) (int, error) {
	n := v.(number)
	if !n.IsInt() {
		f, _ := float(n)
		if f != math.Trunc(f) {
			return 0, errorf(KindInvalidValue, "%s() expects an integer", name)
		}
		if math.Abs(f) > 1e9 {
			return 0, errorf(KindInvalidValue, "%s(): integer out of range", name)
		}
		return int(f), nil
	}
	z := bigInt(n)
	if !z.IsInt64() || z.Int64() > 1e9 || z.Int64() < -1e9 {
		return 0, errorf(KindInvalidValue, "%s(): integer out of range", name)
	}
	return int(z.Int64()), nil
}

func findImpl(name string, a []any, last bool) (any, error) {
	s, sub := a[0].(string), a[1].(string)
	r := []rune(s)
	start, end := 0, len(r)
	var err error
	if len(a) > 2 {
		if start, err = intArg(name, a[2]); err != nil {
			return nil, err
		}
		if start < 0 {
			start = max(0, start+len(r))
		}
	}
	if len(a) > 3 {
		if end, err = intArg(name, a[3]); err != nil {
			return nil, err
		}
		if end < 0 {
			end = max(0, end+len(r))
		}
		end = min(end, len(r))
	}
	if s == "" || sub == "" || start >= end {
		return nil, nil
	}
	hay := string(r[start:end])
	var i int
	if last {
		i = strings.LastIndex(hay, sub)
	} else {
		i = strings.Index(hay, sub)
	}
	if i < 0 {
		return nil, nil
	}
	return number(strconv.Itoa(start + utf8.RuneCountInString(hay[:i]))), nil
}

func fnFindFirst(_ *interp, a []any) (any, error) { return findImpl("find_first", a, false) }
func fnFindLast(_ *interp, a []any) (any, error)  { return findImpl("find_last", a, true) }

func fnFromItems(in *interp, a []any) (any, error) {
	arr := a[0].([]any)
	if err := in.charge(2); err != nil {
		return nil, err
	}
	out := structured.NewObject(min(len(arr), 1024))
	for _, e := range arr {
		pair, ok := e.([]any)
		if !ok || len(pair) != 2 {
			return nil, errorf(KindInvalidType, "from_items() expects [key, value] pairs")
		}
		k, ok := pair[0].(string)
		if !ok {
			return nil, errorf(KindInvalidType, "from_items() keys must be strings")
		}
		if err := in.chargeMember(k, pair[1]); err != nil {
			return nil, err
		}
		out.Set(k, pair[1])
	}
	return out, nil
}

func fnItems(in *interp, a []any) (any, error) {
	o := a[0].(*structured.Object)
	return perMember(in, o, func(i int) (any, error) {
		k := o.Keys[i]
		// [key, value] and a comma; a slot, a pair and a boxed key
		punct := stringChars(k, in.room()+1) + 4
		if err := in.chargePart(o.Values[i], punct, elemBytes+sliceBytes+2*elemBytes+boxBytes); err != nil {
			return nil, err
		}
		return []any{k, o.Values[i]}, nil
	})
}

func fnGroupBy(in *interp, a []any) (any, error) {
	arr := a[0].([]any)
	e := a[1].(expref)
	if err := in.charge(2); err != nil {
		return nil, err
	}
	out := structured.NewObject(4)
	for _, el := range arr {
		k, err := in.apply(e, el)
		if err != nil {
			return nil, err
		}
		if k == nil {
			continue
		}
		ks, ok := k.(string)
		if !ok {
			return nil, errorf(KindInvalidType, "group_by(): expression must give a string, got %s", TypeName(k))
		}
		prev, seen := out.Get(ks)
		if !seen {
			// a new member holding a new array
			err = in.charge(max(stringChars(ks, in.room()+1)+4, memberBytes+sliceBytes))
		}
		if err == nil {
			err = in.chargeElem(el)
		}
		if err != nil {
			return nil, err
		}
		group, _ := prev.([]any)
		out.Set(ks, append(group, el))
	}
	return out, nil
}

func fnLower(in *interp, a []any) (any, error) {
	s := a[0].(string)
	if err := in.chargeString(len(s)); err != nil {
		return nil, err
	}
	return strings.ToLower(s), nil
}

func fnUpper(in *interp, a []any) (any, error) {
	s := a[0].(string)
	// Upper-casing can lengthen a string (ß -> SS, up to 3 bytes per byte).
	if err := in.chargeString(3 * len(s)); err != nil {
		return nil, err
	}
	return strings.ToUpper(s), nil
}

func pad(in *interp, name string, a []any, left bool) (any, error) {
	s := a[0].(string)
	width, err := intArg(name, a[1])
	if err != nil {
		return nil, err
	}
	if width < 0 {
		return nil, errorf(KindInvalidValue, "%s() width must not be negative", name)
	}
	padStr := " "
	if len(a) > 2 {
		padStr = a[2].(string)
		if utf8.RuneCountInString(padStr) != 1 {
			return nil, errorf(KindInvalidValue, "%s() pad must be one character", name)
		}
	}
	n := width - utf8.RuneCountInString(s)
	if n <= 0 {
		return s, nil
	}
	if err := in.chargeString(n*len(padStr) + len(s)); err != nil {
		return nil, err
	}
	fill := strings.Repeat(padStr, n)
	if left {
		return fill + s, nil
	}
	return s + fill, nil
}

func fnPadLeft(in *interp, a []any) (any, error)  { return pad(in, "pad_left", a, true) }
func fnPadRight(in *interp, a []any) (any, error) { return pad(in, "pad_right", a, false) }

func fnReplace(in *interp, a []any) (any, error) {
	s, old, repl := a[0].(string), a[1].(string), a[2].(string)
	count, err := countArg("replace", a, 3)
	if err != nil {
		return nil, err
	}
	// strings.Replace with an empty old inserts repl between every rune.
	occ := strings.Count(s, old)
	if count >= 0 && count < occ {
		occ = count
	}
	if err := in.chargeString(len(s) + occ*len(repl)); err != nil {
		return nil, err
	}
	return strings.Replace(s, old, repl, count), nil
}

func fnSplit(in *interp, a []any) (any, error) {
	s, sep := a[0].(string), a[1].(string)
	count, err := countArg("split", a, 2)
	if err != nil {
		return nil, err
	}
	// Charge the array before it is built: n parts of s, each a slot and
	// a boxed string header (more than its quotes and comma).
	n := strings.Count(s, sep) + 1
	if sep == "" {
		n = utf8.RuneCountInString(s)
	}
	if count >= 0 {
		n = min(n, count+1)
	}
	if err := in.charge(2 + sliceBytes + len(s) + n*(elemBytes+boxBytes)); err != nil {
		return nil, err
	}
	var parts []string
	switch {
	case sep == "" && count < 0:
		parts = strings.Split(s, "")
	case sep == "":
		parts = strings.SplitN(s, "", count+1)
	case count < 0:
		parts = strings.Split(s, sep)
	default:
		parts = strings.SplitN(s, sep, count+1)
	}
	out := make([]any, len(parts))
	for i, p := range parts {
		out[i] = p
	}
	return out, nil
}

func trimSet(a []any) string {
	if len(a) > 1 && a[1].(string) != "" {
		return a[1].(string)
	}
	return " \t\n\r\v\f"
}

func fnTrim(_ *interp, a []any) (any, error) { return strings.Trim(a[0].(string), trimSet(a)), nil }
func fnTrimLeft(_ *interp, a []any) (any, error) {
	return strings.TrimLeft(a[0].(string), trimSet(a)), nil
}
func fnTrimRight(_ *interp, a []any) (any, error) {
	return strings.TrimRight(a[0].(string), trimSet(a)), nil
}

func fnZip(in *interp, a []any) (any, error) {
	n := -1
	for _, x := range a {
		if l := len(x.([]any)); n < 0 || l < n {
			n = l
		}
	}
	if err := in.charge(2); err != nil {
		return nil, err
	}
	out := make([]any, n)
	for i := range out {
		row := make([]any, len(a))
		for j, x := range a {
			row[j] = x.([]any)[i]
		}
		if err := in.chargePart(row, 1, elemBytes+sliceBytes+len(a)*elemBytes); err != nil {
			return nil, err
		}
		out[i] = row
	}
	return out, nil
}

// arithmetic implements the community arithmetic operators with Python
// semantics: + - * on integers stay exact integers, / is true division (a
// float), // floors and % takes the divisor's sign. A non-number operand gives
// null; division by zero is invalid-value.
func (in *interp) arithmetic(node *parsing.ASTNode, value any) (any, error) {
	l, r, err := in.evalBoth(node, value)
	if err != nil {
		return nil, err
	}
	x, ok1 := isNum(l)
	y, ok2 := isNum(r)
	if !ok1 || !ok2 {
		return nil, nil
	}
	op := node.Value.(parsing.TokType)
	if x.IsInt() && y.IsInt() {
		a, b := bigInt(x), bigInt(y)
		z := new(big.Int)
		switch op {
		case parsing.TOKPlus:
			z.Add(a, b)
		case parsing.TOKMinus:
			z.Sub(a, b)
		case parsing.TOKStar, parsing.TOKMultiply:
			if a.BitLen()+b.BitLen() > maxIntBits {
				return nil, errorf(KindLimit, "product exceeds %d bits", maxIntBits)
			}
			z.Mul(a, b)
		case parsing.TOKDivide:
			if b.Sign() == 0 {
				return nil, errorf(KindInvalidValue, "division by zero")
			}
			f, _ := new(big.Rat).SetFrac(a, b).Float64()
			if math.IsInf(f, 0) {
				return nil, errorf(KindInvalidValue, "quotient too large for a float")
			}
			return floatNum(f), nil
		case parsing.TOKDiv, parsing.TOKModulo:
			if b.Sign() == 0 {
				return nil, errorf(KindInvalidValue, "division by zero")
			}
			q, m := new(big.Int), new(big.Int)
			q.DivMod(a, b, m) // Euclidean: 0 <= m < |b|
			if m.Sign() != 0 && b.Sign() < 0 {
				q.Add(q, big.NewInt(1))
				m.Add(m, b)
			}
			if op == parsing.TOKDiv {
				z = q
			} else {
				z = m
			}
		}
		if z.BitLen() > maxIntBits {
			return nil, errorf(KindLimit, "result exceeds %d bits", maxIntBits)
		}
		return intNum(z), nil
	}
	a, okA := float(x)
	b, okB := float(y)
	if !okA || !okB {
		return nil, errorf(KindInvalidValue, "integer too large to convert to float")
	}
	var f float64
	switch op {
	case parsing.TOKPlus:
		f = a + b
	case parsing.TOKMinus:
		f = a - b
	case parsing.TOKStar, parsing.TOKMultiply:
		f = a * b
	case parsing.TOKDivide, parsing.TOKDiv, parsing.TOKModulo:
		if b == 0 {
			return nil, errorf(KindInvalidValue, "division by zero")
		}
		switch op {
		case parsing.TOKDivide:
			f = a / b
		case parsing.TOKDiv:
			f = math.Floor(a / b)
		default:
			f = math.Mod(a, b)
			if f != 0 && (f < 0) != (b < 0) {
				f += b
			}
		}
	}
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return nil, errorf(KindInvalidValue, "result outside the double-precision range")
	}
	return floatNum(f), nil
}
