package main

import (
	"flag"
	"fmt"
	"log/slog"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/precisiond/precisiond/api"
	"github.com/precisiond/precisiond/plans"
	"github.com/precisiond/precisiond/tools"
)

// Config is the whole service configuration. It starts from DefaultConfig; then
// PRECISIOND_* environment variables, then flags override.
type Config struct {
	Addr           string
	DataDir        string
	AdminToken     string
	MaxBodyBytes   int64
	BodyBudget     int64 // bytes of request bodies in flight; 0: 2 × MaxBodyBytes
	CallTimeout    time.Duration
	MaxConcurrency int
	QueueWait      time.Duration
	DownloadTTL    time.Duration
	MaxStoreBytes  int64
	LogLevel       string
	AllowedHosts   []string

	// MCP HTTP+SSE stream limits (api.MCPOptions).
	MaxSSEStreams  int
	SSEIdleTimeout time.Duration
	SSEMaxLifetime time.Duration

	// Process isolation (worker.go).
	IsolateTools []string
	Workers      int
	WorkerMemory int64

	// Tools is the --tools allowlist (globs); empty: every tool.
	Tools []string
	// MCPSurface is what `precisiond mcp` serves: full or compact.
	MCPSurface string

	// Plans (plans.go, docs/plans.md).
	PlanTimeout          time.Duration
	PlanMaxCalls         int
	PlanMaxResponseBytes int64
	PlanStoreBytes       int64

	// Access control and TLS (access.go).
	Access AccessConfig
}

// DefaultConfig works with no configuration at all (SPEC §11).
func DefaultConfig() Config {
	return Config{
		Addr:           "127.0.0.1:8003",
		DataDir:        "./data",
		MaxBodyBytes:   1 << 20,
		CallTimeout:    tools.DefaultTimeout,
		MaxConcurrency: 4 * runtime.NumCPU(),
		QueueWait:      250 * time.Millisecond,
		DownloadTTL:    24 * time.Hour,
		MaxStoreBytes:  1 << 30,
		LogLevel:       "info",
		MaxSSEStreams:  api.DefaultMaxSSEStreams,
		SSEIdleTimeout: api.DefaultSSEIdleTimeout,
		SSEMaxLifetime: api.DefaultSSEMaxLifetime,
		IsolateTools:   splitList(defaultIsolateTools),
		Workers:        defaultWorkers,
		WorkerMemory:   defaultWorkerMemory,
		MCPSurface:     api.SurfaceFull,

		PlanTimeout:          plans.DefaultTimeout,
		PlanMaxCalls:         plans.DefaultMaxCalls,
		PlanMaxResponseBytes: plans.DefaultMaxResponseBytes,
		PlanStoreBytes:       plans.DefaultStoreBytes,
	}
}

// configFlag describes one setting: its flag, environment variable and help.
type configFlag struct {
	name, env, help string
	bind            func(fs *flag.FlagSet, c *Config, name, help string)
}

var configFlags = []configFlag{
	{"addr", "PRECISIOND_ADDR", "listen address host:port", func(fs *flag.FlagSet, c *Config, n, h string) { fs.StringVar(&c.Addr, n, c.Addr, h) }},
	{"data-dir", "PRECISIOND_DATA_DIR", "data directory (toggle file, downloads)", func(fs *flag.FlagSet, c *Config, n, h string) { fs.StringVar(&c.DataDir, n, c.DataDir, h) }},
	{"admin-token", "PRECISIOND_ADMIN_TOKEN", "bearer token for admin endpoints; empty: they refuse", func(fs *flag.FlagSet, c *Config, n, h string) { fs.StringVar(&c.AdminToken, n, c.AdminToken, h) }},
	{"max-body-bytes", "PRECISIOND_MAX_BODY_BYTES", "request body limit in bytes", func(fs *flag.FlagSet, c *Config, n, h string) { fs.Int64Var(&c.MaxBodyBytes, n, c.MaxBodyBytes, h) }},
	{"max-body-bytes-in-flight", "PRECISIOND_MAX_BODY_BYTES_IN_FLIGHT", "request body bytes admitted at once across all requests (0: 2 x max-body-bytes)", func(fs *flag.FlagSet, c *Config, n, h string) { fs.Int64Var(&c.BodyBudget, n, c.BodyBudget, h) }},
	{"call-timeout", "PRECISIOND_CALL_TIMEOUT", "per-call deadline", func(fs *flag.FlagSet, c *Config, n, h string) { fs.DurationVar(&c.CallTimeout, n, c.CallTimeout, h) }},
	{"max-concurrency", "PRECISIOND_MAX_CONCURRENCY", "tool calls running at once (default 4 x CPUs)", func(fs *flag.FlagSet, c *Config, n, h string) { fs.IntVar(&c.MaxConcurrency, n, c.MaxConcurrency, h) }},
	{"queue-wait", "PRECISIOND_QUEUE_WAIT", "how long an excess call waits for a slot before 503", func(fs *flag.FlagSet, c *Config, n, h string) { fs.DurationVar(&c.QueueWait, n, c.QueueWait, h) }},
	{"download-ttl", "PRECISIOND_DOWNLOAD_TTL", "lifetime of generated files", func(fs *flag.FlagSet, c *Config, n, h string) { fs.DurationVar(&c.DownloadTTL, n, c.DownloadTTL, h) }},
	{"max-store-bytes", "PRECISIOND_MAX_STORE_BYTES", "download store size cap in bytes (oldest evicted first)", func(fs *flag.FlagSet, c *Config, n, h string) { fs.Int64Var(&c.MaxStoreBytes, n, c.MaxStoreBytes, h) }},
	{"log-level", "PRECISIOND_LOG_LEVEL", "debug, info, warn or error", func(fs *flag.FlagSet, c *Config, n, h string) { fs.StringVar(&c.LogLevel, n, c.LogLevel, h) }},
	{"allowed-hosts", "PRECISIOND_ALLOWED_HOSTS", "comma-separated extra Host names allowed for MCP (loopback is always allowed)", func(fs *flag.FlagSet, c *Config, n, h string) {
		fs.Func(n, h, func(s string) error { c.AllowedHosts = splitList(s); return nil })
	}},
	{"max-sse-streams", "PRECISIOND_MAX_SSE_STREAMS", "MCP /mcp/sse streams open at once; more get 503", func(fs *flag.FlagSet, c *Config, n, h string) { fs.IntVar(&c.MaxSSEStreams, n, c.MaxSSEStreams, h) }},
	{"sse-idle-timeout", "PRECISIOND_SSE_IDLE_TIMEOUT", "close an /mcp/sse stream whose client sent nothing for this long", func(fs *flag.FlagSet, c *Config, n, h string) {
		fs.DurationVar(&c.SSEIdleTimeout, n, c.SSEIdleTimeout, h)
	}},
	{"sse-max-lifetime", "PRECISIOND_SSE_MAX_LIFETIME", "close any /mcp/sse stream after this long (clients reconnect)", func(fs *flag.FlagSet, c *Config, n, h string) {
		fs.DurationVar(&c.SSEMaxLifetime, n, c.SSEMaxLifetime, h)
	}},
	{"isolate-tools", "PRECISIOND_ISOLATE_TOOLS", "tools run in worker subprocesses with OS limits (comma-separated; \"none\" runs all in process)", func(fs *flag.FlagSet, c *Config, n, h string) {
		fs.Func(n, h, func(s string) error { c.IsolateTools = isolateList(s); return nil })
	}},
	{"workers", "PRECISIOND_WORKERS", "worker subprocesses alive at once (isolated calls beyond it wait)", func(fs *flag.FlagSet, c *Config, n, h string) {
		fs.IntVar(&c.Workers, n, c.Workers, h)
	}},
	{"worker-memory", "PRECISIOND_WORKER_MEMORY", "memory (bytes of address space) one worker may add to its start-up size; 0: no limit", func(fs *flag.FlagSet, c *Config, n, h string) {
		fs.Int64Var(&c.WorkerMemory, n, c.WorkerMemory, h)
	}},
	{"tools", "PRECISIOND_TOOLS", "comma-separated allowlist of tools to expose, globs allowed (e.g. \"gcd_lcm,date_*\"); empty: all", func(fs *flag.FlagSet, c *Config, n, h string) {
		fs.Func(n, h, func(s string) error { c.Tools = splitList(s); return nil })
	}},
	{"surface", "PRECISIOND_MCP_SURFACE", "what precisiond mcp serves: full (every tool) or compact (list_tools, describe_tools, run_plan, rerun_plan)", func(fs *flag.FlagSet, c *Config, n, h string) {
		fs.StringVar(&c.MCPSurface, n, c.MCPSurface, h)
	}},
	{"plan-timeout", "PRECISIOND_PLAN_TIMEOUT", "overall deadline of one plan run request (each step also has --call-timeout)", func(fs *flag.FlagSet, c *Config, n, h string) {
		fs.DurationVar(&c.PlanTimeout, n, c.PlanTimeout, h)
	}},
	{"plan-max-calls", "PRECISIOND_PLAN_MAX_CALLS", "most steps x parameter sets of one plan run request (refused before anything runs)", func(fs *flag.FlagSet, c *Config, n, h string) {
		fs.IntVar(&c.PlanMaxCalls, n, c.PlanMaxCalls, h)
	}},
	{"plan-max-response-bytes", "PRECISIOND_PLAN_MAX_RESPONSE_BYTES", "largest plan run answer in bytes (larger: refused, split the batch)", func(fs *flag.FlagSet, c *Config, n, h string) {
		fs.Int64Var(&c.PlanMaxResponseBytes, n, c.PlanMaxResponseBytes, h)
	}},
	{"plan-store-bytes", "PRECISIOND_PLAN_STORE_BYTES", "size cap of the plan store (plans.db) in bytes; least recently used plans are evicted", func(fs *flag.FlagSet, c *Config, n, h string) {
		fs.Int64Var(&c.PlanStoreBytes, n, c.PlanStoreBytes, h)
	}},
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// loadConfig applies the environment to c, then parses args as flags over it.
func loadConfig(cmd string, args []string, getenv func(string) string) (Config, []string, error) {
	c := DefaultConfig()
	if err := applyEnv(&c, getenv); err != nil {
		return c, nil, err
	}
	fs := flag.NewFlagSet("precisiond "+cmd, flag.ContinueOnError)
	fs.SetOutput(os.Stderr)
	for _, f := range configFlags {
		f.bind(fs, &c, f.name, f.help+" (env "+f.env+")")
	}
	if err := fs.Parse(args); err != nil {
		return c, nil, err
	}
	return c, fs.Args(), c.validate()
}

func applyEnv(c *Config, getenv func(string) string) error {
	// Parse each variable as its flag would, through a throwaway flag set.
	fs := flag.NewFlagSet("env", flag.ContinueOnError)
	fs.SetOutput(nopWriter{})
	for _, f := range configFlags {
		f.bind(fs, c, f.name, f.help)
	}
	for _, f := range configFlags {
		if v := getenv(f.env); v != "" {
			if err := fs.Set(f.name, v); err != nil {
				return fmt.Errorf("%s=%q: %v", f.env, v, err)
			}
		}
	}
	return nil
}

type nopWriter struct{}

func (nopWriter) Write(p []byte) (int, error) { return len(p), nil }

func (c Config) validate() error {
	switch {
	case c.MaxBodyBytes < 1024:
		return fmt.Errorf("max-body-bytes must be at least 1024")
	case c.BodyBudget != 0 && c.BodyBudget < c.MaxBodyBytes:
		return fmt.Errorf("max-body-bytes-in-flight must be 0 or at least max-body-bytes")
	case c.CallTimeout <= 0:
		return fmt.Errorf("call-timeout must be positive")
	case c.MaxConcurrency < 1:
		return fmt.Errorf("max-concurrency must be at least 1")
	case c.QueueWait < 0:
		return fmt.Errorf("queue-wait must not be negative")
	case c.DownloadTTL <= 0:
		return fmt.Errorf("download-ttl must be positive")
	case c.MaxSSEStreams < 1:
		return fmt.Errorf("max-sse-streams must be at least 1")
	case c.SSEIdleTimeout <= 0 || c.SSEMaxLifetime <= 0:
		return fmt.Errorf("sse-idle-timeout and sse-max-lifetime must be positive")
	case c.Workers < 1:
		return fmt.Errorf("workers must be at least 1")
	case c.WorkerMemory < 0:
		return fmt.Errorf("worker-memory must not be negative")
	case c.MCPSurface != api.SurfaceFull && c.MCPSurface != api.SurfaceCompact:
		return fmt.Errorf("surface must be %s or %s", api.SurfaceFull, api.SurfaceCompact)
	case c.PlanTimeout <= 0 || c.PlanMaxCalls < 1 || c.PlanMaxResponseBytes < 1024 || c.PlanStoreBytes < 1<<20:
		return fmt.Errorf("plan-timeout and plan-max-calls must be positive, plan-max-response-bytes at least 1024, plan-store-bytes at least 1 MiB")
	}
	if _, err := parseLevel(c.LogLevel); err != nil {
		return err
	}
	return nil
}

func parseLevel(s string) (slog.Level, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(s)); err != nil {
		return l, fmt.Errorf("log-level %q: use debug, info, warn or error", s)
	}
	return l, nil
}
