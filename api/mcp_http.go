package api

import (
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"sync"

	"github.com/go-chi/chi/v5"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/precisiond/precisiond/internal/defaults"
	"github.com/precisiond/precisiond/internal/surface"
)

// mcpMount is the MCP surface on the HTTP router: /mcp (Streamable HTTP,
// stateless), /mcp/sse (the 2024-11-05 HTTP+SSE transport) and, with a plan
// service, /mcp/compact (the compact surface, Streamable HTTP, stateless).
type mcpMount struct {
	srv     *Server
	surface *mcpSurface
	hosts   hostPolicy

	mu        sync.Mutex
	streams   map[*http.Request]*sseStream // open SSE GETs
	bySession map[string]*sseStream        // the same, by MCP session id once known
	sse       sseLimits

	fast, fastCompact *mcpFast // nil: the SDK serves every request
	// inflight holds the stateless calls in progress, for
	// notifications/cancelled (api/mcp_progress.go).
	inflight *inflight
}

// mountMCP mounts /mcp and /mcp/sse on r; settings missing from Options.MCP
// come from Options (logger, call timeout, body limit, version).
func (s *Server) mountMCP(r chi.Router) {
	o := *s.opts.MCP
	if o.Logger == nil {
		o.Logger = s.log
	}
	defaults.Positive(&o.MaxBodyBytes, s.opts.MaxBodyBytes)
	if o.Version == "" {
		o.Version = s.opts.Version
	}
	m := &mcpMount{srv: s, surface: newMCPSurface(s.reg, o), hosts: newHostPolicy(o.AllowedHosts),
		streams: map[*http.Request]*sseStream{}, bySession: map[string]*sseStream{}, sse: newSSELimits(o)}
	s.mcp = m
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
	// through m.inflight (api/mcp_progress.go).
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
	// (principal): a stateless POST carries it in its context from
	// accessControl; on the SDK's sessions mcpAccess puts it there.
	tokens := s.edge.authOn()
	if tokens {
		m.surface.access = s
		m.surface.server.AddReceivingMiddleware(m.mcpAccess)
	}
	// The hot methods of ordinary stateless POSTs are answered without the
	// SDK's per-request session (api/mcp_fast.go), with the same handlers;
	// everything else, and every request when o.sdkOnly is set, goes to the
	// SDK.
	var full http.Handler = idGuard(streamable, streamOpts.MaxRequestBodyBytes, http.StatusOK)
	if !o.sdkOnly {
		m.fast = fastForSurface(streamable, m.surface, streamOpts.MaxRequestBodyBytes)
		m.fast.inflight = m.inflight
		full = m.fast
	}
	r.Handle("/mcp", m.guard(m.scopeStatus(full)))
	r.Handle("/mcp/sse", m.guard(m.sseScopeGuard(idGuard(m.sseStreams(sse), o.MaxBodyBytes, http.StatusBadRequest))))
	if s.ops.Svc != nil {
		// The compact surface (api/mcp_compact.go), stateless like /mcp.
		compact, ts := newCompactServer(s.ops, o)
		if tokens {
			compact.AddReceivingMiddleware(m.mcpAccess)
		}
		getCompact := func(*http.Request) *mcp.Server { return compact }
		var h http.Handler = m.inflight.statelessCalls(mcp.NewStreamableHTTPHandler(getCompact, streamOpts),
			mcp.NewStreamableHTTPHandler(getCompact, &streamOptsSSE))
		sdkCompact := h
		h = idGuard(h, streamOpts.MaxRequestBodyBytes, http.StatusOK)
		if !o.sdkOnly {
			m.fastCompact = fastForCompact(sdkCompact, o.Logger, ts, streamOpts.MaxRequestBodyBytes)
			m.fastCompact.inflight = m.inflight
			h = m.fastCompact
		}
		r.Handle("/mcp/compact", m.guard(m.scopeStatus(h)))
	}
}

// closeMCP ends every open SSE stream (and so its session), so that a graceful
// shutdown is not held up by hanging GETs. Calls in flight on /mcp, whose
// stateless sessions last one request, are left to finish like REST calls.
func (s *Server) closeMCP() {
	if s.mcp == nil {
		return
	}
	s.mcp.mu.Lock()
	defer s.mcp.mu.Unlock()
	for _, st := range s.mcp.streams {
		st.close()
	}
}

// guard refuses requests whose Host or Origin is not allowed (DNS-rebinding
// protection; 403 forbidden) and new requests while draining (503), and passes
// the request id on to the MCP handlers.
func (m *mcpMount) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !m.hosts.allowed(r.Host) {
			surface.WriteError(w, surface.NewError(surface.CodeForbidden, "host "+quoteShort(r.Host)+" is not allowed for MCP (configure --allowed-hosts)"), false)
			return
		}
		if origin := r.Header.Get("Origin"); origin != "" && !m.hosts.allowedOrigin(origin) {
			surface.WriteError(w, surface.NewError(surface.CodeForbidden, "origin "+quoteShort(origin)+" is not allowed for MCP (configure --allowed-hosts)"), false)
			return
		}
		if m.srv.draining.Load() {
			surface.WriteError(w, surface.NewError(surface.CodeShuttingDown, "the service is shutting down"), false)
			return
		}
		r.Header.Set(mcpRequestIDHeader, surface.RequestID(r.Context()))
		r.Header.Del(callContextHeader) // set by statelessCalls only
		next.ServeHTTP(w, r)
	})
}

func quoteShort(s string) string {
	if len(s) > 100 {
		s = s[:100]
	}
	return `"` + strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == '"' {
			return '?'
		}
		return r
	}, s) + `"`
}

// hostPolicy decides which Host names the MCP transports accept: loopback
// (localhost, 127.0.0.0/8, ::1) with any port, plus the configured names.
type hostPolicy struct {
	any       bool
	names     map[string]bool // host, any port
	hostPorts map[string]bool // host:port exactly
}

func newHostPolicy(allowed []string) hostPolicy {
	p := hostPolicy{names: map[string]bool{}, hostPorts: map[string]bool{}}
	for _, a := range allowed {
		a = strings.ToLower(strings.TrimSpace(a))
		switch {
		case a == "":
		case a == "*":
			p.any = true
		default:
			if h, port, err := net.SplitHostPort(a); err == nil {
				p.hostPorts[strings.TrimSuffix(h, ".")+":"+port] = true
			} else {
				p.names[strings.TrimSuffix(strings.Trim(a, "[]"), ".")] = true
			}
		}
	}
	return p
}

// allowed reports whether a Host header value (host or host:port) is allowed.
func (p hostPolicy) allowed(hostport string) bool {
	if p.any {
		return true
	}
	host, port := hostport, ""
	if h, pt, err := net.SplitHostPort(hostport); err == nil {
		host, port = h, pt
	} else if strings.HasPrefix(hostport, "[") && strings.HasSuffix(hostport, "]") {
		host = hostport[1 : len(hostport)-1]
	}
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if host == "" {
		return false
	}
	if host == "localhost" {
		return true
	}
	if isLoopbackIP(host) {
		return true
	}
	return p.names[host] || (port != "" && p.hostPorts[host+":"+port])
}

// isLoopbackIP reports whether s is a loopback address as net.ParseIP reads
// it (no zone), without allocating.
func isLoopbackIP(s string) bool {
	a, err := netip.ParseAddr(s)
	return err == nil && a.Zone() == "" && a.IsLoopback()
}

// allowedOrigin checks an Origin header: its host must be allowed. "null" and
// other opaque origins are refused.
func (p hostPolicy) allowedOrigin(origin string) bool {
	if p.any {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return false
	}
	return p.allowed(u.Host)
}
