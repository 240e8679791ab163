package contracts

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestSkippedKeywords: where type, const or enum fails, the keywords the
// schema library skips there still count, in the reference's order. The
// expected errors are Python jsonschema 4.26's, sorted as the reference sorts
// them (path parts, then message); the messages are quoted per case.
func TestSkippedKeywords(t *testing.T) {
	cases := []struct {
		name     string
		schema   string
		value    string
		want     string   // the reference's error text
		keywords []string // the details' keywords, in order
		allowed  []any    // Allowed of the additionalProperties detail, if any
	}{{
		// '-0.5 is less than the minimum of 1' < "-0.5 is not of type 'integer'"
		name:     "bound next to type",
		schema:   `{"type": "object", "properties": {"p": {"type": "integer", "minimum": 1, "maximum": 1000}}}`,
		value:    `{"p": -0.5}`,
		want:     "p:minimum",
		keywords: []string{"minimum", "type"},
	}, {
		// '2.5 is greater than the maximum of 2' < "2.5 is not of type 'integer'"
		name:     "maximum next to type",
		schema:   `{"type": "object", "properties": {"p": {"type": "integer", "maximum": 2}}}`,
		value:    `{"p": 2.5}`,
		want:     "p:maximum",
		keywords: []string{"maximum", "type"},
	}, {
		// '128 was expected' < "True is not of type 'integer'"
		name:     "const next to type",
		schema:   `{"type": "object", "properties": {"p": {"type": "integer", "const": 128}}}`,
		value:    `{"p": true}`,
		want:     "p:const",
		keywords: []string{"const", "type"},
	}, {
		// "'abc' does not match '^x'" < "'abc' is not one of ['a']"
		name:     "pattern next to enum",
		schema:   `{"type": "object", "properties": {"p": {"type": "string", "enum": ["a"], "pattern": "^x"}}}`,
		value:    `{"p": "abc"}`,
		want:     "p:pattern",
		keywords: []string{"pattern", "enum"},
	}, {
		// "Additional properties are not allowed ('zz' was unexpected)" < "{'a': 1} was expected"
		name: "additionalProperties next to const",
		schema: `{"type": "object", "properties": {"o": {"type": "object", "const": {"a": 1},
			"additionalProperties": false, "properties": {"a": {}}}}}`,
		value:    `{"o": {"a": 1, "zz": 2}}`,
		want:     "o:additionalProperties",
		keywords: []string{"additionalProperties", "const"},
		allowed:  []any{"a"},
	}, {
		// "7 is not of type 'string'" < '7 is not one of ['a']': the order stays.
		name:     "enum after type",
		schema:   `{"type": "object", "properties": {"p": {"type": "string", "enum": ["a"]}}}`,
		value:    `{"p": 7}`,
		want:     "p:type",
		keywords: []string{"type", "enum"},
	}, {
		name:     "nothing skipped",
		schema:   `{"type": "object", "properties": {"p": {"type": "integer", "minimum": 1}}}`,
		value:    `{"p": 2.5}`,
		want:     "p:type",
		keywords: []string{"type"},
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var schema, value map[string]any
			if err := json.Unmarshal([]byte(c.schema), &schema); err != nil {
				t.Fatal(err)
			}
			dec := json.NewDecoder(strings.NewReader(c.value))
			dec.UseNumber()
			if err := dec.Decode(&value); err != nil {
				t.Fatal(err)
			}
			var ve *ValidationError
			if err := ValidateAgainst(schema, value); !errors.As(err, &ve) {
				t.Fatalf("%T %v", err, err)
			}
			if ve.Error() != c.want {
				t.Errorf("error %q, want %q", ve.Error(), c.want)
			}
			var kws []string
			for _, d := range ve.Details {
				kws = append(kws, d.Keyword)
				if d.Keyword == "additionalProperties" && !slices.Equal(d.Allowed, c.allowed) {
					t.Errorf("allowed %v, want %v", d.Allowed, c.allowed)
				}
			}
			if !slices.Equal(kws, c.keywords) {
				t.Errorf("details %v, want keywords %v", ve.Details, c.keywords)
			}
		})
	}
}

// BenchmarkValidateInputSkipped measures an input error where the schema
// library stops at type and the skipped bounds are checked on their own.
func BenchmarkValidateInputSkipped(b *testing.B) {
	c := MustLoad("calculate")
	args := c.ApplyDefaults(map[string]any{"expression": "1+1", "precision": json.Number("-0.5")})
	for b.Loop() {
		if c.ValidateInput(args) == nil {
			b.Fatal("valid")
		}
	}
}
