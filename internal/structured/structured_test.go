package structured

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"runtime"
	"strings"
	"sync"
	"testing"
	"unicode"

	"github.com/precisiond/precisiond/internal/pyrepr"
	"github.com/precisiond/precisiond/internal/refusal"
	"github.com/precisiond/precisiond/internal/vectors"
)

// readVectors loads a testdata file written by
// tools/testdata/reference/gen_structured.py.
func readVectors(t *testing.T, name string, v any) {
	t.Helper()
	vectors.Decode(t, "testdata/"+name, v)
}

// TestStructuredExpatVectors: for every XML case (hostile and edge cases, and every
// ASCII character plus a selection of others in six places), our checker
// reports what pyexpat reports: well-formed or not, expat's error string, its
// line and its 0-based column; and structured_validate answers what the
// reference (defusedxml) answered.
func TestStructuredExpatVectors(t *testing.T) {
	var file struct {
		Cases []struct {
			XML       string
			OK        bool
			Error     string
			Line      int
			Column    int
			Reference struct{ Facts json.RawMessage }
		}
	}
	readVectors(t, "xml_expat.json", &file)
	if len(file.Cases) < 1000 {
		t.Fatalf("only %d expat cases", len(file.Cases))
	}
	for _, c := range file.Cases {
		_, _, _, err := checkXML(c.XML, DefaultLimits)
		switch {
		case (err == nil) != c.OK:
			t.Errorf("%q: well-formed %v, expat says %v (%v)", c.XML, err == nil, c.OK, err)
		case err != nil:
			if l, col := xmlPosition(c.XML, err.off); err.msg != c.Error || l != c.Line || col != c.Column {
				t.Errorf("%q: %s at %d:%d, expat: %s at %d:%d", c.XML, err.msg, l, col, c.Error, c.Line, c.Column)
			}
		}
		res, verr := Validate(context.Background(), Request{Format: "xml", Payload: c.XML}, DefaultLimits)
		if verr != nil {
			t.Errorf("%q: %v", c.XML, verr)
			continue
		}
		if got, want := canonical(t, res), canonical(t, c.Reference.Facts); got != want {
			t.Errorf("%q:\n got %s\nwant %s", c.XML, got, want)
		}
	}
}

// canonical re-encodes JSON with sorted keys for comparison.
func canonical(t *testing.T, v any) string {
	t.Helper()
	b, ok := v.(json.RawMessage)
	if !ok {
		var err error
		if b, err = json.Marshal(v); err != nil {
			t.Fatal(err)
		}
	}
	var m any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(m)
	return string(out)
}

// TestStructuredXMLNameChars: our name-character tables are exactly the characters expat
// accepts at the start and inside an element name (every BMP code point).
func TestStructuredXMLNameChars(t *testing.T) {
	var file struct{ Start, Name [][2]rune }
	readVectors(t, "xml_namechars.json", &file)
	for c := rune(0); c < 0x10000; c++ {
		if c >= 0xD800 && c <= 0xDFFF || c == ' ' || c == '\t' || c == '\r' || c == '\n' {
			continue
		}
		if got, want := isNameStart(c), inRanges(file.Start, c); got != want {
			t.Errorf("U+%04X: name start %v, expat %v", c, got, want)
		}
		if got, want := isNameChar(c), inRanges(file.Name, c); got != want {
			t.Errorf("U+%04X: name character %v, expat %v", c, got, want)
		}
	}
}

// TestStructuredPyPrintable: pyrepr.Printable is CPython 3.11's str.isprintable() on every
// code point (Python's repr escapes the others).
func TestStructuredPyPrintable(t *testing.T) {
	var file struct{ Ranges [][2]rune }
	readVectors(t, "py_printable.json", &file)
	for c := rune(0x80); c <= unicode.MaxRune; c++ {
		if c >= 0xD800 && c <= 0xDFFF {
			continue
		}
		if got, want := pyrepr.Printable(c), inRanges(file.Ranges, c); got != want {
			t.Errorf("U+%04X: printable %v, Python %v", c, got, want)
		}
	}
}

// TestStructuredPyRepr: Python's repr() of values as the reference's messages show them
// (shortest float repr, string quoting and escapes, nested containers).
func TestStructuredPyRepr(t *testing.T) {
	var file struct {
		Cases []struct{ JSON, Repr string }
	}
	readVectors(t, "py_repr.json", &file)
	for _, c := range file.Cases {
		v, _, f := ParseJSON(c.JSON, JSONOptions{Build: true, Python: true})
		if f != nil {
			t.Fatalf("%s: %s", c.JSON, f.Message)
		}
		if got := pyRepr(v); got != c.Repr {
			t.Errorf("repr(%s) = %s, Python %s", c.JSON, got, c.Repr)
		}
	}
}

// TestStructuredNodeCount is the example: {"a":[1,2,3]} has depth 3 and 6 nodes
// as the reference counts them (the object, the key, the array and three
// numbers), in JSON and in YAML alike.
func TestStructuredNodeCount(t *testing.T) {
	for _, req := range []Request{{Format: "json", Payload: `{"a":[1,2,3]}`}, {Format: "yaml", Payload: "a: [1, 2, 3]\n"}} {
		res, err := Validate(context.Background(), req, DefaultLimits)
		if err != nil || res.Details.Depth == nil || *res.Details.Depth != 3 || *res.Details.Nodes != 6 {
			t.Errorf("%s: %+v %v, want depth 3, nodes 6", req.Format, res.Details, err)
		}
	}
}

func strp(s string) *string { return &s }

// TestStructuredHostile: every hostile input gets the reference's typed answer (a
// finding or a refusal), never a crash, and the call allocates a bounded
// number of bytes (measured, not timed: the same on every machine).
func TestStructuredHostile(t *testing.T) {
	billion := "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n" +
		"b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n" +
		"d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n"
	comma := strp("comma")
	var patterns []string
	for i := 0; i < 1000; i++ {
		patterns = append(patterns, `"(a|b|c|d|e|f|g|h)*x`+itoa(i)+`": {}`)
	}
	manyPatterns := `{"patternProperties": {` + strings.Join(patterns, ",") + `}}`
	keys := `{` + strings.TrimSuffix(strings.Repeat(`"abcdefgh": 1, `, 1), ", ")
	for i := 0; i < 4000; i++ {
		keys += `, "k` + strings.Repeat("a", 3) + string(rune('a'+i%26)) + strings.Repeat("b", i%7) + `": 0`
	}
	keys += `}`
	// Each level's unevaluatedProperties re-evaluates the levels below it:
	// work grows as 3^depth (in the reference too), the schema linearly.
	nestedUneval := `{}`
	for i := 0; i < 25; i++ {
		nestedUneval = `{"allOf": [` + nestedUneval + `], "unevaluatedProperties": {"type": "integer"}}`
	}
	tests := []struct {
		name    string
		req     Request
		lim     func(*Limits)
		code    string // the first finding's code, or
		reason  string // the refusal's reason
		message string // the finding's message, when checked
	}{
		{name: "JSON nested 32768 deep", req: Request{Format: "json", Payload: strings.Repeat("[", 32768) + strings.Repeat("]", 32768)}, reason: ReasonDepthLimit},
		{name: "JSON nested 1000000 deep", req: Request{Format: "json", Payload: strings.Repeat("[", 1000000)},
			lim: func(l *Limits) { l.MaxPayloadBytes = 1 << 20 }, reason: ReasonDepthLimit},
		{name: "JSON 65 deep", req: Request{Format: "json", Payload: strings.Repeat("[", 65) + strings.Repeat("]", 65)}, reason: ReasonDepthLimit},
		{name: "JSON 10001 nodes", req: Request{Format: "json", Payload: "[" + strings.TrimSuffix(strings.Repeat("0,", 10000), ",") + "]"}, reason: ReasonNodeLimit},
		{name: "JSON integer of 60000 digits", req: Request{Format: "json", Payload: strings.Repeat("9", 60000)}, reason: ReasonIntTooLong},
		{name: "JSON fraction of 60000 digits", req: Request{Format: "json", Payload: "0." + strings.Repeat("1", 60000), Schema: strp(`{"maximum": 0.1}`)},
			code: CodeJSONSchema, message: "0.1111111111111111 is greater than the maximum of 0.1"},
		{name: "JSON huge exponent", req: Request{Format: "json", Payload: "[1e999999999]", Schema: strp(`{"items": {"maximum": 1}}`)},
			code: CodeJSONSchema, message: "inf is greater than the maximum of 1"},
		{name: "JSON 30000 escapes", req: Request{Format: "json", Payload: `"` + strings.Repeat(`\ud800`, 10000) + `"`, Schema: strp(`{"maxLength": 1}`)},
			code: CodeJSONSchema},
		{name: "billion laughs", req: Request{Format: "yaml", Payload: billion}, code: CodeYAMLRejected},
		{name: "YAML Python tag", req: Request{Format: "yaml", Payload: "a: !!python/object/apply:os.system [ls]\n"}, code: CodeYAMLRejected},
		{name: "YAML block nesting 30000", req: Request{Format: "yaml", Payload: strings.Repeat("- ", 30000) + "x\n"}, reason: ReasonDepthLimit},
		{name: "YAML flow nesting 30000", req: Request{Format: "yaml", Payload: strings.Repeat("[", 30000)}, reason: ReasonDepthLimit},
		{name: "YAML flow nesting 480", req: Request{Format: "yaml", Payload: strings.Repeat("[", 480) + strings.Repeat("]", 480)}, code: ReasonDepthLimit},
		{name: "YAML 10001 nodes", req: Request{Format: "yaml", Payload: strings.Repeat("- 0\n", 10000)}, code: ReasonNodeLimit},
		{name: "YAML block mapping of 13000 entries", req: Request{Format: "yaml", Payload: strings.Repeat("k: v\n", 13000)}},
		{name: "YAML block mapping of 6000 keys", req: Request{Format: "yaml", Payload: numberedKeys(6000)}, code: ReasonNodeLimit},
		{name: "YAML flow nesting 488", req: Request{Format: "yaml", Payload: strings.Repeat("[", 488) + strings.Repeat("]", 488)}, code: ReasonDepthLimit},
		{name: "YAML flow nesting 489", req: Request{Format: "yaml", Payload: strings.Repeat("[", 489) + strings.Repeat("]", 489)}, reason: ReasonDepthLimit},
		{name: "YAML 60000 simple keys on one line", req: Request{Format: "yaml", Payload: strings.Repeat("[a: ", 15000)}, reason: ReasonDepthLimit},
		{name: "YAML integer of 5000 digits", req: Request{Format: "yaml", Payload: "a: " + strings.Repeat("7", 5000) + "\n"},
			code: "Exceeds the limit (4300 digits) for integer string conversion: value has 5000 digits; use sys.set_int_max_str_digits() to increase the limit"},
		{name: "YAML 60000 control characters", req: Request{Format: "yaml", Payload: strings.Repeat("\x01", 60000)}, code: CodeYAMLParse},
		{name: "XML external entity", req: Request{Format: "xml", Payload: "<?xml version=\"1.0\"?>\n<!DOCTYPE foo [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]>\n<foo>&xxe;</foo>"}, code: CodeXMLForbidden},
		{name: "XInclude", req: Request{Format: "xml", Payload: `<a xmlns:xi="http://www.w3.org/2001/XInclude"><xi:include href="file:///etc/passwd"/></a>`}, code: CodeXMLForbidden},
		{name: "XML undefined entity", req: Request{Format: "xml", Payload: "<a>x&xxe;</a>"}, code: CodeXMLParse, message: "undefined entity: line 1, column 4"},
		{name: "XML nested 16000 deep", req: Request{Format: "xml", Payload: strings.Repeat("<a>", 8000) + strings.Repeat("</a>", 8000)}, code: CodeXMLParse, message: ReasonDepthLimit},
		{name: "XML 5000 attributes", req: Request{Format: "xml", Payload: "<a" + attrs(5000, false) + "/>"}},
		{name: "XML 7000 repeated attributes", req: Request{Format: "xml", Payload: "<a" + attrs(7000, true) + "/>"}, code: CodeXMLParse, message: "duplicate attribute: line 1, column 9"},
		{name: "XML 2500 namespace declarations", req: Request{Format: "xml", Payload: "<a" + nsDecls(2500) + "/>"}},
		{name: "XML 16000 character references", req: Request{Format: "xml", Payload: "<a>" + strings.Repeat("&#65;", 13000) + "</a>"}},
		{name: "XML 10001 elements", req: Request{Format: "xml", Payload: "<r>" + strings.Repeat("<a/>", 10000) + "</r>"}, code: CodeXMLParse, message: ReasonNodeLimit},
		{name: "CSV 65536 quotes", req: Request{Format: "csv", Payload: strings.Repeat(`"`, 65536), Dialect: comma}, code: CodeCSVFieldLimit},
		{name: "CSV unclosed quote over 60000 lines", req: Request{Format: "csv", Payload: `"` + strings.Repeat("\n", 60000), Dialect: comma}, code: CodeCSVParse, message: "unexpected end of data"},
		{name: "CSV 60000 empty rows", req: Request{Format: "csv", Payload: strings.Repeat("\n", 60000), Dialect: comma}, code: CodeCSVRowLimit},
		{name: "CSV 998 ragged rows", req: Request{Format: "csv", Payload: "a,b\n" + strings.Repeat("1\n", 998), Dialect: comma}, code: CodeCSVMismatch},
		{name: "CSV 20000 fields", req: Request{Format: "csv", Payload: strings.Repeat(",", 20000), Dialect: comma}, code: CodeCSVColumnLimit},
		{name: "schema nested 980 deep", req: Request{Format: "json", Payload: "1", Schema: strp(strings.Repeat(`{"not":`, 980) + "{}" + strings.Repeat("}", 980))}},
		{name: "schema nested 1000 deep", req: Request{Format: "json", Payload: "1", Schema: strp(strings.Repeat(`{"not":`, 1000) + "{}" + strings.Repeat("}", 1000))}, reason: ReasonDepthLimit},
		{name: "schema uniqueItems over 9000 arrays", req: Request{Format: "json", Payload: "[" + strings.TrimSuffix(strings.Repeat("[1,[2]],", 1000), ",") + "]", Schema: strp(`{"uniqueItems": true}`)}, code: CodeJSONSchema},
		{name: "schema 1000 patterns on 4000 keys", req: Request{Format: "json", Payload: keys, Schema: strp(manyPatterns)}, reason: ReasonWorkLimit},
		{name: "schema nested unevaluatedProperties", req: Request{Format: "json", Payload: `{"a": 1}`, Schema: strp(nestedUneval)}, reason: ReasonWorkLimit},
		{name: "schema $ref to a URL", req: Request{Format: "json", Payload: "1", Schema: strp(`{"properties": {"a": {"$ref": "http://evil.example/s.json"}}}`)}, code: CodeSchemaRef},
		{name: "schema pattern needing backtracking", req: Request{Format: "json", Payload: `"aaaa"`, Schema: strp(`{"pattern": "(a+)+\\1$"}`)}, reason: RefusalUnsupportedRegex},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			lim := DefaultLimits
			if tc.lim != nil {
				tc.lim(&lim)
			}
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			res, err := Validate(context.Background(), tc.req, lim)
			runtime.ReadMemStats(&after)
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 128<<20 {
				t.Errorf("allocated %d MiB", alloc>>20)
			}
			var re *refusal.Error
			switch {
			case tc.reason != "":
				if !errors.As(err, &re) || re.Reason != tc.reason {
					t.Fatalf("got %v %+v, want refusal %s", err, res.Errors, tc.reason)
				}
			case err != nil:
				t.Fatalf("refused: %v", err)
			case tc.code == "":
				if !res.Valid {
					t.Fatalf("findings %+v, want valid", res.Errors)
				}
			case len(res.Errors) == 0 || res.Errors[0].Code != tc.code:
				t.Fatalf("findings %+v, want %s", res.Errors, tc.code)
			case tc.message != "" && res.Errors[0].Message != tc.message:
				t.Errorf("message %q, want %q", res.Errors[0].Message, tc.message)
			}
		})
	}
}

func attrs(n int, same bool) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString(" a")
		if !same {
			b.WriteString(itoa(i))
		}
		b.WriteString(`="1"`)
	}
	return b.String()
}

func nsDecls(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString(" xmlns:p" + itoa(i) + `="u` + itoa(i) + `"`)
	}
	for i := 0; i < n; i += 3 {
		b.WriteString(" p" + itoa(i) + `:x="1"`)
	}
	return b.String()
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

// TestStructuredSchemaCacheConcurrent: a compiled schema is shared between calls; many
// goroutines validating with it at once agree (run under -race).
func TestStructuredSchemaCacheConcurrent(t *testing.T) {
	schema := `{"type": "object", "properties": {"n": {"type": "integer", "minimum": 0}}, "required": ["n"]}`
	want := map[string]bool{`{"n": 1}`: true, `{"n": -1}`: false, `{}`: false}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				for payload, valid := range want {
					res, err := Validate(context.Background(), Request{Format: "json", Payload: payload, Schema: &schema}, DefaultLimits)
					if err != nil || res.Valid != valid {
						t.Errorf("%s: valid %v (%v), want %v", payload, res.Valid, err, valid)
					}
				}
			}
		}()
	}
	wg.Wait()
}

// TestStructuredCancelled: a cancelled context stops a long schema check.
func TestStructuredCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	schema := `{"items": {"anyOf": [` + strings.TrimSuffix(strings.Repeat(`{"not":{}},`, 2900), ",") + `]}}`
	_, err := Validate(ctx, Request{Format: "json", Payload: "[" + strings.TrimSuffix(strings.Repeat("0,", 500), ",") + "]", Schema: &schema}, DefaultLimits)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
}

// TestStructuredPyCompare: ints and floats compare by exact value, as in Python.
func TestStructuredPyCompare(t *testing.T) {
	big, _, _ := ParseJSON("9007199254740993", JSONOptions{Build: true, Python: true})
	for _, tc := range []struct {
		a, b any
		c    int
		ok   bool
	}{
		{big, 9007199254740992.0, 1, true},
		{int64(1), 1.0, 0, true},
		{int64(-1), math.Inf(-1), 1, true},
		{int64(1), math.NaN(), 0, false},
		{0.1, int64(0), 1, true},
	} {
		if c, ok := pyCompare(tc.a, tc.b); c != tc.c || ok != tc.ok {
			t.Errorf("compare(%v, %v) = %d %v, want %d %v", tc.a, tc.b, c, ok, tc.c, tc.ok)
		}
	}
}

// numberedKeys is a block mapping of n distinct keys.
func numberedKeys(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "k%d: v\n", i)
	}
	return b.String()
}
