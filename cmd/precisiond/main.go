// Command precisiond serves exact answers with hashed evidence over REST, MCP and
// the command line.
//
//	precisiond [serve] [flags]      run the HTTP service (default 127.0.0.1:8003)
//	precisiond mcp [flags]          MCP over stdio (logs to stderr only)
//	precisiond call TOOL 'ARGS'     run one tool locally, print the response JSON
//	precisiond tools                print the catalogue
//	precisiond verify [--catalog F] read an /invoke response on stdin and recheck it
//	precisiond health [--url U]     probe a running server (container health checks)
//	precisiond selfcheck            run every tool's examples (a throwaway store for generate_file)
//	precisiond version              print the version
package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv))
}

const usage = `usage: precisiond [command] [flags]

commands:
  serve                 run the HTTP service (default command)
  mcp                   serve MCP over stdio (logs go to stderr)
  call TOOL 'ARGS_JSON' run one tool locally and print the /invoke response
  tools                 print the catalogue (GET /tools)
  verify                read an /invoke response on stdin, recompute its hashes
  health                probe a running server's /health
  selfcheck             run every tool's examples (generate_file into a throwaway store)
  token new NAME        issue an API token (printed once) and its --api-tokens line
  version               print the version

Run 'precisiond serve -h' for the configuration flags.
`

// run is main without the process: testable, returns the exit code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	cmd := "serve"
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		cmd, args = args[0], args[1:]
	}
	switch cmd {
	case "serve":
		return cmdServe(args, stderr, getenv)
	case "mcp":
		return cmdMCP(args, stdin, stdout, stderr, getenv)
	case "call":
		return cmdCall(args, stdout, stderr, getenv)
	case "tools":
		return cmdTools(args, stdout, stderr, getenv)
	case "verify":
		return cmdVerify(args, stdin, stdout, stderr, getenv)
	case "health":
		return cmdHealth(args, stdout, stderr, getenv)
	case "selfcheck":
		return cmdSelfCheck(args, stdout, stderr, getenv)
	case "token":
		return cmdToken(args, stdout, stderr)
	case "worker":
		return cmdWorker(args, stdin, stdout, stderr, getenv)
	case "version":
		fmt.Fprintln(stdout, "precisiond", versionString())
		return 0
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "precisiond: unknown command %q\n\n%s", cmd, usage)
	return 2
}

// newLogger is a command's JSON logger. It also becomes slog's default, so
// that what an engine logs without a logger of its own (solve_equation's
// withheld answers) is a JSON line in the same stream, not a text line.
func newLogger(w io.Writer, level string) *slog.Logger {
	l, _ := parseLevel(level)
	log := slog.New(slog.NewJSONHandler(w, &slog.HandlerOptions{Level: l}))
	slog.SetDefault(log)
	return log
}

func cmdServe(args []string, stderr io.Writer, getenv func(string) string) int {
	cfg, rest, err := loadConfig("serve", args, getenv)
	if err != nil {
		fmt.Fprintln(stderr, "precisiond:", err)
		return 2
	}
	if len(rest) > 0 {
		fmt.Fprintf(stderr, "precisiond serve: unexpected arguments %q\n", rest)
		return 2
	}
	if err := checkExposure(cfg); err != nil {
		fmt.Fprintln(stderr, "precisiond:", err) // plain text: it explains what to do
		return 2
	}
	log := newLogger(stderr, cfg.LogLevel)
	m, err := NewMain(cfg, log)
	if err != nil {
		log.Error("start-up failed", "err", err.Error())
		return 1
	}
	defer m.Close()
	if err := m.Listen(); err != nil {
		log.Error("listen failed", "addr", cfg.Addr, "err", err.Error())
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	if err := m.Run(ctx); err != nil {
		log.Error("server stopped with an error", "err", err.Error())
		return 1
	}
	return 0
}

// version is set at build time with -ldflags "-X main.version=v1.2.3".
var version = ""

func versionString() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}
