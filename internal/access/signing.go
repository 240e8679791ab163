package access

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/precisiond/precisiond/internal/blob"
)

// Signer signs and checks download links: /downloads/NAME?exp=UNIX&sig=MAC,
// MAC = base64url(HMAC-SHA256(key, "precisiond-download\x00" NAME "\x00" UNIX)).
type Signer struct {
	key []byte
	now func() time.Time
}

// MinKeyBytes is the shortest signing key accepted.
const MinKeyBytes = 16

// NewSigner makes a signer with key (at least MinKeyBytes bytes).
func NewSigner(key []byte) (*Signer, error) {
	if len(key) < MinKeyBytes {
		return nil, fmt.Errorf("download signing key has %d bytes; at least %d", len(key), MinKeyBytes)
	}
	return &Signer{key: append([]byte(nil), key...), now: time.Now}, nil
}

// SetClock replaces the signer's clock (tests).
func (s *Signer) SetClock(now func() time.Time) { s.now = now }

func (s *Signer) mac(name string, exp int64) string {
	h := hmac.New(sha256.New, s.key)
	h.Write([]byte("precisiond-download\x00" + name + "\x00" + strconv.FormatInt(exp, 10)))
	return base64.RawURLEncoding.EncodeToString(h.Sum(nil))
}

// Query returns "exp=…&sig=…" for name, valid for ttl from now.
func (s *Signer) Query(name string, ttl time.Duration) string {
	exp := s.now().Add(ttl).Unix()
	return "exp=" + strconv.FormatInt(exp, 10) + "&sig=" + s.mac(name, exp)
}

// Errors of Check.
var (
	ErrNoSignature  = errors.New("the link carries no signature")
	ErrBadSignature = errors.New("the link's signature does not match")
	ErrExpired      = errors.New("the link has expired")
)

// Check verifies the exp and sig parameters of q for name.
func (s *Signer) Check(name string, q url.Values) error {
	expS, sig := q.Get("exp"), q.Get("sig")
	if expS == "" && sig == "" {
		return ErrNoSignature
	}
	exp, err := strconv.ParseInt(expS, 10, 64)
	if err != nil || sig == "" || len(q["exp"]) != 1 || len(q["sig"]) != 1 {
		return ErrBadSignature
	}
	if !hmac.Equal([]byte(sig), []byte(s.mac(name, exp))) {
		return ErrBadSignature
	}
	if s.now().Unix() >= exp {
		return ErrExpired
	}
	return nil
}

// KeyFileName is the file in the data directory that holds the generated
// signing key.
const KeyFileName = "download-signing.key"

// LoadOrCreateKey reads the hex key in path, or creates it (32 random bytes,
// mode 0600) when it does not exist. Replicas that share the file share the
// key.
func LoadOrCreateKey(path string) ([]byte, error) {
	if b, err := os.ReadFile(path); err == nil {
		key, err := hex.DecodeString(strings.TrimSpace(string(b)))
		if err != nil || len(key) < MinKeyBytes {
			return nil, fmt.Errorf("%s: want at least %d bytes as hex", path, MinKeyBytes)
		}
		return key, nil
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	// Written whole to a temporary file, then linked into place: a replica
	// reading at the same time never sees a partial key, and the first link
	// wins.
	tmp, err := os.CreateTemp(filepath.Dir(path), ".signing-key-*")
	if err != nil {
		return nil, err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.WriteString(hex.EncodeToString(key) + "\n"); err != nil {
		tmp.Close()
		return nil, err
	}
	if err := tmp.Close(); err != nil {
		return nil, err
	}
	if err := os.Link(tmp.Name(), path); errors.Is(err, os.ErrExist) {
		return LoadOrCreateKey(path) // another replica won the race
	} else if err != nil {
		return nil, err
	}
	return key, nil
}

// KeyObject is the store key of the download signing key shared by a fleet
// (see LoadOrCreateKeyIn).
const KeyObject = "access/download-signing.key"

// LoadOrCreateKeyIn is LoadOrCreateKey for a fleet's object store: it reads
// the key object, or creates it with "create only if absent", so that the
// first replica's key wins and every replica signs and checks links with it.
// A store that cannot be reached is an error (the caller decides whether to
// start without signed links).
func LoadOrCreateKeyIn(ctx context.Context, s blob.Store, key string) ([]byte, error) {
	for range 2 {
		obj, err := s.Get(ctx, key, blob.GetOptions{})
		if err == nil {
			b, err := io.ReadAll(io.LimitReader(obj, 1024))
			obj.Close()
			if err != nil {
				return nil, err
			}
			k, err := hex.DecodeString(strings.TrimSpace(string(b)))
			if err != nil || len(k) < MinKeyBytes {
				return nil, fmt.Errorf("store object %s: want at least %d bytes as hex", key, MinKeyBytes)
			}
			return k, nil
		}
		if !errors.Is(err, blob.ErrNotFound) {
			return nil, err
		}
		k := make([]byte, 32)
		if _, err := rand.Read(k); err != nil {
			return nil, err
		}
		_, err = s.Put(ctx, key, []byte(hex.EncodeToString(k)+"\n"), blob.PutOptions{IfNoneMatch: true})
		if err == nil {
			return k, nil
		}
		if !errors.Is(err, blob.ErrPreconditionFailed) {
			return nil, err
		}
		// Another replica created it first: read theirs.
	}
	return nil, fmt.Errorf("store object %s: created and deleted concurrently", key)
}
