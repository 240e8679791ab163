package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/precisiond/precisiond/internal/access"
	"github.com/precisiond/precisiond/internal/testhttp"
)

// browserTest is what a headless-Chromium test needs: the test/admin-ui
// directory (playwright-core), node, the browser and test-output/. In CI
// (CI=true) a missing browser or missing node_modules is a failure; locally
// the test skips then.
type browserTest struct {
	uiDir, node, chromium, outDir string
}

func newBrowserTest(t *testing.T) browserTest {
	t.Helper()
	if testing.Short() {
		t.Skip("drives headless Chromium: skipped with -short")
	}
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..")
	b := browserTest{uiDir: filepath.Join(root, "test", "admin-ui"), chromium: "/usr/bin/chromium", outDir: filepath.Join(root, "test-output")}
	var missing []string
	if _, err := os.Stat(b.chromium); err != nil {
		missing = append(missing, b.chromium)
	}
	if _, err := os.Stat(filepath.Join(b.uiDir, "node_modules", "playwright-core")); err != nil {
		missing = append(missing, "test/admin-ui/node_modules (run npm ci there)")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		missing = append(missing, "node")
	}
	b.node = node
	if len(missing) > 0 {
		if os.Getenv("CI") == "true" {
			t.Fatalf("browser test prerequisites missing in CI: %s", strings.Join(missing, ", "))
		}
		t.Skipf("browser test prerequisites missing: %s", strings.Join(missing, ", "))
	}
	if err := os.MkdirAll(b.outDir, 0o755); err != nil {
		t.Fatal(err)
	}
	return b
}

// run runs script in test/admin-ui with env added and returns its output;
// the test fails unless it exits 0 and prints ok, and the screenshot exists.
func (b browserTest) run(t *testing.T, script, ok, shot string, env ...string) {
	t.Helper()
	os.Remove(shot)
	cmd := exec.Command(b.node, script)
	cmd.Dir = b.uiDir
	cmd.Env = append(append(os.Environ(), "SCREENSHOT="+shot, "USER_DATA_DIR="+t.TempDir(), "CHROMIUM="+b.chromium), env...)
	out, err := cmd.CombinedOutput()
	t.Logf("browser:\n%s", out)
	if err != nil || !strings.Contains(string(out), ok) {
		t.Fatalf("browser test %s failed: %v", script, err)
	}
	if st, err := os.Stat(shot); err != nil || st.Size() < 10000 {
		t.Fatalf("screenshot missing or empty: %v", err)
	}
}

// TestAdminUIInChromium drives /admin of the real binary in headless Chromium
// (test/admin-ui, playwright-core): sign in with the token, disable and
// re-enable a tool (checked against /tools), "try it" for two tools with a
// verified badge, and a screenshot in test-output/. The server runs with API
// tokens: the page's calls to /tools and /invoke carry the admin token, which
// the tool routes admit.
func TestAdminUIInChromium(t *testing.T) {
	b := newBrowserTest(t)
	tokens := writeTokensFile(t, `{"tokens":[{"name":"other","sha256":"`+access.Hash("other")+`"}]}`)
	base, _, logs := startBinary(t, "--api-tokens", tokens)
	if r := testhttp.Do(t, "GET", base+"/tools", nil, nil); r.Status != 401 {
		t.Fatalf("/tools without a token: %d", r.Status)
	}
	b.run(t, "admin.test.mjs", "ADMIN-UI OK", filepath.Join(b.outDir, "admin-ui.png"), "PRECISIOND_URL="+base, "ADMIN_TOKEN="+opsToken)
	// The page's changes went through the audited admin API.
	if n := strings.Count(logs.String(), `"msg":"audit"`); n != 2 {
		t.Fatalf("%d audit lines for the two toggles, want 2:\n%s", n, logs.String())
	}
}

// TestDocsInChromium drives / and /docs of the real binary in headless
// Chromium (test/admin-ui/docs.test.mjs): the start page's links, Swagger UI
// rendering /openapi.json under its Content-Security-Policy with no violation
// and no request to another origin, POST /v1/invoke expanded, tried out with
// a gcd_lcm call whose real answer (the result_hash of a direct call) shows on
// the page, and a misspelt tool's hint; a screenshot in test-output/.
func TestDocsInChromium(t *testing.T) {
	b := newBrowserTest(t)
	base, _, logs := startBinary(t)
	b.run(t, "docs.test.mjs", "DOCS-UI OK", filepath.Join(b.outDir, "docs-ui.png"), "PRECISIOND_URL="+base)
	if !strings.Contains(logs.String(), `"path":"/v1/invoke"`) {
		t.Errorf("the call from /docs did not reach the server:\n%s", logs.String())
	}
}
