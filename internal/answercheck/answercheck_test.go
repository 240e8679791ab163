package answercheck

import (
	"context"
	"crypto/rand"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/internal/access"
	"github.com/precisiond/precisiond/internal/attest"
	"github.com/precisiond/precisiond/internal/filestore"
	"github.com/precisiond/precisiond/tools"
)

// savedGCD is a genuine /invoke response of gcd_lcm, as canonical JSON, and
// the registry that answered it.
func savedGCD(t *testing.T) ([]byte, *tools.Registry) {
	t.Helper()
	reg := tools.NewRegistry(tools.Builtin(tools.Deps{}), tools.Options{})
	resp, err := reg.Call(context.Background(), "gcd_lcm", []byte(`{"a":391,"b":299}`), "")
	if err != nil {
		t.Fatal(err)
	}
	// The /invoke response's shape (README, "The evidence envelope").
	b, err := evidence.Canonical(map[string]any{"result": resp.Result, "tool": resp.Tool, "structured_result": resp.Envelope.Generic()})
	if err != nil {
		t.Fatal(err)
	}
	return b, reg
}

func TestParseSavedAnswer(t *testing.T) {
	if _, err := ParseSavedAnswer([]byte(`[1]`)); err == nil {
		t.Error("a JSON array was accepted")
	}
	if _, err := ParseSavedAnswer([]byte(`{`)); err == nil {
		t.Error("broken JSON was accepted")
	}
	a, err := ParseSavedAnswer([]byte(`{"structured_result":{"tool":"x"},"attestation":"jws"}`))
	if err != nil || a.Tool() != "x" || a.Attestation != "jws" || a.IsPlanRun() {
		t.Errorf("/invoke response: %+v %v", a, err)
	}
	a, err = ParseSavedAnswer([]byte(`{"structuredContent":{"tool":"y"},"_meta":{"` + attest.MCPMetaKey + `":"mjws"},"attestation":"no"}`))
	if err != nil || a.Tool() != "y" || a.Attestation != "mjws" {
		t.Errorf("MCP result: %+v %v", a, err)
	}
	a, err = ParseSavedAnswer([]byte(`{"tool":"z"}`))
	if err != nil || a.Tool() != "z" || a.Attestation != nil {
		t.Errorf("bare envelope: %+v %v", a, err)
	}
	if a, _ := ParseSavedAnswer([]byte(`{"plan_id":"p","runs":[]}`)); !a.IsPlanRun() {
		t.Error("a plan run is not one")
	}
}

func TestVerifyAnswer(t *testing.T) {
	saved, reg := savedGCD(t)
	own := func() (*tools.Registry, error) { return reg, nil }
	catalog, err := LoadCatalog("", "", "", own)
	if err != nil {
		t.Fatal(err)
	}
	check := func(b []byte) (AnswerCheck, error) {
		t.Helper()
		a, err := ParseSavedAnswer(b)
		if err != nil {
			t.Fatal(err)
		}
		return VerifyAnswer(a, catalog, own, nil)
	}
	got, err := check(saved)
	if err != nil || got.Tool != "gcd_lcm" || !got.TextChecked || got.SignedBy != "" ||
		len(got.ContractHash) != 64 || len(got.ResultHash) != 64 {
		t.Fatalf("genuine answer: %+v %v", got, err)
	}
	tampered := []byte(strings.Replace(string(saved), "LCM(391, 299) = 5083", "LCM(391, 299) = 9999", 1))
	if _, err := check(tampered); err == nil || !strings.Contains(err.Error(), "result text differs") {
		t.Errorf("tampered text: %v", err)
	}
	facts := []byte(strings.Replace(string(saved), `"lcm":5083`, `"lcm":5084`, 1))
	if string(facts) == string(saved) {
		t.Fatalf("no lcm fact to tamper with: %s", saved)
	}
	if _, err := check(facts); err == nil {
		t.Error("tampered facts verified")
	}
	v, _ := evidence.ParseJSON(saved)
	bare, _ := evidence.Canonical(v.(map[string]any)["structured_result"])
	if got, err := check(bare); err != nil || got.TextChecked {
		t.Errorf("bare envelope: %+v %v", got, err)
	}
	if _, err := VerifyAnswer(SavedAnswer{Doc: map[string]any{}, Envelope: map[string]any{"tool": "nope"}}, catalog, own, nil); err == nil ||
		err.Error() != `tool "nope" is not in the catalogue` {
		t.Errorf("unknown tool: %v", err)
	}
}

func TestLoadCatalog(t *testing.T) {
	own := func() (*tools.Registry, error) { t.Fatal("own catalogue read"); return nil, nil }
	file := filepath.Join(t.TempDir(), "catalog.json")
	if err := os.WriteFile(file, []byte(`{"tools":[{"name":"a"}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if list, err := LoadCatalog(file, "", "", own); err != nil || len(list) != 1 {
		t.Errorf("file: %v %v", list, err)
	}
	if err := os.WriteFile(file, []byte(`{"nothing":1}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadCatalog(file, "", "", own); err == nil || err.Error() != "catalogue has no tools list" {
		t.Errorf("no tools list: %v", err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/tools" || r.Header.Get("Authorization") != "Bearer tok" {
			http.Error(w, "no", http.StatusUnauthorized)
			return
		}
		_, _ = w.Write([]byte(`{"tools":[{"name":"a"},{"name":"b"}]}`))
	}))
	defer srv.Close()
	if list, err := LoadCatalog("", srv.URL+"/", "tok", own); err != nil || len(list) != 2 {
		t.Errorf("URL: %v %v", list, err)
	}
	if _, err := LoadCatalog("", srv.URL, "", own); err == nil || !strings.Contains(err.Error(), "answered 401") {
		t.Errorf("URL without the token: %v", err)
	}
}

// TestVerifySignedLinkText: with API tokens on, generate_file's result text
// ends with the signed link; verify accepts exactly that difference from the
// re-rendered text and nothing else.
func TestVerifySignedLinkText(t *testing.T) {
	st, err := filestore.Open(filestore.Config{Dir: filepath.Join(t.TempDir(), "dl")})
	if err != nil {
		t.Fatal(err)
	}
	reg := tools.NewRegistry(tools.Builtin(tools.Deps{Files: st}), tools.Options{})
	resp, err := reg.Call(context.Background(), "generate_file", []byte(`{"content":"# Hi","filename":"note","format":"md"}`), "")
	if err != nil {
		t.Fatal(err)
	}
	own := func() (*tools.Registry, error) { return reg, nil }
	catalog, err := LoadCatalog("", "", "", own)
	if err != nil {
		t.Fatal(err)
	}
	name := resp.Envelope.Facts()["filename"].(string)
	signer, err := access.NewSigner([]byte("0123456789abcdef0123456789abcdef"))
	if err != nil {
		t.Fatal(err)
	}
	query := signer.Query(name, time.Hour)
	check := func(text string) error {
		b, err := evidence.Canonical(map[string]any{"result": text, "tool": resp.Tool, "structured_result": resp.Envelope.Generic()})
		if err != nil {
			t.Fatal(err)
		}
		a, err := ParseSavedAnswer(b)
		if err != nil {
			t.Fatal(err)
		}
		_, err = VerifyAnswer(a, catalog, own, nil)
		return err
	}
	if !strings.HasSuffix(resp.Result, "/downloads/"+name) {
		t.Fatalf("result text %q does not end with the link", resp.Result)
	}
	for _, ok := range []string{resp.Result, resp.Result + "?" + query} {
		if err := check(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	exp, sig, _ := strings.Cut(strings.TrimPrefix(query, "exp="), "&sig=")
	for _, bad := range []string{
		resp.Result + "?" + query + "x",                  // a longer signature
		resp.Result + "?exp=" + exp + "&sig=" + sig[:42], // a shorter one
		resp.Result + "?exp=" + exp + "x&sig=" + sig,     // a non-numeric expiry
		resp.Result + "?sig=" + sig + "&exp=" + exp,      // another order than the service's
		resp.Result + "?" + query + "&evil=1",            // anything more
		strings.Replace(resp.Result, "note", "other", 1) + "?" + query,
	} {
		if err := check(bad); err == nil || !strings.Contains(err.Error(), "result text differs") {
			t.Errorf("%q verified: %v", bad, err)
		}
	}
}

// TestLoadKeySet: --jwks reads a file or a URL; a server's base URL reads its
// /.well-known/jwks.json; what is not a key set is refused with the argument
// named.
func TestLoadKeySet(t *testing.T) {
	key, err := attest.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	jwks := attest.NewKeyring(key, attest.InStore, time.Now()).JWKS(time.Now())
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != attest.JWKSPath {
			http.NotFound(w, r)
			return
		}
		_, _ = w.Write(jwks)
	}))
	defer srv.Close()
	file := filepath.Join(t.TempDir(), "jwks.json")
	if err := os.WriteFile(file, jwks, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, arg := range []string{file, srv.URL, srv.URL + "/", srv.URL + attest.JWKSPath} {
		if ks, err := LoadKeySet(arg); err != nil || ks == nil {
			t.Errorf("%s: %v", arg, err)
		}
	}
	if err := os.WriteFile(file, []byte(`{"keys":"no"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, arg := range []string{file, srv.URL + "/elsewhere", filepath.Join(t.TempDir(), "missing")} {
		if _, err := LoadKeySet(arg); err == nil || !strings.Contains(err.Error(), "--jwks") {
			t.Errorf("%s: %v", arg, err)
		}
	}
}
