// Package oauthtest starts a real OpenID Connect provider for the OAuth
// tests: the example server of github.com/zitadel/oidc (Apache-2.0), an
// OP with in-memory storage that issues opaque access tokens, checked by
// introspection. Without the binary the tests skip on a developer machine
// and FAIL under CI=true (.ci/run installs it):
//
//	go install github.com/zitadel/oidc/v3/example/server@v3.52.0
//
// What the example server holds (its storage package, read from its
// source): the confidential web client "api" with secret "secret" (basic
// client authentication, authorization code grant, redirect URIs from
// REDIRECT_URI), the user "test-user@localhost" with password "verysecure",
// access tokens that live 5 minutes with the client id as their audience,
// introspection answered to a client named in that audience, and custom
// scopes dropped from authorization requests (only openid, profile, email,
// phone, address, offline_access and custom_scope survive).
package oauthtest

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/precisiond/precisiond/internal/gobin"
)

// Install is the command that installs the provider.
const Install = "go install github.com/zitadel/oidc/v3/example/server@v3.52.0"

// The example server's client and user (see the package comment).
const (
	ClientID     = "api"
	ClientSecret = "secret"
	Username     = "test-user@localhost"
	Password     = "verysecure"
	RedirectURI  = "http://127.0.0.1:1/callback" // never dialled: the code is read from the redirect
)

// Binary finds the example server ("server" in $GOBIN or $GOPATH/bin: go
// install names it after its directory). Without it the test is skipped,
// or fails when CI=true. With -short it is skipped.
func Binary(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("slow: starts the zitadel example OpenID provider; runs without -short")
	}
	if p := gobin.Find("server"); p != "" {
		return p
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("the zitadel example OpenID provider is not installed ($GOBIN or $GOPATH/bin/server); CI must run: %s", Install)
	}
	t.Skipf("SKIPPING the OpenID provider tests: run `%s` to test against a real provider", Install)
	return ""
}

// Provider is one running example server.
type Provider struct {
	// Issuer is its issuer identifier, http://localhost:PORT/ (the server
	// builds it from the port and the name localhost).
	Issuer string
	cmd    *exec.Cmd
	log    string
}

// Start starts the provider on a free loopback port and waits until its
// discovery document answers; it is killed when the test ends. The port is
// one the kernel just handed out and released (the server takes a port
// number): if another process took it meanwhile, it starts again.
func Start(t testing.TB) *Provider {
	t.Helper()
	bin := Binary(t)
	dir := t.TempDir()
	for attempt := 1; attempt <= 3; attempt++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		port := strings.TrimPrefix(l.Addr().String(), "127.0.0.1:")
		_ = l.Close()
		p := &Provider{Issuer: "http://localhost:" + port + "/", log: filepath.Join(dir, "op.log")}
		logf, err := os.Create(p.log)
		if err != nil {
			t.Fatal(err)
		}
		p.cmd = exec.Command(bin)
		p.cmd.Env = append(os.Environ(), "PORT="+port, "REDIRECT_URI="+RedirectURI)
		p.cmd.Stdout, p.cmd.Stderr = logf, logf
		p.cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
		if err := p.cmd.Start(); err != nil {
			_ = logf.Close()
			t.Fatal(err)
		}
		_ = logf.Close()
		exited := make(chan struct{})
		go func() { _ = p.cmd.Wait(); close(exited) }()
		t.Cleanup(func() { _ = p.cmd.Process.Kill(); <-exited })
		if p.waitReady(exited) {
			return p
		}
		b, _ := os.ReadFile(p.log)
		if !bytes.Contains(b, []byte("address already in use")) {
			t.Fatalf("the OpenID provider did not start:\n%s", b)
		}
	}
	t.Fatal("the OpenID provider found its port taken 3 times")
	return nil
}

// waitReady polls the discovery document until it answers (true) or the
// process exits (false). No deadline: a loaded machine only makes it slower.
func (p *Provider) waitReady(exited <-chan struct{}) bool {
	for {
		select {
		case <-exited:
			return false
		default:
		}
		resp, err := http.Get(p.Issuer + ".well-known/openid-configuration")
		if err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			_ = resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return true
			}
		}
		select {
		case <-exited:
			return false
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// Discovery is the provider's discovery document.
func (p *Provider) Discovery(t testing.TB) map[string]any {
	t.Helper()
	resp, err := http.Get(p.Issuer + ".well-known/openid-configuration")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var doc map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

var formID = regexp.MustCompile(`name="id" value="([^"]+)"`)

// Token runs the authorization code flow as client "api" for the test user
// (the login form posted as a browser would) and returns the opaque access
// token.
func (p *Provider) Token(t testing.TB, scope string) string {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	var code string
	hc := &http.Client{Jar: jar, CheckRedirect: func(req *http.Request, _ []*http.Request) error {
		if strings.HasPrefix(req.URL.String(), RedirectURI) {
			code = req.URL.Query().Get("code")
			return http.ErrUseLastResponse
		}
		return nil
	}}
	q := url.Values{"client_id": {ClientID}, "redirect_uri": {RedirectURI}, "response_type": {"code"}, "scope": {scope}, "state": {"s1"}}
	doc := p.Discovery(t)
	authz, _ := doc["authorization_endpoint"].(string)
	resp, err := hc.Get(authz + "?" + q.Encode())
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	m := formID.FindSubmatch(page)
	if m == nil {
		t.Fatalf("no login form at %s (HTTP %d):\n%s", resp.Request.URL, resp.StatusCode, page)
	}
	login := url.Values{"id": {string(m[1])}, "username": {Username}, "password": {Password}}
	resp, err = hc.PostForm(resp.Request.URL.Scheme+"://"+resp.Request.URL.Host+"/login/username", login)
	if err != nil {
		t.Fatal(err)
	}
	page, _ = io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if code == "" {
		t.Fatalf("the login did not redirect with a code (HTTP %d):\n%s", resp.StatusCode, page)
	}
	form := url.Values{"grant_type": {"authorization_code"}, "code": {code}, "redirect_uri": {RedirectURI}}
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	tokenURL, _ := doc["token_endpoint"].(string)
	p.post(t, tokenURL, form, &tok)
	if tok.AccessToken == "" {
		t.Fatal("the token endpoint returned no access_token")
	}
	return tok.AccessToken
}

// Revoke revokes an access token (RFC 7009) as client "api".
func (p *Provider) Revoke(t testing.TB, token string) {
	t.Helper()
	revoke, _ := p.Discovery(t)["revocation_endpoint"].(string)
	p.post(t, revoke, url.Values{"token": {token}, "token_type_hint": {"access_token"}}, nil)
}

func (p *Provider) post(t testing.TB, path string, form url.Values, dst any) {
	t.Helper()
	req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, path, strings.NewReader(form.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(ClientID, ClientSecret)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("POST %s: HTTP %d: %s", path, resp.StatusCode, b)
	}
	if dst != nil {
		if err := json.Unmarshal(b, dst); err != nil {
			t.Fatalf("POST %s: %v: %s", path, err, b)
		}
	}
}
