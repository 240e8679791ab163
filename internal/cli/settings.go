package cli

import (
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"
)

// Setting is one value that commands take as the flag --Name and from the
// environment variable Env (a flag given wins). Meta names its value in the
// usage and Default is the default the usage shows ("" for none). Field
// returns where the value lives in a configuration C: a *string, *bool,
// *int, *int64, *time.Duration, a *[]string (a comma-separated list) or any
// flag.Value.
type Setting[C any] struct {
	Name, Env, Meta, Default, Help string
	Field                          func(*C) any
}

// Settings are a program's settings, each command taking those its
// Command.Settings names.
type Settings[C any] []Setting[C]

// Lookup returns the setting named name.
func (s Settings[C]) Lookup(name string) (Setting[C], bool) {
	for _, x := range s {
		if x.Name == name {
			return x, true
		}
	}
	return Setting[C]{}, false
}

// Doc is how a usage shows the flag of the setting named name.
func (s Settings[C]) Doc(name string) (FlagDoc, bool) {
	x, ok := s.Lookup(name)
	return FlagDoc{Meta: x.Meta, Help: x.Help, Default: x.Default, Env: x.Env}, ok
}

// FlagSet returns a flag set for c with each setting c takes bound to cfg,
// then sets those whose environment variable is not empty (parsed as the
// flag parses it). An environment error is returned with the set, so that
// --help still works.
func (s Settings[C]) FlagSet(c *Command, prog string, cfg *C, getenv func(string) string) (*flag.FlagSet, error) {
	fs := flag.NewFlagSet(prog+" "+c.Name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var err error
	for _, name := range c.Settings {
		x, ok := s.Lookup(name)
		if !ok {
			panic(prog + ": command " + c.Name + " names an unknown setting " + name)
		}
		bind(fs, x.Name, x.Help, x.Field(cfg))
		if v := getenv(x.Env); v != "" && err == nil {
			if e := fs.Set(x.Name, v); e != nil {
				err = fmt.Errorf("%s=%q: %v", x.Env, v, e)
			}
		}
	}
	return fs, err
}

// Args are the flags that give the settings c takes the values they have in
// cfg, "--name=value" in the order of c.Settings (one argument each: a
// bool's value stays with its flag). A command that starts
// another (precisiond worker) passes its configuration on with them.
func (s Settings[C]) Args(c *Command, cfg *C) []string {
	fs := flag.NewFlagSet("", flag.ContinueOnError)
	var args []string
	for _, name := range c.Settings {
		x, ok := s.Lookup(name)
		if !ok {
			panic("cli: command " + c.Name + " names an unknown setting " + name)
		}
		v := ""
		if list, ok := x.Field(cfg).(*[]string); ok {
			v = strings.Join(*list, ",")
		} else {
			bind(fs, x.Name, x.Help, x.Field(cfg))
			v = fs.Lookup(x.Name).Value.String()
		}
		args = append(args, "--"+x.Name+"="+v)
	}
	return args
}

func bind(fs *flag.FlagSet, name, help string, field any) {
	switch p := field.(type) {
	case *string:
		fs.StringVar(p, name, *p, help)
	case *bool:
		fs.BoolVar(p, name, *p, help)
	case *int:
		fs.IntVar(p, name, *p, help)
	case *int64:
		fs.Int64Var(p, name, *p, help)
	case *time.Duration:
		fs.DurationVar(p, name, *p, help)
	case *[]string:
		fs.Func(name, help, func(s string) error { *p = SplitList(s); return nil })
	case flag.Value:
		fs.Var(p, name, help)
	default:
		panic(fmt.Sprintf("cli: setting %s has a field of type %T", name, field))
	}
}

// StateDir is the per-user state directory of program:
// $XDG_STATE_HOME/program (only an absolute XDG_STATE_HOME, as the XDG
// Base Directory specification says), else $HOME/.local/state/program, else
// "".
func StateDir(getenv func(string) string, program string) string {
	if x := getenv("XDG_STATE_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, program)
	}
	if h := getenv("HOME"); h != "" {
		return filepath.Join(h, ".local", "state", program)
	}
	return ""
}

// SplitList splits a comma-separated list, dropping blanks around items and
// empty items.
func SplitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
