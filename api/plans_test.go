package api

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/precisiond/precisiond/contracts"
	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/internal/surface"
	"github.com/precisiond/precisiond/internal/testhttp"
	"github.com/precisiond/precisiond/mcpserver"
	"github.com/precisiond/precisiond/plans"
	"github.com/precisiond/precisiond/tools"
)

// planEnv is the real HTTP surface with a plan service (memory store) over
// the built-in tools, on a loopback listener.
type planEnv struct {
	ts  *httptest.Server
	reg *tools.Registry
	svc *plans.Service
}

func newPlanEnv(t *testing.T) *planEnv {
	t.Helper()
	reg := tools.NewRegistry(tools.Builtin(tools.Deps{}), tools.Options{Limiter: tools.NewLimiter(4, time.Second, nil)})
	svc := plans.NewService(reg, plans.NewMemoryStore(0), plans.Options{ErrorBody: surface.PlanErrorBody(nil)})
	ts := httptest.NewServer(New(reg, Options{Plans: svc, MCP: &mcpserver.Options{}}))
	t.Cleanup(ts.Close)
	return &planEnv{ts: ts, reg: reg, svc: svc}
}

// citiesPlan is the plan of docs/plans.md (and plans/plan_test.go).
const citiesPlan = `{"description": "Weekday in a city of a wall time in New York",
 "params": {"when": {"type": "string", "default": "2026-03-27T21:30:00"}, "city": {"type": "string"}},
 "steps": [
  {"id": "conv", "tool": "timezone_convert", "args": {"local_datetime": {"$param": "when"}, "from_timezone": "America/New_York", "to_timezone": {"$param": "city"}}},
  {"id": "day", "tool": "time_facts", "args": {"instant": {"$ref": "conv/facts/utc_instant"}, "timezone_name": {"$param": "city"}, "locale": "en"}}]}`

func (e *planEnv) post(t *testing.T, path, body string) (int, map[string]any) {
	t.Helper()
	r := testhttp.PostJSON(t, e.ts.URL+path, []byte(body))
	v, err := evidence.ParseJSON(r.Body)
	if err != nil {
		t.Fatalf("POST %s: %d %s", path, r.Status, r.Body)
	}
	return r.Status, v.(map[string]any)
}

// TestCompactCatalog: /v1/catalog lists every enabled tool exactly once in
// the groups of contracts/groups.json, each summary one line of at most 100
// characters, the whole at most 12 KiB, with /tools' catalog_hash; a
// disabled tool disappears.
func TestCompactCatalog(t *testing.T) {
	e := newPlanEnv(t)
	raw := testhttp.Get(t, e.ts.URL+"/v1/catalog")
	if len(raw) > 12<<10 {
		t.Errorf("/v1/catalog is %d bytes, more than 12 KiB", len(raw))
	}
	var cat tools.CompactCatalog
	if err := json.Unmarshal(raw, &cat); err != nil {
		t.Fatal(err)
	}
	toolsDoc := testhttp.Do(t, http.MethodGet, e.ts.URL+"/tools", nil, nil).JSON(t)
	if cat.CatalogHash != toolsDoc["catalog_hash"] {
		t.Errorf("catalog_hash %s, /tools %v", cat.CatalogHash, toolsDoc["catalog_hash"])
	}
	var listed, groups []string
	for _, g := range cat.Groups {
		groups = append(groups, g.Name)
		for _, tl := range g.Tools {
			listed = append(listed, tl.Name)
			if n := utf8.RuneCountInString(tl.Summary); n == 0 || n > contracts.MaxSummaryChars || strings.Contains(tl.Summary, "\n") {
				t.Errorf("%s: summary of %d characters: %q", tl.Name, n, tl.Summary)
			}
			c, _, _ := e.reg.Contract(tl.Name)
			if c.Group != g.Name {
				t.Errorf("%s listed in %s, contract says %s", tl.Name, g.Name, c.Group)
			}
		}
	}
	var want []string
	for _, g := range contracts.Groups() {
		want = append(want, g.Name)
	}
	if !slices.Equal(groups, want) {
		t.Errorf("groups %v, want %v", groups, want)
	}
	sortedListed, names := slices.Sorted(slices.Values(listed)), slices.Sorted(slices.Values(e.reg.Names()))
	if !slices.Equal(sortedListed, names) {
		t.Errorf("listed %v\nwant %v", sortedListed, names)
	}
	e.reg.SetEnabled("hash_text", false)
	var after tools.CompactCatalog
	_ = json.Unmarshal(testhttp.Get(t, e.ts.URL+"/v1/catalog"), &after)
	if after.CatalogHash == cat.CatalogHash || strings.Contains(string(testhttp.Get(t, e.ts.URL+"/v1/catalog")), `"hash_text"`) {
		t.Error("a disabled tool stays in /v1/catalog or the hash did not change")
	}
}

// TestDescribe: the fields a model needs, equal to the catalogue's; the
// request bounds and errors.
func TestDescribe(t *testing.T) {
	e := newPlanEnv(t)
	status, body := e.post(t, "/v1/describe", `{"tools": ["day_of_week", "gcd_lcm", "day_of_week"]}`)
	if status != 200 {
		t.Fatalf("%d %v", status, body)
	}
	list := body["tools"].([]any)
	if len(list) != 2 {
		t.Fatalf("%d descriptions (duplicates collapse): %v", len(list), list)
	}
	for _, d := range list {
		m := d.(map[string]any)
		entry, _ := e.reg.Entry(m["name"].(string))
		keys := slices.Sorted(func(yield func(string) bool) {
			for k := range m {
				if !yield(k) {
					return
				}
			}
		})
		if want := []string{"contract_hash", "description", "example", "factsSchema", "inputSchema", "name", "summary"}; !slices.Equal(keys, want) {
			t.Errorf("keys %v, want %v", keys, want)
		}
		same := func(a, b any) bool {
			x, _ := evidence.Canonical(a)
			y, _ := evidence.Canonical(b)
			return bytes.Equal(x, y)
		}
		ex := entry["examples"].([]any)[0].(map[string]any)
		if m["contract_hash"] != entry["contract_hash"] || !same(m["inputSchema"], entry["inputSchema"]) ||
			!same(m["factsSchema"], entry["outputSchema"]) || !same(m["example"], ex) || m["description"] != entry["description"] {
			t.Errorf("%s: description differs from the catalogue entry", m["name"])
		}
	}
	e.reg.SetEnabled("hash_text", false)
	for body, want := range map[string]struct {
		status int
		code   string
	}{
		`{"tools": []}`: {400, surface.CodeInvalidRequest},
		`{"tools": ["a", "b", "c", "d", "e", "f"]}`: {400, surface.CodeInvalidRequest},
		`{"tools": "gcd_lcm"}`:                      {400, surface.CodeInvalidRequest},
		`{"tools": ["gcd_lcm"], "more": 1}`:         {400, surface.CodeInvalidRequest},
		`{"tools": ["no_such_tool"]}`:               {404, tools.CodeUnknownTool},
		`{"tools": ["hash_text"]}`:                  {403, tools.CodeToolDisabled},
		`[]`:                                        {400, surface.CodeInvalidRequest},
	} {
		status, got := e.post(t, "/v1/describe", body)
		if status != want.status || got["error_code"] != want.code {
			t.Errorf("%s: %d %v, want %d %s", body, status, got, want.status, want.code)
		}
	}
	r := testhttp.Do(t, http.MethodPost, e.ts.URL+"/v1/describe", map[string]string{"Content-Type": "text/plain"}, []byte(`{"tools":["gcd_lcm"]}`))
	if r.Status != http.StatusUnsupportedMediaType {
		t.Errorf("text/plain: %d", r.Status)
	}
}

// TestPlansOverREST: register, read back, rerun with a batch, run new in
// one call; and every error of the plan routes.
func TestPlansOverREST(t *testing.T) {
	e := newPlanEnv(t)
	status, reg := e.post(t, "/v1/plans", `{"plan": `+citiesPlan+`}`)
	if status != 200 {
		t.Fatalf("register: %d %v", status, reg)
	}
	id := reg["plan_id"].(string)
	want, err := plans.Decode(mustParse(t, citiesPlan))
	if err != nil || want.ID != id {
		t.Fatalf("plan_id %s, decoded %v %v", id, want, err)
	}
	stored := testhttp.Do(t, http.MethodGet, e.ts.URL+"/v1/plans/"+id, nil, nil).JSON(t)
	if got, _ := evidence.Canonical(stored["plan"]); string(got) != string(want.Canonical()) || evidence.HashBytes(got) != id {
		t.Errorf("stored plan %s", got)
	}
	status, res := e.post(t, "/v1/plans/"+id+"/run", `{"params_batch": [{"city": "Asia/Tokyo"}, {"city": "America/Chicago", "when": "2026-03-30T10:00:00"}]}`)
	if status != 200 {
		t.Fatalf("rerun: %d %v", status, res)
	}
	runs := res["runs"].([]any)
	days := []string{}
	for _, r := range runs {
		run := r.(map[string]any)
		facts := run["steps"].([]any)[1].(map[string]any)["structured_result"].(map[string]any)["facts"].(map[string]any)
		days = append(days, facts["date"].(string)+" "+facts["weekday_name"].(string))
	}
	// Tokyo from the oracle (plans/testdata/cities.json); Chicago is an hour
	// behind New York on 2026-03-30, a Monday.
	if !slices.Equal(days, []string{"2026-03-28 Saturday", "2026-03-30 Monday"}) {
		t.Errorf("days %v", days)
	}
	status, res = e.post(t, "/v1/plans/run", `{"plan": `+citiesPlan+`, "params": {"city": "Europe/Paris"}}`)
	if status != 200 || res["plan_id"] != id || len(res["runs"].([]any)) != 1 {
		t.Fatalf("run new: %d %v", status, res)
	}
	unknown := strings.Repeat("0", 64)
	for _, tc := range []struct {
		path, body string
		status     int
		code       string
	}{
		{"/v1/plans/" + unknown + "/run", `{}`, 404, plans.CodeUnknownPlan},
		{"/v1/plans/not-a-hash/run", `{}`, 404, plans.CodeUnknownPlan},
		{"/v1/plans", `{"plan": {"steps": [{"id": "a", "tool": "day_of_week", "args": {"date_str": {"$ref": "zz/facts/date"}}}]}}`, 422, plans.CodeInvalidPlan},
		{"/v1/plans", `{"plan": {"steps": []}}`, 422, plans.CodeInvalidPlan},
		{"/v1/plans", `{}`, 400, surface.CodeInvalidRequest},
		{"/v1/plans", `{"plan": {}, "x": 1}`, 400, surface.CodeInvalidRequest},
		{"/v1/plans/" + id + "/run", `{"params": {}, "params_batch": []}`, 400, surface.CodeInvalidRequest},
		{"/v1/plans/" + id + "/run", `{"params_batch": {}}`, 400, surface.CodeInvalidRequest},
		{"/v1/plans/" + id + "/run", `{"params_batch": []}`, 400, surface.CodeInvalidRequest},
		{"/v1/plans/" + id + "/run", `{"params": {"city": 1}}`, 400, tools.CodeInputSchemaInvalid},
		{"/v1/plans/" + id + "/run", `{"params": {}}`, 400, tools.CodeInputSchemaInvalid},
		{"/v1/plans/" + id + "/run", `{"plan": {}}`, 400, surface.CodeInvalidRequest},
		{"/v1/plans/run", `{"params": {}}`, 400, surface.CodeInvalidRequest},
		{"/v1/plans/run", `{"plan": {"steps": [{"id": "x", "tool": "nope"}]}}`, 422, plans.CodeInvalidPlan},
		{"/v1/plans/run", `not json`, 400, surface.CodeInvalidRequest},
	} {
		status, got := e.post(t, tc.path, tc.body)
		if status != tc.status || got["error_code"] != tc.code {
			t.Errorf("POST %s %s: %d %v, want %d %s", tc.path, tc.body, status, got, tc.status, tc.code)
		}
	}
	// A too-large batch is refused before anything runs.
	sets := strings.Repeat(`{"city": "UTC"},`, plans.MaxBatch) + `{"city": "UTC"}`
	status, got := e.post(t, "/v1/plans/"+id+"/run", `{"params_batch": [`+sets+`]}`)
	if status != 400 || got["reason"] != "params_batch_size" {
		t.Errorf("1001 sets: %d %v", status, got)
	}
	if r := testhttp.Do(t, http.MethodGet, e.ts.URL+"/v1/plans/"+unknown, nil, nil); r.Status != 404 {
		t.Errorf("GET unknown plan: %d", r.Status)
	}
}

func mustParse(t *testing.T, s string) any {
	t.Helper()
	v, err := evidence.ParseJSON([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestPlanSchemaAdmitsDecodedPlans: every plan the strict decoder accepts
// (the vectors of plans/testdata) validates against the plan schema that
// MCP and OpenAPI publish, and the schema refuses what the decoder refuses
// by shape.
func TestPlanSchemaAdmitsDecodedPlans(t *testing.T) {
	schema := surface.PlanSchema("plan")
	b, err := os.ReadFile("../plans/testdata/plan_ids.json")
	if err != nil {
		t.Fatal(err)
	}
	candidates := []any{mustParse(t, citiesPlan)}
	for _, v := range mustParse(t, string(b)).(map[string]any)["vectors"].([]any) {
		candidates = append(candidates, v.(map[string]any)["plan"])
	}
	for i, c := range candidates {
		if _, err := plans.Decode(c); err != nil {
			t.Fatalf("candidate %d: %v", i, err)
		}
		if err := contracts.ValidateAgainst(schema, c.(map[string]any)); err != nil {
			t.Errorf("candidate %d: decoded, but the schema refuses it: %v", i, err)
		}
	}
	for _, bad := range []string{`{"steps": []}`, `{"steps": [{"id": "a/b", "tool": "t"}]}`, `{"steps": [{"id": "a", "tool": "t"}], "x": 1}`,
		`{"params": {"p": {"type": "date"}}, "steps": [{"id": "a", "tool": "t"}]}`} {
		if _, err := plans.Decode(mustParse(t, bad)); err == nil {
			t.Fatalf("%s decoded", bad)
		}
		if contracts.ValidateAgainst(schema, mustParse(t, bad).(map[string]any)) == nil {
			t.Errorf("%s: the schema admits what the decoder refuses", bad)
		}
	}
}

// TestCompactMCP: /mcp/compact with the go-sdk client: exactly the four
// tools with input and output schemas that compile, a tools/list of at most
// 8 KiB, and discover → describe → plan → batch rerun, each result valid
// against its outputSchema; errors are isError results; the prompt.
func TestCompactMCP(t *testing.T) {
	e := newPlanEnv(t)
	raw := postMCP(t, e.ts.URL+"/mcp/compact", nil, []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`))
	if len(raw) > 8<<10 {
		t.Errorf("compact tools/list is %d bytes, more than 8 KiB", len(raw))
	}
	full := postMCP(t, e.ts.URL+"/mcp", nil, []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`))
	t.Logf("tools/list: compact %d bytes, full %d bytes", len(raw), len(full))

	c := mcp.NewClient(&mcp.Implementation{Name: "precisiond-test", Version: "1"}, nil)
	cs, err := c.Connect(ctxT(t), &mcp.StreamableClientTransport{Endpoint: e.ts.URL + "/mcp/compact", MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if ins := cs.InitializeResult().Instructions; ins != mcpserver.CompactInstructions {
		t.Errorf("instructions %q", ins)
	}
	list, err := cs.ListTools(ctxT(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	outSchemas := map[string]map[string]any{}
	var names []string
	for _, tl := range list.Tools {
		names = append(names, tl.Name)
		in, out := loose(t, tl.InputSchema).(map[string]any), loose(t, tl.OutputSchema).(map[string]any)
		if in["type"] != "object" || out["type"] != "object" || tl.Description == "" {
			t.Errorf("%s: schemas %v / %v", tl.Name, in["type"], out["type"])
		}
		outSchemas[tl.Name] = mustParse(t, string(testhttp.Marshal(t, tl.OutputSchema))).(map[string]any)
	}
	slices.Sort(names)
	if want := []string{"describe_tools", "list_tools", "rerun_plan", "run_plan"}; !slices.Equal(names, want) {
		t.Fatalf("tools %v, want %v", names, want)
	}
	call := func(name string, args any) map[string]any {
		t.Helper()
		res, err := cs.CallTool(ctxT(t), &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		sc := mustParse(t, string(testhttp.Marshal(t, res.StructuredContent))).(map[string]any)
		if err := contracts.ValidateAgainst(outSchemas[name], sc); err != nil {
			t.Errorf("%s: structuredContent fails its outputSchema: %v", name, err)
		}
		if testhttp.MCPText(t, res) == "" {
			t.Errorf("%s: no text block", name)
		}
		if res.IsError {
			sc["isError"] = true
		}
		return sc
	}
	// Discover: the same catalogue as /v1/catalog.
	cat := call("list_tools", map[string]any{})
	want, _ := evidence.Canonical(mustParse(t, string(testhttp.Get(t, e.ts.URL+"/v1/catalog"))))
	if got, _ := evidence.Canonical(cat); !bytes.Equal(got, want) {
		t.Errorf("list_tools differs from /v1/catalog")
	}
	// Describe.
	desc := call("describe_tools", map[string]any{"tools": []string{"timezone_convert", "time_facts"}})
	if n := len(desc["tools"].([]any)); n != 2 {
		t.Fatalf("describe_tools: %d", n)
	}
	// Plan with one run, then batch rerun by plan_id.
	first := call("run_plan", map[string]any{"plan": mustParse(t, citiesPlan), "params": map[string]any{"city": "Asia/Tokyo"}})
	id, _ := first["plan_id"].(string)
	if len(id) != 64 || first["runs"].([]any)[0].(map[string]any)["status"] != "completed" {
		t.Fatalf("run_plan: %v", first)
	}
	batch := call("rerun_plan", map[string]any{"plan_id": id, "params_batch": []any{map[string]any{"city": "Europe/London"}, map[string]any{"city": "Pacific/Honolulu"}}})
	var days []string
	for _, r := range batch["runs"].([]any) {
		facts := r.(map[string]any)["steps"].([]any)[1].(map[string]any)["structured_result"].(map[string]any)["facts"].(map[string]any)
		days = append(days, facts["weekday_name"].(string))
	}
	if !slices.Equal(days, []string{"Saturday", "Friday"}) { // plans/testdata/cities.json
		t.Errorf("weekdays %v", days)
	}
	// The same batch over REST gives the same bytes.
	restRaw := testhttp.PostJSON(t, e.ts.URL+"/v1/plans/"+id+"/run", []byte(`{"params_batch":[{"city":"Europe/London"},{"city":"Pacific/Honolulu"}]}`)).Body
	if got, _ := evidence.Canonical(batch); !bytes.Equal(got, restRaw) {
		t.Errorf("rerun_plan and REST differ:\n%s\n%s", got, restRaw)
	}
	// Errors are isError results with the error body.
	bad := call("run_plan", map[string]any{"plan": map[string]any{"steps": []any{map[string]any{"id": "x", "tool": "nope"}}}})
	if bad["isError"] != true || bad["error_code"] != plans.CodeInvalidPlan {
		t.Errorf("invalid plan: %v", bad)
	}
	gone := call("rerun_plan", map[string]any{"plan_id": strings.Repeat("1", 64)})
	if gone["isError"] != true || gone["error_code"] != plans.CodeUnknownPlan {
		t.Errorf("unknown plan: %v", gone)
	}
	many := call("describe_tools", map[string]any{"tools": []string{"a", "b", "c", "d", "e", "f"}})
	if many["isError"] != true || many["error_code"] != surface.CodeInvalidRequest {
		t.Errorf("6 tools: %v", many)
	}
	p, err := cs.GetPrompt(ctxT(t), &mcp.GetPromptParams{Name: "reusable_plan_guide", Arguments: map[string]string{"task": "20 cities"}})
	if err != nil || !strings.Contains(p.Messages[0].Content.(*mcp.TextContent).Text, "params_batch") || !strings.HasSuffix(p.Messages[0].Content.(*mcp.TextContent).Text, "Task: 20 cities") {
		t.Errorf("prompt: %v %v", p, err)
	}
	// The full surface is unchanged at /mcp.
	if !bytes.Contains(full, []byte(`"name":"gcd_lcm"`)) || bytes.Contains(full, []byte(`"name":"run_plan"`)) {
		t.Error("/mcp does not serve the full surface")
	}
}

// TestOpenAPIDescribesPlanRoutes: /openapi.json lists the plan routes, and
// real answers of each validate against their component schemas (a batch
// with a failed run covers the error branch of a step).
func TestOpenAPIDescribesPlanRoutes(t *testing.T) {
	e := newPlanEnv(t)
	raw := testhttp.Get(t, e.ts.URL+"/openapi.json")
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	paths := doc.(map[string]any)["paths"].(map[string]any)
	for _, p := range []string{"/v1/catalog", "/v1/describe", "/v1/plans", "/v1/plans/run", "/v1/plans/{plan_id}/run", "/v1/plans/{plan_id}", "/v1/runs/{run_hash}"} {
		if paths[p] == nil {
			t.Errorf("paths lack %s", p)
		}
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource("https://precisiond.invalid/openapi.json", doc); err != nil {
		t.Fatal(err)
	}
	check := func(schema string, body []byte) {
		t.Helper()
		s, err := c.Compile("https://precisiond.invalid/openapi.json#/components/schemas/" + schema)
		if err != nil {
			t.Fatalf("compile %s: %v", schema, err)
		}
		v, err := jsonschema.UnmarshalJSON(bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Validate(v); err != nil {
			t.Errorf("%s: %v\n%.400s", schema, err, body)
		}
	}
	check("CompactCatalog", testhttp.Get(t, e.ts.URL+"/v1/catalog"))
	check("DescribeRequest", []byte(`{"tools":["gcd_lcm"]}`))
	check("DescribeResponse", testhttp.PostJSON(t, e.ts.URL+"/v1/describe", []byte(`{"tools":["gcd_lcm","time_facts"]}`)).Body)
	reg := testhttp.PostJSON(t, e.ts.URL+"/v1/plans", []byte(`{"plan":`+citiesPlan+`}`)).Body
	check("PlanRegisterResponse", reg)
	id := mustParse(t, string(reg)).(map[string]any)["plan_id"].(string)
	runReq := []byte(`{"params_batch":[{"city":"Asia/Tokyo"},{"city":"Mars/Base"}]}`)
	check("PlanRunRequest", runReq)
	check("PlanRunResponse", testhttp.PostJSON(t, e.ts.URL+"/v1/plans/"+id+"/run", runReq).Body)
	check("PlanNewRunRequest", []byte(`{"plan":`+citiesPlan+`,"params":{"city":"UTC"}}`))
	check("StoredPlan", testhttp.Get(t, e.ts.URL+"/v1/plans/"+id))
	check("Error", testhttp.PostJSON(t, e.ts.URL+"/v1/plans", []byte(`{"plan":{"steps":[]}}`)).Body)
}
