// Package surface is what the service's two HTTP surfaces, REST (package api)
// and MCP (package mcpapi), share: the one error table and its wire body, what
// a request carries in its context (its id, the fields of its access line, the
// API token it was admitted with), the wire schemas of the envelope, the error
// and plans, and the plan operations both surfaces serve.
package surface

import (
	"context"
	"time"

	"github.com/precisiond/precisiond/internal/access"
)

type requestKey struct{}

// Request is what the access line of one request records: its id, and what
// the handlers learn (SetLogTool, SetLogError). The HTTP edge keeps it in the
// request's context (WithRequest); an MCP session's handlers carry only the id
// (WithRequestID).
type Request struct {
	ID        string
	Tool      string
	ErrorCode string
}

// WithRequest keeps r in the context.
func WithRequest(ctx context.Context, r *Request) context.Context {
	return context.WithValue(ctx, requestKey{}, r)
}

// WithRequestID keeps a request id alone in the context.
func WithRequestID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, requestKey{}, id)
}

// RequestID returns the request id stored in ctx, or "".
func RequestID(ctx context.Context) string {
	switch v := ctx.Value(requestKey{}).(type) {
	case *Request:
		return v.ID
	case string:
		return v
	}
	return ""
}

// SetLogTool and SetLogError record, for the access line, the tool a request
// called and the error code it was answered with.
func SetLogTool(ctx context.Context, tool string) {
	if r, ok := ctx.Value(requestKey{}).(*Request); ok {
		r.Tool = tool
	}
}

func SetLogError(ctx context.Context, code string) {
	if r, ok := ctx.Value(requestKey{}).(*Request); ok {
		r.ErrorCode = code
	}
}

type principalKey struct{}

// Principal is the API token a request was admitted with, or nil (tokens off,
// or a route that needs none).
func Principal(ctx context.Context) *access.Token {
	t, _ := ctx.Value(principalKey{}).(*access.Token)
	return t
}

// WithPrincipal keeps the request's token in the context.
func WithPrincipal(ctx context.Context, t *access.Token) context.Context {
	return context.WithValue(ctx, principalKey{}, t)
}

// TokenName is the name of the request's token, or "".
func TokenName(ctx context.Context) string {
	if t := Principal(ctx); t != nil {
		return t.Name
	}
	return ""
}

// AdminPrincipal is the principal of a request that carries the admin token
// on a tool surface. Its name cannot clash with a tokens-file entry (those
// start with a letter or digit).
var AdminPrincipal = &access.Token{Name: "_admin"}

// DurationMS is d in milliseconds, to the microsecond (the access lines'
// duration_ms).
func DurationMS(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// FactDownloadPath is the fact that names a stored file (generate_file): the
// surfaces record its owner and sign its link.
const FactDownloadPath = "download_path"
