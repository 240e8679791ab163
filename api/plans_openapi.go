package api

import "github.com/precisiond/precisiond/internal/surface"

// addPlanOpenAPI adds compact discovery and plans (docs/plans.md) to the OpenAPI
// document's component schemas and paths, from schema/plans.json.
func addPlanOpenAPI(schemas, paths map[string]any) {
	run := surface.PlanSchema("run_result")
	step := run["properties"].(map[string]any)["runs"].(map[string]any)["items"].(map[string]any)["properties"].(map[string]any)["steps"].(map[string]any)["items"].(map[string]any)["properties"].(map[string]any)
	step["structured_result"] = ref("StructuredResult")
	step["error"] = ref("Error")
	run["properties"].(map[string]any)["plan_id"] = surface.PlanSchema("plan_id")
	sets := func(extra props, required ...string) map[string]any {
		p := props{"params": surface.PlanSchema("params"), "params_batch": surface.PlanSchema("params_batch"), "include": surface.PlanSchema("include")}
		for k, v := range extra {
			p[k] = v
		}
		m := surface.Closed(surface.Object(p, required...))
		m["description"] = `give "params" (one run; absent: {}) or "params_batch" (1 to 1000 runs), not both`
		return m
	}
	for name, s := range map[string]any{
		"CompactCatalog":       surface.PlanSchema("catalog"),
		"DescribeRequest":      surface.PlanSchema("describe_request"),
		"DescribeResponse":     surface.PlanSchema("describe_result"),
		"Plan":                 surface.PlanSchema("plan"),
		"PlanRegisterRequest":  surface.Closed(surface.Object(props{"plan": ref("Plan")}, "plan")),
		"PlanRegisterResponse": surface.PlanSchema("register_result"),
		"PlanRunRequest":       sets(nil),
		"PlanNewRunRequest":    sets(props{"plan": ref("Plan")}, "plan"),
		"PlanRunResponse":      run,
		"StoredPlan":           surface.PlanSchema("stored_plan"),
		"RunRecord":            surface.PlanSchema("run_record"),
	} {
		schemas[name] = s
	}
	planID := map[string]any{"name": "plan_id", "in": "path", "required": true, "description": "the plan's id (POST /v1/plans)", "schema": surface.PlanSchema("plan_id")}
	paths["/v1/catalog"] = map[string]any{"get": op("catalog", "Compact catalogue: every enabled tool in one line (at most 100 characters), grouped.", nil,
		map[string]any{"200": jsonResp("the compact catalogue", ref("CompactCatalog"))})}
	paths["/v1/describe"] = map[string]any{"post": op("describe", "What a model needs to call 1 to 5 tools: description, inputSchema, factsSchema, contract_hash, example.",
		jsonBody(ref("DescribeRequest")),
		responsesOf(map[string]any{"200": jsonResp("the descriptions", ref("DescribeResponse"))}, "400", "403", "404", "413", "415", "503"))}
	paths["/v1/plans"] = map[string]any{"post": op("registerPlan", "Check a plan against the contracts and store it; plan_id = SHA-256 of its canonical JSON.",
		jsonBody(ref("PlanRegisterRequest")),
		responsesOf(map[string]any{"200": jsonResp("the plan's id", ref("PlanRegisterResponse"))}, "400", "413", "415", "422", "500", "503"))}
	paths["/v1/plans/run"] = map[string]any{"post": op("runNewPlan", "Register a plan and run it with params or params_batch.",
		jsonBody(ref("PlanNewRunRequest")),
		responsesOf(map[string]any{"200": jsonResp("the runs", ref("PlanRunResponse"))}, "400", "413", "415", "422", "500", "503"))}
	paths["/v1/plans/{plan_id}/run"] = map[string]any{"parameters": []any{planID}, "post": op("runPlan", "Run a stored plan with params or params_batch.",
		jsonBody(ref("PlanRunRequest")),
		responsesOf(map[string]any{"200": jsonResp("the runs", ref("PlanRunResponse"))}, "400", "404", "413", "415", "422", "500", "503"))}
	runHash := map[string]any{"name": "run_hash", "in": "path", "required": true, "description": "a completed run's run_hash", "schema": surface.PlanSchema("plan_id")}
	paths["/v1/runs/{run_hash}"] = map[string]any{"parameters": []any{runHash}, "get": op("getRun", "The stored record of a run of a plan with an output projection: its plan, params, output and step envelopes (precisiond verify re-checks it).", nil,
		responsesOf(map[string]any{"200": jsonResp("the run record", ref("RunRecord"))}, "404", "500"))}
	paths["/v1/plans/{plan_id}"] = map[string]any{"parameters": []any{planID}, "get": op("getPlan", "A stored plan, normalized.", nil,
		responsesOf(map[string]any{"200": jsonResp("the plan", ref("StoredPlan"))}, "404", "500"))}
}
