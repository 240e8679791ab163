package access

import (
	"bytes"
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
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/precisiond/precisiond/internal/blob"
)

// Signer signs and checks download links: /downloads/NAME?exp=UNIX&sig=MAC,
// MAC = base64url(HMAC-SHA256(key, "precisiond-download\x00" NAME "\x00" UNIX)).
//
// It signs with its current key and checks a link against the current key
// and against the keys it accepts besides (a key it signed with before
// Switch, keys other replicas signed with: Accept), each until the time its
// last link expires. Its keys are an immutable set behind an atomic pointer:
// Query, Check, Switch and Accept are safe for concurrent use.
type Signer struct {
	keys  atomic.Pointer[keySet]
	clock atomic.Pointer[func() time.Time]
}

// keySet is the keys of a Signer at one moment; never changed once stored.
type keySet struct {
	current  []byte
	accepted []AcceptedKey // by Until, then key; none past MaxAcceptedKeys
}

// AcceptedKey is a key a Signer no longer signs with but whose links open
// until Until (exclusive; each link also carries its own expiry, no later).
type AcceptedKey struct {
	Key   []byte
	Until time.Time
}

// MinKeyBytes is the shortest signing key accepted.
const MinKeyBytes = 16

// MaxAcceptedKeys bounds the keys a Signer accepts besides its current one
// (the ones expiring first are dropped to make room).
const MaxAcceptedKeys = 64

func checkKey(key []byte) error {
	if len(key) < MinKeyBytes {
		return fmt.Errorf("download signing key has %d bytes; at least %d", len(key), MinKeyBytes)
	}
	return nil
}

// NewSigner makes a signer with key (at least MinKeyBytes bytes).
func NewSigner(key []byte) (*Signer, error) {
	if err := checkKey(key); err != nil {
		return nil, err
	}
	s := &Signer{}
	s.keys.Store(&keySet{current: bytes.Clone(key)})
	s.SetClock(time.Now)
	return s, nil
}

// SetClock replaces the signer's clock (tests; safe while the signer is in
// use).
func (s *Signer) SetClock(now func() time.Time) { s.clock.Store(&now) }

// Now reads the signer's clock.
func (s *Signer) Now() time.Time { return (*s.clock.Load())() }

func mac(key []byte, name string, exp int64) string {
	h := hmac.New(sha256.New, key)
	h.Write([]byte("precisiond-download\x00" + name + "\x00" + strconv.FormatInt(exp, 10)))
	return base64.RawURLEncoding.EncodeToString(h.Sum(nil))
}

// Query returns "exp=…&sig=…" for name, valid for ttl from now.
func (s *Signer) Query(name string, ttl time.Duration) string {
	// The clock is read before the keys: a link signed with a key that
	// Switch retires at that moment read the clock before Switch did (see
	// lastExpiry).
	exp := s.Now().Add(ttl).Unix()
	return "exp=" + strconv.FormatInt(exp, 10) + "&sig=" + mac(s.keys.Load().current, name, exp)
}

// Errors of Check.
var (
	ErrNoSignature  = errors.New("the link carries no signature")
	ErrBadSignature = errors.New("the link's signature does not match")
	ErrExpired      = errors.New("the link has expired")
)

// Check verifies the exp and sig parameters of q for name: signed with the
// current key, or with an accepted key before its Until, and not expired.
func (s *Signer) Check(name string, q url.Values) error {
	expS, sig := q.Get("exp"), q.Get("sig")
	if expS == "" && sig == "" {
		return ErrNoSignature
	}
	exp, err := strconv.ParseInt(expS, 10, 64)
	if err != nil || sig == "" || len(q["exp"]) != 1 || len(q["sig"]) != 1 {
		return ErrBadSignature
	}
	now, ks := s.Now(), s.keys.Load()
	ok := hmac.Equal([]byte(sig), []byte(mac(ks.current, name, exp)))
	for _, a := range ks.accepted {
		if ok {
			break
		}
		ok = now.Before(a.Until) && hmac.Equal([]byte(sig), []byte(mac(a.Key, name, exp)))
	}
	if !ok {
		return ErrBadSignature
	}
	if now.Unix() >= exp {
		return ErrExpired
	}
	return nil
}

// lastExpiry is a time no earlier than the expiry of any link signed for
// ttl until now: a link's expiry is its clock reading plus ttl in whole
// seconds, rounded down. The second added covers a Query that read the clock
// after Switch did but loaded the keys before Switch replaced them (a window
// of a few instructions).
func lastExpiry(now time.Time, ttl time.Duration) time.Time {
	return time.Unix(now.Add(ttl).Unix()+1, 0)
}

// Switch makes key sign every later link. The key it replaces stays
// accepted until its last link (signed for at most ttl) expires; Switch
// returns it and that time. Switching to the current key changes nothing
// (and returns a nil key).
func (s *Signer) Switch(key []byte, ttl time.Duration) (AcceptedKey, error) {
	if err := checkKey(key); err != nil {
		return AcceptedKey{}, err
	}
	for {
		old := s.keys.Load()
		if bytes.Equal(old.current, key) {
			return AcceptedKey{}, nil
		}
		now := s.Now()
		retired := AcceptedKey{Key: old.current, Until: lastExpiry(now, ttl)}
		ks := &keySet{current: bytes.Clone(key), accepted: mergeAccepted(old.accepted, retired, key, now)}
		if s.keys.CompareAndSwap(old, ks) {
			return retired, nil
		}
	}
}

// Accept makes links signed with a.Key open until a.Until (the later of
// that and the time the key was accepted until, if it was). The current key
// is always accepted; a key whose Until has passed changes nothing.
func (s *Signer) Accept(a AcceptedKey) error {
	if err := checkKey(a.Key); err != nil {
		return err
	}
	a.Key = bytes.Clone(a.Key)
	for {
		old := s.keys.Load()
		ks := &keySet{current: old.current, accepted: mergeAccepted(old.accepted, a, old.current, s.Now())}
		if s.keys.CompareAndSwap(old, ks) {
			return nil
		}
	}
}

// Accepted returns the keys accepted besides the current one at now, in
// the order their acceptance ends.
func (s *Signer) Accepted() []AcceptedKey {
	now := s.Now()
	var out []AcceptedKey
	for _, a := range s.keys.Load().accepted {
		if now.Before(a.Until) {
			out = append(out, AcceptedKey{Key: bytes.Clone(a.Key), Until: a.Until})
		}
	}
	return out
}

// mergeAccepted returns list (not changed) with add merged in: a key listed
// twice keeps its later Until; current, keys past their Until at now, and
// the ones expiring first beyond MaxAcceptedKeys are left out. The result is
// ordered by Until, then key.
func mergeAccepted(list []AcceptedKey, add AcceptedKey, current []byte, now time.Time) []AcceptedKey {
	out := make([]AcceptedKey, 0, len(list)+1)
	for _, a := range append(slices.Clip(list), add) {
		if !now.Before(a.Until) || bytes.Equal(a.Key, current) {
			continue
		}
		if i := slices.IndexFunc(out, func(b AcceptedKey) bool { return bytes.Equal(a.Key, b.Key) }); i >= 0 {
			if a.Until.After(out[i].Until) {
				out[i].Until = a.Until
			}
			continue
		}
		out = append(out, a)
	}
	slices.SortFunc(out, func(a, b AcceptedKey) int {
		if c := a.Until.Compare(b.Until); c != 0 {
			return c
		}
		return bytes.Compare(a.Key, b.Key)
	})
	if len(out) > MaxAcceptedKeys {
		out = out[len(out)-MaxAcceptedKeys:]
	}
	return out
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
