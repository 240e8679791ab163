package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

var updateHelp = flag.Bool("update", false, "rewrite testdata/help/*.golden from the commands' usage text (review the diff: the help text is the specification)")

// helpCase is one command line whose whole output is a golden file.
type helpCase struct {
	golden string
	args   []string
	code   int
	stderr bool // the text goes to stderr (usage errors), not stdout
}

func helpCases() []helpCase {
	cases := []helpCase{
		{"root", []string{"--help"}, 0, false},
		{"root", []string{"-h"}, 0, false},
		{"root", []string{"-help"}, 0, false},
		{"root", []string{"help"}, 0, false},
		{"unknown-command", []string{"calll"}, 2, true},
		{"serve-bad-flag", []string{"--bogus"}, 2, true},
		{"call-bad-flag", []string{"call", "--addr", "x"}, 2, true},
		{"serve-misspelt-flag", []string{"--adr", "127.0.0.1:9000"}, 2, true},
		{"tools-misspelt-flag", []string{"tools", "--jsn"}, 2, true},
		{"call-no-tool", []string{"call"}, 2, true},
		{"tools-two-names", []string{"tools", "a", "b"}, 2, true},
		{"help-unknown", []string{"help", "nope"}, 2, true},
	}
	for _, c := range commands {
		cases = append(cases,
			helpCase{c.Name, []string{c.Name, "--help"}, 0, false},
			helpCase{c.Name, []string{c.Name, "-h"}, 0, false},
			helpCase{c.Name, []string{"help", c.Name}, 0, false})
	}
	return cases
}

// TestHelpGolden: `precisiond --help`, `-h`, `help`, every command's
// --help/-h/`help COMMAND`, and usage errors print exactly the golden text on
// the right stream, nothing on the other, with the right exit status. The
// environment is empty, so defaults are the documented ones. With -update the
// golden files are rewritten from the output (and nothing else is).
func TestHelpGolden(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range helpCases() {
		var out, errb bytes.Buffer
		code := run(c.args, strings.NewReader(""), &out, &errb, func(string) string { return "" })
		text, other := out.String(), errb.String()
		if c.stderr {
			text, other = other, text
		}
		path := filepath.Join("testdata", "help", c.golden+".golden")
		if *updateHelp && !seen[c.golden] {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		seen[c.golden] = true
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run with -update to create it)", err)
		}
		if text != string(want) {
			t.Errorf("precisiond %s: output differs from %s:\n%s", strings.Join(c.args, " "), path, text)
		}
		if other != "" {
			t.Errorf("precisiond %s: unexpected output on the other stream: %q", strings.Join(c.args, " "), other)
		}
		if code != c.code {
			t.Errorf("precisiond %s: exit %d, want %d", strings.Join(c.args, " "), code, c.code)
		}
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "help", "*.golden"))
	for _, f := range files {
		if !seen[strings.TrimSuffix(filepath.Base(f), ".golden")] {
			t.Errorf("%s is not checked by any case: remove it", f)
		}
	}
}

// TestUsageShape: every command's usage has a synopsis, a description, an
// example, an exit-status line and, for each argument in its synopsis, an
// arguments entry; the overview names every command with one line; lines
// outside the examples fit 80 columns; internal commands say so.
func TestUsageShape(t *testing.T) {
	var root bytes.Buffer
	program.Usage(&root)
	for _, line := range strings.Split(root.String(), "\n") {
		if utf8.RuneCountInString(line) > 80 {
			t.Errorf("--help: line over 80 columns: %q", line)
		}
	}
	for _, c := range commands {
		if !strings.Contains(root.String(), "\n  "+c.Name+" ") {
			t.Errorf("the overview does not list %s", c.Name)
		}
		if c.Summary == "" || strings.Contains(c.Summary, "\n") {
			t.Errorf("%s: summary must be one line", c.Name)
		}
		if c.Internal != strings.HasPrefix(c.Summary, "(internal)") {
			t.Errorf("%s: internal commands, and only they, say so in their summary", c.Name)
		}
		var out bytes.Buffer
		if code := run([]string{c.Name, "--help"}, nil, &out, &out, func(string) string { return "" }); code != 0 {
			t.Fatalf("%s --help: exit %d", c.Name, code)
		}
		text := out.String()
		for _, section := range []string{"usage: precisiond " + c.Name, "\nexit status:\n", "\nexamples:\n  "} {
			if !strings.Contains(text, section) {
				t.Errorf("%s --help lacks %q", c.Name, section)
			}
		}
		for _, word := range strings.Fields(c.Synopsis) {
			arg := strings.Trim(word, "[]|")
			if arg != "" && arg == strings.ToUpper(arg) && !strings.HasPrefix(arg, "--") && !strings.Contains(text, "\n  "+arg+" ") &&
				!strings.Contains(c.Synopsis, "--") {
				t.Errorf("%s --help does not describe argument %s", c.Name, arg)
			}
		}
		examples := false
		for _, line := range strings.Split(text, "\n") {
			if line == "examples:" {
				examples = true
			}
			if !examples && utf8.RuneCountInString(line) > 80 {
				t.Errorf("%s --help: line over 80 columns: %q", c.Name, line)
			}
		}
	}
}

// TestVersionCommand: --version --json carries the build information
// (buildinfo.Of), version the version.
func TestVersionCommand(t *testing.T) {
	var out bytes.Buffer
	if code := run([]string{"--version", "--json"}, nil, &out, &out, func(string) string { return "" }); code != 0 ||
		!strings.Contains(out.String(), `"module": "github.com/precisiond/precisiond"`) {
		t.Errorf("--version --json: exit %d %s", code, out.String())
	}
	out.Reset()
	if code := run([]string{"version"}, nil, &out, &out, func(string) string { return "" }); code != 0 || !strings.HasPrefix(out.String(), "precisiond ") {
		t.Errorf("version: exit %d %q", code, out.String())
	}
}
