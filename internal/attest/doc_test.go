package attest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/precisiond/precisiond/internal/testhttp"
)

// docPath is the user documentation of the format.
var docPath = filepath.Join("..", "..", "docs", "attestation.md")

var docMarker = regexp.MustCompile(`^<!-- (example|file): (\S+) -->$`)

// docBlocks returns the fenced blocks of the page that follow a marker
// `<!-- example: NAME -->` or `<!-- file: PATH -->`, keyed "example:NAME" or
// "file:PATH".
func docBlocks(t *testing.T) map[string]string {
	t.Helper()
	data, err := os.ReadFile(docPath)
	if err != nil {
		t.Fatal(err)
	}
	blocks := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		m := docMarker.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		if !sc.Scan() || !strings.HasPrefix(sc.Text(), "```") {
			t.Fatalf("%s: the marker for %s is not followed by a fenced block", docPath, m[2])
		}
		var lines []string
		for sc.Scan() && sc.Text() != "```" {
			lines = append(lines, sc.Text())
		}
		blocks[m[1]+":"+m[2]] = strings.Join(lines, "\n")
	}
	return blocks
}

func caseNamed(t *testing.T, v *crossVectors, name string) crossCase {
	t.Helper()
	for _, c := range v.Cases {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("no case %q", name)
	return crossCase{}
}

// jsonEqual compares a documented JSON block with a value.
func jsonEqual(t *testing.T, what, block string, want any) {
	t.Helper()
	var got, w any
	if err := json.Unmarshal([]byte(block), &got); err != nil {
		t.Fatalf("%s in the docs: %v", what, err)
	}
	if err := json.Unmarshal(mustJSON(t, want), &w); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, w) {
		t.Fatalf("%s in the docs is not the checked-in vector", what)
	}
}

// TestDocWorkedExample holds docs/attestation.md to the code: the scripts it
// shows are the files the tests run, its example files are the checked-in
// vectors, the Go verifier agrees with them, and the commands it shows print
// exactly the lines it shows.
func TestDocWorkedExample(t *testing.T) {
	blocks := docBlocks(t)
	for _, path := range []string{"test/jose/verify.mjs", "internal/attest/testdata/crosscheck/verify_answer.py"} {
		block, ok := blocks["file:"+path]
		if !ok {
			t.Fatalf("the docs do not show %s", path)
		}
		file, err := os.ReadFile(filepath.Join("..", "..", path))
		if err != nil {
			t.Fatal(err)
		}
		if block+"\n" != string(file) {
			t.Errorf("the docs' copy of %s differs from the file", path)
		}
	}

	var v crossVectors
	readJSON(t, filepath.Join(crossDir, "go_signed.json"), &v)
	good := caseNamed(t, &v, "result signed by the current key")
	bad := caseNamed(t, &v, "fact tampered, result_hash recomputed")
	jsonEqual(t, "jwks.json", blocks["example:jwks.json"], v.JWKS["live"])
	jsonEqual(t, "answer.json", blocks["example:answer.json"], good.Answer)
	jsonEqual(t, "tampered.json", blocks["example:tampered.json"], bad.Answer)

	// The documented decoded header and payload, and the RFC 8037 kid.
	doc, err := os.ReadFile(docPath)
	if err != nil {
		t.Fatal(err)
	}
	h, p, _ := splitJWS(t, good.Answer["attestation"].(string))
	for _, seg := range []string{h, p} {
		raw, _ := b64.DecodeString(seg)
		if !bytes.Contains(doc, append(append([]byte("\n"), raw...), '\n')) {
			t.Errorf("the docs do not show the decoded segment %s", raw)
		}
	}
	rfcPub, _ := b64.DecodeString(rfc8037X)
	if !bytes.Contains(doc, []byte("the kid is `"+KeyID(rfcPub)+"`")) {
		t.Error("the docs state another kid for the RFC 8037 key")
	}

	// The Go verifier on the documented files, now.
	ks := mustParseJWKS(t, []byte(blocks["example:jwks.json"]))
	files := map[string]string{}
	for _, name := range []string{"jwks.json", "answer.json", "tampered.json"} {
		files[name] = blocks["example:"+name]
	}
	var answer, tampered map[string]any
	if err := json.Unmarshal([]byte(files["answer.json"]), &answer); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(files["tampered.json"]), &tampered); err != nil {
		t.Fatal(err)
	}
	if got, err := verifyAnswer(ks, answer, time.Now()); err != nil || got.KID != good.KID {
		t.Fatalf("answer.json: %+v %v", got, err)
	}
	if _, err := verifyAnswer(ks, tampered, time.Now()); !errors.Is(err, ErrPayloadMismatch) {
		t.Fatalf("tampered.json: %v", err)
	}

	t.Run("node", func(t *testing.T) {
		if testing.Short() {
			t.Skip("slow: runs the documented command with node; runs without -short")
		}
		node, nodeErr := exec.LookPath("node")
		modules, _ := filepath.Abs(filepath.Join(joseDir, "node_modules"))
		_, modErr := os.Stat(filepath.Join(modules, "jose", "package.json"))
		if nodeErr != nil || modErr != nil {
			msg := "node and test/jose/node_modules are needed (cd test/jose && npm ci)"
			if os.Getenv("CI") == "true" {
				t.Fatal(msg)
			}
			t.Skip(msg)
		}
		dir := exampleDir(t, files, filepath.Join(joseDir, "verify.mjs"))
		if err := os.Symlink(modules, filepath.Join(dir, "node_modules")); err != nil {
			t.Fatal(err)
		}
		runDocCommand(t, dir, blocks["example:node"], node)
	})
	t.Run("python", func(t *testing.T) {
		if testing.Short() {
			t.Skip("slow: runs the documented command with Python; runs without -short")
		}
		py := testhttp.PythonWith(t, "cryptography")
		dir := exampleDir(t, files, filepath.Join(crossDir, "verify_answer.py"))
		runDocCommand(t, dir, blocks["example:python"], py)
	})
}

// exampleDir writes the example files and a copy of script into a fresh
// directory, as a reader following the docs would have them.
func exampleDir(t *testing.T, files map[string]string, script string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	src, err := os.ReadFile(script)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, filepath.Base(script)), src, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// runDocCommand runs the "$ command" line of a documented console block in dir
// (with the program resolved to bin) and compares its output with the lines
// that follow it.
func runDocCommand(t *testing.T, dir, block, bin string) {
	t.Helper()
	first, want, _ := strings.Cut(block, "\n")
	argv := strings.Fields(strings.TrimPrefix(first, "$ "))
	if !strings.HasPrefix(first, "$ ") || len(argv) < 2 {
		t.Fatalf("the console block does not start with a command: %q", first)
	}
	cmd := exec.Command(bin, argv[1:]...)
	cmd.Dir = dir
	out, err := cmd.Output()
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) {
		t.Fatalf("%s: %v\n%s%s", first, err, out, stderrOf(err))
	}
	if got := strings.TrimRight(string(out), "\n"); got != want {
		t.Fatalf("%s prints\n%s\nthe docs show\n%s", first, got, want)
	}
}
