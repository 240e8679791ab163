package testhttp

import (
	"errors"
	"net"
	"syscall"
	"testing"
)

// TestRefusedAddr: the address refuses connections, and nothing else can
// listen on it while the test holds it.
func TestRefusedAddr(t *testing.T) {
	addr := RefusedAddr(t)
	if _, err := net.Dial("tcp", addr); !errors.Is(err, syscall.ECONNREFUSED) {
		t.Errorf("dial %s: %v, want connection refused", addr, err)
	}
	if l, err := net.Listen("tcp", addr); err == nil {
		l.Close()
		t.Errorf("listened on %s while it is held", addr)
	}
}

// TestListenAddr: the address comes from the "listening" line, wherever it is
// in the log.
func TestListenAddr(t *testing.T) {
	log := &SyncBuffer{}
	log.Write([]byte(`{"time":"2026-12-02T07:00:00Z","level":"INFO","msg":"starting"}` + "\n" +
		`{"time":"2026-12-02T07:00:00Z","level":"INFO","msg":"listening","addr":"127.0.0.1:41234","tools":23}` + "\n"))
	if got, want := ListenAddr(t, log), "127.0.0.1:41234"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
