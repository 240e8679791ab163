package toggles

import (
	"bytes"
	"context"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/precisiond/precisiond/internal/testhttp"
)

// TestWatchFollowsOtherWriters: a toggle another process writes reaches a
// watching one, which calls changed; an unreadable state is logged once and
// its recovery once, the current state staying in force meanwhile.
func TestWatchFollowsOtherWriters(t *testing.T) {
	b := dirBackend(t)
	reg, other := newReg(t), newReg(t)
	watched, writer := load(t, b, reg), load(t, b, other)
	logs := &testhttp.SyncBuffer{}
	log := slog.New(slog.NewTextHandler(logs, nil))
	ctx, cancel := context.WithCancel(ctxT(t))
	changed := make(chan struct{}, 16)
	done := make(chan struct{})
	go func() {
		defer close(done)
		watched.Watch(ctx, time.Millisecond, time.Second, log, func() { changed <- struct{}{} })
	}()
	if _, _, err := writer.Set(ctxT(t), "gcd_lcm", false); err != nil {
		t.Fatal(err)
	}
	<-changed
	if got := reg.Disabled(); !slices.Equal(got, []string{"gcd_lcm"}) {
		t.Errorf("disabled after the change: got %v", got)
	}
	b.put([]byte("not json"))
	for !strings.Contains(logs.String(), "toggle state unreadable") {
		time.Sleep(time.Millisecond)
	}
	b.put([]byte(`{"disabled":[]}`))
	<-changed
	for !strings.Contains(logs.String(), "toggle state readable again") {
		time.Sleep(time.Millisecond)
	}
	cancel()
	<-done
	if n := bytes.Count([]byte(logs.String()), []byte("toggle state unreadable")); n != 1 {
		t.Errorf("unreadable logged %d times, want once:\n%s", n, logs)
	}
	if got := reg.Disabled(); len(got) != 0 {
		t.Errorf("disabled after the recovery: got %v", got)
	}
}
