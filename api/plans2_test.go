package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/precisiond/precisiond/contracts"
	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/internal/surface"
	"github.com/precisiond/precisiond/internal/testhttp"
	"github.com/precisiond/precisiond/mcpserver"
	"github.com/precisiond/precisiond/plans"
)

// guideExamples are the plans of the reusable_plan_guide prompt, in order.
func guideExamples(t *testing.T) []any {
	t.Helper()
	var out []any
	for _, part := range strings.Split(mcpserver.ReusablePlanGuide, "\nExample ")[1:] {
		i := strings.Index(part, "\n{")
		if i < 0 {
			t.Fatalf("example without a plan: %.40s", part)
		}
		dec := json.NewDecoder(strings.NewReader(part[i+1:]))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("example %.20s: %v", part, err)
		}
		out = append(out, mustParse(t, string(testhttp.Marshal(t, v))))
	}
	return out
}

// TestGuideExamplesCheck: every plan in the prompt decodes, passes the
// static check and fits the published plan schema.
func TestGuideExamplesCheck(t *testing.T) {
	e := newPlanEnv(t)
	ex := guideExamples(t)
	if len(ex) != 3 {
		t.Fatalf("%d examples, want 3", len(ex))
	}
	for i, v := range ex {
		p, err := plans.Decode(v)
		if err == nil {
			err = plans.Check(p, e.reg)
		}
		if err != nil {
			t.Errorf("example %d: %v", i+1, err)
		}
		if err := contracts.ValidateAgainst(surface.PlanSchema("plan"), v.(map[string]any)); err != nil {
			t.Errorf("example %d: the plan schema refuses it: %v", i+1, err)
		}
	}
}

func plans2Oracle(t *testing.T) map[string]any {
	t.Helper()
	b, err := os.ReadFile("../plans/testdata/plans2.json")
	if err != nil {
		t.Fatal(err)
	}
	return mustParse(t, string(b)).(map[string]any)
}

// TestPlans2OverREST: the two tasks of issue 35 as one plan each over REST
// (the prompt's examples 1 and 2), the answers equal to Python's datetime
// and zoneinfo; a projected run answers only output and run_hash, its
// record is served by GET /v1/runs/{run_hash}, and include returns the
// steps.
func TestPlans2OverREST(t *testing.T) {
	e := newPlanEnv(t)
	oracle := plans2Oracle(t)
	ex := guideExamples(t)
	body := func(v any) string { return string(testhttp.Marshal(t, v)) }

	status, res := e.post(t, "/v1/plans/run", body(map[string]any{"plan": ex[0], "params": map[string]any{"text": oracle["note"]}}))
	if status != http.StatusOK {
		t.Fatalf("dates: %d %v", status, res)
	}
	run := res["runs"].([]any)[0].(map[string]any)
	if _, ok := run["steps"]; ok {
		t.Error("steps in a projected answer")
	}
	out := run["output"].([]any)
	want := oracle["dates"].([]any)
	if len(out) != len(want) {
		t.Fatalf("%d dates, want %d", len(out), len(want))
	}
	for i := range want {
		g, w := out[i].(map[string]any), want[i].(map[string]any)
		if g["date"] != w["date"] || g["weekday"] != w["weekday_name"] {
			t.Errorf("date %d: %v, want %v", i, g, w)
		}
	}
	rec := testhttp.Do(t, http.MethodGet, e.ts.URL+"/v1/runs/"+run["run_hash"].(string), nil, nil)
	if rec.Status != http.StatusOK {
		t.Fatalf("GET /v1/runs: %d %s", rec.Status, rec.Body)
	}
	doc := mustParse(t, string(rec.Body)).(map[string]any)
	cat := mustParse(t, string(testhttp.Get(t, e.ts.URL+"/tools"))).(map[string]any)["tools"].([]any)
	if rc := plans.VerifyRun(doc, cat, nil); len(rc.Problems) > 0 || rc.Projections != 1 || rc.Envelopes != 21 {
		t.Errorf("the record does not verify: %+v", rc)
	}
	if r := testhttp.Do(t, http.MethodGet, e.ts.URL+"/v1/runs/"+strings.Repeat("0", 64), nil, nil); r.Status != http.StatusNotFound || !bytes.Contains(r.Body, []byte(plans.CodeUnknownRun)) {
		t.Errorf("unknown run: %d %s", r.Status, r.Body)
	}

	// Task 2: register, then one params_batch rerun of 20 cities.
	status, reg := e.post(t, "/v1/plans", body(map[string]any{"plan": ex[1]}))
	if status != http.StatusOK {
		t.Fatalf("register: %d %v", status, reg)
	}
	cities := oracle["cities"].([]any)
	var sets []any
	for _, c := range cities {
		sets = append(sets, map[string]any{"city": c.(map[string]any)["zone"]})
	}
	status, res = e.post(t, "/v1/plans/"+reg["plan_id"].(string)+"/run", body(map[string]any{"params_batch": sets}))
	if status != http.StatusOK {
		t.Fatalf("rerun: %d %v", status, res)
	}
	for i, r := range res["runs"].([]any) {
		o, _ := r.(map[string]any)["output"].(map[string]any)
		w := cities[i].(map[string]any)
		if o["local"] != w["target_datetime"] || fmt.Sprint(o["iso_week"]) != fmt.Sprint(w["iso_week"]) {
			t.Errorf("%v: %v, want %v", w["zone"], o, w)
		}
	}
	// include: steps come back too, with the same run_hash.
	_, inc := e.post(t, "/v1/plans/"+reg["plan_id"].(string)+"/run", body(map[string]any{"params": sets[0], "include": "steps"}))
	r0 := inc["runs"].([]any)[0].(map[string]any)
	if r0["steps"] == nil || r0["run_hash"] != res["runs"].([]any)[0].(map[string]any)["run_hash"] {
		t.Errorf("include steps: %v", r0)
	}
	if status, bad := e.post(t, "/v1/plans/"+reg["plan_id"].(string)+"/run", `{"include": "all"}`); status != http.StatusBadRequest {
		t.Errorf("include all: %d %v", status, bad)
	}
}

// TestPlans2OverMCPCompact: on /mcp/compact (go-sdk client), run_plan of
// a projected plan returns the projection as structuredContent, valid
// against the outputSchema, and equal to the REST answer.
func TestPlans2OverMCPCompact(t *testing.T) {
	e := newPlanEnv(t)
	oracle := plans2Oracle(t)
	ex := guideExamples(t)
	c := mcp.NewClient(&mcp.Implementation{Name: "precisiond-test", Version: "1"}, nil)
	cs, err := c.Connect(ctxT(t), &mcp.StreamableClientTransport{Endpoint: e.ts.URL + "/mcp/compact", MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	list, err := cs.ListTools(ctxT(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	var outSchema map[string]any
	for _, tl := range list.Tools {
		if tl.Name == "run_plan" {
			outSchema = mustParse(t, string(testhttp.Marshal(t, tl.OutputSchema))).(map[string]any)
		}
	}
	args := map[string]any{"plan": ex[0], "params": map[string]any{"text": oracle["note"]}}
	res, err := cs.CallTool(ctxT(t), &mcp.CallToolParams{Name: "run_plan", Arguments: args})
	if err != nil || res.IsError {
		t.Fatalf("run_plan: %v %v", err, res)
	}
	sc := mustParse(t, string(testhttp.Marshal(t, res.StructuredContent))).(map[string]any)
	if err := contracts.ValidateAgainst(outSchema, sc); err != nil {
		t.Errorf("structuredContent fails the outputSchema: %v", err)
	}
	run := sc["runs"].([]any)[0].(map[string]any)
	if len(run["output"].([]any)) != 20 || run["steps"] != nil {
		t.Errorf("run_plan: %v", run)
	}
	rest := testhttp.PostJSON(t, e.ts.URL+"/v1/plans/run", testhttp.Marshal(t, args)).Body
	if got, _ := evidence.Canonical(sc); !bytes.Equal(got, rest) {
		t.Errorf("run_plan and REST differ")
	}
}

// TestRunRecordScope: GET /v1/runs/{run_hash} answers a token that may run
// every step of the record's plan (alice), and refuses one whose scope
// lacks a step's tool (bob: gcd_* and hash_text) with 403 forbidden.
func TestRunRecordScope(t *testing.T) {
	e := newAccessEnv(t, nil)
	plan := `{"steps": [{"id": "g", "tool": "gcd_lcm", "args": {"a": 12, "b": 18}},
	 {"id": "c", "tool": "calendar_facts", "foreach": {"$jmes": "['2026-01-01']"}, "args": {"date_str": {"$item": ""}}}],
	 "output": {"$jmes": "[steps.g.facts.gcd, steps.c.facts.items[0].weekday_iso]"}}`
	r := e.do(t, "POST", "/v1/plans/run", aliceToken, `{"plan":`+plan+`}`)
	if r.Status != http.StatusOK {
		t.Fatalf("run: %d %s", r.Status, r.Body)
	}
	run := mustParse(t, string(r.Body)).(map[string]any)["runs"].([]any)[0].(map[string]any)
	if !jsonEq(t, run["output"], []any{json.Number("6"), json.Number("4")}) { // gcd(12, 18); 2026-01-01 is a Thursday
		t.Fatalf("output %v", run["output"])
	}
	path := "/v1/runs/" + run["run_hash"].(string)
	if r := e.do(t, "GET", path, aliceToken, ""); r.Status != http.StatusOK {
		t.Errorf("alice: %d %s", r.Status, r.Body)
	}
	if r := e.do(t, "GET", path, bobToken, ""); r.Status != http.StatusForbidden || !bytes.Contains(r.Body, []byte(`"forbidden"`)) {
		t.Errorf("bob: %d %s", r.Status, r.Body)
	}
	if r := e.do(t, "GET", path, "", ""); r.Status != http.StatusUnauthorized {
		t.Errorf("no token: %d", r.Status)
	}
}

func jsonEq(t *testing.T, a, b any) bool {
	t.Helper()
	x, _ := evidence.Canonical(a)
	y, _ := evidence.Canonical(b)
	return bytes.Equal(x, y)
}
