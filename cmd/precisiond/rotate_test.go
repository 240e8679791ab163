package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/precisiond/precisiond/internal/attest"
	"github.com/precisiond/precisiond/internal/fleetkey"
)

// runRotateKey runs `precisiond rotate-key ARGS` in process.
func runRotateKey(args ...string) (int, string, string) {
	var out, errOut bytes.Buffer
	code := run(append([]string{"rotate-key"}, args...), strings.NewReader(""), &out, &errOut, func(string) string { return "" })
	return code, out.String(), errOut.String()
}

// kidOf returns the kid of an answer's attestation, checked against the
// key set the server at base publishes now.
func kidOf(t *testing.T, base string, answer map[string]any) string {
	t.Helper()
	return checkAttestation(t, fetchKeySet(t, base), answer).KID
}

// TestRotateKeyWhileServing: `precisiond rotate-key` on the data directory of
// two running replicas (generated key): at their next keyring refresh both
// sign with the new key, without a restart, and an answer signed before the
// rotation still verifies against the key set each publishes (the old key
// is retained).
func TestRotateKeyWhileServing(t *testing.T) {
	dir := t.TempDir()
	baseA, a := startMain(t, func(c *Config) { c.DataDir = dir })
	baseB, b := startMain(t, func(c *Config) { c.DataDir = dir })
	_, before := gcdAnswer(t, baseA)
	oldKID := kidOf(t, baseA, before)
	code, out, errOut := runRotateKey("--data-dir", dir)
	if code != 0 {
		t.Fatalf("rotate-key: exit %d: %s%s", code, out, errOut)
	}
	newKID := storedKeyring(t, dir).Current().KID
	if newKID == oldKID || !strings.Contains(out, "signing kid "+newKID+" (was "+oldKID+", published until ") {
		t.Fatalf("rotate-key printed %q; keyring current %s, old %s", out, newKID, oldKID)
	}
	// Until its refresh a replica signs with the old key.
	if _, ans := gcdAnswer(t, baseB); kidOf(t, baseB, ans) != oldKID {
		t.Fatal("replica B switched keys before its refresh")
	}
	for name, m := range map[string]*Main{"A": a, "B": b} {
		m.refreshKeyring() // the step the 30 s loop runs
		if got := m.Signing.Signer().KID(); got != newKID {
			t.Fatalf("replica %s signs with %s after its refresh, want %s", name, got, newKID)
		}
	}
	for _, base := range []string{baseA, baseB} {
		_, after := gcdAnswer(t, base)
		if kid := kidOf(t, base, after); kid != newKID {
			t.Errorf("%s: answer signed by %s after the rotation, want %s", base, kid, newKID)
		}
		if kid := kidOf(t, base, before); kid != oldKID {
			t.Errorf("%s: the answer from before the rotation verified as %s", base, kid)
		}
	}
}

// TestReplacedKeyFileWhileServing: replicas given --signing-key follow a
// replaced file at their next refresh: the first rotates the stored
// keyring, the second (same file) signs with the new key too, and a third
// whose own file was not replaced yet keeps its key (still published)
// without rotating the keyring back.
func TestReplacedKeyFileWhileServing(t *testing.T) {
	k1, k2 := newKey(t), newKey(t)
	dir, shared, stale := t.TempDir(), writeKeyFile(t, k1), writeKeyFile(t, k1)
	baseA, a := startMain(t, func(c *Config) { c.DataDir = dir; c.Signing.KeyFile = shared })
	baseB, b := startMain(t, func(c *Config) { c.DataDir = dir; c.Signing.KeyFile = shared })
	baseC, c := startMain(t, func(c *Config) { c.DataDir = dir; c.Signing.KeyFile = stale })
	_, before := gcdAnswer(t, baseA)
	if err := os.WriteFile(shared, k2.MarshalPEM(), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, m := range []*Main{a, b, c} {
		m.refreshKeyring()
	}
	want := map[string]string{baseA: k2.KID(), baseB: k2.KID(), baseC: k1.KID()}
	for base, kid := range want {
		_, ans := gcdAnswer(t, base)
		if got := kidOf(t, base, ans); got != kid {
			t.Errorf("%s signs with %s, want %s", base, got, kid)
		}
		if got := kidOf(t, base, before); got != k1.KID() {
			t.Errorf("%s: the answer from before verified as %s", base, got)
		}
	}
	c.refreshKeyring()
	if kid := storedKeyring(t, dir).Current().KID; kid != k2.KID() {
		t.Fatalf("stored keyring: current %s, want %s", kid, k2.KID())
	}
	// rotate-key leaves keys of --signing-key files alone.
	if code, out, errOut := runRotateKey("--data-dir", dir); code != 1 || !strings.Contains(errOut, "replacing the file") {
		t.Errorf("rotate-key on a file key: exit %d, %s%s", code, out, errOut)
	}
	if _, err := a.Signing.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// storedKeyring is the keyring kept in the data directory dir.
func storedKeyring(t *testing.T, dir string) *attest.Keyring {
	t.Helper()
	state, err := os.ReadFile(filepath.Join(dir, fleetkey.KeyringObject))
	if err != nil {
		t.Fatal(err)
	}
	ring, err := attest.ParseKeyring(state)
	if err != nil {
		t.Fatal(err)
	}
	return ring
}

// TestAnswerCacheStoreTierAcrossReplicas: with --answer-cache-store, an
// answer computed by one replica is served byte-identical by another on the
// same store, and /metrics counts it per tier.
func TestAnswerCacheStoreTierAcrossReplicas(t *testing.T) {
	dir := t.TempDir()
	cfg := func(c *Config) { c.DataDir = dir; c.Signing.AnswerCacheStoreBytes = 1 << 20 }
	baseA, _ := startMain(t, cfg)
	baseB, _ := startMain(t, cfg)
	body := []byte(`{"tool":"solve_equation","args":{"equation":"x**3 - 6*x**2 + 11*x - 6 = 0"}}`)
	first := invokeRaw(t, baseA, body)
	second := invokeRaw(t, baseB, body)
	if !bytes.Equal(first, second) {
		t.Fatalf("replica B answered\n%s\nreplica A\n%s", second, first)
	}
	for _, c := range []struct {
		base, sample string
		want         float64
	}{
		{baseA, `precisiond_answer_cache_total{result="miss",tier="store"}`, 1},
		{baseB, `precisiond_answer_cache_total{result="hit",tier="store"}`, 1},
		{baseB, `precisiond_answer_cache_total{result="refused",tier="store"}`, 0},
		{baseB, `precisiond_answer_cache_total{result="miss",tier="memory"}`, 1},
	} {
		if got := scrape(t, c.base, c.sample); got != c.want {
			t.Errorf("%s %s = %v, want %v", c.base, c.sample, got, c.want)
		}
	}
	m, _ := filepath.Glob(filepath.Join(dir, "answers", "*"))
	if len(m) != 1 {
		t.Fatalf("store tier objects %v, want 1", m)
	}
	fi, err := os.Stat(m[0])
	if err != nil {
		t.Fatal(err)
	}
	// A replica started later knows what the tier holds before it writes
	// anything: it trims (and so counts) the tier at start.
	baseC, _ := startMain(t, cfg)
	const sample = `precisiond_answer_cache_bytes{tier="store"}`
	got := 0.0
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if got = scrape(t, baseC, sample); got == float64(fi.Size()) {
			return
		}
	}
	t.Fatalf("replica C: %s = %v, the store holds %d bytes", sample, got, fi.Size())
}
