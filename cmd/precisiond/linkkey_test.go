package main

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/precisiond/precisiond/internal/access"
	"github.com/precisiond/precisiond/internal/blob"
	"github.com/precisiond/precisiond/internal/fleetkey"
	"github.com/precisiond/precisiond/internal/s3test"
	"github.com/precisiond/precisiond/internal/testhttp"
)

// linkToken is the API token of the link tests.
const linkToken = "tok-links"

// linkReplicaConfig is a fleet replica on the S3 location loc (see
// fleetReplicaConfig: keyring and link key refresh every 100 ms) with the
// API tokens file tokens and links valid for an hour.
func linkReplicaConfig(t *testing.T, loc, tokens string) Config {
	cfg := fleetReplicaConfig(t, loc)
	cfg.Access.APITokens, cfg.DownloadTTL = tokens, time.Hour
	return cfg
}

// generateLinked generates a file at base with linkToken and returns its
// name, content and signed path (X-Download-Url).
func generateLinked(t *testing.T, base, content string) (name, signed string) {
	t.Helper()
	var r testhttp.Response
	// A store that does not answer within the replica's store timeout (a
	// just-resumed or busy gateway) is store_unavailable: retried, as a
	// client retries it.
	pollUntil(t, "generate_file at "+base, func() (bool, string) {
		r = testhttp.Do(t, "POST", base+"/v1/invoke", map[string]string{"Authorization": "Bearer " + linkToken, "Content-Type": "application/json"},
			testhttp.Marshal(t, map[string]any{"tool": "generate_file", "args": map[string]any{"content": content, "filename": "links", "format": "md"}}))
		return !strings.Contains(string(r.Body), `"store_unavailable"`), fmt.Sprintf("%d %s", r.Status, r.Body)
	})
	if r.Status != 200 {
		t.Fatalf("generate_file at %s: %d %s", base, r.Status, r.Body)
	}
	signed = r.Header.Get("X-Download-Url")
	name, ok := strings.CutPrefix(signed, "/downloads/")
	name, _, _ = strings.Cut(name, "?")
	if !ok || !strings.Contains(signed, "sig=") {
		t.Fatalf("X-Download-Url %q", signed)
	}
	return name, signed
}

// download GETs the signed path at base without a token: the status and
// the body.
func download(t *testing.T, base, signed string) (int, string) {
	t.Helper()
	r := testhttp.Do(t, "GET", base+signed, nil, nil)
	return r.Status, string(r.Body)
}

// downloadAnswered is download once the store answers: a 503
// store_unavailable (the store did not answer within the replica's store
// timeout, as a just-resumed or busy gateway may not) is what a client
// retries after Retry-After, so it is retried here too, until
// fallbackDeadline; any other answer is returned at once.
func downloadAnswered(t *testing.T, base, signed string) (int, string) {
	t.Helper()
	var code int
	var body string
	pollUntil(t, "the store answers a download at "+base, func() (bool, string) {
		code, body = download(t, base, signed)
		return code != http.StatusServiceUnavailable || !strings.Contains(body, `"store_unavailable"`), fmt.Sprintf("%d %s", code, body)
	})
	return code, body
}

// linkKeySourceOf is the source label whose precisiond_download_link_key
// is 1 at base, with every sample seen.
func linkKeySourceOf(t *testing.T, base string) (string, string) {
	t.Helper()
	return oneSourceOf(t, base, "precisiond_download_link_key", fleetkey.LinkSources)
}

// oneSourceOf is the source label of the one series of metric (one a
// label of sources) that is 1 at base, or "" when not exactly one is, and
// every sample seen.
func oneSourceOf(t *testing.T, base, metric string, sources []string) (string, string) {
	t.Helper()
	var on, all []string
	for _, src := range sources {
		v := scrape(t, base, metric+`{source="`+src+`"}`)
		all = append(all, fmt.Sprintf("%s=%v", src, v))
		if v == 1 {
			on = append(on, src)
		}
	}
	if len(on) != 1 {
		return "", strings.Join(all, " ")
	}
	return on[0], strings.Join(all, " ")
}

// openStoreAt opens the S3 location loc of srv, closed when the test ends.
func openStoreAt(t *testing.T, srv *s3test.Server, loc string) blob.Store {
	t.Helper()
	l, err := blob.ParseLocation(loc)
	if err != nil {
		t.Fatal(err)
	}
	s, err := blob.Open(l, blob.Options{Getenv: srv.Getenv})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// TestFallbackLinkKeyRecoversWithoutRestart: replica B runs on an S3 store
// (the real gateway) and holds a generated file; the store is paused and
// replica A starts: A signs links with its data directory's key (one
// warning, /metrics says fallback), which A accepts and B refuses. Once the
// store answers, A signs new links with the fleet's key within its refresh
// period, without a restart (B opens them), and publishes its fallback key:
// the link A signed during the outage opens on A and on B until it expires,
// and is refused after. The clock of both signers is moved, not waited for.
func TestFallbackLinkKeyRecoversWithoutRestart(t *testing.T) {
	srv := s3test.Start(t)
	storeEnv(t, srv)
	loc := srv.Location()
	tokens := writeTokensFile(t, `{"tokens":[{"name":"links","sha256":"`+access.Hash(linkToken)+`"}]}`)
	var frozen atomic.Pointer[time.Time] // the signers' clocks: the real one until set
	clock := func() time.Time {
		if t := frozen.Load(); t != nil {
			return *t
		}
		return time.Now()
	}

	baseB, mB, _ := startLogged(t, linkReplicaConfig(t, loc, tokens))
	mB.edge.links.Signer().SetClock(clock)
	if src, all := linkKeySourceOf(t, baseB); src != fleetkey.LinkStore {
		t.Fatalf("B: /metrics says %s", all)
	}
	name, _ := generateLinked(t, baseB, "# Made before the outage\n")

	srv.Pause(t) // s3test's cleanup resumes it if the test stops early
	cfgA := linkReplicaConfig(t, loc, tokens)
	baseA, mA, logsA := startLogged(t, cfgA)
	mA.edge.links.Signer().SetClock(clock)
	if src, all := linkKeySourceOf(t, baseA); src != fleetkey.LinkFallback {
		t.Fatalf("A during the outage: /metrics says %s", all)
	}
	const warnLine = "download links are signed with this replica's fallback key"
	if n := len(logLines(logsA, "WARN", warnLine)); n != 1 {
		t.Fatalf("%d warnings about the link fallback key, want 1:\n%s", n, logsA.String())
	}
	fallbackKey, err := access.LoadOrCreateKey(filepath.Join(cfgA.DataDir, access.KeyFileName))
	if err != nil {
		t.Fatal(err)
	}
	// The link A signs during the outage, as its API signs one (a file
	// cannot be generated while the store is down: that one was made
	// before). B refuses it; A accepts its signature, and then cannot read
	// the file from the store.
	outage := "/downloads/" + name + "?" + mA.edge.links.Signer().Query(name, cfgA.DownloadTTL)
	if code, body := download(t, baseB, outage); code != http.StatusForbidden || !strings.Contains(body, access.ErrBadSignature.Error()) {
		t.Fatalf("B, the outage link: %d %s", code, body)
	}
	if code, body := download(t, baseA, outage); code == http.StatusForbidden || code == 200 {
		t.Fatalf("A, the outage link while the store is down: %d %s", code, body)
	}

	srv.Resume(t)
	pollUntil(t, "A signs links with the fleet's key after the store answers", func() (bool, string) {
		src, all := linkKeySourceOf(t, baseA)
		return src == fleetkey.LinkStore, all
	})
	_, fresh := generateLinked(t, baseA, "# Made after the outage\n")
	if code, body := downloadAnswered(t, baseB, fresh); code != 200 || body != "# Made after the outage\n" {
		t.Fatalf("B, a link A signed after the recovery: %d %s", code, body)
	}
	if code, body := downloadAnswered(t, baseA, outage); code != 200 || body != "# Made before the outage\n" {
		t.Fatalf("A, the outage link after the recovery: %d %s", code, body)
	}
	pollUntil(t, "B opens the outage link after A published its fallback key", func() (bool, string) {
		code, body := download(t, baseB, outage)
		return code == 200 && body == "# Made before the outage\n", fmt.Sprintf("%d %s", code, body)
	})

	// One info line on A, naming when its fallback key stops being
	// accepted; the store's accepted keys say the same.
	info := logLines(logsA, "INFO", "download links: the shared store answers")
	if len(info) != 1 {
		t.Fatalf("%d recovery lines, want 1:\n%s", len(info), logsA.String())
	}
	var rec struct {
		Until string `json:"fallback_accepted_until"`
	}
	if err := json.Unmarshal([]byte(info[0]), &rec); err != nil || rec.Until == "" {
		t.Fatalf("recovery line %s: %v", info[0], err)
	}
	if n := len(logLines(logsA, "WARN", "download links")); n != 1 {
		t.Errorf("%d warnings about download links, want the one at start:\n%s", n, logsA.String())
	}
	accepted, _, err := access.ReadAcceptedIn(context.Background(), openStoreAt(t, srv, loc), access.AcceptedObject, "")
	if err != nil || len(accepted) != 1 || hex.EncodeToString(accepted[0].Key) != hex.EncodeToString(fallbackKey) ||
		accepted[0].Until.UTC().Format(time.RFC3339) != rec.Until {
		t.Fatalf("the store accepts %d keys (%v), want A's fallback key until %s", len(accepted), err, rec.Until)
	}
	fleetKey, err := access.LoadOrCreateKeyIn(context.Background(), openStoreAt(t, srv, loc), access.KeyObject)
	if err != nil || string(fleetKey) == string(fallbackKey) {
		t.Fatalf("the fleet key %x (%v) and the fallback key %x", fleetKey, err, fallbackKey)
	}

	// The outage link expires an hour after A signed it: from then on both
	// refuse it as expired; from the end of the fallback key's acceptance
	// (a second or more later), as signed with a key neither holds. Links
	// with the fleet's key still open (the file lives in the store for the
	// real hour). The clocks are frozen at those moments.
	q, err := url.ParseQuery(outage[strings.IndexByte(outage, '?')+1:])
	if err != nil {
		t.Fatal(err)
	}
	exp, err := strconv.ParseInt(q.Get("exp"), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	until, err := time.Parse(time.RFC3339, rec.Until)
	if err != nil || !until.After(time.Unix(exp, 0)) {
		t.Fatalf("the fallback key is accepted until %s (%v), the outage link expires at %d", rec.Until, err, exp)
	}
	at := func(tm time.Time) { frozen.Store(&tm) }
	at(time.Unix(exp, 0).Add(-time.Nanosecond))
	for _, base := range []string{baseA, baseB} {
		if code, body := downloadAnswered(t, base, outage); code != 200 {
			t.Errorf("%s, the outage link just before its expiry: %d %s", base, code, body)
		}
	}
	at(time.Unix(exp, 0))
	for _, base := range []string{baseA, baseB} {
		if code, body := downloadAnswered(t, base, outage); code != http.StatusForbidden || !strings.Contains(body, access.ErrExpired.Error()) {
			t.Errorf("%s, the outage link at its expiry: %d %s", base, code, body)
		}
	}
	at(until)
	_, later := generateLinked(t, baseA, "# Made later\n")
	for _, base := range []string{baseA, baseB} {
		if code, body := downloadAnswered(t, base, outage); code != http.StatusForbidden || !strings.Contains(body, access.ErrBadSignature.Error()) {
			t.Errorf("%s, the outage link past the fallback key's acceptance: %d %s", base, code, body)
		}
		if code, body := downloadAnswered(t, base, later); code != 200 || body != "# Made later\n" {
			t.Errorf("%s, a link with the fleet's key: %d %s", base, code, body)
		}
	}
}

// TestFallbackLinkKeySurvivesRestart: replica A starts while the S3 store is
// paused and signs a link with its fallback key, then stops before the store
// answers (so before it could publish that key). Its data directory keeps a
// mark of until when such links may be open. Restarted once the store
// answers, A signs with the fleet's key, opens the outage link again, says so
// once, publishes the fallback key (B opens the link too) and removes the
// mark. Without the mark the link would open nowhere.
func TestFallbackLinkKeySurvivesRestart(t *testing.T) {
	srv := s3test.Start(t)
	storeEnv(t, srv)
	loc := srv.Location()
	tokens := writeTokensFile(t, `{"tokens":[{"name":"links","sha256":"`+access.Hash(linkToken)+`"}]}`)
	baseB, _, _ := startLogged(t, linkReplicaConfig(t, loc, tokens))
	name, _ := generateLinked(t, baseB, "# Made before the outage\n")

	srv.Pause(t)
	cfgA := linkReplicaConfig(t, loc, tokens)
	mA, stopA := launchMain(t, cfgA, newLogger(&syncBuffer{}, "info"))
	if src, all := linkKeySourceOf(t, "http://"+mA.Addr()); src != fleetkey.LinkFallback {
		t.Fatalf("A during the outage: /metrics says %s", all)
	}
	signedAt := time.Now()
	outage := "/downloads/" + name + "?" + mA.edge.links.Signer().Query(name, cfgA.DownloadTTL)
	stopA()
	mark := filepath.Join(cfgA.DataDir, fleetkey.MarkName)
	until, ok := fleetkey.Mark(mark).Read()
	if !ok || until.Before(signedAt.Add(cfgA.DownloadTTL)) {
		t.Fatalf("A's mark says %v (%v): it must cover the outage link's hour", until, ok)
	}
	if code, body := download(t, baseB, outage); code != http.StatusForbidden {
		t.Fatalf("B, the outage link before A published its key: %d %s", code, body)
	}

	srv.Resume(t)
	logsA := &syncBuffer{}
	mA2, _ := launchMain(t, cfgA, newLogger(logsA, "info"))
	baseA := "http://" + mA2.Addr()
	if src, all := linkKeySourceOf(t, baseA); src != fleetkey.LinkStore {
		t.Fatalf("A restarted after the outage: /metrics says %s", all)
	}
	if code, body := downloadAnswered(t, baseA, outage); code != 200 || body != "# Made before the outage\n" {
		t.Fatalf("restarted A, the outage link: %d %s", code, body)
	}
	if n := len(logLines(logsA, "INFO", "the last run signed links with this replica's fallback key")); n != 1 {
		t.Errorf("%d lines about the last run's fallback key, want 1:\n%s", n, logsA.String())
	}
	pollUntil(t, "B opens the outage link after restarted A published its fallback key", func() (bool, string) {
		code, body := download(t, baseB, outage)
		return code == 200 && body == "# Made before the outage\n", fmt.Sprintf("%d %s", code, body)
	})
	pollUntil(t, "A removes its mark once the key is published", func() (bool, string) {
		_, err := os.Stat(mark)
		return errors.Is(err, os.ErrNotExist), fmt.Sprint(err)
	})
}

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

// TestLinkKeyNeverFallsBack: a replica without an S3 store signs links with
// its data directory's key (the data_dir source) and tries no store; a
// replica given --download-signing-key whose S3 store is down at start
// signs with that key (the flag source, no warning), keeps it once the
// store answers and never writes the store's key.
func TestLinkKeyNeverFallsBack(t *testing.T) {
	tokens := writeTokensFile(t, `{"tokens":[{"name":"links","sha256":"`+access.Hash(linkToken)+`"}]}`)

	dirCfg := DefaultConfig()
	dirCfg.Addr, dirCfg.DataDir, dirCfg.IsolateTools = "127.0.0.1:0", t.TempDir(), nil
	dirCfg.Access.APITokens = tokens
	baseDir, mDir, logsDir := startLogged(t, dirCfg)
	if src, all := linkKeySourceOf(t, baseDir); src != fleetkey.LinkDataDir || mDir.edge.links.Store() != nil {
		t.Fatalf("data directory replica: /metrics says %s (store %v)", all, mDir.edge.links.Store())
	}
	onDisk, err := os.ReadFile(filepath.Join(dirCfg.DataDir, access.KeyFileName))
	if err != nil {
		t.Fatal(err)
	}
	dirKey, err := hex.DecodeString(strings.TrimSpace(string(onDisk)))
	if err != nil {
		t.Fatal(err)
	}
	if _, link := generateLinked(t, baseDir, "# On a data directory\n"); checkLinkWith(t, dirKey, time.Now(), link) != nil {
		t.Fatalf("%s is not signed with the data directory's key", link)
	}
	if n := len(logLines(logsDir, "WARN", "download links")); n != 0 {
		t.Fatalf("a data directory replica warned about download links:\n%s", logsDir.String())
	}

	srv := s3test.Start(t)
	storeEnv(t, srv)
	loc := srv.Location()
	const flagKey = "the fleet's link key, from a Secret"
	srv.Pause(t)
	cfg := linkReplicaConfig(t, loc, tokens)
	cfg.Access.DownloadSigningKey = flagKey
	base, m, logs := startLogged(t, cfg)
	if src, all := linkKeySourceOf(t, base); src != fleetkey.LinkFlag || m.edge.links.Store() != nil {
		t.Fatalf("flag replica during the outage: /metrics says %s", all)
	}
	const name = "0123456789ab_links.md"
	if err := checkLinkWith(t, []byte(flagKey), time.Now(), "/downloads/"+name+"?"+m.edge.links.Signer().Query(name, time.Hour)); err != nil {
		t.Fatalf("during the outage the flag replica signs with another key: %v", err)
	}
	srv.Resume(t)
	// The keyring's refresh reading the store shows the store answers to
	// this replica's refreshes.
	pollUntil(t, "the flag replica's keyring reads the store", func() (bool, string) {
		src, all := keyringSourceOf(t, base)
		return src == fleetkey.SourceStore, all
	})
	if src, all := linkKeySourceOf(t, base); src != fleetkey.LinkFlag {
		t.Fatalf("flag replica after the outage: /metrics says %s", all)
	}
	if _, link := generateLinked(t, base, "# Flag key\n"); checkLinkWith(t, []byte(flagKey), time.Now(), link) != nil {
		t.Fatalf("after the outage %s is not signed with the flag's key", link)
	}
	if _, err := openStoreAt(t, srv, loc).Stat(context.Background(), access.KeyObject); !errors.Is(err, blob.ErrNotFound) {
		t.Fatalf("a flag replica wrote the store's link key: %v", err)
	}
	if n := len(logLines(logs, "WARN", "download links")); n != 0 {
		t.Fatalf("a flag replica warned about download links:\n%s", logs.String())
	}
}
