package attest

import (
	"bytes"
	"crypto/ed25519"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/precisiond/precisiond/evidence"
)

// DefaultRetention is how long a key stays published after it stopped signing
// (--key-retention).
const DefaultRetention = 30 * 24 * time.Hour

// MaxRetainedKeys bounds the retired keys a keyring keeps published; a
// rotation beyond it is refused rather than unpublishing a key early.
const MaxRetainedKeys = 64

// ErrTooManyRetained is wrapped by the errors of Rotate and Retain when the
// keyring would retain more than MaxRetainedKeys live keys: the change is
// refused rather than unpublishing a key before its not_after.
var ErrTooManyRetained = fmt.Errorf("attest: a keyring retains at most %d keys", MaxRetainedKeys)

// maxStateBytes bounds a keyring state or a key set read from outside.
const maxStateBytes = 1 << 20

// stateFormat names the serialisation written by Marshal.
const stateFormat = "precisiond-keyring/1"

// timeLayout is the one time form of the keyring state and the JWKS: RFC 3339
// in UTC, whole seconds.
const timeLayout = "2006-01-02T15:04:05Z"

// ErrNoPrivateKey is returned by Reconcile when the stored keyring's current key
// was given by --signing-key (its private half is not in the store) and no key
// file was configured.
var ErrNoPrivateKey = errors.New("attest: the current signing key is not in the store; start with the same --signing-key")

// Custody says where the private half of a keyring's current key lives, and so
// whether Marshal writes it.
type Custody int

const (
	// InStore: the service generated the key; the keyring state carries the
	// private key so every replica sharing the store signs with it.
	InStore Custody = iota
	// External: the key came from --signing-key; the state carries only its
	// public half and every replica must be given the same file.
	External
)

// PublicKey is a published verification key.
type PublicKey struct {
	// KID is KeyID(Key).
	KID string
	// Key is the raw 32-byte Ed25519 public key.
	Key ed25519.PublicKey
	// Since is when the key started signing (zero when unknown, as in a key
	// set read from a JWKS).
	Since time.Time
	// RetiredAt is when the key stopped signing; zero for the current key.
	RetiredAt time.Time
	// NotAfter is the last instant the key is published and accepted; zero for
	// the current key.
	NotAfter time.Time
}

// ExpiredAt reports whether the key is past its not_after at now. The current
// key never expires; a retained key is accepted up to and including NotAfter.
func (k PublicKey) ExpiredAt(now time.Time) bool {
	return !k.NotAfter.IsZero() && now.After(k.NotAfter)
}

// Keyring is the current signing key plus the retired public keys that stay
// published until their not_after. It is an immutable value: Rotate, Prune and
// WithSigningKey return a new keyring, so a service can swap keyrings
// atomically while requests use the old one. It reads no clock; every method
// that depends on time takes now.
type Keyring struct {
	current  PublicKey
	signing  *Key // the current key's private half; nil until known
	custody  Custody
	retained []PublicKey // most recently retired first
}

// NewKeyring returns a keyring whose current key k started signing at now.
func NewKeyring(k *Key, custody Custody, now time.Time) *Keyring {
	return &Keyring{
		current: PublicKey{KID: k.kid, Key: k.PublicKey(), Since: stamp(now)},
		signing: k,
		custody: custody,
	}
}

// stamp is the stored form of an instant: UTC, whole seconds.
func stamp(t time.Time) time.Time { return t.UTC().Truncate(time.Second) }

// Current returns the current key.
func (r *Keyring) Current() PublicKey { return r.current }

// Custody returns where the current key's private half lives.
func (r *Keyring) Custody() Custody { return r.custody }

// SigningKey returns the current key's private half, or nil when the keyring
// was read from a state that does not hold it (an External key) and
// WithSigningKey has not supplied it.
func (r *Keyring) SigningKey() *Key { return r.signing }

// Retained returns the retired keys still held, most recently retired first,
// including any whose not_after has passed but that Prune has not yet removed.
func (r *Keyring) Retained() []PublicKey { return slices.Clone(r.retained) }

// Signer returns a signer for the current key.
func (r *Keyring) Signer(issuer string) (*Signer, error) {
	if r.signing == nil {
		return nil, ErrNoPrivateKey
	}
	return NewSigner(r.signing, issuer)
}

// WithSigningKey returns the keyring with k as the current key's private half.
// k must be the current key.
func (r *Keyring) WithSigningKey(k *Key) (*Keyring, error) {
	if k.kid != r.current.KID {
		return nil, fmt.Errorf("attest: key %s is not the current key %s", k.kid, r.current.KID)
	}
	n := *r
	n.signing = k
	return &n, nil
}

// Rotate returns a keyring in which next signs from now on and the old current
// key is retained, published until now + retention. If next is a retained key
// it leaves the retained list. Rotating to the current key, a negative
// retention, or more than MaxRetainedKeys retained keys is refused.
func (r *Keyring) Rotate(next *Key, custody Custody, now time.Time, retention time.Duration) (*Keyring, error) {
	if retention < 0 {
		return nil, fmt.Errorf("attest: negative key retention %v", retention)
	}
	if next.kid == r.current.KID {
		return nil, fmt.Errorf("attest: key %s is already the current key", next.kid)
	}
	now = stamp(now)
	old := r.current
	old.RetiredAt = now
	old.NotAfter = stamp(now.Add(retention))
	retained := make([]PublicKey, 0, len(r.retained)+1)
	retained = append(retained, old)
	for _, k := range r.retained {
		if k.KID != next.kid && !k.ExpiredAt(now) {
			retained = append(retained, k)
		}
	}
	if len(retained) > MaxRetainedKeys {
		return nil, fmt.Errorf("%w: rotating would retain %d; wait for older keys to pass their retention", ErrTooManyRetained, len(retained))
	}
	n := NewKeyring(next, custody, now)
	n.retained = retained
	return n, nil
}

// Retain returns the keyring with k published as a retired key: a key that
// signed outside this keyring (a replica's fallback key while the store was
// down) and whose signatures must verify for anyone holding the keyring's
// key set until k.NotAfter. Only k's public half is kept. k.RetiredAt and
// k.NotAfter must be set (RetiredAt <= NotAfter); Since, if zero or later
// than RetiredAt, becomes RetiredAt.
//
// The merge is idempotent and commutative, so replicas publishing their
// keys at the same moment through compare-and-swap writes agree whatever
// their order: if the keyring already retains k's kid, the entry keeps the
// earlier since and the later retired_at and not_after of the two; if k is
// the current key, nothing changes. Retained keys expired at now are
// dropped. When the result would retain more than MaxRetainedKeys keys, the
// merge is refused (ErrTooManyRetained) rather than unpublishing a live key.
// r itself is returned when nothing changes.
func (r *Keyring) Retain(k PublicKey, now time.Time) (*Keyring, error) {
	if want := KeyID(k.Key); len(k.Key) != ed25519.PublicKeySize || k.KID != want {
		return nil, fmt.Errorf("attest: retained key %.40q is not an Ed25519 public key with that key id", k.KID)
	}
	if k.RetiredAt.IsZero() || k.NotAfter.Before(k.RetiredAt) {
		return nil, fmt.Errorf("attest: retained key %s: want retired_at <= not_after, got %v and %v", k.KID, k.RetiredAt, k.NotAfter)
	}
	if k.KID == r.current.KID {
		return r, nil
	}
	now = stamp(now)
	k = PublicKey{KID: k.KID, Key: slices.Clone(k.Key), Since: stamp(k.Since), RetiredAt: stamp(k.RetiredAt), NotAfter: stamp(k.NotAfter)}
	if k.Since.IsZero() || k.Since.After(k.RetiredAt) {
		k.Since = k.RetiredAt
	}
	kept := make([]PublicKey, 0, len(r.retained)+1)
	changed := false // an expired key dropped, or k added or extended
	found := false
	for _, old := range r.retained {
		switch {
		case old.ExpiredAt(now):
			changed = true
		case old.KID == k.KID:
			found = true
			merged := PublicKey{KID: k.KID, Key: old.Key, Since: minTime(old.Since, k.Since),
				RetiredAt: maxTime(old.RetiredAt, k.RetiredAt), NotAfter: maxTime(old.NotAfter, k.NotAfter)}
			if !merged.Since.Equal(old.Since) || !merged.RetiredAt.Equal(old.RetiredAt) || !merged.NotAfter.Equal(old.NotAfter) {
				changed = true
			}
			k = merged
		default:
			kept = append(kept, old)
		}
	}
	switch {
	case !changed && found:
		return r, nil // published already, for at least as long
	case k.ExpiredAt(now) && !changed:
		return r, nil // its retention has ended: nothing to publish
	case !k.ExpiredAt(now):
		// Most recently retired first, keys retired in the same second in
		// the order of their kids, so that merges in any order give the
		// same state.
		at := slices.IndexFunc(kept, func(o PublicKey) bool {
			return o.RetiredAt.Before(k.RetiredAt) || (o.RetiredAt.Equal(k.RetiredAt) && o.KID > k.KID)
		})
		if at < 0 {
			at = len(kept)
		}
		kept = slices.Insert(kept, at, k)
	}
	if len(kept) > MaxRetainedKeys {
		return nil, fmt.Errorf("%w: publishing key %s would retain %d; wait for older keys to pass their retention", ErrTooManyRetained, k.KID, len(kept))
	}
	n := *r
	n.retained = kept
	return &n, nil
}

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// Prune returns the keyring without the retained keys expired at now, and
// whether any was removed.
func (r *Keyring) Prune(now time.Time) (*Keyring, bool) {
	kept := slices.DeleteFunc(slices.Clone(r.retained), func(k PublicKey) bool { return k.ExpiredAt(now) })
	if len(kept) == len(r.retained) {
		return r, false
	}
	n := *r
	n.retained = kept
	return &n, true
}

// Published returns the keys published at now: the current key first, then the
// retained keys not expired at now, most recently retired first.
func (r *Keyring) Published(now time.Time) []PublicKey {
	out := make([]PublicKey, 0, 1+len(r.retained))
	out = append(out, r.current)
	for _, k := range r.retained {
		if !k.ExpiredAt(now) {
			out = append(out, k)
		}
	}
	return out
}

// KeySet returns the keys published at now as a key set for verification in
// process (the answer cache).
func (r *Keyring) KeySet(now time.Time) *KeySet {
	return newKeySet(r.Published(now))
}

// Marshal returns the keyring state as canonical JSON, for a store object:
//
//	{"current":{"kid","private_key_pem"?,"since","x"},
//	 "format":"precisiond-keyring/1",
//	 "retained":[{"kid","not_after","retired_at","since","x"},…]}
//
// private_key_pem (PKCS#8 PEM) is present only for an InStore key. The same
// keyring always gives the same bytes, so a conditional write can compare
// them.
func (r *Keyring) Marshal() []byte {
	cur := map[string]any{
		"kid":   r.current.KID,
		"x":     b64.EncodeToString(r.current.Key),
		"since": r.current.Since.Format(timeLayout),
	}
	if r.custody == InStore && r.signing != nil {
		cur["private_key_pem"] = string(r.signing.MarshalPEM())
	}
	retained := make([]any, len(r.retained))
	for i, k := range r.retained {
		retained[i] = map[string]any{
			"kid":        k.KID,
			"x":          b64.EncodeToString(k.Key),
			"since":      k.Since.Format(timeLayout),
			"retired_at": k.RetiredAt.Format(timeLayout),
			"not_after":  k.NotAfter.Format(timeLayout),
		}
	}
	b, err := evidence.Canonical(map[string]any{"format": stateFormat, "current": cur, "retained": retained})
	if err != nil { // only strings and slices of maps of strings: cannot fail
		panic("attest: encoding the keyring state: " + err.Error())
	}
	return b
}

// ParseKeyring reads a state written by Marshal. Every key's kid must match its
// public key, a private key must match the current public key, and no kid may
// appear twice.
func ParseKeyring(data []byte) (*Keyring, error) {
	if len(data) > maxStateBytes {
		return nil, fmt.Errorf("attest: keyring state of %d bytes exceeds %d", len(data), maxStateBytes)
	}
	v, err := evidence.ParseJSON(data)
	if err != nil {
		return nil, fmt.Errorf("attest: keyring state: %w", err)
	}
	top, err := object(v, "keyring state", []string{"format", "current", "retained"}, nil)
	if err != nil {
		return nil, err
	}
	if top["format"] != stateFormat {
		return nil, fmt.Errorf("attest: keyring state format %s, want %q", quoteAny(top["format"]), stateFormat)
	}
	cur, err := object(top["current"], "current key", []string{"kid", "x", "since"}, []string{"private_key_pem"})
	if err != nil {
		return nil, err
	}
	r := &Keyring{custody: External}
	if r.current, err = stateKey(cur, "current key", false); err != nil {
		return nil, err
	}
	if pemText, ok := cur["private_key_pem"]; ok {
		s, _ := pemText.(string)
		k, err := ParsePrivateKeyPEM([]byte(s))
		if err != nil {
			return nil, fmt.Errorf("attest: keyring state: current key: %w", err)
		}
		if k.kid != r.current.KID {
			return nil, fmt.Errorf("attest: keyring state: the private key is %s, the current key %s", k.kid, r.current.KID)
		}
		r.signing, r.custody = k, InStore
	}
	list, ok := top["retained"].([]any)
	if !ok {
		return nil, errors.New("attest: keyring state: retained is not a list")
	}
	if len(list) > MaxRetainedKeys {
		return nil, fmt.Errorf("attest: keyring state retains %d keys, more than %d", len(list), MaxRetainedKeys)
	}
	seen := map[string]bool{r.current.KID: true}
	for i, e := range list {
		what := fmt.Sprintf("retained key %d", i)
		m, err := object(e, what, []string{"kid", "x", "since", "retired_at", "not_after"}, nil)
		if err != nil {
			return nil, err
		}
		k, err := stateKey(m, what, true)
		if err != nil {
			return nil, err
		}
		if seen[k.KID] {
			return nil, fmt.Errorf("attest: keyring state: kid %s appears twice", k.KID)
		}
		seen[k.KID] = true
		r.retained = append(r.retained, k)
	}
	return r, nil
}

// object checks that v is a JSON object with every key of required, optionally
// keys of optional, and nothing else.
func object(v any, what string, required, optional []string) (map[string]any, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("attest: %s is not a JSON object", what)
	}
	for _, k := range required {
		if _, ok := m[k]; !ok {
			return nil, fmt.Errorf("attest: %s has no %q", what, k)
		}
	}
	for k := range m {
		if !slices.Contains(required, k) && !slices.Contains(optional, k) {
			return nil, fmt.Errorf("attest: %s has an unknown member %.40q", what, k)
		}
	}
	return m, nil
}

// stateKey reads kid, x and the times of one key of a keyring state.
func stateKey(m map[string]any, what string, retired bool) (PublicKey, error) {
	kid, _ := m["kid"].(string)
	pub, err := publicKey(m["x"], kid)
	if err != nil {
		return PublicKey{}, fmt.Errorf("attest: keyring state: %s: %w", what, err)
	}
	k := PublicKey{KID: kid, Key: pub}
	names := []string{"since"}
	dsts := []*time.Time{&k.Since}
	if retired {
		names = append(names, "retired_at", "not_after")
		dsts = append(dsts, &k.RetiredAt, &k.NotAfter)
	}
	for i, name := range names {
		if *dsts[i], err = parseTime(m[name]); err != nil {
			return PublicKey{}, fmt.Errorf("attest: keyring state: %s: %s: %w", what, name, err)
		}
	}
	if retired && (k.RetiredAt.Before(k.Since) || k.NotAfter.Before(k.RetiredAt)) {
		return PublicKey{}, fmt.Errorf("attest: keyring state: %s: want since <= retired_at <= not_after", what)
	}
	return k, nil
}

// publicKey decodes a base64url raw Ed25519 public key and checks that kid is
// its key id.
func publicKey(x any, kid string) (ed25519.PublicKey, error) {
	s, ok := x.(string)
	if !ok {
		return nil, errors.New("x is not a string")
	}
	if err := checkAlphabet(s); err != nil {
		return nil, errors.New("x is not base64url")
	}
	raw, err := b64.DecodeString(s)
	if err != nil || len(raw) != ed25519.PublicKeySize {
		return nil, fmt.Errorf("x is not %d base64url bytes", ed25519.PublicKeySize)
	}
	pub := ed25519.PublicKey(raw)
	if want := KeyID(pub); kid != want {
		return nil, fmt.Errorf("kid %.40q is not the key id %s of x", kid, want)
	}
	return pub, nil
}

// parseTime reads the one accepted time form, 2006-01-02T15:04:05Z.
func parseTime(v any) (time.Time, error) {
	s, ok := v.(string)
	if !ok {
		return time.Time{}, errors.New("not a string")
	}
	t, err := time.Parse(timeLayout, s)
	if err != nil || t.Format(timeLayout) != s {
		return time.Time{}, fmt.Errorf("%.40q is not of the form %s", s, timeLayout)
	}
	return t, nil
}

// Reconcile decides, at the start of a replica, which keyring it signs with.
// state is the stored keyring (nil when the store has none); configured is the
// --signing-key key (nil without the flag); retention is --key-retention.
//
//   - no state, no key file: a key is generated from rand (crypto/rand when
//     nil) and kept in the store (InStore);
//   - no state, a key file: that key signs; the store gets only its public half;
//   - a state whose current key is the key file's, or no key file and an
//     InStore current key: the stored keyring is used;
//   - a state and a different key file: the keyring rotates to the file's key
//     and the old key stays published for retention;
//   - a state whose current key is External and no key file: ErrNoPrivateKey.
//
// In every case retained keys expired at now are pruned. newState is the state
// to write back (with a conditional write: if another replica wrote first, read
// its state and call Reconcile again), or nil when the stored state is
// unchanged.
func Reconcile(state []byte, configured *Key, now time.Time, retention time.Duration, rand io.Reader) (ring *Keyring, newState []byte, err error) {
	if state == nil {
		if configured != nil {
			ring = NewKeyring(configured, External, now)
		} else {
			k, err := GenerateKey(rand)
			if err != nil {
				return nil, nil, err
			}
			ring = NewKeyring(k, InStore, now)
		}
		return ring, ring.Marshal(), nil
	}
	if ring, err = ParseKeyring(state); err != nil {
		return nil, nil, err
	}
	switch {
	case configured == nil && ring.signing == nil:
		return nil, nil, fmt.Errorf("%w (kid %s)", ErrNoPrivateKey, ring.current.KID)
	case configured != nil && configured.kid == ring.current.KID:
		if ring, err = ring.WithSigningKey(configured); err != nil {
			return nil, nil, err
		}
	case configured != nil:
		if ring, err = ring.Rotate(configured, External, now, retention); err != nil {
			return nil, nil, err
		}
	}
	ring, _ = ring.Prune(now)
	if out := ring.Marshal(); !bytes.Equal(out, state) {
		return ring, out, nil
	}
	return ring, nil, nil
}
