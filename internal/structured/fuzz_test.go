package structured

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/precisiond/precisiond/internal/refusal"
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

// FuzzValidate drives every format through Validate: never panics; the only
// errors are the reference's refusals; valid means no errors; findings are
// well formed; details stay within the limits; a second run agrees.
func FuzzValidate(f *testing.F) {
	seeds := []struct{ format, payload string }{
		{"yaml", "a: 1\nb: [1, 2]\n"}, {"yaml", "- - x\n"}, {"yaml", "a: &x 1\nb: *x"}, {"yaml", "!t x"},
		{"yaml", "{a: [1, {b: c}]}"}, {"yaml", "? k\n: v\n"}, {"yaml", "a: |\n  x\n"}, {"yaml", "a:\n- 1\nb: 2"},
		{"yaml", "<<: {a: 1}\nb: 2\n"}, {"yaml", "d: 2024-13-45\n"}, {"yaml", "1: a\n1.0: b\n"},
		{"xml", "<a x='1'><b>t</b></a>"}, {"xml", "<!DOCTYPE a><a/>"}, {"xml", "<a>&x;</a>"}, {"xml", `<a x="1"y="2"/>`},
		{"xml", "<?xml version='1.0' standalone='maybe'?><a/>"}, {"xml", "<a><![CDATA[x]]></a>"}, {"xml", `<p:a xmlns:p=""/>`},
		{"csv", "a,b\n\"c\"\"d\",e\n"}, {"csv", "\"open\n"}, {"csv", "=1,+2,-3,@4\r\n\r\n"}, {"csv", "a,b\n1\n\"x\"y\n"},
		{"json", `{"a": [1, 2]}`}, {"json", `[1,`}, {"json", `[NaN, "\ud800"]`},
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
		checkTwice(t, req)
	})
}

// checkTwice validates req twice: the answer keeps its invariants and is the
// same both times.
func checkTwice(t *testing.T, req Request) {
	t.Helper()
	res, err := Validate(context.Background(), req, DefaultLimits)
	checkResult(t, res, err)
	again, err2 := Validate(context.Background(), req, DefaultLimits)
	a, _ := json.Marshal(res)
	b, _ := json.Marshal(again)
	if string(a) != string(b) || (err == nil) != (err2 == nil) {
		t.Fatalf("not deterministic: %s vs %s", a, b)
	}
}

// checkResult asserts the invariants of an answer.
func checkResult(t *testing.T, res Result, err error) {
	t.Helper()
	if err != nil {
		var re *refusal.Error
		if !errors.As(err, &re) || re.Reason == "" {
			t.Fatalf("error %v is not a refusal", err)
		}
		return
	}
	if res.Valid != (len(res.Errors) == 0) || len(res.Errors) > 50 {
		t.Fatalf("inconsistent result %+v", res)
	}
	for _, e := range res.Errors {
		if e.Code == "" || utf8.RuneCountInString(e.Message) > MaxMessageChars || utf8.RuneCountInString(e.Path) > MaxMessageChars ||
			!utf8.ValidString(e.Message) || !utf8.ValidString(e.Path) || !utf8.ValidString(e.Code) {
			t.Fatalf("bad finding %+v", e)
		}
	}
	d := res.Details
	if d.Depth != nil && (*d.Depth > 64 || *d.Nodes > 10000 || *d.Depth < 1) {
		t.Fatalf("limits not enforced: %+v", d)
	}
	if d.Rows != nil && (*d.Rows > 1000 || *d.Columns > 100) {
		t.Fatalf("csv limits not enforced: %+v", d)
	}
}

// FuzzSchema: any schema text against any JSON payload: never panics, ends
// within the work budget, answers deterministically.
func FuzzSchema(f *testing.F) {
	for _, s := range []struct{ schema, payload string }{
		{`{"type": "object", "required": ["a"]}`, `{"b": 1}`},
		{`{"items": {"anyOf": [{"not": {}}, {"type": "string"}]}}`, `[1, "x", 2]`},
		{`{"properties": {"a": false}, "additionalProperties": {"minimum": 3}}`, `{"a": 1, "b": 2}`},
		{`{"patternProperties": {"^x": {"type": "integer"}}, "additionalProperties": false}`, `{"x1": "a", "y": 1}`},
		{`{"unevaluatedProperties": false, "anyOf": [{"properties": {"a": {}}}]}`, `{"a": 1, "b": 2}`},
		{`{"oneOf": [{"type": "integer"}, {"minimum": 0}], "uniqueItems": true}`, `[1, 1.0]`},
		{`{"multipleOf": 0.1, "enum": [NaN, 1e400]}`, `NaN`},
		{`{"contains": {"const": 1}, "minContains": 2, "maxContains": 3}`, `[1, 1, true]`},
		{`{"if": {"type": "string"}, "then": {"pattern": "^a"}, "else": {"maxLength": 1}}`, `"b"`},
		{`{"type": "foo"}`, `1`}, {`{"$ref": "#"}`, `1`}, {`[]`, `1`},
	} {
		f.Add(s.schema, s.payload)
	}
	f.Fuzz(func(t *testing.T, schema, payload string) {
		checkTwice(t, Request{Format: "json", Payload: payload, Schema: &schema})
	})
}

// FuzzCSVRoundTrip: records read from any text without a csv error, written
// back fully quoted, read back identically.
func FuzzCSVRoundTrip(f *testing.F) {
	for _, s := range []string{"a,b\n", "\"x\"\"y\",z", "a\rb\r\nc", "\"open", "\n\n", "=1;2|3\t4", "\"a\"b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return
		}
		var rows [][]string
		_, perr, _ := csvRecords(context.Background(), s, ',', func(fields []string) bool {
			rows = append(rows, fields)
			return true
		})
		if perr != "" {
			return
		}
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
		_, perr, _ = csvRecords(context.Background(), b.String(), ',', func(fields []string) bool {
			back = append(back, fields)
			return true
		})
		if perr != "" || len(back) != len(rows) {
			t.Fatalf("%q: %d rows, then %d (%s)", s, len(rows), len(back), perr)
		}
		for i := range rows {
			if strings.Join(rows[i], "\x00") != strings.Join(back[i], "\x00") && !(len(rows[i]) == 0 && len(back[i]) == 0) {
				if !(len(rows[i]) == 1 && rows[i][0] == "" && len(back[i]) == 1) {
					t.Fatalf("%q row %d: %q then %q", s, i, rows[i], back[i])
				}
			}
		}
	})
}

// FuzzXML: the expat-compatible checker never panics; what it accepts has a
// root element; an error points inside the document.
func FuzzXML(f *testing.F) {
	for _, s := range []string{"<a/>", "<a x='1'><b>t</b></a>", "<a>&x;</a>", "<a>&amp;&#65;</a>",
		"<?xml version='1.0'?><a/>", "<a><![CDATA[x]]><!--c--></a>", "<a/><b/>", "<a x='1' x='2'/>",
		`<a xmlns:p="urn:p"><p:b p:c="1"/></a>`, "<?xml version=\"1.0\" encoding=\"\"?><a/>", "\ufeff<a>\r\n</a>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return // payloads arrive as JSON strings
		}
		depth, elements, _, err := checkXML(s, DefaultLimits)
		if err != nil {
			if err.off < 0 || err.off > len(s) || err.msg == "" {
				t.Fatalf("%q: bad error %+v", s, err)
			}
			return
		}
		if depth < 1 || elements < 1 {
			t.Fatalf("%q: accepted without a root (%d, %d)", s, depth, elements)
		}
	})
}

// FuzzYAML: the YAML path never panics or hangs; refused constructs are
// refused whatever surrounds them; answers stay within the limits and are
// the same when asked twice (the reader's pooled buffers carry nothing from
// one payload to the next). And a differential property of the reader and
// the value builder: what a valid document builds, written back as flow
// YAML with every string double-quoted (flowYAML), builds the same value.
// Seeds: a sample of the PyYAML vectors besides the cases below.
func FuzzYAML(f *testing.F) {
	for _, s := range []string{"a: 1\n", "- [1, {b: c}]\n", "a: &x 1\nb: *x\n", "!t x", "%YAML 1.2\n---\na: 1",
		"a: |\n  x\n  y\n", "? k\n: v\n", "---\na: 1\n...\n", "a:\n- 1\n- - 2\n", "{a: [", "'x", "\"\\u00e9\"", "a: 1\n---\n", "...\n",
		"<<: [{a: 1}, {b: 2}]\n", "t: 2024-01-01 10:00:00 +05:30\n", "a: 0x1F\n0x1F: b\n", "a: .nan\n.nan: 1\n.NaN: 2\n",
		"k: >-\n  folded\n  text\n\n  more\n", "\"esc \\t\\x41\\u00e9\\N\\L\": 'q''q'\n", "[a:b, {k:@ v}, ? x, ? : y]\n", "{\"\\ud800\": 1, \"\\udfff\": [\"\\ud83d\\ude00\"]}\n"} {
		f.Add(s)
	}
	var vectors struct{ Cases []pyyamlCase }
	if raw, err := os.ReadFile("testdata/yaml_pyyaml.json"); err == nil && json.Unmarshal(raw, &vectors) == nil {
		for i, c := range vectors.Cases {
			if i%20 == 0 {
				f.Add(c.Src)
			}
		}
	}
	f.Fuzz(func(t *testing.T, s string) {
		res, err := Validate(context.Background(), Request{Format: "yaml", Payload: s}, DefaultLimits)
		checkResult(t, res, err)
		again, err2 := Validate(context.Background(), Request{Format: "yaml", Payload: s}, DefaultLimits)
		if !reflect.DeepEqual(res, again) || fmt.Sprint(err) != fmt.Sprint(err2) {
			t.Fatalf("%q: %+v %v, then %+v %v", s, res, err, again, err2)
		}
		if err != nil || !res.Valid {
			return
		}
		text := builtYAML(t, s)
		if back := builtYAML(t, text); back != text {
			t.Fatalf("%q builds %s, which builds %s", s, text, back)
		}
	})
}

// builtYAML is the value yaml.safe_load builds from a valid document, as
// flowYAML writes it (before the reader's buffers, which the value's strings
// point into, go back to the pool).
func builtYAML(t *testing.T, s string) string {
	t.Helper()
	buf := getYAMLBuffers()
	defer putYAMLBuffers(buf)
	toks, serr := scanYAMLTokens(s, buf)
	if serr != nil {
		t.Fatalf("%q: %s", s, serr.msg)
	}
	doc, perr, deep := parseYAMLTokens(toks, DefaultLimits.MaxYAMLNesting, buf)
	if perr != nil || deep {
		t.Fatalf("%q: %v %v", s, perr, deep)
	}
	c := &yamlConstructor{}
	v := c.document(doc)
	if c.failed() {
		t.Fatalf("%q: %v %s", s, c.err, c.valueErr)
	}
	return flowYAML(v)
}

// flowYAML writes a built value as one line of flow YAML that reads back as
// the same value: strings double-quoted with escapes, numbers, booleans,
// null, dates and times in forms the YAML 1.1 resolver types again.
func flowYAML(v any) string {
	var b strings.Builder
	var write func(v any)
	write = func(v any) {
		switch x := v.(type) {
		case nil:
			b.WriteString("null")
		case bool:
			b.WriteString(strconv.FormatBool(x))
		case int64:
			b.WriteString(strconv.FormatInt(x, 10))
		case *big.Int:
			b.WriteString(x.String())
		case float64:
			switch {
			case math.IsNaN(x):
				b.WriteString(".nan")
			case math.IsInf(x, 1):
				b.WriteString(".inf")
			case math.IsInf(x, -1):
				b.WriteString("-.inf")
			default:
				f := strconv.FormatFloat(x, 'e', -1, 64) // d.ddde±dd: YAML 1.1 wants the point
				if !strings.Contains(f, ".") {
					f = strings.Replace(f, "e", ".0e", 1)
				}
				b.WriteString(f)
			}
		case *string:
			write(*x)
		case string:
			b.WriteByte('"')
			for i := 0; i < len(x); {
				r, size := utf8.DecodeRuneInString(x[i:])
				if r == utf8.RuneError && size == 1 && x[i] == 0xED && i+2 < len(x) {
					// A lone surrogate, kept in WTF-8 (appendWTF8).
					r, size = 0xD000|rune(x[i+1]&0x3F)<<6|rune(x[i+2]&0x3F), 3
				}
				i += size
				switch {
				case r == '"' || r == '\\':
					b.WriteByte('\\')
					b.WriteRune(r)
				case r < 0x20 || r >= 0x7F && r < 0xA0 || r >= 0xD800 && r < 0xE000 || r == 0xFEFF || r > 0xFFFD && r < 0x10000 || r == 0x2028 || r == 0x2029:
					fmt.Fprintf(&b, "\\U%08x", r)
				default:
					b.WriteRune(r)
				}
			}
			b.WriteByte('"')
		case pyDate:
			fmt.Fprintf(&b, "%04d-%02d-%02d", x.y, x.m, x.d)
		case pyDateTime:
			fmt.Fprintf(&b, "%04d-%02d-%02dT%02d:%02d:%02d.%06d", x.y, x.m, x.d, x.hh, x.mm, x.ss, x.us)
			if x.aware {
				off := x.offset
				sign := "+"
				if off < 0 {
					sign, off = "-", -off
				}
				fmt.Fprintf(&b, "%s%02d:%02d", sign, off/60, off%60)
			}
		case *pySeq:
			b.WriteByte('[')
			for i, e := range x.items {
				if i > 0 {
					b.WriteString(", ")
				}
				write(e)
			}
			b.WriteByte(']')
		case *pyMapping:
			b.WriteByte('{')
			for i, e := range x.entries {
				if i > 0 {
					b.WriteString(", ")
				}
				b.WriteString("? ") // explicit: a simple key may not pass 1024 characters
				write(e.k)
				b.WriteString(": ")
				write(e.v)
			}
			b.WriteByte('}')
		default:
			fmt.Fprintf(&b, "?%T", v)
		}
	}
	write(v)
	return b.String()
}
