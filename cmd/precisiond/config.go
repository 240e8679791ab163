package main

import (
	"fmt"
	"log/slog"
	"runtime"
	"slices"
	"time"

	"github.com/precisiond/precisiond/internal/blob"
	"github.com/precisiond/precisiond/internal/cli"
	"github.com/precisiond/precisiond/internal/fleetkey"
	"github.com/precisiond/precisiond/internal/surface"
	"github.com/precisiond/precisiond/mcpserver"
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

	// MCP HTTP+SSE stream limits (mcpserver.Options).
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

	// Plans (openPlansOn in app.go, docs/plans.md).
	PlanTimeout          time.Duration
	PlanMaxCalls         int
	PlanMaxResponseBytes int64
	PlanStoreBytes       int64

	// Signed answers and the answer cache (fleetkey.Settings; its flags in signing.go).
	Signing fleetkey.Settings

	// Fleet storage (fleet.go, docs/operations.md "Running a fleet").
	Store         string        // --store: file:DIR or s3://BUCKET/PREFIX; "": file:<DataDir>
	StoreTimeout  time.Duration // how long a store operation waits for an answer
	StoreRequired bool          // /ready fails while the store is down
	PublicBaseURL string        // absolute download links (legacy text, MCP); "": relative

	// Access control and TLS (access.go).
	Access AccessConfig
}

// DefaultConfig works with no configuration at all: serve listens on
// 127.0.0.1:8003 and keeps its data in ./data (README, Configuration).
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
		MaxSSEStreams:  mcpserver.DefaultMaxSSEStreams,
		SSEIdleTimeout: mcpserver.DefaultSSEIdleTimeout,
		SSEMaxLifetime: mcpserver.DefaultSSEMaxLifetime,
		IsolateTools:   cli.SplitList(defaultIsolateTools),
		Workers:        defaultWorkers,
		WorkerMemory:   defaultWorkerMemory,
		MCPSurface:     mcpserver.SurfaceFull,

		PlanTimeout:          plans.DefaultTimeout,
		PlanMaxCalls:         plans.DefaultMaxCalls,
		PlanMaxResponseBytes: plans.DefaultMaxResponseBytes,
		PlanStoreBytes:       plans.DefaultStoreBytes,

		Signing:      fleetkey.DefaultSettings(),
		StoreTimeout: blob.DefaultOpTimeout,
	}
}

// setting is one of Config's settings: a flag and an environment variable.
type setting = cli.Setting[Config]

// set is a setting: flag name, environment variable, the placeholder of its
// value, the default its usage shows ("" for none), its help and its field.
func set(name, env, meta, def, help string, field func(*Config) any) setting {
	return setting{Name: name, Env: env, Meta: meta, Default: def, Help: help, Field: field}
}

var configFlags = append(cli.Settings[Config]{
	set("addr", "PRECISIOND_ADDR", "HOST:PORT", "127.0.0.1:8003", "listen address", func(c *Config) any { return &c.Addr }),
	set("data-dir", "PRECISIOND_DATA_DIR", "DIR", "./data", "data directory: the toggle file, generated downloads and plans.db", func(c *Config) any { return &c.DataDir }),
	set("admin-token", "PRECISIOND_ADMIN_TOKEN", "TOKEN", "", "bearer token for the admin endpoints; empty: they refuse", func(c *Config) any { return &c.AdminToken }),
	set("max-body-bytes", "PRECISIOND_MAX_BODY_BYTES", "BYTES", "1048576", "request body limit", func(c *Config) any { return &c.MaxBodyBytes }),
	set("max-body-bytes-in-flight", "PRECISIOND_MAX_BODY_BYTES_IN_FLIGHT", "BYTES", "2 x max-body-bytes", "request body bytes admitted at once across all requests", func(c *Config) any { return &c.BodyBudget }),
	set("call-timeout", "PRECISIOND_CALL_TIMEOUT", "DURATION", "5s", "per-call deadline", func(c *Config) any { return &c.CallTimeout }),
	set("max-concurrency", "PRECISIOND_MAX_CONCURRENCY", "N", "4 x CPUs", "tool executions running at once", func(c *Config) any { return &c.MaxConcurrency }),
	set("queue-wait", "PRECISIOND_QUEUE_WAIT", "DURATION", "250ms", "how long an excess call waits for a slot before it is refused as overloaded", func(c *Config) any { return &c.QueueWait }),
	set("download-ttl", "PRECISIOND_DOWNLOAD_TTL", "DURATION", "24h", "lifetime of generated files", func(c *Config) any { return &c.DownloadTTL }),
	set("max-store-bytes", "PRECISIOND_MAX_STORE_BYTES", "BYTES", "1073741824", "download store size cap; the oldest files are evicted first", func(c *Config) any { return &c.MaxStoreBytes }),
	set("log-level", "PRECISIOND_LOG_LEVEL", "LEVEL", "info", "debug, info, warn or error; logs are JSON lines on stderr", func(c *Config) any { return &c.LogLevel }),
	set("allowed-hosts", "PRECISIOND_ALLOWED_HOSTS", "HOSTS", "loopback only", "comma-separated extra Host names MCP accepts, against DNS rebinding", func(c *Config) any { return &c.AllowedHosts }),
	set("max-sse-streams", "PRECISIOND_MAX_SSE_STREAMS", "N", "100", "/mcp/sse streams open at once; more get 503", func(c *Config) any { return &c.MaxSSEStreams }),
	set("sse-idle-timeout", "PRECISIOND_SSE_IDLE_TIMEOUT", "DURATION", "10m", "close an /mcp/sse stream whose client sent nothing for this long", func(c *Config) any { return &c.SSEIdleTimeout }),
	set("sse-max-lifetime", "PRECISIOND_SSE_MAX_LIFETIME", "DURATION", "1h", "close any /mcp/sse stream after this long (clients reconnect)", func(c *Config) any { return &c.SSEMaxLifetime }),
	set("isolate-tools", "PRECISIOND_ISOLATE_TOOLS", "TOOLS", defaultIsolateTools, "comma-separated tools run in worker subprocesses with OS limits; \"none\" runs all in process", func(c *Config) any { return (*isolateValue)(&c.IsolateTools) }),
	set("workers", "PRECISIOND_WORKERS", "N", "2", "worker subprocesses alive at once; isolated calls beyond them wait", func(c *Config) any { return &c.Workers }),
	set("worker-memory", "PRECISIOND_WORKER_MEMORY", "BYTES", "268435456", "address space one worker may add to its start-up size; 0: no limit", func(c *Config) any { return &c.WorkerMemory }),
	set("tools", "PRECISIOND_TOOLS", "TOOLS", "all", "comma-separated allowlist of the tools to expose, globs allowed (\"gcd_lcm,date_*\"); the others are unknown on every surface", func(c *Config) any { return &c.Tools }),
	set("surface", "PRECISIOND_MCP_SURFACE", "SURFACE", "full", "what the MCP session serves: full (every tool) or compact (list_tools, describe_tools, run_plan, rerun_plan)", func(c *Config) any { return &c.MCPSurface }),
	set("plan-timeout", "PRECISIOND_PLAN_TIMEOUT", "DURATION", "30s", "overall deadline of one plan run request; each step also has --call-timeout", func(c *Config) any { return &c.PlanTimeout }),
	set("plan-max-calls", "PRECISIOND_PLAN_MAX_CALLS", "N", "4000", "most steps x parameter sets of one plan run request; more are refused before anything runs", func(c *Config) any { return &c.PlanMaxCalls }),
	set("plan-max-response-bytes", "PRECISIOND_PLAN_MAX_RESPONSE_BYTES", "BYTES", "8388608", "largest plan run answer; a larger one is refused (split the batch)", func(c *Config) any { return &c.PlanMaxResponseBytes }),
	set("plan-store-bytes", "PRECISIOND_PLAN_STORE_BYTES", "BYTES", "67108864", "size cap of the plan store (plans.db); the least recently used plans are evicted", func(c *Config) any { return &c.PlanStoreBytes }),
	set("store", "PRECISIOND_STORE", "LOCATION", "", "where the state replicas share lives (downloads, toggles, plans): file:DIR or s3://BUCKET/PREFIX (AWS_* variables); empty: file:<data-dir>", func(c *Config) any { return &c.Store }),
	set("store-timeout", "PRECISIOND_STORE_TIMEOUT", "DURATION", "5s", "how long one store operation waits for the store's answer before the store counts as unavailable", func(c *Config) any { return &c.StoreTimeout }),
	set("store-required", "PRECISIOND_STORE_REQUIRED", "", "false", "readiness (/ready) fails while the store is down", func(c *Config) any { return &c.StoreRequired }),
	set("public-base-url", "PRECISIOND_PUBLIC_BASE_URL", "URL", "", "absolute URL clients reach this service at (https://host/prefix): download links become absolute, and MCP tools name their icons under it", func(c *Config) any { return &c.PublicBaseURL }),
}, slices.Concat(signingFlags, accessFlags)...) // signing.go, access.go

// loadConfig builds the configuration of the command named cmd from the
// defaults, the environment and args (flags override the environment); it
// returns the arguments after the flags. Only the settings the command takes
// are read.
func loadConfig(cmd string, args []string, getenv func(string) string) (Config, []string, error) {
	c := commandNamed(cmd)
	cfg, fs, err := c.configFlagSet(getenv)
	if err != nil {
		return *cfg, nil, err
	}
	if err := fs.Parse(args); err != nil {
		return *cfg, nil, err
	}
	return *cfg, fs.Args(), cfg.validate()
}

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
	case c.MCPSurface != mcpserver.SurfaceFull && c.MCPSurface != mcpserver.SurfaceCompact:
		return fmt.Errorf("surface must be %s or %s", mcpserver.SurfaceFull, mcpserver.SurfaceCompact)
	case c.PlanTimeout <= 0 || c.PlanMaxCalls < 1 || c.PlanMaxResponseBytes < 1024 || c.PlanStoreBytes < 1<<20:
		return fmt.Errorf("plan-timeout and plan-max-calls must be positive, plan-max-response-bytes at least 1024, plan-store-bytes at least 1 MiB")
	}
	if _, err := parseLevel(c.LogLevel); err != nil {
		return err
	}
	if err := c.Signing.Validate(); err != nil {
		return err
	}
	if err := storeConfig(c).Validate(); err != nil {
		return err
	}
	if c.PublicBaseURL != "" {
		_, err := surface.PublicBase(c.PublicBaseURL)
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
