package main

import (
	"log/slog"

	"github.com/precisiond/precisiond/internal/blob"
	"github.com/precisiond/precisiond/internal/filestore"
)

// storeConfig is where cfg's store is (blob.Config: --store, else the data
// directory; docs/operations.md, "Running a fleet"). Generated files
// (downloads/<name>), the toggle state (disabled_tools.json) and plans
// (plans/<plan_id>.json, unless the store is the data directory, where
// plans.db alone keeps them) go through it.
func storeConfig(cfg Config) blob.Config {
	return blob.Config{Store: cfg.Store, DataDir: cfg.DataDir, Timeout: cfg.StoreTimeout}
}

// openStore opens the shared store and the download store on it
// (downloads/<name>); nil without a store.
func openStore(cfg Config, log *slog.Logger, createOnWrite bool) (*filestore.Store, error) {
	mon, err := storeConfig(cfg).OpenMonitored(log, createOnWrite)
	if err != nil || mon == nil {
		return nil, err
	}
	return filestore.New(mon, downloadsConfig(cfg)), nil
}

// downloadsConfig is the download store of cfg in the shared store.
func downloadsConfig(cfg Config) filestore.Config {
	return filestore.Config{Prefix: filestore.Prefix, TTL: cfg.DownloadTTL, MaxBytes: cfg.MaxStoreBytes}
}

// monitorOf is the Monitor under a download store, or nil.
func monitorOf(store *filestore.Store) *blob.Monitor {
	if store == nil {
		return nil
	}
	m, _ := blob.Inner[*blob.Monitor](store.Blob())
	return m
}
