package main

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// walkthroughStep is one command of the README's walkthrough and the lines
// the README says it prints ("# → ", with "…" for what varies).
type walkthroughStep struct {
	command string
	prints  []string
}

// readmeWalkthrough reads the shell block under "Walkthrough: the first ten
// minutes" in the README.
func readmeWalkthrough(t *testing.T) []walkthroughStep {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(raw)
	i := strings.Index(text, "## Walkthrough: the first ten minutes")
	if i < 0 {
		t.Fatal("README: no walkthrough section")
	}
	start := strings.Index(text[i:], "```sh\n")
	if start < 0 {
		t.Fatal("README: no shell block in the walkthrough")
	}
	block := text[i+start+len("```sh\n"):]
	block = block[:strings.Index(block, "```")]
	var steps []walkthroughStep
	var cont string
	for _, line := range strings.Split(block, "\n") {
		switch {
		case cont != "":
			cont += "\n" + line
			if !strings.HasSuffix(line, "\\") {
				steps = append(steps, walkthroughStep{command: cont})
				cont = ""
			}
		case strings.HasPrefix(line, "# → "):
			if len(steps) == 0 {
				t.Fatalf("README: %q follows no command", line)
			}
			steps[len(steps)-1].prints = append(steps[len(steps)-1].prints, strings.TrimPrefix(line, "# → "))
		case strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#"):
		case strings.HasSuffix(line, "\\"):
			cont = line
		default:
			steps = append(steps, walkthroughStep{command: line})
		}
	}
	return steps
}

// printedPattern turns a "# → " line into a pattern for one output line:
// "…" matches anything.
func printedPattern(line string) *regexp.Regexp {
	parts := strings.Split(line, "…")
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	return regexp.MustCompile("^" + strings.Join(parts, ".*") + "$")
}

// TestReadmeWalkthrough runs the README's first-ten-minutes block as a new
// user would, in an empty directory with the binary built from this tree,
// and checks every line the README says a command prints. Its one build line
// is replaced by that binary, and the server listens on a free port instead
// of 8003 (PRECISIOND_ADDR; the URLs follow).
func TestReadmeWalkthrough(t *testing.T) {
	bin := buildBinary(t)
	for _, tool := range []string{"bash", "curl", "jq", "sed"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("the walkthrough needs %s (.ci/run installs it): %v", tool, err)
		}
	}
	steps := readmeWalkthrough(t)
	if len(steps) < 10 || steps[0].command != "go build -o precisiond ./cmd/precisiond" {
		t.Fatalf("README walkthrough: %d commands, the first %q; want the build line first", len(steps), steps[0].command)
	}
	steps = steps[1:]
	checked := 0
	for _, s := range steps {
		checked += len(s.prints)
	}
	if checked < 8 {
		t.Fatalf("README walkthrough: only %d printed lines to check", checked)
	}

	dir := t.TempDir()
	data, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "precisiond"), data, 0o755); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
	l.Close()

	var script strings.Builder
	for i, s := range steps {
		fmt.Fprintf(&script, "echo '@@@ %d'\n{ %s\n} 2>&1\n", i, strings.ReplaceAll(s.command, "8003", port))
	}
	fmt.Fprintf(&script, "echo '@@@ end'\n")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute) // a bound on waiting, not a measurement
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-c", script.String())
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+dir, "XDG_STATE_HOME="+filepath.Join(dir, "state"),
		"PRECISIOND_ADDR=127.0.0.1:"+port)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	// A server the script left running would hold its output open: wait for
	// that at most this long once the script has ended.
	cmd.WaitDelay = 10 * time.Second
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) })
	runErr := cmd.Wait()
	// The walkthrough stops its server ("kill %1"): the port closes.
	stopped := false
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		c, err := net.DialTimeout("tcp", "127.0.0.1:"+port, time.Second)
		if err != nil {
			stopped = true
			break
		}
		c.Close()
	}
	if !stopped {
		t.Errorf("the walkthrough left its server running on port %s", port)
	}
	if runErr != nil {
		t.Fatalf("the walkthrough failed: %v\n%s", runErr, out.String())
	}

	outputs := map[string][]string{}
	current := ""
	for _, line := range strings.Split(out.String(), "\n") {
		if strings.HasPrefix(line, "@@@ ") {
			current = strings.TrimPrefix(line, "@@@ ")
			continue
		}
		outputs[current] = append(outputs[current], line)
	}
	if _, ok := outputs["end"]; !ok {
		t.Fatalf("the walkthrough stopped early:\n%s", out.String())
	}
	for i, s := range steps {
		got := outputs[strconv.Itoa(i)]
		at := 0
		for _, want := range s.prints {
			re := printedPattern(want)
			for at < len(got) && !re.MatchString(got[at]) {
				at++
			}
			if at == len(got) {
				t.Errorf("%s\nREADME says it prints %q; it printed:\n%s", s.command, want, strings.Join(got, "\n"))
				break
			}
			at++
		}
	}
	// It cleans up after itself: what stays is the binary and ./data (both
	// git-ignored); call, tools and mcp wrote nothing to the state directory.
	var left []string
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		left = append(left, e.Name())
	}
	if strings.Join(left, " ") != "data precisiond" {
		t.Errorf("the walkthrough leaves %v, want [data precisiond]", left)
	}
}
