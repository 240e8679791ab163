package main

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/pem"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/precisiond/precisiond/internal/access"
	"github.com/precisiond/precisiond/internal/answercheck"
	"github.com/precisiond/precisiond/internal/testhttp"
)

// TestStartupRefusesPublicAddressWithoutTokens: serve on a non-loopback
// address without --api-tokens exits 2 with a message that says how to
// configure tokens; --insecure-no-auth or a tokens file lets it start.
func TestStartupRefusesPublicAddressWithoutTokens(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"serve", "--addr", "0.0.0.0:0", "--data-dir", dir},
		{"--addr", "[::]:0", "--data-dir", dir},
		{"serve", "--addr", ":0", "--data-dir", dir},
	} {
		var stderr bytes.Buffer
		code := run(args, strings.NewReader(""), io.Discard, &stderr, func(string) string { return "" })
		msg := stderr.String()
		if code != 2 || !strings.Contains(msg, "without API tokens") || !strings.Contains(msg, "precisiond token new") ||
			!strings.Contains(msg, "--api-tokens") || !strings.Contains(msg, "--insecure-no-auth") {
			t.Errorf("%v: exit %d, stderr %q", args, code, msg)
		}
	}
	// The environment variable counts as the flag does.
	var stderr bytes.Buffer
	env := map[string]string{"PRECISIOND_ADDR": "0.0.0.0:0", "PRECISIOND_DATA_DIR": dir}
	if code := run([]string{"serve"}, strings.NewReader(""), io.Discard, &stderr, func(k string) string { return env[k] }); code != 2 {
		t.Errorf("PRECISIOND_ADDR=0.0.0.0:0: exit %d", code)
	}

	tokens := writeTokensFile(t, `{"tokens":[{"name":"a","sha256":"`+access.Hash("tok")+`"}]}`)
	for _, extra := range [][]string{{"--insecure-no-auth"}, {"--api-tokens", tokens}} {
		cfg, _, err := loadConfig("serve", append([]string{"--addr", "0.0.0.0:0", "--data-dir", dir}, extra...), func(string) string { return "" })
		if err != nil {
			t.Fatal(err)
		}
		m, err := NewMain(cfg, newLogger(io.Discard, "error"))
		if err != nil {
			t.Errorf("%v: %v", extra, err)
			continue
		}
		m.Close()
	}
	// A broken tokens file stops the start.
	bad := writeTokensFile(t, `{"tokens":[{"name":"a","sha256":"nothex"}]}`)
	cfg := DefaultConfig()
	cfg.DataDir, cfg.Access.APITokens = dir, bad
	if _, err := NewMain(cfg, newLogger(io.Discard, "error")); err == nil || !strings.Contains(err.Error(), "--api-tokens") {
		t.Errorf("broken tokens file: %v", err)
	}
	cfg.Access.APITokens, cfg.Access.DownloadSigningKey = tokens, "short"
	if _, err := NewMain(cfg, newLogger(io.Discard, "error")); err == nil || !strings.Contains(err.Error(), "--download-signing-key") {
		t.Errorf("a 5-byte signing key: %v", err)
	}
}

func writeTokensFile(t *testing.T, doc string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "tokens.json")
	if err := os.WriteFile(p, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestTokenNew: `precisiond token new` prints a token and a line the tokens
// file accepts; a server given that line admits the token (and its scope).
func TestTokenNew(t *testing.T) {
	var out, stderr bytes.Buffer
	if code := run([]string{"token", "new", "ci-bot", "--scope", "gcd_*", "--rate", "60"}, nil, &out, &stderr, nil); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], access.TokenPrefix) {
		t.Fatalf("output %q", out.String())
	}
	set, err := access.Parse([]byte(`{"tokens":[` + lines[1] + `]}`))
	if err != nil {
		t.Fatal(err)
	}
	tok := set.Authenticate(lines[0])
	if tok == nil || tok.Name != "ci-bot" || tok.RatePerMinute != 60 || !tok.Allows("gcd_lcm") || tok.Allows("hash_text") {
		t.Fatalf("entry %+v from %s", tok, lines[1])
	}
	if strings.Contains(lines[1], lines[0]) {
		t.Fatal("the file line contains the token itself")
	}
	for _, bad := range [][]string{{"token"}, {"token", "old", "x"}, {"token", "new", "bad name"}, {"token", "new", "x", "--rate", "-1"}} {
		if code := run(bad, nil, io.Discard, io.Discard, nil); code != 2 {
			t.Errorf("%v: exit %d", bad, code)
		}
	}

	path := writeTokensFile(t, `{"tokens":[`+lines[1]+`]}`)
	base, _ := startMain(t, func(c *Config) { c.Access.APITokens = path })
	auth := map[string]string{"Authorization": "Bearer " + lines[0], "Content-Type": "application/json"}
	if r := testhttp.Do(t, "GET", base+"/tools", nil, nil); r.Status != http.StatusUnauthorized {
		t.Errorf("no token: %d", r.Status)
	}
	if r := testhttp.Do(t, "POST", base+"/v1/invoke", auth, []byte(`{"tool":"gcd_lcm","args":{"a":4,"b":6}}`)); r.Status != 200 {
		t.Errorf("in scope: %d %s", r.Status, r.Body)
	}
	if r := testhttp.Do(t, "POST", base+"/v1/invoke", auth, []byte(`{"tool":"hash_text","args":{"text":"x"}}`)); r.Status != http.StatusForbidden {
		t.Errorf("out of scope: %d %s", r.Status, r.Body)
	}
	if r := testhttp.Do(t, "GET", base+"/health", nil, nil); r.Status != 200 {
		t.Errorf("/health: %d", r.Status)
	}
	// verify --url reads the catalogue with PRECISIOND_API_TOKEN (under -race
	// on a loaded machine that can take longer than the commands' 5 s).
	defer func(d time.Duration) { answercheck.FetchTimeout = d }(answercheck.FetchTimeout)
	answercheck.FetchTimeout = testhttp.Timeout
	resp := testhttp.Do(t, "POST", base+"/invoke", auth, []byte(`{"tool":"gcd_lcm","args":{"a":4,"b":6}}`)).OK(t)
	verify := func() int {
		return run([]string{"verify", "--url", base}, bytes.NewReader(resp), io.Discard, io.Discard, func(string) string { return "" })
	}
	if code := verify(); code == 0 {
		t.Error("verify --url without a token succeeded against a server with tokens")
	}
	t.Setenv("PRECISIOND_API_TOKEN", lines[0])
	if code := verify(); code != 0 {
		t.Errorf("verify --url with PRECISIOND_API_TOKEN: exit %d", code)
	}
}

// TestTokensFileFollowed: a changed tokens file takes effect without a
// restart (the watcher), and Reload (SIGHUP) applies it at once.
func TestTokensFileFollowed(t *testing.T) {
	path := writeTokensFile(t, `{"tokens":[{"name":"old","sha256":"`+access.Hash("old-token")+`"}]}`)
	base, m := startMain(t, func(c *Config) { c.Access.APITokens = path })
	status := func(tok string) int {
		return testhttp.Do(t, "GET", base+"/tools", map[string]string{"Authorization": "Bearer " + tok}, nil).Status
	}
	if status("old-token") != 200 || status("new-token") != 401 {
		t.Fatal("initial tokens")
	}
	// Rotation: add the new token, then remove the old one.
	if err := os.WriteFile(path, []byte(`{"tokens":[{"name":"old","sha256":"`+access.Hash("old-token")+`"},{"name":"new","sha256":"`+access.Hash("new-token")+`"}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	m.Reload()
	if status("old-token") != 200 || status("new-token") != 200 {
		t.Fatal("after adding the new token both must work")
	}
	if err := os.WriteFile(path, []byte(`{"tokens":[{"name":"new","sha256":"`+access.Hash("new-token")+`"}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	// No Reload: the watcher notices within its interval.
	for deadline := time.Now().Add(60 * time.Second); status("old-token") != 401; time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the removed token still works a minute after the file changed")
		}
	}
	if status("new-token") != 200 {
		t.Fatal("the new token stopped working")
	}
}

// selfSigned writes a new self-signed certificate for 127.0.0.1 and
// returns its files and serial number.
func selfSigned(t *testing.T, dir string, serial int64) (certFile, keyFile string, der []byte) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(serial),
		Subject:      pkix.Name{CommonName: "precisiond test"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		IPAddresses:  []net.IP{net.ParseIP("127.0.0.1")},
		DNSNames:     []string{"localhost"},
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err = x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kb, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: kb}), 0o600); err != nil {
		t.Fatal(err)
	}
	return certFile, keyFile, der
}

// tlsGet fetches url trusting only the certificate der, on a new connection,
// over HTTP/2, and returns the status and the serial number the server
// presented.
func tlsGet(t *testing.T, url string, der []byte, hdr map[string]string) (int, int64, error) {
	t.Helper()
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	c := &http.Client{Timeout: testhttp.Timeout, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}, DisableKeepAlives: true, ForceAttemptHTTP2: true}}
	req, _ := http.NewRequest("GET", url, nil)
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := c.Do(req)
	if err != nil {
		return 0, 0, err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	if resp.ProtoMajor != 2 {
		t.Errorf("%s: served over %s, want HTTP/2", url, resp.Proto)
	}
	return resp.StatusCode, resp.TLS.PeerCertificates[0].SerialNumber.Int64(), nil
}

// TestTLS serves HTTPS with a self-signed certificate made here, answers a
// plain-HTTP request with 400, and serves a replaced certificate after Reload.
func TestTLS(t *testing.T) {
	dir := t.TempDir()
	certFile, keyFile, der := selfSigned(t, dir, 1)
	tokens := writeTokensFile(t, `{"tokens":[{"name":"a","sha256":"`+access.Hash("tok")+`"}]}`)
	_, m := startMain(t, func(c *Config) { c.Access.TLSCert, c.Access.TLSKey, c.Access.APITokens = certFile, keyFile, tokens })
	base := "https://" + m.Addr()
	status, serial, err := tlsGet(t, base+"/health", der, nil)
	if err != nil || status != 200 || serial != 1 {
		t.Fatalf("https /health: %d serial %d %v", status, serial, err)
	}
	if status, _, err := tlsGet(t, base+"/tools", der, map[string]string{"Authorization": "Bearer tok"}); err != nil || status != 200 {
		t.Fatalf("https /tools with a token: %d %v", status, err)
	}
	if status, _, err := tlsGet(t, base+"/tools", der, nil); err != nil || status != 401 {
		t.Fatalf("https /tools without a token: %d %v", status, err)
	}
	// `precisiond health` (the container's HEALTHCHECK) probes over HTTPS.
	var out, errOut bytes.Buffer
	if code := run([]string{"health", "--addr", m.Addr(), "--tls-cert", certFile, "--tls-key", keyFile}, nil, &out, &errOut, func(string) string { return "" }); code != 0 {
		t.Errorf("precisiond health over TLS: exit %d %s", code, errOut.String())
	}
	if code := run([]string{"health", "--addr", m.Addr()}, nil, io.Discard, io.Discard, func(string) string { return "" }); code == 0 {
		t.Error("precisiond health over plain HTTP to a TLS port succeeded")
	}
	if r := testhttp.Do(t, "GET", "http://"+m.Addr()+"/health", nil, nil); r.Status != http.StatusBadRequest {
		t.Errorf("plain HTTP to the TLS port: %d", r.Status)
	}
	_, _, der2 := selfSigned(t, dir, 2)
	if _, _, err := tlsGet(t, base+"/health", der2, nil); err == nil {
		t.Fatal("the new certificate is served before the reload")
	}
	m.Reload()
	if status, serial, err := tlsGet(t, base+"/health", der2, nil); err != nil || status != 200 || serial != 2 {
		t.Fatalf("after reload: %d serial %d %v", status, serial, err)
	}
	// A broken pair keeps the current certificate.
	if err := os.WriteFile(keyFile, []byte("garbage"), 0o600); err != nil {
		t.Fatal(err)
	}
	m.Reload()
	if status, serial, err := tlsGet(t, base+"/health", der2, nil); err != nil || status != 200 || serial != 2 {
		t.Fatalf("after a broken reload: %d serial %d %v", status, serial, err)
	}

	cfg := DefaultConfig()
	cfg.Access.TLSCert = certFile
	if err := checkExposure(cfg); err == nil {
		t.Error("--tls-cert without --tls-key accepted")
	}
}

// TestBinarySIGHUP runs the binary with TLS and API tokens on loopback,
// replaces the certificate and the tokens file and sends SIGHUP: the new
// certificate is served and the new token admitted.
func TestBinarySIGHUP(t *testing.T) {
	bin := buildBinary(t)
	dir := t.TempDir()
	certFile, keyFile, der := selfSigned(t, dir, 10)
	tokens := writeTokensFile(t, `{"tokens":[{"name":"a","sha256":"`+access.Hash("tok-a")+`"}]}`)
	srv := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--data-dir", t.TempDir(), "--tls-cert", certFile, "--tls-key", keyFile, "--api-tokens", tokens)
	stderr := &syncBuffer{}
	srv.Stderr = stderr
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = srv.Process.Kill(); _ = srv.Wait() }()
	base := "https://" + testhttp.ListenAddr(t, stderr)
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if status, _, err := tlsGet(t, base+"/health", der, nil); err == nil && status == 200 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("server did not come up: %s", stderr.String())
		}
	}
	_, _, der2 := selfSigned(t, dir, 11)
	if err := srv.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if _, serial, err := tlsGet(t, base+"/health", der2, nil); err == nil && serial == 11 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the certificate was not reloaded on SIGHUP: %s", stderr.String())
		}
	}
	if !strings.Contains(stderr.String(), "TLS certificate reloaded") {
		t.Errorf("no reload logged: %s", stderr.String())
	}
	if err := os.WriteFile(tokens, []byte(`{"tokens":[{"name":"b","sha256":"`+access.Hash("tok-b")+`"}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := srv.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if status, _, err := tlsGet(t, base+"/tools", der2, map[string]string{"Authorization": "Bearer tok-b"}); err == nil && status == 200 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the new token was not admitted: %s", stderr.String())
		}
	}
	if status, _, _ := tlsGet(t, base+"/tools", der2, map[string]string{"Authorization": "Bearer tok-a"}); status != 401 {
		t.Errorf("the removed token: %d", status)
	}
}

// TestSignedLinkInResultText: with an API token on the real binary, the
// legacy result text of generate_file ends with the signed link (a person
// clicking it has no token), the link downloads without a header, and
// `precisiond verify` accepts the answer, re-rendering the text but for the
// signature; any other change to the text fails.
func TestSignedLinkInResultText(t *testing.T) {
	tokens := writeTokensFile(t, `{"tokens":[{"name":"a","sha256":"`+access.Hash("tok")+`"}]}`)
	base, _, _ := startBinary(t, "--api-tokens", tokens)
	r := testhttp.Do(t, "POST", base+"/invoke", map[string]string{"Authorization": "Bearer tok", "Content-Type": "application/json"},
		[]byte(`{"tool":"generate_file","args":{"content":"# Link\n","filename":"link","format":"md"}}`))
	link := r.Header.Get("X-Download-Url")
	text, _ := r.JSON(t)["result"].(string)
	if r.Status != 200 || link == "" || !strings.HasSuffix(text, "\nDownload: "+link) {
		t.Fatalf("generate_file: %d X-Download-Url %q result %q", r.Status, link, text)
	}
	if got := testhttp.Do(t, "GET", base+link, nil, nil); got.Status != 200 {
		t.Errorf("the link in the text: %d", got.Status)
	}
	if code, out := runVerify(r.Body); code != 0 || !strings.Contains(out, "result text re-rendered") {
		t.Errorf("verify of the signed text: exit %d: %s", code, out)
	}
	forged := bytes.Replace(r.Body, []byte("&sig="), []byte("&evil=1&sig="), 1)
	if code, out := runVerify(forged); code == 0 || !strings.Contains(out, "result text differs") {
		t.Errorf("verify of a text with more than the signature: exit %d: %s", code, out)
	}
}

// TestSignedLinkInChromium generates a file with an API token on the real
// binary, then opens its signed link in headless Chromium (no Authorization
// header): it downloads with the right bytes, while a tampered link and an
// expired one (signed with the deployment's key, expiry in the past) get 403
// and the bare path 401.
func TestSignedLinkInChromium(t *testing.T) {
	b := newBrowserTest(t)
	const key = "browser test signing key 32 byte"
	tokens := writeTokensFile(t, `{"tokens":[{"name":"a","sha256":"`+access.Hash("tok")+`"}]}`)
	base, _, logs := startBinary(t, "--api-tokens", tokens, "--download-signing-key", key)
	r := testhttp.Do(t, "POST", base+"/v1/invoke", map[string]string{"Authorization": "Bearer tok", "Content-Type": "application/json"},
		[]byte(`{"tool":"generate_file","args":{"content":"# Browser\n\nA signed link.\n","filename":"browser","format":"docx"}}`))
	link := r.Header.Get("X-Download-Url")
	if r.Status != 200 || link == "" {
		t.Fatalf("generate_file: %d %q %s", r.Status, link, r.Body)
	}
	facts := r.JSON(t)["structured_result"].(map[string]any)["facts"].(map[string]any)
	unsigned := facts["download_path"].(string)
	name := strings.TrimPrefix(unsigned, "/downloads/")
	got := testhttp.Do(t, "GET", base+link, nil, nil)
	if got.Status != 200 {
		t.Fatalf("signed link from Go: %d", got.Status)
	}
	sum := sha256.Sum256(got.Body)
	signer, err := access.NewSigner([]byte(key))
	if err != nil {
		t.Fatal(err)
	}
	signer.SetClock(func() time.Time { return time.Now().Add(-48 * time.Hour) })
	expired := unsigned + "?" + signer.Query(name, time.Hour)
	tampered := strings.Replace(link, "&sig=", "&sig=A", 1)

	cmd := exec.Command(b.node, "download.test.mjs")
	cmd.Dir = b.uiDir
	cmd.Env = append(os.Environ(),
		"SIGNED_URL="+base+link, "TAMPERED_URL="+base+tampered, "EXPIRED_URL="+base+expired, "UNSIGNED_URL="+base+unsigned,
		"WANT_SHA256="+hex.EncodeToString(sum[:]), "USER_DATA_DIR="+t.TempDir(), "CHROMIUM="+b.chromium)
	out, err := cmd.CombinedOutput()
	t.Logf("browser:\n%s", out)
	if err != nil || !strings.Contains(string(out), "SIGNED-LINKS OK") {
		t.Fatalf("browser download failed: %v\nserver log:\n%s", err, logs.String())
	}
}

// TestOwnersSurviveRestart: which token generated a file is kept in the data
// directory, so after a restart the file is still its token's (a bearer
// download and MCP resources) and still not another's.
func TestOwnersSurviveRestart(t *testing.T) {
	dir := t.TempDir()
	tokens := writeTokensFile(t, `{"tokens":[{"name":"a","sha256":"`+access.Hash("tok-a")+`"},{"name":"b","sha256":"`+access.Hash("tok-b")+`"}]}`)
	cfg := DefaultConfig()
	cfg.Addr, cfg.DataDir, cfg.Access.APITokens = "127.0.0.1:0", dir, tokens
	m, stop := launchMain(t, cfg, newLogger(io.Discard, "error"))
	base := "http://" + m.Addr()
	r := testhttp.Do(t, "POST", base+"/v1/invoke", map[string]string{"Authorization": "Bearer tok-a", "Content-Type": "application/json"},
		[]byte(`{"tool":"generate_file","args":{"content":"# Kept\n","filename":"kept","format":"md"}}`))
	path := r.JSON(t)["structured_result"].(map[string]any)["facts"].(map[string]any)["download_path"].(string)
	stop()

	m2, _ := launchMain(t, cfg, newLogger(io.Discard, "error"))
	base = "http://" + m2.Addr()
	if r := testhttp.Do(t, "GET", base+path, map[string]string{"Authorization": "Bearer tok-a"}, nil); r.Status != 200 {
		t.Errorf("the owner after a restart: %d %s", r.Status, r.Body)
	}
	if r := testhttp.Do(t, "GET", base+path, map[string]string{"Authorization": "Bearer tok-b"}, nil); r.Status != http.StatusForbidden {
		t.Errorf("another token after a restart: %d", r.Status)
	}
}
