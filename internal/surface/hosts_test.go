package surface

import (
	"net"
	"strings"
	"testing"
)

func TestHostPolicy(t *testing.T) {
	p := NewHostPolicy([]string{"a.example", "b.example:443", " C.Example. "})
	for host, want := range map[string]bool{
		"localhost": true, "LOCALHOST:1": true, "127.0.0.1": true, "127.8.9.10:80": true, "[::1]": true, "[::1]:1": true,
		"a.example": true, "a.example:8080": true, "b.example:443": true, "b.example": false, "b.example:80": false,
		"c.example": true, "c.example.:1": true, "": false, "evil.example": false, "0.0.0.0": false, "localhost.evil": false,
	} {
		if got := p.Allowed(host); got != want {
			t.Errorf("allowed(%q) = %v, want %v", host, got, want)
		}
	}
	for origin, want := range map[string]bool{
		"http://localhost:3000": true, "https://a.example": true, "null": false, "file://": false, "http://evil.example": false,
	} {
		if got := p.AllowedOrigin(origin); got != want {
			t.Errorf("allowedOrigin(%q) = %v, want %v", origin, got, want)
		}
	}
	if !NewHostPolicy([]string{"*"}).Allowed("anything.example") {
		t.Error(`"*" does not allow every host`)
	}
}

// FuzzHostPolicy: host and origin checks never panic, and a host is allowed
// exactly when it is loopback or configured, whatever the case or port.
func FuzzHostPolicy(f *testing.F) {
	for _, s := range []string{"localhost:8003", "[::1]", "127.0.0.1", "evil.example", "a.example:1", "[", "]:", "::1", "http://x", "%00"} {
		f.Add(s)
	}
	p := NewHostPolicy([]string{"a.example", "b.example:443"})
	f.Fuzz(func(t *testing.T, host string) {
		got := p.Allowed(host)
		_ = p.AllowedOrigin(host)
		_ = p.AllowedOrigin("http://" + host)
		if got && !p.Allowed(strings.ToUpper(host)) {
			t.Errorf("%q allowed but not its upper case", host)
		}
	})
}

// FuzzLoopbackIP: isLoopbackIP agrees with net.ParseIP's IsLoopback.
func FuzzLoopbackIP(f *testing.F) {
	for _, s := range []string{"127.0.0.1", "127.255.0.9", "::1", "::ffff:127.0.0.1", "::ffff:7f00:1", "::127.0.0.1", "0:0:0:0:0:0:0:1", "::1%lo", "fe80::1%eth0",
		"127.0.0.01", "0127.0.0.1", "127.1", "1.2.3.4", "::", "", "[::1]", "::FFFF:127.0.0.1", "0000:0000:0000:0000:0000:0000:0000:0001"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ip := net.ParseIP(s)
		if got, want := isLoopbackIP(s), ip != nil && ip.IsLoopback(); got != want {
			t.Errorf("isLoopbackIP(%q) = %v, net.ParseIP says %v", s, got, want)
		}
	})
}
