// Package bench holds the cross-language comparison benchmarks and the load
// harness (bench/load). BenchmarkCompare runs the inputs of compare_inputs.json
// through the full execution path (schema validation in and out, envelope and
// hashes); compare_python.py times Python's implementations on the same inputs.
package bench

import (
	"context"
	"os"
	"testing"

	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/tools"
)

type compareCase struct {
	Name string
	Tool string
	Args map[string]any
}

func loadCompare(tb testing.TB) []compareCase {
	tb.Helper()
	data, err := os.ReadFile("compare_inputs.json")
	if err != nil {
		tb.Fatal(err)
	}
	v, err := evidence.ParseJSON(data)
	if err != nil {
		tb.Fatal(err)
	}
	var out []compareCase
	for _, c := range v.(map[string]any)["cases"].([]any) {
		m := c.(map[string]any)
		out = append(out, compareCase{Name: m["name"].(string), Tool: m["tool"].(string), Args: m["args"].(map[string]any)})
	}
	return out
}

// TestCompareInputsRun makes sure every comparison input is a successful call,
// so the benchmark never times an error path.
func TestCompareInputsRun(t *testing.T) {
	reg := tools.NewRegistry(tools.Builtin(tools.Deps{}), tools.Options{})
	for _, c := range loadCompare(t) {
		if _, err := reg.Invoke(context.Background(), tools.Request{Tool: c.Tool, Args: c.Args}); err != nil {
			t.Errorf("%s: %v", c.Name, err)
		}
	}
}

func BenchmarkCompare(b *testing.B) {
	reg := tools.NewRegistry(tools.Builtin(tools.Deps{}), tools.Options{})
	for _, c := range loadCompare(b) {
		b.Run(c.Name, func(b *testing.B) {
			b.ReportAllocs()
			defer reportCPU(b)()
			for b.Loop() {
				if _, err := reg.Invoke(context.Background(), tools.Request{Tool: c.Tool, Args: c.Args}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCompareExecute times only the tool's own execution on the same
// inputs: strict typed decoding of the normalized arguments, the computation and
// the encoding of its facts (Tool.Execute) — no schema validation, envelope or
// hashing. It is the like-for-like counterpart of the bare Python computation.
func BenchmarkCompareExecute(b *testing.B) {
	reg := tools.NewRegistry(tools.Builtin(tools.Deps{}), tools.Options{})
	for _, c := range loadCompare(b) {
		t, _, ok := reg.Lookup(c.Tool)
		if !ok {
			b.Fatalf("unknown tool %s", c.Tool)
		}
		args := t.Contract.ApplyDefaults(c.Args)
		b.Run(c.Name, func(b *testing.B) {
			b.ReportAllocs()
			defer reportCPU(b)()
			for b.Loop() {
				if _, err := t.Execute(context.Background(), args); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
