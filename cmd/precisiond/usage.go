package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/precisiond/precisiond/internal/suggest"
)

// cliEnv is what a command runs with: the standard streams and the
// environment.
type cliEnv struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) string
}

// command is one subcommand: what its usage says and what it runs. The usage
// text is written from this table and the command's flag set, so the help
// cannot drift from the flags the command accepts.
type command struct {
	name     string
	summary  string // one line in the overview
	synopsis string // after "precisiond NAME"
	about    string // what it does, wrapped at 78 columns
	args     [][2]string
	exit     string   // exit statuses
	examples []string // one command line each
	// config lists the settings (configFlags) the command takes; each can
	// also be set by its environment variable.
	config []string
	// flagHelp replaces the help of settings whose meaning is particular to
	// this command.
	flagHelp map[string]string
	// stateDir: --data-dir defaults to the per-user state directory instead
	// of ./data.
	stateDir bool
	internal bool
	run      func(c *command, args []string, e *cliEnv) int
}

// commands in the order of the overview.
var commands []*command

func init() {
	commands = []*command{cmdServeSpec, cmdMCPSpec, cmdCallSpec, cmdToolsSpec, cmdVerifySpec,
		cmdHealthSpec, cmdSelfCheckSpec, cmdTokenSpec, cmdRotateKeySpec, cmdVersionSpec, cmdWorkerSpec}
}

func commandNamed(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	panic("precisiond: no command " + name)
}

// rootUsage is `precisiond --help`.
func rootUsage(w io.Writer) {
	fmt.Fprint(w, `precisiond: exact answers with hashed evidence over REST, MCP and the CLI.

usage: precisiond [COMMAND] [flags] [arguments]

commands:
`)
	for _, c := range commands {
		fmt.Fprintf(w, "  %-10s  %s\n", c.name, c.summary)
	}
	fmt.Fprintf(w, "  %-10s  %s\n", "help", "this overview, or a command's usage: precisiond help call")
	fmt.Fprint(w, `
Without a command precisiond runs serve: 'precisiond --addr 127.0.0.1:9000'.
'precisiond COMMAND --help' shows a command's flags, arguments and examples;
'precisiond --version' the version. A running server documents its API at
/docs and its pages at /.
`)
}

// configFlagSet returns the command's configuration, starting from the
// defaults (--data-dir from the per-user state directory for stateDir
// commands) with the environment applied, and a flag set with the command's
// settings bound to it. An environment error is returned with the set, so
// that --help still works.
func (c *command) configFlagSet(getenv func(string) string) (*Config, *flag.FlagSet, error) {
	cfg := new(Config)
	*cfg = DefaultConfig()
	if c.stateDir {
		cfg.DataDir = stateDir(getenv)
	}
	fs := flag.NewFlagSet("precisiond "+c.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	for _, name := range c.config {
		f, ok := lookupConfigFlag(name)
		if !ok {
			panic("precisiond: command " + c.name + " names an unknown setting " + name)
		}
		f.bind(fs, cfg, f.name, f.help)
	}
	return cfg, fs, applyEnv(fs, getenv)
}

// stateDir is the per-user state directory of the commands a client or a
// person starts (mcp, call, tools): $XDG_STATE_HOME/precisiond, else
// $HOME/.local/state/precisiond, else ./data.
func stateDir(getenv func(string) string) string {
	if x := getenv("XDG_STATE_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "precisiond")
	}
	if h := getenv("HOME"); h != "" {
		return filepath.Join(h, ".local", "state", "precisiond")
	}
	return "./data"
}

// stateDirDefault is how usage texts name the state directory.
const stateDirDefault = "$XDG_STATE_HOME/precisiond or ~/.local/state/precisiond"

// parse parses args with fs. --help prints the command's usage on stdout
// (exit 0); a bad flag or envErr prints the problem and a pointer to --help
// on stderr (exit 2). ok is false in both cases, with the exit code.
func (c *command) parse(fs *flag.FlagSet, args []string, envErr error, e *cliEnv) (rest []string, code int, ok bool) {
	err := fs.Parse(args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		c.usage(e.stdout, fs)
		return nil, 0, false
	case err != nil:
		return nil, c.fail(e, "%v%s", err, c.flagHint(fs, err)), false
	case envErr != nil:
		return nil, c.fail(e, "%v", envErr), false
	}
	return fs.Args(), 0, true
}

// start reads the command's settings from the environment and args (define,
// when not nil, adds the command's own flags first), validates them, and
// refuses more than maxArgs arguments after the flags (maxArgs < 0: any).
// When ok is false the command is done, with exit status code.
func (c *command) start(args []string, e *cliEnv, maxArgs int, define func(*flag.FlagSet)) (cfg *Config, rest []string, code int, ok bool) {
	cfg, fs, envErr := c.configFlagSet(e.getenv)
	if define != nil {
		define(fs)
	}
	if rest, code, ok = c.parse(fs, args, envErr, e); !ok {
		return nil, nil, code, false
	}
	if maxArgs >= 0 && len(rest) > maxArgs {
		return nil, nil, c.fail(e, "unexpected arguments %q", rest[maxArgs:]), false
	}
	if err := cfg.validate(); err != nil {
		return nil, nil, c.fail(e, "%v", err), false
	}
	return cfg, rest, 0, true
}

// flagHint follows the flag package's "flag provided but not defined: -x":
// the command's flags nearest to x, ` (did you mean "--addr"?)`, else the
// commands that take x as a setting, ` (--addr is a flag of serve)`.
func (c *command) flagHint(fs *flag.FlagSet, err error) string {
	name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: ")
	if !ok {
		return ""
	}
	name = strings.TrimLeft(name, "-")
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	near := suggest.Closest(name, names, 3)
	for i, n := range near {
		near[i] = "--" + n
	}
	if len(near) > 0 {
		return suggest.Phrase(near)
	}
	var takers []string
	for _, o := range commands {
		if o != c && !o.internal && slices.Contains(o.config, name) {
			takers = append(takers, o.name)
		}
	}
	if len(takers) == 0 {
		return ""
	}
	return fmt.Sprintf(" (--%s is a flag of %s)", name, strings.Join(takers, ", "))
}

// fail reports a usage error of the command: exit status 2.
func (c *command) fail(e *cliEnv, format string, args ...any) int {
	fmt.Fprintf(e.stderr, "precisiond %s: %s\nRun 'precisiond %s --help' for usage.\n", c.name, fmt.Sprintf(format, args...), c.name)
	return 2
}

// usage writes the command's usage: synopsis, what it does, its arguments,
// its flags (each with its default and environment variable), exit statuses
// and examples.
func (c *command) usage(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprintf(w, "usage: %s\n\n%s", strings.TrimSpace("precisiond "+c.name+" "+c.synopsis), c.about)
	if len(c.args) > 0 {
		fmt.Fprint(w, "\narguments:\n")
		width := 0
		for _, a := range c.args {
			width = max(width, len(a[0]))
		}
		for _, a := range c.args {
			fmt.Fprintf(w, "  %-*s  %s\n", width, a[0], a[1])
		}
	}
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	if n > 0 {
		fmt.Fprint(w, "\nflags:\n")
		fs.VisitAll(func(f *flag.Flag) { c.flagUsage(w, f) })
	}
	if c.exit != "" {
		fmt.Fprintf(w, "\nexit status:\n%s", wrap(c.exit, "  ", 78))
	}
	if len(c.examples) > 0 {
		fmt.Fprint(w, "\nexamples:\n")
		for _, x := range c.examples {
			fmt.Fprintf(w, "  %s\n", x)
		}
	}
}

// flagUsage writes one flag: "--name META" and, indented below, what it
// does with its default and environment variable.
func (c *command) flagUsage(w io.Writer, f *flag.Flag) {
	meta, help := flag.UnquoteUsage(f)
	def, env := f.DefValue, ""
	if cf, ok := lookupConfigFlag(f.Name); ok {
		meta, help, def, env = cf.meta, cf.help, cf.def, cf.env
		if h, ok := c.flagHelp[f.Name]; ok {
			help = h
		}
		if f.Name == "data-dir" && c.stateDir {
			def = stateDirDefault
		}
	} else if def == "false" || def == "0" {
		def = ""
	}
	if meta != "" {
		meta = " " + meta
	}
	var notes []string
	if def != "" {
		notes = append(notes, "default "+def)
	}
	if env != "" {
		notes = append(notes, "env "+env)
	}
	if len(notes) > 0 {
		help += " (" + strings.Join(notes, "; ") + ")"
	}
	fmt.Fprintf(w, "  --%s%s\n%s", f.Name, meta, wrap(help, "        ", 78))
}

// wrap breaks text into lines of at most width columns (longer words stand
// alone), each starting with indent and ending with a newline.
func wrap(text, indent string, width int) string {
	var b, line strings.Builder
	for _, word := range strings.Fields(text) {
		if line.Len() > 0 && len(indent)+line.Len()+1+len(word) > width {
			b.WriteString(indent + line.String() + "\n")
			line.Reset()
		}
		if line.Len() > 0 {
			line.WriteByte(' ')
		}
		line.WriteString(word)
	}
	if line.Len() > 0 {
		b.WriteString(indent + line.String() + "\n")
	}
	return b.String()
}

// run is main without the process: it returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	e := &cliEnv{stdin: stdin, stdout: stdout, stderr: stderr, getenv: getenv}
	if len(args) == 0 {
		return cmdServeSpec.run(cmdServeSpec, nil, e)
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		if args[0] == "help" && len(args) > 1 {
			return runCommand(args[1], []string{"--help"}, e)
		}
		rootUsage(stdout)
		return 0
	case "-version", "--version":
		return cmdVersionSpec.run(cmdVersionSpec, args[1:], e)
	}
	if strings.HasPrefix(args[0], "-") {
		return cmdServeSpec.run(cmdServeSpec, args, e) // flags of the default command
	}
	return runCommand(args[0], args[1:], e)
}

func runCommand(name string, args []string, e *cliEnv) int {
	for _, c := range commands {
		if c.name == name {
			return c.run(c, args, e)
		}
	}
	names := make([]string, 0, len(commands)+1)
	for _, c := range commands {
		if !c.internal {
			names = append(names, c.name)
		}
	}
	fmt.Fprintf(e.stderr, "precisiond: unknown command %q%s\nRun 'precisiond --help' for the commands.\n",
		name, suggest.Phrase(suggest.Closest(name, append(names, "help"), 3)))
	return 2
}
