package access

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/precisiond/precisiond/internal/blob"
)

// signerAt is a signer with key whose clock reads *now.
func signerAt(t *testing.T, key string, now *time.Time) *Signer {
	t.Helper()
	s, err := NewSigner([]byte(key))
	if err != nil {
		t.Fatal(err)
	}
	s.SetClock(func() time.Time { return *now })
	return s
}

func link(t *testing.T, s *Signer, name string, ttl time.Duration) url.Values {
	t.Helper()
	q, err := url.ParseQuery(s.Query(name, ttl))
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// TestSignerSwitch: after Switch the new key signs; a link signed with the
// old key opens until its own expiry (then ErrExpired), and the old key is
// refused altogether once its last link could have expired: the switch
// time plus the TTL, in whole seconds, plus one.
func TestSignerSwitch(t *testing.T) {
	const name = "0123456789ab_report.md"
	now := time.Unix(2_000_000, 0)
	s := signerAt(t, "old key, twenty bytes", &now)
	old := link(t, s, name, time.Hour) // expires at 2_003_600
	now = now.Add(10*time.Minute + 500*time.Millisecond)
	retired, err := s.Switch([]byte("new key, twenty bytes"), time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	// 2_000_600.5 + 3600 = 2_004_200.5, rounded down, plus one.
	if string(retired.Key) != "old key, twenty bytes" || !retired.Until.Equal(time.Unix(2_004_201, 0)) {
		t.Fatalf("retired %q until %v", retired.Key, retired.Until)
	}
	fresh := link(t, s, name, time.Hour)
	if mac([]byte("new key, twenty bytes"), name, 2_004_200) != fresh.Get("sig") {
		t.Fatalf("after the switch a link is signed %s, not with the new key", fresh.Get("sig"))
	}
	if err := s.Check(name, old); err != nil {
		t.Fatalf("a link signed before the switch: %v", err)
	}
	if acc := s.Accepted(); len(acc) != 1 || !bytes.Equal(acc[0].Key, retired.Key) {
		t.Fatalf("accepted %v", acc)
	}
	now = time.Unix(2_003_600, 0)
	if err := s.Check(name, fresh); err != nil {
		t.Fatalf("the new link: %v", err)
	}
	if err := s.Check(name, old); !errors.Is(err, ErrExpired) {
		t.Fatalf("the old link at its expiry: %v", err)
	}
	// A link with the old key expiring later (only a holder of the old key
	// could make it) opens until the old key's acceptance ends.
	late := signerAt(t, "old key, twenty bytes", &now)
	forged := link(t, late, name, time.Hour)
	if err := s.Check(name, forged); err != nil {
		t.Fatalf("an old-key link before the acceptance ends: %v", err)
	}
	now = time.Unix(2_004_201, 0)
	if err := s.Check(name, forged); !errors.Is(err, ErrBadSignature) {
		t.Fatalf("an old-key link after the acceptance ended: %v", err)
	}
	if err := s.Check(name, old); !errors.Is(err, ErrBadSignature) {
		t.Fatalf("the old link after the acceptance ended: %v", err)
	}
	if acc := s.Accepted(); len(acc) != 0 {
		t.Fatalf("accepted after the end: %v", acc)
	}
	if err := s.Check(name, fresh); !errors.Is(err, ErrExpired) {
		t.Fatalf("the new link after its expiry: %v", err)
	}
	if r, err := s.Switch([]byte("new key, twenty bytes"), time.Hour); err != nil || r.Key != nil {
		t.Fatalf("switching to the current key: %v %v", r, err)
	}
	if _, err := s.Switch([]byte("short"), time.Hour); err == nil {
		t.Fatal("switched to a 5-byte key")
	}
}

// TestSignerAccept: an accepted key's links open until its until; a later
// until extends it, an earlier one does not shorten it; the current key and
// a key already past its until change nothing; beyond MaxAcceptedKeys the
// keys expiring first go.
func TestSignerAccept(t *testing.T) {
	const name = "0123456789ab_a.csv"
	now := time.Unix(5_000_000, 0)
	s := signerAt(t, "this replica's key..", &now)
	other := signerAt(t, "another replica's key", &now)
	q := link(t, other, name, time.Hour)
	if err := s.Check(name, q); !errors.Is(err, ErrBadSignature) {
		t.Fatalf("before Accept: %v", err)
	}
	until := now.Add(30 * time.Minute)
	if err := s.Accept(AcceptedKey{Key: []byte("another replica's key"), Until: until}); err != nil {
		t.Fatal(err)
	}
	if err := s.Check(name, q); err != nil {
		t.Fatalf("after Accept: %v", err)
	}
	_ = s.Accept(AcceptedKey{Key: []byte("another replica's key"), Until: until.Add(-time.Minute)})
	_ = s.Accept(AcceptedKey{Key: []byte("this replica's key.."), Until: until})
	_ = s.Accept(AcceptedKey{Key: []byte("a key already expired"), Until: now})
	if acc := s.Accepted(); len(acc) != 1 || !acc[0].Until.Equal(until) {
		t.Fatalf("accepted %v, want the one key until %v", acc, until)
	}
	_ = s.Accept(AcceptedKey{Key: []byte("another replica's key"), Until: until.Add(time.Hour)})
	now = until
	if err := s.Check(name, q); err != nil {
		t.Fatalf("after the extension: %v", err)
	}
	if err := s.Accept(AcceptedKey{Key: []byte("short")}); err == nil {
		t.Fatal("accepted a 5-byte key")
	}

	// 69 keys more, accepted until 1 to 69 minutes from now: with the one
	// above (until 60 minutes from now) the 6 expiring first go.
	for i := range MaxAcceptedKeys + 5 {
		k := fmt.Sprintf("bulk key number %04d", i)
		if err := s.Accept(AcceptedKey{Key: []byte(k), Until: now.Add(time.Duration(i+1) * time.Minute)}); err != nil {
			t.Fatal(err)
		}
	}
	acc := s.Accepted()
	if len(acc) != MaxAcceptedKeys || string(acc[0].Key) != "bulk key number 0006" || string(acc[len(acc)-1].Key) != "bulk key number 0068" {
		t.Fatalf("%d accepted, first %q, last %q", len(acc), acc[0].Key, acc[len(acc)-1].Key)
	}
	if err := s.Check(name, q); err != nil {
		t.Fatalf("the other replica's link among the bulk: %v", err)
	}
}

// TestSignerConcurrentSwitch (run with -race): while keys switch and are
// accepted, every link a signer makes opens on it at once, and the keys
// accepted stay those switched out and accepted (3 + 8 at most).
func TestSignerConcurrentSwitch(t *testing.T) {
	now := time.Unix(7_000_000, 0)
	s := signerAt(t, "key number 0 of four", &now)
	stop := make(chan struct{})
	var switcher, checkers sync.WaitGroup
	switcher.Go(func() {
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			if _, err := s.Switch(fmt.Appendf(nil, "key number %d of four", i%4), time.Hour); err != nil {
				t.Error(err)
				return
			}
			if err := s.Accept(AcceptedKey{Key: fmt.Appendf(nil, "accepted key %d......", i%8), Until: now.Add(time.Minute)}); err != nil {
				t.Error(err)
				return
			}
		}
	})
	for g := range 4 {
		checkers.Go(func() {
			for i := range 2000 {
				name := fmt.Sprintf("0123456789ab_%d_%d.md", g, i)
				q, err := url.ParseQuery(s.Query(name, time.Hour))
				if err == nil {
					err = s.Check(name, q)
				}
				if err != nil {
					t.Errorf("link %d of goroutine %d: %v", i, g, err)
					return
				}
				if n := len(s.Accepted()); n > 3+8 {
					t.Errorf("%d keys accepted", n)
					return
				}
			}
		})
	}
	checkers.Wait()
	close(stop)
	switcher.Wait()
}

// TestAcceptedObject: the store object round-trips; malformed ones are
// refused with ErrAcceptedObject; replicas publishing at once on one store
// (a directory store) all end up listed; an expired key is dropped at the
// next write and an object that already says as much is not rewritten.
func TestAcceptedObject(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	keys := []AcceptedKey{{Key: []byte("0123456789abcdef"), Until: t0}, {Key: bytes.Repeat([]byte{0xff}, 32), Until: t0.Add(time.Hour)}}
	data := MarshalAccepted(keys)
	want := `{"keys":[{"key":"30313233343536373839616263646566","until":"2026-12-01T09:00:00Z"},{"key":"` + fmt.Sprintf("%x", bytes.Repeat([]byte{0xff}, 32)) + `","until":"2026-12-01T10:00:00Z"}]}` + "\n"
	if string(data) != want {
		t.Fatalf("marshalled\n%s\nwant\n%s", data, want)
	}
	back, err := ParseAccepted(data)
	if err != nil || len(back) != 2 || !bytes.Equal(back[1].Key, keys[1].Key) || !back[0].Until.Equal(t0) {
		t.Fatalf("parsed %v, %v", back, err)
	}
	for _, bad := range []string{
		``, `[]`, `{"keys":[{"key":"zz","until":"2026-12-01T09:00:00Z"}]}`,
		`{"keys":[{"key":"3031","until":"2026-12-01T09:00:00Z"}]}`,
		`{"keys":[{"key":"30313233343536373839616263646566"}]}`,
		`{"keys":[{"key":"30313233343536373839616263646566","until":"yesterday"}]}`,
		`{"keys":[]} {}`,
		`{"keys":[{"key":"` + fmt.Sprintf("%x", bytes.Repeat([]byte{1}, 513)) + `","until":"2026-12-01T09:00:00Z"}]}`,
	} {
		if _, err := ParseAccepted([]byte(bad)); !errors.Is(err, ErrAcceptedObject) {
			t.Errorf("%.60q: %v", bad, err)
		}
	}
	many := make([]AcceptedKey, MaxAcceptedKeys+1)
	for i := range many {
		many[i] = AcceptedKey{Key: fmt.Appendf(nil, "key %016d", i), Until: t0}
	}
	if _, err := ParseAccepted(MarshalAccepted(many)); !errors.Is(err, ErrAcceptedObject) {
		t.Errorf("%d keys: %v", len(many), err)
	}

	dir := t.TempDir()
	var wg sync.WaitGroup
	for i := range 6 {
		s, err := blob.OpenDir(dir) // one handle per replica
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		wg.Go(func() {
			a := AcceptedKey{Key: fmt.Appendf(nil, "replica %d fallback key", i), Until: t0.Add(time.Duration(i+1) * time.Minute)}
			if err := PublishAcceptedIn(context.Background(), s, AcceptedObject, a, t0); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	s, err := blob.OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	got, etag, err := ReadAcceptedIn(context.Background(), s, AcceptedObject, "")
	if err != nil || len(got) != 6 {
		t.Fatalf("after 6 replicas published: %d keys, %v", len(got), err)
	}
	for i, k := range got {
		if string(k.Key) != fmt.Sprintf("replica %d fallback key", i) {
			t.Fatalf("key %d is %q", i, k.Key)
		}
	}
	if _, _, err := ReadAcceptedIn(context.Background(), s, AcceptedObject, etag); !errors.Is(err, blob.ErrNotModified) {
		t.Fatalf("read again at its ETag: %v", err)
	}
	// Republishing a listed key with an earlier until changes nothing.
	if err := PublishAcceptedIn(context.Background(), s, AcceptedObject, AcceptedKey{Key: got[5].Key, Until: t0}, t0); err != nil {
		t.Fatal(err)
	}
	if _, _, err := ReadAcceptedIn(context.Background(), s, AcceptedObject, etag); !errors.Is(err, blob.ErrNotModified) {
		t.Fatalf("an object that said as much was rewritten: %v", err)
	}
	// Three minutes on, the first three have expired and go at the next write.
	if err := PublishAcceptedIn(context.Background(), s, AcceptedObject, AcceptedKey{Key: []byte("a later fallback key"), Until: t0.Add(time.Hour)}, t0.Add(3*time.Minute)); err != nil {
		t.Fatal(err)
	}
	got, _, err = ReadAcceptedIn(context.Background(), s, AcceptedObject, "")
	if err != nil || len(got) != 4 || string(got[0].Key) != "replica 3 fallback key" || string(got[3].Key) != "a later fallback key" {
		t.Fatalf("after the expiry: %v, %v", got, err)
	}
	if _, err := s.Put(context.Background(), AcceptedObject, []byte("{"), blob.PutOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := PublishAcceptedIn(context.Background(), s, AcceptedObject, AcceptedKey{Key: []byte("yet another fallback"), Until: t0.Add(time.Hour)}, t0); !errors.Is(err, ErrAcceptedObject) {
		t.Fatalf("publishing into a malformed object: %v", err)
	}
}
