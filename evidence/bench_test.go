package evidence

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/precisiond/precisiond/contracts"
)

// largeValue is a 2 000-element list of objects mixing every canonical rule
// (escapes, non-ASCII, floats, big integers, nesting): about 150 KB of JSON.
func largeValue() any {
	list := make([]any, 2000)
	for i := range list {
		list[i] = map[string]any{
			"id": json.Number(fmt.Sprint(i)), "name": fmt.Sprintf("Grüße \"%d\"\n", i),
			"price": Float(float64(i) / 7), "big": json.Number("123456789012345678901234567890"),
			"tags": []any{"a", "b", nil, true}, "nested": map[string]any{"z": 1, "a": "</script>"},
		}
	}
	return map[string]any{"items": list, "description": strings.Repeat("é", 1000)}
}

// BenchmarkCanonical writes canonical JSON for a small (an envelope's facts) and
// a large value.
func BenchmarkCanonical(b *testing.B) {
	small, _ := ParseJSON([]byte(`{"a":391,"b":299,"operation":"both","gcd":23,"lcm":5083,"ratio":0.5,"note":"ü\t"}`))
	for _, c := range []struct {
		name string
		v    any
	}{{"small", small}, {"large", largeValue()}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Canonical(c.v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkHashLarge is H(v) of the large value (canonical JSON + SHA-256).
func BenchmarkHashLarge(b *testing.B) {
	v := largeValue()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Hash(v); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBuild is envelope construction with its result hash, then the
// one-pass response encoding, for a small and a large facts object.
func BenchmarkBuild(b *testing.B) {
	c := contracts.MustLoad("gcd_lcm")
	input := map[string]any{"a": json.Number("391"), "b": json.Number("299"), "operation": "both"}
	for _, fc := range []struct {
		name  string
		facts map[string]any
	}{
		{"small", map[string]any{"a": json.Number("391"), "b": json.Number("299"), "operation": "both", "gcd": json.Number("23"), "lcm": json.Number("5083")}},
		{"large", largeValue().(map[string]any)},
	} {
		b.Run(fc.name, func(b *testing.B) {
			b.ReportAllocs()
			buf := make([]byte, 0, 1024)
			for b.Loop() {
				env, err := Build(c, "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", input, fc.facts, nil)
				if err != nil {
					b.Fatal(err)
				}
				if buf, err = env.AppendCanonical(buf[:0]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkParseJSON decodes a request-sized and a large document.
func BenchmarkParseJSON(b *testing.B) {
	large, _ := Canonical(largeValue())
	for _, c := range []struct {
		name string
		data []byte
	}{{"small", []byte(`{"tool":"gcd_lcm","args":{"a":391,"b":299}}`)}, {"large", large}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := ParseJSON(c.data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
