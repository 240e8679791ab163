package main

import (
	"cmp"
	"flag"
	"io"

	"github.com/precisiond/precisiond/internal/cli"
)

// command is one subcommand (internal/cli writes its usage from the table and
// its flag set) with the settings it takes from Config.
type command struct {
	cli.Command // Settings: the configFlags it takes; each can also be set by its environment variable
	// flagHelp replaces the help of settings whose meaning is particular to
	// this command.
	flagHelp map[string]string
	// stateDir: --data-dir defaults to the per-user state directory instead
	// of ./data.
	stateDir bool
	run      func(c *command, args []string, e *cli.Env) int
}

// commands in the order of the overview, and the program made of them.
var (
	commands []*command
	program  *cli.Program
)

func init() {
	commands = []*command{cmdServeSpec, cmdMCPSpec, cmdCallSpec, cmdIntentsSpec, cmdAnswerSpec, cmdToolsSpec, cmdVerifySpec,
		cmdHealthSpec, cmdSelfCheckSpec, cmdTokenSpec, cmdRotateKeySpec, cmdVersionSpec, cmdWorkerSpec}
	list := make([]*cli.Command, len(commands))
	for i, c := range commands {
		c.Command.Run = func(_ *cli.Command, args []string, e *cli.Env) int { return c.run(c, args, e) }
		list[i] = &c.Command
	}
	program = cli.New(&cli.Program{
		Name:     "precisiond",
		Overview: "precisiond: exact answers with hashed evidence over REST, MCP and the CLI.",
		Footer: `Without a command precisiond runs serve: 'precisiond --addr 127.0.0.1:9000'.
'precisiond COMMAND --help' shows a command's flags, arguments and examples;
'precisiond --version' the version. A running server documents its API at
/docs and its pages at /.
`,
		Commands: list,
		Default:  &cmdServeSpec.Command,
		Version:  &cmdVersionSpec.Command,
		Doc:      flagDoc,
	})
}

// run is main without the process: it returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	return program.Run(args, &cli.Env{Stdin: stdin, Stdout: stdout, Stderr: stderr, Getenv: getenv})
}

func commandNamed(name string) *command {
	for _, c := range commands {
		if c.Name == name {
			return c
		}
	}
	panic("precisiond: no command " + name)
}

// flagDoc documents a setting in a command's usage: its help (or the
// command's own), default and environment variable.
func flagDoc(cc *cli.Command, f *flag.Flag) (cli.FlagDoc, bool) {
	d, ok := configFlags.Doc(f.Name)
	if !ok {
		return d, false
	}
	c := commandNamed(cc.Name)
	if h, ok := c.flagHelp[f.Name]; ok {
		d.Help = h
	}
	if f.Name == "data-dir" && c.stateDir {
		d.Default = stateDirDefault
	}
	return d, true
}

// configFlagSet returns the command's configuration, starting from the
// defaults (for the stateDir commands a client or a person starts, --data-dir
// is the per-user state directory, else ./data) with the environment
// applied, and a flag set with the command's settings bound to it. An
// environment error is returned with the set, so that --help still works.
func (c *command) configFlagSet(getenv func(string) string) (*Config, *flag.FlagSet, error) {
	cfg := new(Config)
	*cfg = DefaultConfig()
	if c.stateDir {
		cfg.DataDir = cmp.Or(cli.StateDir(getenv, "precisiond"), cfg.DataDir)
	}
	fs, err := configFlags.FlagSet(&c.Command, "precisiond", cfg, getenv)
	return cfg, fs, err
}

// stateDirDefault is how usage texts name the state directory.
const stateDirDefault = "$XDG_STATE_HOME/precisiond or ~/.local/state/precisiond"

// start reads the command's settings from the environment and args (define,
// when not nil, adds the command's own flags first), validates them, and
// refuses more than maxArgs arguments after the flags (maxArgs < 0: any).
// When ok is false the command is done, with exit status code.
func (c *command) start(args []string, e *cli.Env, maxArgs int, define func(*flag.FlagSet)) (cfg *Config, rest []string, code int, ok bool) {
	cfg, fs, envErr := c.configFlagSet(e.Getenv)
	if define != nil {
		define(fs)
	}
	if rest, code, ok = c.Parse(fs, args, envErr, e); !ok {
		return nil, nil, code, false
	}
	if maxArgs >= 0 && len(rest) > maxArgs {
		return nil, nil, c.Fail(e, "unexpected arguments %q", rest[maxArgs:]), false
	}
	if err := cfg.validate(); err != nil {
		return nil, nil, c.Fail(e, "%v", err), false
	}
	return cfg, rest, 0, true
}
