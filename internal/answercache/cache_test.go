package answercache

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/internal/attest"
	"github.com/precisiond/precisiond/tools"
)

// fixture is a registry of the built-in read-only tools that signs with a
// fresh key and caches in memory only (f.c); a test may replace
// f.published, the key set the cache verifies against (a key that stopped
// being published).
type fixture = replica

func newFixture(t testing.TB, maxBytes int64) *fixture {
	t.Helper()
	return newReplica(t, newRing(t), maxBytes, nil, 0)
}

func (f *fixture) stats() [3]uint64 {
	s := f.c.Stats()
	return [3]uint64{s.Hits, s.Misses, s.Refused}
}

// onlyEntry returns the one stored entry.
func (f *fixture) onlyEntry(t *testing.T) *entry {
	t.Helper()
	f.c.mu.Lock()
	defer f.c.mu.Unlock()
	if f.c.order.Len() != 1 {
		t.Fatalf("%d entries, want 1", f.c.order.Len())
	}
	return f.c.order.Front().Value.(*entry)
}

const semiprime = `{"n":"1000000016000000063"}` // 1000000007 * 1000000009

// TestHitIsByteIdentical: the second call of a cacheable tool is a hit whose
// envelope and attestation are byte for byte the first call's; a tool
// without cache_policy.answer_cache is never looked up.
func TestHitIsByteIdentical(t *testing.T) {
	f := newFixture(t, 1<<20)
	first := f.call(t, "prime_factorize", semiprime)
	if got := f.stats(); got != [3]uint64{0, 1, 0} {
		t.Fatalf("after the first call hits/misses/refused = %v", got)
	}
	second := f.call(t, "prime_factorize", semiprime)
	if got := f.stats(); got != [3]uint64{1, 1, 0} {
		t.Fatalf("after the second call hits/misses/refused = %v", got)
	}
	if !bytes.Equal(first.EnvelopeJSON, second.EnvelopeJSON) || first.Attestation != second.Attestation || first.Result != second.Result {
		t.Fatalf("hit differs:\n%s\n%s", first.EnvelopeJSON, second.EnvelopeJSON)
	}
	if !strings.Contains(string(second.EnvelopeJSON), `"prime":1000000007}`) {
		t.Fatalf("unexpected facts %s", second.EnvelopeJSON)
	}
	// The rebuilt envelope writes the same bytes as the stored ones and
	// carries the same result_hash (plans read it).
	again, err := second.Envelope.AppendCanonical(nil)
	if err != nil || !bytes.Equal(again, first.EnvelopeJSON) || second.Envelope.ResultHash != first.Envelope.ResultHash {
		t.Fatalf("rebuilt envelope %s (%v)", again, err)
	}
	// The same input written differently (defaults spelled out) is the same key.
	f.call(t, "calculate", `{"expression":"sqrt(2)+sqrt(3)","precision":200}`)
	f.call(t, "calculate", `{"precision":200,"expression":"sqrt(2)+sqrt(3)"}`)
	if got := f.stats(); got != [3]uint64{2, 2, 0} {
		t.Fatalf("calculate twice: hits/misses/refused = %v", got)
	}
	f.call(t, "gcd_lcm", `{"a":4,"b":6}`)
	f.call(t, "gcd_lcm", `{"a":4,"b":6}`)
	if got := f.stats(); got != [3]uint64{2, 2, 0} {
		t.Fatalf("gcd_lcm (not cacheable) was looked up: %v", got)
	}
}

// TestAlteredEntryRefused: a stored entry altered in any verified part is
// refused (counted, dropped) and the call runs again, giving the true answer.
func TestAlteredEntryRefused(t *testing.T) {
	for _, c := range []struct {
		name  string
		alter func(t *testing.T, f *fixture, data []byte) []byte
	}{
		{"a fact changed", func(t *testing.T, f *fixture, data []byte) []byte {
			return replaceOnce(t, data, `"prime":1000000009}`, `"prime":1000000011}`)
		}},
		{"a fact changed, result_hash recomputed", func(t *testing.T, f *fixture, data []byte) []byte {
			return rehash(t, replaceOnce(t, data, `"prime":1000000009}`, `"prime":1000000011}`))
		}},
		{"the attestation of another answer", func(t *testing.T, f *fixture, data []byte) []byte {
			resp, err := f.reg.Call(context.Background(), "prime_factorize", []byte(`{"n":"360"}`), "")
			if err != nil {
				t.Fatal(err)
			}
			v, _ := evidence.ParseJSON(data)
			doc := v.(map[string]any)
			doc["attestation"] = resp.Attestation
			b, _ := evidence.Canonical(doc)
			return b
		}},
		{"an extra member in the envelope", func(t *testing.T, f *fixture, data []byte) []byte {
			return replaceOnce(t, data, `"status":"completed"`, `"note":"trust me","status":"completed"`)
		}},
		{"not JSON", func(t *testing.T, f *fixture, data []byte) []byte { return data[:len(data)/2] }},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t, 1<<20)
			want := f.call(t, "prime_factorize", semiprime)
			e := f.onlyEntry(t)
			f.c.mu.Lock()
			data := e.data
			f.c.mu.Unlock()
			altered := c.alter(t, f, data) // may call the registry: not under the lock
			f.c.mu.Lock()
			e.data = altered
			f.c.mu.Unlock()
			before := f.stats()
			got := f.call(t, "prime_factorize", semiprime)
			after := f.stats()
			if after[2] != before[2]+1 || after[0] != before[0] {
				t.Fatalf("hits/misses/refused %v → %v, want one more refused and no hit", before, after)
			}
			if !bytes.Equal(got.EnvelopeJSON, want.EnvelopeJSON) || got.Attestation != want.Attestation {
				t.Fatalf("after a refusal the answer is\n%s\nwant\n%s", got.EnvelopeJSON, want.EnvelopeJSON)
			}
			// The fresh answer replaced the altered entry: the next call hits.
			f.call(t, "prime_factorize", semiprime)
			if s := f.stats(); s[0] != after[0]+1 {
				t.Fatalf("no hit after the entry was replaced: %v", s)
			}
		})
	}
}

// TestEntryOfUnpublishedKeyRefused: an entry signed by a key that is no
// longer published (rotated out past its retention) is not served.
func TestEntryOfUnpublishedKeyRefused(t *testing.T) {
	f := newFixture(t, 1<<20)
	f.call(t, "prime_factorize", semiprime)
	other, err := attest.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	f.published = attest.NewKeyring(other, attest.External, time.Now()).KeySet(time.Now())
	f.call(t, "prime_factorize", semiprime)
	if got := f.stats(); got != [3]uint64{0, 1, 1} {
		t.Fatalf("hits/misses/refused = %v, want the entry refused", got)
	}
}

// TestByteBudget: the cache never holds more than its budget, evicts the
// least recently used entry first, and keeps nothing over a quarter of it.
func TestByteBudget(t *testing.T) {
	const budget = 16 << 10
	f := newFixture(t, budget)
	for i := range 60 {
		f.call(t, "prime_factorize", fmt.Sprintf(`{"n":"%d"}`, 1000003+2*i))
		if s := f.c.Stats(); s.Bytes > budget {
			t.Fatalf("after %d answers the cache holds %d bytes, more than %d", i+1, s.Bytes, budget)
		}
	}
	s := f.c.Stats()
	if s.Entries == 0 || s.Entries >= 60 {
		t.Fatalf("%d entries after 60 answers into %d bytes", s.Entries, budget)
	}
	// The most recent answer is still there, the first one is gone.
	h := s.Hits
	f.call(t, "prime_factorize", fmt.Sprintf(`{"n":"%d"}`, 1000003+2*59))
	f.call(t, "prime_factorize", `{"n":"1000003"}`)
	if got := f.c.Stats().Hits; got != h+1 {
		t.Fatalf("hits %d → %d, want exactly the most recent answer served", h, got)
	}
	big := New(1000, func() *attest.KeySet { return f.published }, time.Now)
	resp := f.call(t, "prime_factorize", semiprime)
	big.Store(context.Background(), tools.CacheKey{Digest: "x"}, resp)
	if s := big.Stats(); s.Entries != 0 {
		t.Fatalf("an answer over a quarter of the budget was kept: %+v", s)
	}
}

func replaceOnce(t *testing.T, data []byte, old, new string) []byte {
	t.Helper()
	if !bytes.Contains(data, []byte(old)) {
		t.Fatalf("%s not in %s", old, data)
	}
	return bytes.Replace(data, []byte(old), []byte(new), 1)
}

// rehash recomputes result_hash of a stored entry over its (altered) facts.
func rehash(t *testing.T, data []byte) []byte {
	t.Helper()
	v, err := evidence.ParseJSON(data)
	if err != nil {
		t.Fatal(err)
	}
	doc := v.(map[string]any)
	sr := doc["structured_result"].(map[string]any)
	rh, err := evidence.ResultHash(sr["contract_hash"].(string), sr["input_normalized"].(map[string]any), sr["facts"].(map[string]any))
	if err != nil {
		t.Fatal(err)
	}
	sr["result_hash"] = rh
	b, err := evidence.Canonical(doc)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestAlteredFrameRefused: the members outside result_hash and the
// attestation that the contract determines are checked too.
func TestAlteredFrameRefused(t *testing.T) {
	for name, swap := range map[string][2]string{
		"determinism":    {`"determinism":"input_only"`, `"determinism":"source_versioned"`},
		"source version": {`"version":"go1`, `"version":"go0`},
		"source as_of":   {`"as_of":null`, `"as_of":"2026-01-01"`},
		"status":         {`"status":"completed"`, `"status":"partial"`},
	} {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t, 1<<20)
			f.call(t, "prime_factorize", semiprime)
			e := f.onlyEntry(t)
			f.c.mu.Lock()
			e.data = replaceOnce(t, e.data, swap[0], swap[1])
			f.c.mu.Unlock()
			f.call(t, "prime_factorize", semiprime)
			if got := f.stats(); got != [3]uint64{0, 1, 1} {
				t.Fatalf("hits/misses/refused = %v, want the entry refused", got)
			}
		})
	}
}

// FuzzStoredEntry feeds arbitrary bytes to the cache as a stored entry: it
// never panics, and whatever it serves has the genuine answer's result_hash
// (so its input and facts), identity and attestation. (The warnings and the
// result text are covered by neither hash nor signature; see the package
// documentation.)
func FuzzStoredEntry(f *testing.F) {
	fx := newFixture(f, 1<<20)
	resp, err := fx.reg.Call(context.Background(), "prime_factorize", []byte(semiprime), "")
	if err != nil {
		f.Fatal(err)
	}
	genuine, err := encode(resp)
	if err != nil {
		f.Fatal(err)
	}
	var key tools.CacheKey
	fx.c.mu.Lock()
	for digest := range fx.c.byKey {
		key.Digest = digest
	}
	fx.c.mu.Unlock()
	key.Tool, key.ContractHash = "prime_factorize", resp.Envelope.ContractHash
	if key.Contract, _, err = fx.reg.Contract("prime_factorize"); err != nil {
		f.Fatal(err)
	}
	key.Input, _ = evidence.Canonical(resp.Envelope.InputNormalized)
	f.Add(genuine)
	f.Add([]byte(`{}`))
	f.Add(bytes.Replace(genuine, []byte(`"prime":1000000009}`), []byte(`"prime":1000000011}`), 1))
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := fx.c.verify(key, data)
		if err != nil {
			return
		}
		g, w := got.Envelope, resp.Envelope
		if g.ResultHash != w.ResultHash || g.Tool != w.Tool || g.ContractHash != w.ContractHash || g.ContractVersion != w.ContractVersion ||
			got.Attestation != resp.Attestation || !bytes.Equal(mustCanon(t, g.Facts()), mustCanon(t, w.Facts())) {
			t.Fatalf("served an answer that is not the genuine one:\n%s", got.EnvelopeJSON)
		}
	})
}

func mustCanon(t testing.TB, v any) []byte {
	t.Helper()
	b, err := evidence.Canonical(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
