package main

import (
	"log/slog"

	"github.com/precisiond/precisiond/api"
	"github.com/precisiond/precisiond/internal/plandb"
	"github.com/precisiond/precisiond/plans"
	"github.com/precisiond/precisiond/tools"
)

// openPlans builds the plan service of reg: plans persist in
// <data-dir>/plans.db (SQLite), or in memory without a data directory. The
// returned close function releases the store.
func openPlans(cfg Config, reg *tools.Registry, log *slog.Logger) (*plans.Service, func() error, error) {
	var store plans.Store
	closeStore := func() error { return nil }
	if cfg.DataDir == "" {
		store = plans.NewMemoryStore(cfg.PlanStoreBytes)
	} else {
		db, err := plandb.Open(cfg.DataDir, cfg.PlanStoreBytes)
		if err != nil {
			return nil, nil, err
		}
		store, closeStore = db, db.Close
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
