package answercache

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/internal/attest"
	"github.com/precisiond/precisiond/internal/blob"
	"github.com/precisiond/precisiond/internal/s3test"
	"github.com/precisiond/precisiond/internal/s3test/s3store"
	"github.com/precisiond/precisiond/tools"
)

// replica is one process of a fleet: its own registry and memory tier, the
// fleet's signing key, and the store tier on the shared store.
type replica struct {
	ring      *attest.Keyring
	reg       *tools.Registry
	c         *Cache
	published *attest.KeySet
}

func newReplica(t testing.TB, ring *attest.Keyring, maxMemory int64, store blob.Store, maxStore int64) *replica {
	t.Helper()
	r := &replica{ring: ring, reg: tools.NewRegistry(tools.ReadOnly(tools.Builtin(tools.Deps{})), tools.Options{}),
		published: ring.KeySet(time.Now())}
	s, err := ring.Signer("test")
	if err != nil {
		t.Fatal(err)
	}
	r.c = New(maxMemory, func() *attest.KeySet { return r.published }, time.Now).
		WithStore(StoreOptions{Store: store, MaxBytes: maxStore, Render: r.reg.Render, Seal: s.SignCacheEntry})
	r.reg.SetAttester(s)
	r.reg.SetAnswerCache(r.c)
	return r
}

func (r *replica) call(t *testing.T, tool, args string) *tools.Response {
	t.Helper()
	resp, err := r.reg.Call(context.Background(), tool, []byte(args), "")
	if err != nil {
		t.Fatalf("%s %s: %v", tool, args, err)
	}
	return resp
}

// storeStats are the store tier's hits, misses and refusals.
func (r *replica) storeStats(t *testing.T) [3]uint64 {
	t.Helper()
	s, ok := r.c.StoreStats()
	if !ok {
		t.Fatal("no store tier")
	}
	if s.Errors != 0 {
		t.Fatalf("%d store errors", s.Errors)
	}
	return [3]uint64{s.Hits, s.Misses, s.Refused}
}

// dirStore is a directory store over a new temporary directory.
func dirStore(t testing.TB) (string, blob.Store) {
	t.Helper()
	dir := t.TempDir()
	store, err := blob.OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	return dir, store
}

func newRing(t testing.TB) *attest.Keyring {
	t.Helper()
	k, err := attest.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	return attest.NewKeyring(k, attest.InStore, time.Now())
}

func sameAnswer(t *testing.T, got, want *tools.Response) {
	t.Helper()
	if !bytes.Equal(got.EnvelopeJSON, want.EnvelopeJSON) || got.Attestation != want.Attestation || got.Result != want.Result ||
		got.Tool != want.Tool {
		t.Fatalf("answer\n%s %q\nwant\n%s %q", got.EnvelopeJSON, got.Result, want.EnvelopeJSON, want.Result)
	}
	again, err := got.Envelope.AppendCanonical(nil)
	if err != nil || !bytes.Equal(again, want.EnvelopeJSON) || got.Envelope.ResultHash != want.Envelope.ResultHash {
		t.Fatalf("the served envelope re-encodes as %s (%v)", again, err)
	}
}

// onlyObject returns the path of the one entry of the store tier in dir.
func onlyObject(t *testing.T, dir string) string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, StorePrefix, "*"))
	if err != nil || len(m) != 1 {
		t.Fatalf("store tier entries %v (%v), want 1", m, err)
	}
	return m[0]
}

// TestStoreTierSharedByReplicas: two replicas on one data directory store: an
// answer computed by one is a hit for the other, byte-identical (envelope,
// attestation, legacy text), without running the tool there.
func TestStoreTierSharedByReplicas(t *testing.T) {
	dir, store := dirStore(t)
	ring := newRing(t)
	a, b := newReplica(t, ring, 1<<20, store, 1<<20), newReplica(t, ring, 1<<20, store, 1<<20)
	want := a.call(t, "prime_factorize", semiprime)
	if got := a.storeStats(t); got != [3]uint64{0, 1, 0} {
		t.Fatalf("replica A: store hits/misses/refused %v", got)
	}
	onlyObject(t, dir)
	got := b.call(t, "prime_factorize", semiprime)
	if s := b.storeStats(t); s != [3]uint64{1, 0, 0} {
		t.Fatalf("replica B: store hits/misses/refused %v, want one hit", s)
	}
	sameAnswer(t, got, want)
	// The hit is in B's memory now: the store is not read again.
	b.call(t, "prime_factorize", semiprime)
	if s := b.storeStats(t); s != [3]uint64{1, 0, 0} || b.c.Stats().Hits != 1 {
		t.Fatalf("replica B second call: store %v, memory %+v", s, b.c.Stats())
	}
	// calculate at high precision, whose legacy text is not canonical(facts).
	want = b.call(t, "calculate", `{"expression":"sqrt(2)+sqrt(3)","precision":200}`)
	sameAnswer(t, a.call(t, "calculate", `{"precision":200,"expression":"sqrt(2)+sqrt(3)"}`), want)
	if s := a.storeStats(t); s[0] != 1 {
		t.Fatalf("replica A: store hits/misses/refused %v, want a hit for B's calculate", s)
	}
}

// TestStoreTierOnS3: the same across two replicas with their own S3 clients
// on one bucket of a real S3 server.
func TestStoreTierOnS3(t *testing.T) {
	srv := s3test.Start(t)
	open := s3store.Opener(t, srv)
	ring := newRing(t)
	a, b := newReplica(t, ring, 1<<20, open(), 1<<20), newReplica(t, ring, 1<<20, open(), 1<<20)
	want := a.call(t, "solve_equation", `{"equation":"x**3 - 6*x**2 + 11*x - 6 = 0"}`)
	sameAnswer(t, b.call(t, "solve_equation", `{"equation":"x**3 - 6*x**2 + 11*x - 6 = 0"}`), want)
	if s := b.storeStats(t); s != [3]uint64{1, 0, 0} {
		t.Fatalf("replica B: store hits/misses/refused %v, want one hit", s)
	}
	n, err := b.c.TrimStore(context.Background())
	if st, _ := b.c.StoreStats(); err != nil || n != 0 || st.Bytes <= 0 {
		t.Fatalf("trim within the budget: removed %d (%v), %d bytes", n, err, st.Bytes)
	}
}

// TestStoreBytesFollowWrites: the store tier's bytes count what a replica
// writes from its first answer on, before any trim, and what it deletes: they
// equal the sizes the store lists.
func TestStoreBytesFollowWrites(t *testing.T) {
	dir, store := dirStore(t)
	r := newReplica(t, newRing(t), 1<<20, store, 1<<20)
	listed := func() int64 {
		var n int64
		if err := store.List(context.Background(), StorePrefix, func(i blob.Info) error { n += i.Size; return nil }); err != nil {
			t.Fatal(err)
		}
		return n
	}
	r.call(t, "solve_equation", `{"equation":"x**2 - 2 = 0"}`)
	r.call(t, "solve_equation", `{"equation":"x**2 - 3 = 0"}`)
	st, _ := r.c.StoreStats()
	if want := listed(); want == 0 || st.Bytes != want {
		t.Fatalf("store tier bytes %d, the store lists %d", st.Bytes, want)
	}
	// Another replica finds one entry altered on disk, refuses and deletes it.
	var names []string
	if err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.Contains(filepath.ToSlash(p), StorePrefix) {
			names = append(names, p)
		}
		return err
	}); err != nil || len(names) != 2 {
		t.Fatalf("entries on disk: %v (%v)", names, err)
	}
	if err := os.WriteFile(names[0], []byte(`{"format":"not an entry"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	before := listed()
	b := newReplica(t, r.ring, 1<<20, store, 1<<20)
	b.call(t, "solve_equation", `{"equation":"x**2 - 2 = 0"}`)
	b.call(t, "solve_equation", `{"equation":"x**2 - 3 = 0"}`)
	if s := b.storeStats(t); s[2] != 1 {
		t.Fatalf("replica B: store hits/misses/refused %v, want one refusal", s)
	}
	// B deleted the altered entry and wrote the true answer in its place.
	st, _ = b.c.StoreStats()
	if after := listed(); st.Bytes != after-before {
		t.Fatalf("replica B's store tier bytes %d, the store changed by %d", st.Bytes, after-before)
	}
}

// TestStoreEntryAlteredOnDisk: an entry of the store tier altered in the
// file on disk (a fact, result_hash, a legacy text or warnings added, the
// attestation, the form) is refused by a replica that has not seen the
// answer: counted, deleted, the call runs, and its true answer replaces
// the entry on disk.
func TestStoreEntryAlteredOnDisk(t *testing.T) {
	for _, c := range []struct {
		name  string
		alter func(t *testing.T, a *replica, data []byte) []byte
	}{
		{"a fact changed", func(t *testing.T, _ *replica, data []byte) []byte {
			return replaceOnce(t, data, `"prime":1000000009}`, `"prime":1000000011}`)
		}},
		{"a fact changed, result_hash recomputed", func(t *testing.T, _ *replica, data []byte) []byte {
			doc := decodeDoc(t, data)
			facts := doc["facts"].(map[string]any)
			facts["is_prime"] = true
			rh, err := evidence.ResultHash(doc["contract_hash"].(string), doc["input_normalized"].(map[string]any), facts)
			if err != nil {
				t.Fatal(err)
			}
			doc["result_hash"] = rh
			return mustCanon(t, doc)
		}},
		{"result_hash changed", func(t *testing.T, _ *replica, data []byte) []byte {
			doc := decodeDoc(t, data)
			doc["result_hash"] = fmt.Sprintf("%064x", 1)
			return mustCanon(t, doc)
		}},
		{"a legacy text added", func(t *testing.T, _ *replica, data []byte) []byte {
			doc := decodeDoc(t, data)
			doc["result"] = "1000000016000000063 = 7 × 11"
			return mustCanon(t, doc)
		}},
		{"a warning added", func(t *testing.T, _ *replica, data []byte) []byte {
			return replaceOnce(t, data, `"warnings":[]`, `"warnings":[{"code":"exact","message":"trust me"}]`)
		}},
		{"the seal of another entry", func(t *testing.T, a *replica, data []byte) []byte {
			doc := decodeDoc(t, data)
			s, err := a.ring.Signer("test")
			if err != nil {
				t.Fatal(err)
			}
			if doc["seal"], err = s.SignCacheEntry(fmt.Sprintf("%064x", 7)); err != nil {
				t.Fatal(err)
			}
			return mustCanon(t, doc)
		}},
		{"the seal removed", func(t *testing.T, _ *replica, data []byte) []byte {
			doc := decodeDoc(t, data)
			delete(doc, "seal")
			return mustCanon(t, doc)
		}},
		{"the attestation of another answer", func(t *testing.T, a *replica, data []byte) []byte {
			doc := decodeDoc(t, data)
			doc["attestation"] = a.call(t, "prime_factorize", `{"n":"360"}`).Attestation
			return mustCanon(t, doc)
		}},
		{"the attestation of another key", func(t *testing.T, a *replica, data []byte) []byte {
			doc := decodeDoc(t, data)
			s, err := newRing(t).Signer("test")
			if err != nil {
				t.Fatal(err)
			}
			if doc["attestation"], err = s.SignResult(a.call(t, "prime_factorize", semiprime).Envelope); err != nil {
				t.Fatal(err)
			}
			return mustCanon(t, doc)
		}},
		{"another form", func(t *testing.T, _ *replica, data []byte) []byte {
			return replaceOnce(t, data, `"format":"precisiond-answer/1"`, `"format":"precisiond-answer/2"`)
		}},
		{"cut short", func(t *testing.T, _ *replica, data []byte) []byte { return data[:len(data)/2] }},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir, store := dirStore(t)
			ring := newRing(t)
			a, b := newReplica(t, ring, 1<<20, store, 1<<20), newReplica(t, ring, 1<<20, store, 1<<20)
			want := a.call(t, "prime_factorize", semiprime)
			path := onlyObject(t, dir)
			genuine, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			altered := c.alter(t, a, genuine)
			if bytes.Equal(altered, genuine) {
				t.Fatal("the alteration changed nothing")
			}
			if err := os.WriteFile(path, altered, 0o600); err != nil {
				t.Fatal(err)
			}
			got := b.call(t, "prime_factorize", semiprime)
			if s := b.storeStats(t); s != [3]uint64{0, 0, 1} {
				t.Fatalf("replica B: store hits/misses/refused %v, want one refusal", s)
			}
			sameAnswer(t, got, want)
			if now, err := os.ReadFile(path); err != nil || !bytes.Equal(now, genuine) {
				t.Fatalf("after the refusal the entry on disk is\n%s (%v)\nwant the genuine\n%s", now, err, genuine)
			}
		})
	}
}

// TestStoreEntryOfUnpublishedKeyRefused: an entry signed by a key that the
// service no longer publishes is refused.
func TestStoreEntryOfUnpublishedKeyRefused(t *testing.T) {
	_, store := dirStore(t)
	ring := newRing(t)
	a, b := newReplica(t, ring, 1<<20, store, 1<<20), newReplica(t, ring, 1<<20, store, 1<<20)
	a.call(t, "prime_factorize", semiprime)
	b.published = newRing(t).KeySet(time.Now())
	b.call(t, "prime_factorize", semiprime)
	if s := b.storeStats(t); s != [3]uint64{0, 0, 1} {
		t.Fatalf("store hits/misses/refused %v, want the entry refused", s)
	}
}

// TestStoreTierKeepsWarnings: an answer with warnings (covered by the seal,
// not by the hashes) is shared with its warnings, and warnings altered on
// disk are refused.
func TestStoreTierKeepsWarnings(t *testing.T) {
	dir, store := dirStore(t)
	ring := newRing(t)
	a, b, c := newReplica(t, ring, 1<<20, store, 1<<20), newReplica(t, ring, 1<<20, store, 1<<20), newReplica(t, ring, 1<<20, store, 1<<20)
	const eq = `{"equation":"x**3 + x - 10**400 = 0"}`
	want := a.call(t, "solve_equation", eq)
	if len(want.Envelope.Warnings) == 0 {
		t.Fatal("the answer has no warnings")
	}
	sameAnswer(t, b.call(t, "solve_equation", eq), want)
	if s := b.storeStats(t); s != [3]uint64{1, 0, 0} {
		t.Fatalf("store hits/misses/refused %v, want one hit", s)
	}
	path := onlyObject(t, dir)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, replaceOnce(t, data, `"code":"nonreal_roots_omitted"`, `"code":"all_roots_real"`), 0o600); err != nil {
		t.Fatal(err)
	}
	sameAnswer(t, c.call(t, "solve_equation", eq), want)
	if s := c.storeStats(t); s != [3]uint64{0, 0, 1} {
		t.Fatalf("altered warnings: store hits/misses/refused %v, want one refusal", s)
	}
}

// TestTrimStore: the store tier is cut back to its budget, oldest entries
// first, and no entry larger than a quarter of the budget is written.
func TestTrimStore(t *testing.T) {
	dir, store := dirStore(t)
	const budget = 8 << 10
	ring := newRing(t)
	a := newReplica(t, ring, 1<<20, store, budget)
	const n = 20
	for i := range n {
		a.call(t, "prime_factorize", fmt.Sprintf(`{"n":"%d"}`, 1000003+2*i))
	}
	var total int64
	entries, _ := filepath.Glob(filepath.Join(dir, StorePrefix, "*"))
	for _, e := range entries {
		fi, err := os.Stat(e)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Size() > budget/4 {
			t.Fatalf("entry of %d bytes, more than a quarter of %d", fi.Size(), budget)
		}
		total += fi.Size()
	}
	if len(entries) != n || total <= budget {
		t.Fatalf("%d entries of %d bytes before the trim; the test needs %d over %d", len(entries), total, n, budget)
	}
	removed, err := a.c.TrimStore(context.Background())
	if err != nil || removed == 0 {
		t.Fatalf("trim removed %d (%v)", removed, err)
	}
	st, _ := a.c.StoreStats()
	if st.Bytes > budget || st.Bytes <= 0 {
		t.Fatalf("after the trim the tier holds %d bytes, budget %d", st.Bytes, budget)
	}
	// The newest answer survives in the store (a fresh replica hits it), the
	// oldest does not.
	b := newReplica(t, ring, 1<<20, store, budget)
	b.call(t, "prime_factorize", fmt.Sprintf(`{"n":"%d"}`, 1000003+2*(n-1)))
	b.call(t, "prime_factorize", `{"n":"1000003"}`)
	if s := b.storeStats(t); s != [3]uint64{1, 1, 0} {
		t.Fatalf("after the trim store hits/misses/refused %v, want the newest hit and the oldest missed", s)
	}
}

func decodeDoc(t *testing.T, data []byte) map[string]any {
	t.Helper()
	v, err := evidence.ParseJSON(data)
	if err != nil {
		t.Fatal(err)
	}
	return v.(map[string]any)
}

// FuzzStoreEntry feeds arbitrary bytes to the store tier as an entry read
// from the store: it never panics, and whatever it serves is the genuine
// answer byte for byte (envelope, attestation, legacy text).
func FuzzStoreEntry(f *testing.F) {
	dir, store := dirStore(f)
	r := newReplica(f, newRing(f), 1<<20, store, 1<<20)
	want, err := r.reg.Call(context.Background(), "solve_equation", []byte(`{"equation":"x**3 + x - 10**400 = 0"}`), "")
	if err != nil {
		f.Fatal(err)
	}
	m, err := filepath.Glob(filepath.Join(dir, StorePrefix, "*"))
	if err != nil || len(m) != 1 {
		f.Fatalf("entries %v (%v)", m, err)
	}
	genuine, err := os.ReadFile(m[0])
	if err != nil {
		f.Fatal(err)
	}
	key := tools.CacheKey{Digest: filepath.Base(m[0]), Tool: "solve_equation", ContractHash: want.Envelope.ContractHash}
	if key.Contract, _, err = r.reg.Contract("solve_equation"); err != nil {
		f.Fatal(err)
	}
	key.Input = mustCanon(f, want.Envelope.InputNormalized)
	f.Add(genuine)
	f.Add([]byte(`{}`))
	f.Add(bytes.Replace(genuine, []byte(`"nonreal_roots_omitted"`), []byte(`"exact"`), 1))
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := r.c.store.verify(key, data, r.published, r.c)
		if err != nil {
			return
		}
		if !bytes.Equal(got.EnvelopeJSON, want.EnvelopeJSON) || got.Attestation != want.Attestation || got.Result != want.Result {
			t.Fatalf("served an answer that is not the genuine one:\n%s\n%q", got.EnvelopeJSON, got.Result)
		}
	})
}

// BenchmarkStoreTierHit measures one hit of the store tier on a directory
// store (no memory tier): the read, the seal and attestation verified, the
// hashes recomputed, the envelope rebuilt and the legacy text re-rendered.
func BenchmarkStoreTierHit(b *testing.B) {
	_, store := dirStore(b)
	ring := newRing(b)
	a, r := newReplica(b, ring, 0, store, 1<<20), newReplica(b, ring, 0, store, 1<<20)
	args := []byte(`{"equation":"x**3 - 6*x**2 + 11*x - 6 = 0"}`)
	if _, err := a.reg.Call(context.Background(), "solve_equation", args, ""); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := r.reg.Call(context.Background(), "solve_equation", args, ""); err != nil {
			b.Fatal(err)
		}
	}
	if s, _ := r.c.StoreStats(); s.Hits != uint64(b.N) || s.Refused != 0 {
		b.Fatalf("store tier %+v after %d calls, want every call a hit", s, b.N)
	}
}
