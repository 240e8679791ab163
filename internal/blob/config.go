package blob

import (
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"time"
)

// Config is where a process finds the store its replicas share
// (docs/operations.md, "Running a fleet"): --store names it (file:DIR on one
// host, s3://BUCKET/PREFIX for a fleet); without it the store is the data
// directory itself, as a single instance always kept its state. The data
// directory also keeps what is local to one process (plans.db).
type Config struct {
	Store   string        // --store; "": file:<DataDir>
	DataDir string        // --data-dir; "": none
	Timeout time.Duration // --store-timeout: how long one operation waits
}

// Validate checks the settings.
func (c Config) Validate() error {
	if c.Store != "" {
		if _, err := ParseLocation(c.Store); err != nil {
			return fmt.Errorf("store: %w", err)
		}
	}
	if c.Timeout <= 0 {
		return errors.New("store-timeout must be positive")
	}
	return nil
}

// Location resolves the store: Store, or the data directory; ok is false
// when neither is set (a process without a store: catalogue-only uses).
func (c Config) Location() (loc Location, ok bool, err error) {
	switch {
	case c.Store != "":
		loc, err = ParseLocation(c.Store)
		return loc, err == nil, err
	case c.DataDir != "":
		return Location{Kind: "file", Dir: filepath.Clean(c.DataDir)}, true, nil
	}
	return Location{}, false, nil
}

// IsDataDir reports whether loc is the data directory itself.
func (c Config) IsDataDir(loc Location) bool {
	if loc.Kind != "file" || c.DataDir == "" {
		return false
	}
	a, err1 := filepath.Abs(loc.Dir)
	b, err2 := filepath.Abs(c.DataDir)
	return err1 == nil && err2 == nil && a == b
}

// Options are the options of Open for c (the AWS variables come from the
// environment). Timeout bounds an operation; a pause in a transfer may last
// as long (at least DefaultIOTimeout), so a longer timeout is not cut short
// by the stall detector.
func (c Config) Options() Options {
	return Options{Timeouts: Timeouts{Op: c.Timeout, IO: max(c.Timeout, DefaultIOTimeout)}}
}

// Open opens the store with opts, whose Timeouts are c's (Options) when
// opts sets none; nil without a store. It contacts nothing.
func (c Config) Open(opts Options) (Store, error) {
	loc, ok, err := c.Location()
	if err != nil || !ok {
		return nil, err
	}
	if opts.Timeouts == (Timeouts{}) {
		opts.Timeouts = c.Options().Timeouts
	}
	s, err := Open(loc, opts)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	return s, nil
}

// OpenMonitored opens the store behind a Monitor that logs its health
// changes (LogHealth); nil without a store. It contacts nothing: a store
// that is down does not stop a start (the monitor's first check finds out).
// With createOnWrite a file: store's directory is created by the first
// write (precisiond call and mcp write nothing until they store something).
func (c Config) OpenMonitored(log *slog.Logger, createOnWrite bool) (*Monitor, error) {
	s, err := c.Open(Options{CreateOnWrite: createOnWrite})
	if err != nil || s == nil {
		return nil, err
	}
	return NewMonitor(s, MonitorOptions{OnChange: LogHealth(log, s.Location())}), nil
}
