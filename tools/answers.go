package tools

import (
	"context"
	"crypto/sha256"
	"encoding/hex"

	"github.com/precisiond/precisiond/contracts"
	"github.com/precisiond/precisiond/evidence"
)

// Attester signs the envelope of a successful answer and the run_hash of a
// completed plan run (issue 21, internal/attest.Signer). The attestation
// travels beside the envelope, never inside it, so neither the envelope nor
// its hashes change. It must be safe for concurrent use.
type Attester interface {
	SignResult(env *evidence.Envelope) (string, error)
	SignPlanRun(planID, runHash string) (string, error)
}

// AnswerCache keeps signed answers of the tools whose contract allows it
// (cache_policy.answer_cache true) and serves them again only after
// re-verifying them (internal/answercache). It must be safe for concurrent
// use.
type AnswerCache interface {
	// Lookup returns the stored answer for key, or nil when there is none or
	// the stored entry does not verify (its hashes must recompute and its
	// attestation verify against a current key). ctx bounds any I/O (a
	// cache tier in the shared store).
	Lookup(ctx context.Context, key CacheKey) *Response
	// Store keeps a signed answer under key, within ctx.
	Store(ctx context.Context, key CacheKey, resp *Response)
}

// CacheKey identifies one answer of a cacheable tool.
type CacheKey struct {
	// Digest is the hex SHA-256 of the contract_hash, the source version and
	// the canonical input_normalized before redaction: the cache's key.
	Digest string
	// Tool and ContractHash are what a stored envelope must carry.
	Tool         string
	ContractHash string
	// Contract is the tool's contract: a stored envelope's contract_id,
	// contract_version, determinism and source must be the ones it gives.
	Contract *contracts.Contract
	// Input is the canonical input_normalized that a stored envelope must
	// carry (after redaction, as the envelope has it).
	Input []byte
}

// hooks are the optional signing and caching of the execution path; they are
// swapped atomically so that a key rotation never races a call.
type hooks struct {
	attester Attester
	cache    AnswerCache
}

// SetAttester makes every later successful answer carry an attestation signed
// by a (nil: none). It is safe to call while calls run.
func (r *Registry) SetAttester(a Attester) {
	r.swapHooks(func(h *hooks) { h.attester = a })
}

// SetAnswerCache makes later calls of tools whose contract has
// cache_policy.answer_cache true consult c first (nil: no cache). Only signed
// answers are stored, so the cache has an effect only with an attester.
func (r *Registry) SetAnswerCache(c AnswerCache) {
	r.swapHooks(func(h *hooks) { h.cache = c })
}

// Attester returns the current attester, or nil.
func (r *Registry) Attester() Attester { return r.currentHooks().attester }

func (r *Registry) swapHooks(f func(*hooks)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var n hooks
	if old := r.hooked.Load(); old != nil {
		n = *old
	}
	f(&n)
	r.hooked.Store(&n)
}

// currentHooks returns the hooks, never nil.
func (r *Registry) currentHooks() *hooks {
	if h := r.hooked.Load(); h != nil {
		return h
	}
	return &noHooks
}

var noHooks hooks

// AnswerCacheable reports whether a contract lets the service keep its answers
// in the verified answer cache (cache_policy.answer_cache true).
func AnswerCacheable(c *contracts.Contract) bool {
	v, _ := c.CachePolicy["answer_cache"].(bool)
	return v
}

// cacheKey returns the key of a call of a cacheable contract with the
// normalized (validated, not yet redacted) input.
func cacheKey(c *contracts.Contract, contractHash string, normalized map[string]any) (CacheKey, error) {
	full, err := evidence.Canonical(normalized)
	if err != nil {
		return CacheKey{}, err
	}
	shown, err := evidence.Canonical(evidence.Redact(c, normalized))
	if err != nil {
		return CacheKey{}, err
	}
	h := sha256.New()
	// Fields separated by a byte that none of them contains: a contract
	// hash is hex, a version is text without NUL, the input is canonical
	// JSON (NUL would be escaped).
	h.Write([]byte(contractHash))
	h.Write([]byte{0})
	h.Write([]byte(evidence.SourceFor(c, nil).Version))
	h.Write([]byte{0})
	h.Write(full)
	return CacheKey{Digest: hex.EncodeToString(h.Sum(nil)), Tool: c.Tool, ContractHash: contractHash, Contract: c, Input: shown}, nil
}
