package contracts

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestSchemaErrorPyRepr: for instances of every Python float repr regime,
// big integers, strings with non-printable or quote characters and nested
// containers, against small schemas, (1) pyRepr of the instance is Python's
// repr byte for byte, (2) the error text is the reference's "<path>:<keyword>"
// (two errors at one path are ordered by their messages, which begin with
// these reprs), and (3) the messages we order by, in our order, begin
// Python jsonschema's messages in the reference's order. Vectors: testdata/gen_pyrepr.py.
func TestSchemaErrorPyRepr(t *testing.T) {
	data, err := os.ReadFile("testdata/pyrepr_errors.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Python     string `json:"python"`
		Jsonschema string `json:"jsonschema"`
		Cases      []struct {
			Schema   map[string]any `json:"schema"`
			Instance string         `json:"instance"`
			Repr     string         `json:"repr"`
			Error    string         `json:"error"`
			Errors   []struct {
				Path      []string `json:"path"`
				Validator string   `json:"validator"`
				Message   string   `json:"message"`
			} `json:"errors"`
		} `json:"cases"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Cases) < 500 || doc.Python == "" || doc.Jsonschema == "" {
		t.Fatalf("%d cases, python %q, jsonschema %q", len(doc.Cases), doc.Python, doc.Jsonschema)
	}
	for _, c := range doc.Cases {
		d := json.NewDecoder(strings.NewReader(c.Instance))
		d.UseNumber()
		var inst any
		if err := d.Decode(&inst); err != nil {
			t.Fatalf("%s: %v", c.Instance, err)
		}
		if got := pyRepr(inst); got != c.Repr {
			t.Errorf("repr(%s) = %s, Python %s", c.Instance, got, c.Repr)
		}
		args := map[string]any{"v": inst}
		got := ""
		if err := ValidateAgainst(c.Schema, args); err != nil {
			var ve *ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("%s: %T %v", c.Instance, err, err)
			}
			got = ve.Error()
		}
		if got != c.Error {
			sb, _ := json.Marshal(c.Schema["properties"])
			t.Errorf("%s against %s: %q, reference %q", c.Instance, sb, got, c.Error)
		}
		if c.Error == "" {
			continue
		}
		s, err := compile("pyrepr", c.Schema)
		if err != nil {
			t.Fatal(err)
		}
		var ve *jsonschema.ValidationError
		if !errors.As(s.Validate(any(args)), &ve) {
			t.Fatalf("%s: no schema error", c.Instance)
		}
		f := &failure{raw: c.Schema, instance: args}
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
