package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/precisiond/precisiond/internal/blob"
	"github.com/precisiond/precisiond/internal/filestore"
	"github.com/precisiond/precisiond/internal/toggles"
	"github.com/precisiond/precisiond/tools"
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
		if _, err := publicBase(c.PublicBaseURL); err != nil {
			return err
		}
	}
	return nil
}

// publicBase checks a --public-base-url value and returns it without a
// trailing slash: an absolute http(s) URL with a host, optionally a path
// prefix (behind an ingress), no query, fragment or credentials.
func publicBase(v string) (string, error) {
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Opaque != "" {
		return "", fmt.Errorf("public-base-url %q: want an absolute http:// or https:// URL such as https://precisiond.example.com or https://example.com/precisiond", v)
	}
	if u.User != nil || u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || strings.Contains(v, "#") {
		return "", fmt.Errorf("public-base-url %q: no credentials, query or fragment", v)
	}
	return strings.TrimRight(v, "/"), nil
}

// downloadURL is the absolute link of a stored file under --public-base-url,
// or nil without one (links stay /downloads/<name>). The facts never carry
// it: download_path is hashed and must not depend on the host.
func downloadURL(cfg Config) func(name string) string {
	if cfg.PublicBaseURL == "" {
		return nil
	}
	base, err := publicBase(cfg.PublicBaseURL)
	if err != nil {
		return nil // validate refused it already
	}
	return func(name string) string { return base + "/downloads/" + name }
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
	first := true // OnChange calls are serialized by the monitor
	return blob.NewMonitor(s, blob.MonitorOptions{OnChange: func(h blob.Health) {
		wasFirst := first
		first = false
		switch {
		case h.OK && wasFirst:
			// A store that answers from the start is the normal case: no
			// line (precisiond call prints nothing but its answer).
		case h.OK:
			log.Info("store answers", "store", s.Location())
		default:
			log.Warn("store unavailable: generate_file, downloads, toggles and plans not in the local cache answer store_unavailable until it answers again",
				"store", s.Location(), "reason", h.Reason, "err", fmt.Sprint(h.Err))
		}
	}}), nil
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

// loadToggles applies the toggle state in the shared store to reg. A corrupt
// state stops the start; a store that does not answer does not: every tool
// is enabled until the state can be read (the toggle poll applies it; /ready
// reports toggles_unknown meanwhile when the store is required).
func loadToggles(cfg Config, log *slog.Logger, shared blob.Store, reg *tools.Registry) (*toggles.Store, error) {
	tg := toggles.New(shared, reg)
	ctx, cancel := context.WithTimeout(context.Background(), 2*cfg.StoreTimeout)
	defer cancel()
	unknown, err := tg.Load(ctx)
	switch {
	case errors.Is(err, blob.ErrUnavailable):
		log.Warn("toggle state unknown: the store is not answering; every tool stays enabled until it answers", "where", tg.Where(), "err", err.Error())
	case err != nil:
		return nil, fmt.Errorf("%w (fix or remove it; it must be {\"disabled\":[tool names]})", err)
	case len(unknown) > 0:
		log.Warn("toggle state names tools this build does not have; ignored", "where", tg.Where(), "unknown", unknown)
	}
	return tg, nil
}

// storeGuard is the registry's write guard (tools.Options.WriteGuard): while
// the monitor has the store down, a tool that writes into it (generate_file)
// answers store_unavailable before it does any work, where an isolated call
// would otherwise render in a worker and then wait on the store until its
// deadline. Nil without a monitor.
func storeGuard(mon *blob.Monitor) func() error {
	if mon == nil {
		return nil
	}
	return func() error {
		h := mon.Health()
		if h.OK {
			return nil
		}
		reason := tools.ReasonStoreNotAnswering
		if h.Reason == "store_error" {
			reason = tools.ReasonStoreRefused
		}
		return tools.StoreUnavailable(reason, "the download store is unavailable (%s); try again shortly", h.Reason)
	}
}

// replicaName names this process in audit lines and /health: the host name
// (a pod's name in Kubernetes) and a random id per start, so that two
// processes on one host differ.
func replicaName() string {
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "unknown-host"
	}
	var b [4]byte
	_, _ = rand.Read(b[:])
	return host + "/" + hex.EncodeToString(b[:])
}
