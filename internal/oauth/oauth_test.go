package oauth

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4/jwt"

	"github.com/precisiond/precisiond/internal/oauthtest"
)

const resource = "https://precisiond.example/mcp"

func claims(is *oauthtest.Issuer, d time.Duration) jwt.Claims { return is.Claims(resource, d) }

func newVerifier(t *testing.T, is *oauthtest.Issuer) *Verifier {
	t.Helper()
	v, err := New(Config{Issuer: is.URL(), Resource: resource, ClientID: "rs", ClientSecret: oauthtest.IntrospectSecret})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func wantRefusal(t *testing.T, err error, kind Kind, reason string) {
	t.Helper()
	var oe *Error
	if !errors.As(err, &oe) {
		t.Fatalf("err = %v, want an *oauth.Error %s", err, reason)
	}
	if oe.Kind != kind || oe.Reason != reason {
		t.Fatalf("refusal = kind %d reason %q (%s), want kind %d reason %q", oe.Kind, oe.Reason, oe.Msg, kind, reason)
	}
}

func TestVerifyJWT(t *testing.T) {
	is := oauthtest.NewIssuer(t)
	v := newVerifier(t, is)
	ctx := context.Background()
	good := is.Sign(t, claims(is, time.Hour), map[string]any{"scope": "precisiond:tools precisiond:admin", "client_id": "claude"}, "")
	c, err := v.Verify(ctx, good)
	if err != nil {
		t.Fatal(err)
	}
	if c.Subject != "alice" || c.ClientID != "claude" || len(c.Scopes) != 2 || c.Scopes[0] != "precisiond:tools" {
		t.Fatalf("claims = %+v", c)
	}
	wrongAud := claims(is, time.Hour)
	wrongAud.Audience = jwt.Audience{"https://other.example/mcp"}
	noAud := claims(is, time.Hour)
	noAud.Audience = nil
	expired := claims(is, -time.Hour)
	future := claims(is, 2*time.Hour)
	future.NotBefore = jwt.NewNumericDate(time.Now().Add(time.Hour))
	wrongIss := claims(is, time.Hour)
	wrongIss.Issuer = "https://evil.example"
	noExp := claims(is, time.Hour)
	noExp.Expiry = nil
	for _, tc := range []struct {
		name, token, reason string
	}{
		{"wrong audience", is.Sign(t, wrongAud, nil, ""), "wrong_audience"},
		{"no audience", is.Sign(t, noAud, nil, ""), "wrong_audience"},
		{"expired", is.Sign(t, expired, nil, ""), "expired"},
		{"not yet valid", is.Sign(t, future, nil, ""), "not_yet_valid"},
		{"wrong issuer", is.Sign(t, wrongIss, nil, ""), "wrong_issuer"},
		{"no exp", is.Sign(t, noExp, nil, ""), "no_expiry"},
		{"tampered", good[:len(good)-4] + "AAAA", "bad_signature"},
		{"not a JWT", "a.b.c", "malformed"},
		{"empty", "", "malformed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := v.Verify(ctx, tc.token)
			wantRefusal(t, err, Invalid, tc.reason)
		})
	}
}

// TestKeyRotation: a token signed by a key the verifier has not seen makes
// it fetch the key set again, once; a made-up kid right after does not
// cause another fetch.
func TestKeyRotation(t *testing.T) {
	is := oauthtest.NewIssuer(t)
	v := newVerifier(t, is)
	ctx := context.Background()
	if _, err := v.Verify(ctx, is.Sign(t, claims(is, time.Hour), nil, "")); err != nil {
		t.Fatal(err)
	}
	if got := is.KeyFetches.Load(); got != 1 {
		t.Fatalf("key fetches = %d, want 1", got)
	}
	is.Rotate(t, true)
	if _, err := v.Verify(ctx, is.Sign(t, claims(is, time.Hour), nil, "")); err != nil {
		t.Fatalf("token of the rotated key: %v", err)
	}
	if got := is.KeyFetches.Load(); got != 2 {
		t.Fatalf("key fetches = %d, want 2 (one refresh for the new kid)", got)
	}
	_, err := v.Verify(ctx, is.Sign(t, claims(is, time.Hour), nil, "made-up"))
	wantRefusal(t, err, Invalid, "unknown_key")
	if got := is.KeyFetches.Load(); got != 2 {
		t.Fatalf("key fetches = %d, want still 2 (refreshes are rate limited)", got)
	}
}

// TestCacheByHash: a verified token is not verified again until it expires,
// so the issuer is not needed for it any more; without the cache, the keys
// fetched before still verify it.
func TestCacheByHash(t *testing.T) {
	is := oauthtest.NewIssuer(t)
	v := newVerifier(t, is)
	tok := is.Sign(t, claims(is, time.Hour), nil, "")
	if _, err := v.Verify(context.Background(), tok); err != nil {
		t.Fatal(err)
	}
	is.Srv.Close()
	if _, err := v.Verify(context.Background(), tok); err != nil {
		t.Fatalf("cached token: %v", err)
	}
	v.Forget()
	if _, err := v.Verify(context.Background(), tok); err != nil {
		t.Fatalf("token verified with the cached keys: %v", err)
	}
	if got := is.KeyFetches.Load(); got != 1 {
		t.Fatalf("key fetches = %d, want 1", got)
	}
	_, err := v.Verify(context.Background(), is.Sign(t, claims(is, time.Hour), nil, "new-kid"))
	wantRefusal(t, err, Unavailable, "keys_unreachable")
}

func TestIssuerDown(t *testing.T) {
	is := oauthtest.NewIssuer(t)
	tok := is.Sign(t, claims(is, time.Hour), nil, "")
	t.Run("keys fail", func(t *testing.T) {
		v := newVerifier(t, is)
		is.KeysFail.Store(true)
		defer is.KeysFail.Store(false)
		_, err := v.Verify(context.Background(), tok)
		wantRefusal(t, err, Unavailable, "keys_unreachable")
	})
	t.Run("closed", func(t *testing.T) {
		v := newVerifier(t, is)
		is.Srv.Close()
		_, err := v.Verify(context.Background(), tok)
		wantRefusal(t, err, Unavailable, "issuer_unreachable")
		_, err = v.Verify(context.Background(), "opaque-token")
		wantRefusal(t, err, Unavailable, "issuer_unreachable")
	})
}

// TestFailFast: while the issuer is down, tokens are refused from memory
// for failFast instead of each request waiting on the network; after it
// the issuer is asked again.
func TestFailFast(t *testing.T) {
	is := oauthtest.NewIssuer(t)
	var now atomic.Int64
	now.Store(time.Now().UnixNano())
	v, err := New(Config{Issuer: is.URL(), Resource: resource, Now: func() time.Time { return time.Unix(0, now.Load()) }})
	if err != nil {
		t.Fatal(err)
	}
	is.KeysFail.Store(true)
	tok := is.Sign(t, claims(is, time.Hour), nil, "")
	for range 3 {
		_, err := v.Verify(context.Background(), tok)
		wantRefusal(t, err, Unavailable, "keys_unreachable")
	}
	if got := is.KeyFetches.Load(); got != 1 {
		t.Fatalf("key fetches while down = %d, want 1", got)
	}
	is.KeysFail.Store(false)
	now.Add(int64(failFast))
	if _, err := v.Verify(context.Background(), tok); err != nil {
		t.Fatalf("after the fail-fast window: %v", err)
	}
	if got := is.KeyFetches.Load(); got != 2 {
		t.Fatalf("key fetches = %d, want 2", got)
	}
}

func TestIntrospection(t *testing.T) {
	is := oauthtest.NewIssuer(t)
	exp := time.Now().Add(time.Hour).Unix()
	is.Introspect = func(tok string) map[string]any {
		switch tok {
		case "live":
			return map[string]any{"active": true, "sub": "bob", "client_id": "chatgpt", "scope": "precisiond:tool:gcd_lcm", "exp": exp}
		case "stale":
			return map[string]any{"active": true, "sub": "bob", "exp": time.Now().Add(-time.Hour).Unix()}
		case "for-us":
			return map[string]any{"active": true, "sub": "ann", "aud": []any{"other", resource}}
		case "for-our-client":
			return map[string]any{"active": true, "sub": "ann", "aud": "rs"}
		case "for-another":
			return map[string]any{"active": true, "sub": "ann", "aud": []any{"https://other.example/mcp", "webapp"}}
		case "aud-number":
			return map[string]any{"active": true, "sub": "ann", "aud": 7}
		}
		return map[string]any{"active": false}
	}
	v := newVerifier(t, is)
	c, err := v.Verify(context.Background(), "live")
	if err != nil {
		t.Fatal(err)
	}
	if c.Subject != "bob" || c.ClientID != "chatgpt" || len(c.Scopes) != 1 || c.Expiry.Unix() != exp {
		t.Fatalf("claims = %+v", c)
	}
	_, err = v.Verify(context.Background(), "revoked")
	wantRefusal(t, err, Invalid, "inactive")
	_, err = v.Verify(context.Background(), "stale")
	wantRefusal(t, err, Invalid, "expired")
	for _, tok := range []string{"for-us", "for-our-client"} {
		if c, err := v.Verify(context.Background(), tok); err != nil || c.Subject != "ann" {
			t.Fatalf("%s: claims %+v, error %v", tok, c, err)
		}
	}
	_, err = v.Verify(context.Background(), "for-another")
	wantRefusal(t, err, Invalid, "wrong_audience")
	_, err = v.Verify(context.Background(), "aud-number")
	wantRefusal(t, err, Invalid, "invalid_claims")

	bad, err := New(Config{Issuer: is.URL(), Resource: resource, ClientID: "rs", ClientSecret: "wrong"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = bad.Verify(context.Background(), "live")
	wantRefusal(t, err, Unavailable, "introspection_unreachable")

	noIntro, err := New(Config{Issuer: is.URL(), Resource: resource})
	if err != nil {
		t.Fatal(err)
	}
	_, err = noIntro.Verify(context.Background(), "live")
	wantRefusal(t, err, Invalid, "malformed")
}

func TestNewRefusesConfig(t *testing.T) {
	for _, c := range []Config{
		{Issuer: "http://auth.example.com", Resource: resource},
		{Issuer: "ftp://auth.example.com", Resource: resource},
		{Issuer: "https://auth.example.com?x=1", Resource: resource},
		{Issuer: "https://auth.example.com", Resource: ""},
		{Issuer: "https://auth.example.com", Resource: resource, ClientID: "a"},
		{Issuer: "https://auth.example.com", Resource: resource, IntrospectionURL: "https://auth.example.com/introspect"},
		{Issuer: "https://auth.example.com", Resource: resource, IntrospectionURL: "http://auth.example.com/introspect", ClientID: "a", ClientSecret: "b"},
	} {
		if _, err := New(c); err == nil {
			t.Errorf("New(%+v) accepted", c)
		}
	}
	for _, c := range []Config{
		{Issuer: "https://auth.example.com/tenant/", Resource: resource},
		{Issuer: "http://localhost:9998/", Resource: resource},
		{Issuer: "http://127.0.0.1:9998", Resource: resource, IntrospectionURL: "http://[::1]:9998/introspect", ClientID: "a", ClientSecret: "b"},
	} {
		if _, err := New(c); err != nil {
			t.Errorf("New(%+v): %v", c, err)
		}
	}
}

func TestCallerName(t *testing.T) {
	long := make([]byte, 200)
	for i := range long {
		long[i] = 'x'
	}
	for _, tc := range []struct {
		c    Claims
		want string
	}{
		{Claims{Subject: "alice", ClientID: "c"}, "oauth:alice"},
		{Claims{ClientID: "svc"}, "oauth:svc"},
		{Claims{}, "oauth:unknown"},
		{Claims{Subject: "a\tb\nc d"}, "oauth:a_b_c_d"},
		{Claims{Subject: string(long)}, "oauth:" + string(long[:128])},
		{Claims{Subject: "é\xff"}, "oauth:é_"},
	} {
		if got := CallerName(&tc.c); got != tc.want {
			t.Errorf("CallerName(%+v) = %q, want %q", tc.c, got, tc.want)
		}
	}
}

func TestParseClientFile(t *testing.T) {
	c, err := ParseClientFile([]byte(`{"client_id":"rs","client_secret":"x"}` + "\n"))
	if err != nil || c.ClientID != "rs" || c.ClientSecret != "x" {
		t.Fatalf("got %+v, %v", c, err)
	}
	for _, bad := range []string{``, `{}`, `{"client_id":"rs"}`, `{"client_id":"rs","client_secret":"x","extra":1}`, `{"client_id":"rs","client_secret":"x"}{}`, `[]`, `{"client_id":1,"client_secret":"x"}`} {
		if _, err := ParseClientFile([]byte(bad)); err == nil {
			t.Errorf("ParseClientFile(%q) accepted", bad)
		}
	}
}

func FuzzParseClientFile(f *testing.F) {
	f.Add([]byte(`{"client_id":"rs","client_secret":"x"}`))
	f.Add([]byte(`{"client_id":"","client_secret":""}`))
	f.Add([]byte(`{"client_id":"a"} x`))
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := ParseClientFile(b)
		if err == nil && (c.ClientID == "" || c.ClientSecret == "") {
			t.Fatalf("accepted empty credentials from %q", b)
		}
	})
}

// FuzzVerify: no token, however malformed, panics or is accepted without
// the issuer's signature.
func FuzzVerify(f *testing.F) {
	is := oauthtest.NewIssuer(f)
	f.Add("a.b.c")
	f.Add("eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.")
	f.Add("eyJhbGciOiJFUzI1NiIsImtpZCI6ImsxIn0.e30.AAAA")
	f.Add("....")
	v, err := New(Config{Issuer: is.URL(), Resource: resource})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, tok string) {
		if _, err := v.Verify(context.Background(), tok); err == nil {
			t.Fatalf("accepted %q", tok)
		}
	})
}
