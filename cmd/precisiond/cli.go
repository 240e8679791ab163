package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/precisiond/precisiond/api"
	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/internal/answercheck"
	"github.com/precisiond/precisiond/internal/attest"
	"github.com/precisiond/precisiond/internal/cli"
	"github.com/precisiond/precisiond/internal/filestore"
	"github.com/precisiond/precisiond/internal/surface"
	"github.com/precisiond/precisiond/mcpserver"
	"github.com/precisiond/precisiond/plans"
	"github.com/precisiond/precisiond/tools"
)

var cmdCallSpec = &command{
	Command: cli.Command{
		Name:     "call",
		Summary:  "run one tool in this process and print the /invoke response",
		Synopsis: "[flags] TOOL [ARGS_JSON]",
		About: `Run one tool in this process, through the same execution path as POST
/invoke (schema defaults, validation, limits, the evidence envelope), and
print the /invoke response as one line of canonical JSON: the bytes a server
would answer. Nothing is written unless the tool writes a file (generate_file
stores it under --data-dir/downloads).
`,
		Args: [][2]string{
			{"TOOL", "the tool's name ('precisiond tools' lists them)"},
			{"ARGS_JSON", "its arguments, a JSON object; '-' reads them from stdin; default {}"},
		},
		Exit: "0 answered, 1 a tool-level error (its error body is printed), 2 usage error",
		Examples: []string{
			`precisiond call gcd_lcm '{"a":391,"b":299}'`,
			`precisiond call unit_convert '{"value":100,"from_unit":"degF","to_unit":"degC"}'`,
			`jq -Rs '{content: ., format: "docx", filename: "report"}' report.md | precisiond call generate_file -`,
		},
		Settings: []string{"data-dir", "store", "store-timeout", "public-base-url", "tools", "call-timeout", "max-body-bytes", "download-ttl", "max-store-bytes", "log-level"},
	},
	flagHelp: map[string]string{"max-body-bytes": "largest ARGS_JSON accepted"},
	stateDir: true,
	run:      cmdCall,
}

// cmdCall runs one tool locally through the same execution path as /invoke and
// prints the same JSON.
func cmdCall(c *command, args []string, e *cli.Env) int {
	cfg, rest, code, ok := c.start(args, e, -1, nil)
	if !ok {
		return code
	}
	if len(rest) < 1 || len(rest) > 2 {
		return c.Fail(e, "want TOOL and at most one ARGS_JSON, got %d arguments", len(rest))
	}
	tool, argText := rest[0], "{}"
	if len(rest) == 2 {
		argText = rest[1]
	}
	if argText, ok = e.Text(argText, cfg.MaxBodyBytes); !ok {
		fmt.Fprintf(e.Stderr, "precisiond call: cannot read the arguments from stdin, or they exceed --max-body-bytes (%d)\n", cfg.MaxBodyBytes)
		return 2
	}
	reg, log, ok := callRegistry(*cfg, e)
	if !ok {
		return 1
	}
	resp, err := reg.Call(context.Background(), tool, []byte(argText), "")
	if te := (*tools.Error)(nil); errors.As(err, &te) && te.Code == tools.CodeInvalidRequest {
		return c.Fail(e, "ARGS_JSON must be a JSON object: %s", te.Message)
	}
	if err != nil {
		_, body := surface.ErrorResponse(context.Background(), log, tool, err)
		printJSON(e.Stdout, body)
		return 1
	}
	printJSON(e.Stdout, api.ResponseBody(resp))
	return 0
}

// callRegistry is the registry of a one-shot command (call, answer): this
// process's tools on the configured store, logging start-up failures.
func callRegistry(cfg Config, e *cli.Env) (*tools.Registry, *slog.Logger, bool) {
	log := newLogger(e.Stderr, cfg.LogLevel)
	store, err := openStore(cfg, log, true)
	if err == nil {
		var reg *tools.Registry
		if reg, _, err = processRegistry(cfg, log, store, nil); err == nil {
			return reg, log, true
		}
	}
	log.Error("start-up failed", "err", err.Error())
	return nil, log, false
}

func printJSON(w io.Writer, v any) {
	b, err := evidence.Canonical(v)
	if err != nil {
		fmt.Fprintln(w, `{"error":"internal error","error_code":"internal_error","tool":""}`)
		return
	}
	fmt.Fprintln(w, string(b))
}

var cmdToolsSpec = &command{
	Command: cli.Command{
		Name:     "tools",
		Summary:  "list the tools, or print one tool's contract",
		Synopsis: "[flags] [TOOL]",
		About: `Without TOOL, list the tools in catalogue order, one a line: the name and
its title, "(disabled)" when an administrator disabled it. With TOOL, print
its catalogue entry (GET /tools/TOOL: contract, schemas, hashes, examples) as
indented JSON. --json prints the whole catalogue (GET /tools) or the entry as
one line of canonical JSON. --tools shows what a server with that allowlist
exposes.
`,
		Args:     [][2]string{{"TOOL", "a tool's name; omitted: all tools"}},
		Exit:     "0, 1 for an unknown TOOL, 2 usage error",
		Examples: []string{"precisiond tools", "precisiond tools gcd_lcm", "precisiond tools --json > catalog.json"},
		Settings: []string{"data-dir", "store", "store-timeout", "tools"},
	},
	stateDir: true,
	run:      cmdTools,
}

// cmdTools prints the tool list, one tool's entry, or the catalogue.
func cmdTools(c *command, args []string, e *cli.Env) int {
	var asJSON *bool
	cfg, rest, code, ok := c.start(args, e, 1, func(fs *flag.FlagSet) {
		asJSON = fs.Bool("json", false, "print canonical JSON: the catalogue as GET /tools serves it, or TOOL's entry")
	})
	if !ok {
		return code
	}
	reg, _, err := newRegistry(*cfg, newLogger(e.Stderr, "error"), nil, nil, nil)
	if err != nil {
		fmt.Fprintln(e.Stderr, "precisiond tools:", err)
		return 1
	}
	if len(rest) == 1 {
		entry, ok := reg.Entry(rest[0])
		if !ok {
			fmt.Fprintf(e.Stderr, "precisiond tools: %s\n", reg.UnknownTool(rest[0]).Message)
			return 1
		}
		if *asJSON {
			printJSON(e.Stdout, entry)
			return 0
		}
		pretty, err := tools.IndentedJSON(entry)
		if err != nil {
			fmt.Fprintln(e.Stderr, "precisiond tools:", err)
			return 1
		}
		fmt.Fprintln(e.Stdout, pretty)
		return 0
	}
	cat := reg.Catalog()
	if *asJSON {
		printJSON(e.Stdout, api.CatalogBody(cat))
		return 0
	}
	for _, line := range cat.Lines() {
		fmt.Fprintln(e.Stdout, line)
	}
	return 0
}

var cmdVerifySpec = &command{
	Command: cli.Command{
		Name:     "verify",
		Summary:  "recheck a saved response: its hashes and its result text",
		Synopsis: "[--catalog FILE | --url URL] [--jwks KEYS]",
		About: `Read an /invoke response (or a bare structured_result, e.g. an MCP
structuredContent) on stdin and recheck it offline: the contract_hash against
the catalogue, the result_hash over contract_hash, input_normalized and
facts, the facts against the tool's output schema, and the legacy "result"
text, which is re-rendered from input_normalized and facts by this binary's
tool and must be identical. The catalogue is this binary's own unless
--catalog or --url names another. With --jwks the answer's attestation must
verify against that key set too, and the OK line names the key that signed
(an MCP tools/call result is read with the attestation in its _meta).
`,
		Exit:     "0 every check passed, 1 a check failed (FAIL: names it), 2 unreadable input or usage error",
		Examples: []string{`precisiond call gcd_lcm '{"a":391,"b":299}' | precisiond verify`, `curl -s localhost:8003/invoke -H 'Content-Type: application/json' -d @req.json | precisiond verify --url http://127.0.0.1:8003`},
	},
	run: cmdVerify,
}

// cmdVerify reads an /invoke response (or a bare structured_result, or an MCP
// tools/call result) from stdin and rechecks it against a catalogue: this
// binary's own, a saved GET /tools document (--catalog FILE) or a running
// server's (--url http://host:port); the legacy result text is re-rendered
// from the envelope by this binary's tool. With --jwks (a key set file or
// URL) the attestation must also verify, and the line says which key signed
// (docs/attestation.md). A plan run answer ({"plan_id", "runs"}) is checked
// by plans.VerifyRun.
func cmdVerify(c *command, args []string, e *cli.Env) int {
	var catalogFile, url, jwksArg, issuer *string
	_, _, code, ok := c.start(args, e, 0, func(fs *flag.FlagSet) {
		catalogFile = fs.String("catalog", "", "verify against a saved GET /tools response in `FILE`")
		url = fs.String("url", "", "verify against the catalogue of the running server at `URL` (its GET /tools)")
		jwksArg = fs.String("jwks", "", "also check the attestation against the key set in `FILE` or at URL (a server's base URL reads its /.well-known/jwks.json)")
		issuer = fs.String("issuer", "", "with --jwks, require this iss claim (`ISS`; default: any issuer, printed)")
	})
	if !ok {
		return code
	}
	in, err := io.ReadAll(io.LimitReader(e.Stdin, 64<<20))
	if err != nil {
		fmt.Fprintln(e.Stderr, "precisiond verify: reading stdin:", err)
		return 2
	}
	answer, err := answercheck.ParseSavedAnswer(in)
	if err != nil {
		fmt.Fprintln(e.Stderr, "precisiond verify: stdin is not a JSON object (an /invoke response or a structured_result)")
		return 2
	}
	// This binary's registry: its catalogue, and the tools that re-render
	// the result text. Hashes do not depend on the enabled state: no toggle
	// file needed. A server with API tokens wants one for --url:
	// PRECISIOND_API_TOKEN (access.go).
	own := func(log io.Writer) func() (*tools.Registry, error) {
		return func() (*tools.Registry, error) {
			cfg := DefaultConfig()
			cfg.DataDir = ""
			reg, _, err := newRegistry(cfg, newLogger(log, "error"), nil, nil, nil)
			return reg, err
		}
	}
	catalog, err := answercheck.LoadCatalog(*catalogFile, *url, os.Getenv(apiTokenEnv), own(e.Stderr))
	if err != nil {
		fmt.Fprintln(e.Stderr, "precisiond verify:", err)
		return 2
	}
	var sig *attest.Checker
	var runSig plans.RunAttestations // nil, not a nil *Checker, without --jwks
	if *jwksArg != "" {
		keys, err := answercheck.LoadKeySet(*jwksArg)
		if err != nil {
			fmt.Fprintln(e.Stderr, "precisiond verify:", err)
			return 2
		}
		sig = &attest.Checker{Keys: keys, Issuer: *issuer, Now: time.Now()}
		runSig = sig
	}
	if answer.IsPlanRun() {
		rc := plans.VerifyRun(answer.Doc, catalog, runSig)
		fmt.Fprintln(e.Stdout, rc.Report())
		return min(len(rc.Problems), 1)
	}
	rc, err := answercheck.VerifyAnswer(answer, catalog, own(io.Discard), sig)
	if err != nil {
		fmt.Fprintln(e.Stdout, "FAIL:", err)
		return 1
	}
	fmt.Fprintln(e.Stdout, rc.Report())
	return 0
}

var cmdHealthSpec = &command{
	Command: cli.Command{
		Name:     "health",
		Summary:  "probe a running server's /health (container health checks)",
		Synopsis: "[--addr HOST:PORT]",
		About: `Ask the server at --addr for GET /health and print "ok" when it answers
status ok. Needs no shell or curl, so a distroless container's HEALTHCHECK
can run it.
`,
		Exit:     "0 healthy, 1 unreachable or unhealthy, 2 usage error",
		Examples: []string{"precisiond health", "precisiond health --addr 127.0.0.1:9000"},
		Settings: []string{"addr", "tls-cert", "tls-key"}, // with TLS it probes over HTTPS (access.go)
	},
	flagHelp: map[string]string{"addr": "address of the server to probe",
		"tls-cert": "the server's certificate, as given to serve: probe over HTTPS", "tls-key": "the server's key, as given to serve"},
	run: cmdHealth,
}

// cmdHealth probes a running server's /health: exit 0 when it answers status ok.
func cmdHealth(c *command, args []string, e *cli.Env) int {
	cfg, _, code, ok := c.start(args, e, 0, nil)
	if !ok {
		return code
	}
	if err := answercheck.Health(healthURL(*cfg), cfg.Access.TLSCert != ""); err != nil {
		fmt.Fprintln(e.Stderr, "precisiond health:", err)
		return 1
	}
	fmt.Fprintln(e.Stdout, "ok")
	return 0
}

var cmdMCPSpec = &command{
	Command: cli.Command{
		Name:     "mcp",
		Summary:  "MCP over stdio, for clients that start the server themselves",
		Synopsis: "[flags]",
		About: `Serve the Model Context Protocol over stdio: newline-delimited JSON-RPC on
stdin and stdout, logs on stderr only. For MCP clients that start their
servers (Claude Desktop, Claude Code, IDEs). The same tools, envelopes and
errors as /mcp; with --surface compact the four tools of /mcp/compact
(list_tools, describe_tools, run_plan, rerun_plan; plans persist in
--data-dir/plans.db). It writes nothing until a tool stores something there
(generate_file a file, run_plan a plan), and follows toggles made in that
directory by a server sharing it. Ends when the client closes stdin, or on
SIGINT/SIGTERM.
`,
		Exit: "0 the client closed the session, 1 start-up or transport error, 2 usage error",
		Examples: []string{"precisiond mcp", "claude mcp add precisiond -- precisiond mcp",
			"precisiond mcp --surface compact --tools 'gcd_lcm,date_*'", "docker run -i --rm precisiond mcp"},
		Settings: []string{"data-dir", "store", "store-timeout", "public-base-url", "tools", "surface", "call-timeout", "max-concurrency", "queue-wait", "max-body-bytes",
			"download-ttl", "max-store-bytes", "log-level", "isolate-tools", "workers", "worker-memory",
			"plan-timeout", "plan-max-calls", "plan-max-response-bytes", "plan-store-bytes"},
	},
	stateDir: true,
	run:      cmdMCP,
}

// cmdMCP serves MCP over stdio: JSON-RPC on stdin/stdout, logs on stderr only.
// Its download store is created by the first file generate_file writes, so a
// session that generates none writes nothing.
func cmdMCP(c *command, args []string, e *cli.Env) int {
	cfg, _, code, ok := c.start(args, e, 0, nil)
	if !ok {
		return code
	}
	log := newLogger(e.Stderr, cfg.LogLevel)
	started, err := serveMCPStdio(*cfg, log, e)
	switch {
	case err != nil && !started:
		log.Error("start-up failed", "err", err.Error())
		return 1
	case err != nil:
		log.Error("MCP session ended with an error", "err", err.Error())
		return 1
	}
	return 0
}

// serveMCPStdio opens what an MCP session over stdio needs and serves it until
// stdin closes or a signal arrives; started tells a start-up error from one
// of the session.
func serveMCPStdio(cfg Config, log *slog.Logger, e *cli.Env) (started bool, err error) {
	store, err := openStore(cfg, log, true)
	if err != nil {
		return false, err
	}
	if err := tools.StartupSelfCheck(context.Background()); err != nil {
		return false, err
	}
	pool, err := newWorkerPool(cfg, log, store)
	if err != nil {
		return false, err
	}
	if pool != nil {
		defer pool.Close()
	}
	reg, tg, err := processRegistry(cfg, log, store, pool)
	if err != nil {
		return false, err
	}
	planSvc, closePlans, err := mcpPlans(cfg, reg, log)
	if err != nil {
		return false, err
	}
	defer closePlans()
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	// A toggle made through a server on the same data directory reaches this
	// session too: the MCP surface sends notifications/tools/list_changed.
	background(ctx, cfg, log, store, tg, reg)
	log.Info("serving MCP over stdio", "surface", cfg.MCPSurface, "tools", len(reg.Names()), "version", versionString(), "data_dir", cfg.DataDir)
	return true, mcpserver.ServeStdio(ctx, reg, mcpserver.Options{
		Logger:      log,
		Files:       store,
		DownloadURL: surface.DownloadLinks(cfg.PublicBaseURL),
		// tool icons name the service at this URL, as download links do
		PublicBaseURL: cfg.PublicBaseURL,
		Version:       versionString(),
		MaxBodyBytes:  cfg.MaxBodyBytes,
		Surface:       cfg.MCPSurface,
		Plans:         planSvc,
	}, e.Stdin, e.Stdout)
}

var cmdSelfCheckSpec = &command{
	Command: cli.Command{
		Name:     "selfcheck",
		Summary:  "run every tool's examples and compare their facts",
		Synopsis: "",
		About: `Run every example of every tool's contract through the execution path and
compare the facts with the documented ones. generate_file's examples write
into a temporary directory that is removed afterwards; nothing else is
written.
`,
		Exit:     "0 every example gave its facts, 1 one did not (FAIL: names it), 2 usage error",
		Examples: []string{"precisiond selfcheck"},
	},
	run: cmdSelfCheck,
}

// cmdSelfCheck runs every example of every tool through the execution path,
// those of tools that write against a throwaway download store in a temporary
// directory that is removed afterwards.
func cmdSelfCheck(c *command, args []string, e *cli.Env) int {
	if _, _, code, ok := c.start(args, e, 0, nil); !ok {
		return code
	}
	dir, err := os.MkdirTemp("", "precisiond-selfcheck-")
	if err != nil {
		fmt.Fprintln(e.Stderr, "precisiond selfcheck:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	store, err := filestore.Open(filestore.Config{Dir: dir})
	if err != nil {
		fmt.Fprintln(e.Stderr, "precisiond selfcheck:", err)
		return 1
	}
	list := tools.Builtin(tools.Deps{Files: store})
	if err := tools.CheckExamples(context.Background(), list); err != nil {
		fmt.Fprintln(e.Stdout, "FAIL:", err)
		return 1
	}
	fmt.Fprintf(e.Stdout, "OK: %d examples of %d tools\n", tools.CountExamples(list), len(list))
	return 0
}
