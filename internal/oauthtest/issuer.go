package oauthtest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
)

// Issuer is an in-test authorization server on loopback that issues JWT
// access tokens: a discovery document, a JWK Set whose keys rotate, and an
// RFC 7662 introspection endpoint answered by Introspect (client "rs",
// secret IntrospectSecret).
type Issuer struct {
	Srv *httptest.Server
	// KeyFetches counts the requests for the key set.
	KeyFetches atomic.Int32
	// KeysFail makes the key set answer 502.
	KeysFail atomic.Bool
	// Introspect answers an introspection request for a token.
	Introspect func(token string) map[string]any

	mu   sync.Mutex
	keys []jose.JSONWebKey // private; the newest signs
	n    int
}

// IntrospectSecret is the secret of the introspection client "rs".
const IntrospectSecret = "s3cret"

// NewIssuer starts an Issuer with one key; it stops when the test ends.
func NewIssuer(t testing.TB) *Issuer {
	t.Helper()
	is, err := StartIssuer()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(is.Close)
	return is
}

// StartIssuer starts an Issuer with one key on loopback outside a test (the load
// harness, bench/load -oauth); Close stops it.
func StartIssuer() (*Issuer, error) {
	is := &Issuer{Introspect: func(string) map[string]any { return map[string]any{"active": false} }}
	if err := is.rotate(false); err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/openid-configuration", func(w http.ResponseWriter, _ *http.Request) {
		_ = json.NewEncoder(w).Encode(map[string]any{"issuer": is.Srv.URL, "jwks_uri": is.Srv.URL + "/keys",
			"introspection_endpoint": is.Srv.URL + "/introspect", "authorization_endpoint": is.Srv.URL + "/authorize",
			"token_endpoint": is.Srv.URL + "/token"})
	})
	mux.HandleFunc("GET /keys", func(w http.ResponseWriter, _ *http.Request) {
		is.KeyFetches.Add(1)
		if is.KeysFail.Load() {
			http.Error(w, "down", http.StatusBadGateway)
			return
		}
		is.mu.Lock()
		var set jose.JSONWebKeySet
		for _, k := range is.keys {
			set.Keys = append(set.Keys, k.Public())
		}
		is.mu.Unlock()
		_ = json.NewEncoder(w).Encode(set)
	})
	mux.HandleFunc("POST /introspect", func(w http.ResponseWriter, r *http.Request) {
		id, secret, ok := r.BasicAuth()
		if !ok || id != "rs" || secret != IntrospectSecret {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		_ = json.NewEncoder(w).Encode(is.Introspect(r.PostFormValue("token")))
	})
	is.Srv = httptest.NewServer(mux)
	return is, nil
}

// Close stops the issuer's server.
func (is *Issuer) Close() { is.Srv.Close() }

// URL is the issuer identifier.
func (is *Issuer) URL() string { return is.Srv.URL }

// Rotate adds a new signing key; drop removes the older ones from the set.
func (is *Issuer) Rotate(t testing.TB, drop bool) {
	t.Helper()
	if err := is.rotate(drop); err != nil {
		t.Fatal(err)
	}
}

func (is *Issuer) rotate(drop bool) error {
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return err
	}
	is.mu.Lock()
	defer is.mu.Unlock()
	is.n++
	jk := jose.JSONWebKey{Key: k, KeyID: "k" + strconv.Itoa(is.n), Algorithm: string(jose.ES256), Use: "sig"}
	if drop {
		is.keys = nil
	}
	is.keys = append(is.keys, jk)
	return nil
}

// Claims are valid claims for audience aud, expiring after d (negative:
// expired).
func (is *Issuer) Claims(aud string, d time.Duration) jwt.Claims {
	now := time.Now()
	return jwt.Claims{Issuer: is.Srv.URL, Subject: "alice", Audience: jwt.Audience{aud}, Expiry: jwt.NewNumericDate(now.Add(d)), IssuedAt: jwt.NewNumericDate(now)}
}

// Sign signs claims and extra claims with the newest key; kid, when set,
// replaces its key id in the header.
func (is *Issuer) Sign(t testing.TB, c jwt.Claims, extra map[string]any, kid string) string {
	t.Helper()
	raw, err := is.SignJWT(c, extra, kid)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// SignJWT is Sign outside a test.
func (is *Issuer) SignJWT(c jwt.Claims, extra map[string]any, kid string) (string, error) {
	is.mu.Lock()
	k := is.keys[len(is.keys)-1]
	is.mu.Unlock()
	if kid == "" {
		kid = k.KeyID
	}
	s, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: k.Key}, (&jose.SignerOptions{}).WithType("at+jwt").WithHeader("kid", kid))
	if err != nil {
		return "", err
	}
	return jwt.Signed(s).Claims(c).Claims(extra).Serialize()
}
