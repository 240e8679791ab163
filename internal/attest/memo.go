package attest

import (
	"sync"

	"github.com/precisiond/precisiond/evidence"
)

// MemoSigner is a Signer that remembers the attestations it made most
// recently. Ed25519 signatures are deterministic and the claims are a pure
// function of the answer, so a repeated answer (the same question asked
// again) gets the same attestation without a second signature, which costs
// about as much CPU as a cheap tool's whole call. It holds at most 2 × size
// attestations (two generations: when the newer one fills up, the older one
// is dropped), is safe for concurrent use, and signs plan runs unmemoized.
type MemoSigner struct {
	*Signer
	size int

	mu        sync.Mutex
	cur, prev map[string]memoEntry // by result_hash
}

// memoEntry is an attestation and the claims it signed beside result_hash.
// The map is keyed by result_hash, a string every envelope already holds, so
// a lookup allocates nothing; a hit must match the other claims too.
type memoEntry struct {
	tool, contractID, contractVersion, contractHash string
	jws                                             string
}

func (e *memoEntry) signs(env *evidence.Envelope) bool {
	return e.tool == env.Tool && e.contractID == env.ContractID && e.contractVersion == env.ContractVersion &&
		e.contractHash == env.ContractHash
}

// Memoized returns s remembering up to about 2 × size result attestations
// (size < 1: 1).
func (s *Signer) Memoized(size int) *MemoSigner {
	size = max(size, 1)
	return &MemoSigner{Signer: s, size: size, cur: make(map[string]memoEntry, size)}
}

// SignResult returns the attestation of env, from memory when the same
// claims were signed recently.
func (m *MemoSigner) SignResult(env *evidence.Envelope) (string, error) {
	m.mu.Lock()
	e, ok := m.cur[env.ResultHash]
	if !ok {
		if e, ok = m.prev[env.ResultHash]; ok && e.signs(env) {
			m.putLocked(env.ResultHash, e)
		}
	}
	m.mu.Unlock()
	if ok && e.signs(env) {
		return e.jws, nil
	}
	jws, err := m.Signer.SignResult(env)
	if err != nil {
		return "", err
	}
	m.mu.Lock()
	m.putLocked(env.ResultHash, memoEntry{tool: env.Tool, contractID: env.ContractID, contractVersion: env.ContractVersion,
		contractHash: env.ContractHash, jws: jws})
	m.mu.Unlock()
	return jws, nil
}

func (m *MemoSigner) putLocked(key string, e memoEntry) {
	if len(m.cur) >= m.size {
		m.prev, m.cur = m.cur, make(map[string]memoEntry, m.size)
	}
	m.cur[key] = e
}
