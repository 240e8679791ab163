package plans

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/tools"
)

// datesPlan is the first task of issue 35: the weekday of every date in a
// note, one plan (regex_extract, then calendar_facts per match).
const datesPlan = `{"description": "Weekday of every ISO date in a text",
 "params": {"text": {"type": "string"}},
 "steps": [
  {"id": "m", "tool": "regex_extract",
   "args": {"pattern": "\\b\\d{4}-\\d{2}-\\d{2}\\b", "text": {"$param": "text"}, "limit": 1000}},
  {"id": "days", "tool": "calendar_facts", "foreach": {"$ref": "m/facts/matches"}, "as": "d",
   "args": {"date_str": {"$item": "/match"}, "locale": "en"}}],
 "output": {"$jmes": "steps.days.facts.items[*].{date: date, weekday: weekday_name}"}}`

// weekPlan is the second task: a Berlin wall time in another zone, and the
// ISO week of that day there ($jmes takes the date from target_datetime).
const weekPlan = `{"description": "A Berlin wall time in a city, and the ISO week of that day there",
 "params": {"when": {"type": "string", "default": "2026-12-24T18:00:00"}, "city": {"type": "string"}},
 "steps": [
  {"id": "conv", "tool": "timezone_convert",
   "args": {"local_datetime": {"$param": "when"}, "from_timezone": "Europe/Berlin", "to_timezone": {"$param": "city"}}},
  {"id": "cal", "tool": "calendar_facts",
   "args": {"date_str": {"$jmes": "substr(steps.conv.facts.target_datetime, ` + "`0`, `10`" + `)"}, "locale": "en"}}],
 "output": {"$jmes": "{local: steps.conv.facts.target_datetime, iso_week: steps.cal.facts.iso_week, weekday: steps.cal.facts.weekday_name}"}}`

func plans2Oracle(t *testing.T) map[string]any { return readJSON(t, "testdata/plans2.json") }

func runWith(t *testing.T, s *Service, p *Plan, sets []any, batch bool, ro RunOptions) map[string]any {
	t.Helper()
	b, err := s.RunWith(context.Background(), p, sets, batch, ro)
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	v, err := evidence.ParseJSON(b)
	if err != nil {
		t.Fatalf("answer is not JSON: %v", err)
	}
	if canon, _ := evidence.Canonical(v); string(canon) != string(b) {
		t.Fatalf("answer is not canonical JSON:\n%s\n%s", b, canon)
	}
	return v.(map[string]any)
}

func firstRun(t *testing.T, res map[string]any) map[string]any {
	t.Helper()
	runs := res["runs"].([]any)
	if len(runs) != 1 {
		t.Fatalf("%d runs", len(runs))
	}
	return runs[0].(map[string]any)
}

// TestForeachDatesTask: every date of a 2000-word note with its weekday, in
// one plan, equal to Python's datetime; the answer is the projection only,
// and the stored record verifies and re-projects to the same output.
func TestForeachDatesTask(t *testing.T) {
	oracle := plans2Oracle(t)
	reg := newRegistry(t, 4)
	s := NewService(reg, NewMemoryStore(0), Options{Timeout: testDeadline})
	p := register(t, s, datesPlan)
	res := runWith(t, s, p, []any{map[string]any{"text": oracle["note"]}}, false, RunOptions{})
	run := firstRun(t, res)
	if run["status"] != "completed" {
		t.Fatalf("run: %v", run)
	}
	if _, ok := run["steps"]; ok {
		t.Error("a projected run answered its steps without include")
	}
	out, _ := run["output"].([]any)
	want := oracle["dates"].([]any)
	if len(out) != len(want) || len(want) != 20 {
		t.Fatalf("%d dates in the output, want %d (20)", len(out), len(want))
	}
	for i, o := range out {
		got, w := o.(map[string]any), want[i].(map[string]any)
		if got["date"] != w["date"] || got["weekday"] != w["weekday_name"] {
			t.Errorf("date %d: got %v, want %v", i, got, w)
		}
	}
	rec, err := s.GetRun(context.Background(), run["run_hash"].(string))
	if err != nil {
		t.Fatal(err)
	}
	doc := parse(t, string(rec)).(map[string]any)
	rc := VerifyRun(doc, toolCatalog(t, reg), nil)
	if len(rc.Problems) > 0 || rc.Completed != 1 || rc.Envelopes != 21 || rc.Projections != 1 {
		t.Fatalf("verify the record: %+v", rc)
	}
	// The record holds one envelope per item, and run_hash covers them.
	steps := doc["runs"].([]any)[0].(map[string]any)["steps"].([]any)
	items := steps[1].(map[string]any)["items"].([]any)
	if len(items) != 20 {
		t.Fatalf("%d item envelopes", len(items))
	}
	// A changed output fails verification.
	doc["runs"].([]any)[0].(map[string]any)["output"].([]any)[0].(map[string]any)["weekday"] = "Caturday"
	if rc := VerifyRun(doc, toolCatalog(t, reg), nil); len(rc.Problems) == 0 {
		t.Error("a changed output verified")
	}
	// With include, the steps come with the output, and the same run_hash.
	res2 := runWith(t, s, p, []any{map[string]any{"text": oracle["note"]}}, false, RunOptions{IncludeSteps: true})
	run2 := firstRun(t, res2)
	if run2["run_hash"] != run["run_hash"] || run2["steps"] == nil || !jsonEqual(run2["output"], run["output"]) {
		t.Errorf("include steps: %v", run2["run_hash"])
	}
}

// TestWeekTaskBatch: 20 cities in one params_batch rerun of the Berlin plan;
// each output equals zoneinfo and isocalendar.
func TestWeekTaskBatch(t *testing.T) {
	oracle := plans2Oracle(t)
	reg := newRegistry(t, 4)
	s := NewService(reg, NewMemoryStore(0), Options{Timeout: testDeadline})
	p := register(t, s, weekPlan)
	loaded, err := s.Load(context.Background(), p.ID)
	if err != nil {
		t.Fatal(err)
	}
	cities := oracle["cities"].([]any)
	var sets []any
	for _, c := range cities {
		sets = append(sets, map[string]any{"city": c.(map[string]any)["zone"]})
	}
	res := runWith(t, s, loaded, sets, true, RunOptions{})
	for i, r := range res["runs"].([]any) {
		run := r.(map[string]any)
		w := cities[i].(map[string]any)
		out, _ := run["output"].(map[string]any)
		if run["status"] != "completed" || out["local"] != w["target_datetime"] || fmt.Sprint(out["iso_week"]) != fmt.Sprint(w["iso_week"]) || out["weekday"] != w["weekday_name"] {
			t.Errorf("%v: got %v, want %v", w["zone"], run, w)
		}
	}
}

// TestForeachEdges: an empty array, 1000 items, nested references to the
// element, and a failing item with and without collect.
func TestForeachEdges(t *testing.T) {
	reg := newRegistry(t, 4)
	s := NewService(reg, NewMemoryStore(0), Options{Timeout: testDeadline})
	plan := func(onError string) string {
		oe := ""
		if onError != "" {
			oe = `, "on_error": "` + onError + `"`
		}
		return `{"params": {"dates": {"type": "array"}},
		 "steps": [{"id": "src", "tool": "gcd_lcm", "args": {"a": 1, "b": 1}},
		  {"id": "d", "tool": "calendar_facts", "foreach": {"$jmes": "params.dates"}` + oe + `,
		   "args": {"date_str": {"$jmes": "join('-', [item.y, pad_left(to_string(item.md[0]), ` + "`2`" + `, '0'), pad_left(to_string(item.md[1]), ` + "`2`" + `, '0')])"}, "locale": {"$item": "/loc"}}}],
		 "output": {"$jmes": "{n: steps.d.facts.count, days: steps.d.facts.items[*].weekday_name, errors: steps.d.facts.errors[*].index}"}}`
	}
	elem := func(y string, m, d int) any {
		return parse(t, fmt.Sprintf(`{"y": %q, "md": [%d, %d], "loc": "en"}`, y, m, d))
	}
	p := register(t, s, plan(""))
	t.Run("empty", func(t *testing.T) {
		run := firstRun(t, runWith(t, s, p, []any{map[string]any{"dates": []any{}}}, false, RunOptions{}))
		if run["output"] == nil {
			t.Fatalf("empty: %v", run)
		}
		out := run["output"].(map[string]any)
		if run["status"] != "completed" || fmt.Sprint(out["n"]) != "0" || len(out["days"].([]any)) != 0 {
			t.Errorf("empty: %v", run)
		}
	})
	t.Run("1000 items", func(t *testing.T) {
		var list []any
		for i := range 1000 {
			list = append(list, elem("2026", 1+i%12, 1+i%28))
		}
		run := firstRun(t, runWith(t, s, p, []any{map[string]any{"dates": list}}, false, RunOptions{IncludeSteps: true}))
		days := run["output"].(map[string]any)["days"].([]any)
		if run["status"] != "completed" || len(days) != 1000 {
			t.Fatalf("1000 items: %v", run["status"])
		}
		// 2026-01-01 is a Thursday; i = 13 is 2026-02-14, a Saturday (Python: date(2026,2,14).weekday() == 5).
		if days[0] != "Thursday" || days[13] != "Saturday" {
			t.Errorf("days[0], days[13] = %v, %v", days[0], days[13])
		}
		if items := run["steps"].([]any)[1].(map[string]any)["items"].([]any); len(items) != 1000 {
			t.Errorf("%d envelopes", len(items))
		}
	})
	t.Run("1001 items", func(t *testing.T) {
		list := make([]any, 1001)
		for i := range list {
			list[i] = elem("2026", 1, 1)
		}
		run := firstRun(t, runWith(t, s, p, []any{map[string]any{"dates": list}}, false, RunOptions{}))
		if e, _ := run["error"].(map[string]any); run["status"] != "failed" || e["reason"] != "foreach_too_many" {
			t.Errorf("1001 items: %v", run)
		}
	})
	bad := []any{elem("2026", 3, 27), elem("2026", 2, 30), elem("2026", 12, 25)}
	t.Run("failing item stops", func(t *testing.T) {
		run := firstRun(t, runWith(t, s, p, []any{map[string]any{"dates": bad}}, false, RunOptions{IncludeSteps: true}))
		e, _ := run["error"].(map[string]any)
		if run["status"] != "failed" || run["run_hash"] != nil || e["step"] != "d" || fmt.Sprint(e["index"]) != "1" || !strings.HasPrefix(e["error"].(string), "item 1: ") {
			t.Fatalf("got %v", run)
		}
		step := run["steps"].([]any)[1].(map[string]any)
		if fmt.Sprint(step["index"]) != "1" || len(step["items"].([]any)) != 1 {
			t.Errorf("failed step: %v", step)
		}
	})
	t.Run("collect", func(t *testing.T) {
		pc := register(t, s, plan("collect"))
		run := firstRun(t, runWith(t, s, pc, []any{map[string]any{"dates": bad}}, false, RunOptions{}))
		out, _ := run["output"].(map[string]any)
		if run["status"] != "completed" || !jsonEqual(out["days"], []any{"Friday", "Friday"}) || !jsonEqual(out["errors"], []any{json.Number("1")}) {
			t.Fatalf("collect: %v", run)
		}
		rec, err := s.GetRun(context.Background(), run["run_hash"].(string))
		if err != nil {
			t.Fatal(err)
		}
		if rc := VerifyRun(parse(t, string(rec)).(map[string]any), toolCatalog(t, reg), nil); len(rc.Problems) > 0 || rc.Envelopes != 3 {
			t.Errorf("verify: %+v", rc)
		}
	})
	t.Run("cost limit", func(t *testing.T) {
		small := NewService(reg, NewMemoryStore(0), Options{Timeout: testDeadline, MaxCalls: 10})
		list := make([]any, 10)
		for i := range list {
			list[i] = elem("2026", 1, 1)
		}
		run := firstRun(t, runWith(t, small, p, []any{map[string]any{"dates": list}}, false, RunOptions{}))
		if e, _ := run["error"].(map[string]any); run["status"] != "failed" || e["error_code"] != tools.CodeCostLimit {
			t.Errorf("10 items + 1 step under 10 calls: %v", run)
		}
		list = list[:9]
		if run := firstRun(t, runWith(t, small, p, []any{map[string]any{"dates": list}}, false, RunOptions{})); run["status"] != "completed" {
			t.Errorf("9 items + 1 step under 10 calls: %v", run)
		}
	})
}

// TestJMESTypeError: a $jmes value of the wrong JSON type is a step error
// naming the step, the argument and the type.
func TestJMESTypeError(t *testing.T) {
	reg := newRegistry(t, 2)
	s := NewService(reg, NewMemoryStore(0), Options{Timeout: testDeadline})
	p := register(t, s, `{"steps": [{"id": "g", "tool": "gcd_lcm", "args": {"a": 4, "b": 6}},
	  {"id": "c", "tool": "calendar_facts", "args": {"date_str": {"$jmes": "steps.g.facts.gcd"}}}]}`)
	run := firstRun(t, runJSON(t, s, p, []any{nil}, false))
	steps := run["steps"].([]any)
	e, _ := steps[len(steps)-1].(map[string]any)["error"].(map[string]any)
	if run["status"] != "failed" || e["error_code"] != tools.CodeInputSchemaInvalid || e["reason"] != "jmes_type" {
		t.Fatalf("got %v", run)
	}
	if msg := e["error"].(string); !strings.Contains(msg, "step c") || !strings.Contains(msg, "/date_str") || !strings.Contains(msg, "gave integer") {
		t.Errorf("message %q", msg)
	}
}

// TestStaticCheckPlans2: what the static check finds in $jmes, $item,
// foreach and output.
func TestStaticCheckPlans2(t *testing.T) {
	reg := newRegistry(t, 1)
	for _, c := range []struct {
		name, plan, keyword, path string
	}{
		{"syntax", `{"steps": [{"id": "a", "tool": "calendar_facts", "args": {"date_str": {"$jmes": "steps.["}}}]}`, KeyJMESSyntax, "/steps/0/args/date_str"},
		{"unknown root", `{"steps": [{"id": "a", "tool": "calendar_facts", "args": {"date_str": {"$jmes": "foo.bar"}}}]}`, KeyJMESName, "/steps/0/args/date_str"},
		{"undeclared param", `{"steps": [{"id": "a", "tool": "calendar_facts", "args": {"date_str": {"$jmes": "params.when"}}}]}`, KeyParamUndeclared, "/steps/0/args/date_str"},
		{"forward step", `{"steps": [{"id": "a", "tool": "calendar_facts", "args": {"date_str": {"$jmes": "steps.b.facts.date"}}}, {"id": "b", "tool": "calendar_facts", "args": {"date_str": "2026-01-01"}}]}`, KeyRefForward, "/steps/0/args/date_str"},
		{"self", `{"steps": [{"id": "a", "tool": "calendar_facts", "args": {"date_str": {"$jmes": "$.steps.a.facts.date"}}}]}`, KeyRefForward, "/steps/0/args/date_str"},
		{"unknown step", `{"steps": [{"id": "a", "tool": "calendar_facts", "args": {"date_str": {"$jmes": "steps.zz.facts.date"}}}]}`, KeyRefUnknownStep, "/steps/0/args/date_str"},
		{"unknown function", `{"steps": [{"id": "a", "tool": "calendar_facts", "args": {"date_str": {"$jmes": "now()"}}}]}`, KeyJMESFunction, "/steps/0/args/date_str"},
		{"item outside foreach", `{"steps": [{"id": "a", "tool": "calendar_facts", "args": {"date_str": {"$item": ""}}}]}`, KeyItemOutside, "/steps/0/args/date_str"},
		{"item name outside foreach", `{"steps": [{"id": "a", "tool": "calendar_facts", "args": {"date_str": {"$jmes": "item"}}}]}`, KeyJMESName, "/steps/0/args/date_str"},
		{"foreach not array", `{"steps": [{"id": "g", "tool": "gcd_lcm", "args": {"a": 1, "b": 2}}, {"id": "a", "tool": "calendar_facts", "foreach": {"$ref": "g/facts/gcd"}, "args": {"date_str": {"$item": ""}}}]}`, KeyTypeMismatch, "/steps/1/foreach"},
		{"foreach self", `{"steps": [{"id": "a", "tool": "calendar_facts", "foreach": {"$ref": "a/facts/items"}, "args": {"date_str": {"$item": ""}}}]}`, KeyRefForward, "/steps/0/foreach"},
		{"foreach item name in source", `{"steps": [{"id": "a", "tool": "calendar_facts", "foreach": {"$jmes": "item"}, "args": {"date_str": {"$item": ""}}}]}`, KeyJMESName, "/steps/0/foreach"},
		{"ref into foreach facts", `{"steps": [{"id": "a", "tool": "calendar_facts", "foreach": {"$jmes": "[]"}, "args": {"date_str": {"$item": ""}}}, {"id": "b", "tool": "calendar_facts", "args": {"date_str": {"$ref": "a/facts/date"}}}]}`, KeyRefPointer, "/steps/1/args/date_str"},
		{"ref into foreach item type", `{"steps": [{"id": "a", "tool": "calendar_facts", "foreach": {"$jmes": "[]"}, "args": {"date_str": {"$item": ""}}}, {"id": "b", "tool": "calendar_facts", "args": {"date_str": {"$ref": "a/facts/items/0/day"}}}]}`, KeyTypeMismatch, "/steps/1/args/date_str"},
		{"output unknown step", `{"steps": [{"id": "a", "tool": "calendar_facts", "args": {"date_str": "2026-01-01"}}], "output": {"$jmes": "steps.b"}}`, KeyRefUnknownStep, "/output"},
		{"output syntax", `{"steps": [{"id": "a", "tool": "calendar_facts", "args": {"date_str": "2026-01-01"}}], "output": {"$jmes": "a[["}}`, KeyJMESSyntax, "/output"},
		{"output shape", `{"steps": [{"id": "a", "tool": "calendar_facts", "args": {"date_str": "2026-01-01"}}], "output": "steps"}`, "shape", "/output"},
		{"as without foreach", `{"steps": [{"id": "a", "tool": "calendar_facts", "as": "x", "args": {"date_str": "2026-01-01"}}]}`, "shape", "/steps/0/as"},
		{"as reserved", `{"steps": [{"id": "a", "tool": "calendar_facts", "foreach": {"$jmes": "[]"}, "as": "steps", "args": {"date_str": "2026-01-01"}}]}`, "shape", "/steps/0/as"},
		{"on_error", `{"steps": [{"id": "a", "tool": "calendar_facts", "foreach": {"$jmes": "[]"}, "on_error": "ignore", "args": {"date_str": "2026-01-01"}}]}`, "shape", "/steps/0/on_error"},
		{"foreach param", `{"params": {"l": {"type": "array"}}, "steps": [{"id": "a", "tool": "calendar_facts", "foreach": {"$param": "l"}, "args": {"date_str": "2026-01-01"}}]}`, "shape", "/steps/0/foreach"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := Decode(parse(t, c.plan))
			if err == nil {
				err = Check(p, reg)
			}
			var te *tools.Error
			if !errors.As(err, &te) || te.Code != CodeInvalidPlan || len(te.Details) == 0 {
				t.Fatalf("got %v, want invalid_plan", err)
			}
			if d := te.Details[0]; d.Keyword != c.keyword || d.Path != c.path {
				t.Errorf("got %s at %s (%s), want %s at %s", d.Keyword, d.Path, d.Message, c.keyword, c.path)
			}
		})
	}
	for _, ok := range []string{datesPlan, weekPlan,
		`{"steps": [{"id": "a", "tool": "calendar_facts", "foreach": {"$jmes": "['2026-01-01']"}, "as": "x", "args": {"date_str": {"$jmes": "x"}}}, {"id": "b", "tool": "calendar_facts", "args": {"date_str": {"$ref": "a/facts/items/0/date"}}}], "output": {"$jmes": "[steps.a.facts.count, steps.b.facts.day, $.steps.a]"}}`,
	} {
		p, err := Decode(parse(t, ok))
		if err == nil {
			err = Check(p, reg)
		}
		if err != nil {
			t.Errorf("a valid plan was refused: %v", err)
		}
	}
}

// TestRunRecordStore: a run record is only served while it recomputes to
// its run_hash, and a read-through cache passes over a corrupted copy.
func TestRunRecordStore(t *testing.T) {
	reg := newRegistry(t, 2)
	backing := NewMemoryStore(0)
	s := NewService(reg, ReadThrough{Cache: NewMemoryStore(0), Backing: backing}, Options{Timeout: testDeadline})
	p := register(t, s, weekPlan)
	run := firstRun(t, runWith(t, s, p, []any{map[string]any{"city": "Asia/Tokyo"}}, false, RunOptions{}))
	h := run["run_hash"].(string)
	rec, err := s.GetRun(context.Background(), h)
	if err != nil {
		t.Fatal(err)
	}
	// Another replica, sharing only the backing store, serves the same record.
	other := NewService(reg, ReadThrough{Cache: NewMemoryStore(0), Backing: backing}, Options{})
	rec2, err := other.GetRun(context.Background(), h)
	if err != nil || string(rec2) != string(rec) {
		t.Fatalf("other replica: %v", err)
	}
	bad := NewMemoryStore(0)
	_ = bad.Put(context.Background(), h, []byte(strings.Replace(string(rec), `"Asia/Tokyo"`, `"Asia/Seoul"`, 1)))
	sb := NewService(reg, bad, Options{})
	var te *tools.Error
	if _, err := sb.GetRun(context.Background(), h); !errors.As(err, &te) || te.Code != CodeUnknownRun {
		t.Errorf("a changed record: got %v, want unknown_run", err)
	}
	if _, err := s.GetRun(context.Background(), strings.Repeat("0", 64)); !errors.As(err, &te) || te.Code != CodeUnknownRun {
		t.Errorf("an unknown hash: got %v", err)
	}
}

func jsonEqual(a, b any) bool {
	x, err1 := evidence.Canonical(a)
	y, err2 := evidence.Canonical(b)
	return err1 == nil && err2 == nil && string(x) == string(y)
}

// toolCatalog is the registry's GET /tools list as generic JSON.
func toolCatalog(t *testing.T, reg *tools.Registry) []any {
	t.Helper()
	b, err := json.Marshal(reg.Catalog().Tools)
	if err != nil {
		t.Fatal(err)
	}
	v, err := evidence.ParseJSON(b)
	if err != nil {
		t.Fatal(err)
	}
	return v.([]any)
}

// TestPlans2HashVectors: plan_id of plans with foreach, $jmes, $item and
// output, and run_hash with foreach entries, as Python computes them
// (testdata/gen_plans2.py).
func TestPlans2HashVectors(t *testing.T) {
	oracle := plans2Oracle(t)
	for i, v := range oracle["plan_ids"].([]any) {
		vec := v.(map[string]any)
		p, err := Decode(vec["plan"])
		if err != nil {
			t.Fatalf("vector %d: %v", i, err)
		}
		if p.ID != vec["plan_id"] {
			t.Errorf("vector %d: plan_id %s, want %s\n%s", i, p.ID, vec["plan_id"], p.Canonical())
		}
	}
	for i, v := range oracle["run_hashes"].([]any) {
		vec := v.(map[string]any)
		got, err := RunHash(vec["plan_id"].(string), vec["params"].(map[string]any), vec["steps"].([]any))
		if err != nil || got != vec["run_hash"] {
			t.Errorf("run_hash vector %d: %s (%v), want %s", i, got, err, vec["run_hash"])
		}
	}
}

// TestForeachResponseBound: a loop whose envelopes outgrow the answer's
// byte limit stops its run (the envelopes are held until the run ends).
func TestForeachResponseBound(t *testing.T) {
	reg := newRegistry(t, 2)
	s := NewService(reg, NewMemoryStore(0), Options{Timeout: testDeadline, MaxResponseBytes: 8000})
	p := register(t, s, `{"steps": [{"id": "d", "tool": "calendar_facts", "foreach": {"$jmes": "`+"`"+`[\"2026-01-01\",\"2026-01-02\",\"2026-01-03\",\"2026-01-04\",\"2026-01-05\",\"2026-01-06\",\"2026-01-07\",\"2026-01-08\",\"2026-01-09\",\"2026-01-10\",\"2026-01-11\",\"2026-01-12\",\"2026-01-13\",\"2026-01-14\",\"2026-01-15\",\"2026-01-16\",\"2026-01-17\",\"2026-01-18\",\"2026-01-19\",\"2026-01-20\"]`+"`"+`"}, "args": {"date_str": {"$item": ""}}}], "output": {"$jmes": "steps.d.facts.count"}}`)
	run := firstRun(t, runWith(t, s, p, []any{nil}, false, RunOptions{}))
	if e, _ := run["error"].(map[string]any); run["status"] != "failed" || e["reason"] != "plan_response_too_large" {
		t.Fatalf("got %v", run)
	}
}
