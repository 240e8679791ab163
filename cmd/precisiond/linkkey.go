package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/precisiond/precisiond/internal/access"
	"github.com/precisiond/precisiond/internal/blob"
)

// Where the key that signs download links comes from: the values of the
// source label of precisiond_download_link_key.
const (
	// linkKeyStore: the S3 store's access.KeyObject, shared by the fleet.
	linkKeyStore = "store"
	// linkKeyFallback: the S3 store was down at start; the replica signs
	// with its data directory's key, which only it accepts, until the store
	// answers.
	linkKeyFallback = "fallback"
	// linkKeyFlag: --download-signing-key.
	linkKeyFlag = "flag"
	// linkKeyDataDir: no S3 store; the data directory's key.
	linkKeyDataDir = "data_dir"
)

// linkKeySources lists the sources; linkKeys.source indexes it.
var linkKeySources = []string{linkKeyStore, linkKeyFallback, linkKeyFlag, linkKeyDataDir}

// linkKeys is the key state of signed download links (with API tokens).
type linkKeys struct {
	signer *access.Signer
	source atomic.Int32 // index into linkKeySources

	// store is the S3 store to refresh from (nil: nothing to refresh, the
	// sources flag and data_dir); ttl is the links' lifetime.
	store blob.Store
	ttl   time.Duration
	// With a store: mark is the data directory's fallbackMarkName file, and
	// margin how long after a refresh the next one may end (the refresh
	// period and its timeout): links signed before then are covered by a
	// mark written at that refresh.
	mark   string
	margin time.Duration

	// mu serializes refresh; it guards the fields below.
	mu sync.Mutex
	// pending: the store was down at start; the signer signs with the
	// fallback key until the fleet's key is loaded.
	pending bool
	// unpublished is the fallback key, retired when the fleet's key was
	// loaded, while it is not yet in the store's accepted keys.
	unpublished *access.AcceptedKey
	etag        string // of the accepted keys last read
	warned      string // the last refresh error logged at warn
}

// Source says where the key that signs links comes from now.
func (l *linkKeys) Source() string { return linkKeySources[l.source.Load()] }

func (l *linkKeys) setSource(src string) {
	l.source.Store(int32(slices.Index(linkKeySources, src)))
}

// openLinkKeys is the link key of cfg: --download-signing-key; else with an
// S3 store (shared) the fleet's key kept in it, created there by the first
// replica; else the data directory's. A replica whose S3 store does not
// answer at start signs with its data directory's key (its fallback key)
// and tries the store again at every refresh (see refresh).
func openLinkKeys(cfg Config, shared blob.Store, log *slog.Logger) (*linkKeys, error) {
	l := &linkKeys{ttl: cfg.DownloadTTL}
	dataDirKeyPath := filepath.Join(cfg.DataDir, access.KeyFileName)
	key, src := []byte(cfg.Access.DownloadSigningKey), linkKeyFlag
	dataDirKey := func() (err error) {
		key, err = access.LoadOrCreateKey(dataDirKeyPath)
		if err != nil {
			return fmt.Errorf("download signing key: %w", err)
		}
		return nil
	}
	var cause error
	switch {
	case len(key) > 0:
	case shared != nil && shared.Kind() == "s3":
		ctx, cancel := context.WithTimeout(context.Background(), cfg.StoreTimeout)
		key, cause = access.LoadOrCreateKeyIn(ctx, shared, access.KeyObject)
		cancel()
		if cause != nil && !errors.Is(cause, blob.ErrUnavailable) {
			return nil, fmt.Errorf("download signing key in the store (or give --download-signing-key): %w", cause)
		}
		l.store, src = shared, linkKeyStore
		l.mark = filepath.Join(cfg.DataDir, fallbackMarkName)
		l.margin = cfg.Signing.refreshPeriod() + refreshTimeout(cfg)
		if cause != nil {
			// A replica starting while the store is down keeps answering
			// (pure tools need no store).
			if err := dataDirKey(); err != nil {
				return nil, err
			}
			l.pending, src = true, linkKeyFallback
		}
	default:
		if err := dataDirKey(); err != nil {
			return nil, err
		}
		src = linkKeyDataDir
	}
	signer, err := access.NewSigner(key)
	if err != nil {
		return nil, fmt.Errorf("--download-signing-key: %w", err)
	}
	l.signer = signer
	l.setSource(src)
	switch {
	case cause != nil:
		l.markFallback(log, l.signer.Now().Add(l.ttl+l.margin))
		log.Warn("the shared store is down: download links are signed with this replica's fallback key, which only it accepts; once the store answers it signs new links with the fleet's key and every replica opens the fallback key's links until they expire (give every replica --download-signing-key to avoid this)",
			"err", cause.Error())
	case src == linkKeyStore:
		l.resumeFallback(log, dataDirKeyPath)
		// Keys other replicas signed with while the store was down at their
		// start: accepted from the first request, not the first refresh. A
		// fallback key of this replica's last run is published here.
		ctx, cancel := context.WithTimeout(context.Background(), cfg.StoreTimeout)
		l.refreshLogged(ctx, log)
		cancel()
	}
	return l, nil
}

// refreshLogged is the refresh of a replica on an S3 store, said in log.
// While the replica waits for the store it started without, it tries to
// load the fleet's key; once loaded, that key signs every new link and the
// fallback key stays accepted until the last link signed with it expires
// (the link TTL from now). It then publishes the fallback key with that
// time in the store's accepted keys (access.PublishAcceptedIn), retried at
// every refresh until it is written or expired. Every replica on the store
// reads the accepted keys at every refresh and accepts them until then.
//
// The store still being down is logged at debug only (the start warned, and
// the store monitor logs the store's state), another error once at warn,
// the recovery once at info.
func (l *linkKeys) refreshLogged(ctx context.Context, log *slog.Logger) {
	if l.store == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.pending {
		key, err := access.LoadOrCreateKeyIn(ctx, l.store, access.KeyObject)
		if err != nil {
			l.markFallback(log, l.signer.Now().Add(l.ttl+l.margin))
			l.logErr(log, err, "download links: the fleet's key cannot be loaded yet; this replica keeps signing links with its fallback key and tries again at every refresh")
			return
		}
		retired, err := l.signer.Switch(key, l.ttl)
		if err != nil {
			l.markFallback(log, l.signer.Now().Add(l.ttl+l.margin))
			l.logErr(log, err, "download links: the fleet's key in the store is not usable; this replica keeps signing links with its fallback key")
			return
		}
		l.pending = false
		l.setSource(linkKeyStore)
		attrs := []any{}
		if retired.Key != nil {
			l.unpublished = &retired
			l.markFallback(log, retired.Until)
			attrs = append(attrs, "fallback_accepted_until", retired.Until.UTC().Format(time.RFC3339))
		} else {
			l.clearFallbackMark(log)
		}
		log.Info("download links: the shared store answers; this replica signs new links with the fleet's key from now on; the links it signed with its fallback key open here until fallback_accepted_until, and on every replica once the key is published in the store", attrs...)
	}
	if u := l.unpublished; u != nil {
		now := l.signer.Now()
		if !now.Before(u.Until) {
			l.unpublished = nil // every link it could publish has expired
			l.clearFallbackMark(log)
		} else if err := access.PublishAcceptedIn(ctx, l.store, access.AcceptedObject, *u, now); err != nil {
			l.logErr(log, err, "download links: the fallback key cannot be published in the store yet; until it is, only this replica opens the links signed with it; trying again at every refresh")
		} else {
			l.unpublished = nil
			l.clearFallbackMark(log)
			log.Debug("download links: the fallback key is published in the store", "object", access.AcceptedObject)
		}
	}
	keys, etag, err := access.ReadAcceptedIn(ctx, l.store, access.AcceptedObject, l.etag)
	switch {
	case errors.Is(err, blob.ErrNotModified):
		return
	case err != nil:
		l.logErr(log, err, "download links: the accepted keys in the store cannot be read; keeping the keys accepted so far")
		return
	}
	l.etag = etag
	before := l.signer.Accepted()
	for _, k := range keys {
		_ = l.signer.Accept(k) // ParseAccepted admits only usable keys
	}
	if added := len(l.signer.Accepted()) - len(before); added > 0 {
		log.Info("download links: this replica opens links signed with the fallback keys other replicas published in the store, until they expire", "keys_added", added)
	}
}

// logErr logs a refresh error: at debug while the store does not answer,
// else at warn with msg, once for the same error.
func (l *linkKeys) logErr(log *slog.Logger, err error, msg string) {
	if errors.Is(err, blob.ErrUnavailable) {
		log.Debug("download links: the shared store does not answer; trying again at the next refresh", "err", err.Error())
		return
	}
	if e := err.Error(); e != l.warned {
		l.warned = e
		log.Warn(msg, "err", e)
	}
}

// fallbackMarkName, in the data directory, says until when links this
// replica signed with its fallback key may still be open (RFC 3339): written
// when it starts signing with that key and at every refresh while it does
// (the refresh margin ahead), then the retired key's end once the fleet's key
// signs, and removed once the fallback key is published in the store or that
// time has passed. A replica restarted before it published reads it at start,
// accepts its fallback key again and publishes it, so the links it signed
// during an outage outlive the restart.
const fallbackMarkName = "download-fallback-until"

// markFallback records that links signed with the fallback key may be open
// until until (never moving an earlier mark's later end back).
func (l *linkKeys) markFallback(log *slog.Logger, until time.Time) {
	if prev, ok := readFallbackMark(l.mark); ok && prev.After(until) {
		until = prev
	}
	if err := access.WriteFileAtomic(l.mark, []byte(until.UTC().Format(time.RFC3339Nano)+"\n")); err != nil {
		log.Warn("download links: cannot note that links were signed with the fallback key; after a restart before the key is published in the store, those links open nowhere", "err", err.Error())
	}
}

// clearFallbackMark removes the mark: nothing signed with the fallback key
// needs publishing any more.
func (l *linkKeys) clearFallbackMark(log *slog.Logger) {
	if err := os.Remove(l.mark); err != nil && !errors.Is(err, os.ErrNotExist) {
		log.Warn("download links: cannot remove the fallback key's mark", "path", l.mark, "err", err.Error())
	}
}

// resumeFallback, at a start with the fleet's key, takes up a fallback key
// the last run left unpublished: accepted here until its mark's end and
// published by the next refresh.
func (l *linkKeys) resumeFallback(log *slog.Logger, keyPath string) {
	until, ok := readFallbackMark(l.mark)
	if !ok {
		return
	}
	var key []byte
	_, err := os.Stat(keyPath) // the key the mark speaks of, never a new one
	if err == nil {
		key, err = access.LoadOrCreateKey(keyPath)
	}
	if err != nil || !l.signer.Now().Before(until) {
		l.clearFallbackMark(log)
		return
	}
	u := access.AcceptedKey{Key: key, Until: until}
	if err := l.signer.Accept(u); err != nil {
		l.clearFallbackMark(log)
		return
	}
	l.unpublished = &u
	log.Info("download links: the last run signed links with this replica's fallback key and did not publish it; they open here until fallback_accepted_until, and on every replica once it is published in the store",
		"fallback_accepted_until", until.UTC().Format(time.RFC3339))
}

// readFallbackMark is the time in the mark at path; false without one (or
// with one that does not parse).
func readFallbackMark(path string) (time.Time, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return time.Time{}, false
	}
	t, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(string(b)))
	return t, err == nil
}

// refreshTimeout bounds one refresh of the keys from the store.
func refreshTimeout(cfg Config) time.Duration { return max(10*time.Second, cfg.StoreTimeout) }

// refreshLinkKeys is the background step of a running service on an S3
// store (watchEdge).
func (m *Main) refreshLinkKeys() {
	ctx, cancel := context.WithTimeout(context.Background(), refreshTimeout(m.Config))
	defer cancel()
	m.edge.links.refreshLogged(ctx, m.Log)
}

// registerLinkKeyMetrics exports where the key that signs download links
// comes from, one series per source, 1 for the one in use (nothing without
// signed links):
//
//	precisiond_download_link_key{source="store|fallback|flag|data_dir"}  gauge
func registerLinkKeyMetrics(reg prometheus.Registerer, l *linkKeys) {
	if l == nil {
		return
	}
	registerSourceGauge(reg, "precisiond_download_link_key", "1 for where the key that signs this replica's download links comes from now, 0 for the others: store (the S3 store's key, shared by every replica on it), fallback (the S3 store was down at start: this replica's data directory key, which only it accepts, until the store answers), flag (--download-signing-key), data_dir (no S3 store: the data directory's key).",
		linkKeySources, l.Source)
}
