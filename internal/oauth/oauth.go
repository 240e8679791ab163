// Package oauth checks OAuth 2.1 access tokens for the resource server
// (docs/oauth.md): JWT access tokens against the issuer's published keys
// (found through its discovery document, cached, refreshed on an unknown
// key id), opaque tokens by RFC 7662 introspection. The JOSE work (parsing,
// signatures, claim checks) is go-jose's; this package fetches, caches and
// decides.
//
// A token is refused with an *Error of kind Invalid (the client must get a
// new token: 401) or Unavailable (the issuer or its introspection endpoint
// cannot be reached, so nothing can be verified: 503, fail closed).
package oauth

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
)

// Kind classifies a refusal.
type Kind int

const (
	// Invalid: the token is malformed, badly signed, expired, not yet valid,
	// for another audience or issuer, or inactive.
	Invalid Kind = iota + 1
	// Unavailable: the issuer (discovery, keys) or the introspection
	// endpoint did not answer usefully, so the token cannot be checked.
	Unavailable
)

// Error is a refused token.
type Error struct {
	Kind   Kind
	Reason string // a short machine word: expired, not_yet_valid, wrong_audience, ...
	Msg    string
}

func (e *Error) Error() string { return e.Msg }

func invalid(reason, msg string) *Error { return &Error{Kind: Invalid, Reason: reason, Msg: msg} }

func unavailable(reason, format string, a ...any) *Error {
	return &Error{Kind: Unavailable, Reason: reason, Msg: fmt.Sprintf(format, a...)}
}

// Claims are what a verified token says about its caller.
type Claims struct {
	Subject  string
	ClientID string
	Scopes   []string
	Expiry   time.Time // zero: unknown (introspection without exp)

	memo *memo // what the caller derived from these claims (Memo)
}

type memo struct {
	once sync.Once
	v    any
}

// Memo returns build's result for these claims, built once per verified
// token: a token served from the cache shares its claims, so what a caller
// derives from them (a principal) costs nothing on later requests. Claims
// not made by a Verifier build every time.
func (c *Claims) Memo(build func() any) any {
	if c.memo == nil {
		return build()
	}
	c.memo.once.Do(func() { c.memo.v = build() })
	return c.memo.v
}

// Config configures a Verifier.
type Config struct {
	// Issuer is the authorization server's issuer identifier; its discovery
	// document is read from Issuer + /.well-known/openid-configuration (or
	// /.well-known/oauth-authorization-server).
	Issuer string
	// Resource is the audience a JWT must name (RFC 8707).
	Resource string
	// IntrospectionURL, with ClientID and ClientSecret, checks opaque tokens
	// (RFC 7662); empty: the discovery document's introspection_endpoint
	// when ClientID is set, else opaque tokens are refused.
	IntrospectionURL       string
	ClientID, ClientSecret string
	// HTTP fetches discovery, keys and introspection; default: a client
	// with a 10 s timeout.
	HTTP *http.Client
	// Now is the clock; default time.Now.
	Now func() time.Time
	// IntrospectionTTL bounds how long an active introspection answer is
	// reused; default 30 s.
	IntrospectionTTL time.Duration
}

// Leeway is the clock skew allowed on exp, nbf and iat.
const Leeway = 30 * time.Second

// keyRefreshGap is the shortest time between two key fetches caused by
// unknown key ids, so that tokens with made-up kids cannot make the service
// hammer the issuer.
const keyRefreshGap = 10 * time.Second

// keyMaxAge is how long fetched keys are used before they are fetched again
// (rotation without an unknown kid: a key removed by the issuer stops
// verifying within this time).
const keyMaxAge = time.Hour

// failFast is how long a failure to reach the issuer (discovery, keys,
// introspection) is answered from memory: while the issuer is down, tokens
// are refused at once instead of each request waiting for its own network
// timeout behind the others.
const failFast = 5 * time.Second

// maxCached bounds each cache; a full cache is emptied (tokens are checked
// again, at the cost of one verification each).
const maxCached = 10000

// maxDocBytes bounds a discovery document, key set or introspection answer.
const maxDocBytes = 1 << 20

// signatureAlgs are the JWS algorithms accepted (never "none", never HMAC:
// the key set is public).
var signatureAlgs = []jose.SignatureAlgorithm{jose.RS256, jose.RS384, jose.RS512, jose.PS256, jose.PS384, jose.PS512,
	jose.ES256, jose.ES384, jose.ES512, jose.EdDSA}

// Verifier checks access tokens. It is safe for concurrent use.
type Verifier struct {
	cfg Config

	mu         sync.Mutex // guards the fields below
	disc       *discovery
	keys       *jose.JSONWebKeySet
	keysAt     time.Time // when keys were fetched
	refreshAt  time.Time // last fetch caused by an unknown kid
	fetchMu    sync.Mutex
	cache      map[[sha256.Size]byte]cached
	introCache map[[sha256.Size]byte]cached
	down       *Error    // the last failure to reach the issuer
	downUntil  time.Time // down is answered until then
}

type cached struct {
	claims *Claims
	until  time.Time
}

type discovery struct {
	Issuer                string `json:"issuer"`
	JWKSURI               string `json:"jwks_uri"`
	IntrospectionEndpoint string `json:"introspection_endpoint"`
}

// New returns a Verifier for cfg. It fetches nothing: the discovery
// document and the keys are read on first use, so that the service starts
// while its issuer is down.
func New(cfg Config) (*Verifier, error) {
	u, err := url.Parse(cfg.Issuer)
	if err != nil || (u.Scheme != "https" && !(u.Scheme == "http" && loopbackHost(u.Hostname()))) || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("oauth issuer %q: want an absolute https:// URL without query or fragment (http:// only on loopback)", cfg.Issuer)
	}
	if cfg.IntrospectionURL != "" {
		iu, err := url.Parse(cfg.IntrospectionURL)
		if err != nil || (iu.Scheme != "https" && !(iu.Scheme == "http" && loopbackHost(iu.Hostname()))) || iu.Host == "" {
			return nil, fmt.Errorf("oauth introspection URL %q: want an absolute https:// URL (http:// only on loopback): it carries the client secret", cfg.IntrospectionURL)
		}
	}
	if cfg.Resource == "" {
		return nil, errors.New("oauth: the resource (audience) is not set")
	}
	if (cfg.ClientID == "") != (cfg.ClientSecret == "") {
		return nil, errors.New("oauth: introspection needs both client_id and client_secret")
	}
	if cfg.IntrospectionURL != "" && cfg.ClientID == "" {
		return nil, errors.New("oauth: an introspection URL needs client credentials")
	}
	if cfg.HTTP == nil {
		cfg.HTTP = &http.Client{Timeout: 10 * time.Second}
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.IntrospectionTTL <= 0 {
		cfg.IntrospectionTTL = 30 * time.Second
	}
	return &Verifier{cfg: cfg, cache: map[[sha256.Size]byte]cached{}, introCache: map[[sha256.Size]byte]cached{}}, nil
}

// loopbackHost reports whether host names this machine: the only place a
// plain-http issuer is accepted (tests, a local development issuer).
func loopbackHost(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Verify checks a bearer token and returns its claims. A JWT (three
// base64url parts) is verified locally; anything else is introspected. A
// verified token is cached by its SHA-256 until it expires (introspection
// answers at most IntrospectionTTL), so the hot path costs one hash and one
// map look-up.
func (v *Verifier) Verify(ctx context.Context, token string) (*Claims, error) {
	if token == "" || len(token) > 16<<10 {
		return nil, invalid("malformed", "the access token is empty or longer than 16 KiB")
	}
	sum := sha256.Sum256([]byte(token))
	now := v.cfg.Now()
	if c, ok := v.lookup(v.cache, sum, now); ok {
		return c, nil
	}
	if c, ok := v.lookup(v.introCache, sum, now); ok {
		return c, nil
	}
	if strings.Count(token, ".") == 2 {
		c, err := v.verifyJWT(ctx, token, now)
		if err != nil {
			return nil, err
		}
		v.store(v.cache, sum, c, c.Expiry.Add(Leeway))
		return c, nil
	}
	c, err := v.introspect(ctx, token)
	if err != nil {
		return nil, err
	}
	until := now.Add(v.cfg.IntrospectionTTL)
	if !c.Expiry.IsZero() && c.Expiry.Before(until) {
		until = c.Expiry
	}
	v.store(v.introCache, sum, c, until)
	return c, nil
}

func (v *Verifier) lookup(m map[[sha256.Size]byte]cached, sum [sha256.Size]byte, now time.Time) (*Claims, bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	c, ok := m[sum]
	if !ok {
		return nil, false
	}
	if !now.Before(c.until) {
		delete(m, sum)
		return nil, false
	}
	return c.claims, true
}

func (v *Verifier) store(m map[[sha256.Size]byte]cached, sum [sha256.Size]byte, c *Claims, until time.Time) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if len(m) >= maxCached {
		clear(m)
	}
	m[sum] = cached{claims: c, until: until}
}

// Forget drops every cached verification (tests; an operator's reload).
func (v *Verifier) Forget() {
	v.mu.Lock()
	defer v.mu.Unlock()
	clear(v.cache)
	clear(v.introCache)
}

// jwtClaims are the non-registered claims read from an access token.
type jwtClaims struct {
	Scope    string   `json:"scope"`
	Scp      []string `json:"scp"`
	ClientID string   `json:"client_id"`
	Azp      string   `json:"azp"`
}

func (v *Verifier) verifyJWT(ctx context.Context, raw string, now time.Time) (*Claims, error) {
	tok, err := jwt.ParseSigned(raw, signatureAlgs)
	if err != nil {
		return nil, invalid("malformed", "the access token is not a signed JWT with an accepted algorithm")
	}
	if len(tok.Headers) != 1 {
		return nil, invalid("malformed", "the access token must carry exactly one signature")
	}
	disc, err := v.discover(ctx)
	if err != nil {
		return nil, err
	}
	keys, err := v.keysFor(ctx, tok.Headers[0].KeyID, now)
	if err != nil {
		return nil, err
	}
	var std jwt.Claims
	var extra jwtClaims
	verified := false
	for _, k := range keys {
		if err := tok.Claims(k, &std, &extra); err == nil {
			verified = true
			break
		}
	}
	if !verified {
		return nil, invalid("bad_signature", "the access token's signature does not verify with the issuer's keys")
	}
	if std.Expiry == nil {
		return nil, invalid("no_expiry", "the access token has no exp claim")
	}
	switch err := std.ValidateWithLeeway(jwt.Expected{Issuer: disc.Issuer, AnyAudience: jwt.Audience{v.cfg.Resource}, Time: now}, Leeway); {
	case err == nil:
	case errors.Is(err, jwt.ErrExpired):
		return nil, invalid("expired", "the access token has expired")
	case errors.Is(err, jwt.ErrNotValidYet):
		return nil, invalid("not_yet_valid", "the access token is not valid yet (nbf)")
	case errors.Is(err, jwt.ErrIssuedInTheFuture):
		return nil, invalid("not_yet_valid", "the access token was issued in the future (iat)")
	case errors.Is(err, jwt.ErrInvalidIssuer):
		return nil, invalid("wrong_issuer", "the access token was issued by another issuer")
	case errors.Is(err, jwt.ErrInvalidAudience):
		return nil, invalid("wrong_audience", "the access token is not meant for this resource (aud must include "+v.cfg.Resource+")")
	default:
		return nil, invalid("invalid_claims", "the access token's claims are invalid")
	}
	c := &Claims{Subject: std.Subject, ClientID: extra.ClientID, Expiry: std.Expiry.Time(), memo: &memo{}}
	if c.ClientID == "" {
		c.ClientID = extra.Azp
	}
	c.Scopes = strings.Fields(extra.Scope)
	if len(c.Scopes) == 0 {
		c.Scopes = extra.Scp
	}
	return c, nil
}

// discover returns the issuer's discovery document, fetching it on first
// use and after a failure.
func (v *Verifier) discover(ctx context.Context) (*discovery, error) {
	v.mu.Lock()
	d := v.disc
	v.mu.Unlock()
	if d != nil {
		return d, nil
	}
	if err := v.stillDown(); err != nil {
		return nil, err
	}
	v.fetchMu.Lock()
	defer v.fetchMu.Unlock()
	v.mu.Lock()
	d = v.disc
	v.mu.Unlock()
	if d != nil {
		return d, nil
	}
	if err := v.stillDown(); err != nil {
		return nil, err
	}
	base := strings.TrimSuffix(v.cfg.Issuer, "/")
	var lastErr error
	for _, p := range []string{"/.well-known/openid-configuration", "/.well-known/oauth-authorization-server"} {
		var doc discovery
		if err := v.getJSON(ctx, base+p, &doc); err != nil {
			lastErr = err
			continue
		}
		if strings.TrimSuffix(doc.Issuer, "/") != base {
			return nil, v.failed(ctx, unavailable("issuer_mismatch", "the discovery document at %s names issuer %q, not %q", base+p, doc.Issuer, v.cfg.Issuer))
		}
		if doc.JWKSURI == "" {
			return nil, v.failed(ctx, unavailable("no_jwks_uri", "the discovery document at %s has no jwks_uri", base+p))
		}
		v.mu.Lock()
		v.disc = &doc
		v.mu.Unlock()
		return &doc, nil
	}
	return nil, v.failed(ctx, unavailable("issuer_unreachable", "the issuer's discovery document cannot be read: %v", lastErr))
}

// stillDown is the last failure to reach the issuer while it is answered
// from memory (failFast), else nil.
func (v *Verifier) stillDown() *Error {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.down != nil && v.cfg.Now().Before(v.downUntil) {
		return v.down
	}
	return nil
}

// failed records a failure to reach the issuer and returns it; a failure
// caused by the caller going away (ctx ended) is not the issuer's and is
// not recorded.
func (v *Verifier) failed(ctx context.Context, e *Error) *Error {
	if ctx.Err() != nil {
		return e
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	v.down, v.downUntil = e, v.cfg.Now().Add(failFast)
	return e
}

// keysFor returns the keys that may have signed a token with key id kid,
// fetching the key set when there is none yet, when it is older than
// keyMaxAge, or when kid is unknown (at most once per keyRefreshGap).
func (v *Verifier) keysFor(ctx context.Context, kid string, now time.Time) ([]jose.JSONWebKey, error) {
	v.mu.Lock()
	keys, at, refreshed := v.keys, v.keysAt, v.refreshAt
	v.mu.Unlock()
	stale := keys == nil || now.Sub(at) >= keyMaxAge
	if !stale {
		if ks := match(keys, kid); len(ks) > 0 {
			return ks, nil
		}
		if now.Sub(refreshed) < keyRefreshGap {
			return nil, invalid("unknown_key", "the access token names an unknown signing key")
		}
	}
	if err := v.fetchKeys(ctx, now, !stale); err != nil {
		return nil, err
	}
	v.mu.Lock()
	keys = v.keys
	v.mu.Unlock()
	if ks := match(keys, kid); len(ks) > 0 {
		return ks, nil
	}
	return nil, invalid("unknown_key", "the access token names an unknown signing key")
}

func match(set *jose.JSONWebKeySet, kid string) []jose.JSONWebKey {
	if kid != "" {
		return set.Key(kid)
	}
	var out []jose.JSONWebKey
	for _, k := range set.Keys {
		if k.Use == "" || k.Use == "sig" {
			out = append(out, k)
		}
	}
	return out
}

func (v *Verifier) fetchKeys(ctx context.Context, now time.Time, forKid bool) error {
	v.fetchMu.Lock()
	defer v.fetchMu.Unlock()
	v.mu.Lock()
	fresh := v.keys != nil && now.Sub(v.keysAt) < keyMaxAge && (!forKid || now.Sub(v.refreshAt) < keyRefreshGap)
	disc := v.disc
	v.mu.Unlock()
	if fresh {
		return nil // another caller fetched them meanwhile
	}
	if err := v.stillDown(); err != nil {
		return err
	}
	var set jose.JSONWebKeySet
	if err := v.getJSON(ctx, disc.JWKSURI, &set); err != nil {
		return v.failed(ctx, unavailable("keys_unreachable", "the issuer's signing keys cannot be read: %v", err))
	}
	public := set.Keys[:0]
	for _, k := range set.Keys {
		if k.Valid() && k.IsPublic() {
			public = append(public, k)
		}
	}
	set.Keys = public
	v.mu.Lock()
	v.keys, v.keysAt = &set, now
	if forKid {
		v.refreshAt = now
	}
	v.mu.Unlock()
	return nil
}

func (v *Verifier) getJSON(ctx context.Context, u string, dst any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	return v.do(req, dst)
}

func (v *Verifier) do(req *http.Request, dst any) error {
	resp, err := v.cfg.HTTP.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxDocBytes))
		return fmt.Errorf("%s %s: HTTP %d", req.Method, req.URL.Redacted(), resp.StatusCode)
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxDocBytes+1))
	if err != nil {
		return err
	}
	if len(b) > maxDocBytes {
		return fmt.Errorf("%s: the answer is larger than %d bytes", req.URL.Redacted(), maxDocBytes)
	}
	if err := json.Unmarshal(b, dst); err != nil {
		return fmt.Errorf("%s: %v", req.URL.Redacted(), err)
	}
	return nil
}

// introspection is an RFC 7662 answer.
type introspection struct {
	Active   bool            `json:"active"`
	Scope    string          `json:"scope"`
	ClientID string          `json:"client_id"`
	Sub      string          `json:"sub"`
	Exp      json.Number     `json:"exp"`
	Aud      json.RawMessage `json:"aud"`
}

func (v *Verifier) introspect(ctx context.Context, token string) (*Claims, error) {
	if v.cfg.ClientID == "" {
		return nil, invalid("malformed", "the access token is not a JWT and token introspection is not configured")
	}
	endpoint := v.cfg.IntrospectionURL
	if endpoint == "" {
		d, err := v.discover(ctx)
		if err != nil {
			return nil, err
		}
		if d.IntrospectionEndpoint == "" {
			return nil, invalid("malformed", "the access token is not a JWT and the issuer publishes no introspection endpoint")
		}
		endpoint = d.IntrospectionEndpoint
	}
	if err := v.stillDown(); err != nil {
		return nil, err
	}
	form := url.Values{"token": {token}, "token_type_hint": {"access_token"}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(form.Encode()))
	if err != nil {
		return nil, unavailable("introspection_unreachable", "token introspection: %v", err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	// RFC 6749 §2.3.1: the credentials are form-encoded before Basic.
	req.SetBasicAuth(url.QueryEscape(v.cfg.ClientID), url.QueryEscape(v.cfg.ClientSecret))
	var ans introspection
	if err := v.do(req, &ans); err != nil {
		return nil, v.failed(ctx, unavailable("introspection_unreachable", "token introspection failed: %v", err))
	}
	if !ans.Active {
		return nil, invalid("inactive", "the access token is not active (revoked, expired or unknown to the issuer)")
	}
	if err := v.checkIntrospectedAudience(ans.Aud); err != nil {
		return nil, err
	}
	c := &Claims{Subject: ans.Sub, ClientID: ans.ClientID, Scopes: strings.Fields(ans.Scope), memo: &memo{}}
	if ans.Exp != "" {
		secs, err := ans.Exp.Int64()
		if err != nil {
			return nil, invalid("invalid_claims", "the introspection answer has a non-integer exp")
		}
		c.Expiry = time.Unix(secs, 0)
		if !v.cfg.Now().Before(c.Expiry.Add(Leeway)) {
			return nil, invalid("expired", "the access token has expired")
		}
	}
	return c, nil
}

// checkIntrospectedAudience refuses a token whose introspection answer names
// audiences none of which is this server. "active" only says the issuer
// issued the token; the MCP authorization spec requires the resource server
// to check that it was issued for it. This server goes by two names: the
// resource (RFC 8707, as for JWTs) and its introspection client id, which
// issuers that audience tokens by client (e.g. zitadel) put in aud. An answer
// without aud is taken as the issuer's word (RFC 7662 makes aud optional).
func (v *Verifier) checkIntrospectedAudience(raw json.RawMessage) error {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var auds []string
	var one string
	if err := json.Unmarshal(raw, &one); err == nil {
		auds = []string{one}
	} else if err := json.Unmarshal(raw, &auds); err != nil {
		return invalid("invalid_claims", "the introspection answer's aud is neither a string nor an array of strings")
	}
	for _, a := range auds {
		if a == v.cfg.Resource || a == v.cfg.ClientID {
			return nil
		}
	}
	return invalid("wrong_audience", "the access token is not meant for this resource (aud must include "+v.cfg.Resource+" or "+v.cfg.ClientID+")")
}

// CallerName is the name a verified token's caller goes by in logs, metrics
// and download ownership: "oauth:" and the subject (else the client id),
// with control characters and tabs replaced and at most 128 bytes kept, so
// that it fits a log field and a line of the owners file.
func CallerName(c *Claims) string {
	id := c.Subject
	if id == "" {
		id = c.ClientID
	}
	if id == "" {
		id = "unknown"
	}
	id = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == unicode.ReplacementChar || unicode.IsSpace(r) {
			return '_'
		}
		return r
	}, id)
	if len(id) > 128 {
		id = id[:128]
		for !utf8.ValidString(id) {
			id = id[:len(id)-1]
		}
	}
	return "oauth:" + id
}

// ClientFile is the introspection client's credentials file
// (--oauth-client-file): {"client_id": "...", "client_secret": "..."}.
type ClientFile struct {
	ClientID     string `json:"client_id"`
	ClientSecret string `json:"client_secret"`
}

// ParseClientFile reads the credentials file's bytes: a JSON object with
// exactly the two non-empty string members, at most 64 KiB.
func ParseClientFile(b []byte) (ClientFile, error) {
	var c ClientFile
	if len(b) > 64<<10 {
		return c, errors.New("oauth client file: larger than 64 KiB")
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return ClientFile{}, fmt.Errorf("oauth client file: want {\"client_id\": \"...\", \"client_secret\": \"...\"}: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return ClientFile{}, errors.New("oauth client file: trailing data after the JSON object")
	}
	if c.ClientID == "" || c.ClientSecret == "" {
		return ClientFile{}, errors.New("oauth client file: client_id and client_secret must both be set")
	}
	return c, nil
}
