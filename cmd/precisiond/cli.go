package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/precisiond/precisiond/api"
	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/internal/filestore"
	"github.com/precisiond/precisiond/tools"
)

// cmdCall runs one tool locally through the same execution path as /invoke and
// prints the same JSON. Exit 0 on success, 1 on a tool-level error, 2 on usage.
func cmdCall(args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	cfg, rest, err := loadConfig("call", args, getenv)
	if err != nil {
		fmt.Fprintln(stderr, "precisiond call:", err)
		return 2
	}
	if len(rest) < 1 || len(rest) > 2 {
		fmt.Fprintln(stderr, "usage: precisiond call TOOL ['ARGS_JSON']  (ARGS_JSON '-' reads stdin)")
		return 2
	}
	tool, argText := rest[0], "{}"
	if len(rest) == 2 {
		argText = rest[1]
	}
	if argText == "-" {
		b, err := io.ReadAll(io.LimitReader(os.Stdin, cfg.MaxBodyBytes+1))
		if err != nil || int64(len(b)) > cfg.MaxBodyBytes {
			fmt.Fprintln(stderr, "precisiond call: cannot read arguments from stdin (or over the body limit)")
			return 2
		}
		argText = string(b)
	}
	log := newLogger(stderr, cfg.LogLevel)
	store, err := openStore(cfg)
	if err != nil {
		log.Error("start-up failed", "err", err.Error())
		return 1
	}
	reg, _, err := newRegistry(cfg, log, store, nil, nil)
	if err != nil {
		log.Error("start-up failed", "err", err.Error())
		return 1
	}
	resp, err := reg.Call(context.Background(), tool, []byte(argText), "")
	if te := (*tools.Error)(nil); errors.As(err, &te) && te.Code == tools.CodeInvalidRequest {
		fmt.Fprintln(stderr, "precisiond call: ARGS_JSON must be a JSON object")
		return 2
	}
	if err != nil {
		_, body := api.ErrorResponse(context.Background(), log, tool, err)
		printJSON(stdout, body)
		return 1
	}
	printJSON(stdout, api.ResponseBody(resp))
	return 0
}

func printJSON(w io.Writer, v any) {
	b, err := evidence.Canonical(v)
	if err != nil {
		fmt.Fprintln(w, `{"error":"internal error","error_code":"internal_error","tool":""}`)
		return
	}
	fmt.Fprintln(w, string(b))
}

// cmdTools prints the catalogue exactly as GET /tools serves it.
func cmdTools(args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	cfg, _, err := loadConfig("tools", args, getenv)
	if err != nil {
		fmt.Fprintln(stderr, "precisiond tools:", err)
		return 2
	}
	reg, _, err := newRegistry(cfg, newLogger(stderr, cfg.LogLevel), nil, nil, nil)
	if err != nil {
		fmt.Fprintln(stderr, "precisiond tools:", err)
		return 1
	}
	cat := reg.Catalog()
	list := make([]any, len(cat.Tools))
	for i, t := range cat.Tools {
		list[i] = t
	}
	printJSON(stdout, map[string]any{"tools": list, "catalog_hash": cat.CatalogHash})
	return 0
}

// cmdVerify reads an /invoke response (or a bare structured_result) from stdin and
// rechecks it against a catalogue: this binary's own, a saved GET /tools document
// (--catalog FILE) or a running server's (--url http://host:port). Exit 0 when
// every check passes, 1 on any mismatch, 2 on usage or input errors.
// A plan run answer ({"plan_id", "runs"}) is checked by verifyPlanRun.
func cmdVerify(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	fs := flag.NewFlagSet("precisiond verify", flag.ContinueOnError)
	fs.SetOutput(stderr)
	catalogFile := fs.String("catalog", "", "a saved GET /tools response to verify against")
	url := fs.String("url", "", "a running server whose /tools to verify against")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	in, err := io.ReadAll(io.LimitReader(stdin, 64<<20))
	if err != nil {
		fmt.Fprintln(stderr, "precisiond verify: reading stdin:", err)
		return 2
	}
	v, err := evidence.ParseJSON(in)
	doc, ok := v.(map[string]any)
	if err != nil || !ok {
		fmt.Fprintln(stderr, "precisiond verify: stdin is not a JSON object")
		return 2
	}
	sr := doc
	if inner, ok := doc["structured_result"].(map[string]any); ok {
		sr = inner
	}
	tool, _ := sr["tool"].(string)
	catalog, err := loadCatalog(*catalogFile, *url, getenv, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "precisiond verify:", err)
		return 2
	}
	if _, isRun := doc["runs"]; isRun {
		return verifyPlanRun(doc, catalog, stdout) // verify_plan.go
	}
	var entry map[string]any
	for _, t := range catalog {
		if m, ok := t.(map[string]any); ok && m["name"] == tool {
			entry = m
		}
	}
	if entry == nil {
		fmt.Fprintf(stdout, "FAIL: tool %q is not in the catalogue\n", tool)
		return 1
	}
	if err := evidence.Verify(sr, entry); err != nil {
		fmt.Fprintln(stdout, "FAIL:", err)
		return 1
	}
	fmt.Fprintf(stdout, "OK: %s contract_hash %s result_hash %s\n", tool, sr["contract_hash"], sr["result_hash"])
	return 0
}

func loadCatalog(file, url string, getenv func(string) string, stderr io.Writer) ([]any, error) {
	var data []byte
	switch {
	case file != "":
		b, err := os.ReadFile(file)
		if err != nil {
			return nil, err
		}
		data = b
	case url != "":
		// A server with API tokens wants one: PRECISIOND_API_TOKEN (access.go).
		b, err := httpGet(strings.TrimSuffix(url, "/")+"/tools", getenv(apiTokenEnv), false)
		if err != nil {
			return nil, err
		}
		data = b
	default:
		cfg := DefaultConfig()
		cfg.DataDir = "" // hashes do not depend on the enabled state: no toggle file needed
		reg, _, err := newRegistry(cfg, newLogger(stderr, "error"), nil, nil, nil)
		if err != nil {
			return nil, err
		}
		out := []any{}
		for _, t := range reg.Catalog().Tools {
			// Round-trip through JSON so the entry is generic like a fetched one.
			b, _ := evidence.Canonical(t)
			g, _ := evidence.ParseJSON(b)
			out = append(out, g)
		}
		return out, nil
	}
	v, err := evidence.ParseJSON(data)
	if err != nil {
		return nil, fmt.Errorf("catalogue is not JSON: %v", err)
	}
	m, _ := v.(map[string]any)
	list, ok := m["tools"].([]any)
	if !ok {
		return nil, fmt.Errorf("catalogue has no tools list")
	}
	return list, nil
}

// httpGet fetches url (5 s, at most 64 MiB) with an optional bearer token;
// skipVerify accepts any server certificate (httpClient, access.go).
func httpGet(url, bearer string, skipVerify bool) ([]byte, error) {
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	if bearer != "" {
		req.Header.Set("Authorization", "Bearer "+bearer)
	}
	resp, err := httpClient(skipVerify).Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return b, fmt.Errorf("%s answered %s", url, resp.Status)
	}
	return b, nil
}

// cmdHealth probes a running server's /health: exit 0 when it answers status ok.
// Needs no shell, so a distroless container's HEALTHCHECK can run it.
func cmdHealth(args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	cfg, rest, err := loadConfig("health", args, getenv)
	if err != nil || len(rest) > 0 {
		fmt.Fprintln(stderr, "usage: precisiond health [--addr host:port]")
		return 2
	}
	b, err := httpGet(healthURL(cfg), "", cfg.Access.TLSCert != "")
	if err != nil {
		fmt.Fprintln(stderr, "precisiond health:", err)
		return 1
	}
	v, err := evidence.ParseJSON(b)
	m, _ := v.(map[string]any)
	if err != nil || m["status"] != "ok" {
		fmt.Fprintln(stderr, "precisiond health: unhealthy:", string(b))
		return 1
	}
	fmt.Fprintln(stdout, "ok")
	return 0
}

// cmdMCP serves MCP over stdio: JSON-RPC on stdin/stdout, logs on stderr only.
// It opens the same data directory as serve and call, so generate_file works and
// its files are readable as resources. Exit 0 when the client closes stdin or on
// SIGINT/SIGTERM, 1 on a start-up or transport error, 2 on usage.
func cmdMCP(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	cfg, rest, err := loadConfig("mcp", args, getenv)
	if err != nil {
		fmt.Fprintln(stderr, "precisiond mcp:", err)
		return 2
	}
	if len(rest) > 0 {
		fmt.Fprintf(stderr, "precisiond mcp: unexpected arguments %q\n", rest)
		return 2
	}
	log := newLogger(stderr, cfg.LogLevel)
	store, err := openStore(cfg)
	if err != nil {
		log.Error("start-up failed", "err", err.Error())
		return 1
	}
	if err := startupSelfCheck(); err != nil {
		log.Error("start-up failed", "err", err.Error())
		return 1
	}
	pool, err := newWorkerPool(cfg, log, store)
	if err != nil {
		log.Error("start-up failed", "err", err.Error())
		return 1
	}
	if pool != nil {
		defer pool.Close()
	}
	reg, tg, err := newRegistry(cfg, log, store, nil, pool)
	if err != nil {
		log.Error("start-up failed", "err", err.Error())
		return 1
	}
	planSvc, closePlans, err := mcpPlans(cfg, reg, log)
	if err != nil {
		log.Error("start-up failed", "err", err.Error())
		return 1
	}
	defer closePlans()
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	// A toggle made through a server on the same data directory reaches this
	// session too: the MCP surface sends notifications/tools/list_changed.
	background(ctx, cfg, log, store, tg, reg)
	log.Info("serving MCP over stdio", "surface", cfg.MCPSurface, "tools", len(reg.Names()), "version", versionString())
	err = api.ServeMCPStdio(ctx, reg, api.MCPOptions{
		Logger:       log,
		Files:        store,
		Version:      versionString(),
		MaxBodyBytes: cfg.MaxBodyBytes,
		Surface:      cfg.MCPSurface,
		Plans:        planSvc,
	}, stdin, stdout)
	if err != nil {
		log.Error("MCP session ended with an error", "err", err.Error())
		return 1
	}
	return 0
}

// cmdSelfCheck runs every example of every tool through the execution path,
// those of tools that write against a throwaway download store in a temporary
// directory that is removed afterwards. Exit 0 when every example gives its
// documented facts, 1 otherwise, 2 on usage.
func cmdSelfCheck(args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	cfg, rest, err := loadConfig("selfcheck", args, getenv)
	if err != nil || len(rest) > 0 {
		fmt.Fprintln(stderr, "usage: precisiond selfcheck")
		return 2
	}
	dir, err := os.MkdirTemp("", "precisiond-selfcheck-")
	if err != nil {
		fmt.Fprintln(stderr, "precisiond selfcheck:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	store, err := filestore.Open(filestore.Config{Dir: dir, TTL: cfg.DownloadTTL})
	if err != nil {
		fmt.Fprintln(stderr, "precisiond selfcheck:", err)
		return 1
	}
	list := tools.Builtin(tools.Deps{Files: store})
	if err := tools.CheckExamples(context.Background(), list); err != nil {
		fmt.Fprintln(stdout, "FAIL:", err)
		return 1
	}
	n := 0
	for _, t := range list {
		n += len(t.Contract().Examples)
	}
	fmt.Fprintf(stdout, "OK: %d examples of %d tools\n", n, len(list))
	return 0
}
