package main

import (
	"fmt"
	"log/slog"
	"os"
	"strings"

	"github.com/precisiond/precisiond/internal/blob"
	"github.com/precisiond/precisiond/internal/cli"
	"github.com/precisiond/precisiond/internal/filestore"
	"github.com/precisiond/precisiond/internal/surface"
	"github.com/precisiond/precisiond/internal/worker"
	"github.com/precisiond/precisiond/tools"
)

// Defaults of the process isolation settings (docs/operations.md, "Process
// isolation", has the measurements behind them).
const (
	defaultIsolateTools = "generate_file,structured_validate"
	defaultWorkers      = 2
	defaultWorkerMemory = 256 << 20
)

// isolateValue is --isolate-tools: a comma-separated list, "none" for none.
type isolateValue []string

func (v *isolateValue) String() string { return strings.Join(*v, ",") }

func (v *isolateValue) Set(s string) error {
	*v = cli.SplitList(s)
	if strings.TrimSpace(s) == "none" {
		*v = []string{}
	}
	return nil
}

// newWorkerPool starts the pool of `precisiond worker` processes that run the
// isolated tools, or returns nil when no tool is isolated. Workers are the same
// binary, started with the settings they need (the data directory for
// generate_file's store); a worker that dies at a deadline or a limit may leave
// a temporary file in the store, which is removed and counted at once.
func newWorkerPool(cfg Config, log *slog.Logger, store *filestore.Store) (*worker.Pool, error) {
	if len(cfg.IsolateTools) == 0 {
		return nil, nil
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("process isolation: %w", err)
	}
	// The worker takes the settings its command names, with this process's values.
	cmd := append([]string{exe, "worker"}, configFlags.Args(&cmdWorkerSpec.Command, &cfg)...)
	return worker.NewPool(worker.Config{
		Command: cmd,
		Size:    cfg.Workers,
		Logger:  log,
		OnExit: func(reason string) {
			if store != nil {
				store.RemoveDeadWriterTemps(log, reason)
			}
		},
	})
}

// isolate wraps the tools named in cfg.IsolateTools so that they run in pool.
func isolate(cfg Config, log *slog.Logger, list []tools.Tool, pool *worker.Pool) []tools.Tool {
	if pool == nil {
		return list
	}
	out, unknown := tools.IsolateByName(list, pool, cfg.IsolateTools)
	if len(unknown) > 0 {
		log.Warn("--isolate-tools names tools this build does not have; ignored", "unknown", unknown)
	}
	return out
}

var cmdWorkerSpec = &command{
	Command: cli.Command{
		Name:     "worker",
		Summary:  "(internal) runs isolated calls for serve and mcp; not run by hand",
		Synopsis: "[flags]",
		About: `Internal: serve and mcp start workers themselves (--isolate-tools) and talk
to them over a pipe on stdin and stdout. A worker sets its own memory and
CPU limits, builds the same tools as its server (generate_file writes into
the same store) and runs the calls it is sent. Logs go to stderr.
`,
		Exit:     "0 the server closed the pipe, 1 error, 2 usage error",
		Examples: []string{"(started by serve and mcp)"},
		Settings: []string{"data-dir", "store", "store-timeout", "public-base-url", "download-ttl", "max-store-bytes", "worker-memory", "log-level"},
		Internal: true,
	},
	run: cmdWorker,
}

// cmdWorker is `precisiond worker`: started by a server with a pipe on stdin and
// stdout, never by hand. It sets its own memory and CPU limits, builds the same
// tools as the server (generate_file writes into the same store) and runs the
// calls it is sent. Logs go to stderr.
func cmdWorker(c *command, args []string, e *cli.Env) int {
	cfg, _, code, ok := c.start(args, e, 0, nil)
	if !ok {
		return code
	}
	// The server's store, opened as the server opens it (AWS variables from
	// the inherited environment), without its monitor: the server answers
	// store_unavailable before it sends a call here. The server removes and
	// counts orphans, and decides whether the directory exists yet.
	b, err := storeConfig(*cfg).Open(blob.Options{SkipTempCleanup: true, CreateOnWrite: true})
	if err != nil {
		fmt.Fprintln(e.Stderr, "precisiond worker:", err)
		return 1
	}
	var store *filestore.Store
	if b != nil {
		store = filestore.New(b, downloadsConfig(*cfg))
	}
	deps := tools.Deps{Files: store, DownloadURL: surface.DownloadLinks(cfg.PublicBaseURL)}
	if err := worker.Serve(e.Stdin, e.Stdout, tools.Builtin(deps), worker.Limits{MemoryBytes: cfg.WorkerMemory}); err != nil {
		fmt.Fprintln(e.Stderr, "precisiond worker:", err)
		return 1
	}
	return 0
}
