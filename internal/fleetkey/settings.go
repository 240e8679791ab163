package fleetkey

import (
	"errors"
	"fmt"
	"time"

	"github.com/precisiond/precisiond/internal/attest"
)

// Settings are a process's settings of signed answers and of the verified
// answer cache, which trusts the keys they publish (docs/attestation.md).
type Settings struct {
	// KeyFile is --signing-key: a PKCS#8 PEM Ed25519 private key. Empty: a key
	// is generated on first start and kept in the store.
	KeyFile string
	// KeyRetention is how long a rotated-out key stays published.
	KeyRetention time.Duration
	// Issuer is the iss claim; empty: DefaultIssuer.
	Issuer string
	// AnswerCacheBytes is --answer-cache; 0: no answer cache in memory.
	AnswerCacheBytes int64
	// AnswerCacheStoreBytes is --answer-cache-store: the bound of the answer
	// cache's tier in the shared store; 0: none.
	AnswerCacheStoreBytes int64
	// KeyringRefresh is how often a running service re-reads the keyring
	// (and, after starting while the shared store was down, tries the store
	// again); 0: DefaultRefresh. Not a flag: tests shorten it.
	KeyringRefresh time.Duration
}

// DefaultIssuer is the iss of an answer when no issuer is set (the service
// has no public base URL setting).
const DefaultIssuer = "precisiond"

// DefaultRefresh is how often a running service re-reads the keyring.
const DefaultRefresh = 30 * time.Second

// DefaultSettings are the settings of a process given none.
func DefaultSettings() Settings { return Settings{KeyRetention: attest.DefaultRetention} }

// Validate checks the settings.
func (s Settings) Validate() error {
	switch {
	case s.KeyRetention < 0:
		return errors.New("key-retention must not be negative")
	case s.AnswerCacheBytes < 0:
		return errors.New("answer-cache must not be negative")
	case s.AnswerCacheStoreBytes < 0:
		return errors.New("answer-cache-store must not be negative")
	case len(s.Issuer) > attest.MaxIssuerBytes:
		return fmt.Errorf("issuer has more than %d bytes", attest.MaxIssuerBytes)
	}
	return nil
}

// RefreshPeriod is how often a running service re-reads the keyring.
func (s Settings) RefreshPeriod() time.Duration {
	if s.KeyringRefresh > 0 {
		return s.KeyringRefresh
	}
	return DefaultRefresh
}

// Signing is the SigningConfig of s; OpenSigning reads its KeyFile.
func (s Settings) Signing() SigningConfig {
	iss := s.Issuer
	if iss == "" {
		iss = DefaultIssuer
	}
	return SigningConfig{KeyFile: s.KeyFile, Retention: s.KeyRetention, Issuer: iss}
}
