package blob

import (
	"errors"
	"log/slog"
	"strings"
	"testing"

	"github.com/precisiond/precisiond/internal/testhttp"
)

// TestLogHealth: nothing when the store answers from the start; one line
// when it goes down and one when it answers again.
func TestLogHealth(t *testing.T) {
	logs := &testhttp.SyncBuffer{}
	f := LogHealth(slog.New(slog.NewTextHandler(logs, nil)), "file:/x")
	f(Health{OK: true})
	if logs.String() != "" {
		t.Errorf("first healthy check logged: %s", logs)
	}
	f(Health{Reason: "store_unavailable", Err: errors.New("boom")})
	if s := logs.String(); !strings.Contains(s, "level=WARN") || !strings.Contains(s, "store unavailable") || !strings.Contains(s, "boom") {
		t.Errorf("down: %s", s)
	}
	f(Health{OK: true})
	if s := logs.String(); !strings.Contains(s, `msg="store answers" store=file:/x`) {
		t.Errorf("back: %s", s)
	}
}
