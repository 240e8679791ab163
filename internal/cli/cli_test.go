package cli

import (
	"bytes"
	"flag"
	"strings"
	"testing"
	"time"
)

type conf struct {
	Addr  string
	Wait  time.Duration
	Tools []string
	N     int64
	On    bool
}

var settings = Settings[conf]{
	{Name: "addr", Env: "T_ADDR", Meta: "HOST:PORT", Default: "127.0.0.1:1", Help: "listen address", Field: func(c *conf) any { return &c.Addr }},
	{Name: "wait", Env: "T_WAIT", Meta: "DURATION", Help: "how long", Field: func(c *conf) any { return &c.Wait }},
	{Name: "tools", Env: "T_TOOLS", Meta: "LIST", Help: "tools", Field: func(c *conf) any { return &c.Tools }},
	{Name: "n", Env: "T_N", Help: "a number", Field: func(c *conf) any { return &c.N }},
	{Name: "on", Env: "T_ON", Help: "a switch", Field: func(c *conf) any { return &c.On }},
}

// program is two commands: serve (the default, taking addr and wait) and
// call (tools, n, on), each printing what it parsed.
func program(got *conf) *Program {
	runner := func(c *Command, args []string, e *Env) int {
		cfg := conf{Addr: "127.0.0.1:1"}
		fs, envErr := settings.FlagSet(c, "prog", &cfg, e.Getenv)
		rest, code, ok := c.Parse(fs, args, envErr, e)
		if !ok {
			return code
		}
		if len(rest) > 0 {
			return c.Fail(e, "unexpected arguments %q", rest)
		}
		*got = cfg
		return 0
	}
	serve := &Command{Name: "serve", Summary: "serve", About: "Serves.\n", Exit: "0", Examples: []string{"prog serve"}, Settings: []string{"addr", "wait"}, Run: runner}
	call := &Command{Name: "call", Summary: "call", Synopsis: "[flags]", About: "Calls.\n", Exit: "0", Examples: []string{"prog call"}, Settings: []string{"tools", "n", "on"}, Run: runner}
	return New(&Program{Name: "prog", Overview: "prog: a test.", Footer: "The end.\n", Commands: []*Command{serve, call}, Default: serve, Version: serve,
		Doc: func(_ *Command, f *flag.Flag) (FlagDoc, bool) { return settings.Doc(f.Name) }})
}

func TestProgram(t *testing.T) {
	env := map[string]string{}
	run := func(args ...string) (int, string, string, conf) {
		var got conf
		var out, errb bytes.Buffer
		code := program(&got).Run(args, &Env{Stdout: &out, Stderr: &errb, Getenv: func(k string) string { return env[k] }})
		return code, out.String(), errb.String(), got
	}
	if code, _, _, got := run(); code != 0 || got.Addr != "127.0.0.1:1" {
		t.Errorf("no arguments: %d %+v", code, got)
	}
	if code, _, _, got := run("--addr", "x:2", "--wait", "3s"); code != 0 || got.Addr != "x:2" || got.Wait != 3*time.Second {
		t.Errorf("flags of the default command: %d %+v", code, got)
	}
	env["T_TOOLS"], env["T_N"] = " a, ,b ", "7"
	if code, _, _, got := run("call", "--on"); code != 0 || strings.Join(got.Tools, "|") != "a|b" || got.N != 7 || !got.On {
		t.Errorf("environment and a bool flag: %d %+v", code, got)
	}
	if code, _, _, got := run("call", "--n", "8"); code != 0 || got.N != 8 {
		t.Errorf("a flag wins over the environment: %d %+v", code, got)
	}
	env["T_N"] = "x"
	if code, _, errOut, _ := run("call"); code != 2 || !strings.Contains(errOut, `T_N="x"`) || !strings.Contains(errOut, "Run 'prog call --help' for usage.") {
		t.Errorf("a bad environment value: %d %q", code, errOut)
	}
	delete(env, "T_N")
	for args, want := range map[string]string{
		"cal":           `prog: unknown command "cal" (did you mean "call"?)`,
		"call --nn 1":   `flag provided but not defined: -nn (did you mean "--n" or "--on"?)`,
		"call --addr x": `(--addr is a flag of serve)`,
		"call extra":    `prog call: unexpected arguments ["extra"]`,
	} {
		if code, _, errOut, _ := run(strings.Fields(args)...); code != 2 || !strings.Contains(errOut, want) {
			t.Errorf("%s: %d %q, want %q", args, code, errOut, want)
		}
	}
	code, out, _, _ := run("help", "serve")
	for _, want := range []string{"usage: prog serve\n\nServes.\n", "  --addr HOST:PORT\n        listen address (default 127.0.0.1:1; env T_ADDR)\n", "\nexit status:\n  0\n", "\nexamples:\n  prog serve\n"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("help serve: %d, lacks %q:\n%s", code, want, out)
		}
	}
	code, out, _, _ = run("--help")
	if code != 0 || out != "prog: a test.\n\nusage: prog [COMMAND] [flags] [arguments]\n\ncommands:\n  serve       serve\n  call        call\n  help        this overview, or a command's usage: prog help call\n\nThe end.\n" {
		t.Errorf("--help: %d\n%s", code, out)
	}
}

func TestWrap(t *testing.T) {
	if got := Wrap("aa bb cc dddddddddd", "  ", 9); got != "  aa bb\n  cc\n  dddddddddd\n" {
		t.Errorf("%q", got)
	}
	if got := Wrap("  ", "  ", 9); got != "" {
		t.Errorf("blank: %q", got)
	}
}

// TestArgs: the flags Args writes give a command the values it was given,
// in the order of its settings, and only the settings it takes.
func TestArgs(t *testing.T) {
	c := &Command{Name: "all", Settings: []string{"on", "n", "tools", "wait", "addr"}}
	want := conf{Addr: "[::1]:9", Wait: 90 * time.Second, Tools: []string{"a", "b*"}, N: -7, On: true}
	args := settings.Args(c, &want)
	if strings.Join(args, " ") != "--on=true --n=-7 --tools=a,b* --wait=1m30s --addr=[::1]:9" {
		t.Errorf("Args = %q", args)
	}
	var got conf
	fs, err := settings.FlagSet(c, "prog", &got, func(string) string { return "" })
	if err != nil || fs.Parse(args) != nil || strings.Join(got.Tools, ",") != "a,b*" || got.Addr != want.Addr || got.Wait != want.Wait || got.N != want.N || !got.On {
		t.Errorf("parsed back: %+v (%v), want %+v", got, err, want)
	}
	if args := settings.Args(&Command{Name: "some", Settings: []string{"wait"}}, &conf{}); strings.Join(args, " ") != "--wait=0s" {
		t.Errorf("one setting: %q", args)
	}
}

// TestStateDir: an absolute XDG_STATE_HOME, else HOME's .local/state, else
// none (the XDG Base Directory specification ignores a relative
// XDG_STATE_HOME).
func TestStateDir(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"XDG_STATE_HOME": "/x/state", "HOME": "/home/u"}, "/x/state/prog"},
		{map[string]string{"XDG_STATE_HOME": "relative", "HOME": "/home/u"}, "/home/u/.local/state/prog"},
		{map[string]string{"HOME": "/home/u"}, "/home/u/.local/state/prog"},
		{map[string]string{"XDG_STATE_HOME": "relative"}, ""},
		{map[string]string{}, ""},
	} {
		if got := StateDir(func(k string) string { return c.env[k] }, "prog"); got != c.want {
			t.Errorf("StateDir(%v) = %q, want %q", c.env, got, c.want)
		}
	}
}

// TestEnvText: an argument is itself; "-" is stdin, refused past max bytes.
func TestEnvText(t *testing.T) {
	e := &Env{Stdin: strings.NewReader("12345")}
	if got, ok := e.Text("abc", 1); !ok || got != "abc" {
		t.Errorf("argument: %q %v", got, ok)
	}
	if got, ok := e.Text("-", 5); !ok || got != "12345" {
		t.Errorf("stdin at the limit: %q %v", got, ok)
	}
	if _, ok := (&Env{Stdin: strings.NewReader("123456")}).Text("-", 5); ok {
		t.Error("stdin over the limit accepted")
	}
}
