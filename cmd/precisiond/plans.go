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

// openPlansOn builds the plan service of reg, its plans in the data
// directory and, when the shared store is not the data directory itself,
// in that store (plandb.OpenStore). shared is the store to use, or nil to
// open it. The returned close function releases the local database.
func openPlansOn(cfg Config, reg *tools.Registry, log *slog.Logger, shared blob.Store) (*plans.Service, func() error, error) {
	store, closeStore, err := plandb.OpenStore(cfg.DataDir, cfg.PlanStoreBytes, func() (blob.Store, error) {
		switch loc, ok, err := storeLocation(cfg); {
		case err != nil || !ok || storeIsDataDir(cfg, loc):
			return nil, err // plans.db alone keeps them
		case shared != nil:
			return shared, nil
		default:
			return blob.Open(loc, storeOptions(cfg))
		}
	})
	if err != nil {
		return nil, nil, err
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
