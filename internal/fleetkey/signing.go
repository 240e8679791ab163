package fleetkey

import (
	"context"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/precisiond/precisiond/internal/attest"
	"github.com/precisiond/precisiond/internal/blob"
)

// KeyringObject is the store object that holds the signing keyring's state.
const KeyringObject = "state/keyring.json"

// Where the keys a process signs answers with and publishes come from: the
// sources of a Signing.
const (
	// SourceStore: the keyring in the store (the S3 bucket, or the data
	// directory's store), shared by every replica on it.
	SourceStore = "store"
	// SourceFallback: the S3 store was down at start; the replica signs with
	// its fallback key (its data directory's keyring, or a key of its own
	// lifetime), which only it publishes until the store answers.
	SourceFallback = "fallback"
	// SourceKeyFile: the S3 store was down at start; the replica signs with
	// its --signing-key, the fleet's key, and publishes only that key until
	// the store answers.
	SourceKeyFile = "key_file"
	// SourceProcess: no data directory; a key for the life of the process.
	SourceProcess = "process"
)

// KeyringSources lists the sources of a Signing.
var KeyringSources = []string{SourceStore, SourceFallback, SourceKeyFile, SourceProcess}

// SigningConfig is what a Signing signs as and follows besides its store.
type SigningConfig struct {
	// KeyFile is the --signing-key file, re-read at every refresh (a file
	// replaced by one with another key rotates the stored keyring to it);
	// Configured is its key. Empty and nil: none.
	KeyFile    string
	Configured *attest.Key
	// Retention is how long a rotated-out key stays published.
	Retention time.Duration
	// Issuer is the iss of every attestation.
	Issuer string
	// Now is the clock; nil: time.Now.
	Now func() time.Time
}

// Signing is a process's answer-signing state: the keyring it reconciled at
// start (refreshed from the store while it runs) and the signer of its
// current key.
type Signing struct {
	Key
	cfg    SigningConfig
	signer atomic.Pointer[attest.Signer]
	ring   atomic.Pointer[attest.Keyring] // the keyring last read from the store

	// Guarded by Key.mu: the ETag of the keyring last read; with a store
	// down at start, the fallback key (nil with a --signing-key) and, once
	// recovered, the fallback key as published retired in the fleet
	// keyring, which this process keeps publishing too.
	etag     string
	fallback *attest.PublicKey
	retired  *attest.PublicKey

	onSigner func(*attest.Signer)
}

func newSigning(store blob.Store, cfg SigningConfig) *Signing {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Signing{Key: Key{name: "signing keyring", sources: KeyringSources, store: store}, cfg: cfg}
}

// NewSigning reconciles the keyring kept in store (which the returned
// Signing keeps, to Refresh from, until Close) with cfg's key and returns
// the signing state. Several replicas starting at once on one store agree
// on one key: the state is created with a create-only write and changed
// with a compare-and-swap write, and a replica that loses the race reads
// the winner's state and reconciles again.
func NewSigning(ctx context.Context, store blob.Store, cfg SigningConfig) (*Signing, error) {
	s := newSigning(store, cfg)
	ring, etag, err := s.reconcile(ctx, s.cfg.Configured, nil)
	if err != nil {
		return nil, err
	}
	signer, err := ring.Signer(s.cfg.Issuer)
	if err != nil {
		return nil, err
	}
	s.etag = etag
	s.signer.Store(signer)
	s.ring.Store(ring)
	return s, nil
}

// Process signs with k, kept nowhere, and publishes only k.
func Process(k *attest.Key, issuer string) (*Signing, error) {
	s := newSigning(nil, SigningConfig{Issuer: issuer})
	ring := attest.NewKeyring(k, attest.External, s.cfg.Now())
	signer, err := ring.Signer(issuer)
	if err != nil {
		return nil, err
	}
	s.signer.Store(signer)
	s.ring.Store(ring)
	s.setSource(SourceProcess)
	return s, nil
}

// Fallback is the signing state of a replica whose shared store (fleet)
// did not answer at start (cause). It keeps answering, since pure tools
// need no store, and tries the store again at every refresh:
//
//   - with cfg's --signing-key it signs with the file's key, the fleet's
//     key, and publishes only that key until the store answers: it never
//     falls back;
//   - otherwise it signs with its fallback key, the current key of the
//     keyring in local, its data directory's store (created there if
//     absent; local nil: a key of its own lifetime), which only its own
//     key set publishes until the store answers. Then it signs with the
//     fleet's key and publishes the fallback key in the fleet keyring as
//     retired, so that what it signed meanwhile verifies against every
//     replica's key set.
//
// It reads local once and leaves it open; the start is logged at warn.
func Fallback(ctx context.Context, fleet, local blob.Store, cfg SigningConfig, log *slog.Logger, cause error) (*Signing, error) {
	var s *Signing
	var err error
	switch {
	case cfg.Configured != nil:
		s, err = Process(cfg.Configured, cfg.Issuer)
	case local == nil:
		var k *attest.Key
		if k, err = attest.GenerateKey(nil); err == nil {
			s, err = Process(k, cfg.Issuer)
		}
	default:
		s, err = NewSigning(ctx, local, SigningConfig{Retention: cfg.Retention, Issuer: cfg.Issuer, Now: cfg.Now})
	}
	if err != nil {
		return nil, err
	}
	s.cfg, s.etag = cfg, ""
	if s.cfg.Now == nil {
		s.cfg.Now = time.Now
	}
	if cfg.Configured != nil {
		s.fallBack(fleet, SourceKeyFile)
		log.Warn("the shared store is down: answers are signed with the --signing-key key, the fleet's; until the store answers this replica publishes only that key and follows no rotation",
			"signing_kid", cfg.Configured.KID(), "err", cause.Error())
		return s, nil
	}
	fb := s.Ring().Current()
	s.fallback = &fb
	s.fallBack(fleet, SourceFallback)
	log.Warn("the shared store is down: answers are signed with this replica's fallback key, which only its own /.well-known/jwks.json publishes; once the store answers it signs with the fleet's key and publishes the fallback key in the fleet keyring for --key-retention",
		"fallback_kid", fb.KID, "err", cause.Error())
	return s, nil
}

// Signer returns the signer of the key this process signs with now.
func (s *Signing) Signer() *attest.Signer { return s.signer.Load() }

// Ring returns the keyring last read.
func (s *Signing) Ring() *attest.Keyring { return s.ring.Load() }

// Now is the clock of the signing state.
func (s *Signing) Now() time.Time { return s.cfg.Now() }

// JWKS returns the published key set now (GET /.well-known/jwks.json).
func (s *Signing) JWKS() []byte { return s.Ring().JWKS(s.Now()) }

// KeySet returns the keys published now, for verifying cached answers.
func (s *Signing) KeySet() *attest.KeySet { return s.Ring().KeySet(s.Now()) }

// OnSigner calls f with the current signer now and with every new one
// after a rotation (the registry's attester).
func (s *Signing) OnSigner(f func(*attest.Signer)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.onSigner = f
	f(s.Signer())
}

// Close releases the store.
func (s *Signing) Close() error {
	if s.store == nil {
		return nil
	}
	return s.store.Close()
}

// Refresh follows a rotation while the service runs. It re-reads the
// --signing-key file, if any: a file replaced by one with another key
// rotates the stored keyring to it. It re-reads the stored keyring, so that
// a key another replica rotated in is published here too (a client fetching
// the key set through a load balancer must find every key any replica signs
// with). And when the stored current key is not the one this process signs
// with, it signs with it from then on if it holds its private half (a
// generated key kept in the store, or the key of its --signing-key file);
// otherwise it keeps its own key, which the stored keyring keeps published
// for the retention after the rotation. It returns whether the keyring
// changed.
//
// A process that started while the shared store was down (Fallback) tries
// the store instead, until it can adopt the fleet keyring: see recover.
func (s *Signing) Refresh(ctx context.Context) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, changed, err := s.step(ctx, s.recover, s.follow)
	return changed, err
}

// RefreshLogged is Refresh, said in log. While the process waits for the
// shared store it started without, the store still being down is logged at
// debug only, another error once at warn, and the recovery once at info.
func (s *Signing) RefreshLogged(ctx context.Context, log *slog.Logger) {
	s.mu.Lock()
	defer s.mu.Unlock()
	wasPending, before := s.pending, s.Signer().KID()
	recovered, changed, err := s.step(ctx, s.recover, s.follow)
	cur, signing := s.Ring().Current().KID, s.Signer().KID()
	switch {
	case err != nil && wasPending && !recovered:
		s.retried(log, err, "signing keyring: the fleet keyring cannot be adopted yet; this replica keeps signing with its key and tries again at every refresh",
			"signing_kid", signing)
	case err != nil:
		log.Warn("signing keyring or key file unreadable; keeping the published keys and the signing key", "err", err.Error())
	case recovered:
		attrs := []any{"current_kid", cur, "signing_kid", signing}
		msg := "signing keyring: the shared store answers; this replica signs with the fleet keyring's key from now on"
		if s.retired != nil {
			msg += ", and the fleet keyring publishes its fallback key until fallback_published_until"
			attrs = append(attrs, "fallback_kid", before, "fallback_published_until", s.retired.NotAfter.UTC().Format(time.RFC3339))
		}
		log.Info(msg, attrs...)
	case changed && cur != signing:
		log.Warn("signing keyring changed in the store to a key this replica does not hold: it keeps signing with its own key, published until its retention ends; give it the new --signing-key file",
			"current_kid", cur, "signing_kid", signing)
	case changed:
		log.Info("signing keyring changed in the store; key set reloaded", "current_kid", cur, "signing_kid", signing)
	}
}

// follow is a refresh once the fleet keyring is in use.
func (s *Signing) follow(ctx context.Context) (bool, error) {
	if s.cfg.KeyFile != "" {
		k, err := attest.LoadPrivateKeyFile(s.cfg.KeyFile)
		if err != nil {
			return false, err
		}
		if s.cfg.Configured == nil || k.KID() != s.cfg.Configured.KID() {
			ring, etag, err := s.reconcile(ctx, k, nil)
			if err != nil {
				return false, err
			}
			s.cfg.Configured, s.etag = k, etag
			s.adopt(ring)
			return true, s.signWith(ring)
		}
	}
	state, etag, err := readObject(ctx, s.store, KeyringObject)
	if err != nil {
		return false, fmt.Errorf("signing keyring: %w", err)
	}
	if state == nil || etag == s.etag {
		return false, nil
	}
	ring, err := attest.ParseKeyring(state)
	if err != nil {
		return false, fmt.Errorf("signing keyring: %w", err)
	}
	s.etag = etag
	s.adopt(ring)
	return true, s.signWith(ring)
}

// recover adopts the fleet keyring for a process that started while the
// shared store was down, once the store answers: it reconciles the stored
// keyring with its --signing-key as a start does (creating the keyring with
// a create-only write when the store has none yet), publishes the public
// half of its fallback key in it as a key retired now, until the retention
// from now (a compare-and-swap write, retried when another replica wrote
// first), and signs with the fleet's current key from then on. Until then
// it signs with its fallback key. A fleet keyring that already retains the
// most keys it can keeps them: the replica stays on its fallback key, and
// tries again at the next refresh.
func (s *Signing) recover(ctx context.Context) error {
	configured := s.cfg.Configured
	if s.cfg.KeyFile != "" {
		k, err := attest.LoadPrivateKeyFile(s.cfg.KeyFile)
		if err != nil {
			return err
		}
		configured = k
	}
	var retire *attest.PublicKey
	if s.fallback != nil {
		k := *s.fallback
		now := s.Now()
		k.RetiredAt, k.NotAfter = now, now.Add(s.cfg.Retention)
		retire = &k
	}
	ring, etag, err := s.reconcile(ctx, configured, retire)
	if err != nil {
		return err
	}
	s.cfg.Configured, s.etag, s.retired = configured, etag, retire
	s.adopt(ring)
	return s.signWith(ring)
}

// adopt publishes ring from now on, with the fallback key this process
// published in the fleet keyring when it recovered, while that is retained
// (a keyring written without it still leaves it published here).
func (s *Signing) adopt(ring *attest.Keyring) {
	if s.retired != nil {
		if r, err := ring.Retain(*s.retired, s.Now()); err == nil {
			ring = r
		}
	}
	s.ring.Store(ring)
}

// signWith makes ring's current key sign from now on, when this process
// holds its private half.
func (s *Signing) signWith(ring *attest.Keyring) error {
	cur := ring.Current().KID
	if old := s.Signer(); old != nil && old.KID() == cur {
		return nil
	}
	if ring.SigningKey() == nil && s.cfg.Configured != nil && s.cfg.Configured.KID() == cur {
		r, err := ring.WithSigningKey(s.cfg.Configured)
		if err != nil {
			return err
		}
		ring = r
	}
	if ring.SigningKey() == nil {
		return nil // not ours to sign with: keep the own key (still published)
	}
	signer, err := ring.Signer(s.cfg.Issuer)
	if err != nil {
		return err
	}
	s.signer.Store(signer)
	if s.onSigner != nil {
		s.onSigner(signer)
	}
	return nil
}

// reconcile reconciles the keyring kept in the store with configured (nil:
// none) now, publishes retire (nil: none) in it as a retired key
// (Keyring.Retain), writes the result back and returns it with the ETag of
// the stored state.
func (s *Signing) reconcile(ctx context.Context, configured *attest.Key, retire *attest.PublicKey) (*attest.Keyring, string, error) {
	var ring *attest.Keyring
	etag, err := update(ctx, s.store, KeyringObject, "signing keyring", "reconcile it", func(state []byte) ([]byte, error) {
		r, next, err := attest.Reconcile(state, configured, s.Now(), s.cfg.Retention, nil)
		if err != nil {
			return nil, err
		}
		if retire != nil {
			merged, err := r.Retain(*retire, s.Now())
			if err != nil {
				return nil, fmt.Errorf("signing keyring: publishing the fallback key: %w", err)
			}
			if merged != r {
				r, next = merged, merged.Marshal()
			}
		}
		ring = r
		return next, nil
	})
	if err != nil {
		return nil, "", err
	}
	return ring, etag, nil
}

// ReadKeyring returns the keyring state kept in store and its ETag, or nil
// and "" when there is none.
func ReadKeyring(ctx context.Context, store blob.Store) ([]byte, string, error) {
	state, etag, err := readObject(ctx, store, KeyringObject)
	if err != nil {
		return nil, "", fmt.Errorf("signing keyring: %w", err)
	}
	return state, etag, nil
}

// Rotate replaces the current key of the keyring in store with a newly
// generated one kept in the store, the old key retained for retention,
// with a compare-and-swap write (retried when a replica wrote in between).
// A keyring whose current key is a --signing-key file's is refused: its
// replicas follow a replaced file instead.
func Rotate(ctx context.Context, store blob.Store, retention time.Duration, now func() time.Time) (*attest.Keyring, error) {
	var next *attest.Keyring
	_, err := update(ctx, store, KeyringObject, "signing keyring", "rotate it", func(state []byte) ([]byte, error) {
		if state == nil {
			return nil, fmt.Errorf("no signing keyring in %s (start serve on it once)", store.Location())
		}
		ring, err := attest.ParseKeyring(state)
		if err != nil {
			return nil, fmt.Errorf("signing keyring: %w", err)
		}
		if ring.Custody() != attest.InStore {
			return nil, fmt.Errorf("the current key %s comes from --signing-key files: rotate it by replacing the file on every replica", ring.Current().KID)
		}
		k, err := attest.GenerateKey(nil)
		if err != nil {
			return nil, err
		}
		if next, err = ring.Rotate(k, attest.InStore, now(), retention); err != nil {
			return nil, err
		}
		return next.Marshal(), nil
	})
	if err != nil {
		return nil, err
	}
	return next, nil
}
