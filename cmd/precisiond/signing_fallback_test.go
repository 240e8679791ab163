package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/precisiond/precisiond/internal/attest"
	"github.com/precisiond/precisiond/internal/fleetkey"
	"github.com/precisiond/precisiond/internal/s3test"
	"github.com/precisiond/precisiond/internal/testhttp"
)

// fallbackDeadline bounds every wait of the fallback tests: far above the
// refresh period the tests set, so that a slow machine decides nothing.
const fallbackDeadline = 90 * time.Second

// pollUntil calls probe until it reports done, and fails after
// fallbackDeadline with what probe saw last.
func pollUntil(t *testing.T, what string, probe func() (bool, string)) {
	t.Helper()
	start := time.Now()
	for {
		done, seen := probe()
		if done {
			return
		}
		if time.Since(start) > fallbackDeadline {
			t.Fatalf("%s: not within %s; last seen: %s", what, fallbackDeadline, seen)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// storeEnv points the AWS variables of this process at srv.
func storeEnv(t *testing.T, srv *s3test.Server) {
	for k, v := range srv.Env() {
		t.Setenv(k, v)
	}
}

// fleetReplicaConfig is a replica on the S3 location loc with its own data
// directory, a short store timeout and a keyring refresh of 100 ms.
func fleetReplicaConfig(t *testing.T, loc string) Config {
	cfg := DefaultConfig()
	cfg.Addr = "127.0.0.1:0"
	cfg.DataDir = t.TempDir()
	cfg.Store, cfg.StoreTimeout = loc, time.Second
	cfg.IsolateTools = nil
	cfg.Signing.KeyringRefresh = 100 * time.Millisecond
	return cfg
}

// startLogged starts cfg on loopback with its log (info and above) in the
// returned buffer.
func startLogged(t *testing.T, cfg Config) (string, *Main, *syncBuffer) {
	t.Helper()
	logs := &syncBuffer{}
	m, _ := launchMain(t, cfg, newLogger(logs, "info"))
	return "http://" + m.Addr(), m, logs
}

// logLines returns the JSON log lines of logs at level whose message
// contains msg.
func logLines(logs *syncBuffer, level, msg string) []string {
	var out []string
	for _, l := range strings.Split(logs.String(), "\n") {
		var rec struct{ Level, Msg string }
		if json.Unmarshal([]byte(l), &rec) == nil && rec.Level == level && strings.Contains(rec.Msg, msg) {
			out = append(out, l)
		}
	}
	return out
}

// attestedKID is the kid in the header of an answer's attestation, read
// without verifying it (the tests verify separately).
func attestedKID(t *testing.T, answer map[string]any) string {
	t.Helper()
	jws, _ := answer["attestation"].(string)
	head, _, _ := strings.Cut(jws, ".")
	raw, err := base64.RawURLEncoding.DecodeString(head)
	if err != nil {
		t.Fatalf("attestation %q: %v", jws, err)
	}
	var h struct{ KID string }
	if err := json.Unmarshal(raw, &h); err != nil || h.KID == "" {
		t.Fatalf("header %s: %v", raw, err)
	}
	return h.KID
}

// keyringSourceOf is the source label whose precisiond_signing_keyring is
// 1 at base, with every sample seen.
func keyringSourceOf(t *testing.T, base string) (string, string) {
	t.Helper()
	return oneSourceOf(t, base, "precisiond_signing_keyring", fleetkey.KeyringSources)
}

// readStoredKeyring reads the keyring state kept at the S3 location loc.
func readStoredKeyring(t *testing.T, srv *s3test.Server, loc string) []byte {
	t.Helper()
	state, _, err := fleetkey.ReadKeyring(context.Background(), openStoreAt(t, srv, loc))
	if err != nil || state == nil {
		t.Fatalf("stored keyring at %s: %v (present: %v)", loc, err, state != nil)
	}
	return state
}

// TestFallbackKeyringRecoversWithoutRestart: a replica that starts while its
// S3 store does not answer (the real gateway, paused) signs with its data
// directory's key, says so once in its log and in /metrics; once the store
// answers it signs with the fleet's key within its refresh period, without
// a restart, and has published its fallback key in the fleet keyring (the
// public half only), so that a second replica on the store publishes it and
// an answer signed during the outage verifies with `precisiond verify
// --jwks` against that replica.
func TestFallbackKeyringRecoversWithoutRestart(t *testing.T) {
	srv := s3test.Start(t)
	storeEnv(t, srv)
	loc := srv.Location()
	srv.Pause(t) // s3test's cleanup resumes it if the test stops early
	cfgA := fleetReplicaConfig(t, loc)
	baseA, _, logsA := startLogged(t, cfgA)

	// During the outage: the data directory's key, published by A alone.
	outageRaw, outage := gcdAnswer(t, baseA)
	fallbackKID := attestedKID(t, outage)
	local := storedKeyring(t, cfgA.DataDir)
	if local.Current().KID != fallbackKID {
		t.Fatalf("A signs with %s during the outage; its data directory's key is %s", fallbackKID, local.Current().KID)
	}
	if v := checkAttestation(t, fetchKeySet(t, baseA), outage); v.KID != fallbackKID {
		t.Fatalf("A's key set verifies its answer as %s", v.KID)
	}
	if src, all := keyringSourceOf(t, baseA); src != fleetkey.SourceFallback {
		t.Fatalf("during the outage /metrics says %s", all)
	}
	if n := len(logLines(logsA, "WARN", "fallback key")); n != 1 {
		t.Fatalf("%d warnings about the fallback key, want 1:\n%s", n, logsA.String())
	}

	srv.Resume(t)
	var fleetKID string
	pollUntil(t, "replica A signs with the fleet's key after the store answers", func() (bool, string) {
		_, ans := gcdAnswer(t, baseA)
		fleetKID = attestedKID(t, ans)
		src, all := keyringSourceOf(t, baseA)
		return fleetKID != fallbackKID && src == fleetkey.SourceStore, fmt.Sprintf("signed by %s (fallback %s), metrics %s", fleetKID, fallbackKID, all)
	})
	if l := logLines(logsA, "INFO", "the shared store answers; this replica signs with the fleet keyring's key"); len(l) != 1 || !strings.Contains(l[0], `"fallback_kid":"`+fallbackKID+`"`) {
		t.Errorf("recovery lines %q, want one naming %s:\n%s", l, fallbackKID, logsA.String())
	}
	if n := len(logLines(logsA, "WARN", "fallback key")); n != 1 {
		t.Errorf("%d warnings about the fallback key after the recovery, want 1", n)
	}

	// The fleet keyring: a generated current key, the fallback key retired
	// now and published for --key-retention; no private half but the
	// current key's.
	state := readStoredKeyring(t, srv, loc)
	fleet, err := attest.ParseKeyring(state)
	if err != nil {
		t.Fatal(err)
	}
	if fleet.Current().KID != fleetKID || fleet.Custody() != attest.InStore {
		t.Fatalf("stored keyring: current %s (%v), A signs with %s", fleet.Current().KID, fleet.Custody(), fleetKID)
	}
	ret := fleet.Retained()
	if len(ret) != 1 || ret[0].KID != fallbackKID || ret[0].NotAfter.Sub(ret[0].RetiredAt) != cfgA.Signing.KeyRetention {
		t.Fatalf("stored keyring retains %+v, want %s for %v", ret, fallbackKID, cfgA.Signing.KeyRetention)
	}
	if bytes.Contains(state, local.SigningKey().MarshalPEM()) || bytes.Count(state, []byte("BEGIN PRIVATE KEY")) != 1 {
		t.Fatalf("the stored keyring holds a private key besides the current one:\n%s", state)
	}

	// A second replica on the store publishes the fallback key, and the
	// answer signed during the outage verifies against it.
	baseB, _ := startMain(t, func(c *Config) { *c = fleetReplicaConfig(t, loc) })
	keysB := fetchKeySet(t, baseB)
	if got := keysB.Keys(); len(got) != 2 || got[0].KID != fleetKID || got[1].KID != fallbackKID || got[1].NotAfter.IsZero() {
		t.Fatalf("replica B publishes %+v, want %s then %s with a not_after", got, fleetKID, fallbackKID)
	}
	jwksB := filepath.Join(t.TempDir(), "jwks.json")
	if err := os.WriteFile(jwksB, testhttp.Do(t, "GET", baseB+"/.well-known/jwks.json", nil, nil).OK(t), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, src := range []string{baseB, jwksB} {
		code, out := runVerify(outageRaw, "--jwks", src)
		if code != 0 || !strings.Contains(out, "signed by kid "+fallbackKID) {
			t.Errorf("verify --jwks %s of the outage answer: exit %d: %s", src, code, out)
		}
	}
	// A keeps publishing the fallback key too, and both replicas now sign
	// the same answer byte for byte.
	if got := fetchKeySet(t, baseA).Keys(); len(got) != 2 || got[1].KID != fallbackKID {
		t.Errorf("replica A publishes %+v after the recovery", got)
	}
	rawA, _ := gcdAnswer(t, baseA)
	if rawB, _ := gcdAnswer(t, baseB); !bytes.Equal(rawA, rawB) {
		t.Errorf("the replicas answer differently:\n%s\n%s", rawA, rawB)
	}
}

// TestKeyFileReplicaNeverFallsBack: a replica given --signing-key whose S3
// store is down at start signs with the file's key, the fleet's, from the
// first answer (never with a key of its own), writes no keyring into its
// data directory, and once the store answers adopts the fleet keyring: it
// creates it with the file's public half only.
func TestKeyFileReplicaNeverFallsBack(t *testing.T) {
	srv := s3test.Start(t)
	storeEnv(t, srv)
	loc := srv.Location()
	k := newKey(t)
	srv.Pause(t)
	cfg := fleetReplicaConfig(t, loc)
	cfg.Signing.KeyFile = writeKeyFile(t, k)
	base, _, logs := startLogged(t, cfg)
	_, ans := gcdAnswer(t, base)
	if kid := attestedKID(t, ans); kid != k.KID() {
		t.Fatalf("signed by %s during the outage, want the file's %s", kid, k.KID())
	}
	if keys := fetchKeySet(t, base).Keys(); len(keys) != 1 || keys[0].KID != k.KID() {
		t.Fatalf("publishes %+v during the outage", keys)
	}
	if src, all := keyringSourceOf(t, base); src != fleetkey.SourceKeyFile {
		t.Fatalf("during the outage /metrics says %s", all)
	}
	if _, err := os.Stat(filepath.Join(cfg.DataDir, fleetkey.KeyringObject)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a keyring in the data directory: %v", err)
	}
	if n := len(logLines(logs, "WARN", "fallback key")); n != 0 {
		t.Fatalf("a key-file replica warned of a fallback key:\n%s", logs.String())
	}

	srv.Resume(t)
	pollUntil(t, "the replica reads the fleet keyring after the store answers", func() (bool, string) {
		src, all := keyringSourceOf(t, base)
		return src == fleetkey.SourceStore, all
	})
	state := readStoredKeyring(t, srv, loc)
	fleet, err := attest.ParseKeyring(state)
	if err != nil || fleet.Current().KID != k.KID() || len(fleet.Retained()) != 0 || bytes.Contains(state, []byte("PRIVATE KEY")) {
		t.Fatalf("stored keyring (%v):\n%s", err, state)
	}
	if _, ans := gcdAnswer(t, base); attestedKID(t, ans) != k.KID() {
		t.Fatal("the replica switched keys after the recovery")
	}
}

// TestFallbackWithoutADataDirectory: with the S3 store unreachable (nothing
// listens at its address) and no data directory, a replica signs with a key
// of its own lifetime, counted as fallback; retrying the store while it
// still does not answer logs at debug only.
func TestFallbackWithoutADataDirectory(t *testing.T) {
	t.Setenv("AWS_ENDPOINT_URL", "http://"+testhttp.RefusedAddr(t))
	t.Setenv("AWS_ACCESS_KEY_ID", "a")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "b")
	cfg := DefaultConfig()
	cfg.Addr, cfg.DataDir = "127.0.0.1:0", ""
	cfg.Store, cfg.StoreTimeout, cfg.IsolateTools = "s3://fleet/x", time.Second, nil
	cfg.Signing.KeyringRefresh = time.Hour // the test refreshes by hand
	logs := &syncBuffer{}
	m, _ := launchMain(t, cfg, newLogger(logs, "info"))
	base := "http://" + m.Addr()
	_, ans := gcdAnswer(t, base)
	if v := checkAttestation(t, fetchKeySet(t, base), ans); v.KID != m.Signing.Signer().KID() {
		t.Fatalf("signed by %s", v.KID)
	}
	if src, all := keyringSourceOf(t, base); src != fleetkey.SourceFallback {
		t.Fatalf("/metrics says %s", all)
	}
	m.refreshKeyring()
	m.refreshKeyring()
	if n := len(logLines(logs, "WARN", "signing keyring")); n != 0 {
		t.Fatalf("retrying a store still down warned:\n%s", logs.String())
	}
	if n := len(logLines(logs, "WARN", "fallback key")); n != 1 {
		t.Fatalf("%d warnings about the fallback key:\n%s", n, logs.String())
	}
}
