package fleetkey

import (
	"context"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/precisiond/precisiond/internal/access"
	"github.com/precisiond/precisiond/internal/blob"
)

// checkLinkWith checks the signed path of a link with a signer of key
// whose clock reads at.
func checkLinkWith(t *testing.T, key []byte, at time.Time, signed string) error {
	t.Helper()
	ref, err := access.NewSigner(key)
	if err != nil {
		t.Fatal(err)
	}
	ref.SetClock(func() time.Time { return at })
	rest, _ := strings.CutPrefix(signed, "/downloads/")
	name, query, _ := strings.Cut(rest, "?")
	q, err := url.ParseQuery(query)
	if err != nil {
		t.Fatal(err)
	}
	return ref.Check(name, q)
}

// TestLinkKeyRecoveryWhenTheAcceptedKeysAreUnwritable: a replica that fell
// back (its state as OpenLinks leaves it) recovers onto a store (a
// directory store here) whose accepted-keys object is malformed: it signs
// with the fleet's key from the first refresh, keeps opening its outage
// links, warns once however often it retries, and leaves the object alone;
// once the object is gone it publishes its fallback key at the next
// refresh, with the time it accepts it until.
func TestLinkKeyRecoveryWhenTheAcceptedKeysAreUnwritable(t *testing.T) {
	store, err := blob.OpenDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	ctx := context.Background()
	if _, err := store.Put(ctx, access.AcceptedObject, []byte("{not json"), blob.PutOptions{}); err != nil {
		t.Fatal(err)
	}
	fallback := []byte("this replica's fallback key")
	signer, err := access.NewSigner(fallback)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Unix(3_000_000, 0)
	signer.SetClock(func() time.Time { return now })
	l := &Links{Key: Key{name: "download links", sources: LinkSources}, signer: signer, ttl: time.Hour}
	l.fallBack(store, LinkFallback)
	const name = "0123456789ab_x.md"
	outage := "/downloads/" + name + "?" + signer.Query(name, time.Hour)

	log, logs := jsonLog()
	for range 3 {
		l.RefreshLogged(ctx, log)
	}
	fleet, err := access.LoadOrCreateKeyIn(ctx, store, access.KeyObject)
	if err != nil {
		t.Fatal(err)
	}
	fresh := "/downloads/" + name + "?" + signer.Query(name, time.Hour)
	if err := checkLinkWith(t, fleet, now, fresh); l.Source() != LinkStore || err != nil {
		t.Fatalf("after the store answered: source %s, a new link checked with the fleet's key: %v", l.Source(), err)
	}
	rest, _ := strings.CutPrefix(outage, "/downloads/"+name+"?")
	q, _ := url.ParseQuery(rest)
	if err := signer.Check(name, q); err != nil {
		t.Fatalf("the outage link on the replica: %v", err)
	}
	if w := logLines(logs, "WARN", "cannot be published"); len(w) != 1 || !strings.Contains(w[0], access.ErrAcceptedObject.Error()) {
		t.Fatalf("warnings %q, want one naming the malformed object:\n%s", w, logs.String())
	}
	if n := len(logLines(logs, "INFO", "the shared store answers")); n != 1 {
		t.Fatalf("%d recovery lines:\n%s", n, logs.String())
	}
	if obj, err := store.Get(ctx, access.AcceptedObject, blob.GetOptions{}); err != nil {
		t.Fatal(err)
	} else if b, _ := io.ReadAll(obj); obj.Close() != nil || string(b) != "{not json" {
		t.Fatalf("the malformed object was rewritten: %q", b)
	}

	if err := store.Delete(ctx, access.AcceptedObject); err != nil {
		t.Fatal(err)
	}
	l.RefreshLogged(ctx, log)
	keys, _, err := access.ReadAcceptedIn(ctx, store, access.AcceptedObject, "")
	// Switched at 3_000_000: accepted until 3_003_600 + 1.
	if err != nil || len(keys) != 1 || string(keys[0].Key) != string(fallback) || !keys[0].Until.Equal(time.Unix(3_003_601, 0)) {
		t.Fatalf("the store accepts %v (%v), want the fallback key until %v", keys, err, time.Unix(3_003_601, 0))
	}
	if l.unpublished != nil {
		t.Fatal("still waiting to publish")
	}
}

// TestMark: a mark is read back as written, never moves its later end
// back, reads as absent once cleared or when it does not parse, and the
// empty Mark writes nothing.
func TestMark(t *testing.T) {
	dir := t.TempDir()
	m := Mark(filepath.Join(dir, "sub", MarkName))
	if _, ok := m.Read(); ok {
		t.Fatal("a mark before any was written")
	}
	t1 := time.Date(2030, 1, 2, 3, 4, 5, 600, time.UTC)
	if err := m.Extend(t1); err != nil {
		t.Fatal(err)
	}
	if got, ok := m.Read(); !ok || !got.Equal(t1) {
		t.Fatalf("read %v %v, want %v", got, ok, t1)
	}
	if err := m.Extend(t1.Add(-time.Hour)); err != nil {
		t.Fatal(err)
	}
	if got, _ := m.Read(); !got.Equal(t1) {
		t.Fatalf("an earlier end moved the mark to %v", got)
	}
	t2 := t1.Add(time.Hour)
	if err := m.Extend(t2); err != nil {
		t.Fatal(err)
	}
	if got, _ := m.Read(); !got.Equal(t2) {
		t.Fatalf("a later end left the mark at %v, want %v", got, t2)
	}
	if err := m.Clear(); err != nil {
		t.Fatal(err)
	}
	if _, ok := m.Read(); ok {
		t.Fatal("a cleared mark still reads")
	}
	if err := m.Clear(); err != nil {
		t.Fatalf("clearing an absent mark: %v", err)
	}
	if err := os.WriteFile(string(m), []byte("yesterday\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, ok := m.Read(); ok {
		t.Fatal("a mark that does not parse reads")
	}
	var none Mark
	if err := none.Extend(t1); err != nil {
		t.Fatal(err)
	}
	if _, ok := none.Read(); ok {
		t.Fatal("the empty mark reads")
	}
}
