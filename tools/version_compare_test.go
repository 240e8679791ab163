package tools

import (
	"slices"
	"strings"
	"testing"

	"github.com/precisiond/precisiond/internal/version"
)

// TestVersionSchemes: the contract's scheme enum is what internal/version
// knows, and the vectors cover every scheme and operation, with refusals.
func TestVersionSchemes(t *testing.T) {
	tool, _, ok := testRegistry(t).Lookup("version_compare")
	if !ok {
		t.Fatal("version_compare is not registered")
	}
	props := tool.Contract.InputSchema["properties"].(map[string]any)
	var enum []string
	for _, s := range props["scheme"].(map[string]any)["enum"].([]any) {
		enum = append(enum, s.(string))
	}
	if !slices.Equal(enum, version.Schemes) {
		t.Errorf("contract schemes %v, internal/version %v", enum, version.Schemes)
	}
	seen := map[string]int{}
	for _, scheme := range version.Schemes {
		for _, c := range loadGolden(t, "testdata/version_compare/oracle_"+scheme+".json") {
			seen[c.Args["scheme"].(string)+" "+c.Args["operation"].(string)+" "+c.Reason]++
		}
	}
	for _, scheme := range version.Schemes {
		for _, key := range []string{"compare ", "sort ", "max ", "satisfies ", "compare invalid_version", "satisfies invalid_constraint"} {
			if seen[scheme+" "+key] < 10 {
				t.Errorf("%s %s: %d vectors", scheme, key, seen[scheme+" "+key])
			}
		}
	}
}

// TestVersionHostile: oversized, control-character and nested inputs get a
// typed refusal, never an answer or a crash.
func TestVersionHostile(t *testing.T) {
	long := strings.Repeat("1", 257)
	many := make([]any, 1001)
	for i := range many {
		many[i] = "1.0.0"
	}
	cases := []struct {
		name         string
		args         map[string]any
		code, reason string
	}{
		{"long version", map[string]any{"scheme": "semver", "operation": "compare", "a": long, "b": "1.0.0"}, CodeInputSchemaInvalid, ""},
		{"long constraint", map[string]any{"scheme": "pep440", "operation": "satisfies", "version": "1.0", "constraint": strings.Repeat(">=1,", 300)}, CodeInputSchemaInvalid, ""},
		{"1001 versions", map[string]any{"scheme": "debian", "operation": "sort", "versions": many}, CodeInputSchemaInvalid, ""},
		{"no versions", map[string]any{"scheme": "debian", "operation": "max", "versions": []any{}}, CodeInputSchemaInvalid, ""},
		{"compare without b", map[string]any{"scheme": "semver", "operation": "compare", "a": "1.0.0"}, CodeInputSchemaInvalid, ""},
		{"satisfies without constraint", map[string]any{"scheme": "semver", "operation": "satisfies", "version": "1.0.0"}, CodeInputSchemaInvalid, ""},
		{"NUL in a semver version", map[string]any{"scheme": "semver", "operation": "compare", "a": "1.0.0\x00", "b": "1.0.0"}, CodeExecution, "invalid_version"},
		{"NUL in a Debian version", map[string]any{"scheme": "debian", "operation": "max", "versions": []any{"1.0", "1\x00"}}, CodeExecution, "invalid_version"},
		{"escape in a PEP 440 version", map[string]any{"scheme": "pep440", "operation": "sort", "versions": []any{"1.0\x1b[2J"}}, CodeExecution, "invalid_version"},
		{"nested parentheses", map[string]any{"scheme": "semver", "operation": "satisfies", "version": "1.0.0", "constraint": strings.Repeat("(", 500) + "1.0.0" + strings.Repeat(")", 500)}, CodeExecution, "invalid_constraint"},
		{"deep || chain of garbage", map[string]any{"scheme": "semver", "operation": "satisfies", "version": "1.0.0", "constraint": strings.Repeat("||", 200) + "x.y.z"}, CodeExecution, "invalid_constraint"},
		{"obsolete Debian <", map[string]any{"scheme": "debian", "operation": "satisfies", "version": "1.0", "constraint": "< 2.0"}, CodeExecution, "invalid_constraint"},
		{"Debian warning-only version", map[string]any{"scheme": "debian", "operation": "compare", "a": "a1.0", "b": "1.0"}, CodeExecution, "invalid_version"},
	}
	for _, c := range cases {
		e := invokeErr(t, "version_compare", c.args)
		if e.Code != c.code || (c.reason != "" && e.Reason != c.reason) {
			t.Errorf("%s: got %s/%s (%s), want %s/%s", c.name, e.Code, e.Reason, e.Message, c.code, c.reason)
		}
	}
	// The message names the version and, for a list, its index.
	e := invokeErr(t, "version_compare", map[string]any{"scheme": "pep440", "operation": "max", "versions": []any{"1.0", "not-a-version"}})
	if !strings.Contains(e.Message, "versions[1]") || !strings.Contains(e.Message, `"not-a-version"`) {
		t.Errorf("message %q does not name versions[1] and the version", e.Message)
	}
}

func BenchmarkVersionSemverRange(b *testing.B) {
	benchTool(b, "version_compare", map[string]any{"scheme": "semver", "operation": "satisfies", "version": "1.2.3", "constraint": "^0.2.3 || ~1.2.0 || 1.2.3 - 2.0.0 || >=3.0.0-rc.1 <4"})
}

func BenchmarkVersionPEP440Sort(b *testing.B) {
	benchTool(b, "version_compare", map[string]any{"scheme": "pep440", "operation": "sort", "versions": []any{"1.0.post1", "1.0", "1.0.dev0", "1.0a1", "1!0.1", "1.0+local", "2.0rc1", "0.9"}})
}

func BenchmarkVersionDebianCompare(b *testing.B) {
	benchTool(b, "version_compare", map[string]any{"scheme": "debian", "operation": "compare", "a": "1:2.30~rc1-1ubuntu0.1", "b": "1:2.30-1"})
}
