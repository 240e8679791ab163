// Package answercache is the verified answer cache of issue 21 (--answer-cache
// SIZE): signed answers of the tools whose contract sets
// cache_policy.answer_cache, kept in memory up to a byte budget, least
// recently used first out. An entry is the answer as /invoke writes it
// (canonical JSON of attestation, result, structured_result and tool), and it
// is served again only after it is re-verified: the envelope is the one the
// key asks for (tool, contract_hash, input_normalized), the members the
// contract determines are the contract's (ids, determinism, source), its
// result_hash recomputes, and its attestation verifies against a key
// published now. An entry that fails is dropped and counted as refused; the
// call then runs.
//
// The legacy result text and the warnings are covered neither by result_hash
// nor by the attestation (their format is the reference's); the memory tier
// holds them in process memory only. The store tier (WithStore), shared by
// the replicas of a fleet, keeps only what the hashes and the signature
// cover and rebuilds the rest on every hit: the envelope's frame from the
// contract, the legacy text re-rendered from the facts; answers with
// warnings are not written there.
package answercache

import (
	"bytes"
	"container/list"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/internal/attest"
	"github.com/precisiond/precisiond/tools"
)

// entryOverhead is what an entry costs beside its bytes: the list element,
// the map slot and the digest string, rounded up.
const entryOverhead = 256

// Cache is a byte-bounded LRU of signed answers. It is safe for concurrent
// use.
type Cache struct {
	max  int64
	keys func() *attest.KeySet
	now  func() time.Time

	mu    sync.Mutex
	used  int64
	order *list.List // of *entry, most recently used first
	byKey map[string]*list.Element

	hits, misses, refused atomic.Uint64

	store *storeTier // nil: memory only (WithStore)
}

type entry struct {
	digest string
	data   []byte
}

// New returns a cache of at most maxBytes (entries and their bookkeeping)
// whose entries are verified against keys() at now().
func New(maxBytes int64, keys func() *attest.KeySet, now func() time.Time) *Cache {
	return &Cache{max: maxBytes, keys: keys, now: now, order: list.New(), byKey: map[string]*list.Element{}}
}

var _ tools.AnswerCache = (*Cache)(nil)

// Stats are the counters of one tier of the cache.
type Stats struct {
	Hits, Misses, Refused uint64
	// Errors counts reads and writes the store failed (unavailable,
	// timeouts; store tier only): the call then runs, or its answer is not
	// shared.
	Errors  uint64
	Entries int // memory tier only
	// Bytes held: the memory tier's now; the store tier's at its last trim,
	// plus what this replica wrote and deleted since.
	Bytes int64
}

// Count returns the counter named "hit", "miss", "refused" or "error".
func (s Stats) Count(name string) uint64 {
	switch name {
	case "hit":
		return s.Hits
	case "miss":
		return s.Misses
	case "refused":
		return s.Refused
	case "error":
		return s.Errors
	}
	return 0
}

// Stats returns the memory tier's counters now.
func (c *Cache) Stats() Stats {
	c.mu.Lock()
	n, used := c.order.Len(), c.used
	c.mu.Unlock()
	return Stats{Hits: c.hits.Load(), Misses: c.misses.Load(), Refused: c.refused.Load(), Entries: n, Bytes: used}
}

// Store keeps a signed answer in memory and, with a store tier, in the
// shared store too. An unsigned answer, or one larger than a quarter of the
// budget, is not kept.
func (c *Cache) Store(ctx context.Context, key tools.CacheKey, resp *tools.Response) {
	if resp.Attestation == "" || resp.EnvelopeJSON == nil {
		return
	}
	c.keep(key, resp)
	if c.store != nil {
		c.store.put(ctx, key, resp)
	}
}

// keep puts resp in the memory tier.
func (c *Cache) keep(key tools.CacheKey, resp *tools.Response) {
	if c.max <= 0 {
		return // no memory tier (--answer-cache-store alone)
	}
	data, err := encode(resp)
	if err != nil {
		return
	}
	cost := int64(len(data)) + entryOverhead
	if cost > c.max/4 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.byKey[key.Digest]; ok {
		c.remove(el)
	}
	for c.used+cost > c.max && c.order.Len() > 0 {
		c.remove(c.order.Back())
	}
	c.byKey[key.Digest] = c.order.PushFront(&entry{digest: key.Digest, data: data})
	c.used += cost
}

func (c *Cache) remove(el *list.Element) {
	e := c.order.Remove(el).(*entry)
	delete(c.byKey, e.digest)
	c.used -= int64(len(e.data)) + entryOverhead
}

// Lookup returns the stored answer for key after re-verifying it, or nil:
// from memory, else from the store tier (kept in memory then).
func (c *Cache) Lookup(ctx context.Context, key tools.CacheKey) *tools.Response {
	if resp := c.lookupMemory(key); resp != nil {
		return resp
	}
	if c.store == nil {
		return nil
	}
	resp := c.store.lookup(ctx, key, c.keys(), c)
	if resp != nil {
		c.keep(key, resp)
	}
	return resp
}

func (c *Cache) lookupMemory(key tools.CacheKey) *tools.Response {
	c.mu.Lock()
	el, ok := c.byKey[key.Digest]
	var data []byte
	if ok {
		c.order.MoveToFront(el)
		data = el.Value.(*entry).data
	}
	c.mu.Unlock()
	if !ok {
		c.misses.Add(1)
		return nil
	}
	resp, err := c.verify(key, data)
	if err != nil {
		c.refused.Add(1)
		c.mu.Lock()
		if cur, ok := c.byKey[key.Digest]; ok && cur == el {
			c.remove(el)
		}
		c.mu.Unlock()
		return nil
	}
	c.hits.Add(1)
	return resp
}

// encode is the stored form of an answer: the /invoke body.
func encode(resp *tools.Response) ([]byte, error) {
	b, err := evidence.AppendCanonical([]byte(`{"attestation":`), resp.Attestation)
	if err != nil {
		return nil, err
	}
	if b, err = evidence.AppendCanonical(append(b, `,"result":`...), resp.Result); err != nil {
		return nil, err
	}
	b = append(append(b, `,"structured_result":`...), resp.EnvelopeJSON...)
	if b, err = evidence.AppendCanonical(append(b, `,"tool":`...), resp.Tool); err != nil {
		return nil, err
	}
	return append(b, '}'), nil
}

// errEntry is the cause of every refusal of a stored entry.
var errEntry = errors.New("answercache: stored entry refused")

// verify decodes a stored entry and checks it against key; the returned
// response carries exactly the stored envelope bytes.
func (c *Cache) verify(key tools.CacheKey, data []byte) (*tools.Response, error) {
	v, err := evidence.ParseJSON(data)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errEntry, err)
	}
	doc, _ := v.(map[string]any)
	sr, _ := doc["structured_result"].(map[string]any)
	jws, _ := doc["attestation"].(string)
	text, okText := doc["result"].(string)
	if sr == nil || jws == "" || !okText || len(doc) != 4 || doc["tool"] != key.Tool {
		return nil, fmt.Errorf("%w: not an answer of %s", errEntry, key.Tool)
	}
	input, _ := sr["input_normalized"].(map[string]any)
	facts, _ := sr["facts"].(map[string]any)
	if input == nil || facts == nil {
		return nil, fmt.Errorf("%w: no input or facts", errEntry)
	}
	if err := sameFrame(key, sr, facts); err != nil {
		return nil, err
	}
	if in, err := evidence.Canonical(input); err != nil || !bytes.Equal(in, key.Input) {
		return nil, fmt.Errorf("%w: input_normalized differs", errEntry)
	}
	rh, err := evidence.ResultHash(key.ContractHash, input, facts)
	if err != nil || rh != sr["result_hash"] {
		return nil, fmt.Errorf("%w: result_hash does not recompute", errEntry)
	}
	claims, err := attest.ResultClaimsFromGeneric(sr, "")
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errEntry, err)
	}
	if _, err := c.keys().VerifyResult(jws, claims, c.now()); err != nil {
		return nil, fmt.Errorf("%w: %v", errEntry, err)
	}
	env, err := envelopeOf(sr)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errEntry, err)
	}
	raw, err := env.AppendCanonical(nil)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errEntry, err)
	}
	// The envelope written again from the typed fields must be the stored
	// one: an entry with members outside the envelope is refused rather
	// than served with them dropped.
	if want, _ := evidence.Canonical(sr); !bytes.Equal(raw, want) {
		return nil, fmt.Errorf("%w: envelope has members outside the envelope", errEntry)
	}
	return &tools.Response{Result: text, Tool: key.Tool, Envelope: env, EnvelopeJSON: raw, Attestation: jws}, nil
}

// sameFrame checks the members of a stored envelope that neither result_hash
// nor the attestation covers but the contract determines: status, tool,
// contract ids, determinism and source (whose as_of comes from the hashed
// facts, as evidence.Build takes it).
func sameFrame(key tools.CacheKey, sr, facts map[string]any) error {
	c := key.Contract
	if c == nil || sr["tool"] != key.Tool || sr["contract_hash"] != key.ContractHash || sr["status"] != "completed" ||
		sr["contract_id"] != c.ContractID || sr["contract_version"] != c.ContractVersion || sr["determinism"] != c.Determinism {
		return fmt.Errorf("%w: identity differs", errEntry)
	}
	want := evidence.SourceFor(c, facts["as_of"])
	src, _ := sr["source"].(map[string]any)
	if src == nil || src["kind"] != want.Kind || src["name"] != want.Name || src["version"] != want.Version {
		return fmt.Errorf("%w: source differs", errEntry)
	}
	got, err1 := evidence.Canonical(src["as_of"])
	exp, err2 := evidence.Canonical(want.AsOf)
	if err1 != nil || err2 != nil || !bytes.Equal(got, exp) {
		return fmt.Errorf("%w: source.as_of differs", errEntry)
	}
	return nil
}

// envelopeOf rebuilds an envelope from its generic JSON.
func envelopeOf(sr map[string]any) (*evidence.Envelope, error) {
	var env evidence.Envelope
	// The facts are set from the verified map below (Facts is a method).
	frame := make(map[string]any, len(sr))
	for k, v := range sr {
		if k != "facts" {
			frame[k] = v
		}
	}
	b, err := evidence.Canonical(frame)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	dec.DisallowUnknownFields()
	if err := dec.Decode(&env); err != nil {
		return nil, err
	}
	// Keep the exact values (json.Number, nested generic JSON) of the
	// verified map rather than the decoder's copies.
	env.InputNormalized, _ = sr["input_normalized"].(map[string]any)
	facts, _ := sr["facts"].(map[string]any)
	env.SetFacts(facts)
	env.Source.AsOf = nil
	if src, ok := sr["source"].(map[string]any); ok {
		env.Source.AsOf = src["as_of"]
	}
	return &env, nil
}
