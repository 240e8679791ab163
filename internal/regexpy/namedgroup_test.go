package regexpy

import (
	"errors"
	"testing"
)

// TestNamedGroupAngle: (?<name>...) is not Python 3.11 syntax (it is
// PCRE's); Compile refuses it with the error CPython 3.11.2's
// re.compile raises (the messages were printed by that Python). Look-behind,
// which starts the same way, and the same text inside a class or escaped
// compile.
func TestNamedGroupAngle(t *testing.T) {
	for _, c := range []struct{ pattern, want string }{
		{`(?<x>a)`, "unknown extension ?<x at position 1"},
		{`a(?<name>b)`, "unknown extension ?<n at position 2"},
		{`(?P<a>x)(?<b>y)`, "unknown extension ?<b at position 9"},
		{`(?:(?<g>z))`, "unknown extension ?<g at position 4"},
		{`(?<`, "unexpected end of pattern at position 3"},
		{`(?P<x>a)`, ""},
		{`[(?<x>a)]`, ""},
		{`\(?<x>a\)`, ""},
		{`(?<=x)a`, ""},
		{`(?<!x)a`, ""},
	} {
		_, err := Compile(c.pattern, "")
		got := ""
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Errorf("%s: %T %v, want a *SyntaxError", c.pattern, err, err)
				continue
			}
			got = se.Msg
		}
		if got != c.want {
			t.Errorf("%s: error %q, want %q", c.pattern, got, c.want)
		}
	}
}
