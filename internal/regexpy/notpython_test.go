package regexpy

import "testing"

// TestNotPython: Compile accepts (?<name>...) as our extension, and NotPython
// gives the error CPython 3.11.7's re.compile raises for it (the messages were
// printed by that Python); a pattern CPython accepts has none.
func TestNotPython(t *testing.T) {
	for _, c := range []struct{ pattern, want string }{
		{`(?<x>a)`, "unknown extension ?<x at position 1"},
		{`a(?<name>b)`, "unknown extension ?<n at position 2"},
		{`(?P<a>x)(?<b>y)`, "unknown extension ?<b at position 9"},
		{`(?:(?<g>z))`, "unknown extension ?<g at position 4"},
		{`(?P<x>a)`, ""},
		{`[(?<x>a)]`, ""},
		{`\(?<x>a\)`, ""},
	} {
		re, err := Compile(c.pattern, "")
		if err != nil {
			t.Errorf("%s: %v", c.pattern, err)
			continue
		}
		got := ""
		if e := re.NotPython(); e != nil {
			se, ok := e.(*SyntaxError)
			if !ok {
				t.Errorf("%s: %T, want a *SyntaxError", c.pattern, e)
				continue
			}
			got = se.Msg
		}
		if got != c.want {
			t.Errorf("%s: NotPython %q, want %q", c.pattern, got, c.want)
		}
	}
}
