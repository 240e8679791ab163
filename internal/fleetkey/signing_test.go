package fleetkey

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/precisiond/precisiond/internal/attest"
	"github.com/precisiond/precisiond/internal/blob"
	"github.com/precisiond/precisiond/internal/s3test"
	"github.com/precisiond/precisiond/internal/s3test/s3store"
	"github.com/precisiond/precisiond/internal/testhttp"
)

// jsonLog is a logger at debug writing JSON lines into the returned buffer.
func jsonLog() (*slog.Logger, *testhttp.SyncBuffer) {
	logs := &testhttp.SyncBuffer{}
	return slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})), logs
}

// logLines returns the JSON log lines of logs at level whose message
// contains msg.
func logLines(logs *testhttp.SyncBuffer, level, msg string) []string {
	var out []string
	for _, l := range strings.Split(logs.String(), "\n") {
		var rec struct{ Level, Msg string }
		if json.Unmarshal([]byte(l), &rec) == nil && rec.Level == level && strings.Contains(rec.Msg, msg) {
			out = append(out, l)
		}
	}
	return out
}

func newKey(t *testing.T) *attest.Key {
	t.Helper()
	k, err := attest.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// storedKeyring is the keyring kept in the directory store over dir.
func storedKeyring(t *testing.T, dir string) *attest.Keyring {
	t.Helper()
	state, err := os.ReadFile(filepath.Join(dir, KeyringObject))
	if err != nil {
		t.Fatal(err)
	}
	ring, err := attest.ParseKeyring(state)
	if err != nil {
		t.Fatal(err)
	}
	return ring
}

// readStoredKeyring reads the keyring state kept in store.
func readStoredKeyring(t *testing.T, store blob.Store) []byte {
	t.Helper()
	state, _, err := ReadKeyring(context.Background(), store)
	if err != nil || state == nil {
		t.Fatalf("stored keyring in %s: %v (present: %v)", store.Location(), err, state != nil)
	}
	return state
}

// TestReplicasAgreeOnOneKey: replicas starting at the same moment on one
// store (each with its own handle on the directory, as separate processes
// have) generate no more than one key between them: whoever loses the
// create-only write reads the winner's keyring.
func TestReplicasAgreeOnOneKey(t *testing.T) {
	dir := t.TempDir()
	const replicas = 8
	kids := make([]string, replicas)
	var wg sync.WaitGroup
	errs := make(chan error, replicas)
	for i := range replicas {
		wg.Add(1)
		go func() {
			defer wg.Done()
			store, err := blob.OpenDir(dir)
			if err != nil {
				errs <- err
				return
			}
			defer store.Close()
			sig, err := NewSigning(context.Background(), store, SigningConfig{Retention: attest.DefaultRetention, Issuer: "precisiond"})
			if err != nil {
				errs <- err
				return
			}
			kids[i] = sig.Signer().KID()
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	for i, kid := range kids {
		if kid != kids[0] {
			t.Fatalf("replica %d signs with %s, replica 0 with %s", i, kid, kids[0])
		}
	}
	state, err := os.ReadFile(filepath.Join(dir, KeyringObject))
	if err != nil {
		t.Fatal(err)
	}
	ring, err := attest.ParseKeyring(state)
	if err != nil || ring.Current().KID != kids[0] || len(ring.Retained()) != 0 {
		t.Fatalf("stored keyring %v %+v, want one key %s", err, ring, kids[0])
	}
}

// fallbackOn is a replica's signing state after it started while its store
// was down: its fallback key from its data directory dir ("" : a key of its
// own lifetime), the store to recover on, its clock.
func fallbackOn(t *testing.T, store blob.Store, dir string, retention time.Duration, now func() time.Time) *Signing {
	t.Helper()
	var local blob.Store
	if dir != "" {
		d, err := blob.OpenDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		local = d
	}
	cfg := SigningConfig{Retention: retention, Issuer: "precisiond", Now: now}
	sig, err := Fallback(context.Background(), store, local, cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), blob.ErrUnavailable)
	if err != nil {
		t.Fatal(err)
	}
	if sig.Source() != SourceFallback {
		t.Fatalf("source %s", sig.Source())
	}
	return sig
}

// TestFallbackReplicasRecoverAtOnce: two replicas that fell back recover at
// the same moment on a real S3 store holding no keyring yet: one creates it
// (create-only write), the other merges into the winner's (compare-and-swap);
// both sign with the one fleet key and the fleet keyring retains both
// fallback keys. A replica falling back to the same key in a later outage
// extends that key's entry instead of adding one.
func TestFallbackReplicasRecoverAtOnce(t *testing.T) {
	srv := s3test.Start(t)
	loc := srv.Location()
	l, err := blob.ParseLocation(loc)
	if err != nil {
		t.Fatal(err)
	}
	openAt := func() blob.Store {
		s, err := blob.Open(l, blob.Options{Getenv: srv.Getenv})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = s.Close() })
		return s
	}
	t0 := time.Now().UTC().Truncate(time.Second)
	clock := func() time.Time { return t0 }
	dirA, dirB := t.TempDir(), t.TempDir()
	a := fallbackOn(t, openAt(), dirA, time.Hour, clock)
	b := fallbackOn(t, openAt(), dirB, time.Hour, clock)
	fa, fb := a.Signer().KID(), b.Signer().KID()
	if fa == fb {
		t.Fatal("two data directories gave one key")
	}
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, s := range []*Signing{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = s.Refresh(context.Background())
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	fleet, err := attest.ParseKeyring(readStoredKeyring(t, openAt()))
	if err != nil {
		t.Fatal(err)
	}
	cur := fleet.Current().KID
	if a.Signer().KID() != cur || b.Signer().KID() != cur || a.Source() != SourceStore || b.Source() != SourceStore {
		t.Fatalf("after recovering A signs with %s (%s), B with %s (%s); the fleet key is %s", a.Signer().KID(), a.Source(), b.Signer().KID(), b.Source(), cur)
	}
	retained := map[string]attest.PublicKey{}
	for _, k := range fleet.Retained() {
		retained[k.KID] = k
	}
	if len(retained) != 2 || !retained[fa].NotAfter.Equal(t0.Add(time.Hour)) || !retained[fb].NotAfter.Equal(t0.Add(time.Hour)) {
		t.Fatalf("the fleet keyring retains %+v, want %s and %s until %s", fleet.Retained(), fa, fb, t0.Add(time.Hour))
	}
	// Each publishes both fallback keys after its next refresh.
	for name, s := range map[string]*Signing{"A": a, "B": b} {
		if _, err := s.Refresh(context.Background()); err != nil {
			t.Fatal(err)
		}
		if keys := s.KeySet().Keys(); len(keys) != 3 || keys[0].KID != cur {
			t.Errorf("replica %s publishes %+v", name, keys)
		}
	}

	// A later outage: A falls back to the same data-directory key and
	// recovers 10 minutes later; its entry is extended, not repeated.
	t1 := t0.Add(10 * time.Minute)
	again := fallbackOn(t, openAt(), dirA, time.Hour, func() time.Time { return t1 })
	if again.Signer().KID() != fa {
		t.Fatalf("the data directory's key changed: %s, was %s", again.Signer().KID(), fa)
	}
	if _, err := again.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	fleet, err = attest.ParseKeyring(readStoredKeyring(t, openAt()))
	if err != nil {
		t.Fatal(err)
	}
	if r := fleet.Retained(); len(r) != 2 || r[0].KID != fa || !r[0].RetiredAt.Equal(t1) || !r[0].NotAfter.Equal(t1.Add(time.Hour)) || fleet.Current().KID != cur {
		t.Fatalf("after a second recovery the fleet keyring retains %+v (current %s)", r, fleet.Current().KID)
	}
}

// dirFleet is a directory store under dir/fleet holding the keyring state,
// closed when the test ends, and the path of the keyring's file.
func dirFleet(t *testing.T, dir string, state []byte) (blob.Store, string) {
	t.Helper()
	store, err := blob.OpenDir(filepath.Join(dir, "fleet"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = store.Close() })
	if _, err := store.Put(context.Background(), KeyringObject, state, blob.PutOptions{IfNoneMatch: true}); err != nil {
		t.Fatal(err)
	}
	return store, filepath.Join(dir, "fleet", KeyringObject)
}

// TestFallbackRecoveryRespectsTheRetainedLimit: when the fleet keyring
// already retains MaxRetainedKeys live keys, a recovering replica does not
// evict one to publish its fallback key: the stored keyring is unchanged,
// the replica keeps signing with (and publishing) its fallback key, warns
// once however often it retries, and recovers once a retained key expires.
func TestFallbackRecoveryRespectsTheRetainedLimit(t *testing.T) {
	dir := t.TempDir()
	t0 := time.Now().UTC().Truncate(time.Second)
	cur, err := attest.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	full := attest.NewKeyring(cur, attest.InStore, t0.Add(-time.Hour))
	for i := range attest.MaxRetainedKeys {
		k := newKey(t)
		// The first expires a minute after t0, the others a day after.
		until := t0.Add(24 * time.Hour)
		if i == 0 {
			until = t0.Add(time.Minute)
		}
		if full, err = full.Retain(attest.PublicKey{KID: k.KID(), Key: k.PublicKey(), RetiredAt: t0.Add(-time.Hour), NotAfter: until}, t0); err != nil {
			t.Fatal(err)
		}
	}
	store, stored := dirFleet(t, dir, full.Marshal())
	clock := t0
	sig := fallbackOn(t, store, filepath.Join(dir, "replica"), time.Hour, func() time.Time { return clock })
	fallbackKID := sig.Signer().KID()
	log, logs := jsonLog()
	for range 3 {
		sig.RefreshLogged(context.Background(), log)
	}
	if sig.Source() != SourceFallback || sig.Signer().KID() != fallbackKID || sig.KeySet().Keys()[0].KID != fallbackKID {
		t.Fatalf("with a full fleet keyring the replica signs with %s (%s)", sig.Signer().KID(), sig.Source())
	}
	if state, _ := os.ReadFile(stored); !bytes.Equal(state, full.Marshal()) {
		t.Fatal("the full fleet keyring was rewritten")
	}
	if w := logLines(logs, "WARN", "cannot be adopted yet"); len(w) != 1 || !strings.Contains(w[0], "at most 64") {
		t.Fatalf("warnings %q, want one naming the limit:\n%s", w, logs.String())
	}
	clock = t0.Add(2 * time.Minute)
	sig.RefreshLogged(context.Background(), log)
	if sig.Source() != SourceStore || sig.Signer().KID() != cur.KID() {
		t.Fatalf("after an expiry the replica signs with %s (%s), want %s", sig.Signer().KID(), sig.Source(), cur.KID())
	}
	if r := storedKeyring(t, filepath.Dir(filepath.Dir(stored))).Retained(); len(r) != attest.MaxRetainedKeys || r[0].KID != fallbackKID {
		t.Fatalf("the fleet keyring retains %d keys, first %s; want %d, first %s", len(r), r[0].KID, attest.MaxRetainedKeys, fallbackKID)
	}
	if n := len(logLines(logs, "INFO", "the shared store answers")); n != 1 {
		t.Fatalf("%d recovery lines:\n%s", n, logs.String())
	}
}

// TestFallbackCannotAdoptAKeyFileFleet: a replica without --signing-key that
// fell back cannot sign with a fleet key that comes from --signing-key files
// (its private half is not in the store): as a start would refuse, it stays
// on its fallback key, warns once however often it retries, and leaves the
// stored keyring alone.
func TestFallbackCannotAdoptAKeyFileFleet(t *testing.T) {
	dir := t.TempDir()
	state := attest.NewKeyring(newKey(t), attest.External, time.Now()).Marshal()
	store, stored := dirFleet(t, dir, state)
	sig := fallbackOn(t, store, filepath.Join(dir, "replica"), time.Hour, time.Now)
	fallbackKID := sig.Signer().KID()
	log, logs := jsonLog()
	for range 3 {
		sig.RefreshLogged(context.Background(), log)
	}
	if sig.Source() != SourceFallback || sig.Signer().KID() != fallbackKID {
		t.Fatalf("the replica signs with %s (%s), want its fallback key %s", sig.Signer().KID(), sig.Source(), fallbackKID)
	}
	if w := logLines(logs, "WARN", "cannot be adopted yet"); len(w) != 1 || !strings.Contains(w[0], "--signing-key") {
		t.Fatalf("warnings %q, want one naming --signing-key:\n%s", w, logs.String())
	}
	if got, _ := os.ReadFile(stored); !bytes.Equal(got, state) {
		t.Fatal("the stored keyring was rewritten")
	}
}

// TestRotateKeyOnS3: the same rotation on a real S3 bucket, each replica and
// the rotating command with their own client: the running signer follows at
// its refresh and the old key stays published.
func TestRotateKeyOnS3(t *testing.T) {
	srv := s3test.Start(t)
	open := s3store.Opener(t, srv)
	ctx := context.Background()
	sig, err := NewSigning(ctx, open(), SigningConfig{Retention: attest.DefaultRetention, Issuer: "precisiond"})
	if err != nil {
		t.Fatal(err)
	}
	var followed []string
	old := sig.Signer().KID()
	sig.OnSigner(func(s *attest.Signer) { followed = append(followed, s.KID()) })
	if len(followed) != 1 || followed[0] != old {
		t.Fatalf("OnSigner was called with %v, want the current signer %s at once", followed, old)
	}
	followed = nil
	ring, err := Rotate(ctx, open(), time.Hour, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	if ring.Current().KID == old || ring.Retained()[0].KID != old {
		t.Fatalf("rotated keyring: current %s, retained %+v; old %s", ring.Current().KID, ring.Retained(), old)
	}
	if changed, err := sig.Refresh(ctx); err != nil || !changed {
		t.Fatalf("refresh: changed %v, %v", changed, err)
	}
	if got := sig.Signer().KID(); got != ring.Current().KID || len(followed) != 1 || followed[0] != got {
		t.Fatalf("after the refresh the replica signs with %s (followed %v), want %s", got, followed, ring.Current().KID)
	}
	if keys := sig.KeySet().Keys(); len(keys) != 2 || keys[1].KID != old {
		t.Fatalf("published %+v, want the new key and %s", keys, old)
	}
}
