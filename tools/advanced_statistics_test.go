package tools

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/precisiond/precisiond/internal/advstats"
)

// TestAdvancedStatsVectors: the contract's method enum is what
// internal/advstats knows; the oracle vectors were written by the generator
// with numpy, scipy and mpmath recorded, hold at least 500 random cases plus
// the edges the issue lists, cover every operation and method, and every
// difference of the installed numpy has its cause.
func TestAdvancedStatsVectors(t *testing.T) {
	tool, _, ok := testRegistry(t).Lookup("advanced_statistics")
	if !ok {
		t.Fatal("advanced_statistics is not registered")
	}
	props := tool.Contract.InputSchema["properties"].(map[string]any)
	var enum []string
	for _, s := range props["method"].(map[string]any)["enum"].([]any) {
		enum = append(enum, s.(string))
	}
	if want := slices.Concat(advstats.Methods, advstats.CorrelationMethods); !slices.Equal(enum, want) {
		t.Errorf("contract methods %v, internal/advstats %v", enum, want)
	}
	seen := map[string]int{}
	random, named := 0, map[string]bool{}
	for _, f := range []string{"quantiles", "regression", "correlation", "interval", "refusals"} {
		path := "testdata/advanced_statistics/oracle_" + f + ".json"
		doc := readExact(t, path)
		gen, _ := doc["generator"].(map[string]any)
		for _, lib := range []string{"numpy", "scipy", "mpmath", "python"} {
			if s, _ := gen[lib].(string); s == "" {
				t.Errorf("%s: no %s version recorded", path, lib)
			}
		}
		if f == "quantiles" {
			diffs, _ := doc["numpy_differences"].([]any)
			for _, d := range diffs {
				if c, _ := d.(map[string]any)["cause"].(string); c == "" || c == "unexplained" {
					t.Errorf("numpy difference without a cause: %v", d)
				}
			}
		}
		for _, c := range loadGolden(t, path) {
			if !strings.Contains(c.Name, "#") {
				named[c.Name] = true
			} else if c.Reason == "" {
				random++
			}
			m, _ := c.Args["method"].(string)
			seen[c.Args["operation"].(string)+" "+m+" "+c.Reason]++
		}
	}
	if random < 500 {
		t.Errorf("%d random cases, want at least 500", random)
	}
	for _, m := range advstats.Methods {
		if seen["quantiles "+m+" "] < 10 {
			t.Errorf("quantiles %s: %d vectors", m, seen["quantiles "+m+" "])
		}
	}
	for _, m := range []string{"spearman", "kendall"} {
		if seen["correlation "+m+" "] < 10 {
			t.Errorf("correlation %s: %d vectors", m, seen["correlation "+m+" "])
		}
	}
	for _, edge := range []string{"n=1 linear", "ties grid linear", "closest_observation ties n=4", "exactly collinear",
		"constant y: r_squared null", "n = 2: stderr null", "huge x, tiny y", "kendall ties both", "spearman ties both",
		"n = 2 at 0.99", "constant data", "huge values"} {
		if !named[edge] {
			t.Errorf("edge case %q missing from the vectors", edge)
		}
	}
}

// TestAdvancedStatsHostile: oversized and malformed inputs get a typed
// refusal, never an answer or a crash.
func TestAdvancedStatsHostile(t *testing.T) {
	many := func(n int, v any) []any {
		out := make([]any, n)
		for i := range out {
			out[i] = v
		}
		return out
	}
	cases := []struct {
		name         string
		args         map[string]any
		code, reason string
	}{
		{"100001 values", map[string]any{"operation": "quantiles", "data": many(100001, json.Number("1")), "probabilities": []any{"0.5"}}, CodeInputSchemaInvalid, ""},
		{"1001 probabilities", map[string]any{"operation": "quantiles", "data": []any{"1"}, "probabilities": many(1001, "0.5")}, CodeInputSchemaInvalid, ""},
		{"201-character value", map[string]any{"operation": "quantiles", "data": []any{strings.Repeat("1", 201)}, "probabilities": []any{"0.5"}}, CodeInputSchemaInvalid, ""},
		{"exponent 101", map[string]any{"operation": "confidence_interval", "data": []any{"1", "1e101"}}, CodeExecution, "value_out_of_range"},
		{"51 digits", map[string]any{"operation": "correlation", "x": []any{"1", strings.Repeat("7", 51)}, "y": []any{"1", "2"}}, CodeExecution, "value_out_of_range"},
		{"NUL in a value", map[string]any{"operation": "linear_regression", "x": []any{"1\x00", "2"}, "y": []any{"1", "2"}}, CodeExecution, "invalid_number"},
		{"infinity", map[string]any{"operation": "quantiles", "data": []any{"-Infinity"}, "probabilities": []any{"0"}}, CodeExecution, "non_finite_value"},
		{"probability 1e-101", map[string]any{"operation": "quantiles", "data": []any{"1"}, "probabilities": []any{"1e-101"}}, CodeExecution, "invalid_probability"},
		{"confidence 1 - 1e-13", map[string]any{"operation": "confidence_interval", "data": []any{"1", "2"}, "confidence": "0.9999999999999"}, CodeExecution, "confidence_out_of_range"},
		{"confidence as an array", map[string]any{"operation": "confidence_interval", "data": []any{"1", "2"}, "confidence": []any{"0.9"}}, CodeInputSchemaInvalid, ""},
		{"exactly zero low end", map[string]any{"operation": "confidence_interval", "data": []any{"0", "2"}, "confidence": "0.5"}, CodeExecution, "precision_exhausted"},
	}
	reg := testRegistry(t)
	for _, c := range cases {
		_, err := reg.Invoke(context.Background(), Request{Tool: "advanced_statistics", Args: c.args})
		te, ok := err.(*Error)
		if !ok {
			t.Errorf("%s: got %v, want %s", c.name, err, c.code)
			continue
		}
		if te.Code != c.code || (c.reason != "" && te.Reason != c.reason) {
			t.Errorf("%s: got %s/%s (%s), want %s/%s", c.name, te.Code, te.Reason, te.Message, c.code, c.reason)
		}
	}
}

// wideValues returns n values whose exponents span the whole admitted range,
// so that the common scale makes every scaled integer about 660 bits.
func wideValues(n int) []any {
	out := make([]any, n)
	for i := range out {
		if i%2 == 0 {
			out[i] = json.Number(strconv.Itoa(i%997+1) + "e99")
		} else {
			out[i] = json.Number(strconv.Itoa(i%991+1) + "e-99")
		}
	}
	return out
}

func BenchmarkAdvancedStatsQuantiles100k(b *testing.B) {
	probs := make([]any, 1000)
	for i := range probs {
		probs[i] = json.Number("0." + strconv.Itoa(1000 + i)[1:])
	}
	benchTool(b, "advanced_statistics", map[string]any{"operation": "quantiles", "data": wideValues(100000), "probabilities": probs, "method": "hazen"})
}

func BenchmarkAdvancedStatsRegression100k(b *testing.B) {
	benchTool(b, "advanced_statistics", map[string]any{"operation": "linear_regression", "x": wideValues(100000), "y": wideValues(100001)[1:]})
}

func BenchmarkAdvancedStatsKendall100k(b *testing.B) {
	x, y := wideValues(100000), wideValues(100001)[1:]
	benchTool(b, "advanced_statistics", map[string]any{"operation": "correlation", "method": "kendall", "x": x, "y": y})
}

func BenchmarkAdvancedStatsInterval100k(b *testing.B) {
	benchTool(b, "advanced_statistics", map[string]any{"operation": "confidence_interval", "data": wideValues(100000), "confidence": "0.99"})
}
