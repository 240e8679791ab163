package contracts

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/precisiond/precisiond/internal/vectors"
)

// TestSchemaErrorPyRepr: for instances of every Python float repr regime,
// big integers, strings with non-printable or quote characters and nested
// containers, against small schemas, (1) pyRepr of the instance is Python's
// repr byte for byte, (2) the error text is the reference's "<path>:<keyword>"
// (two errors at one path are ordered by their messages, which begin with
// these reprs), and (3) the messages we order by, in our order, begin
// Python jsonschema's messages in the reference's order. Vectors: testdata/gen_pyrepr.py.
func TestSchemaErrorPyRepr(t *testing.T) {
	type pyError struct {
		Path      []string `json:"path"`
		Validator string   `json:"validator"`
		Message   string   `json:"message"`
	}
	cases := vectors.Cases[struct {
		Schema   json.RawMessage `json:"schema"`
		Instance string          `json:"instance"`
		Repr     string          `json:"repr"`
		Error    string          `json:"error"`
		Errors   []pyError       `json:"errors"`
	}](t, "testdata/pyrepr_errors.json", 500)
	for _, c := range cases {
		schema, _ := decodeNumbers(t, string(c.Schema)).(map[string]any)
		inst := decodeNumbers(t, c.Instance)
		if got := pyRepr(inst); got != c.Repr {
			t.Errorf("repr(%s) = %s, Python %s", c.Instance, got, c.Repr)
		}
		args := map[string]any{"v": inst}
		got := ""
		if err := ValidateAgainst(schema, args); err != nil {
			var ve *ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("%s: %T %v", c.Instance, err, err)
			}
			got = ve.Error()
		}
		if got != c.Error {
			t.Errorf("%s against %s: %q, reference %q", c.Instance, c.Schema, got, c.Error)
		}
		if c.Error == "" {
			continue
		}
		s, err := compile("pyrepr", schema)
		if err != nil {
			t.Fatal(err)
		}
		var ve *jsonschema.ValidationError
		if !errors.As(s.Validate(any(args)), &ve) {
			t.Fatalf("%s: no schema error", c.Instance)
		}
		f := &failure{raw: schema, instance: args}
		f.reference(ve)
		f.leaves(ve)
		if !strings.HasPrefix(c.Errors[0].Message, f.first.message) {
			t.Errorf("%s: first message %q does not begin Python's %q", c.Instance, f.first.message, c.Errors[0].Message)
		}
		keys := slices.Clone(f.keys)
		slices.SortStableFunc(keys, func(a, b refError) int { return compareRef(&a, &b) })
		// A did-you-mean detail shares its error's key: one error each.
		keys = slices.CompactFunc(keys, func(a, b refError) bool {
			return slices.Equal(a.parts, b.parts) && a.validator == b.validator && a.message == b.message
		})
		if len(keys) != len(c.Errors) {
			t.Errorf("%s: %d errors, Python %d", c.Instance, len(keys), len(c.Errors))
			continue
		}
		for i, k := range keys {
			e := c.Errors[i]
			if !slices.Equal(e.Path, k.parts) || e.Validator != k.validator || !strings.HasPrefix(e.Message, k.message) {
				t.Errorf("%s: error %d is %v %s %q, Python %v %s %q", c.Instance, i, k.parts, k.validator, k.message, e.Path, e.Validator, e.Message)
			}
		}
	}
}

// decodeNumbers reads one JSON value with numbers as json.Number, as
// requests are read.
func decodeNumbers(t *testing.T, text string) any {
	t.Helper()
	d := json.NewDecoder(strings.NewReader(text))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	return v
}
