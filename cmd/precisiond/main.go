// Command precisiond serves exact answers with hashed evidence over REST, MCP and
// the command line. Without a command it serves HTTP on 127.0.0.1:8003 (serve).
//
// 'precisiond --help' lists the commands, 'precisiond COMMAND --help' shows
// one command's flags, arguments and examples (cmd/precisiond/usage.go).
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/precisiond/precisiond/api"
	"github.com/precisiond/precisiond/internal/buildinfo"
	"github.com/precisiond/precisiond/internal/cli"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv))
}

// newLogger is a command's JSON logger (slog's JSON handler, the access
// lines included: api.NewLogger). It also becomes slog's default, so that what an engine logs without a logger
// of its own (solve_equation's withheld answers) is a JSON line in the same
// stream, not a text line.
func newLogger(w io.Writer, level string) *slog.Logger {
	l, _ := parseLevel(level)
	log := api.NewLogger(w, l)
	slog.SetDefault(log)
	return log
}

// serveSettings are every setting but --surface, which chooses what the
// stdio MCP session serves (serve has /mcp and /mcp/compact).
func serveSettings() []string {
	var names []string
	for _, f := range configFlags {
		if f.Name != "surface" {
			names = append(names, f.Name)
		}
	}
	return names
}

var cmdServeSpec = &command{
	Command: cli.Command{
		Name:     "serve",
		Summary:  "the HTTP service: REST, MCP over HTTP, /docs, /admin (default)",
		Synopsis: "[flags]",
		About: `Run the HTTP service: POST /invoke and /v1/invoke, GET /tools, /health,
/openapi.json, /metrics and /downloads, the plans of /v1/catalog,
/v1/describe and /v1/plans, MCP at /mcp (Streamable HTTP), /mcp/sse and
/mcp/compact, and the pages / (start page), /docs (API reference) and
/admin. serve is the default command: 'precisiond' alone serves on
127.0.0.1:8003.
Logs are JSON lines on stderr. SIGINT or SIGTERM stops it after the calls in
flight have finished (at most 30 s).

Every flag can also be set by its environment variable; a flag wins.
`,
		Exit:     "0 stopped by a signal, 1 start-up or listen failure, 2 usage error",
		Examples: []string{"precisiond serve", "precisiond serve --addr 0.0.0.0:8003 --data-dir /var/lib/precisiond", "PRECISIOND_ADMIN_TOKEN=$(openssl rand -hex 32) precisiond serve"},
		Settings: serveSettings(),
	},
	run: cmdServe,
}

func cmdServe(c *command, args []string, e *cli.Env) int {
	cfg, _, code, ok := c.start(args, e, 0, nil)
	if !ok {
		return code
	}
	if err := checkExposure(*cfg); err != nil {
		fmt.Fprintln(e.Stderr, "precisiond:", err) // plain text: it explains what to do
		return 2
	}
	log := newLogger(e.Stderr, cfg.LogLevel)
	m, err := NewMain(*cfg, log)
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

var cmdVersionSpec = &command{
	Command: cli.Command{
		Name:     "version",
		Summary:  "print the release, or the VCS revision the binary was built from",
		Synopsis: "[--json]",
		About: `Print "precisiond VERSION". VERSION is the release set at build time
(-ldflags "-X main.version=v1.2.3"), else the module version Go recorded: the
release 'go install …@v1.2.3' built, or for a build from a git checkout
v0.0.0-<commit time>-<revision>, "+dirty" with uncommitted changes; else
"devel-" and the VCS revision, else "devel". --json prints the build
information: version, module, module_version, go, vcs_revision, vcs_time,
vcs_modified. 'precisiond --version' is the same command.
`,
		Exit:     "0, or 2 on a usage error",
		Examples: []string{"precisiond version", "precisiond --version --json"},
	},
	run: cmdVersion,
}

func cmdVersion(c *command, args []string, e *cli.Env) int {
	var asJSON *bool
	if _, _, code, ok := c.start(args, e, 0, func(fs *flag.FlagSet) {
		asJSON = fs.Bool("json", false, "print the build information as JSON")
	}); !ok {
		return code
	}
	info := buildinfo.Current(version)
	if *asJSON {
		b, _ := json.MarshalIndent(info, "", "  ")
		fmt.Fprintln(e.Stdout, string(b))
		return 0
	}
	fmt.Fprintln(e.Stdout, "precisiond", info.Version)
	return 0
}

// version is set at build time with -ldflags "-X main.version=v1.2.3".
var version = ""

// versionString is the version every surface reports (/health, MCP
// serverInfo, the build_info metric).
func versionString() string { return buildinfo.Current(version).Version }
