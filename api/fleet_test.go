package api

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/precisiond/precisiond/internal/blob"
	"github.com/precisiond/precisiond/internal/filestore"
	"github.com/precisiond/precisiond/internal/testhttp"
	"github.com/precisiond/precisiond/mcpserver"
	"github.com/precisiond/precisiond/tools"
)

// unreachableStore is a download store in an S3 bucket whose server does not
// listen (connections are refused: a real network failure, no mock), behind a
// Monitor that has checked it once.
func unreachableStore(t *testing.T) (*filestore.Store, *blob.Monitor) {
	t.Helper()
	env := map[string]string{"AWS_ENDPOINT_URL": "http://" + testhttp.RefusedAddr(t), "AWS_ACCESS_KEY_ID": "a", "AWS_SECRET_ACCESS_KEY": "b"}
	b, err := blob.Open(blob.Location{Kind: "s3", Bucket: "fleet"}, blob.Options{
		Getenv:   func(k string) string { return env[k] },
		Timeouts: blob.Timeouts{Op: time.Second, Dial: time.Second, IO: time.Second},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close() })
	mon := blob.NewMonitor(b, blob.MonitorOptions{})
	if h := mon.Check(context.Background()); h.OK {
		t.Fatalf("a store nobody serves answered: %+v", h)
	}
	return filestore.New(mon, filestore.Config{Prefix: filestore.Prefix}), mon
}

// TestStoreUnavailableSurfaces: with the store down, pure tools keep
// answering; generate_file answers store_unavailable (503 with Retry-After on
// /v1/invoke, the legacy 200 body on /invoke), so do downloads (503) and the
// MCP resources (a JSON-RPC error naming store_unavailable); /health stays
// 200 and reports the store; /ready fails only when the wiring says the store
// is required.
func TestStoreUnavailableSurfaces(t *testing.T) {
	files, mon := unreachableStore(t)
	reg := tools.NewRegistry(tools.Builtin(tools.Deps{Files: files}), tools.Options{})
	required := false
	srv := New(reg, Options{Downloads: files, Store: mon, Replica: "host-a/1234", MCP: &mcpserver.Options{Files: files},
		Ready: func() string {
			if required && !mon.Health().OK {
				return "store_unavailable"
			}
			return ""
		}})
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)

	health := testhttp.Do(t, "GET", ts.URL+"/health", nil, nil)
	hb := health.JSON(t)
	st, _ := hb["store"].(map[string]any)
	if health.Status != 200 || hb["status"] != "ok" || st["kind"] != "s3" || st["ok"] != false || st["reason"] != "store_unavailable" || hb["replica"] != "host-a/1234" {
		t.Errorf("/health: %d %v", health.Status, hb)
	}
	if r := testhttp.Do(t, "GET", ts.URL+"/ready", nil, nil); r.Status != 200 || r.JSON(t)["status"] != "ready" {
		t.Errorf("/ready with the store not required: %d %s", r.Status, r.Body)
	}
	required = true
	r := testhttp.Do(t, "GET", ts.URL+"/ready", nil, nil)
	if rb := r.JSON(t); r.Status != 503 || rb["status"] != "not_ready" || rb["reason"] != "store_unavailable" {
		t.Errorf("/ready with the store required: %d %s", r.Status, r.Body)
	}

	gen := []byte(`{"tool":"generate_file","args":{"content":"# x","filename":"x","format":"md"}}`)
	v1 := testhttp.PostJSON(t, ts.URL+"/v1/invoke", gen)
	if b := v1.JSON(t); v1.Status != 503 || v1.Header.Get("Retry-After") != "1" || b["error_code"] != "store_unavailable" || b["reason"] != "not_answering" {
		t.Errorf("/v1/invoke generate_file: %d %v %s", v1.Status, v1.Header, v1.Body)
	}
	legacy := testhttp.PostJSON(t, ts.URL+"/invoke", gen)
	if b := legacy.JSON(t); legacy.Status != 200 || b["error_code"] != "store_unavailable" || b["tool"] != "generate_file" {
		t.Errorf("/invoke generate_file: %d %s", legacy.Status, legacy.Body)
	}
	pure := testhttp.PostJSON(t, ts.URL+"/v1/invoke", []byte(`{"tool":"gcd_lcm","args":{"a":4,"b":6}}`))
	if pure.Status != 200 || !bytes.Contains(pure.Body, []byte(`"gcd":2`)) {
		t.Errorf("a pure tool with the store down: %d %s", pure.Status, pure.Body)
	}

	dl := testhttp.Do(t, "GET", ts.URL+"/downloads/0123456789ab_x.md", nil, nil)
	if b := dl.JSON(t); dl.Status != 503 || b["error_code"] != "store_unavailable" || dl.Header.Get("Retry-After") != "1" {
		t.Errorf("download: %d %s", dl.Status, dl.Body)
	}
	for _, req := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"resources/list"}`,
		`{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"precisiond://downloads/0123456789ab_x.md"}}`,
	} {
		b := postMCP(t, ts.URL+"/mcp", nil, []byte(req))
		if !bytes.Contains(b, []byte(`"code":-32603`)) || !bytes.Contains(b, []byte(`store_unavailable`)) {
			t.Errorf("%s: %s", req, b)
		}
	}
}

// TestReadyAndHealthWithAWorkingStore: a directory store that answers shows
// as {"kind":"file","ok":true}; draining fails both probes.
func TestReadyAndHealthWithAWorkingStore(t *testing.T) {
	b, err := blob.OpenDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	mon := blob.NewMonitor(b, blob.MonitorOptions{})
	mon.Check(context.Background())
	srv := New(builtinRegistry(), Options{Store: mon})
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	hb := testhttp.Do(t, "GET", ts.URL+"/health", nil, nil).JSON(t)
	if st, _ := hb["store"].(map[string]any); st["kind"] != "file" || st["ok"] != true || st["reason"] != nil {
		t.Errorf("/health store: %v", hb["store"])
	}
	srv.Drain()
	r := testhttp.Do(t, "GET", ts.URL+"/ready", nil, nil)
	if r.Status != http.StatusServiceUnavailable || !strings.Contains(string(r.Body), `"reason":"shutting_down"`) {
		t.Errorf("/ready while draining: %d %s", r.Status, r.Body)
	}
}

// TestMCPLinksWithPublicBaseURL: with a public base URL, the MCP resource
// listing and a generate_file call's resource link point at the absolute
// download URL; the facts keep the relative download_path.
func TestMCPLinksWithPublicBaseURL(t *testing.T) {
	files, err := filestore.Open(filestore.Config{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	link := func(name string) string { return "https://precisiond.example/p/downloads/" + name }
	reg := tools.NewRegistry(tools.Builtin(tools.Deps{Files: files, DownloadURL: link}), tools.Options{})
	ts := httptest.NewServer(New(reg, Options{Downloads: files, MCP: &mcpserver.Options{Files: files, DownloadURL: link}}))
	t.Cleanup(ts.Close)
	call := postMCP(t, ts.URL+"/mcp", nil, []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"generate_file","arguments":{"content":"# x","filename":"x","format":"md"}}}`))
	e, err := files.Put(context.Background(), "x", "md", []byte("# x"))
	if err != nil {
		t.Fatal(err)
	}
	want := "also at https://precisiond.example/p/downloads/" + e.Name
	if !bytes.Contains(call, []byte(want)) || !bytes.Contains(call, []byte(`"download_path":"/downloads/`+e.Name+`"`)) {
		t.Errorf("tools/call: %s lacks %q or the relative download_path", call, want)
	}
	list := postMCP(t, ts.URL+"/mcp", nil, []byte(`{"jsonrpc":"2.0","id":2,"method":"resources/list"}`))
	if !bytes.Contains(list, []byte(want)) {
		t.Errorf("resources/list: %s lacks %q", list, want)
	}
}

// TestStoreUpGauge: precisiond_store_up{kind} follows the store's state.
func TestStoreUpGauge(t *testing.T) {
	_, down := unreachableStore(t)
	b, err := blob.OpenDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	up := blob.NewMonitor(b, blob.MonitorOptions{})
	up.Check(context.Background())
	for _, c := range []struct {
		mon  *blob.Monitor
		want string
	}{{down, `precisiond_store_up{kind="s3"} 0`}, {up, `precisiond_store_up{kind="file"} 1`}} {
		reg := builtinRegistry()
		ts := httptest.NewServer(New(reg, Options{Metrics: NewMetrics(MetricsOptions{Store: c.mon})}))
		body := testhttp.Do(t, "GET", ts.URL+"/metrics", nil, nil).Body
		ts.Close()
		if !bytes.Contains(body, []byte("\n"+c.want+"\n")) {
			t.Errorf("/metrics lacks %s", c.want)
		}
	}
}
