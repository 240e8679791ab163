package tools

import (
	"slices"
	"testing"

	"github.com/precisiond/precisiond/internal/ident"
)

// TestIdentifierKinds: the contract's kind enum is exactly what internal/ident
// validates, and the vectors cover every kind with valid and invalid values.
func TestIdentifierKinds(t *testing.T) {
	reg := testRegistry(t)
	tool, _, ok := reg.Lookup("identifier_validate")
	if !ok {
		t.Fatal("identifier_validate is not registered")
	}
	props := tool.Contract.InputSchema["properties"].(map[string]any)
	var enum []string
	for _, k := range props["kind"].(map[string]any)["enum"].([]any) {
		enum = append(enum, k.(string))
	}
	if !slices.Equal(enum, ident.Kinds) {
		t.Errorf("contract kinds %v, internal/ident %v", enum, ident.Kinds)
	}
	seen := map[string]map[bool]int{}
	for _, c := range loadGolden(t, "testdata/identifier_validate/oracle_stdnum.json") {
		kind := c.Args["kind"].(string)
		if seen[kind] == nil {
			seen[kind] = map[bool]int{}
		}
		seen[kind][c.Facts["valid"].(bool)]++
	}
	for _, k := range ident.Kinds {
		if seen[k][true] < 10 || seen[k][false] < 5 {
			t.Errorf("%s: %d valid and %d invalid vectors", k, seen[k][true], seen[k][false])
		}
	}
}

func BenchmarkIdentifierIBAN(b *testing.B) {
	benchTool(b, "identifier_validate", map[string]any{"kind": "iban", "value": "GB82 WEST 1234 5698 7654 32"})
}

func BenchmarkIdentifierISBN(b *testing.B) {
	benchTool(b, "identifier_validate", map[string]any{"kind": "isbn", "value": "978-0-306-40615-7"})
}
