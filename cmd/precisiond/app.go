package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/precisiond/precisiond/api"
	"github.com/precisiond/precisiond/internal/answercache"
	"github.com/precisiond/precisiond/internal/blob"
	"github.com/precisiond/precisiond/internal/filestore"
	"github.com/precisiond/precisiond/internal/fleetkey"
	"github.com/precisiond/precisiond/internal/idleconns"
	"github.com/precisiond/precisiond/internal/plandb"
	"github.com/precisiond/precisiond/internal/surface"
	"github.com/precisiond/precisiond/internal/tick"
	"github.com/precisiond/precisiond/internal/toggles"
	"github.com/precisiond/precisiond/internal/worker"
	"github.com/precisiond/precisiond/mcpserver"
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
	Store    *filestore.Store // generated files, in the shared store
	Shared   *blob.Monitor    // the shared store (fleet.go); nil without one
	Toggles  *toggles.Store   // the persisted enabled state; nil without a store
	Replica  string           // this process in audit lines and /health
	Metrics  *api.Metrics
	Workers  *worker.Pool       // runs the isolated tools; nil when none is isolated
	Plans    *plans.Service     // registers and runs plans (openPlansOn)
	Signing  *fleetkey.Signing  // the keys that sign answers (signing.go)
	Cache    *answercache.Cache // the verified answer cache; nil without one

	closePlans func() error
	edge       edgeState // API tokens and TLS (access.go)

	ln     net.Listener
	server *http.Server
}

// NewMain builds the service from cfg. It does not listen yet. On an
// error it closes whatever it had opened (the store and its monitor, the
// worker pool, the signing state, the plan store).
func NewMain(cfg Config, log *slog.Logger) (_ *Main, err error) {
	if err := checkExposure(cfg); err != nil {
		return nil, err // before anything is opened
	}
	m := &Main{Config: cfg, Log: log}
	defer func() {
		if err != nil {
			_ = m.Close()
		}
	}()
	store, err := openStore(cfg, log, false)
	if err != nil {
		return nil, err
	}
	shared := monitorOf(store)
	m.Store, m.Shared = store, shared
	var sharedStore blob.Store // nil, not a nil *Monitor, without a store
	if shared != nil {
		sharedStore = shared
	}
	accessOpts, edge, err := accessOptions(cfg, sharedStore, log)
	if err != nil {
		return nil, err
	}
	m.edge = edge
	var storeHealth api.StoreHealth
	metricsOpts := api.MetricsOptions{Version: versionString()}
	if store != nil {
		log.Info("store", "location", shared.Location(), "kind", shared.Kind())
		if n := store.TempFilesRemoved(); n > 0 {
			log.Warn("removed temporary files left by killed writers", "dir", store.Dir(), "files", n)
		}
		storeHealth, metricsOpts.StoreUsage, metricsOpts.Store = shared, store.Usage, shared
	}
	if err := tools.StartupSelfCheck(context.Background()); err != nil {
		return nil, err
	}
	pool, err := newWorkerPool(cfg, log, store)
	if err != nil {
		return nil, err
	}
	m.Workers = pool
	metrics := api.NewMetrics(metricsOpts)
	if edge.links != nil {
		metrics.ObserveLinkKey(&edge.links.Key)
	}
	reg, tg, err := newRegistry(cfg, log, store, metrics, pool)
	if err != nil {
		return nil, err
	}
	metrics.Attach(reg)
	metrics.ObserveWorkers(pool, store)
	sig, cache, err := attachSigning(cfg, log, reg, metrics, true, sharedStore)
	if err != nil {
		return nil, err
	}
	m.Signing, m.Cache = sig, cache
	planSvc, closePlans, err := openPlansOn(cfg, reg, log, sharedStore)
	if err != nil {
		return nil, err
	}
	var toggler api.Toggler // nil, not a nil *toggles.Store, without a store
	var loaded func() bool
	var togglesProblem func() string
	if tg != nil {
		toggler, loaded, togglesProblem = tg, tg.Loaded, tg.Problem
	}
	replica := api.ReplicaName()
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
		JWKS:         sig.JWKS,
		Access:       accessOpts,
		MCP: &mcpserver.Options{Files: store, AllowedHosts: cfg.AllowedHosts, DownloadURL: surface.DownloadLinks(cfg.PublicBaseURL),
			PublicBaseURL: cfg.PublicBaseURL, MaxSSEStreams: cfg.MaxSSEStreams, SSEIdleTimeout: cfg.SSEIdleTimeout, SSEMaxLifetime: cfg.SSEMaxLifetime},
		Store:   storeHealth,
		Ready:   api.Readiness(cfg.StoreRequired, storeHealth, loaded),
		Replica: replica,
		// a corrupt toggle file does not stop the start; /health names it
		TogglesProblem: togglesProblem,
	})
	m.Registry, m.API, m.Toggles, m.Replica, m.Metrics, m.Plans, m.closePlans = reg, srv, tg, replica, metrics, planSvc, closePlans
	m.server = &http.Server{
		Handler:           srv,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      max(cfg.CallTimeout, cfg.PlanTimeout) + 30*time.Second,
		IdleTimeout:       120 * time.Second,
		// ...and at most a quarter of the descriptor limit idle at once
		// (internal/idleconns).
		ConnState: idleconns.New(idleconns.Budget()).ConnState,
		ErrorLog:  slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	return m, nil
}

// newRegistry builds the registry every surface shares (HTTP, MCP, CLI) with
// the configured call policy; metrics, when not nil, observe every call. A nil
// store leaves generate_file answering store_unavailable (catalogue-only
// uses). Tools named by --isolate-tools run in pool when it is not nil; tools
// that write into the store answer store_unavailable at once while it is
// down. The disabled set persisted in the shared store is applied, so serve,
// mcp, call and tools (and every replica) see the same enabled state; the
// toggle store is returned (nil without a store). A corrupt toggle state is a
// start-up error; an unreachable store is not.
func newRegistry(cfg Config, log *slog.Logger, store *filestore.Store, metrics *api.Metrics, pool *worker.Pool) (*tools.Registry, *toggles.Store, error) {
	opts := tools.Options{DefaultTimeout: cfg.CallTimeout, WriteGuard: tools.StoreGuard(monitorOf(store))}
	var onReject func()
	if metrics != nil {
		onReject, opts.Observer = metrics.OnReject, metrics.Observe
	}
	opts.Limiter = tools.NewLimiter(cfg.MaxConcurrency, cfg.QueueWait, onReject)
	// --tools keeps the allowed tools only: the others are not registered, so
	// every surface treats them as unknown (docs/plans.md, Tool selection).
	built := tools.Builtin(tools.Deps{Files: store, DownloadURL: surface.DownloadLinks(cfg.PublicBaseURL)})
	list, err := tools.Select(isolate(cfg, log, built, pool), cfg.Tools)
	if err != nil {
		return nil, nil, fmt.Errorf("--tools: %w", err)
	}
	reg := tools.NewRegistry(list, opts)
	var shared blob.Store
	if store != nil {
		shared = store.Blob()
	} else {
		mon, err := storeConfig(cfg).OpenMonitored(log, true)
		if err != nil {
			return nil, nil, err
		}
		if mon == nil {
			return reg, nil, nil
		}
		shared = mon
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*cfg.StoreTimeout)
	defer cancel()
	tg, err := toggles.Open(ctx, shared, reg, log)
	if err != nil {
		return nil, nil, err
	}
	return reg, tg, nil
}

// processRegistry is the registry of a command that answers in its own
// process (call, mcp): cfg's tools on store (isolated ones on pool when not
// nil), every answer signed with a key that is not persisted.
func processRegistry(cfg Config, log *slog.Logger, store *filestore.Store, pool *worker.Pool) (*tools.Registry, *toggles.Store, error) {
	reg, tg, err := newRegistry(cfg, log, store, nil, pool)
	if err != nil {
		return nil, nil, err
	}
	if _, _, err := attachSigning(cfg, log, reg, nil, false, nil); err != nil {
		return nil, nil, err
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
	bctx, stopBackground := context.WithCancel(context.Background())
	defer stopBackground()
	background(bctx, m.Config, m.Log, m.Store, m.Toggles, m.Registry)
	go every(bctx, m.Config.Signing.RefreshPeriod(), m.refreshKeyring) // signing.go
	if m.Cache != nil {
		go m.Cache.KeepTrimmed(bctx, answerStoreTrim, m.Log)
	}
	m.watchEdge(bctx)
	errc := make(chan error, 1)
	go func() { errc <- m.server.Serve(m.edge.Listener(m.ln)) }()
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
// ends: the store's health check, the download janitor (every replica runs
// one: its passes are safe side by side), and with a toggle store, following
// the toggles other processes write into the shared store (another replica,
// precisiond mcp beside serve) within toggleWatchInterval.
func background(ctx context.Context, cfg Config, log *slog.Logger, store *filestore.Store, tg *toggles.Store, reg *tools.Registry) {
	if mon := monitorOf(store); mon != nil {
		go mon.Run(ctx)
	}
	if store != nil {
		go store.RunJanitor(ctx, filestore.JanitorInterval(cfg.DownloadTTL), log)
	}
	if tg != nil {
		go tg.Watch(ctx, toggleWatchInterval, cfg.StoreTimeout, log, func() {
			log.Info("toggle state changed; reloaded", "disabled", reg.Disabled(), "catalog_hash", reg.CatalogHash())
		})
	}
}

// toggleWatchInterval is how often the toggle state is polled (a conditional
// read: "not modified" costs one short answer); a toggle on any replica is
// applied everywhere within it.
const toggleWatchInterval = 2 * time.Second

// every is the service's one periodic loop (tick.Every): the janitor, the
// toggle and token watches and the key-ring refresh run on it, as the store
// monitor does.
var every = tick.Every

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
	if m.Signing != nil {
		_ = m.Signing.Close()
	}
	if m.Shared != nil {
		_ = m.Shared.Close()
	}
	return nil
}

// openPlansOn builds the plan service of reg, its plans in the data
// directory and, when the shared store is not the data directory itself,
// in that store (plandb.OpenStore). shared is the store to use, or nil to
// open it (precisiond mcp). The returned close function releases the local database.
func openPlansOn(cfg Config, reg *tools.Registry, log *slog.Logger, shared blob.Store) (*plans.Service, func() error, error) {
	sc := storeConfig(cfg)
	store, closeStore, err := plandb.OpenStore(cfg.DataDir, cfg.PlanStoreBytes, func() (blob.Store, error) {
		switch loc, ok, err := sc.Location(); {
		case err != nil || !ok || sc.IsDataDir(loc):
			return nil, err // plans.db alone keeps them
		case shared != nil:
			return shared, nil
		default:
			return blob.Open(loc, sc.Options())
		}
	})
	if err != nil {
		return nil, nil, err
	}
	svc := plans.NewService(reg, store, plans.Options{
		MaxCalls:         cfg.PlanMaxCalls,
		Timeout:          cfg.PlanTimeout,
		MaxResponseBytes: cfg.PlanMaxResponseBytes,
		ErrorBody:        surface.PlanErrorBody(log),
		Logger:           log,
	})
	return svc, closeStore, nil
}

// mcpPlans is the plan service of `precisiond mcp`: only the compact surface
// has one.
func mcpPlans(cfg Config, reg *tools.Registry, log *slog.Logger) (*plans.Service, func() error, error) {
	if cfg.MCPSurface != mcpserver.SurfaceCompact {
		return nil, func() error { return nil }, nil
	}
	return openPlansOn(cfg, reg, log, nil)
}
