// Package access holds the API tokens of the tool surfaces (the tokens file,
// its scopes and per-token rate limits) and the signed download links.
//
// The tokens file is JSON:
//
//	{"tokens": [{"name": "ci", "sha256": "<64 hex>", "tools": ["gcd_lcm", "date_*"], "rate_per_minute": 60}]}
//
// It holds the SHA-256 of each token, never the token itself; "tools" is an
// allowlist of tool-name globs (path.Match syntax; absent: every tool) and
// "rate_per_minute" a per-token request budget (absent or 0: unlimited).
package access

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"path"
	"regexp"
	"strings"
)

// Token is one entry of the tokens file.
type Token struct {
	Name          string   `json:"name"`
	SHA256        string   `json:"sha256"`
	Tools         []string `json:"tools,omitempty"`
	RatePerMinute int      `json:"rate_per_minute,omitempty"`

	sum [sha256.Size]byte
}

// Allows reports whether the token's scope covers tool.
func (t *Token) Allows(tool string) bool {
	if len(t.Tools) == 0 {
		return true
	}
	for _, p := range t.Tools {
		if ok, _ := path.Match(p, tool); ok {
			return true
		}
	}
	return false
}

// Set is one parsed tokens file.
type Set struct {
	tokens []*Token
	byName map[string]*Token
}

// MaxFileBytes bounds the tokens file.
const MaxFileBytes = 1 << 20

// validName is what a token name may be: it appears in logs and metrics.
var validName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$`)

// Parse reads a tokens file strictly: unknown fields, duplicate names or
// hashes, malformed hashes, bad globs and negative rates are errors.
func Parse(data []byte) (*Set, error) {
	if len(data) > MaxFileBytes {
		return nil, fmt.Errorf("tokens file has %d bytes; at most %d", len(data), MaxFileBytes)
	}
	var f struct {
		Tokens *[]*Token `json:"tokens"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("tokens file: %v (want {\"tokens\":[{\"name\",\"sha256\",\"tools\"?,\"rate_per_minute\"?}]})", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("tokens file: trailing data after the JSON object")
	}
	if f.Tokens == nil {
		return nil, fmt.Errorf(`tokens file: missing "tokens" list`)
	}
	s := &Set{byName: map[string]*Token{}}
	hashes := map[[sha256.Size]byte]string{}
	for i, t := range *f.Tokens {
		if t == nil {
			return nil, fmt.Errorf("tokens file: entry %d is null", i)
		}
		if !validName.MatchString(t.Name) {
			return nil, fmt.Errorf("tokens file: entry %d: name %q must match %s", i, t.Name, validName)
		}
		if s.byName[t.Name] != nil {
			return nil, fmt.Errorf("tokens file: name %q appears twice", t.Name)
		}
		b, err := hex.DecodeString(t.SHA256)
		if err != nil || len(b) != sha256.Size {
			return nil, fmt.Errorf("tokens file: %q: sha256 must be 64 hex digits (the SHA-256 of the token, e.g. from `precisiond token new`)", t.Name)
		}
		copy(t.sum[:], b)
		t.SHA256 = strings.ToLower(t.SHA256)
		if other, dup := hashes[t.sum]; dup {
			return nil, fmt.Errorf("tokens file: %q and %q have the same sha256", other, t.Name)
		}
		hashes[t.sum] = t.Name
		for _, p := range t.Tools {
			if _, err := path.Match(p, ""); err != nil || p == "" {
				return nil, fmt.Errorf("tokens file: %q: bad tool pattern %q", t.Name, p)
			}
		}
		if t.RatePerMinute < 0 {
			return nil, fmt.Errorf("tokens file: %q: rate_per_minute must not be negative", t.Name)
		}
		s.tokens = append(s.tokens, t)
		s.byName[t.Name] = t
	}
	return s, nil
}

// Authenticate returns the token whose hash is the SHA-256 of secret, or nil.
// Every entry is compared in constant time and the loop never stops early, so
// the time taken does not tell which entry (if any) came close.
func (s *Set) Authenticate(secret string) *Token {
	if s == nil {
		return nil
	}
	sum := sha256.Sum256([]byte(secret))
	var found *Token
	for _, t := range s.tokens {
		if subtle.ConstantTimeCompare(sum[:], t.sum[:]) == 1 {
			found = t
		}
	}
	return found
}

// Lookup returns the token named name, or nil.
func (s *Set) Lookup(name string) *Token {
	if s == nil {
		return nil
	}
	return s.byName[name]
}

// Len is the number of tokens.
func (s *Set) Len() int {
	if s == nil {
		return 0
	}
	return len(s.tokens)
}

// TokenPrefix starts every token NewSecret makes, so that a leaked one is
// recognisable (secret scanners, logs).
const TokenPrefix = "pdt_"

// NewSecret makes a new random token (256 bits) and returns it with its entry
// for the tokens file.
func NewSecret(name string) (secret string, entry Token, err error) {
	if !validName.MatchString(name) {
		return "", Token{}, fmt.Errorf("token name %q must match %s", name, validName)
	}
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", Token{}, err
	}
	secret = TokenPrefix + base64.RawURLEncoding.EncodeToString(b[:])
	return secret, Token{Name: name, SHA256: Hash(secret)}, nil
}

// Hash is the hex SHA-256 of a token, as the tokens file holds it.
func Hash(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}
