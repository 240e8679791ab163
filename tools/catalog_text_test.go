package tools

import (
	"strings"
	"testing"
)

func TestCatalogLines(t *testing.T) {
	cat := Catalog{Tools: []map[string]any{
		{"name": "gcd_lcm", "title": "GCD and LCM", "enabled": true},
		{"name": "calculate", "title": "Calculator", "enabled": false},
	}, CatalogHash: "h"}
	got := strings.Join(cat.Lines(), "\n")
	want := "gcd_lcm    GCD and LCM\ncalculate  Calculator (disabled)"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	pretty, err := IndentedJSON(map[string]any{"b": 1, "a": []any{"x"}})
	if err != nil || pretty != "{\n  \"a\": [\n    \"x\"\n  ],\n  \"b\": 1\n}" {
		t.Errorf("indented: %q %v", pretty, err)
	}
}
