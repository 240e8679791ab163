package main

import (
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"

	"github.com/precisiond/precisiond/api"
	"github.com/precisiond/precisiond/internal/blob"
	"github.com/precisiond/precisiond/internal/filestore"
)

// The store the replicas share (docs/operations.md, "Running a fleet"):
//
//   - --store names it: file:DIR (one host) or s3://BUCKET/PREFIX (a fleet).
//     Without it the store is the data directory itself, as a single
//     instance always kept its state: <data-dir>/downloads/,
//     <data-dir>/disabled_tools.json.
//   - --data-dir keeps what is local to one process: the plan cache
//     (plans.db), and, with the default store, everything.
//   - Generated files (downloads/<name>), the toggle state
//     (disabled_tools.json) and plans (plans/<plan_id>.json, unless the store
//     is the data directory, where plans.db alone keeps them) go through it.

// validateFleet checks the fleet settings.
func (c Config) validateFleet() error {
	if c.Store != "" {
		if _, err := blob.ParseLocation(c.Store); err != nil {
			return fmt.Errorf("store: %w", err)
		}
	}
	if c.StoreTimeout <= 0 {
		return errors.New("store-timeout must be positive")
	}
	if c.PublicBaseURL != "" {
		if _, err := api.PublicBase(c.PublicBaseURL); err != nil {
			return err
		}
	}
	return nil
}

// storeLocation resolves --store: its value, or the data directory; ok is
// false when neither is set (a process without a store: catalogue-only uses).
func storeLocation(cfg Config) (loc blob.Location, ok bool, err error) {
	switch {
	case cfg.Store != "":
		loc, err = blob.ParseLocation(cfg.Store)
		return loc, err == nil, err
	case cfg.DataDir != "":
		return blob.Location{Kind: "file", Dir: filepath.Clean(cfg.DataDir)}, true, nil
	}
	return blob.Location{}, false, nil
}

// storeIsDataDir reports whether the store is the data directory itself.
func storeIsDataDir(cfg Config, loc blob.Location) bool {
	if loc.Kind != "file" || cfg.DataDir == "" {
		return false
	}
	a, err1 := filepath.Abs(loc.Dir)
	b, err2 := filepath.Abs(cfg.DataDir)
	return err1 == nil && err2 == nil && a == b
}

// storeOptions are the blob options of cfg (the AWS variables come from the
// environment). --store-timeout bounds an operation; a pause in a transfer
// may last as long (at least the store's default), so a longer timeout is
// not cut short by the stall detector.
func storeOptions(cfg Config) blob.Options {
	return blob.Options{Timeouts: blob.Timeouts{Op: cfg.StoreTimeout, IO: max(cfg.StoreTimeout, blob.DefaultIOTimeout)}}
}

// openShared opens the shared store behind a Monitor. It contacts nothing: a
// store that is down does not stop a start (the monitor's first check, in
// background, finds out).
// With createOnWrite a file: store's directory is created by the first write
// (precisiond call and mcp write nothing until they store something).
func openShared(cfg Config, log *slog.Logger, createOnWrite bool) (*blob.Monitor, error) {
	loc, ok, err := storeLocation(cfg)
	if err != nil || !ok {
		return nil, err
	}
	opts := storeOptions(cfg)
	opts.CreateOnWrite = createOnWrite
	s, err := blob.Open(loc, opts)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	return blob.NewMonitor(s, blob.MonitorOptions{OnChange: blob.LogHealth(log, s.Location())}), nil
}

// openStore opens the shared store and the download store on it
// (downloads/<name>); nil without a store.
func openStore(cfg Config, log *slog.Logger, createOnWrite bool) (*filestore.Store, error) {
	mon, err := openShared(cfg, log, createOnWrite)
	if err != nil || mon == nil {
		return nil, err
	}
	return filestore.New(mon, filestore.Config{Prefix: filestore.Prefix, TTL: cfg.DownloadTTL, MaxBytes: cfg.MaxStoreBytes}), nil
}

// monitorOf is the Monitor under a download store, or nil.
func monitorOf(store *filestore.Store) *blob.Monitor {
	if store == nil {
		return nil
	}
	m, _ := blob.Inner[*blob.Monitor](store.Blob())
	return m
}
