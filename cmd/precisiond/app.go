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

	ln     net.Listener
	server *http.Server
}

// NewMain builds the service from cfg. It does not listen yet.
func NewMain(cfg Config, log *slog.Logger) (*Main, error) {
	store, err := openStore(cfg)
	if err != nil {
		return nil, err
	}
	reg, err := newRegistry(cfg, log, store)
	if err != nil {
		return nil, err
	}
	srv := api.New(reg, api.Options{
		Logger:       log,
		CallTimeout:  cfg.CallTimeout,
		MaxBodyBytes: cfg.MaxBodyBytes,
		Version:      versionString(),
		Downloads:    store.Handler(),
	})
	m := &Main{Config: cfg, Log: log, Registry: reg, API: srv, Store: store}
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
	reg := tools.NewRegistry(tools.Builtin(tools.Deps{Files: store}))
	reg.SetLimiter(tools.NewLimiter(cfg.MaxConcurrency, cfg.QueueWait, nil))
	if store != nil {
		if err := tools.CheckExamples(context.Background(), reg); err != nil {
			return nil, fmt.Errorf("start-up self-check: %w", err)
		}
	}
	return reg, nil
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
	return nil
}
