package plans

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/precisiond/precisiond/contracts"
	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/internal/testhttp"
	"github.com/precisiond/precisiond/tools"
)

// newRegistry is the service's own tool list with a limiter of n slots.
func newRegistry(t testing.TB, n int) *tools.Registry {
	t.Helper()
	return tools.NewRegistry(tools.Builtin(tools.Deps{}), tools.Options{Limiter: tools.NewLimiter(n, testDeadline, nil), DefaultTimeout: testDeadline})
}

// testDeadline replaces the call, queue and plan deadlines in these tests: no
// answer here may depend on how busy the machine is. A test of a deadline
// sets its own.
const testDeadline = 2 * time.Minute

// parse decodes JSON text as the REST surface does (exact numbers).
func parse(t testing.TB, s string) any {
	t.Helper()
	v, err := evidence.ParseJSON([]byte(s))
	if err != nil {
		t.Fatalf("test JSON %s: %v", s, err)
	}
	return v
}

// decode decodes a plan written as JSON, failing the test when it is invalid.
func decode(t testing.TB, plan string) *Plan {
	t.Helper()
	p, err := Decode(parse(t, plan))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// register registers a plan written as JSON with s, failing the test when it
// is refused.
func register(t testing.TB, s *Service, plan string) *Plan {
	t.Helper()
	p, err := s.Register(context.Background(), parse(t, plan))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// cities is a batch of n parameter sets naming city.
func cities(n int, city string) []any {
	sets := make([]any, n)
	for i := range sets {
		sets[i] = map[string]any{"city": city}
	}
	return sets
}

func readJSON(t testing.TB, path string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return parse(t, string(b)).(map[string]any)
}

// citiesPlan is the plan of docs/plans.md: the weekday, in a city, of a New
// York wall time.
const citiesPlan = `{
 "description": "Weekday in a city of a wall time in New York",
 "params": {"when": {"type": "string", "default": "2026-03-27T21:30:00"}, "city": {"type": "string"}},
 "steps": [
  {"id": "conv", "tool": "timezone_convert",
   "args": {"local_datetime": {"$param": "when"}, "from_timezone": "America/New_York", "to_timezone": {"$param": "city"}}},
  {"id": "day", "tool": "time_facts",
   "args": {"instant": {"$ref": "conv/facts/utc_instant"}, "timezone_name": {"$param": "city"}, "locale": "en"}}
 ]}`

// TestPlanIDVectors: plan_id is the SHA-256 of the canonical JSON of the
// normalized plan, as Python computes it (testdata/gen_vectors.py); the
// order of keys and absent params or args do not change it.
func TestPlanIDVectors(t *testing.T) {
	doc := readJSON(t, "testdata/plan_ids.json")
	vectors := doc["vectors"].([]any)
	if len(vectors) < 5 {
		t.Fatalf("%d vectors", len(vectors))
	}
	for i, v := range vectors {
		m := v.(map[string]any)
		p, err := Decode(m["plan"])
		if err != nil {
			t.Fatalf("vector %d: %v", i, err)
		}
		if got, want := p.ID, m["plan_id"].(string); got != want {
			t.Errorf("vector %d: plan_id %s, want %s", i, got, want)
		}
	}
	a := vectors[0].(map[string]any)["plan_id"]
	b := vectors[1].(map[string]any)["plan_id"]
	if a != b {
		t.Errorf("the same plan written two ways has two ids: %v, %v", a, b)
	}
}

// TestDecodeRefusesMalformedPlans: every shape problem is invalid_plan with
// the JSON path of the offending value.
func TestDecodeRefusesMalformedPlans(t *testing.T) {
	step := `{"id": "g", "tool": "gcd_lcm", "args": {"a": 1, "b": 2}}`
	many := strings.Repeat(`{"id": "sX", "tool": "gcd_lcm"},`, MaxSteps)
	for name, tc := range map[string]struct {
		plan, path, keyword string
	}{
		"not an object":        {`[]`, "", "shape"},
		"unknown top key":      {`{"steps": [` + step + `], "extra": 1}`, "/extra", "shape"},
		"no steps":             {`{"params": {}}`, "/steps", "shape"},
		"empty steps":          {`{"steps": []}`, "/steps", "limit"},
		"too many steps":       {`{"steps": [` + strings.ReplaceAll(many, "sX", "s") + step + `]}`, "/steps", "limit"},
		"step not an object":   {`{"steps": [1]}`, "/steps/0", "shape"},
		"unknown step key":     {`{"steps": [{"id": "g", "tool": "gcd_lcm", "argz": {}}]}`, "/steps/0/argz", "shape"},
		"bad step id":          {`{"steps": [{"id": "a/b", "tool": "gcd_lcm"}]}`, "/steps/0/id", "shape"},
		"duplicate step id":    {`{"steps": [` + step + `,` + step + `]}`, "/steps/1/id", "shape"},
		"tool not a string":    {`{"steps": [{"id": "g", "tool": 5}]}`, "/steps/0/tool", "shape"},
		"args not an object":   {`{"steps": [{"id": "g", "tool": "gcd_lcm", "args": [1]}]}`, "/steps/0/args", "shape"},
		"args a placeholder":   {`{"params": {"p": {"type": "object"}}, "steps": [{"id": "g", "tool": "gcd_lcm", "args": {"$param": "p"}}]}`, "/steps/0/args", "shape"},
		"bad pin":              {`{"steps": [{"id": "g", "tool": "gcd_lcm", "contract_hash": "abc"}]}`, "/steps/0/contract_hash", "shape"},
		"placeholder with two": {`{"steps": [{"id": "g", "tool": "gcd_lcm", "args": {"a": {"$param": "x", "y": 1}}}]}`, "/steps/0/args/a", "shape"},
		"param not a string":   {`{"steps": [{"id": "g", "tool": "gcd_lcm", "args": {"a": {"$param": 3}}}]}`, "/steps/0/args/a", "shape"},
		"ref syntax":           {`{"steps": [{"id": "g", "tool": "gcd_lcm", "args": {"a": {"$ref": "g/result/x"}}}]}`, "/steps/0/args/a", "ref_syntax"},
		"ref bad escape":       {`{"steps": [{"id": "g", "tool": "gcd_lcm", "args": {"a": {"$ref": "g/facts/a~2"}}}]}`, "/steps/0/args/a", "ref_syntax"},
		"params not an object": {`{"params": [], "steps": [` + step + `]}`, "/params", "shape"},
		"bad param name":       {`{"params": {"1x": {"type": "string"}}, "steps": [` + step + `]}`, "/params/1x", "shape"},
		"param without type":   {`{"params": {"x": {}}, "steps": [` + step + `]}`, "/params/x/type", "shape"},
		"param unknown type":   {`{"params": {"x": {"type": "date"}}, "steps": [` + step + `]}`, "/params/x/type", "shape"},
		"param unknown key":    {`{"params": {"x": {"type": "string", "enum": []}}, "steps": [` + step + `]}`, "/params/x/enum", "shape"},
		"default of wrong type": {`{"params": {"x": {"type": "integer", "default": 1.5}}, "steps": [` + step + `]}`,
			"/params/x/default", "shape"},
		"description too long": {`{"description": "` + strings.Repeat("x", MaxDescriptionChars+1) + `", "steps": [` + step + `]}`, "/description", "limit"},
	} {
		_, err := Decode(parse(t, tc.plan))
		var te *tools.Error
		if !errors.As(err, &te) || te.Code != CodeInvalidPlan {
			t.Errorf("%s: error %v, want invalid_plan", name, err)
			continue
		}
		if len(te.Details) != 1 || te.Details[0].Path != tc.path || te.Details[0].Keyword != tc.keyword {
			t.Errorf("%s: details %+v, want path %q keyword %q", name, te.Details, tc.path, tc.keyword)
		}
	}
}

// TestCheckErrorClasses: one plan per class of static error, each refused
// with a detail at the right path and keyword, the step id in its message.
func TestCheckErrorClasses(t *testing.T) {
	reg := newRegistry(t, 4)
	reg.SetEnabled("hash_text", false)
	conv := `{"id": "conv", "tool": "timezone_convert", "args": {"local_datetime": "2026-01-01T10:00:00", "from_timezone": "UTC", "to_timezone": "Asia/Tokyo"}}`
	for name, tc := range map[string]struct {
		plan, path, keyword, inMessage string
	}{
		"unknown tool":      {`{"steps": [{"id": "x", "tool": "no_such_tool"}]}`, "/steps/0/tool", KeyUnknownTool, "step x"},
		"disabled tool":     {`{"steps": [{"id": "h", "tool": "hash_text", "args": {"text": "a"}}]}`, "/steps/0/tool", KeyToolDisabled, "step h"},
		"pin differs":       {`{"steps": [{"id": "g", "tool": "gcd_lcm", "contract_hash": "` + strings.Repeat("0", 64) + `", "args": {"a": 1, "b": 2}}]}`, "/steps/0/contract_hash", KeyContractMismatch, "step g"},
		"undeclared param":  {`{"steps": [{"id": "g", "tool": "gcd_lcm", "args": {"a": {"$param": "n"}, "b": 2}}]}`, "/steps/0/args/a", KeyParamUndeclared, `"n"`},
		"unknown ref step":  {`{"steps": [` + conv + `, {"id": "d", "tool": "day_of_week", "args": {"date_str": {"$ref": "nowhere/facts/date"}}}]}`, "/steps/1/args/date_str", KeyRefUnknownStep, `"nowhere"`},
		"forward ref":       {`{"steps": [{"id": "d", "tool": "day_of_week", "args": {"date_str": {"$ref": "c/facts/date"}}}, {"id": "c", "tool": "calendar_facts", "args": {"date_str": "2026-01-01"}}]}`, "/steps/0/args/date_str", KeyRefForward, `"c"`},
		"self ref":          {`{"steps": [{"id": "d", "tool": "day_of_week", "args": {"date_str": {"$ref": "d/facts/date"}}}]}`, "/steps/0/args/date_str", KeyRefForward, `"d"`},
		"ref no such fact":  {`{"steps": [` + conv + `, {"id": "t", "tool": "time_facts", "args": {"instant": {"$ref": "conv/facts/utc"}}}]}`, "/steps/1/args/instant", KeyRefPointer, "no property"},
		"ref into a string": {`{"steps": [` + conv + `, {"id": "t", "tool": "time_facts", "args": {"instant": {"$ref": "conv/facts/utc_instant/0"}}}]}`, "/steps/1/args/instant", KeyRefPointer, "string has no member"},
		"ref nested closed": {`{"steps": [{"id": "s", "tool": "statistics_calc", "args": {"data": "1,2"}}, {"id": "t", "tool": "day_of_week", "args": {"date_str": {"$ref": "s/facts/results/average/value"}}}]}`, "/steps/1/args/date_str", KeyRefPointer, `no property "average"`},
		"ref not an index":  {`{"steps": [{"id": "p", "tool": "prime_factorize", "args": {"n": 12}}, {"id": "g", "tool": "gcd_lcm", "args": {"a": {"$ref": "p/facts/factors/first/prime"}, "b": 1}}]}`, "/steps/1/args/a", KeyRefPointer, "array has no member"},
		"literal pattern":   {`{"steps": [{"id": "d", "tool": "day_of_week", "args": {"date_str": "29.02.2024"}}]}`, "/steps/0/args/date_str", "pattern", "step d"},
		"literal type":      {`{"steps": [{"id": "g", "tool": "gcd_lcm", "args": {"a": "one", "b": 2}}]}`, "/steps/0/args/a", "type", "step g"},
		"missing required":  {`{"params": {"x": {"type": "integer"}}, "steps": [{"id": "g", "tool": "gcd_lcm", "args": {"a": {"$param": "x"}}}]}`, "/steps/0/args/b", "required", "step g"},
		"unknown argument":  {`{"params": {"x": {"type": "integer"}}, "steps": [{"id": "g", "tool": "gcd_lcm", "args": {"a": 1, "b": 2, "c": {"$param": "x"}}}]}`, "/steps/0/args/c", "additionalProperties", "step g"},
		"param type":        {`{"params": {"zone": {"type": "integer"}}, "steps": [{"id": "t", "tool": "time_facts", "args": {"instant": "2026-01-01T00:00:00Z", "timezone_name": {"$param": "zone"}}}]}`, "/steps/0/args/timezone_name", KeyTypeMismatch, "declared integer"},
		"ref type":          {`{"steps": [` + conv + `, {"id": "t", "tool": "time_facts", "args": {"instant": {"$ref": "conv/facts/target_is_dst"}}}]}`, "/steps/1/args/instant", KeyTypeMismatch, "boolean"},
	} {
		p, err := Decode(parse(t, tc.plan))
		if err != nil {
			t.Errorf("%s: decode: %v", name, err)
			continue
		}
		err = Check(p, reg)
		var te *tools.Error
		if !errors.As(err, &te) || te.Code != CodeInvalidPlan {
			t.Errorf("%s: error %v, want invalid_plan", name, err)
			continue
		}
		found := false
		for _, d := range te.Details {
			if d.Path == tc.path && d.Keyword == tc.keyword && strings.Contains(d.Message, tc.inMessage) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: details %+v, want one at %q with keyword %q mentioning %q", name, te.Details, tc.path, tc.keyword, tc.inMessage)
		}
	}
}

// TestCheckAcceptsPlaceholdersWhereLiteralsWouldFail: placeholders stand
// for values not known yet; a pattern, an enum, a nested array element or a
// number range never rejects them statically, and integer and number fit
// each other.
func TestCheckAcceptsPlaceholdersWhereLiteralsWouldFail(t *testing.T) {
	reg := newRegistry(t, 4)
	for name, plan := range map[string]string{
		"cities":          citiesPlan,
		"pattern":         `{"params": {"d": {"type": "string"}}, "steps": [{"id": "d", "tool": "day_of_week", "args": {"date_str": {"$param": "d"}}}]}`,
		"enum":            `{"params": {"l": {"type": "string"}}, "steps": [{"id": "c", "tool": "calendar_facts", "args": {"date_str": "2026-01-01", "locale": {"$param": "l"}}}]}`,
		"array element":   `{"params": {"x": {"type": "string"}}, "steps": [{"id": "f", "tool": "decimal_finance", "args": {"operation": "add", "operands": ["1.00", {"$param": "x"}], "currency": "EUR", "scale": 2, "rounding": "half_even"}}]}`,
		"number for int":  `{"params": {"x": {"type": "number"}}, "steps": [{"id": "g", "tool": "gcd_lcm", "args": {"a": {"$param": "x"}, "b": 1}}]}`,
		"ref int to int":  `{"steps": [{"id": "g", "tool": "gcd_lcm", "args": {"a": 12, "b": 18}}, {"id": "h", "tool": "gcd_lcm", "args": {"a": {"$ref": "g/facts/gcd"}, "b": {"$ref": "g/facts/lcm"}}}]}`,
		"ref array items": `{"steps": [{"id": "p", "tool": "prime_factorize", "args": {"n": 12}}, {"id": "g", "tool": "gcd_lcm", "args": {"a": {"$ref": "p/facts/factors/0/prime"}, "b": 1}}]}`,
		"literal object":  `{"steps": [{"id": "q", "tool": "json_query", "args": {"json_str": "{\"$ref\": 1}", "path": "\"$ref\""}}]}`,
		"literal wrapper": `{"steps": [{"id": "g", "tool": "gcd_lcm", "args": {"a": {"$literal": 4}, "b": 6}}]}`,
	} {
		p, err := Decode(parse(t, plan))
		if err != nil {
			t.Errorf("%s: decode: %v", name, err)
			continue
		}
		if err := Check(p, reg); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	// A $literal is a literal: it is validated.
	p := decode(t, `{"steps": [{"id": "g", "tool": "gcd_lcm", "args": {"a": {"$literal": "x"}, "b": 6}}]}`)
	if err := Check(p, reg); err == nil {
		t.Error("a $literal of the wrong type passed the check")
	}
}

// runJSON runs a plan through a service and decodes the answer.
func runJSON(t *testing.T, s *Service, p *Plan, sets []any, batch bool) map[string]any {
	t.Helper()
	b, err := s.Run(context.Background(), p, sets, batch)
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	v, err := evidence.ParseJSON(b)
	if err != nil {
		t.Fatalf("answer is not JSON: %v", err)
	}
	canon, _ := evidence.Canonical(v)
	if string(canon) != string(b) {
		t.Fatalf("answer is not canonical JSON:\n%s\n%s", b, canon)
	}
	return v.(map[string]any)
}

// TestRunCitiesBatch: the 20-cities plan as one batch gives, in each city,
// the weekday Python's zoneinfo gives (testdata/cities.json); each step's
// envelope is the one a direct call gives, and each run_hash recomputes.
func TestRunCitiesBatch(t *testing.T) {
	reg := newRegistry(t, 4)
	s := NewService(reg, NewMemoryStore(0), Options{Timeout: testDeadline})
	p := register(t, s, citiesPlan)
	oracle := readJSON(t, "testdata/cities.json")
	cities := oracle["cities"].([]any)
	var sets []any
	for _, c := range cities {
		sets = append(sets, map[string]any{"city": c.(map[string]any)["zone"]})
	}
	res := runJSON(t, s, p, sets, true)
	if res["plan_id"] != p.ID {
		t.Errorf("plan_id %v, want %s", res["plan_id"], p.ID)
	}
	runs := res["runs"].([]any)
	if len(runs) != len(cities) {
		t.Fatalf("%d runs for %d cities", len(runs), len(cities))
	}
	for i, r := range runs {
		run := r.(map[string]any)
		want := cities[i].(map[string]any)
		if run["status"] != "completed" {
			t.Errorf("%v: %v", want["zone"], run)
			continue
		}
		params := run["params"].(map[string]any)
		if params["when"] != oracle["when"] || params["city"] != want["zone"] {
			t.Errorf("params %v: the default of when is not applied or city is lost", params)
		}
		steps := run["steps"].([]any)
		conv := steps[0].(map[string]any)["structured_result"].(map[string]any)
		day := steps[1].(map[string]any)["structured_result"].(map[string]any)
		if got := conv["facts"].(map[string]any)["utc_instant"]; got != oracle["utc_instant"] {
			t.Errorf("%v: utc_instant %v, oracle %v", want["zone"], got, oracle["utc_instant"])
		}
		facts := day["facts"].(map[string]any)
		if facts["date"] != want["date"] || facts["weekday_name"] != want["weekday_name"] || facts["weekday_iso"].(json.Number).String() != want["weekday_iso"].(json.Number).String() {
			t.Errorf("%v: %v %v %v, oracle %v", want["zone"], facts["date"], facts["weekday_name"], facts["weekday_iso"], want)
		}
		// The second step got the first step's utc_instant.
		if in := day["input_normalized"].(map[string]any)["instant"]; in != oracle["utc_instant"] {
			t.Errorf("%v: $ref gave %v", want["zone"], in)
		}
		// Each envelope is byte for byte what a direct call answers.
		direct, err := reg.Call(context.Background(), "time_facts", testhttp.Canonical(t, day["input_normalized"]), "")
		if err != nil {
			t.Fatal(err)
		}
		if got := testhttp.Canonical(t, day); string(got) != string(direct.EnvelopeJSON) {
			t.Errorf("%v: envelope differs from a direct call:\n%s\n%s", want["zone"], got, direct.EnvelopeJSON)
		}
		h, _ := evidence.Hash(map[string]any{"plan_id": p.ID, "params": params, "steps": []any{conv["result_hash"], day["result_hash"]}})
		if run["run_hash"] != h {
			t.Errorf("%v: run_hash %v, recomputed %s", want["zone"], run["run_hash"], h)
		}
	}
}

// TestFailingStepStopsOnlyItsRun: a city the zone database does not know
// fails that run at its first step, with the tool's error; the runs before
// and after it complete.
func TestFailingStepStopsOnlyItsRun(t *testing.T) {
	s := NewService(newRegistry(t, 4), NewMemoryStore(0), Options{Timeout: testDeadline})
	p := register(t, s, citiesPlan)
	res := runJSON(t, s, p, []any{map[string]any{"city": "Asia/Tokyo"}, map[string]any{"city": "Mars/Olympus_Mons"}, map[string]any{"city": "Europe/Paris"}}, true)
	runs := res["runs"].([]any)
	for i, want := range []string{"completed", "failed", "completed"} {
		run := runs[i].(map[string]any)
		if run["status"] != want {
			t.Errorf("run %d: status %v, want %s", i, run["status"], want)
		}
	}
	failed := runs[1].(map[string]any)
	steps := failed["steps"].([]any)
	if len(steps) != 1 || failed["run_hash"] != nil {
		t.Fatalf("failed run: %v", failed)
	}
	e := steps[0].(map[string]any)["error"].(map[string]any)
	if steps[0].(map[string]any)["id"] != "conv" || e["error_code"] != tools.CodeExecution || e["reason"] != "unknown_timezone" || e["tool"] != "timezone_convert" {
		t.Errorf("failed step: %v", steps[0])
	}
}

// TestRefToAbsentFactFailsTheStep: a $ref the facts schema allows but this
// run's facts lack (no regex match) fails that step with ref_missing.
func TestRefToAbsentFactFailsTheStep(t *testing.T) {
	s := NewService(newRegistry(t, 4), NewMemoryStore(0), Options{Timeout: testDeadline})
	p, err := s.Register(context.Background(), parse(t, `{"params": {"text": {"type": "string"}},
	 "steps": [{"id": "m", "tool": "regex_extract", "args": {"pattern": "\\d{4}-\\d{2}-\\d{2}", "text": {"$param": "text"}}},
	           {"id": "d", "tool": "day_of_week", "args": {"date_str": {"$ref": "m/facts/matches/0/match"}}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	res := runJSON(t, s, p, []any{map[string]any{"text": "due 2026-03-27"}, map[string]any{"text": "no date"}}, true)
	runs := res["runs"].([]any)
	ok := runs[0].(map[string]any)
	if ok["status"] != "completed" {
		t.Fatalf("run 0: %v", ok)
	}
	day := ok["steps"].([]any)[1].(map[string]any)["structured_result"].(map[string]any)["facts"].(map[string]any)
	if day["weekday_name"] != "Friday" { // 2026-03-27 is a Friday (testdata/cities.json, America/*)
		t.Errorf("weekday %v", day["weekday_name"])
	}
	bad := runs[1].(map[string]any)
	steps := bad["steps"].([]any)
	if bad["status"] != "failed" || len(steps) != 2 {
		t.Fatalf("run 1: %v", bad)
	}
	e := steps[1].(map[string]any)["error"].(map[string]any)
	if e["reason"] != "ref_missing" || !strings.Contains(e["error"].(string), "step d") {
		t.Errorf("error %v", e)
	}
}

// TestRunRefusals: what is refused before anything runs.
func TestRunRefusals(t *testing.T) {
	reg := newRegistry(t, 4)
	s := NewService(reg, NewMemoryStore(0), Options{MaxCalls: 10, Timeout: testDeadline})
	p := register(t, s, citiesPlan)
	batch := func(n int) []any { return cities(n, "UTC") }
	for name, tc := range map[string]struct {
		sets          []any
		batch         bool
		code, path    string
		reason, inMsg string
	}{
		"empty batch":       {nil, true, tools.CodeInvalidRequest, "", "params_batch_size", ""},
		"over 1000":         {batch(MaxBatch + 1), true, tools.CodeInvalidRequest, "", "params_batch_size", "1001"},
		"over max calls":    {batch(6), true, tools.CodeCostLimit, "", "plan_calls", "12 calls"},
		"missing param":     {[]any{map[string]any{}}, false, tools.CodeInputSchemaInvalid, "/params/city", "params_invalid", ""},
		"unknown param":     {[]any{map[string]any{"city": "UTC", "town": "x"}}, false, tools.CodeInputSchemaInvalid, "/params/town", "params_invalid", ""},
		"wrong type":        {[]any{map[string]any{"city": "UTC"}, map[string]any{"city": 5}}, true, tools.CodeInputSchemaInvalid, "/params_batch/1/city", "params_invalid", ""},
		"set not object":    {[]any{"UTC"}, true, tools.CodeInputSchemaInvalid, "/params_batch/0", "params_invalid", ""},
		"params not object": {[]any{[]any{}}, false, tools.CodeInputSchemaInvalid, "/params", "params_invalid", ""},
	} {
		_, err := s.Run(context.Background(), p, tc.sets, tc.batch)
		var te *tools.Error
		if !errors.As(err, &te) || te.Code != tc.code || te.Reason != tc.reason || !strings.Contains(te.Message, tc.inMsg) {
			t.Errorf("%s: %v, want %s (%s)", name, err, tc.code, tc.reason)
			continue
		}
		if tc.path != "" && (len(te.Details) == 0 || te.Details[0].Path != tc.path) {
			t.Errorf("%s: details %+v, want path %s", name, te.Details, tc.path)
		}
	}
	if reg.PeakRunning() != 0 {
		t.Errorf("a refused request ran %d calls", reg.PeakRunning())
	}
}

// TestResponseSizeBound: an answer that would grow past MaxResponseBytes is
// refused with tool_result_too_large; the same request fits a larger bound.
func TestResponseSizeBound(t *testing.T) {
	reg := newRegistry(t, 4)
	p := decode(t, citiesPlan)
	sets := cities(50, "Asia/Tokyo")
	small := NewService(reg, NewMemoryStore(0), Options{MaxResponseBytes: 20_000, Timeout: testDeadline})
	_, err := small.Run(context.Background(), p, sets, true)
	var te *tools.Error
	if !errors.As(err, &te) || te.Code != tools.CodeResultTooLarge || te.Reason != "plan_response_too_large" {
		t.Fatalf("error %v, want tool_result_too_large", err)
	}
	large := NewService(reg, NewMemoryStore(0), Options{Timeout: testDeadline})
	b, err := large.Run(context.Background(), p, sets, true)
	if err != nil || len(b) <= 20_000 || int64(len(b)) > large.Options().MaxResponseBytes {
		t.Fatalf("%d bytes, %v", len(b), err)
	}
}

// TestPlanDeadline: steps that cannot start before the request's overall
// deadline fail with timeout (reason plan_deadline), each run on its own.
func TestPlanDeadline(t *testing.T) {
	s := NewService(newRegistry(t, 4), NewMemoryStore(0), Options{Timeout: time.Nanosecond})
	p := decode(t, citiesPlan)
	res := runJSON(t, s, p, []any{map[string]any{"city": "UTC"}, map[string]any{"city": "Asia/Tokyo"}}, true)
	for _, r := range res["runs"].([]any) {
		run := r.(map[string]any)
		e := run["steps"].([]any)[0].(map[string]any)["error"].(map[string]any)
		if run["status"] != "failed" || e["error_code"] != tools.CodeTimeout || e["reason"] != "plan_deadline" {
			t.Errorf("run %v", run)
		}
	}
}

// TestBatchStaysWithinItsShareOfSlots: a batch never runs more plan steps
// at once than Parallelism (half the registry's slots), so the other half
// stays free for single calls.
func TestBatchStaysWithinItsShareOfSlots(t *testing.T) {
	reg := newRegistry(t, 4)
	s := NewService(reg, NewMemoryStore(0), Options{Timeout: testDeadline})
	if got := s.Options().Parallelism; got != 2 {
		t.Fatalf("parallelism %d, want half of 4 slots", got)
	}
	p := decode(t, citiesPlan)
	sets := cities(200, "Europe/Berlin")
	res := runJSON(t, s, p, sets, true)
	for _, r := range res["runs"].([]any) {
		if r.(map[string]any)["status"] != "completed" {
			t.Fatalf("run %v", r)
		}
	}
	if peak := reg.PeakRunning(); peak < 1 || peak > 2 {
		t.Errorf("peak executions %d, want 1..2", peak)
	}
}

// TestLoadChecksIntegrity: a stored plan is found by its id; an entry whose
// bytes no longer hash to its id is treated as unknown; an id that is not a
// hash is unknown without a store read.
func TestLoadChecksIntegrity(t *testing.T) {
	store := NewMemoryStore(0)
	s := NewService(newRegistry(t, 4), store, Options{Timeout: testDeadline})
	p := register(t, s, citiesPlan)
	got, err := s.Load(context.Background(), p.ID)
	if err != nil || got.ID != p.ID {
		t.Fatalf("load: %v", err)
	}
	tampered := strings.Replace(string(p.Canonical()), "America/New_York", "America/Chicago", 1)
	_ = store.Put(context.Background(), p.ID, []byte(tampered))
	for _, id := range []string{p.ID, "nothex", strings.Repeat("a", 64)} {
		_, err := s.Load(context.Background(), id)
		var te *tools.Error
		if !errors.As(err, &te) || te.Code != CodeUnknownPlan {
			t.Errorf("%s: %v, want unknown_plan", id, err)
		}
	}
}

// TestRerunRechecksTheRegistry: a stored plan whose tool has been disabled
// since is refused at load with invalid_plan (tool_disabled).
func TestRerunRechecksTheRegistry(t *testing.T) {
	reg := newRegistry(t, 4)
	s := NewService(reg, NewMemoryStore(0), Options{Timeout: testDeadline})
	p := register(t, s, citiesPlan)
	reg.SetEnabled("time_facts", false)
	_, err := s.Load(context.Background(), p.ID)
	var te *tools.Error
	if !errors.As(err, &te) || te.Code != CodeInvalidPlan || te.Details[0].Keyword != KeyToolDisabled || te.Details[0].Path != "/steps/1/tool" {
		t.Errorf("%v", err)
	}
}

// TestWalkSchema: the pointer walk through the schema forms contracts use
// ($ref to $defs, prefixItems, maxItems, additionalProperties schemas,
// anyOf) allows exactly the paths a value can have.
func TestWalkSchema(t *testing.T) {
	root := parse(t, `{"type": "object", "additionalProperties": false,
	 "$defs": {"pair": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}], "items": false}},
	 "properties": {
	  "p": {"$ref": "#/$defs/pair"},
	  "few": {"type": "array", "maxItems": 2, "items": {"type": "boolean"}},
	  "map": {"type": "object", "additionalProperties": {"type": "number"}},
	  "open": {"type": "object"},
	  "either": {"anyOf": [{"type": "object", "additionalProperties": false, "properties": {"a": {"type": "string"}}}, {"type": "null"}]}
	 }}`).(map[string]any)
	for ptr, want := range map[string]string{
		"/p/0": "string", "/p/1": "integer", "/few/1": "boolean", "/map/anything": "number",
		"/open/x/y": "", "/either/a": "string", "": "object",
	} {
		tokens := []string{}
		if ptr != "" {
			tokens = strings.Split(ptr[1:], "/")
		}
		s, err := walkSchema(root, root, tokens, 0)
		if err != nil {
			t.Errorf("%s: %v", ptr, err)
			continue
		}
		got := ""
		if s != nil {
			got = strings.Join(typesOf(s), ",")
		}
		if got != want {
			t.Errorf("%s: type %q, want %q", ptr, got, want)
		}
	}
	for _, ptr := range []string{"/p/2", "/few/2", "/nope", "/p/0/x", "/either/b", "/map/k/x"} {
		if _, err := walkSchema(root, root, strings.Split(ptr[1:], "/"), 0); err == nil {
			t.Errorf("%s: allowed", ptr)
		}
	}
}

// waitTool blocks until its channel is closed: it holds an execution slot
// for as long as a test wants.
type waitTool struct {
	c       *contracts.Contract
	release chan struct{}
	started chan struct{}
}

func (w waitTool) tool() tools.Tool { return tools.Tool{Contract: w.c, Execute: w.Execute} }

func (w waitTool) Execute(ctx context.Context, _ map[string]any) (tools.Output, error) {
	close(w.started)
	select {
	case <-w.release:
	case <-ctx.Done():
		return tools.Output{}, ctx.Err()
	}
	return tools.Output{Facts: map[string]any{"ok": true}, Text: "ok", Warnings: []tools.Warning{}}, nil
}

const waitContract = `{"tool": "wait", "contract_version": "1.0.0", "title": "Wait", "description": "Blocks (test only).",
 "determinism": "input_only", "source_policy": {"kind": "test", "name": "test"}, "access_kind": "read",
 "inputSchema": {"type": "object", "additionalProperties": false, "properties": {}},
 "outputSchema": {"type": "object", "additionalProperties": false, "properties": {"ok": {"type": "boolean", "description": "done"}}},
 "examples": [{"title": "a", "args": {}, "facts": {"ok": true}}, {"title": "b", "args": {}, "facts": {"ok": true}}]}`

// TestOverloadedStepWaitsForASlot: a plan step that finds every execution
// slot taken (one slot, held by another call) is not failed with
// overloaded: it waits within the plan's deadline and runs once the slot is
// free.
func TestOverloadedStepWaitsForASlot(t *testing.T) {
	c, err := contracts.Parse([]byte(waitContract))
	if err != nil {
		t.Fatal(err)
	}
	w := waitTool{c: c, release: make(chan struct{}), started: make(chan struct{})}
	var refusals atomic.Int64
	limiter := tools.NewLimiter(1, time.Millisecond, func() { refusals.Add(1) })
	reg := tools.NewRegistry(append(tools.Builtin(tools.Deps{}), w.tool()), tools.Options{Limiter: limiter, DefaultTimeout: time.Minute})
	s := NewService(reg, NewMemoryStore(0), Options{Timeout: time.Minute})
	p := decode(t, `{"steps": [{"id": "g", "tool": "gcd_lcm", "args": {"a": 12, "b": 18}}]}`)
	held := make(chan error, 1)
	go func() {
		_, err := reg.Invoke(context.Background(), tools.Request{Tool: "wait"})
		held <- err
	}()
	<-w.started
	done := make(chan map[string]any, 1)
	go func() { done <- runJSON(t, s, p, []any{nil}, false) }()
	// The plan's step is refused a slot at least once while the wait tool
	// holds it.
	for refusals.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	close(w.release)
	if err := <-held; err != nil {
		t.Fatal(err)
	}
	run := (<-done)["runs"].([]any)[0].(map[string]any)
	if run["status"] != "completed" {
		t.Fatalf("run %v", run)
	}
}
