package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"time"

	"github.com/precisiond/precisiond/api"
	"github.com/precisiond/precisiond/internal/filestore"
	"github.com/precisiond/precisiond/internal/toggles"
	"github.com/precisiond/precisiond/internal/worker"
	"github.com/precisiond/precisiond/plans"
	"github.com/precisiond/precisiond/tools"
)

// Main is the whole service wired together: registry, HTTP surface, listener.
// A test starts it on 127.0.0.1:0 exactly as the binary does.
type Main struct {
	Config   Config
	Log      *slog.Logger
	Registry *tools.Registry
	API      *api.Server
	Store    *filestore.Store
	Toggles  *toggles.Store // the persisted enabled state; nil without a data dir
	Metrics  *api.Metrics
	Workers  *worker.Pool   // runs the isolated tools; nil when none is isolated
	Plans    *plans.Service // registers and runs plans (plans.go)

	closePlans func() error
	edge       edgeState // API tokens and TLS (access.go)

	ln     net.Listener
	server *http.Server
}

// NewMain builds the service from cfg. It does not listen yet.
func NewMain(cfg Config, log *slog.Logger) (*Main, error) {
	accessOpts, edge, err := accessOptions(cfg)
	if err != nil {
		return nil, err
	}
	store, err := openStore(cfg, false)
	if err != nil {
		return nil, err
	}
	if n := store.TempFilesRemoved(); n > 0 {
		log.Warn("removed temporary files left by killed writers", "dir", store.Dir(), "files", n)
	}
	if err := startupSelfCheck(); err != nil {
		return nil, err
	}
	pool, err := newWorkerPool(cfg, log, store)
	if err != nil {
		return nil, err
	}
	metrics := api.NewMetrics(api.MetricsOptions{Version: versionString(), StoreUsage: store.Usage})
	reg, tg, err := newRegistry(cfg, log, store, metrics, pool)
	if err != nil {
		if pool != nil {
			pool.Close()
		}
		return nil, err
	}
	metrics.Attach(reg)
	registerWorkerMetrics(metrics, pool, store)
	planSvc, closePlans, err := openPlans(cfg, reg, log)
	if err != nil {
		if pool != nil {
			pool.Close()
		}
		return nil, err
	}
	var toggler api.Toggler
	if tg != nil {
		toggler = tg
	}
	srv := api.New(reg, api.Options{
		Logger:       log,
		MaxBodyBytes: cfg.MaxBodyBytes,
		BodyBudget:   cfg.BodyBudget,
		QueueWait:    cfg.QueueWait,
		Version:      versionString(),
		Downloads:    store,
		AdminToken:   cfg.AdminToken,
		Toggles:      toggler,
		Metrics:      metrics,
		Plans:        planSvc,
		Access:       accessOpts,
		MCP: &api.MCPOptions{Files: store, AllowedHosts: cfg.AllowedHosts,
			MaxSSEStreams: cfg.MaxSSEStreams, SSEIdleTimeout: cfg.SSEIdleTimeout, SSEMaxLifetime: cfg.SSEMaxLifetime},
	})
	m := &Main{Config: cfg, Log: log, Registry: reg, API: srv, Store: store, Toggles: tg, Metrics: metrics, Workers: pool,
		Plans: planSvc, closePlans: closePlans, edge: edge}
	m.server = &http.Server{
		Handler:           srv,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      max(cfg.CallTimeout, cfg.PlanTimeout) + 30*time.Second,
		IdleTimeout:       120 * time.Second,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	return m, nil
}

// openStore opens the download store under the data directory. serve
// creates the directory at start (a volume it cannot write fails at once);
// mcp and call pass createOnWrite, so that a session that generates no file
// writes nothing, even in a read-only or missing directory.
func openStore(cfg Config, createOnWrite bool) (*filestore.Store, error) {
	store, err := filestore.Open(filestore.Config{
		Dir:           filepath.Join(cfg.DataDir, "downloads"),
		TTL:           cfg.DownloadTTL,
		MaxBytes:      cfg.MaxStoreBytes,
		CreateOnWrite: createOnWrite,
	})
	if err != nil {
		return nil, fmt.Errorf("download store: %w", err)
	}
	return store, nil
}

// newRegistry builds the registry every surface shares (HTTP, MCP, CLI) with
// the configured call policy; metrics, when not nil, observe every call. A nil
// store leaves generate_file answering store_unavailable (catalogue-only
// uses). Tools named by --isolate-tools run in pool when it is not nil. The
// disabled set persisted in the data directory is applied, so serve, mcp, call
// and tools all see the same enabled state; the toggle store is returned (nil
// without a data directory). A corrupt toggle file is a start-up error.
func newRegistry(cfg Config, log *slog.Logger, store *filestore.Store, metrics *api.Metrics, pool *worker.Pool) (*tools.Registry, *toggles.Store, error) {
	opts := tools.Options{DefaultTimeout: cfg.CallTimeout}
	var onReject func()
	if metrics != nil {
		onReject, opts.Observer = metrics.OnReject, metrics.Observe
	}
	opts.Limiter = tools.NewLimiter(cfg.MaxConcurrency, cfg.QueueWait, onReject)
	// --tools keeps the allowed tools only: the others are not registered, so
	// every surface treats them as unknown (docs/plans.md, Tool selection).
	list, err := tools.Select(isolate(cfg, log, tools.Builtin(tools.Deps{Files: store}), pool), cfg.Tools)
	if err != nil {
		return nil, nil, fmt.Errorf("--tools: %w", err)
	}
	reg := tools.NewRegistry(list, opts)
	if cfg.DataDir == "" {
		return reg, nil, nil
	}
	tg, unknown, err := toggles.Open(cfg.DataDir, reg)
	if err != nil {
		return nil, nil, fmt.Errorf("%w (fix or remove the file; it must be {\"disabled\":[tool names]})", err)
	}
	if len(unknown) > 0 {
		log.Warn("toggle file names tools this build does not have; ignored", "path", tg.Path(), "unknown", unknown)
	}
	return reg, tg, nil
}

// startupSelfCheck is the example self-check of the long-running commands
// (serve, mcp; SPEC §3): the examples of every read-only tool run through the
// execution path, and a failure stops the start. The examples of tools that
// write (generate_file) are left out, so that starting has no side effect on
// the data directory and works on a read-only one; `precisiond selfcheck`
// runs every example, those against a throwaway store.
func startupSelfCheck() error {
	if err := tools.CheckExamples(context.Background(), tools.ReadOnly(tools.Builtin(tools.Deps{}))); err != nil {
		return fmt.Errorf("start-up self-check: %w", err)
	}
	return nil
}

// Listen binds the configured address.
func (m *Main) Listen() error {
	ln, err := net.Listen("tcp", m.Config.Addr)
	if err != nil {
		return err
	}
	m.ln = ln
	return nil
}

// Addr is the bound address (useful with port 0).
func (m *Main) Addr() string { return m.ln.Addr().String() }

// Run serves until ctx ends, then drains: new calls get 503 while in-flight calls
// finish (at most 30 s).
func (m *Main) Run(ctx context.Context) error {
	if m.ln == nil {
		if err := m.Listen(); err != nil {
			return err
		}
	}
	m.Log.Info("listening", "addr", m.Addr(), "tools", len(m.Registry.Names()), "version", versionString())
	bctx, stopBackground := context.WithCancel(context.Background())
	defer stopBackground()
	background(bctx, m.Config, m.Log, m.Store, m.Toggles, m.Registry)
	m.watchEdge(bctx)
	errc := make(chan error, 1)
	go func() { errc <- m.server.Serve(m.listener()) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	m.Log.Info("shutting down: draining in-flight calls")
	m.API.Drain()
	sctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err := m.server.Shutdown(sctx)
	if e := <-errc; e != nil && !errors.Is(e, http.ErrServerClosed) && err == nil {
		err = e
	}
	m.Log.Info("stopped")
	return err
}

// background starts the periodic work of a long-running process until ctx
// ends: the download janitor, and with a toggle store, following the toggles
// written by another process on the same data directory (a replica sharing
// the volume, precisiond mcp beside serve).
func background(ctx context.Context, cfg Config, log *slog.Logger, store *filestore.Store, tg *toggles.Store, reg *tools.Registry) {
	go every(ctx, janitorInterval(cfg.DownloadTTL), func() {
		if err := store.Sweep(); err != nil {
			log.Warn("download janitor", "err", err.Error())
		}
	})
	if tg == nil {
		return
	}
	go every(ctx, toggleWatchInterval, func() {
		changed, _, err := tg.Reload()
		switch {
		case err != nil:
			log.Warn("toggle file unreadable; keeping the current state", "err", err.Error())
		case changed:
			log.Info("toggle file changed; state reloaded", "disabled", reg.Disabled(), "catalog_hash", reg.CatalogHash())
		}
	})
}

// toggleWatchInterval is how often the toggle file is re-read.
const toggleWatchInterval = 2 * time.Second

// every calls f every interval until ctx ends; f runs on the caller's
// goroutine, so two runs never overlap.
func every(ctx context.Context, interval time.Duration, f func()) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			f()
		}
	}
}

// janitorInterval sweeps often enough that a file outlives its TTL by at most
// a tenth of it (and at least every minute, at most every 10 minutes).
func janitorInterval(ttl time.Duration) time.Duration {
	return min(max(ttl/10, time.Minute), 10*time.Minute)
}

// Close releases what NewMain and Listen acquired.
func (m *Main) Close() error {
	if m.ln != nil {
		_ = m.server.Close()
	}
	if m.Workers != nil {
		_ = m.Workers.Close()
	}
	if m.closePlans != nil {
		_ = m.closePlans()
	}
	return nil
}
