package attest

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/precisiond/precisiond/evidence"
)

func memoEnvelope(i int) *evidence.Envelope {
	return &evidence.Envelope{Tool: "gcd_lcm", ContractID: "precisiond.gcd_lcm", ContractVersion: "1.0.0",
		ContractHash: strings.Repeat("a", 64), ResultHash: fmt.Sprintf("%064x", i)}
}

// TestMemoSignerAgrees: a memoized signer returns exactly what the signer
// writes, for new and for repeated claims, from many goroutines, while its
// memory stays within two generations; any claim that differs (a single
// field) is signed anew.
func TestMemoSignerAgrees(t *testing.T) {
	s := mustSigner(t, seededKey(t, "memo"), testIssuer)
	m := s.Memoized(8)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 40 {
				env := memoEnvelope((i * (g + 1)) % 20)
				got, err := m.SignResult(env)
				want, err2 := s.SignResult(env)
				if err != nil || err2 != nil || got != want {
					t.Errorf("memoized %q (%v), signer %q (%v)", got, err, want, err2)
					return
				}
			}
		}()
	}
	wg.Wait()
	m.mu.Lock()
	n := len(m.cur) + len(m.prev)
	m.mu.Unlock()
	if n > 16 {
		t.Fatalf("%d attestations held, more than 2 × 8", n)
	}
	env := memoEnvelope(1)
	first, _ := m.SignResult(env)
	for _, change := range []func(e *evidence.Envelope){
		func(e *evidence.Envelope) { e.Tool = "roman_numeral" },
		func(e *evidence.Envelope) { e.ContractID = "precisiond.other" },
		func(e *evidence.Envelope) { e.ContractVersion = "1.0.1" },
		func(e *evidence.Envelope) { e.ContractHash = strings.Repeat("b", 64) },
		func(e *evidence.Envelope) { e.ResultHash = strings.Repeat("c", 64) },
	} {
		e := *env
		change(&e)
		got, _ := m.SignResult(&e)
		want, _ := s.SignResult(&e)
		if got == first || got != want {
			t.Errorf("changed claims %+v: memoized %q, want %q", e, got, want)
		}
	}
}

// TestMemoHitAllocatesNothing: a repeated answer's attestation comes from
// memory without a single allocation (the memo is keyed by the envelope's
// own result_hash string).
func TestMemoHitAllocatesNothing(t *testing.T) {
	m := mustSigner(t, seededKey(t, "memo"), testIssuer).Memoized(8)
	env := memoEnvelope(3)
	want, err := m.SignResult(env)
	if err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(100, func() {
		if got, _ := m.SignResult(env); got != want {
			t.Fatalf("hit %q, want %q", got, want)
		}
	}); n != 0 {
		t.Fatalf("a memo hit allocates %v times, want 0", n)
	}
}
