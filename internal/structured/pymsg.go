package structured

import (
	"bytes"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"
)

// msgPart is a piece of a validation message: literal text, or a value shown
// with Python's repr(). Messages stay in parts until they are shown, so that a
// message about a large value costs nothing unless it is among the errors kept,
// and two messages about the same value compare without rendering it.
type msgPart struct {
	lit   string
	val   any
	isVal bool
}

func makeMsg(args []any) []msgPart {
	out := make([]msgPart, len(args))
	for i, a := range args {
		switch x := a.(type) {
		case string:
			out[i] = msgPart{lit: x}
		case repr:
			out[i] = msgPart{val: x.v, isVal: true}
		}
	}
	return out
}

// renderMsg renders parts until at least limit bytes are written (limit < 0:
// all of it); complete reports whether the whole message was written.
func renderMsg(parts []msgPart, limit int) (b []byte, complete bool) {
	w := reprWriter{limit: limit}
	for _, p := range parts {
		if w.full() {
			return w.b, false
		}
		if p.isVal {
			w.value(p.val)
		} else {
			w.str(p.lit)
		}
	}
	return w.b, limit < 0 || len(w.b) < limit
}

// messageText is the message as the reference shows it: message[:300].
func messageText(parts []msgPart) string {
	b, _ := renderMsg(parts, 4*MaxMessageChars+8)
	return truncateRunes(string(b), MaxMessageChars)
}

// sameValue reports values whose repr is certainly equal: the same container,
// or equal scalars.
func sameValue(a, b any) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case int64:
		y, ok := b.(int64)
		return ok && x == y
	case *big.Int:
		y, ok := b.(*big.Int)
		return ok && x.Cmp(y) == 0
	case float64:
		y, ok := b.(float64)
		return ok && (x == y && math.Signbit(x) == math.Signbit(y) || math.IsNaN(x) && math.IsNaN(y))
	case string:
		y, ok := b.(string)
		return ok && x == y
	case *Object:
		y, ok := b.(*Object)
		return ok && x == y
	case []any:
		y, ok := b.([]any)
		return ok && len(x) == len(y) && (len(x) == 0 || &x[0] == &y[0])
	}
	return false
}

// compareMsg orders two messages as Python compares the strings (code point
// order, which UTF-8 byte order preserves), rendering only as much as it
// needs; the work is charged to r.
func (r *schemaRun) compareMsg(a, b []msgPart) int {
	i := 0
	for i < len(a) && i < len(b) && a[i].isVal == b[i].isVal &&
		(!a[i].isVal && a[i].lit == b[i].lit || a[i].isVal && sameValue(a[i].val, b[i].val)) {
		i++
	}
	a, b = a[i:], b[i:]
	for limit := 256; ; limit *= 4 {
		pa, doneA := renderMsg(a, limit)
		pb, doneB := renderMsg(b, limit)
		r.spend(int64(len(pa)+len(pb))/16 + 1)
		if doneA && doneB {
			return bytes.Compare(pa, pb)
		}
		n := min(len(pa), len(pb))
		if c := bytes.Compare(pa[:n], pb[:n]); c != 0 {
			return c
		}
		if doneA && len(pa) == n {
			return -1
		}
		if doneB && len(pb) == n {
			return 1
		}
	}
}

// schemaError is one kept validation error.
type schemaError struct {
	path []string
	msg  []msgPart
}

// errorSink keeps the first max errors in the reference's order (sorted by
// path, then message; the reference sorts every error and keeps 50), as a
// max-heap so that each new error costs one comparison with the worst kept.
type errorSink struct {
	r   *schemaRun
	max int
	h   []schemaError
}

func (s *errorSink) less(a, b *schemaError) bool {
	if c := slices.Compare(a.path, b.path); c != 0 {
		return c < 0
	}
	return s.r.compareMsg(a.msg, b.msg) < 0
}

func (s *errorSink) add(at *pathFrame, msg []msgPart) {
	e := schemaError{path: at.parts(), msg: msg}
	if len(s.h) < s.max {
		s.h = append(s.h, e)
		for i := len(s.h) - 1; i > 0; {
			p := (i - 1) / 2
			if !s.less(&s.h[p], &s.h[i]) {
				break
			}
			s.h[p], s.h[i] = s.h[i], s.h[p]
			i = p
		}
		return
	}
	if s.max == 0 || !s.less(&e, &s.h[0]) {
		return
	}
	s.h[0] = e
	for i := 0; ; {
		l, big := 2*i+1, i
		if l < len(s.h) && s.less(&s.h[big], &s.h[l]) {
			big = l
		}
		if l+1 < len(s.h) && s.less(&s.h[big], &s.h[l+1]) {
			big = l + 1
		}
		if big == i {
			return
		}
		s.h[i], s.h[big] = s.h[big], s.h[i]
		i = big
	}
}

// sorted returns the kept errors in order.
func (s *errorSink) sorted() []schemaError {
	out := slices.Clone(s.h)
	slices.SortStableFunc(out, func(a, b schemaError) int {
		if c := slices.Compare(a.path, b.path); c != 0 {
			return c
		}
		return s.r.compareMsg(a.msg, b.msg)
	})
	return out
}

func sortStrings(s []string) { slices.Sort(s) }

// equal is jsonschema's equal(): Python equality, except that a bool never
// equals a number, recursively. Every NaN the JSON parser produces is one
// object to Python, so NaN equals NaN here.
func (r *schemaRun) equal(a, b any) bool {
	if !r.spend(1) {
		return false
	}
	sa, aStr := a.(string)
	sb, bStr := b.(string)
	if aStr || bStr {
		return aStr && bStr && sa == sb
	}
	la, aList := a.([]any)
	lb, bList := b.([]any)
	if aList || bList {
		if !aList || !bList || len(la) != len(lb) {
			return false
		}
		for i := range la {
			if !r.equal(la[i], lb[i]) {
				return false
			}
		}
		return true
	}
	oa, aObj := a.(*Object)
	ob, bObj := b.(*Object)
	if aObj || bObj {
		if !aObj || !bObj || oa.Len() != ob.Len() {
			return false
		}
		for i, k := range oa.Keys {
			v, ok := ob.Get(k)
			if !ok || !r.equal(oa.Values[i], v) {
				return false
			}
		}
		return true
	}
	ba, aBool := a.(bool)
	bb, bBool := b.(bool)
	if aBool || bBool {
		return aBool && bBool && ba == bb
	}
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	if fa, ok := a.(float64); ok && math.IsNaN(fa) {
		fb, ok := b.(float64)
		return ok && math.IsNaN(fb)
	}
	c, ok := pyCompare(a, b)
	return ok && c == 0
}

// unique is uniqueItems: no two items are equal(). Items are compared by a
// canonical key, so a large array costs its size, not its size squared.
func (r *schemaRun) unique(a []any) bool {
	seen := make(map[string]struct{}, len(a))
	var buf []byte
	for _, e := range a {
		buf = r.canonicalKey(buf[:0], e)
		if r.exc != nil {
			return true
		}
		if _, dup := seen[string(buf)]; dup {
			return false
		}
		seen[string(buf)] = struct{}{}
	}
	return true
}

// canonicalKey writes a key that two values share exactly when equal() holds.
func (r *schemaRun) canonicalKey(b []byte, v any) []byte {
	if !r.spend(1) {
		return b
	}
	switch x := v.(type) {
	case nil:
		return append(b, 'n')
	case bool:
		if x {
			return append(b, 't')
		}
		return append(b, 'f')
	case int64:
		return strconv.AppendInt(append(b, 'i'), x, 10)
	case *big.Int:
		return x.Append(append(b, 'i'), 10)
	case float64:
		switch {
		case math.IsNaN(x):
			return append(b, 'N')
		case math.IsInf(x, 1):
			return append(b, "I+"...)
		case math.IsInf(x, -1):
			return append(b, "I-"...)
		case x == math.Trunc(x):
			i, _ := big.NewFloat(x).Int(nil)
			return i.Append(append(b, 'i'), 10)
		}
		return strconv.AppendFloat(append(b, 'f'), x, 'g', -1, 64)
	case string:
		r.spend(int64(len(x) / 64))
		b = strconv.AppendInt(append(b, 's'), int64(len(x)), 10)
		return append(append(b, ':'), x...)
	case []any:
		b = strconv.AppendInt(append(b, '['), int64(len(x)), 10)
		for _, e := range x {
			b = r.canonicalKey(append(b, ','), e)
		}
		return append(b, ']')
	case *Object:
		order := make([]int, x.Len())
		for i := range order {
			order[i] = i
		}
		slices.SortFunc(order, func(i, j int) int { return strings.Compare(x.Keys[i], x.Keys[j]) })
		b = strconv.AppendInt(append(b, '{'), int64(x.Len()), 10)
		for _, i := range order {
			k := x.Keys[i]
			b = strconv.AppendInt(append(b, ','), int64(len(k)), 10)
			b = append(append(b, ':'), k...)
			b = r.canonicalKey(b, x.Values[i])
		}
		return append(b, '}')
	}
	return b
}

// truncateRunes returns the first n code points of s.
func truncateRunes(s string, n int) string {
	i := 0
	for pos := range s {
		if i == n {
			return s[:pos]
		}
		i++
	}
	return s
}
