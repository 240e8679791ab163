package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/internal/attest"
	"github.com/precisiond/precisiond/internal/plandb"
	"github.com/precisiond/precisiond/internal/testhttp"
)

// citiesPlan is the plan of docs/plans.md.
const citiesPlan = `{"description": "Weekday in a city of a wall time in New York",
 "params": {"when": {"type": "string", "default": "2026-03-27T21:30:00"}, "city": {"type": "string"}},
 "steps": [
  {"id": "conv", "tool": "timezone_convert", "args": {"local_datetime": {"$param": "when"}, "from_timezone": "America/New_York", "to_timezone": {"$param": "city"}}},
  {"id": "day", "tool": "time_facts", "args": {"instant": {"$ref": "conv/facts/utc_instant"}, "timezone_name": {"$param": "city"}, "locale": "en"}}]}`

func postJSON(t *testing.T, url, body string) (int, map[string]any, []byte) {
	t.Helper()
	r := testhttp.PostJSON(t, url, []byte(body))
	v, err := evidence.ParseJSON(r.Body)
	if err != nil {
		t.Fatalf("POST %s: %d %s", url, r.Status, r.Body)
	}
	return r.Status, v.(map[string]any), r.Body
}

// TestPlansSurviveRestart: a plan registered with one Main is found by a
// second Main started on the same data directory after the first stopped
// (plans.db), and replays with the same run_hash.
func TestPlansSurviveRestart(t *testing.T) {
	dir := t.TempDir()
	cfg := DefaultConfig()
	cfg.Addr, cfg.DataDir = "127.0.0.1:0", dir
	m1, stop1 := launchMain(t, cfg, newLogger(io.Discard, "error"))
	base := "http://" + m1.Addr()
	status, res, _ := postJSON(t, base+"/v1/plans/run", `{"plan": `+citiesPlan+`, "params": {"city": "Asia/Tokyo"}}`)
	if status != 200 {
		t.Fatalf("run: %d %v", status, res)
	}
	id := res["plan_id"].(string)
	hash := res["runs"].([]any)[0].(map[string]any)["run_hash"]
	stop1()
	if _, err := os.Stat(filepath.Join(dir, plandb.FileName)); err != nil {
		t.Fatalf("no plan database in the data directory: %v", err)
	}

	m2, _ := launchMain(t, cfg, newLogger(io.Discard, "error"))
	status, res, _ = postJSON(t, "http://"+m2.Addr()+"/v1/plans/"+id+"/run", `{"params": {"city": "Asia/Tokyo"}}`)
	if status != 200 {
		t.Fatalf("rerun after restart: %d %v", status, res)
	}
	if got := res["runs"].([]any)[0].(map[string]any)["run_hash"]; got != hash {
		t.Errorf("run_hash after restart %v, before %v", got, hash)
	}
}

// TestBatchDoesNotStarveSingleCalls: while a batch of 1000 runs executes,
// single /v1/invoke calls are still served — every one of them, with no
// queue wait at all (--queue-wait 0: a call that finds no free slot is
// refused at once), because a batch holds at most half the slots.
func TestBatchDoesNotStarveSingleCalls(t *testing.T) {
	base, m := startMain(t, func(c *Config) {
		c.MaxConcurrency = 2
		c.QueueWait = 0
		c.PlanTimeout = 10 * time.Minute // the outcome, not the speed, is under test
	})
	plan := `{"params": {"a": {"type": "integer"}}, "steps": [{"id": "g", "tool": "gcd_lcm", "args": {"a": {"$param": "a"}, "b": 360}}]}`
	sets := make([]string, 1000)
	for i := range sets {
		sets[i] = fmt.Sprintf(`{"a": %d}`, i+1)
	}
	var batchDone atomic.Bool
	var batch map[string]any
	var batchStatus int
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer batchDone.Store(true)
		batchStatus, batch, _ = postJSON(t, base+"/v1/plans/run", `{"plan": `+plan+`, "params_batch": [`+strings.Join(sets, ",")+`]}`)
	}()
	// Wait until the batch executes, then call single tools until it is done.
	for m.Registry.Running() == 0 && !batchDone.Load() {
		time.Sleep(time.Millisecond)
	}
	during, refused := 0, 0
	for i := 0; !batchDone.Load(); i++ {
		r := testhttp.PostJSON(t, base+"/v1/invoke", []byte(fmt.Sprintf(`{"tool": "gcd_lcm", "args": {"a": %d, "b": 12}}`, i+1)))
		if r.Status != http.StatusOK {
			refused++
			t.Errorf("single call during the batch: %d %s", r.Status, r.Body)
			continue
		}
		if !batchDone.Load() {
			during++
		}
	}
	wg.Wait()
	if batchStatus != 200 {
		t.Fatalf("batch: %d %v", batchStatus, batch)
	}
	runs := batch["runs"].([]any)
	for i, r := range runs {
		run := r.(map[string]any)
		facts := run["steps"].([]any)[0].(map[string]any)["structured_result"].(map[string]any)["facts"].(map[string]any)
		if run["status"] != "completed" || fmt.Sprint(facts["a"]) != fmt.Sprint(i+1) {
			t.Fatalf("run %d: %v", i, run)
		}
	}
	if during == 0 {
		t.Error("no single call completed while the batch ran")
	}
	if peak := m.Registry.PeakRunning(); peak > 2 {
		t.Errorf("peak executions %d over --max-concurrency 2", peak)
	}
	t.Logf("%d single calls served during a batch of %d runs, %d refused", during, len(runs), refused)
}

// TestToolsAllowlist: with --tools, only the allowed tools exist on every
// surface: /tools, /health, /v1/catalog, /invoke, MCP tools/list (full and
// compact) and plans.
func TestToolsAllowlist(t *testing.T) {
	base, _ := startMain(t, func(c *Config) { c.Tools = []string{"gcd_lcm", "date_*"} })
	want := []string{"gcd_lcm", "date_diff", "date_add"}
	var names []string
	for _, e := range getJSON(t, base+"/tools")["tools"].([]any) {
		names = append(names, e.(map[string]any)["name"].(string))
	}
	if !slices.Equal(names, want) {
		t.Errorf("/tools %v, want %v", names, want)
	}
	if got := fmt.Sprint(getJSON(t, base+"/health")["tools"]); got != fmt.Sprint(want) {
		t.Errorf("/health tools %s", got)
	}
	cat := string(testhttp.Get(t, base+"/v1/catalog"))
	if strings.Contains(cat, "hash_text") || !strings.Contains(cat, "date_add") {
		t.Errorf("/v1/catalog %s", cat)
	}
	status, body, _ := postJSON(t, base+"/v1/invoke", `{"tool": "hash_text", "args": {"text": "a"}}`)
	if status != 404 || body["error_code"] != "unknown_tool" {
		t.Errorf("hash_text: %d %v", status, body)
	}
	status, body, _ = postJSON(t, base+"/v1/plans", `{"plan": {"steps": [{"id": "h", "tool": "hash_text", "args": {"text": "a"}}]}}`)
	if status != 422 || !strings.Contains(fmt.Sprint(body["details"]), "unknown_tool") {
		t.Errorf("plan with hash_text: %d %v", status, body)
	}
	for _, path := range []string{"/mcp", "/mcp/compact"} {
		cs, err := newClient().Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: base + path, MaxRetries: -1}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if path == "/mcp" {
			got := testhttp.MCPToolNames(t, context.Background(), cs)
			if !slices.Equal(got, want) {
				t.Errorf("/mcp tools/list %v", got)
			}
		} else {
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "list_tools", Arguments: map[string]any{}})
			if err != nil || strings.Contains(testhttp.MCPText(t, res), "hash_text") || !strings.Contains(testhttp.MCPText(t, res), "gcd_lcm") {
				t.Errorf("list_tools: %v %s", err, testhttp.MCPText(t, res))
			}
		}
		cs.Close()
	}
	for _, bad := range [][]string{{"nope_*"}, {"gcd_lcm", "[x"}} {
		cfg := DefaultConfig()
		cfg.DataDir, cfg.Tools = "", bad
		if _, err := NewMain(cfg, newLogger(io.Discard, "error")); err == nil || !strings.Contains(err.Error(), "--tools") {
			t.Errorf("--tools %v: %v", bad, err)
		}
	}
}

// TestVerifyPlanRun: `precisiond verify` accepts a real plan run (one run
// failed) and refuses it once a fact, a run_hash or the params are altered.
func TestVerifyPlanRun(t *testing.T) {
	base, _ := startMain(t, nil)
	status, _, raw := postJSON(t, base+"/v1/plans/run", `{"plan": `+citiesPlan+`, "params_batch": [{"city": "Asia/Tokyo"}, {"city": "Mars/Base"}, {"city": "Europe/Rome"}]}`)
	if status != 200 {
		t.Fatalf("%d %s", status, raw)
	}
	verify := func(input []byte, args ...string) (int, string) {
		return runVerify(input, args...)
	}
	if code, out := verify(raw); code != 0 || !strings.Contains(out, "OK: plan") || !strings.Contains(out, "3 runs (2 completed, 1 failed), 4 step envelopes and 2 run hashes verified") {
		t.Fatalf("verify: %d %s", code, out)
	}
	// With --jwks every step's and every completed run's attestation is checked.
	kid := fetchKeySet(t, base).Keys()[0].KID
	if code, out := verify(raw, "--jwks", base); code != 0 || !strings.Contains(out, "run hashes verified signed by kid "+kid) {
		t.Fatalf("verify --jwks: %d %s", code, out)
	}
	_, runJWS, _ := strings.Cut(string(raw), `"attestation":"`)
	runJWS, _, _ = strings.Cut(runJWS, `"`)
	stranger, err := attest.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	for name, bad := range map[string]string{
		"a step's attestation on the run": strings.Replace(string(raw), `"attestation":"`+runJWS, `"attestation":"`+stepAttestation(t, raw), 1),
		"no attestation":                  strings.Replace(string(raw), `"attestation":"`+runJWS+`",`, ``, 1),
		"signed by an unpublished key":    strings.Replace(string(raw), runJWS, mustSignPlanRun(t, stranger, raw), 1),
	} {
		if bad == string(raw) {
			t.Fatalf("%s: nothing tampered", name)
		}
		if code, out := verify([]byte(bad), "--jwks", base); code != 1 || !strings.Contains(out, "FAIL") {
			t.Errorf("%s: exit %d %s", name, code, out)
		}
	}
	for name, tamper := range map[string][2]string{
		"fact":     {`"weekday_name":"Saturday"`, `"weekday_name":"Sunday"`},
		"run_hash": {`"run_hash":"`, `"run_hash":"0`},
		"params":   {`"city":"Europe/Rome"`, `"city":"Europe/Paris"`},
		"status":   {`"status":"failed"`, `"status":"completed"`},
	} {
		bad := strings.Replace(string(raw), tamper[0], tamper[1], 1)
		if bad == string(raw) {
			t.Fatalf("%s: nothing to tamper with", name)
		}
		if code, out := verify([]byte(bad)); code != 1 || !strings.Contains(out, "FAIL") {
			t.Errorf("tampered %s: exit %d %s", name, code, out)
		}
	}
}

// TestMCPStdioCompact: `precisiond mcp --surface compact` serves the four
// tools over stdio, keeps its plans in the data directory, and a plan run
// there replays over REST of a server on the same directory.
func TestMCPStdioCompact(t *testing.T) {
	bin := buildBinary(t)
	dir := t.TempDir()
	cmd := exec.Command(bin, "mcp", "--surface", "compact", "--data-dir", dir, "--log-level", "warn")
	var stderr syncBuffer
	cmd.Stderr = &stderr
	cs, err := newClient().Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	names := testhttp.MCPToolNames(t, context.Background(), cs)
	slices.Sort(names)
	if !slices.Equal(names, []string{"describe_tools", "list_tools", "rerun_plan", "run_plan"}) {
		t.Fatalf("tools %v", names)
	}
	plan, _ := evidence.ParseJSON([]byte(citiesPlan))
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "run_plan", Arguments: map[string]any{"plan": plan, "params": map[string]any{"city": "Asia/Tokyo"}}})
	if err != nil || res.IsError {
		t.Fatalf("run_plan: %v %s", err, testhttp.MCPText(t, res))
	}
	v, _ := evidence.ParseJSON([]byte(testhttp.MCPText(t, res)))
	id := v.(map[string]any)["plan_id"].(string)
	if err := cs.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != 0 {
		t.Fatalf("exit %v\n%s", cmd.ProcessState, stderr.String())
	}
	base, _ := startMain(t, func(c *Config) { c.DataDir = dir })
	status, body, _ := postJSON(t, base+"/v1/plans/"+id+"/run", `{"params": {"city": "Europe/Berlin"}}`)
	if status != 200 || body["runs"].([]any)[0].(map[string]any)["status"] != "completed" {
		t.Errorf("rerun over REST: %d %v", status, body)
	}
}

// weekPlanProjected is the second task of issue 35 (docs/plans.md): a
// Berlin wall time in a city and the ISO week of that day, projected.
const weekPlanProjected = `{"params": {"when": {"type": "string", "default": "2026-12-24T18:00:00"}, "city": {"type": "string"}},
 "steps": [{"id": "conv", "tool": "timezone_convert", "args": {"local_datetime": {"$param": "when"}, "from_timezone": "Europe/Berlin", "to_timezone": {"$param": "city"}}},
  {"id": "cal", "tool": "calendar_facts", "foreach": {"$jmes": "[substr(steps.conv.facts.target_datetime, ` + "`0`, `10`" + `)]"}, "args": {"date_str": {"$item": ""}, "locale": "en"}}],
 "output": {"$jmes": "{local: steps.conv.facts.target_datetime, iso_week: steps.cal.facts.items[0].iso_week}"}}`

// TestVerifyProjectedRun: a projected run's record, read back from the real
// service (SQLite store) by GET /v1/runs/{run_hash}, passes `precisiond
// verify` with its envelopes, run_hash, attestations and re-evaluated
// output; a changed output fails it.
func TestVerifyProjectedRun(t *testing.T) {
	base, _ := startMain(t, nil)
	status, _, raw := postJSON(t, base+"/v1/plans/run", `{"plan": `+weekPlanProjected+`, "params": {"city": "Asia/Tokyo"}}`)
	if status != 200 {
		t.Fatalf("%d %s", status, raw)
	}
	_, after, _ := strings.Cut(string(raw), `"run_hash":"`)
	runHash, _, _ := strings.Cut(after, `"`)
	if !strings.Contains(string(raw), `"output":{"iso_week":52,"local":"2026-12-25T02:00:00+09:00"}`) { // Python: zoneinfo, isocalendar
		t.Fatalf("answer %s", raw)
	}
	if code, out := runVerify(raw); code == 0 || !strings.Contains(out, "GET /v1/runs/"+runHash) {
		t.Errorf("verify of the projected answer alone: %d %s", code, out)
	}
	resp, err := http.Get(base + "/v1/runs/" + runHash)
	if err != nil {
		t.Fatal(err)
	}
	rec, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("GET /v1/runs: %d %s", resp.StatusCode, rec)
	}
	if code, out := runVerify(rec, "--jwks", base); code != 0 || !strings.Contains(out, "1 runs (1 completed, 0 failed), 2 step envelopes and 1 run hashes verified, 1 output projections re-evaluated") {
		t.Fatalf("verify the record: %d %s", code, out)
	}
	bad := strings.Replace(string(rec), `"iso_week":52,"local"`, `"iso_week":53,"local"`, 1)
	if bad == string(rec) {
		t.Fatal("nothing tampered")
	}
	if code, out := runVerify([]byte(bad)); code != 1 || !strings.Contains(out, "is not the projection") {
		t.Errorf("verify a changed output: %d %s", code, out)
	}
}
