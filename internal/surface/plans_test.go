package surface

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/plans"
	"github.com/precisiond/precisiond/tools"
)

// FuzzPlanRequestBody: any JSON body of the plan routes gets a value or a
// typed error of the plan error table, never a panic; what registers can be
// read back under its id.
func FuzzPlanRequestBody(f *testing.F) {
	f.Add([]byte(`{"plan": {"params": {"city": {"type": "string"}}, "steps": [{"id": "conv", "tool": "timezone_convert", "args": {"local_datetime": "2026-03-27T21:30:00", "from_timezone": "America/New_York", "to_timezone": {"$param": "city"}}}]}}`))
	f.Add([]byte(`{"plan": {"steps": [{"id": "g", "tool": "gcd_lcm", "args": {"a": 1, "b": {"$param": "b"}}}], "params": {"b": {"type": "integer", "default": 2}}}, "params": {"b": 3}}`))
	f.Add([]byte(`{"params_batch": [{}, {"x": 1}], "params": {}}`))
	f.Add([]byte(`{"tools": ["gcd_lcm", 1]}`))
	reg := tools.NewRegistry(tools.Builtin(tools.Deps{}), tools.Options{Limiter: tools.NewLimiter(2, time.Second, nil)})
	ops := PlanOps{Reg: reg, Svc: plans.NewService(reg, plans.NewMemoryStore(0), plans.Options{}), Log: slog.New(slog.DiscardHandler)}
	known := map[string]bool{CodeInvalidRequest: true, plans.CodeInvalidPlan: true, plans.CodeUnknownPlan: true,
		tools.CodeUnknownTool: true, tools.CodeToolDisabled: true}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := evidence.ParseJSON(data)
		body, ok := v.(map[string]any)
		if err != nil || !ok {
			return
		}
		if _, aerr := ops.Describe(body); aerr != nil && !known[aerr.Code] {
			t.Fatalf("describe: %v", aerr)
		}
		res, aerr := ops.Register(context.Background(), body)
		if aerr != nil {
			if !known[aerr.Code] {
				t.Fatalf("register: %v", aerr)
			}
			return
		}
		id := res.(map[string]any)["plan_id"].(string)
		if _, aerr := ops.Get(context.Background(), id); aerr != nil {
			t.Fatalf("registered %s, then: %v", id, aerr)
		}
		if _, aerr := readRunArgs(body); aerr != nil && aerr.Code != CodeInvalidRequest {
			t.Fatalf("readRunArgs: %v", aerr)
		}
	})
}
