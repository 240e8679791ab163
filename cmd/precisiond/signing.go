package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/precisiond/precisiond/api"
	"github.com/precisiond/precisiond/internal/answercache"
	"github.com/precisiond/precisiond/internal/attest"
	"github.com/precisiond/precisiond/internal/blob"
	"github.com/precisiond/precisiond/tools"
)

// SigningConfig configures signed answers and the verified answer cache
// (issue 21, docs/attestation.md).
type SigningConfig struct {
	// KeyFile is --signing-key: a PKCS#8 PEM Ed25519 private key. Empty: a key
	// is generated on first start and kept in the store.
	KeyFile string
	// KeyRetention is how long a rotated-out key stays published.
	KeyRetention time.Duration
	// Issuer is the iss claim; empty: defaultIssuer.
	Issuer string
	// AnswerCacheBytes is --answer-cache; 0: no answer cache in memory.
	AnswerCacheBytes int64
	// AnswerCacheStoreBytes is --answer-cache-store: the bound of the answer
	// cache's tier in the shared store; 0: none.
	AnswerCacheStoreBytes int64
	// KeyringRefresh is how often a running service re-reads the keyring
	// (and, after starting while the shared store was down, tries the store
	// again); 0: keyringRefresh. Not a flag: tests shorten it.
	KeyringRefresh time.Duration
}

// refreshPeriod is the keyring refresh period of c.
func (c SigningConfig) refreshPeriod() time.Duration {
	if c.KeyringRefresh > 0 {
		return c.KeyringRefresh
	}
	return keyringRefresh
}

// defaultIssuer is the iss of an answer when --issuer is not given (the
// service has no public base URL setting).
const defaultIssuer = "precisiond"

// signatureMemo is how many recent attestations (about twice as many at
// most, some 650 bytes each) a process keeps, so that a repeated answer is
// not signed again (bench/RESULTS.md, section 5).
const signatureMemo = 2048

// keyringKey is the store object that holds the keyring state.
const keyringKey = "state/keyring.json"

func defaultSigningConfig() SigningConfig {
	return SigningConfig{KeyRetention: attest.DefaultRetention}
}

var signingFlags = []configFlag{
	{"signing-key", "PRECISIOND_SIGNING_KEY", "FILE", "", "Ed25519 private key (PKCS#8 PEM) that signs every answer; empty: a key generated on first start and kept in the data directory", func(fs *flag.FlagSet, c *Config, n, h string) {
		fs.StringVar(&c.Signing.KeyFile, n, c.Signing.KeyFile, h)
	}},
	{"key-retention", "PRECISIOND_KEY_RETENTION", "DURATION", "720h", "how long a rotated-out signing key stays published in /.well-known/jwks.json", func(fs *flag.FlagSet, c *Config, n, h string) {
		fs.DurationVar(&c.Signing.KeyRetention, n, c.Signing.KeyRetention, h)
	}},
	{"issuer", "PRECISIOND_ISSUER", "ISS", defaultIssuer, "the iss claim of every attestation", func(fs *flag.FlagSet, c *Config, n, h string) {
		fs.StringVar(&c.Signing.Issuer, n, c.Signing.Issuer, h)
	}},
	{"answer-cache", "PRECISIOND_ANSWER_CACHE", "BYTES", "0 (off)", "bytes of verified answers kept for the tools whose contract allows it", func(fs *flag.FlagSet, c *Config, n, h string) {
		fs.Int64Var(&c.Signing.AnswerCacheBytes, n, c.Signing.AnswerCacheBytes, h)
	}},
	{"answer-cache-store", "PRECISIOND_ANSWER_CACHE_STORE", "BYTES", "0 (off)", "bytes of verified answers kept in the store (answers/), shared by every replica on it", func(fs *flag.FlagSet, c *Config, n, h string) {
		fs.Int64Var(&c.Signing.AnswerCacheStoreBytes, n, c.Signing.AnswerCacheStoreBytes, h)
	}},
}

func (c SigningConfig) validate() error {
	switch {
	case c.KeyRetention < 0:
		return errors.New("key-retention must not be negative")
	case c.AnswerCacheBytes < 0:
		return errors.New("answer-cache must not be negative")
	case c.AnswerCacheStoreBytes < 0:
		return errors.New("answer-cache-store must not be negative")
	case len(c.Issuer) > attest.MaxIssuerBytes:
		return fmt.Errorf("issuer has more than %d bytes", attest.MaxIssuerBytes)
	}
	return nil
}

// Where the keys a process signs with and publishes come from: the values of
// the source label of precisiond_signing_keyring.
const (
	// sourceStore: the keyring in the store (the S3 bucket, or the data
	// directory's store), shared by every replica on it.
	sourceStore = "store"
	// sourceFallback: the S3 store was down at start; the replica signs with
	// its fallback key (its data directory's keyring, or a key of its own
	// lifetime), which only it publishes until the store answers.
	sourceFallback = "fallback"
	// sourceKeyFile: the S3 store was down at start; the replica signs with
	// its --signing-key, the fleet's key, and publishes only that key until
	// the store answers.
	sourceKeyFile = "key_file"
	// sourceProcess: no data directory; a key for the life of the process.
	sourceProcess = "process"
)

// keyringSources lists the sources; Signing.source indexes it.
var keyringSources = []string{sourceStore, sourceFallback, sourceKeyFile, sourceProcess}

// Signing is the service's signing state: the keyring it reconciled at start
// (refreshed from the store while it runs) and the signer of its current key.
type Signing struct {
	now    func() time.Time
	signer atomic.Pointer[attest.Signer]
	source atomic.Int32 // index into keyringSources

	ring atomic.Pointer[attest.Keyring] // the keyring last read from the store

	// mu serializes Refresh; it guards the fields below (up to Cache).
	mu    sync.Mutex
	store blob.Store // nil: nothing to refresh from
	etag  string     // of the keyring last read

	// pending: the shared store was down at start, so this process signs
	// with fallback (its fallback key; nil with a --signing-key) and Refresh
	// tries the store until it can adopt the fleet keyring. retired is the
	// fallback key as then published in the fleet keyring (retired at the
	// recovery, until --key-retention after it), which this process keeps
	// publishing too; warned is the last refresh error logged meanwhile.
	pending  bool
	fallback *attest.PublicKey
	retired  *attest.PublicKey
	warned   string

	// What Refresh needs to follow a rotation: the --signing-key file (re-read)
	// and its key, --key-retention and the issuer; onSigner is called with
	// every new signer (attachSigning: the registry's attester).
	keyFile    string
	configured *attest.Key
	retention  time.Duration
	issuer     string
	onSigner   func(*attest.Signer)

	// Cache is the verified answer cache, or nil (attachSigning).
	Cache *answercache.Cache
}

// Signer returns the signer of the key this process signs with now.
func (s *Signing) Signer() *attest.Signer { return s.signer.Load() }

// Source says where the keys this process signs with and publishes come
// from: sourceStore, sourceFallback, sourceKeyFile or sourceProcess.
func (s *Signing) Source() string { return keyringSources[s.source.Load()] }

func (s *Signing) setSource(src string) {
	s.source.Store(int32(slices.Index(keyringSources, src)))
}

// Ring returns the keyring last read.
func (s *Signing) Ring() *attest.Keyring { return s.ring.Load() }

// JWKS returns the published key set now (GET /.well-known/jwks.json).
func (s *Signing) JWKS() []byte { return s.Ring().JWKS(s.now()) }

// KeySet returns the keys published now, for verifying cached answers.
func (s *Signing) KeySet() *attest.KeySet { return s.Ring().KeySet(s.now()) }

// Refresh follows a rotation while the service runs. It re-reads the
// --signing-key file, if any: a file replaced by one with another key
// rotates the stored keyring to it. It re-reads the stored keyring, so that
// a key another replica rotated in is published here too (a client fetching
// the key set through a load balancer must find every key any replica signs
// with). And when the stored current key is not the one this process signs
// with, it signs with it from then on if it holds its private half (a
// generated key kept in the store, or the key of its --signing-key file);
// otherwise it keeps its own key, which the stored keyring keeps published
// for --key-retention after the rotation. It returns whether the keyring
// changed.
//
// A process that started while the shared store was down (its keyring
// source is fallback or key_file) tries the store instead, until it can
// adopt the fleet keyring: see recover.
func (s *Signing) Refresh(ctx context.Context) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.refresh(ctx)
}

func (s *Signing) refresh(ctx context.Context) (bool, error) {
	if s.store == nil {
		return false, nil
	}
	if s.pending {
		return s.recover(ctx)
	}
	if s.keyFile != "" {
		k, err := attest.LoadPrivateKeyFile(s.keyFile)
		if err != nil {
			return false, err
		}
		if s.configured == nil || k.KID() != s.configured.KID() {
			ring, etag, err := reconcileStored(ctx, s.store, k, s.retention, s.now, nil)
			if err != nil {
				return false, err
			}
			s.configured, s.etag = k, etag
			s.adopt(ring)
			return true, s.follow(ring)
		}
	}
	state, etag, err := readKeyring(ctx, s.store)
	if err != nil || state == nil || etag == s.etag {
		return false, err
	}
	ring, err := attest.ParseKeyring(state)
	if err != nil {
		return false, fmt.Errorf("signing keyring: %w", err)
	}
	s.etag = etag
	s.adopt(ring)
	return true, s.follow(ring)
}

// recover adopts the fleet keyring for a process that started while the
// shared store was down, once the store answers: it reconciles the stored
// keyring with its --signing-key as a start does (creating the keyring with a
// create-only write when the store has none yet), publishes the public half
// of its fallback key in it as a key retired now, until --key-retention
// from now (a compare-and-swap write, retried when another replica wrote
// first), and signs with the fleet's current key from then on. Until then
// it keeps signing with its fallback key: also when the fleet keyring
// already retains MaxRetainedKeys live keys (attest.ErrTooManyRetained),
// rather than unpublishing one. The private half of the fallback key is
// never written to the store.
func (s *Signing) recover(ctx context.Context) (bool, error) {
	configured := s.configured
	if s.keyFile != "" {
		k, err := attest.LoadPrivateKeyFile(s.keyFile)
		if err != nil {
			return false, err
		}
		configured = k
	}
	var retire *attest.PublicKey
	if s.fallback != nil {
		k := *s.fallback
		now := s.now()
		k.RetiredAt, k.NotAfter = now, now.Add(s.retention)
		retire = &k
	}
	ring, etag, err := reconcileStored(ctx, s.store, configured, s.retention, s.now, retire)
	if err != nil {
		return false, err
	}
	s.configured, s.etag, s.pending, s.retired = configured, etag, false, retire
	s.adopt(ring)
	if err := s.follow(ring); err != nil {
		return true, err
	}
	s.setSource(sourceStore)
	return true, nil
}

// adopt publishes ring from now on, with the fallback key this process
// published in the fleet keyring when it recovered, while that is retained
// (a keyring written without it still leaves it published here).
func (s *Signing) adopt(ring *attest.Keyring) {
	if s.retired != nil {
		if r, err := ring.Retain(*s.retired, s.now()); err == nil {
			ring = r
		}
	}
	s.ring.Store(ring)
}

// follow makes ring's current key sign from now on, when this process holds
// its private half.
func (s *Signing) follow(ring *attest.Keyring) error {
	cur := ring.Current().KID
	if old := s.Signer(); old != nil && old.KID() == cur {
		return nil
	}
	if ring.SigningKey() == nil && s.configured != nil && s.configured.KID() == cur {
		r, err := ring.WithSigningKey(s.configured)
		if err != nil {
			return err
		}
		ring = r
	}
	if ring.SigningKey() == nil {
		return nil // not ours to sign with: keep the own key (still published)
	}
	signer, err := ring.Signer(s.issuer)
	if err != nil {
		return err
	}
	s.use(signer)
	return nil
}

// use makes signer sign every later answer.
func (s *Signing) use(signer *attest.Signer) {
	s.signer.Store(signer)
	if s.onSigner != nil {
		s.onSigner(signer)
	}
}

// Close releases the store.
func (s *Signing) Close() error {
	if s.store == nil {
		return nil
	}
	return s.store.Close()
}

// keyringRefresh is how often a running service re-reads the keyring.
const keyringRefresh = 30 * time.Second

// refreshKeyring is the background step of a running service: re-read the
// keyring, log a change, keep the old one on an error.
func (m *Main) refreshKeyring() {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	m.Signing.refreshLogged(ctx, m.Log)
}

// refreshLogged is Refresh, said in log. While the process waits for the
// shared store it started without, the store still being down is logged at
// debug only (the start warned, and the store monitor logs the store's
// state), another error once at warn, and the recovery once at info.
func (s *Signing) refreshLogged(ctx context.Context, log *slog.Logger) {
	s.mu.Lock()
	defer s.mu.Unlock()
	wasPending, before := s.pending, s.Signer().KID()
	changed, err := s.refresh(ctx)
	cur, signing := s.Ring().Current().KID, s.Signer().KID()
	switch {
	case err != nil && wasPending && errors.Is(err, blob.ErrUnavailable):
		log.Debug("signing keyring: the shared store still does not answer; trying again at the next refresh", "err", err.Error())
	case err != nil && wasPending:
		if msg := err.Error(); msg != s.warned {
			s.warned = msg
			log.Warn("signing keyring: the fleet keyring cannot be adopted yet; this replica keeps signing with its key and tries again at every refresh",
				"signing_kid", signing, "err", msg)
		}
	case err != nil:
		log.Warn("signing keyring or key file unreadable; keeping the published keys and the signing key", "err", err.Error())
	case wasPending:
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

// answerStoreTrim is how often a running service trims the answer cache's
// store tier to --answer-cache-store.
const answerStoreTrim = time.Minute

// trimAnswerStore is the background step that bounds the store tier.
func (m *Main) trimAnswerStore() {
	if m.Signing.Cache == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if n, err := m.Signing.Cache.TrimStore(ctx); err != nil {
		m.Log.Warn("answer cache: trimming the store tier failed", "err", err.Error())
	} else if n > 0 {
		m.Log.Debug("answer cache: store tier trimmed", "removed", n)
	}
}

// maxReconcileRounds bounds the read-reconcile-write loop against replicas
// writing the keyring at the same moment.
const maxReconcileRounds = 8

// NewSigning reconciles the keyring kept in store (which the returned
// Signing keeps, to Refresh from, until Close) with the configured key
// (nil: none) at now and returns the signing state of issuer. Several
// replicas starting at once on one store agree on one key: the state is
// created with a create-only write and changed with a compare-and-swap write,
// and a replica that loses the race reads the winner's state and reconciles
// again.
func NewSigning(ctx context.Context, store blob.Store, configured *attest.Key, retention time.Duration, issuer string, now func() time.Time) (*Signing, error) {
	if issuer == "" {
		issuer = defaultIssuer
	}
	ring, etag, err := reconcileStored(ctx, store, configured, retention, now, nil)
	if err != nil {
		return nil, err
	}
	signer, err := ring.Signer(issuer)
	if err != nil {
		return nil, err
	}
	sig := &Signing{now: now, store: store, etag: etag, configured: configured, retention: retention, issuer: issuer}
	sig.signer.Store(signer)
	sig.ring.Store(ring)
	return sig, nil
}

// reconcileStored reconciles the keyring kept in store with the configured
// key (nil: none) at now, publishes retire (nil: none) in it as a retired
// key (Keyring.Retain), writes the result back and returns it with the ETag
// of the stored state.
func reconcileStored(ctx context.Context, store blob.Store, configured *attest.Key, retention time.Duration, now func() time.Time, retire *attest.PublicKey) (*attest.Keyring, string, error) {
	for range maxReconcileRounds {
		state, etag, err := readKeyring(ctx, store)
		if err != nil {
			return nil, "", err
		}
		ring, newState, err := attest.Reconcile(state, configured, now(), retention, nil)
		if err != nil {
			return nil, "", err
		}
		if retire != nil {
			merged, err := ring.Retain(*retire, now())
			if err != nil {
				return nil, "", fmt.Errorf("signing keyring: publishing the fallback key: %w", err)
			}
			if merged != ring {
				ring, newState = merged, merged.Marshal()
			}
		}
		if newState != nil {
			opts := blob.PutOptions{IfMatch: etag, IfNoneMatch: state == nil}
			info, err := store.Put(ctx, keyringKey, newState, opts)
			if errors.Is(err, blob.ErrPreconditionFailed) || errors.Is(err, blob.ErrNotFound) {
				continue // another replica wrote first: reconcile with its state
			} else if err != nil {
				return nil, "", fmt.Errorf("signing keyring: %w", err)
			}
			etag = info.ETag
		}
		return ring, etag, nil
	}
	return nil, "", fmt.Errorf("signing keyring: %s kept changing under %d attempts to reconcile it", keyringKey, maxReconcileRounds)
}

// readKeyring returns the stored keyring state and its ETag, or nil and ""
// when there is none.
func readKeyring(ctx context.Context, store blob.Store) ([]byte, string, error) {
	obj, err := store.Get(ctx, keyringKey, blob.GetOptions{})
	if errors.Is(err, blob.ErrNotFound) {
		return nil, "", nil
	}
	if err != nil {
		return nil, "", fmt.Errorf("signing keyring: %w", err)
	}
	defer obj.Close()
	data, err := io.ReadAll(io.LimitReader(obj, 1<<20+1))
	if err != nil {
		return nil, "", fmt.Errorf("signing keyring: %w", err)
	}
	return data, obj.Info.ETag, nil
}

// openSigning is the signing state of a process with cfg: the keyring in the
// shared store when that is S3 (so every replica of a fleet signs with one
// key; while it is down at start, see fallbackSigning), else in a directory
// store over the data directory, or, without a data directory, a key that
// lives only as long as the process. Without persist (call, mcp: they write
// nothing until they must) a data directory without a keyring also gives
// such a key.
func openSigning(cfg Config, log *slog.Logger, persist bool, shared blob.Store) (*Signing, error) {
	var configured *attest.Key
	if cfg.Signing.KeyFile != "" {
		k, err := attest.LoadPrivateKeyFile(cfg.Signing.KeyFile)
		if err != nil {
			return nil, err
		}
		configured = k
	}
	if persist && shared != nil && shared.Kind() == "s3" {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		fleet := unclosed{shared} // the shared store belongs to Main, which closes it
		sig, err := NewSigning(ctx, fleet, configured, cfg.Signing.KeyRetention, issuerOf(cfg), time.Now)
		if !errors.Is(err, blob.ErrUnavailable) {
			if sig != nil {
				sig.keyFile = cfg.Signing.KeyFile
			}
			return sig, err
		}
		return fallbackSigning(ctx, cfg, log, configured, fleet, err)
	}
	if cfg.DataDir == "" {
		return ephemeralSigning(cfg, log, configured, slog.LevelWarn)
	}
	if !persist {
		if _, err := os.Stat(filepath.Join(cfg.DataDir, filepath.FromSlash(keyringKey))); errors.Is(err, fs.ErrNotExist) {
			// call and mcp write nothing until they must: without a
			// keyring they sign with a key of their own lifetime.
			return ephemeralSigning(cfg, log, configured, slog.LevelDebug)
		}
	}
	store, err := blob.OpenDir(cfg.DataDir)
	if err != nil {
		return nil, fmt.Errorf("signing keyring: %w", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	sig, err := NewSigning(ctx, store, configured, cfg.Signing.KeyRetention, issuerOf(cfg), time.Now)
	if err != nil {
		store.Close()
		return nil, err
	}
	sig.keyFile = cfg.Signing.KeyFile
	return sig, nil
}

// fallbackSigning is the signing state of a replica whose shared store (fleet)
// was down at start (cause). It keeps answering, since pure tools need no
// store, and tries the store again at every keyring refresh (recover):
//
//   - with --signing-key it signs with the file's key, the fleet's key, and
//     publishes only that key until the store answers: it never falls back;
//   - otherwise it signs with its fallback key, the current key of its data
//     directory's keyring (created there if absent; without a data
//     directory, a key of its own lifetime), which only its own
//     /.well-known/jwks.json publishes until the store answers. Then it
//     signs with the fleet's key and publishes the fallback key in the fleet
//     keyring as retired, so that what it signed meanwhile verifies against
//     every replica's key set.
func fallbackSigning(ctx context.Context, cfg Config, log *slog.Logger, configured *attest.Key, fleet blob.Store, cause error) (*Signing, error) {
	var sig *Signing
	var err error
	switch {
	case configured != nil:
		sig, err = processSigning(configured, issuerOf(cfg))
	case cfg.DataDir == "":
		var k *attest.Key
		if k, err = attest.GenerateKey(nil); err == nil {
			sig, err = processSigning(k, issuerOf(cfg))
		}
	default:
		var local *blob.DirStore
		if local, err = blob.OpenDir(cfg.DataDir); err != nil {
			return nil, fmt.Errorf("signing keyring: %w", err)
		}
		sig, err = NewSigning(ctx, local, nil, cfg.Signing.KeyRetention, issuerOf(cfg), time.Now)
		local.Close() // read (or created) once: the fleet's store is the one to refresh from
	}
	if err != nil {
		return nil, err
	}
	sig.store, sig.etag, sig.pending = fleet, "", true
	sig.keyFile, sig.configured, sig.retention = cfg.Signing.KeyFile, configured, cfg.Signing.KeyRetention
	if configured != nil {
		sig.setSource(sourceKeyFile)
		log.Warn("the shared store is down: answers are signed with the --signing-key key, the fleet's; until the store answers this replica publishes only that key and follows no rotation",
			"signing_kid", configured.KID(), "err", cause.Error())
		return sig, nil
	}
	fb := sig.Ring().Current()
	sig.fallback = &fb
	sig.setSource(sourceFallback)
	log.Warn("the shared store is down: answers are signed with this replica's fallback key, which only its own /.well-known/jwks.json publishes; once the store answers it signs with the fleet's key and publishes the fallback key in the fleet keyring for --key-retention",
		"fallback_kid", fb.KID, "err", cause.Error())
	return sig, nil
}

// unclosed is a store whose Close does nothing: a view of a store its owner
// closes.
type unclosed struct{ blob.Store }

func (unclosed) Close() error { return nil }

// ephemeralSigning signs with the configured key, or else a key generated
// for the life of this process and kept nowhere, said in the log at level
// (debug for call and mcp, whose stderr a caller may read).
func ephemeralSigning(cfg Config, log *slog.Logger, configured *attest.Key, level slog.Level) (*Signing, error) {
	k := configured
	if k == nil {
		var err error
		if k, err = attest.GenerateKey(nil); err != nil {
			return nil, err
		}
		log.Log(context.Background(), level, "no signing keyring: answers are signed with a key that lives only as long as this process (start serve once on the data directory, or give --signing-key)", "kid", k.KID())
	}
	return processSigning(k, issuerOf(cfg))
}

// processSigning signs with k, kept nowhere, and publishes only k.
func processSigning(k *attest.Key, issuer string) (*Signing, error) {
	ring := attest.NewKeyring(k, attest.External, time.Now())
	signer, err := ring.Signer(issuer)
	if err != nil {
		return nil, err
	}
	sig := &Signing{now: time.Now, issuer: issuer}
	sig.signer.Store(signer)
	sig.ring.Store(ring)
	sig.setSource(sourceProcess)
	return sig, nil
}

func issuerOf(cfg Config) string {
	if cfg.Signing.Issuer != "" {
		return cfg.Signing.Issuer
	}
	return defaultIssuer
}

// attachSigning (persist: see openSigning) makes reg sign every answer, and
// sign with the new key after a rotation, and with --answer-cache or
// --answer-cache-store serve repeated answers of cacheable tools from the
// verified cache (its store tier on shared), counted in metrics when not
// nil.
func attachSigning(cfg Config, log *slog.Logger, reg *tools.Registry, metrics *api.Metrics, persist bool, shared blob.Store) (*Signing, error) {
	if cfg.Signing.AnswerCacheStoreBytes > 0 && shared == nil && persist {
		return nil, errors.New("--answer-cache-store needs a store (--data-dir or --store)")
	}
	sig, err := openSigning(cfg, log, persist, shared)
	if err != nil {
		return nil, err
	}
	sig.onSigner = func(s *attest.Signer) { reg.SetAttester(s.Memoized(signatureMemo)) }
	sig.use(sig.Signer())
	log.Debug("signing answers", "kid", sig.Signer().KID(), "iss", sig.Signer().Issuer(),
		"retained_keys", len(sig.Ring().Retained()))
	if cfg.Signing.AnswerCacheBytes > 0 || (cfg.Signing.AnswerCacheStoreBytes > 0 && shared != nil) {
		cache := answercache.New(cfg.Signing.AnswerCacheBytes, sig.KeySet, sig.now)
		if shared != nil {
			cache.WithStore(answercache.StoreOptions{Store: shared, MaxBytes: cfg.Signing.AnswerCacheStoreBytes, Render: reg.Render,
				Seal: func(d string) (string, error) { return sig.Signer().SignCacheEntry(d) }})
		}
		sig.Cache = cache
		reg.SetAnswerCache(cache)
		if metrics != nil {
			registerCacheMetrics(metrics.Registry(), cache)
		}
	}
	if metrics != nil {
		registerKeyringMetrics(metrics.Registry(), sig)
	}
	return sig, nil
}

// registerKeyringMetrics exports where the keys this process signs with
// come from, one series per source, 1 for the one in use:
//
//	precisiond_signing_keyring{source="store|fallback|key_file|process"}  gauge
func registerKeyringMetrics(reg prometheus.Registerer, sig *Signing) {
	registerSourceGauge(reg, "precisiond_signing_keyring", "1 for where the keys this replica signs with and publishes come from now, 0 for the others: store (the keyring every replica on the store shares), fallback (the shared store was down at start: a key only this replica publishes, until the store answers), key_file (the store was down at start: the --signing-key key, the fleet's, the fleet keyring not read yet), process (no data directory: a key of this process's lifetime).",
		keyringSources, sig.Source)
}

// registerSourceGauge exports which of sources current names, as one series
// of the gauge name per source (label source), 1 for the one in use and 0
// for the others.
func registerSourceGauge(reg prometheus.Registerer, name, help string, sources []string, current func() string) {
	for _, src := range sources {
		reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: name, Help: help, ConstLabels: prometheus.Labels{"source": src},
		}, func() float64 {
			if current() == src {
				return 1
			}
			return 0
		}))
	}
}

// registerCacheMetrics exports the answer cache's counters, per tier
// ("memory", and "store" with a store tier):
//
//	precisiond_answer_cache_total{tier,result="hit|miss|refused"}  counter
//	precisiond_answer_cache_total{tier="store",result="error"}     counter
//	precisiond_answer_cache_bytes{tier}                            gauge
func registerCacheMetrics(reg prometheus.Registerer, c *answercache.Cache) {
	const help = "Lookups in the verified answer cache per tier: hit (served after re-verification), miss, refused (a stored entry failed re-verification and was dropped), error (the store failed; the call ran)."
	const bytesHelp = "Bytes held by the verified answer cache per tier (memory: --answer-cache is the cap; store: at the last trim, --answer-cache-store is the cap)."
	for _, r := range []string{"hit", "miss", "refused"} {
		reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "precisiond_answer_cache_total", Help: help, ConstLabels: prometheus.Labels{"tier": "memory", "result": r},
		}, func() float64 { return float64(c.Stats().Count(r)) }))
	}
	reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "precisiond_answer_cache_bytes", Help: bytesHelp, ConstLabels: prometheus.Labels{"tier": "memory"},
	}, func() float64 { return float64(c.Stats().Bytes) }))
	if _, ok := c.StoreStats(); !ok {
		return
	}
	for _, r := range []string{"hit", "miss", "refused", "error"} {
		reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "precisiond_answer_cache_total", Help: help, ConstLabels: prometheus.Labels{"tier": "store", "result": r},
		}, func() float64 { s, _ := c.StoreStats(); return float64(s.Count(r)) }))
	}
	reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "precisiond_answer_cache_bytes", Help: bytesHelp, ConstLabels: prometheus.Labels{"tier": "store"},
	}, func() float64 { s, _ := c.StoreStats(); return float64(s.Bytes) }))
}

// isURL reports whether a --jwks value names a URL rather than a file.
func isURL(s string) bool {
	return strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://")
}
