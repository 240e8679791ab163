package attest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/precisiond/precisiond/internal/testhttp"
)

// joseDir is the npm project whose verify.mjs checks attestations with jose.
var joseDir = filepath.Join("..", "..", "test", "jose")

// runCLIVerifier writes every case of v (key sets and answers) to files and
// runs `argv... JWKS_FILE ANSWER_FILE...` in dir once per key set, the command
// line of docs/attestation.md; it fails the test unless the verifier reports
// each case's expected outcome (and, for "ok", the expected kid).
func runCLIVerifier(t *testing.T, dir string, argv ...string) {
	t.Helper()
	v := buildGoVectors(t, time.Now())
	tmp := t.TempDir()
	groups := map[string][]string{}
	byFile := map[string]crossCase{}
	for i, c := range v.Cases {
		file := filepath.Join(tmp, fmt.Sprintf("answer-%02d.json", i))
		if err := os.WriteFile(file, mustJSON(t, c.Answer), 0o644); err != nil {
			t.Fatal(err)
		}
		groups[c.JWKS] = append(groups[c.JWKS], file)
		byFile[file] = c
	}
	seen := 0
	for name, files := range groups {
		jwks := filepath.Join(tmp, name+"-jwks.json")
		if err := os.WriteFile(jwks, v.JWKS[name], 0o644); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		cmd := exec.CommandContext(ctx, argv[0], append(append(argv[1:], jwks), files...)...)
		cmd.Dir = dir
		out, err := cmd.Output()
		cancel()
		var exit *exec.ExitError
		if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) {
			t.Fatalf("%s: %v\n%s%s", strings.Join(argv, " "), err, out, stderrOf(err))
		}
		t.Logf("%s %s-jwks.json …:\n%s", strings.Join(argv, " "), name, out)
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			status, rest, _ := strings.Cut(line, " ")
			file, detail, _ := strings.Cut(rest, " ")
			c, ok := byFile[file]
			if !ok {
				t.Fatalf("unexpected output line %q", line)
			}
			seen++
			switch {
			case status == "OK" && c.Expect == "ok":
				if !strings.HasPrefix(detail, "kid="+c.KID+" ") {
					t.Errorf("%s: %s, want kid %s", c.Name, detail, c.KID)
				}
			case status == "FAIL" && strings.HasPrefix(detail, c.Expect+": "):
			default:
				t.Errorf("%s: %s %s, want %s", c.Name, status, detail, c.Expect)
			}
		}
	}
	if seen != len(v.Cases) {
		t.Fatalf("the verifier reported %d of %d answers", seen, len(v.Cases))
	}
}

func stderrOf(err error) string {
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return string(exit.Stderr)
	}
	return ""
}

// TestJoseVerifier runs test/jose/verify.mjs (jose's compactVerify with
// createLocalJWKSet; the JavaScript example of docs/attestation.md) over
// answers the Go code signs now, including every tampered case.
//
// Under CI=true a missing node or node_modules is a failure; locally the test
// is skipped when node or `npm ci` in test/jose is missing.
func TestJoseVerifier(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: runs an external verifier (node, jose); runs without -short")
	}
	node, nodeErr := exec.LookPath("node")
	_, modErr := os.Stat(filepath.Join(joseDir, "node_modules", "jose", "package.json"))
	if nodeErr != nil || modErr != nil {
		msg := "node and test/jose/node_modules are needed (cd test/jose && npm ci)"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	var lock struct {
		Packages map[string]struct{ Version string } `json:"packages"`
	}
	readJSON(t, filepath.Join(joseDir, "package-lock.json"), &lock)
	var installed struct{ Version string }
	readJSON(t, filepath.Join(joseDir, "node_modules", "jose", "package.json"), &installed)
	if want := lock.Packages["node_modules/jose"].Version; installed.Version != want {
		t.Fatalf("node_modules has jose %s, the lock file %s: run npm ci in test/jose", installed.Version, want)
	}
	t.Logf("jose %s", installed.Version)
	runCLIVerifier(t, joseDir, node, "verify.mjs")
}

// TestPythonVerifierCLI runs verify_answer.py (the Python example of
// docs/attestation.md) as a command over answers the Go code signs now, when a
// Python with the cryptography package is at hand; the checked-in vectors and
// their receipt (TestGoSignedVectorsVerifiedByPython) always run.
func TestPythonVerifierCLI(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: runs an external verifier (Python); runs without -short")
	}
	py := testhttp.PythonWith(t, "cryptography")
	runCLIVerifier(t, crossDir, py, "verify_answer.py")
}

// TestVectorAnswersAreJSON guards the file form the verifiers read: every
// answer must survive a JSON round trip unchanged in its claims.
func TestVectorAnswersAreJSON(t *testing.T) {
	v := buildGoVectors(t, goVectorsNow)
	for _, c := range v.Cases {
		var back map[string]any
		if err := json.Unmarshal(mustJSON(t, c.Answer), &back); err != nil {
			t.Fatal(err)
		}
		if back["attestation"] != c.Answer["attestation"] {
			t.Fatalf("%s: attestation changed in JSON", c.Name)
		}
	}
}
