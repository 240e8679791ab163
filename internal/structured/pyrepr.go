package structured

import (
	"math/big"
	"strconv"

	"github.com/precisiond/precisiond/internal/pyrepr"
)

// reprWriter renders Python's repr() of a value into b, stopping once b holds
// at least limit bytes (limit < 0: no limit), so that a message about a large
// value costs only the prefix that is shown or compared.
type reprWriter struct {
	b     []byte
	limit int
}

func (w *reprWriter) full() bool { return w.limit >= 0 && len(w.b) >= w.limit }

func (w *reprWriter) str(s string) {
	if !w.full() {
		w.b = append(w.b, s...)
	}
}

func (w *reprWriter) value(v any) {
	if w.full() {
		return
	}
	switch x := v.(type) {
	case nil:
		w.str("None")
	case bool:
		if x {
			w.str("True")
		} else {
			w.str("False")
		}
	case int64:
		w.b = strconv.AppendInt(w.b, x, 10)
	case *big.Int:
		w.b = x.Append(w.b, 10)
	case float64:
		w.b = pyrepr.AppendFloat(w.b, x)
	case string:
		w.b = pyrepr.AppendString(w.b, x, w.limit)
	case []any:
		w.str("[")
		for i, e := range x {
			if w.full() {
				return
			}
			if i > 0 {
				w.str(", ")
			}
			w.value(e)
		}
		w.str("]")
	case *Object:
		w.str("{")
		for i, k := range x.Keys {
			if w.full() {
				return
			}
			if i > 0 {
				w.str(", ")
			}
			w.b = pyrepr.AppendString(w.b, k, w.limit)
			w.str(": ")
			w.value(x.Values[i])
		}
		w.str("}")
	}
}

// pyRepr returns repr(v) in full.
func pyRepr(v any) string {
	w := reprWriter{limit: -1}
	w.value(v)
	return string(w.b)
}
