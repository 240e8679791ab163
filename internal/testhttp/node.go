package testhttp

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// NodePackage returns the node binary for a test that runs a script in dir
// with the npm package pkg installed there (dir/node_modules/pkg, as `npm ci`
// in dir installs it). When either is missing the test fails under CI=true,
// where every prerequisite must be present, and is skipped otherwise.
func NodePackage(t testing.TB, dir, pkg string) string {
	t.Helper()
	node, nodeErr := exec.LookPath("node")
	_, modErr := os.Stat(filepath.Join(dir, "node_modules", filepath.FromSlash(pkg), "package.json"))
	if nodeErr != nil || modErr != nil {
		msg := "node and " + filepath.Join(dir, "node_modules") + " are needed (cd " + dir + " && npm ci)"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return node
}

// PythonWith returns the path of python3 when it can import module, and skips
// the test otherwise (skip names what is missing). Python packages are not
// installed by .ci/run, so a missing one skips even under CI; the tests that
// call this have a checked-in counterpart that always runs.
func PythonWith(t testing.TB, module string) string {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil || exec.Command(py, "-c", "import "+module).Run() != nil {
		t.Skip("python3 with the " + module + " package is not available")
	}
	return py
}
