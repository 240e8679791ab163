package main

import (
	"log/slog"

	"github.com/precisiond/precisiond/api"
	"github.com/precisiond/precisiond/internal/blob"
	"github.com/precisiond/precisiond/internal/plandb"
	"github.com/precisiond/precisiond/plans"
	"github.com/precisiond/precisiond/tools"
)

// openPlans builds the plan service of reg (openPlansOn, opening the shared
// store itself when it needs it).
func openPlans(cfg Config, reg *tools.Registry, log *slog.Logger) (*plans.Service, func() error, error) {
	return openPlansOn(cfg, reg, log, nil)
}

// openPlansOn builds the plan service of reg. Plans persist in
// <data-dir>/plans.db (SQLite), or in memory without a data directory; when
// the shared store is not the data directory itself (a fleet), they are
// objects in it (plans/<plan_id>.json) and the local database is their
// read-through cache, so a plan registered on one replica replays on every
// other. shared is the store to use, or nil to open it. The returned close
// function releases the local database.
func openPlansOn(cfg Config, reg *tools.Registry, log *slog.Logger, shared blob.Store) (*plans.Service, func() error, error) {
	var local plans.Store
	closeStore := func() error { return nil }
	if cfg.DataDir == "" {
		local = plans.NewMemoryStore(cfg.PlanStoreBytes)
	} else {
		db, err := plandb.Open(cfg.DataDir, cfg.PlanStoreBytes)
		if err != nil {
			return nil, nil, err
		}
		local, closeStore = db, db.Close
	}
	store := local
	if loc, ok, err := storeLocation(cfg); err != nil {
		return nil, nil, err
	} else if ok && !storeIsDataDir(cfg, loc) {
		if shared == nil {
			if shared, err = blob.Open(loc, storeOptions(cfg)); err != nil {
				_ = closeStore()
				return nil, nil, err
			}
		}
		store = plans.ReadThrough{Cache: local, Backing: plans.ObjectStore{Store: shared}}
	}
	svc := plans.NewService(reg, store, plans.Options{
		MaxCalls:         cfg.PlanMaxCalls,
		Timeout:          cfg.PlanTimeout,
		MaxResponseBytes: cfg.PlanMaxResponseBytes,
		ErrorBody:        api.PlanErrorBody(log),
		Logger:           log,
	})
	return svc, closeStore, nil
}

// mcpPlans is the plan service of `precisiond mcp`: only the compact surface
// has one.
func mcpPlans(cfg Config, reg *tools.Registry, log *slog.Logger) (*plans.Service, func() error, error) {
	if cfg.MCPSurface != api.SurfaceCompact {
		return nil, func() error { return nil }, nil
	}
	return openPlans(cfg, reg, log)
}
