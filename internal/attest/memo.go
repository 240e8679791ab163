package attest

import (
	"strings"
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
	cur, prev map[string]string
}

// Memoized returns s remembering up to about 2 × size result attestations
// (size < 1: 1).
func (s *Signer) Memoized(size int) *MemoSigner {
	size = max(size, 1)
	return &MemoSigner{Signer: s, size: size, cur: make(map[string]string, size)}
}

// SignResult returns the attestation of env, from memory when the same
// claims were signed recently.
func (m *MemoSigner) SignResult(env *evidence.Envelope) (string, error) {
	key := strings.Join([]string{env.Tool, env.ContractID, env.ContractVersion, env.ContractHash, env.ResultHash}, "\x00")
	m.mu.Lock()
	jws, ok := m.cur[key]
	if !ok {
		if jws, ok = m.prev[key]; ok {
			m.putLocked(key, jws)
		}
	}
	m.mu.Unlock()
	if ok {
		return jws, nil
	}
	jws, err := m.Signer.SignResult(env)
	if err != nil {
		return "", err
	}
	m.mu.Lock()
	m.putLocked(key, jws)
	m.mu.Unlock()
	return jws, nil
}

func (m *MemoSigner) putLocked(key, jws string) {
	if len(m.cur) >= m.size {
		m.prev, m.cur = m.cur, make(map[string]string, m.size)
	}
	m.cur[key] = jws
}
