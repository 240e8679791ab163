// Package test holds end-to-end tests that drive the real binary with clients
// from outside Go.
package test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/precisiond/precisiond/internal/oauthtest"
	"github.com/precisiond/precisiond/internal/testhttp"
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
	node, dir := nodeClient(t)
	base, bin, srvLog := serveBinary(t)
	runNode(t, node, dir, srvLog, "run.mjs", base, bin)
}

// TestTypeScriptMCPClientWithTokens runs test/mcp-client/auth.mjs against a
// server with API tokens: the official client with a bearer token over /mcp
// and /mcp/sse, 401 without one, scopes, per-token resources and a signed
// download link fetched without a header.
func TestTypeScriptMCPClientWithTokens(t *testing.T) {
	node, dir := nodeClient(t)
	const alice, bob = "pdt_alice-test-token", "pdt_bob-test-token"
	hash := func(s string) string { h := sha256.Sum256([]byte(s)); return hex.EncodeToString(h[:]) }
	tokens := filepath.Join(t.TempDir(), "tokens.json")
	doc := `{"tokens":[{"name":"alice","sha256":"` + hash(alice) + `"},{"name":"bob","sha256":"` + hash(bob) + `","tools":["gcd_*"]}]}`
	if err := os.WriteFile(tokens, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	base, _, srvLog := serveBinary(t, "--api-tokens", tokens)
	runNode(t, node, dir, srvLog, "auth.mjs", base, alice, bob)
}

// TestTypeScriptMCPClientOAuth runs test/mcp-client/oauth.mjs: the official
// client's own OAuth support (an OAuthClientProvider on the Streamable HTTP
// transport: authorization code with PKCE) gets a token from a real OpenID
// provider, the zitadel example server, and calls a tool on /mcp with it.
// The script asserts the chain the SDK follows request by request (401 →
// Protected Resource Metadata → the provider's metadata → authorize → token
// → /mcp) and that the same tools/call without a token, or with a wrong
// one, is refused with 401. Skipped, or failing under CI=true, without node
// and node_modules or without the provider (oauthtest.Binary).
//
// The settings are the ones docs/oauth.md gives for a hosted client:
// --public-base-url (the URL the client reaches; here a reverse proxy in
// front of the loopback listener, as an ingress would be, so that the URL
// is known before precisiond starts), --oauth-issuer, --oauth-client-file
// (the example server introspects a token only for a client in its
// audience, which is the client that got it, so the hosted client and
// precisiond's introspection client are both "api") and
// --oauth-default-scopes precisiond:tools (the example server drops scopes
// it does not know, so its tokens carry no precisiond scope; without the
// setting every call is 403 insufficient_scope).
func TestTypeScriptMCPClientOAuth(t *testing.T) {
	node, dir := nodeClient(t)
	p := oauthtest.Start(t)
	clientFile := filepath.Join(t.TempDir(), "oauth-client.json")
	b, _ := json.Marshal(map[string]string{"client_id": oauthtest.ClientID, "client_secret": oauthtest.ClientSecret})
	if err := os.WriteFile(clientFile, b, 0o600); err != nil {
		t.Fatal(err)
	}
	front := httptest.NewUnstartedServer(nil) // its listener, and so its URL, exist already
	public := "http://" + front.Listener.Addr().String()
	base, _, srvLog := serveBinary(t, "--public-base-url", public, "--oauth-issuer", p.Issuer,
		"--oauth-client-file", clientFile, "--oauth-default-scopes", "precisiond:tools")
	target, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(target)
	proxy.FlushInterval = -1 // event streams pass as they are written
	front.Config.Handler = proxy
	front.Start()
	t.Cleanup(front.Close)
	runNode(t, node, dir, srvLog, "oauth.mjs", public, p.Issuer, oauthtest.RedirectURI,
		oauthtest.ClientID, oauthtest.ClientSecret, oauthtest.Username, oauthtest.Password)
}

// nodeClient finds node and test/mcp-client with its node_modules.
func nodeClient(t *testing.T) (node, dir string) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary and runs the TypeScript client: skipped with -short")
	}
	dir, err := filepath.Abs("mcp-client")
	if err != nil {
		t.Fatal(err)
	}
	return testhttp.NodePackage(t, dir, "@modelcontextprotocol/sdk"), dir
}

// serveBinary builds precisiond, serves it on a free loopback port with
// extra flags until the test ends, and returns its base URL, the binary and
// its log (read it only once the test is failing).
func serveBinary(t *testing.T, extra ...string) (base, bin string, srvLog *testhttp.SyncBuffer) {
	t.Helper()
	bin = filepath.Join(t.TempDir(), "precisiond")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/precisiond").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	args := append([]string{"serve", "--addr", "127.0.0.1:0", "--data-dir", t.TempDir()}, extra...)
	srv := exec.Command(bin, args...)
	srvLog = &testhttp.SyncBuffer{}
	srv.Stderr = srvLog
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = srv.Process.Signal(os.Interrupt)
		_ = srv.Wait()
	})
	base = "http://" + testhttp.ListenAddr(t, srvLog)
	testhttp.WaitUp(t, base, srvLog)
	return base, bin, srvLog
}

// runNode runs a client script in dir and fails unless it reports 0 failures.
func runNode(t *testing.T, node, dir string, srvLog *testhttp.SyncBuffer, script string, args ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, append([]string{script}, args...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	t.Logf("node %s:\n%s", script, out)
	if err != nil {
		t.Fatalf("the TypeScript MCP client failed: %v\nserver log:\n%s", err, srvLog.String())
	}
	if !bytes.Contains(out, []byte(" 0 failed")) {
		t.Fatalf("%s did not report its summary", script)
	}
}

// TestTypeScriptMCPProgressAndAbort runs test/mcp-client/progress.mjs: the
// official client calls a long plan batch with onprogress, gets progress,
// aborts the call with an AbortSignal and sees the server's running
// executions (GET /metrics) fall to 0. The deadlines are far beyond the
// abort: the batch would run for minutes.
func TestTypeScriptMCPProgressAndAbort(t *testing.T) {
	node, dir := nodeClient(t)
	base, _, srvLog := serveBinary(t, "--call-timeout", "5m", "--plan-timeout", "30m", "--plan-max-calls", "1000")
	runNode(t, node, dir, srvLog, "progress.mjs", base)
}
