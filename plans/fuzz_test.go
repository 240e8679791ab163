package plans

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"testing"

	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/tools"
)

// FuzzDecodePlan: plan decoding and the static check never panic; a refusal
// is invalid_plan with exactly one detail (decoding) or at least one
// (checking); an accepted plan's canonical form decodes to the same plan_id
// and the same bytes, and binding an empty parameter set never panics.
func FuzzDecodePlan(f *testing.F) {
	f.Add([]byte(citiesPlan))
	f.Add([]byte(`{"steps":[{"id":"g","tool":"gcd_lcm","args":{"a":{"$literal":1},"b":{"$param":"b"}}}],"params":{"b":{"type":"integer","default":2.0}}}`))
	f.Add([]byte(`{"steps":[{"id":"p","tool":"prime_factorize","args":{"n":12}},{"id":"q","tool":"gcd_lcm","args":{"a":{"$ref":"p/facts/factors/0/prime"},"b":{"$ref":"p/facts/n"}}}]}`))
	f.Add([]byte(`{"steps":[{"id":"x","tool":"json_query","args":{"json_str":"[]","path":{"$ref":"x/facts/~1~0"}}}]}`))
	f.Add([]byte(`{"description":"d","params":{"a":{"type":"array","default":[{"$ref":"x"}]}},"steps":[{"id":"s","tool":"statistics_calc","args":{"data":{"$param":"a"}}}]}`))
	f.Add([]byte(datesPlan))
	f.Add([]byte(weekPlan))
	f.Add([]byte(`{"params":{"l":{"type":"array"}},"steps":[{"id":"d","tool":"calendar_facts","foreach":{"$jmes":"params.l"},"as":"x","on_error":"collect","args":{"date_str":{"$jmes":"x.d"},"locale":{"$item":"/loc"}}}],"output":{"$jmes":"steps.d.facts.errors"}}`))
	if b, err := os.ReadFile("testdata/plan_ids.json"); err == nil {
		f.Add(b)
	}
	reg := newRegistry(f, 2)
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := evidence.ParseJSON(data)
		if err != nil {
			return
		}
		p, err := Decode(v)
		if err != nil {
			var te *tools.Error
			if !errors.As(err, &te) || te.Code != CodeInvalidPlan || len(te.Details) != 1 {
				t.Fatalf("decode error %#v", err)
			}
			return
		}
		v2, err := evidence.ParseJSON(p.Canonical())
		if err != nil {
			t.Fatalf("canonical plan does not parse: %v", err)
		}
		p2, err := Decode(v2)
		if err != nil {
			t.Fatalf("canonical plan does not decode: %v\n%s", err, p.Canonical())
		}
		if p2.ID != p.ID || !bytes.Equal(p2.Canonical(), p.Canonical()) {
			t.Fatalf("round trip changed the plan:\n%s\n%s", p.Canonical(), p2.Canonical())
		}
		if err := Check(p, reg); err != nil {
			var te *tools.Error
			if !errors.As(err, &te) || te.Code != CodeInvalidPlan || len(te.Details) == 0 {
				t.Fatalf("check error %#v", err)
			}
		}
		_, _ = p.Bind(map[string]any{}, "/params")
	})
}

// FuzzRunExpr: a $jmes expression in a foreach source, an argument and the
// output of a small plan is checked and run without a panic; the answer is
// canonical JSON, and a run either completes with an output or fails with
// an error.
func FuzzRunExpr(f *testing.F) {
	for _, e := range []string{"params.n", "steps.g.facts.gcd", "[params.n, `2`]", "substr(to_string(params.n), `0`, `1`)",
		"steps.g.facts", "item", "length(params.l)", "params.l[*].a", "join(',', params.l)", "`[1,2,3]`", "@"} {
		f.Add(e)
	}
	reg := newRegistry(f, 2)
	s := NewService(reg, NewMemoryStore(1<<20), Options{Timeout: testDeadline})
	f.Fuzz(func(t *testing.T, expr string) {
		q, err := json.Marshal(expr)
		if err != nil {
			return
		}
		plan := `{"params": {"n": {"type": "integer", "default": 12}, "l": {"type": "array", "default": [4, 6, {"a": 1}]}},
		 "steps": [{"id": "g", "tool": "gcd_lcm", "args": {"a": {"$param": "n"}, "b": 18}},
		  {"id": "f", "tool": "gcd_lcm", "foreach": {"$jmes": ` + string(q) + `}, "args": {"a": {"$jmes": ` + string(q) + `}, "b": {"$item": ""}}}],
		 "output": {"$jmes": ` + string(q) + `}}`
		v, err := evidence.ParseJSON([]byte(plan))
		if err != nil {
			t.Fatalf("plan JSON: %v", err)
		}
		p, err := Decode(v)
		if err != nil {
			return // the expression does not parse (or is too long)
		}
		if err := Check(p, reg); err != nil {
			var te *tools.Error
			if !errors.As(err, &te) || te.Code != CodeInvalidPlan {
				t.Fatalf("check error %#v", err)
			}
			return
		}
		b, err := s.Run(context.Background(), p, []any{nil}, false)
		if err != nil {
			return // a refusal of the whole request (a limit)
		}
		res, err := evidence.ParseJSON(b)
		if err != nil {
			t.Fatalf("answer is not JSON: %v", err)
		}
		run := res.(map[string]any)["runs"].([]any)[0].(map[string]any)
		switch run["status"] {
		case "completed":
			if _, ok := run["output"]; !ok || run["run_hash"] == nil {
				t.Fatalf("completed run without output or run_hash: %s", b)
			}
		case "failed":
			if run["error"] == nil || run["run_hash"] != nil {
				t.Fatalf("failed run: %s", b)
			}
		default:
			t.Fatalf("status %v", run["status"])
		}
	})
}
