package answercache

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync/atomic"

	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/internal/attest"
	"github.com/precisiond/precisiond/internal/blob"
	"github.com/precisiond/precisiond/tools"
)

// StorePrefix is where the store tier keeps its entries: one object
// answers/<key digest> per answer.
const StorePrefix = "answers/"

// MaxStoredEntryBytes bounds one entry of the store tier; a larger answer is
// not written, and a larger object is refused without being decoded.
const MaxStoredEntryBytes = 1 << 20

// storedFormat names the form of a store-tier entry.
const storedFormat = "precisiond-answer/1"

// StoreOptions configure the store tier: the answer cache shared by every
// replica of a fleet through the store.
type StoreOptions struct {
	// Store is the shared store (the data directory or the S3 bucket).
	Store blob.Store
	// MaxBytes bounds what the tier keeps under StorePrefix. Trim enforces it
	// (oldest written first out); an entry larger than MaxBytes/4 or
	// MaxStoredEntryBytes is not written.
	MaxBytes int64
	// Render re-renders the legacy result text of an answer from its
	// input_normalized and facts (tools.Registry.Render): the text is not
	// stored, because neither result_hash nor the attestation covers it.
	Render func(tool string, input, facts map[string]any) (string, error)
	// Seal signs the SHA-256 (hex) of an entry with the service's current
	// key (attest.Signer.SignCacheEntry): the seal covers the warnings,
	// which neither result_hash nor the attestation covers.
	Seal func(entrySHA256 string) (string, error)
}

// storeTier keeps what result_hash and the attestation cover (tool,
// contract_hash, input_normalized, facts, result_hash, attestation) and the
// warnings, under a seal (a signature by the service's key over the entry);
// the rest of an answer (the envelope's frame, from the contract; the legacy
// text, re-rendered from the facts) is rebuilt on every hit, so an entry
// altered on disk can make the cache refuse, never serve something else.
type storeTier struct {
	StoreOptions
	maxEntry int64

	hits, misses, refused, failed atomic.Uint64
	bytes                         atomic.Int64 // under StorePrefix: at the last TrimStore, plus what this replica wrote and deleted since
}

// WithStore adds the store tier to c: a lookup that misses in memory reads
// the shared store, and every answer kept is also written there. It must be
// called before c is used. Without o.Store or o.MaxBytes it adds nothing.
func (c *Cache) WithStore(o StoreOptions) *Cache {
	if o.Store == nil || o.MaxBytes <= 0 {
		return c
	}
	c.store = &storeTier{StoreOptions: o, maxEntry: min(MaxStoredEntryBytes, o.MaxBytes/4)}
	return c
}

// StoreStats returns the store tier's counters; ok is false without one.
func (c *Cache) StoreStats() (s Stats, ok bool) {
	t := c.store
	if t == nil {
		return Stats{}, false
	}
	return Stats{Hits: t.hits.Load(), Misses: t.misses.Load(), Refused: t.refused.Load(), Errors: t.failed.Load(),
		Bytes: t.bytes.Load()}, true
}

// storable reports whether resp of key can live in the store tier: no
// redacted input, and a legacy text that re-renders exactly.
func (t *storeTier) storable(key tools.CacheKey, resp *tools.Response) bool {
	env := resp.Envelope
	if t.Render == nil || t.Seal == nil || env == nil || key.Contract == nil || len(key.Contract.RedactFields()) != 0 {
		return false
	}
	text, err := t.Render(key.Tool, env.InputNormalized, env.Facts())
	return err == nil && text == resp.Result
}

// put writes resp to the store unless an entry is there already (written by
// this or another replica; a refused entry was deleted first).
func (t *storeTier) put(ctx context.Context, key tools.CacheKey, resp *tools.Response) {
	if !t.storable(key, resp) {
		return
	}
	warnings := make([]any, len(resp.Envelope.Warnings))
	for i, w := range resp.Envelope.Warnings {
		warnings[i] = map[string]any{"code": w.Code, "message": w.Message}
	}
	doc := map[string]any{
		"attestation":      resp.Attestation,
		"contract_hash":    key.ContractHash,
		"facts":            resp.Envelope.Facts(),
		"format":           storedFormat,
		"input_normalized": resp.Envelope.InputNormalized,
		"result_hash":      resp.Envelope.ResultHash,
		"tool":             key.Tool,
		"warnings":         warnings,
	}
	body, err := evidence.Canonical(doc)
	if err != nil {
		return
	}
	if doc["seal"], err = t.Seal(evidence.HashBytes(body)); err != nil {
		return
	}
	data, err := evidence.Canonical(doc)
	if err != nil || int64(len(data)) > t.maxEntry {
		return
	}
	_, err = t.Store.Put(ctx, StorePrefix+key.Digest, data, blob.PutOptions{IfNoneMatch: true})
	switch {
	case err == nil:
		t.bytes.Add(int64(len(data)))
	case !errors.Is(err, blob.ErrPreconditionFailed):
		t.failed.Add(1)
	}
}

// lookup reads, verifies and rebuilds the entry of key; an entry that fails
// is deleted, so that the call's fresh answer replaces it.
func (t *storeTier) lookup(ctx context.Context, key tools.CacheKey, keys *attest.KeySet, c *Cache) *tools.Response {
	name := StorePrefix + key.Digest
	obj, err := t.Store.Get(ctx, name, blob.GetOptions{})
	switch {
	case errors.Is(err, blob.ErrNotFound):
		t.misses.Add(1)
		return nil
	case err != nil:
		t.failed.Add(1)
		return nil
	}
	data, err := io.ReadAll(io.LimitReader(obj, t.maxEntry+1))
	obj.Close()
	if err != nil {
		t.failed.Add(1)
		return nil
	}
	resp, err := t.verify(key, data, keys, c)
	if err != nil {
		t.refused.Add(1)
		if t.Store.Delete(ctx, name) != nil {
			t.failed.Add(1)
		} else {
			t.bytes.Add(-int64(len(data)))
		}
		return nil
	}
	t.hits.Add(1)
	return resp
}

// verify checks a store-tier entry against key and rebuilds the answer: the
// entry must have exactly the stored members, name key's tool, contract
// hash and input, its seal must verify over the rest, its result_hash must
// recompute and its attestation verify, both signatures by keys published
// now; the envelope is rebuilt from the contract, the verified input, facts
// and warnings, and the legacy text re-rendered.
func (t *storeTier) verify(key tools.CacheKey, data []byte, keys *attest.KeySet, c *Cache) (*tools.Response, error) {
	if int64(len(data)) > t.maxEntry {
		return nil, fmt.Errorf("%w: more than %d bytes", errEntry, t.maxEntry)
	}
	v, err := evidence.ParseJSON(data)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errEntry, err)
	}
	doc, _ := v.(map[string]any)
	input, _ := doc["input_normalized"].(map[string]any)
	facts, _ := doc["facts"].(map[string]any)
	jws, _ := doc["attestation"].(string)
	stored, _ := doc["result_hash"].(string)
	seal, _ := doc["seal"].(string)
	warnings, okW := warningsOf(doc["warnings"])
	if len(doc) != 9 || doc["format"] != storedFormat || doc["tool"] != key.Tool || doc["contract_hash"] != key.ContractHash ||
		input == nil || facts == nil || jws == "" || seal == "" || !okW || key.Contract == nil {
		return nil, fmt.Errorf("%w: not a %s entry of %s", errEntry, storedFormat, key.Tool)
	}
	delete(doc, "seal")
	body, err := evidence.Canonical(doc)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errEntry, err)
	}
	if _, err := keys.VerifyCacheEntry(seal, evidence.HashBytes(body), c.now()); err != nil {
		return nil, fmt.Errorf("%w: seal: %v", errEntry, err)
	}
	if in, err := evidence.Canonical(input); err != nil || !bytes.Equal(in, key.Input) {
		return nil, fmt.Errorf("%w: input_normalized differs", errEntry)
	}
	env, err := evidence.Build(key.Contract, key.ContractHash, input, facts, warnings)
	if err != nil || env.ResultHash != stored {
		return nil, fmt.Errorf("%w: result_hash does not recompute", errEntry)
	}
	claims := attest.ResultClaimsOf(env, "")
	if _, err := keys.VerifyResult(jws, claims, c.now()); err != nil {
		return nil, fmt.Errorf("%w: %v", errEntry, err)
	}
	raw, err := env.AppendCanonical(nil)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errEntry, err)
	}
	text, err := t.Render(key.Tool, input, facts)
	if err != nil {
		return nil, fmt.Errorf("%w: the result text does not re-render: %v", errEntry, err)
	}
	return &tools.Response{Result: text, Tool: key.Tool, Envelope: env, EnvelopeJSON: raw, Attestation: jws}, nil
}

// warningsOf decodes the stored warnings: a list of {"code","message"}
// strings, nothing else.
func warningsOf(v any) ([]evidence.Warning, bool) {
	list, ok := v.([]any)
	if !ok {
		return nil, false
	}
	out := make([]evidence.Warning, len(list))
	for i, w := range list {
		m, _ := w.(map[string]any)
		code, ok1 := m["code"].(string)
		msg, ok2 := m["message"].(string)
		if len(m) != 2 || !ok1 || !ok2 {
			return nil, false
		}
		out[i] = evidence.Warning{Code: code, Message: msg}
	}
	return out, true
}

// TrimStore deletes the oldest entries of the store tier (by the time they
// were written) until what it holds is within StoreOptions.MaxBytes, and
// returns how many it deleted. Replicas may trim at once: deleting a deleted
// object succeeds. Without a store tier it does nothing.
func (c *Cache) TrimStore(ctx context.Context) (int, error) {
	t := c.store
	if t == nil {
		return 0, nil
	}
	var all []blob.Info
	var total int64
	if err := t.Store.List(ctx, StorePrefix, func(i blob.Info) error {
		all = append(all, i)
		total += i.Size
		return nil
	}); err != nil {
		return 0, err
	}
	slices.SortFunc(all, func(a, b blob.Info) int {
		return cmp.Or(a.ModTime.Compare(b.ModTime), cmp.Compare(a.Key, b.Key))
	})
	removed := 0
	for _, i := range all {
		if total <= t.MaxBytes {
			break
		}
		if err := t.Store.Delete(ctx, i.Key); err != nil {
			t.bytes.Store(total)
			return removed, err
		}
		total -= i.Size
		removed++
	}
	t.bytes.Store(total)
	return removed, nil
}
