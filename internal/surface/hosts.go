package surface

import (
	"net"
	"net/netip"
	"net/url"
	"strings"
)

// HostPolicy decides which Host names the MCP transports accept (and, for CORS, the REST routes): loopback
// (localhost, 127.0.0.0/8, ::1) with any port, plus the configured names.
type HostPolicy struct {
	any       bool
	names     map[string]bool // host, any port
	hostPorts map[string]bool // host:port exactly
}

// NewHostPolicy reads the allowed names (--allowed-hosts): "name" (any port),
// "name:port", "*" (any host).
func NewHostPolicy(allowed []string) HostPolicy {
	p := HostPolicy{names: map[string]bool{}, hostPorts: map[string]bool{}}
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

// Allowed reports whether a Host header value (host or host:port) is allowed.
func (p HostPolicy) Allowed(hostport string) bool {
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

// AllowedOrigin checks an Origin header: its host must be allowed. "null" and
// other opaque origins are refused.
func (p HostPolicy) AllowedOrigin(origin string) bool {
	if p.any {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return false
	}
	return p.Allowed(u.Host)
}

// QuoteShort quotes a header value for an error message: at most 100 bytes,
// control characters and quotes replaced by '?'.
func QuoteShort(s string) string {
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
