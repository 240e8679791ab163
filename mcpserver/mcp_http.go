package mcpserver

import (
	"context"
	"log/slog"
	"net/http"
	"sync"

	"github.com/go-chi/chi/v5"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/precisiond/precisiond/internal/surface"
	"github.com/precisiond/precisiond/tools"
)

// Endpoints is the MCP surface on the HTTP router: /mcp (Streamable HTTP,
// stateless), /mcp/sse (the 2024-11-05 HTTP+SSE transport) and, with a plan
// service, /mcp/compact (the compact surface, Streamable HTTP, stateless).
type Endpoints struct {
	access   Access      // nil: no token needed
	draining func() bool // nil: never
	surface  *mcpSurface
	hosts    surface.HostPolicy

	mu        sync.Mutex
	streams   map[*http.Request]*sseStream // open SSE GETs
	bySession map[string]*sseStream        // the same, by MCP session id once known
	sse       sseLimits

	fast, fastCompact *mcpFast // nil: the SDK serves every request
	// inflight holds the stateless calls in progress, for
	// notifications/cancelled (mcpserver/mcp_progress.go).
	inflight *inflight
}

// Mounting is what Mount needs besides the router.
type Mounting struct {
	Options  Options
	Registry *tools.Registry
	// Plans serves the compact surface at /mcp/compact; without a plan
	// service (Plans.Svc nil) it is not mounted.
	Plans surface.PlanOps
	// Access is the server's access control when the tools need a token;
	// nil: they do not.
	Access Access
	// Draining reports whether the server is shutting down: new requests
	// get 503 (nil: never).
	Draining func() bool
}

// Mount mounts /mcp, /mcp/sse and, with a plan service, /mcp/compact on r.
// Close ends its SSE streams.
func Mount(r chi.Router, p Mounting) *Endpoints {
	o := p.Options
	m := &Endpoints{access: p.Access, draining: p.Draining, surface: newMCPSurface(p.Registry, o), hosts: surface.NewHostPolicy(o.AllowedHosts),
		streams: map[*http.Request]*sseStream{}, bySession: map[string]*sseStream{}, sse: newSSELimits(o)}
	getServer := func(*http.Request) *mcp.Server { return m.surface.server }
	// The SDK's own localhost protection only applies when the listener is on
	// loopback and knows nothing of --allowed-hosts; guard does both checks for
	// every listener, so the SDK's is turned off.
	streamOpts := &mcp.StreamableHTTPOptions{
		Stateless:                  true,
		JSONResponse:               true,
		Logger:                     slog.New(minLevel{o.Logger.Handler(), slog.LevelWarn}),
		DisableLocalhostProtection: true,
		MaxRequestBodyBytes:        o.MaxBodyBytes,
	}
	// A stateless call that asks for progress is answered as an SSE stream
	// (its notifications, then the result) by a handler without
	// JSONResponse; notifications/cancelled in a later POST reaches the call
	// through m.inflight (mcpserver/mcp_progress.go).
	streamOptsSSE := *streamOpts
	streamOptsSSE.JSONResponse = false
	m.inflight = newInflight()
	streamable := m.inflight.statelessCalls(mcp.NewStreamableHTTPHandler(getServer, streamOpts),
		mcp.NewStreamableHTTPHandler(getServer, &streamOptsSSE))
	sse := mcp.NewSSEHandler(getServer, &mcp.SSEOptions{
		DisableLocalhostProtection: true,
		MaxRequestBodyBytes:        o.MaxBodyBytes,
	})
	// With API tokens the surfaces' handlers enforce the caller's token
	// (surface.Principal): a stateless POST carries it in its context from
	// the server's access control; on the SDK's sessions mcpAccess puts it
	// there.
	tokens := p.Access != nil
	if tokens {
		m.surface.access = p.Access
		m.surface.server.AddReceivingMiddleware(m.mcpAccess)
	}
	// The hot methods of ordinary stateless POSTs are answered without the
	// SDK's per-request session (mcpserver/mcp_fast.go), with the same handlers;
	// everything else, and every request when o.SDKOnly is set, goes to the
	// SDK.
	var full http.Handler = idGuard(streamable, streamOpts.MaxRequestBodyBytes, http.StatusOK)
	if !o.SDKOnly {
		m.fast = fastForSurface(streamable, m.surface, streamOpts.MaxRequestBodyBytes)
		m.fast.inflight = m.inflight
		full = m.fast
	}
	r.Handle("/mcp", m.guard(m.scopeStatus(full)))
	r.Handle("/mcp/sse", m.guard(m.sseScopeGuard(idGuard(m.sseStreams(sse), o.MaxBodyBytes, http.StatusBadRequest))))
	if p.Plans.Svc != nil {
		// The compact surface (mcp_compact.go), stateless like /mcp.
		compact, ts := newCompactServer(p.Plans, o)
		if tokens {
			compact.AddReceivingMiddleware(m.mcpAccess)
		}
		getCompact := func(*http.Request) *mcp.Server { return compact }
		var h http.Handler = m.inflight.statelessCalls(mcp.NewStreamableHTTPHandler(getCompact, streamOpts),
			mcp.NewStreamableHTTPHandler(getCompact, &streamOptsSSE))
		sdkCompact := h
		h = idGuard(h, streamOpts.MaxRequestBodyBytes, http.StatusOK)
		if !o.SDKOnly {
			m.fastCompact = fastForCompact(sdkCompact, o.Logger, ts, streamOpts.MaxRequestBodyBytes)
			m.fastCompact.inflight = m.inflight
			h = m.fastCompact
		}
		r.Handle("/mcp/compact", m.guard(m.scopeStatus(h)))
	}
	return m
}

// Close ends every open SSE stream (and so its session), so that a graceful
// shutdown is not held up by hanging GETs. Calls in flight on /mcp, whose
// stateless sessions last one request, are left to finish like REST calls.
func (m *Endpoints) Close() {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, st := range m.streams {
		st.close()
	}
}

// guard refuses requests whose Host or Origin is not allowed (DNS-rebinding
// protection; 403 forbidden) and new requests while draining (503), and passes
// the request id on to the MCP handlers.
func (m *Endpoints) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !m.hosts.Allowed(r.Host) {
			surface.WriteError(w, surface.NewError(surface.CodeForbidden, "host "+surface.QuoteShort(r.Host)+" is not allowed for MCP (configure --allowed-hosts)"), false)
			return
		}
		if origin := r.Header.Get("Origin"); origin != "" && !m.hosts.AllowedOrigin(origin) {
			surface.WriteError(w, surface.NewError(surface.CodeForbidden, "origin "+surface.QuoteShort(origin)+" is not allowed for MCP (configure --allowed-hosts)"), false)
			return
		}
		if m.draining != nil && m.draining() {
			surface.WriteError(w, surface.NewError(surface.CodeShuttingDown, "the service is shutting down"), false)
			return
		}
		r.Header.Set(mcpRequestIDHeader, surface.RequestID(r.Context()))
		r.Header.Del(callContextHeader) // set by statelessCalls only
		next.ServeHTTP(w, r)
	})
}

// FastServed is how many requests the fast path of /mcp and /mcp/compact
// answered (mcp_fast.go); the rest went to the go-sdk.
func (m *Endpoints) FastServed() int64 {
	var n int64
	for _, f := range []*mcpFast{m.fast, m.fastCompact} {
		if f != nil {
			n += f.served.Load()
		}
	}
	return n
}

// Connect serves the full surface (every tool, as /mcp) to one in-process
// client over t, in a session of its own.
func (m *Endpoints) Connect(ctx context.Context, t mcp.Transport) (*mcp.ServerSession, error) {
	return m.surface.server.Connect(ctx, t, nil)
}
