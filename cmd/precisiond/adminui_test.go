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

// TestAdminUIInChromium drives /admin of the real binary in headless Chromium
// (test/admin-ui, playwright-core): sign in with the token, disable and
// re-enable a tool (checked against /tools), "try it" for two tools with a
// verified badge, and a screenshot in test-output/; the server runs with API
// tokens, so the page works with them on. In CI (CI=true) a missing
// browser or missing node_modules is a failure; locally the test skips then.
func TestAdminUIInChromium(t *testing.T) {
	node, uiDir, chromium := browserPrereqs(t)
	root := filepath.Join(uiDir, "..", "..")
	// With API tokens on: the page's calls to /tools and /invoke carry the
	// admin token, which the tool routes admit.
	tokens := writeTokensFile(t, `{"tokens":[{"name":"other","sha256":"`+access.Hash("other")+`"}]}`)
	base, _, logs := startBinary(t, "--api-tokens", tokens)
	if r := testhttp.Do(t, "GET", base+"/tools", nil, nil); r.Status != 401 {
		t.Fatalf("/tools without a token: %d", r.Status)
	}
	outDir := filepath.Join(root, "test-output")
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		t.Fatal(err)
	}
	shot := filepath.Join(outDir, "admin-ui.png")
	os.Remove(shot)
	cmd := exec.Command(node, "admin.test.mjs")
	cmd.Dir = uiDir
	cmd.Env = append(os.Environ(),
		"PRECISIOND_URL="+base,
		"ADMIN_TOKEN="+opsToken,
		"SCREENSHOT="+shot,
		"USER_DATA_DIR="+t.TempDir(),
		"CHROMIUM="+chromium,
	)
	out, err := cmd.CombinedOutput()
	t.Logf("browser:\n%s", out)
	if err != nil || !strings.Contains(string(out), "ADMIN-UI OK") {
		t.Fatalf("browser test failed: %v\nserver log:\n%s", err, logs.String())
	}
	if st, err := os.Stat(shot); err != nil || st.Size() < 10000 {
		t.Fatalf("screenshot missing or empty: %v", err)
	}
	// The page's changes went through the audited admin API.
	if n := strings.Count(logs.String(), `"msg":"audit"`); n != 2 {
		t.Fatalf("%d audit lines for the two toggles, want 2:\n%s", n, logs.String())
	}
}

// browserPrereqs finds node, test/admin-ui (with playwright-core installed)
// and Chromium. In CI (CI=true) a missing one is a failure; locally the test
// skips then, as it does with -short.
func browserPrereqs(t *testing.T) (node, uiDir, chromium string) {
	t.Helper()
	if testing.Short() {
		t.Skip("drives headless Chromium: skipped with -short")
	}
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..")
	uiDir = filepath.Join(root, "test", "admin-ui")
	chromium = "/usr/bin/chromium"
	var missing []string
	if _, err := os.Stat(chromium); err != nil {
		missing = append(missing, chromium)
	}
	if _, err := os.Stat(filepath.Join(uiDir, "node_modules", "playwright-core")); err != nil {
		missing = append(missing, "test/admin-ui/node_modules (run npm ci there)")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		missing = append(missing, "node")
	}
	if len(missing) > 0 {
		if os.Getenv("CI") == "true" {
			t.Fatalf("browser test prerequisites missing in CI: %s", strings.Join(missing, ", "))
		}
		t.Skipf("browser test prerequisites missing: %s", strings.Join(missing, ", "))
	}
	return node, uiDir, chromium
}
