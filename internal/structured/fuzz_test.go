package structured

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzJSON: never panics; accepts exactly what encoding/json accepts (both
// implement RFC 8259; we additionally refuse nothing else), and what parses
// re-encodes to an equal document.
func FuzzJSON(f *testing.F) {
	for _, s := range []string{`{}`, `[1, 2.5e3, "x\u00e9", true, null]`, `{"a": {"b": [1, {"c": "\ud83d\ude00"}]}}`,
		`"\ud800"`, `[1,]`, `{"a" 1}`, `01`, `-`, `1e`, "\ufeff{}", `"\u12"`, `[[[[[]]]]]`, `{"a":1,"a":2}`, `NaN`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, st, fd := ParseJSON(s, JSONOptions{Build: true, MaxDepth: 64, MaxNodes: 10000})
		if fd != nil {
			if fd.Line == nil || fd.Column == nil || *fd.Line < 1 || *fd.Column < 1 {
				t.Fatalf("finding without position: %+v", fd)
			}
			if fd.Code == CodeJSONSyntax && utf8.ValidString(s) && json.Valid([]byte(s)) {
				t.Fatalf("rejected valid JSON %q: %s", s, fd.Message)
			}
			return
		}
		if utf8.ValidString(s) && !json.Valid([]byte(s)) {
			t.Fatalf("accepted invalid JSON %q", s)
		}
		if st.Depth > 64 || st.Nodes > 10000 {
			t.Fatalf("limits not enforced: %+v", st)
		}
		if !utf8.ValidString(s) {
			return // payloads arrive as JSON strings: always valid UTF-8
		}
		var b strings.Builder
		writeOrdered(&b, v)
		v2, st2, fd2 := ParseJSON(b.String(), JSONOptions{Build: true, MaxDepth: 64, MaxNodes: 10000})
		if fd2 != nil || st2.Depth != st.Depth || st2.Nodes > st.Nodes { // repeated keys collapse
			t.Fatalf("round trip of %q via %q: %+v %+v vs %+v", s, b.String(), fd2, st2, st)
		}
		var b2 strings.Builder
		writeOrdered(&b2, v2)
		if b.String() != b2.String() {
			t.Fatalf("round trip differs: %q vs %q", b.String(), b2.String())
		}
	})
}

// writeOrdered re-encodes a parsed value (keys in order, numbers as written).
func writeOrdered(b *strings.Builder, v any) {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		if x {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case Number:
		b.WriteString(string(x))
	case string:
		k, _ := json.Marshal(x)
		b.Write(k)
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			writeOrdered(b, e)
		}
		b.WriteByte(']')
	case *Object:
		b.WriteByte('{')
		for i, k := range x.Keys {
			if i > 0 {
				b.WriteByte(',')
			}
			kb, _ := json.Marshal(k)
			b.Write(kb)
			b.WriteByte(':')
			writeOrdered(b, x.Values[i])
		}
		b.WriteByte('}')
	}
}

// FuzzValidate drives every format through Validate: never panics, findings
// are well formed, valid means no errors, and a second run agrees.
func FuzzValidate(f *testing.F) {
	seeds := []struct{ format, payload string }{
		{"yaml", "a: 1\nb: [1, 2]\n"}, {"yaml", "- - x\n"}, {"yaml", "a: &x 1\nb: *x"}, {"yaml", "!t x"},
		{"yaml", "{a: [1, {b: c}]}"}, {"yaml", "? k\n: v\n"}, {"yaml", "a: |\n  x\n"}, {"yaml", "a:\n- 1\nb: 2"},
		{"xml", "<a x='1'><b>t</b></a>"}, {"xml", "<!DOCTYPE a><a/>"}, {"xml", "<a>&x;</a>"},
		{"xml", "<a xmlns:xi='http://www.w3.org/2001/XInclude'><xi:include/></a>"}, {"xml", "<a><![CDATA[x]]></a>"},
		{"csv", "a,b\n\"c\"\"d\",e\n"}, {"csv", "\"open\n"}, {"csv", "=1,+2,-3,@4\r\n\r\n"},
		{"json", `{"a": [1, 2]}`}, {"json", `[1,`},
	}
	for _, s := range seeds {
		f.Add(s.format, s.payload, "comma")
	}
	f.Fuzz(func(t *testing.T, format, payload, dialect string) {
		switch format {
		case "json", "yaml", "xml", "csv":
		default:
			return
		}
		req := Request{Format: format, Payload: payload}
		if format == "csv" {
			if _, ok := Dialects[dialect]; !ok {
				dialect = "comma"
			}
			req.Dialect = &dialect
		}
		res, err := Validate(context.Background(), req, DefaultLimits)
		if err != nil {
			t.Fatalf("error: %v", err)
		}
		if res.Valid != (len(res.Errors) == 0) || len(res.Errors) > 50 {
			t.Fatalf("inconsistent result %+v", res)
		}
		for _, e := range res.Errors {
			if e.Code == "" || e.Message == "" || utf8.RuneCountInString(e.Message) > MaxMessageChars {
				t.Fatalf("bad finding %+v", e)
			}
			if len(payload) >= 12 && strings.Contains(e.Message, payload) {
				t.Fatalf("message echoes the payload: %q", e.Message)
			}
		}
		if res.Valid {
			if format == "csv" && (*res.Details.Rows > 1000 || *res.Details.Columns > 100) {
				t.Fatalf("csv limits not enforced: %+v", res.Details)
			}
			if format != "csv" && (*res.Details.Depth > 64 || *res.Details.Nodes > 10000) {
				t.Fatalf("limits not enforced: %+v", res.Details)
			}
		}
		again, _ := Validate(context.Background(), req, DefaultLimits)
		a, _ := json.Marshal(res)
		b, _ := json.Marshal(again)
		if string(a) != string(b) {
			t.Fatalf("not deterministic: %s vs %s", a, b)
		}
	})
}

// FuzzCSVRoundTrip: records read from any text, written back fully quoted,
// read back identically.
func FuzzCSVRoundTrip(f *testing.F) {
	for _, s := range []string{"a,b\n", "\"x\"\"y\",z", "a\rb\r\nc", "\"open", "\n\n", "=1;2|3\t4"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return
		}
		var rows [][]string
		csvRecords(context.Background(), s, ',', func(fields []string, _ int) bool {
			rows = append(rows, fields)
			return true
		})
		var b strings.Builder
		for _, r := range rows {
			for i, fld := range r {
				if i > 0 {
					b.WriteByte(',')
				}
				b.WriteString(`"` + strings.ReplaceAll(fld, `"`, `""`) + `"`)
			}
			b.WriteString("\r\n")
		}
		var back [][]string
		csvRecords(context.Background(), b.String(), ',', func(fields []string, _ int) bool {
			back = append(back, fields)
			return true
		})
		if len(back) != len(rows) {
			t.Fatalf("%q: %d rows, then %d", s, len(rows), len(back))
		}
		for i := range rows {
			// An empty record is written as an empty line, which reads back as
			// an empty record too.
			if strings.Join(rows[i], "\x00") != strings.Join(back[i], "\x00") && !(len(rows[i]) == 0 && len(back[i]) == 0) {
				if !(len(rows[i]) == 1 && rows[i][0] == "" && len(back[i]) == 1) {
					t.Fatalf("%q row %d: %q then %q", s, i, rows[i], back[i])
				}
			}
		}
	})
}

// FuzzYAML: the YAML entry point never panics or hangs; refused constructs are
// refused whatever surrounds them; an accepted document is within the limits.
func FuzzYAML(f *testing.F) {
	for _, s := range []string{"a: 1\n", "- [1, {b: c}]\n", "a: &x 1\nb: *x\n", "!t x", "%YAML 1.2\n---\na: 1",
		"a: |\n  x\n  y\n", "? k\n: v\n", "---\na: 1\n...\n", "a:\n- 1\n- - 2\n", "{a: [", "'x", "\"\\u00e9\"", "a: 1\n---\n", "...\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		st, fd, err := validateYAML(context.Background(), s, DefaultLimits)
		if err != nil {
			t.Fatal(err)
		}
		if fd == nil && (st.Depth > 64 || st.Nodes > 10000 || st.Nodes < 1) {
			t.Fatalf("stats %+v", st)
		}
		if fd != nil && fd.Code == "" {
			t.Fatal("finding without code")
		}
	})
}

// FuzzXML: the XML entry point never panics; what it accepts has exactly one
// root and is within the limits; a DOCTYPE anywhere is never accepted.
func FuzzXML(f *testing.F) {
	for _, s := range []string{"<a/>", "<a x='1'><b>t</b></a>", "<!DOCTYPE a><a/>", "<a>&x;</a>", "<a>&amp;&#65;</a>",
		"<?xml version='1.0'?><a/>", "<a><![CDATA[x]]><!--c--></a>", "<a xmlns:xi='http://www.w3.org/2001/XInclude'><xi:include/></a>",
		"<a/><b/>", "<a x='1' x='2'/>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		st, fd, err := validateXML(context.Background(), s, DefaultLimits)
		if err != nil {
			t.Fatal(err)
		}
		if fd == nil {
			if st.Depth < 1 || st.Depth > 64 || st.Nodes > 10000 {
				t.Fatalf("stats %+v", st)
			}
			if strings.Contains(s, "<!DOCTYPE") && !strings.Contains(s, "<![CDATA[") && !strings.Contains(s, "<!--") && !strings.Contains(s, "<?") {
				t.Fatalf("accepted a DOCTYPE: %q", s)
			}
		}
	})
}
