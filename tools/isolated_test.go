package tools

import (
	"context"
	"slices"
	"testing"
)

// recordingRunner stands in for a worker pool where only the routing is under
// test (the real pool is tested in internal/worker and cmd/precisiond).
type recordingRunner struct{ calls []string }

func (r *recordingRunner) Execute(_ context.Context, tool string, args map[string]any) (Output, error) {
	r.calls = append(r.calls, tool)
	return Output{Facts: map[string]any{"ran": "runner"}}, nil
}

func TestIsolateByName(t *testing.T) {
	list := Builtin(Deps{})
	r := &recordingRunner{}
	out, unknown := IsolateByName(list, r, []string{"gcd_lcm", "structured_validate", "no_such_tool"},
		map[string]func(map[string]any) bool{"structured_validate": func(a map[string]any) bool { return a["schema_json"] != nil }})
	if !slices.Equal(unknown, []string{"no_such_tool"}) {
		t.Errorf("unknown %v", unknown)
	}
	if len(out) != len(list) {
		t.Fatalf("%d tools, want %d", len(out), len(list))
	}
	byName := map[string]Tool{}
	for i, tool := range out {
		if got, want := tool.Contract(), list[i].Contract(); got != want {
			t.Fatalf("order or contract changed at %d: %s vs %s", i, got.Tool, want.Tool)
		}
		byName[tool.Contract().Tool] = tool
	}
	ctx := context.Background()
	if _, err := byName["gcd_lcm"].Execute(ctx, map[string]any{"a": 4, "b": 6}); err != nil {
		t.Fatal(err)
	}
	// Without a schema structured_validate stays in process; with one it goes to the runner.
	noSchema := map[string]any{"format_name": "json", "payload": "[]", "schema_json": nil, "csv_dialect": nil}
	if out, err := byName["structured_validate"].Execute(ctx, noSchema); err != nil || out.Facts["ran"] != nil {
		t.Fatalf("no schema: %v %v", out.Facts, err)
	}
	withSchema := map[string]any{"format_name": "json", "payload": "[]", "schema_json": "{}", "csv_dialect": nil}
	if out, _ := byName["structured_validate"].Execute(ctx, withSchema); out.Facts["ran"] != "runner" {
		t.Fatalf("with a schema: %v", out.Facts)
	}
	if !slices.Equal(r.calls, []string{"gcd_lcm", "structured_validate"}) {
		t.Errorf("runner calls %v", r.calls)
	}
}
