package filestore

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestJanitorInterval(t *testing.T) {
	for _, c := range []struct{ ttl, want time.Duration }{
		{time.Second, time.Minute},
		{30 * time.Minute, 3 * time.Minute},
		{24 * time.Hour, 10 * time.Minute},
	} {
		if got := JanitorInterval(c.ttl); got != c.want {
			t.Errorf("JanitorInterval(%s): got %s, want %s", c.ttl, got, c.want)
		}
	}
}

// TestRunJanitor: the janitor removes an expired file, and returns when its
// context ends.
func TestRunJanitor(t *testing.T) {
	now := time.Now()
	clock := func() time.Time { return now }
	dir := t.TempDir()
	s, err := Open(Config{Dir: dir, TTL: time.Hour, Now: func() time.Time { return clock() }})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	e, err := s.Put(ctx, "report", "txt", []byte("x"))
	if err != nil {
		t.Fatal(err)
	}
	// List hides an expired file at once: look at the directory.
	file := filepath.Join(dir, e.Name) // Open: the directory itself, no prefix
	if _, err := os.Stat(file); err != nil {
		t.Fatalf("the stored file is not where the test looks: %v", err)
	}
	later := now.Add(2 * time.Hour)
	clock = func() time.Time { return later }
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.RunJanitor(ctx, time.Millisecond, slog.New(slog.NewTextHandler(io.Discard, nil)))
	}()
	for {
		if _, err := os.Stat(file); os.IsNotExist(err) {
			break
		}
		time.Sleep(time.Millisecond)
	}
	cancel()
	<-done
}

// TestRemoveDeadWriterTemps: a dead worker's temporary file is removed at
// once and the removal logged with its reason.
func TestRemoveDeadWriterTemps(t *testing.T) {
	s := newStore(t, Config{})
	tmp := filepath.Join(s.Dir(), ".blob", "tmp", "0123456789ab")
	if err := os.WriteFile(tmp, []byte("half a fi"), 0o640); err != nil {
		t.Fatal(err)
	}
	var logs strings.Builder
	s.RemoveDeadWriterTemps(slog.New(slog.NewTextHandler(&logs, nil)), "deadline")
	if _, err := os.Lstat(tmp); !os.IsNotExist(err) {
		t.Fatal("orphaned temporary file not removed")
	}
	if got := logs.String(); !strings.Contains(got, "removed temporary files of a dead worker") || !strings.Contains(got, "files=1 reason=deadline") {
		t.Errorf("log: %s", got)
	}
}
