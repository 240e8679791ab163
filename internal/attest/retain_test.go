package attest

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// retiredAt is k's public half as a key retired at at, published for
// retention, that started signing at since.
func retiredAt(k *Key, since, at time.Time, retention time.Duration) PublicKey {
	return PublicKey{KID: k.KID(), Key: k.PublicKey(), Since: since, RetiredAt: at, NotAfter: at.Add(retention)}
}

// kidsOf lists the kids a keyring publishes at now, in order.
func kidsOf(r *Keyring, now time.Time) string {
	var kids []string
	for _, k := range r.Published(now) {
		kids = append(kids, k.KID)
	}
	return strings.Join(kids, ",")
}

// TestRetainFallbackKey: a key that signed outside the keyring (a replica's
// fallback key while the store was down) is published as retired: answers it
// signed verify against the keyring's JWKS until its not_after and are an
// unknown kid after; the state holds no private half of it; the keyring it
// was merged into is not changed.
func TestRetainFallbackKey(t *testing.T) {
	t0 := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	a, b, f := seededKey(t, "a"), seededKey(t, "b"), seededKey(t, "fallback")
	base := rotatedOnce(t, t0, a, b)
	before := base.Marshal()
	env := gcdEnvelope(t, "23", "5083")
	signed, err := mustSigner(t, f, testIssuer).SignResult(env)
	if err != nil {
		t.Fatal(err)
	}
	t1 := t0.Add(2 * time.Hour)
	merged, err := base.Retain(retiredAt(f, t0.Add(30*time.Minute), t1, DefaultRetention), t1)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(base.Marshal(), before) {
		t.Fatal("Retain changed the keyring it was called on")
	}
	if got, want := kidsOf(merged, t1), b.KID()+","+f.KID()+","+a.KID(); got != want {
		t.Fatalf("published %s, want %s (current, then most recently retired first)", got, want)
	}
	r := merged.Retained()[0]
	if !r.Since.Equal(t0.Add(30*time.Minute)) || !r.RetiredAt.Equal(t1) || !r.NotAfter.Equal(t1.Add(DefaultRetention)) {
		t.Fatalf("retained entry %+v", r)
	}
	state := merged.Marshal()
	if bytes.Contains(state, f.MarshalPEM()) || bytes.Count(state, []byte("BEGIN PRIVATE KEY")) != 1 {
		t.Fatalf("the state holds a private key other than the current one: %s", state)
	}
	back, err := ParseKeyring(state)
	if err != nil || !bytes.Equal(back.Marshal(), state) {
		t.Fatalf("round trip: %v", err)
	}
	want := ResultClaimsOf(env, "")
	notAfter := t1.Add(DefaultRetention)
	live := mustParseJWKS(t, merged.JWKS(notAfter))
	if v, err := live.VerifyResult(signed, want, notAfter); err != nil || v.KID != f.KID() {
		t.Fatalf("an answer the fallback key signed, at its not_after: %v %+v", err, v)
	}
	if _, err := mustParseJWKS(t, merged.JWKS(notAfter.Add(time.Second))).VerifyResult(signed, want, notAfter.Add(time.Second)); !errors.Is(err, ErrUnknownKey) {
		t.Fatalf("after its not_after: %v, want unknown kid", err)
	}
	if _, err := mustParseJWKS(t, base.JWKS(t1)).VerifyResult(signed, want, t1); !errors.Is(err, ErrUnknownKey) {
		t.Fatalf("before the merge: %v, want unknown kid", err)
	}
}

// TestRetainIsIdempotentAndCommutative: two replicas that recover at once
// merge their fallback keys into the stored keyring through compare-and-swap
// writes, one after the other in either order, and a replica may merge its
// key again (a retried write): every order gives the same state, byte for
// byte, and a repeated merge changes nothing.
func TestRetainIsIdempotentAndCommutative(t *testing.T) {
	t0 := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	a, b, f, g := seededKey(t, "a"), seededKey(t, "b"), seededKey(t, "f"), seededKey(t, "g")
	base := rotatedOnce(t, t0, a, b)
	t1 := t0.Add(2 * time.Hour)
	for _, c := range []struct {
		name   string
		fAt    time.Time
		gAt    time.Time
		wantFG bool // f listed before g
	}{
		{"same second", t1, t1, f.KID() < g.KID()},
		{"f later", t1.Add(time.Second), t1, true},
		{"g later", t1, t1.Add(time.Second), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			fk, gk := retiredAt(f, t0, c.fAt, time.Hour), retiredAt(g, t0, c.gAt, time.Hour)
			now := t1.Add(time.Second)
			merge := func(r *Keyring, keys ...PublicKey) *Keyring {
				t.Helper()
				for _, k := range keys {
					n, err := r.Retain(k, now)
					if err != nil {
						t.Fatal(err)
					}
					r = n
				}
				return r
			}
			fg, gf := merge(base, fk, gk), merge(base, gk, fk)
			if !bytes.Equal(fg.Marshal(), gf.Marshal()) {
				t.Fatalf("the order of the merges matters:\n%s\n%s", fg.Marshal(), gf.Marshal())
			}
			first, second := f.KID(), g.KID()
			if !c.wantFG {
				first, second = second, first
			}
			if got, want := kidsOf(fg, now), b.KID()+","+first+","+second+","+a.KID(); got != want {
				t.Fatalf("published %s, want %s", got, want)
			}
			if again := merge(fg, fk, gk); again != fg {
				t.Fatalf("merging the same keys again changed the keyring:\n%s\n%s", again.Marshal(), fg.Marshal())
			}
		})
	}
}

// TestRetainExistingEntry: a kid the keyring already retains (a replica that
// fell back to the same data-directory key in an earlier outage) keeps one
// entry, with the earlier since and the later retired_at and not_after; an
// entry that already covers as long is left alone; an expired entry is
// replaced; the current key is never retained.
func TestRetainExistingEntry(t *testing.T) {
	t0 := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	a, b, c, f := seededKey(t, "a"), seededKey(t, "b"), seededKey(t, "c"), seededKey(t, "f")
	ring := NewKeyring(a, InStore, t0)
	ring, err := ring.Retain(retiredAt(f, t0, t0.Add(time.Hour), 10*time.Hour), t0.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	ring, err = ring.Rotate(b, InStore, t0.Add(2*time.Hour), 10*time.Hour) // retains a after f
	if err != nil {
		t.Fatal(err)
	}
	if got, want := kidsOf(ring, t0.Add(2*time.Hour)), b.KID()+","+a.KID()+","+f.KID(); got != want {
		t.Fatalf("published %s, want %s", got, want)
	}
	now := t0.Add(3 * time.Hour)

	// Shorter or equal: nothing changes.
	for _, k := range []PublicKey{
		retiredAt(f, t0.Add(30*time.Minute), t0.Add(time.Hour), 10*time.Hour),
		retiredAt(f, t0, t0.Add(time.Hour), time.Hour),
	} {
		if got, err := ring.Retain(k, now); err != nil || got != ring {
			t.Fatalf("a merge within the existing entry changed the keyring (%v)", err)
		}
	}
	// Later: extended, and moved to its place among the retired keys.
	ext, err := ring.Retain(retiredAt(f, t0.Add(30*time.Minute), now, 10*time.Hour), now)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := kidsOf(ext, now), b.KID()+","+f.KID()+","+a.KID(); got != want {
		t.Fatalf("published %s, want %s", got, want)
	}
	if r := ext.Retained()[0]; r.KID != f.KID() || !r.Since.Equal(t0) || !r.RetiredAt.Equal(now) || !r.NotAfter.Equal(now.Add(10*time.Hour)) || len(ext.Retained()) != 2 {
		t.Fatalf("extended entry %+v of %d", r, len(ext.Retained()))
	}
	// Expired: dropped (with the other expired keys) and published afresh.
	late := t0.Add(13 * time.Hour)
	fresh, err := ring.Retain(retiredAt(f, late, late, time.Hour), late)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := kidsOf(fresh, late), b.KID()+","+f.KID(); got != want || len(fresh.Retained()) != 1 {
		t.Fatalf("published %s (%d retained), want %s", got, len(fresh.Retained()), want)
	}
	if r := fresh.Retained()[0]; !r.Since.Equal(late) || !r.NotAfter.Equal(late.Add(time.Hour)) {
		t.Fatalf("fresh entry %+v", r)
	}
	// A key whose retention already ended is not published.
	if got, err := ring.Retain(retiredAt(c, t0, t0, time.Hour), now); err != nil || got != ring {
		t.Fatalf("an expired key changed the keyring (%v)", err)
	}
	// The current key stays current.
	if got, err := ring.Retain(retiredAt(b, t0, now, time.Hour), now); err != nil || got != ring {
		t.Fatalf("retaining the current key changed the keyring (%v)", err)
	}
	// A since later than the retirement is the retirement.
	if got, err := ring.Retain(retiredAt(c, now.Add(time.Hour), now, time.Hour), now); err != nil || !got.Retained()[0].Since.Equal(now) {
		t.Fatalf("since after retired_at: %v %+v", err, got.Retained())
	}
	// Malformed keys are refused.
	bad := retiredAt(c, t0, now, time.Hour)
	bad.KID = a.KID()
	noTime := retiredAt(c, t0, time.Time{}, 0)
	backwards := retiredAt(c, t0, now, -time.Second)
	short := retiredAt(c, t0, now, time.Hour)
	short.Key = short.Key[:31]
	for name, k := range map[string]PublicKey{"kid of another key": bad, "no retired_at": noTime, "not_after before retired_at": backwards, "short key": short} {
		if _, err := ring.Retain(k, now); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// TestRetainLimit: a keyring that retains MaxRetainedKeys live keys refuses
// a new one (ErrTooManyRetained) rather than unpublishing a key early, as
// Rotate does; a key it already retains can still be extended, and once a
// key expires the new one fits.
func TestRetainLimit(t *testing.T) {
	t0 := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	ring := NewKeyring(seededKey(t, "limit-current"), InStore, t0)
	var err error
	for i := range MaxRetainedKeys {
		// The first retained key is published for an hour, the others a day.
		ret := 24 * time.Hour
		if i == 0 {
			ret = time.Hour
		}
		k := seededKey(t, fmt.Sprintf("limit-%d", i))
		if ring, err = ring.Retain(retiredAt(k, t0, t0.Add(time.Duration(i)*time.Second), ret), t0); err != nil {
			t.Fatalf("key %d: %v", i, err)
		}
	}
	if n := len(ring.Retained()); n != MaxRetainedKeys {
		t.Fatalf("%d retained", n)
	}
	extra := seededKey(t, "limit-extra")
	now := t0.Add(2 * time.Minute) // after every retirement above
	_, err = ring.Retain(retiredAt(extra, t0, now, time.Hour), now)
	if !errors.Is(err, ErrTooManyRetained) {
		t.Fatalf("a 65th retained key: %v, want ErrTooManyRetained", err)
	}
	if _, err := ring.Rotate(extra, InStore, now, time.Hour); !errors.Is(err, ErrTooManyRetained) {
		t.Fatalf("rotating a full keyring: %v, want ErrTooManyRetained", err)
	}
	again := retiredAt(seededKey(t, "limit-5"), t0, now, 48*time.Hour)
	if got, err := ring.Retain(again, now); err != nil || len(got.Retained()) != MaxRetainedKeys || got.Retained()[0].KID != again.KID {
		t.Fatalf("extending a retained key of a full keyring: %v", err)
	}
	// An hour and a second later the first key has expired: room for one.
	later := t0.Add(time.Hour + time.Second)
	got, err := ring.Retain(retiredAt(extra, t0, later, time.Hour), later)
	if err != nil {
		t.Fatal(err)
	}
	if r := got.Retained(); len(r) != MaxRetainedKeys || r[0].KID != extra.KID() || strings.Contains(kidsOf(got, later), seededKey(t, "limit-0").KID()) {
		t.Fatalf("after an expiry: %d retained, first %s", len(r), r[0].KID)
	}
	if _, err := ParseKeyring(got.Marshal()); err != nil {
		t.Fatal(err)
	}
}
