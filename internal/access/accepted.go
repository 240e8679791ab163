package access

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/precisiond/precisiond/internal/blob"
)

// AcceptedObject is the store key of the download signing keys a fleet
// accepts besides its key (KeyObject), each until its last link expires: the
// key a replica signed links with while the store was down at its start,
// published when the store answers again (PublishAcceptedIn), so that every
// replica opens those links (ReadAcceptedIn). Like KeyObject it holds
// secrets: whoever reads the store can sign links.
const AcceptedObject = "access/download-signing-accepted.json"

// maxAcceptedBytes bounds the accepted-keys object read from a store.
const maxAcceptedBytes = 1 << 17

// maxStoredKeyBytes bounds a key in the accepted-keys object.
const maxStoredKeyBytes = 512

// ErrAcceptedObject is the error of a malformed accepted-keys object.
var ErrAcceptedObject = errors.New("malformed accepted download signing keys")

type acceptedDoc struct {
	Keys []acceptedEntry `json:"keys"`
}

type acceptedEntry struct {
	Key   string    `json:"key"`   // hex
	Until time.Time `json:"until"` // RFC 3339
}

// ParseAccepted reads an accepted-keys object: {"keys":[{"key":HEX,
// "until":RFC3339}]}, at most MaxAcceptedKeys keys of MinKeyBytes to 512
// bytes, each with an until in the years 1 to 9999 UTC. Anything else is an error wrapping
// ErrAcceptedObject.
func ParseAccepted(data []byte) ([]AcceptedKey, error) {
	if len(data) > maxAcceptedBytes {
		return nil, fmt.Errorf("%w: more than %d bytes", ErrAcceptedObject, maxAcceptedBytes)
	}
	var doc acceptedDoc
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrAcceptedObject, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("%w: data after the object", ErrAcceptedObject)
	}
	if len(doc.Keys) > MaxAcceptedKeys {
		return nil, fmt.Errorf("%w: %d keys; at most %d", ErrAcceptedObject, len(doc.Keys), MaxAcceptedKeys)
	}
	out := make([]AcceptedKey, 0, len(doc.Keys))
	for i, e := range doc.Keys {
		k, err := hex.DecodeString(e.Key)
		if err != nil || len(k) < MinKeyBytes || len(k) > maxStoredKeyBytes {
			return nil, fmt.Errorf("%w: key %d: want %d to %d bytes as hex", ErrAcceptedObject, i, MinKeyBytes, maxStoredKeyBytes)
		}
		if !validUntil(e.Until) {
			return nil, fmt.Errorf("%w: key %d: until missing or outside the years 1 to 9999 UTC", ErrAcceptedObject, i)
		}
		out = append(out, AcceptedKey{Key: k, Until: e.Until})
	}
	return out, nil
}

// validUntil reports whether t is an until an accepted-keys object can
// hold: not the zero time, in the years 1 to 9999 in UTC, as it is written.
func validUntil(t time.Time) bool {
	y := t.UTC().Year()
	return !t.IsZero() && y >= 1 && y <= 9999
}

// MarshalAccepted is the object ParseAccepted reads (each until, in UTC,
// within the years validUntil admits).
func MarshalAccepted(keys []AcceptedKey) []byte {
	doc := acceptedDoc{Keys: make([]acceptedEntry, 0, len(keys))}
	for _, k := range keys {
		doc.Keys = append(doc.Keys, acceptedEntry{Key: hex.EncodeToString(k.Key), Until: k.Until.UTC()})
	}
	b, _ := json.Marshal(doc) // strings and times: cannot fail
	return append(b, '\n')
}

// ReadAcceptedIn returns the keys of the accepted-keys object key in s and
// its ETag; nil and "" when there is none. With etag set, an object still
// at that ETag is blob.ErrNotModified.
func ReadAcceptedIn(ctx context.Context, s blob.Store, key, etag string) ([]AcceptedKey, string, error) {
	obj, err := s.Get(ctx, key, blob.GetOptions{IfNoneMatch: etag})
	if errors.Is(err, blob.ErrNotFound) {
		return nil, "", nil
	}
	if err != nil {
		return nil, "", err
	}
	defer obj.Close()
	data, err := io.ReadAll(io.LimitReader(obj, maxAcceptedBytes+1))
	if err != nil {
		return nil, "", err
	}
	keys, err := ParseAccepted(data)
	if err != nil {
		return nil, "", fmt.Errorf("store object %s: %w", key, err)
	}
	return keys, obj.Info.ETag, nil
}

// maxPublishRounds bounds PublishAcceptedIn's read-merge-write loop against
// replicas writing at the same moment.
const maxPublishRounds = 8

// PublishAcceptedIn merges a into the accepted-keys object key in s (the
// later until of a key listed twice; keys past their until at now are
// dropped, and the ones expiring first beyond MaxAcceptedKeys), written with
// "create only if absent" or compare-and-swap, re-read and merged again when
// another replica wrote first. An object that already says as much is not
// rewritten.
func PublishAcceptedIn(ctx context.Context, s blob.Store, key string, a AcceptedKey, now time.Time) error {
	if err := checkKey(a.Key); err != nil {
		return err
	}
	if len(a.Key) > maxStoredKeyBytes {
		return fmt.Errorf("download signing key has %d bytes; at most %d can be published", len(a.Key), maxStoredKeyBytes)
	}
	if !validUntil(a.Until) {
		return fmt.Errorf("download signing key accepted until %v: outside the years 1 to 9999", a.Until)
	}
	for range maxPublishRounds {
		keys, etag, err := ReadAcceptedIn(ctx, s, key, "")
		if err != nil {
			return err
		}
		merged := mergeAccepted(keys, a, nil, now)
		if slices.EqualFunc(merged, keys, func(x, y AcceptedKey) bool { return bytes.Equal(x.Key, y.Key) && x.Until.Equal(y.Until) }) {
			return nil // nothing to add, nothing expired
		}
		_, err = s.Put(ctx, key, MarshalAccepted(merged), blob.PutOptions{IfMatch: etag, IfNoneMatch: etag == ""})
		if errors.Is(err, blob.ErrPreconditionFailed) || errors.Is(err, blob.ErrNotFound) {
			continue // another replica wrote first: merge into its list
		}
		return err
	}
	return fmt.Errorf("store object %s kept changing under %d attempts to publish a key", key, maxPublishRounds)
}
