// Package cli is a small subcommand framework: a program is a table of
// commands whose usage texts are written from the table and from each
// command's flag set, so that the help cannot drift from the flags a command
// accepts. It dispatches `PROG COMMAND`, `PROG help COMMAND` and `--help`,
// suggests the nearest command or flag for a misspelt one, and reports usage
// errors with exit status 2.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/precisiond/precisiond/internal/suggest"
)

// Env is what a command runs with: the standard streams and the environment.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Getenv         func(string) string
}

// Text is arg, or for "-" what e.Stdin holds, at most max bytes; ok is
// false when stdin cannot be read or holds more.
func (e *Env) Text(arg string, max int64) (text string, ok bool) {
	if arg != "-" {
		return arg, true
	}
	b, err := io.ReadAll(io.LimitReader(e.Stdin, max+1))
	return string(b), err == nil && int64(len(b)) <= max
}

// Command is one subcommand: what its usage says and what it runs.
type Command struct {
	Name     string
	Summary  string      // one line in the overview
	Synopsis string      // after "PROG NAME"
	About    string      // what it does, wrapped at 78 columns
	Args     [][2]string // each argument of the synopsis and what it is
	Exit     string      // exit statuses
	Examples []string    // one command line each
	// Settings names the program-wide settings the command takes as flags:
	// a misspelt flag that is another command's setting is pointed there.
	Settings []string
	// Internal commands are left out of suggestions.
	Internal bool
	Run      func(c *Command, args []string, e *Env) int

	prog *Program
}

// FlagDoc is how a usage text shows one flag.
type FlagDoc struct {
	Meta, Help, Default, Env string
}

// Program is a command-line program made of commands.
type Program struct {
	Name     string // as typed: "precisiond"
	Overview string // the root usage's first paragraph
	Footer   string // the root usage's last paragraph
	Commands []*Command
	// Default runs when there is no command or the arguments start with a
	// flag; Version answers --version.
	Default, Version *Command
	// Doc documents a flag of c in its usage; ok false: the flag package's
	// own usage and default.
	Doc func(c *Command, f *flag.Flag) (doc FlagDoc, ok bool)
}

// New returns p with each command bound to it.
func New(p *Program) *Program {
	for _, c := range p.Commands {
		c.prog = p
	}
	return p
}

// Run runs the command args name (the program without its process): it
// returns the exit status.
func (p *Program) Run(args []string, e *Env) int {
	if len(args) == 0 {
		return p.Default.Run(p.Default, nil, e)
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		if args[0] == "help" && len(args) > 1 {
			return p.run(args[1], []string{"--help"}, e)
		}
		p.Usage(e.Stdout)
		return 0
	case "-version", "--version":
		return p.Version.Run(p.Version, args[1:], e)
	}
	if strings.HasPrefix(args[0], "-") {
		return p.Default.Run(p.Default, args, e) // flags of the default command
	}
	return p.run(args[0], args[1:], e)
}

func (p *Program) run(name string, args []string, e *Env) int {
	if c := p.Named(name); c != nil {
		return c.Run(c, args, e)
	}
	names := make([]string, 0, len(p.Commands)+1)
	for _, c := range p.Commands {
		if !c.Internal {
			names = append(names, c.Name)
		}
	}
	fmt.Fprintf(e.Stderr, "%s: unknown command %q%s\nRun '%s --help' for the commands.\n",
		p.Name, name, suggest.Phrase(suggest.Closest(name, append(names, "help"), 3)), p.Name)
	return 2
}

// Named returns the command called name, or nil.
func (p *Program) Named(name string) *Command {
	for _, c := range p.Commands {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// Usage writes the overview: `PROG --help`.
func (p *Program) Usage(w io.Writer) {
	fmt.Fprintf(w, "%s\n\nusage: %s [COMMAND] [flags] [arguments]\n\ncommands:\n", p.Overview, p.Name)
	for _, c := range p.Commands {
		fmt.Fprintf(w, "  %-10s  %s\n", c.Name, c.Summary)
	}
	fmt.Fprintf(w, "  %-10s  %s\n", "help", "this overview, or a command's usage: "+p.Name+" help call")
	fmt.Fprintf(w, "\n%s", p.Footer)
}

// Parse parses args with fs. --help prints the command's usage on stdout
// (exit 0); a bad flag or envErr (a setting from the environment that did
// not parse) prints the problem and a pointer to --help on stderr (exit 2).
// ok is false in both cases, with the exit code.
func (c *Command) Parse(fs *flag.FlagSet, args []string, envErr error, e *Env) (rest []string, code int, ok bool) {
	err := fs.Parse(args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		c.Usage(e.Stdout, fs)
		return nil, 0, false
	case err != nil:
		return nil, c.Fail(e, "%v%s", err, c.flagHint(fs, err)), false
	case envErr != nil:
		return nil, c.Fail(e, "%v", envErr), false
	}
	return fs.Args(), 0, true
}

// flagHint follows the flag package's "flag provided but not defined: -x":
// the command's flags nearest to x, ` (did you mean "--addr"?)`, else the
// commands that take x as a setting, ` (--addr is a flag of serve)`.
func (c *Command) flagHint(fs *flag.FlagSet, err error) string {
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
	for _, o := range c.prog.Commands {
		if o != c && !o.Internal && slices.Contains(o.Settings, name) {
			takers = append(takers, o.Name)
		}
	}
	if len(takers) == 0 {
		return ""
	}
	return fmt.Sprintf(" (--%s is a flag of %s)", name, strings.Join(takers, ", "))
}

// Fail reports a usage error of the command: exit status 2.
func (c *Command) Fail(e *Env, format string, args ...any) int {
	fmt.Fprintf(e.Stderr, "%s %s: %s\nRun '%s %s --help' for usage.\n", c.prog.Name, c.Name, fmt.Sprintf(format, args...), c.prog.Name, c.Name)
	return 2
}

// Usage writes the command's usage: synopsis, what it does, its arguments,
// its flags (each with its default and environment variable), exit statuses
// and examples.
func (c *Command) Usage(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprintf(w, "usage: %s\n\n%s", strings.TrimSpace(c.prog.Name+" "+c.Name+" "+c.Synopsis), c.About)
	if len(c.Args) > 0 {
		fmt.Fprint(w, "\narguments:\n")
		width := 0
		for _, a := range c.Args {
			width = max(width, len(a[0]))
		}
		for _, a := range c.Args {
			fmt.Fprintf(w, "  %-*s  %s\n", width, a[0], a[1])
		}
	}
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	if n > 0 {
		fmt.Fprint(w, "\nflags:\n")
		fs.VisitAll(func(f *flag.Flag) { c.flagUsage(w, f) })
	}
	if c.Exit != "" {
		fmt.Fprintf(w, "\nexit status:\n%s", Wrap(c.Exit, "  ", 78))
	}
	if len(c.Examples) > 0 {
		fmt.Fprint(w, "\nexamples:\n")
		for _, x := range c.Examples {
			fmt.Fprintf(w, "  %s\n", x)
		}
	}
}

// flagUsage writes one flag: "--name META" and, indented below, what it
// does with its default and environment variable.
func (c *Command) flagUsage(w io.Writer, f *flag.Flag) {
	var d FlagDoc
	ok := false
	if c.prog.Doc != nil {
		d, ok = c.prog.Doc(c, f)
	}
	if !ok {
		d.Meta, d.Help = flag.UnquoteUsage(f)
		if d.Default = f.DefValue; d.Default == "false" || d.Default == "0" {
			d.Default = ""
		}
	}
	meta, help := d.Meta, d.Help
	if meta != "" {
		meta = " " + meta
	}
	var notes []string
	if d.Default != "" {
		notes = append(notes, "default "+d.Default)
	}
	if d.Env != "" {
		notes = append(notes, "env "+d.Env)
	}
	if len(notes) > 0 {
		help += " (" + strings.Join(notes, "; ") + ")"
	}
	fmt.Fprintf(w, "  --%s%s\n%s", f.Name, meta, Wrap(help, "        ", 78))
}

// Wrap breaks text into lines of at most width columns (longer words stand
// alone), each starting with indent and ending with a newline.
func Wrap(text, indent string, width int) string {
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
