package api

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/precisiond/precisiond/internal/attest"
)

// JWKSPath is where the service publishes the keys that sign its answers.
const JWKSPath = attest.JWKSPath

// jwks serves GET /.well-known/jwks.json: the JWK Set of the current and
// retained signing keys, with a strong ETag (the body is canonical JSON, so
// the same keys give the same bytes) and 304 for a matching If-None-Match.
// Clients may cache it for five minutes: a rotation shows within that time,
// and the retired key stays published for --key-retention.
func (s *Server) jwks(w http.ResponseWriter, r *http.Request) {
	body := s.opts.JWKS()
	etag := attest.ETag(body)
	h := w.Header()
	h.Set("ETag", etag)
	h.Set("Cache-Control", "public, max-age=300")
	if etagMatches(r.Header.Get("If-None-Match"), strings.Trim(etag, `"`)) { // api/edge_cache.go
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Type", "application/jwk-set+json")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(body)
	}
}
