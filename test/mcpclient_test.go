// Package test holds end-to-end tests that drive the real binary with clients
// from outside Go.
package test

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestTypeScriptMCPClient builds precisiond, serves it on loopback and runs
// test/mcp-client/run.mjs: the official TypeScript SDK client over Streamable
// HTTP, SSE and stdio (initialize, every tool listed and called against
// /invoke, bad arguments, unknown tool, resources, prompt), then the compact
// surface over /mcp/compact and stdio (four tools, tools/list at most 8 KiB,
// discover → describe → plan → batch rerun); the client validates every
// structuredContent against the tool's outputSchema with ajv.
//
// Under CI=true a missing node or node_modules is a failure; locally the test
// is skipped when node or `npm ci` in test/mcp-client is missing.
func TestTypeScriptMCPClient(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs the TypeScript client: skipped with -short")
	}
	dir, err := filepath.Abs("mcp-client")
	if err != nil {
		t.Fatal(err)
	}
	node, nodeErr := exec.LookPath("node")
	_, modErr := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk", "package.json"))
	if nodeErr != nil || modErr != nil {
		msg := "node and test/mcp-client/node_modules are needed (cd test/mcp-client && npm ci)"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}

	bin := filepath.Join(t.TempDir(), "precisiond")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/precisiond").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	srv := exec.Command(bin, "serve", "--addr", addr, "--data-dir", t.TempDir(), "--log-level", "warn")
	var srvLog bytes.Buffer
	srv.Stderr = &srvLog
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = srv.Process.Signal(os.Interrupt)
		_ = srv.Wait()
	}()
	base := "http://" + addr
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if resp, err := http.Get(base + "/health"); err == nil {
			resp.Body.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("server did not come up:\n%s", srvLog.String())
		}
	}

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "run.mjs", base, bin)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	t.Logf("node run.mjs:\n%s", out)
	if err != nil {
		t.Fatalf("the TypeScript MCP client failed: %v\nserver log:\n%s", err, srvLog.String())
	}
	if !bytes.Contains(out, []byte(" 0 failed")) {
		t.Fatal("run.mjs did not report its summary")
	}
}
