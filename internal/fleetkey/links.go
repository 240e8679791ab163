package fleetkey

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/precisiond/precisiond/internal/access"
	"github.com/precisiond/precisiond/internal/blob"
)

// Where the key that signs download links comes from: the sources of
// Links.
const (
	// LinkStore: the S3 store's access.KeyObject, shared by the fleet.
	LinkStore = "store"
	// LinkFallback: the S3 store was down at start; the replica signs with
	// its data directory's key, which only it accepts, until the store
	// answers.
	LinkFallback = "fallback"
	// LinkFlag: --download-signing-key.
	LinkFlag = "flag"
	// LinkDataDir: no S3 store; the data directory's key.
	LinkDataDir = "data_dir"
)

// LinkSources lists the sources of Links.
var LinkSources = []string{LinkStore, LinkFallback, LinkFlag, LinkDataDir}

// MarkName, in the data directory, is the Mark of a replica's fallback
// link key: written when it starts signing with that key and at every
// refresh while it does (the refresh margin ahead), then the retired key's
// end once the fleet's key signs, and removed once the fallback key is
// published in the store or that time has passed. A replica restarted
// before it published reads it at start, accepts its fallback key again and
// publishes it, so the links it signed during an outage outlive the
// restart.
const MarkName = "download-fallback-until"

// LinksConfig says where the key of download links comes from.
type LinksConfig struct {
	// Flag is --download-signing-key; empty: none.
	Flag []byte
	// Store is the store the replicas share; nil: none. Only an S3 store
	// holds the key (as OpenConfig.Shared the keyring).
	Store blob.Store
	// DataDir holds the data directory's key (access.KeyFileName) and the
	// fallback Mark.
	DataDir string
	// TTL is the lifetime of a link.
	TTL time.Duration
	// Margin is how long after a refresh the next one may end (the refresh
	// period and its timeout): links signed before then are covered by a
	// mark written at that refresh.
	Margin time.Duration
	// Timeout bounds the reads of the store at start.
	Timeout time.Duration
}

// Links is the key state of signed download links.
type Links struct {
	Key
	signer *access.Signer
	ttl    time.Duration
	margin time.Duration
	mark   Mark

	// Guarded by Key.mu: the fallback key, retired when the fleet's key was
	// loaded, while it is not yet in the store's accepted keys; the ETag of
	// the accepted keys last read.
	unpublished *access.AcceptedKey
	etag        string
}

// OpenLinks is the link key of cfg: the flag's; else with an S3 store the
// fleet's key kept in it, created there by the first replica; else the
// data directory's. A replica whose S3 store does not answer at start
// signs with its data directory's key (its fallback key) and tries the
// store again at every refresh (see RefreshLogged).
func OpenLinks(cfg LinksConfig, log *slog.Logger) (*Links, error) {
	l := &Links{Key: Key{name: "download links", sources: LinkSources}, ttl: cfg.TTL}
	dataDirKeyPath := filepath.Join(cfg.DataDir, access.KeyFileName)
	key, src := cfg.Flag, LinkFlag
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
	case cfg.Store != nil && cfg.Store.Kind() == "s3":
		ctx, cancel := context.WithTimeout(context.Background(), cfg.Timeout)
		key, cause = access.LoadOrCreateKeyIn(ctx, cfg.Store, access.KeyObject)
		cancel()
		if cause != nil && !errors.Is(cause, blob.ErrUnavailable) {
			return nil, fmt.Errorf("download signing key in the store (or give --download-signing-key): %w", cause)
		}
		l.store, src = cfg.Store, LinkStore
		l.mark, l.margin = Mark(filepath.Join(cfg.DataDir, MarkName)), cfg.Margin
		if cause != nil {
			// A replica starting while the store is down keeps answering
			// (pure tools need no store).
			if err := dataDirKey(); err != nil {
				return nil, err
			}
			l.pending, src = true, LinkFallback
		}
	default:
		if err := dataDirKey(); err != nil {
			return nil, err
		}
		src = LinkDataDir
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
	case src == LinkStore:
		l.resumeFallback(log, dataDirKeyPath)
		// Keys other replicas signed with while the store was down at their
		// start: accepted from the first request, not the first refresh. A
		// fallback key of this replica's last run is published here.
		ctx, cancel := context.WithTimeout(context.Background(), cfg.Timeout)
		l.RefreshLogged(ctx, log)
		cancel()
	}
	return l, nil
}

// Signer signs and checks the links.
func (l *Links) Signer() *access.Signer { return l.signer }

// RefreshLogged is the refresh of a replica on an S3 store, said in log.
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
func (l *Links) RefreshLogged(ctx context.Context, log *slog.Logger) {
	l.mu.Lock()
	defer l.mu.Unlock()
	adopt := func(ctx context.Context) error { return l.adopt(ctx, log) }
	follow := func(ctx context.Context) (bool, error) { l.follow(ctx, log); return false, nil }
	_, _, _ = l.step(ctx, adopt, follow) // both log their own errors
}

// adopt loads the fleet's key and signs new links with it, the fallback
// key retired and accepted until its last link expires.
func (l *Links) adopt(ctx context.Context, log *slog.Logger) error {
	key, err := access.LoadOrCreateKeyIn(ctx, l.store, access.KeyObject)
	if err != nil {
		l.markFallback(log, l.signer.Now().Add(l.ttl+l.margin))
		l.retried(log, err, "download links: the fleet's key cannot be loaded yet; this replica keeps signing links with its fallback key and tries again at every refresh")
		return err
	}
	retired, err := l.signer.Switch(key, l.ttl)
	if err != nil {
		l.markFallback(log, l.signer.Now().Add(l.ttl+l.margin))
		l.retried(log, err, "download links: the fleet's key in the store is not usable; this replica keeps signing links with its fallback key")
		return err
	}
	attrs := []any{}
	if retired.Key != nil {
		l.unpublished = &retired
		l.markFallback(log, retired.Until)
		attrs = append(attrs, "fallback_accepted_until", retired.Until.UTC().Format(time.RFC3339))
	} else {
		l.clearMark(log)
	}
	log.Info("download links: the shared store answers; this replica signs new links with the fleet's key from now on; the links it signed with its fallback key open here until fallback_accepted_until, and on every replica once the key is published in the store", attrs...)
	return nil
}

// follow publishes the fallback key while it is unpublished and accepts
// the keys other replicas published.
func (l *Links) follow(ctx context.Context, log *slog.Logger) {
	if u := l.unpublished; u != nil {
		now := l.signer.Now()
		if !now.Before(u.Until) {
			l.unpublished = nil // every link it could publish has expired
			l.clearMark(log)
		} else if err := access.PublishAcceptedIn(ctx, l.store, access.AcceptedObject, *u, now); err != nil {
			l.retried(log, err, "download links: the fallback key cannot be published in the store yet; until it is, only this replica opens the links signed with it; trying again at every refresh")
		} else {
			l.unpublished = nil
			l.clearMark(log)
			log.Debug("download links: the fallback key is published in the store", "object", access.AcceptedObject)
		}
	}
	keys, etag, err := access.ReadAcceptedIn(ctx, l.store, access.AcceptedObject, l.etag)
	switch {
	case errors.Is(err, blob.ErrNotModified):
		return
	case err != nil:
		l.retried(log, err, "download links: the accepted keys in the store cannot be read; keeping the keys accepted so far")
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

// markFallback records that links signed with the fallback key may be open
// until until.
func (l *Links) markFallback(log *slog.Logger, until time.Time) {
	if err := l.mark.Extend(until); err != nil {
		log.Warn("download links: cannot note that links were signed with the fallback key; after a restart before the key is published in the store, those links open nowhere", "err", err.Error())
	}
}

func (l *Links) clearMark(log *slog.Logger) {
	if err := l.mark.Clear(); err != nil {
		log.Warn("download links: cannot remove the fallback key's mark", "path", string(l.mark), "err", err.Error())
	}
}

// resumeFallback, at a start with the fleet's key, takes up a fallback key
// the last run left unpublished: accepted here until its mark's end and
// published by the next refresh.
func (l *Links) resumeFallback(log *slog.Logger, keyPath string) {
	until, ok := l.mark.Read()
	if !ok {
		return
	}
	var key []byte
	_, err := os.Stat(keyPath) // the key the mark speaks of, never a new one
	if err == nil {
		key, err = access.LoadOrCreateKey(keyPath)
	}
	if err != nil || !l.signer.Now().Before(until) {
		l.clearMark(log)
		return
	}
	u := access.AcceptedKey{Key: key, Until: until}
	if err := l.signer.Accept(u); err != nil {
		l.clearMark(log)
		return
	}
	l.unpublished = &u
	log.Info("download links: the last run signed links with this replica's fallback key and did not publish it; they open here until fallback_accepted_until, and on every replica once it is published in the store",
		"fallback_accepted_until", until.UTC().Format(time.RFC3339))
}
