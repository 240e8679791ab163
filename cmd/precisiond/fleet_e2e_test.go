package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/internal/s3test"
	"github.com/precisiond/precisiond/internal/testhttp"
)

// fleetReplica is one `precisiond serve` process of a fleet.
type fleetReplica struct {
	name string
	base string
	cmd  *exec.Cmd
	logs *syncBuffer
}

// fleetDeadline bounds every wait of the fleet test: generous, because the
// machine may be slow; the test measures and reports the times it sees rather
// than asserting them.
const fleetDeadline = 90 * time.Second

// waitFor polls cond every 50 ms until it holds and returns how long that
// took; it fails the test after fleetDeadline.
func waitFor(t *testing.T, what string, cond func() bool) time.Duration {
	t.Helper()
	start := time.Now()
	for !cond() {
		if time.Since(start) > fleetDeadline {
			t.Fatalf("%s: not within %s", what, fleetDeadline)
		}
		time.Sleep(50 * time.Millisecond)
	}
	return time.Since(start)
}

// get fetches url with optional headers and returns status, headers, body.
func get(t *testing.T, url string, header map[string]string) testhttp.Response {
	t.Helper()
	return testhttp.Do(t, "GET", url, header, nil)
}

// TestFleetOfThreeReplicas runs three `precisiond serve` processes on one
// bucket of a real S3 server (Versity Gateway), each with its own data
// directory, as three pods behind a Service would:
//
//   - a file generated on A downloads byte-identical from B and C (whole, by
//     Range, and revalidated by ETag);
//   - a tool disabled on A is refused by C once C's poll has seen the change
//     (the time is measured and logged; the design bound is the 2 s poll), and
//     A's audit line names A's replica;
//   - a plan registered on A replays on B with the same run_hash;
//   - with A killed, B still serves A's file;
//   - with the S3 server paused, pure tools still answer on B and C, as does
//     a plan B has cached, while generate_file, downloads, uncached plans and
//     registering a plan answer store_unavailable (503) and /health reports
//     the store down.
func TestFleetOfThreeReplicas(t *testing.T) {
	srv := s3test.Start(t)
	store := srv.Location()
	const public = "https://precisiond.example/fleet"
	var awsEnv []string
	for k, v := range srv.Env() {
		awsEnv = append(awsEnv, k+"="+v)
	}
	var replicas []*fleetReplica
	for _, name := range []string{"A", "B", "C"} {
		// Generous deadlines, so that a slow machine (a PDF rendered under
		// -race, a slow S3 answer) never decides an outcome: the store's
		// timeout, not the call's, bounds the first call after the pause.
		base, cmd, logs := startBinaryEnv(t, awsEnv, "--store", store, "--public-base-url", public,
			"--call-timeout", "60s", "--store-timeout", "10s")
		r := &fleetReplica{name: name, base: base, cmd: cmd, logs: logs}
		waitFor(t, name+" ready", func() bool { return get(t, base+"/ready", nil).Status == http.StatusOK })
		h := get(t, base+"/health", nil).JSON(t)
		if st, _ := h["store"].(map[string]any); st["kind"] != "s3" || st["ok"] != true || h["replica"] == "" {
			t.Fatalf("%s /health: %v", name, h)
		}
		replicas = append(replicas, r)
	}
	a, b, c := replicas[0], replicas[1], replicas[2]

	// One signing key for the fleet: the keyring lives in the bucket, so
	// every replica publishes the same key set (issue 21).
	keys := get(t, a.base+"/.well-known/jwks.json", nil)
	if keys.Status != 200 || !bytes.Contains(keys.Body, []byte(`"kid"`)) {
		t.Fatalf("A's key set: %d %s", keys.Status, keys.Body)
	}
	for _, r := range []*fleetReplica{b, c} {
		if other := get(t, r.base+"/.well-known/jwks.json", nil); !bytes.Equal(other.Body, keys.Body) {
			t.Errorf("%s publishes %s, A %s: the replicas sign with different keys", r.name, other.Body, keys.Body)
		}
	}

	// A file generated on A, downloaded from B and C.
	gen := `{"tool":"generate_file","args":{"content":"# Fleet\n\nOne store, three replicas.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n","filename":"fleet report","format":"pdf"}}`
	resp := testhttp.PostJSON(t, a.base+"/invoke", []byte(gen))
	v, err := evidence.ParseJSON(resp.Body)
	if err != nil || resp.Status != 200 {
		t.Fatalf("generate_file on A: %d %s", resp.Status, resp.Body)
	}
	top := v.(map[string]any)
	env, _ := top["structured_result"].(map[string]any)
	if env == nil {
		t.Fatalf("generate_file on A failed: %s", resp.Body)
	}
	facts := env["facts"].(map[string]any)
	name, sum, path := facts["filename"].(string), facts["sha256"].(string), facts["download_path"].(string)
	if path != "/downloads/"+name {
		t.Errorf("download_path %q: the facts must stay relative", path)
	}
	if want := "Download: " + public + "/downloads/" + name; !strings.Contains(fmt.Sprint(top["result"]), want) {
		t.Errorf("legacy text %q lacks the absolute link %q", top["result"], want)
	}
	var whole []byte
	for _, r := range []*fleetReplica{b, c} {
		d := get(t, r.base+path, nil)
		got := sha256.Sum256(d.Body)
		if d.Status != 200 || hex.EncodeToString(got[:]) != sum || d.Header.Get("ETag") != `"`+sum+`"` ||
			d.Header.Get("Content-Type") != "application/pdf" || !strings.HasPrefix(d.Header.Get("Content-Disposition"), "attachment") {
			t.Fatalf("download from %s: %d %v (%d bytes)", r.name, d.Status, d.Header, len(d.Body))
		}
		if whole != nil && !bytes.Equal(whole, d.Body) {
			t.Fatalf("%s served other bytes than B", r.name)
		}
		whole = d.Body
		part := get(t, r.base+path, map[string]string{"Range": "bytes=4-99"})
		if part.Status != http.StatusPartialContent || !bytes.Equal(part.Body, whole[4:100]) {
			t.Errorf("Range from %s: %d, %d bytes", r.name, part.Status, len(part.Body))
		}
		if nm := get(t, r.base+path, map[string]string{"If-None-Match": `"` + sum + `"`}); nm.Status != http.StatusNotModified {
			t.Errorf("If-None-Match on %s: %d", r.name, nm.Status)
		}
	}

	// A toggle on A, enforced by C.
	if status, body := adminDo(t, "PUT", a.base+"/admin/tools/gcd_lcm", `{"enabled":false}`); status != 200 {
		t.Fatalf("disable on A: %d %v", status, body)
	}
	gcd := []byte(`{"tool":"gcd_lcm","args":{"a":12,"b":18}}`)
	took := waitFor(t, "C refuses gcd_lcm disabled on A", func() bool {
		r := testhttp.PostJSON(t, c.base+"/v1/invoke", gcd)
		return r.Status == http.StatusForbidden && bytes.Contains(r.Body, []byte(`"tool_disabled"`))
	})
	t.Logf("a toggle on A took effect on C after %s (poll interval %s)", took.Round(time.Millisecond), toggleWatchInterval)
	audit := ""
	for _, line := range strings.Split(a.logs.String(), "\n") {
		if strings.Contains(line, `"msg":"audit"`) && strings.Contains(line, `"tool":"gcd_lcm"`) {
			audit = line
		}
	}
	aHealth := get(t, a.base+"/health", nil).JSON(t)
	if replica, _ := aHealth["replica"].(string); replica == "" || !strings.Contains(audit, `"replica":"`+replica+`"`) {
		t.Errorf("A's audit line %q does not name A's replica %q", audit, aHealth["replica"])
	}
	if status, body := adminDo(t, "PUT", c.base+"/admin/tools/gcd_lcm", `{"enabled":true}`); status != 200 {
		t.Fatalf("enable on C: %d %v", status, body)
	}
	for _, r := range []*fleetReplica{a, b} {
		waitFor(t, r.name+" answers gcd_lcm enabled on C", func() bool {
			return testhttp.PostJSON(t, r.base+"/v1/invoke", gcd).Status == http.StatusOK
		})
	}

	// A plan registered on A replays on B.
	status, run, _ := postJSON(t, a.base+"/v1/plans/run", `{"plan": `+citiesPlan+`, "params": {"city": "Asia/Tokyo"}}`)
	if status != 200 {
		t.Fatalf("plan run on A: %d %v", status, run)
	}
	id := run["plan_id"].(string)
	hash := run["runs"].([]any)[0].(map[string]any)["run_hash"]
	status, rerun, _ := postJSON(t, b.base+"/v1/plans/"+id+"/run", `{"params": {"city": "Asia/Tokyo"}}`)
	if status != 200 || rerun["runs"].([]any)[0].(map[string]any)["run_hash"] != hash {
		t.Fatalf("plan %s on B: %d %v, want run_hash %v", id, status, rerun, hash)
	}

	// A killed: B still serves A's file.
	if err := a.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_, _ = a.cmd.Process.Wait()
	if d := get(t, b.base+path, nil); d.Status != 200 || !bytes.Equal(d.Body, whole) {
		t.Fatalf("B after A died: %d (%d bytes)", d.Status, len(d.Body))
	}

	// The S3 server paused: pure tools still answer; the store's routes say
	// store_unavailable; /health stays 200 and reports the store down.
	srv.Pause(t) // s3test's cleanup resumes it if the test stops early
	start := time.Now()
	if r := testhttp.PostJSON(t, b.base+"/v1/invoke", gcd); r.Status != 200 {
		t.Errorf("gcd_lcm on B with S3 paused: %d %s", r.Status, r.Body)
	}
	t.Logf("a pure tool on B with S3 paused answered in %s", time.Since(start).Round(time.Millisecond))
	// The first store call after the pause waits for the store's answer up to
	// --store-timeout (10 s here), then the replica knows the store is down;
	// its monitor also finds out by its next check.
	start = time.Now()
	if r := testhttp.PostJSON(t, b.base+"/v1/invoke", []byte(gen)); r.Status != http.StatusServiceUnavailable ||
		!bytes.Contains(r.Body, []byte(`"error_code":"store_unavailable"`)) || r.Header.Get("Retry-After") == "" {
		t.Errorf("generate_file on B with S3 paused: %d %s", r.Status, r.Body)
	}
	t.Logf("generate_file on B with S3 paused answered store_unavailable in %s", time.Since(start).Round(time.Millisecond))
	for _, r := range []*fleetReplica{b, c} {
		took = waitFor(t, r.name+"'s /health reports the store down", func() bool {
			h := get(t, r.base+"/health", nil)
			st, _ := h.JSON(t)["store"].(map[string]any)
			return h.Status == 200 && st["kind"] == "s3" && st["ok"] == false
		})
		t.Logf("%s's /health reported the paused store down %s later", r.name, took.Round(time.Millisecond))
	}
	// Once a replica knows, the store's routes answer at once.
	start = time.Now()
	if d := get(t, c.base+path, nil); d.Status != http.StatusServiceUnavailable || !bytes.Contains(d.Body, []byte(`"store_unavailable"`)) {
		t.Errorf("download from C with S3 paused: %d %s", d.Status, d.Body)
	}
	t.Logf("a download on C with S3 paused (known down) answered 503 in %s", time.Since(start).Round(time.Millisecond))
	start = time.Now()
	if r := testhttp.PostJSON(t, c.base+"/v1/invoke", []byte(gen)); r.Status != http.StatusServiceUnavailable {
		t.Errorf("generate_file on C with S3 paused: %d %s", r.Status, r.Body)
	}
	t.Logf("generate_file on C with S3 paused (known down) answered 503 in %s", time.Since(start).Round(time.Millisecond))
	if r := get(t, b.base+"/ready", nil); r.Status != 200 {
		t.Errorf("/ready on B without --store-required: %d %s", r.Status, r.Body)
	}
	if r := testhttp.PostJSON(t, c.base+"/v1/invoke", []byte(`{"tool":"hash_text","args":{"text":"a"}}`)); r.Status != 200 {
		t.Errorf("hash_text on C with S3 paused: %d %s", r.Status, r.Body)
	}
	// Plans: B replayed the plan before, so its local cache has it; C never
	// saw it, and a new plan cannot be registered for the fleet.
	status, rerun, _ = postJSON(t, b.base+"/v1/plans/"+id+"/run", `{"params": {"city": "Asia/Tokyo"}}`)
	if status != 200 || rerun["runs"].([]any)[0].(map[string]any)["run_hash"] != hash {
		t.Errorf("cached plan on B with S3 paused: %d %v", status, rerun)
	}
	if status, body, _ := postJSON(t, c.base+"/v1/plans/"+id+"/run", `{"params": {"city": "Asia/Tokyo"}}`); status != http.StatusServiceUnavailable || body["error_code"] != "store_unavailable" {
		t.Errorf("uncached plan on C with S3 paused: %d %v", status, body)
	}
	if status, body, _ := postJSON(t, c.base+"/v1/plans/run", `{"plan": `+citiesPlan+`, "params": {"city": "Europe/Paris"}}`); status != http.StatusServiceUnavailable || body["error_code"] != "store_unavailable" {
		t.Errorf("registering a plan on C with S3 paused: %d %v", status, body)
	}

	// The store back: B generates again.
	srv.Resume(t)
	waitFor(t, "B's store back", func() bool {
		st, _ := get(t, b.base+"/health", nil).JSON(t)["store"].(map[string]any)
		return st["ok"] == true
	})
	if r := testhttp.PostJSON(t, b.base+"/v1/invoke", []byte(gen)); r.Status != 200 {
		t.Errorf("generate_file on B after the store came back: %d %s", r.Status, r.Body)
	}
}
