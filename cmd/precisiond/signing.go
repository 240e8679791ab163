package main

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/precisiond/precisiond/api"
	"github.com/precisiond/precisiond/internal/answercache"
	"github.com/precisiond/precisiond/internal/attest"
	"github.com/precisiond/precisiond/internal/blob"
	"github.com/precisiond/precisiond/internal/fleetkey"
	"github.com/precisiond/precisiond/tools"
)

// signatureMemo is how many recent attestations (about twice as many at
// most, some 650 bytes each) a process keeps, so that a repeated answer is
// not signed again (bench/RESULTS.md, section 5).
const signatureMemo = 2048

var signingFlags = []setting{
	set("signing-key", "PRECISIOND_SIGNING_KEY", "FILE", "", "Ed25519 private key (PKCS#8 PEM) that signs every answer; empty: a key generated on first start and kept in the data directory", func(c *Config) any { return &c.Signing.KeyFile }),
	set("key-retention", "PRECISIOND_KEY_RETENTION", "DURATION", "720h", "how long a rotated-out signing key stays published in /.well-known/jwks.json", func(c *Config) any { return &c.Signing.KeyRetention }),
	set("issuer", "PRECISIOND_ISSUER", "ISS", fleetkey.DefaultIssuer, "the iss claim of every attestation", func(c *Config) any { return &c.Signing.Issuer }),
	set("answer-cache", "PRECISIOND_ANSWER_CACHE", "BYTES", "0 (off)", "bytes of verified answers kept for the tools whose contract allows it", func(c *Config) any { return &c.Signing.AnswerCacheBytes }),
	set("answer-cache-store", "PRECISIOND_ANSWER_CACHE_STORE", "BYTES", "0 (off)", "bytes of verified answers kept in the store (answers/), shared by every replica on it", func(c *Config) any { return &c.Signing.AnswerCacheStoreBytes }),
}

// refreshKeyring is the background step of a running service: re-read the
// keyring, log a change, keep the old one on an error.
func (m *Main) refreshKeyring() {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	m.Signing.RefreshLogged(ctx, m.Log)
}

// answerStoreTrim is how often a running service trims the answer cache's
// store tier to --answer-cache-store (answercache.Cache.KeepTrimmed).
const answerStoreTrim = time.Minute

// attachSigning (persist: see fleetkey.OpenConfig) makes reg sign every answer, and
// sign with the new key after a rotation, and with --answer-cache or
// --answer-cache-store serve repeated answers of cacheable tools from the
// verified cache (its store tier on shared; nil without one), counted in
// metrics when not nil.
func attachSigning(cfg Config, log *slog.Logger, reg *tools.Registry, metrics *api.Metrics, persist bool, shared blob.Store) (*fleetkey.Signing, *answercache.Cache, error) {
	if cfg.Signing.AnswerCacheStoreBytes > 0 && shared == nil && persist {
		return nil, nil, errors.New("--answer-cache-store needs a store (--data-dir or --store)")
	}
	sig, err := fleetkey.OpenSigning(fleetkey.OpenConfig{
		SigningConfig: cfg.Signing.Signing(), DataDir: cfg.DataDir, Persist: persist, Shared: shared}, log)
	if err != nil {
		return nil, nil, err
	}
	sig.OnSigner(func(s *attest.Signer) { reg.SetAttester(s.Memoized(signatureMemo)) })
	log.Debug("signing answers", "kid", sig.Signer().KID(), "iss", sig.Signer().Issuer(),
		"retained_keys", len(sig.Ring().Retained()))
	var cache *answercache.Cache
	if cfg.Signing.AnswerCacheBytes > 0 || (cfg.Signing.AnswerCacheStoreBytes > 0 && shared != nil) {
		cache = answercache.New(cfg.Signing.AnswerCacheBytes, sig.KeySet, sig.Now)
		if shared != nil {
			cache.WithStore(answercache.StoreOptions{Store: shared, MaxBytes: cfg.Signing.AnswerCacheStoreBytes, Render: reg.Render,
				Seal: func(d string) (string, error) { return sig.Signer().SignCacheEntry(d) }})
		}
		reg.SetAnswerCache(cache)
		if metrics != nil {
			metrics.ObserveAnswerCache(cache)
		}
	}
	if metrics != nil {
		metrics.ObserveSigningKeyring(&sig.Key)
	}
	return sig, cache, nil
}
