package access

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/precisiond/precisiond/internal/testhttp"
)

func TestIssue(t *testing.T) {
	secret, line, err := Issue("reporting", []string{"date_*"}, 60)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(secret, TokenPrefix) {
		t.Errorf("secret %q has no prefix %q", secret, TokenPrefix)
	}
	var tok Token
	if err := json.Unmarshal(line, &tok); err != nil {
		t.Fatal(err)
	}
	if tok.Name != "reporting" || tok.SHA256 != Hash(secret) || len(tok.Tools) != 1 || tok.Tools[0] != "date_*" || tok.RatePerMinute != 60 {
		t.Errorf("line: %s", line)
	}
	if bytes.Contains(line, []byte(secret)) {
		t.Error("the line holds the secret")
	}
	for _, c := range []struct {
		name  string
		scope []string
		rate  int
	}{{"bad name!", nil, 0}, {"ok", nil, -1}, {"ok", []string{"no such [glob"}, 0}} {
		if _, _, err := Issue(c.name, c.scope, c.rate); err == nil {
			t.Errorf("Issue(%q, %q, %d) accepted", c.name, c.scope, c.rate)
		}
	}
}

func TestLoopback(t *testing.T) {
	for addr, want := range map[string]bool{
		"127.0.0.1:8003": true, "localhost:1": true, "[::1]:80": true, "LocalHost:1": true,
		"0.0.0.0:8003": false, ":8003": false, "10.0.0.1:80": false, "example.com:80": false, "nonsense": false,
	} {
		if got := Loopback(addr); got != want {
			t.Errorf("Loopback(%q): got %v, want %v", addr, got, want)
		}
	}
	if err := CheckExposure("127.0.0.1:1", false, false); err != nil {
		t.Error(err)
	}
	if err := CheckExposure(":8003", true, false); err != nil {
		t.Error(err)
	}
	if err := CheckExposure(":8003", false, true); err != nil {
		t.Error(err)
	}
	if err := CheckExposure(":8003", false, false); err == nil || !strings.Contains(err.Error(), "precisiond token new NAME") {
		t.Errorf("exposed without tokens: %v", err)
	}
}

// TestKeyringWatch: a changed tokens file is picked up and logged; an
// invalid one keeps the current tokens and says so.
func TestKeyringWatch(t *testing.T) {
	file := filepath.Join(t.TempDir(), "tokens.json")
	write := func(n int) {
		t.Helper()
		var lines []string
		for i := range n {
			_, line, err := Issue("t"+string(rune('a'+i)), nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			lines = append(lines, string(line))
		}
		if err := os.WriteFile(file, []byte(`{"tokens":[`+strings.Join(lines, ",")+`]}`), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(1)
	k, err := Open(file)
	if err != nil {
		t.Fatal(err)
	}
	var logs testhttp.SyncBuffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); k.Watch(ctx, time.Millisecond, log) }()
	write(2)
	for k.Set().Len() != 2 {
		time.Sleep(time.Millisecond)
	}
	cancel()
	<-done
	if !strings.Contains(logs.String(), "API tokens reloaded") || !strings.Contains(logs.String(), "trigger=\"file changed\"") {
		t.Errorf("log: %s", logs.String())
	}
	if err := os.WriteFile(file, []byte("garbage"), 0o600); err != nil {
		t.Fatal(err)
	}
	k.ReloadLogged(log, "SIGHUP")
	if got := k.Set().Len(); got != 2 {
		t.Errorf("tokens after an invalid file: got %d, want 2", got)
	}
	if !strings.Contains(logs.String(), "keeping the current tokens") {
		t.Errorf("log: %s", logs.String())
	}
}
