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
	Workers  *worker.Pool // runs the isolated tools; nil when none is isolated

	ln     net.Listener
	server *http.Server
}

// NewMain builds the service from cfg. It does not listen yet.
func NewMain(cfg Config, log *slog.Logger) (*Main, error) {
	store, err := openStore(cfg)
	if err != nil {
		return nil, err
	}
	if n := store.TempFilesRemoved(); n > 0 {
		log.Warn("removed temporary files left by killed writers", "dir", store.Dir(), "files", n)
	}
	pool, err := newWorkerPool(cfg, log, store)
	if err != nil {
		return nil, err
	}
	reg, tg, err := newRegistryToggles(cfg, log, store, pool)
	if err != nil {
		if pool != nil {
			pool.Close()
		}
		return nil, err
	}
	metrics := api.NewMetrics(reg, api.MetricsOptions{Version: versionString(), StoreUsage: store.Usage})
	registerWorkerMetrics(metrics, pool, store)
	reg.SetLimiter(tools.NewLimiter(cfg.MaxConcurrency, cfg.QueueWait, metrics.OnReject))
	reg.SetObserver(metrics.Observe)
	var toggler api.Toggler
	if tg != nil {
		toggler = tg
	}
	srv := api.New(reg, api.Options{
		Logger:       log,
		CallTimeout:  cfg.CallTimeout,
		MaxBodyBytes: cfg.MaxBodyBytes,
		Version:      versionString(),
		Downloads:    store.Handler(),
		AdminToken:   cfg.AdminToken,
		Toggles:      toggler,
		Metrics:      metrics,
		MCP: &api.MCPOptions{Files: store, AllowedHosts: cfg.AllowedHosts,
			MaxSSEStreams: cfg.MaxSSEStreams, SSEIdleTimeout: cfg.SSEIdleTimeout, SSEMaxLifetime: cfg.SSEMaxLifetime},
	})
	m := &Main{Config: cfg, Log: log, Registry: reg, API: srv, Store: store, Toggles: tg, Metrics: metrics, Workers: pool}
	m.server = &http.Server{
		Handler:           srv,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      cfg.CallTimeout + 30*time.Second,
		IdleTimeout:       120 * time.Second,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	return m, nil
}

// openStore opens the download store under the data directory.
func openStore(cfg Config) (*filestore.Store, error) {
	store, err := filestore.Open(filestore.Config{
		Dir:      filepath.Join(cfg.DataDir, "downloads"),
		TTL:      cfg.DownloadTTL,
		MaxBytes: cfg.MaxStoreBytes,
	})
	if err != nil {
		return nil, fmt.Errorf("download store: %w", err)
	}
	return store, nil
}

// newRegistry builds the registry every surface shares (HTTP, MCP, CLI). A nil
// store leaves generate_file answering store_unavailable (catalogue-only uses).
func newRegistry(cfg Config, log *slog.Logger, store *filestore.Store) (*tools.Registry, error) {
	reg, _, err := newRegistryToggles(cfg, log, store, nil)
	return reg, err
}

// newRegistryToggles is newRegistry that also returns the toggle store: the
// disabled set persisted in the data directory is applied (after the example
// self-check, which must run every tool), so serve, mcp, call and tools all see
// the same enabled state. A corrupt toggle file is a start-up error.
// Tools named by --isolate-tools run in pool when it is not nil.
func newRegistryToggles(cfg Config, log *slog.Logger, store *filestore.Store, pool *worker.Pool) (*tools.Registry, *toggles.Store, error) {
	reg := tools.NewRegistry(isolate(cfg, log, tools.Builtin(tools.Deps{Files: store}), pool))
	reg.SetLimiter(tools.NewLimiter(cfg.MaxConcurrency, cfg.QueueWait, nil))
	if store != nil {
		if err := tools.CheckExamples(context.Background(), reg); err != nil {
			return nil, nil, fmt.Errorf("start-up self-check: %w", err)
		}
	}
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
	jctx, stopJanitor := context.WithCancel(context.Background())
	defer stopJanitor()
	go m.Store.Janitor(jctx, janitorInterval(m.Config.DownloadTTL), func(err error) {
		m.Log.Warn("download janitor", "err", err.Error())
	})
	errc := make(chan error, 1)
	if m.Toggles != nil {
		// Follow toggles written by another process on the same data directory
		// (a replica sharing the volume, precisiond mcp).
		go m.Toggles.Watch(jctx, 2*time.Second, func(err error) {
			m.Log.Warn("toggle file unreadable; keeping the current state", "err", err.Error())
		}, func(unknown []string) {
			m.Log.Info("toggle file changed; state reloaded", "disabled", m.Registry.Disabled(), "catalog_hash", m.Registry.CatalogHash())
		})
	}
	go func() { errc <- m.server.Serve(m.ln) }()
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
	return nil
}
