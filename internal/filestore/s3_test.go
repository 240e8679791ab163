package filestore

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/precisiond/precisiond/internal/blob"
	"github.com/precisiond/precisiond/internal/s3test"
)

// s3Replicas opens n download stores on one fresh prefix of a real S3 server
// (each its own client, as replicas are), sharing a clock that runs offset
// ahead of the real one.
func s3Replicas(t *testing.T, srv *s3test.Server, n int, cfg Config, offset *atomic.Int64) []*Store {
	t.Helper()
	loc, err := blob.ParseLocation(srv.Location())
	if err != nil {
		t.Fatal(err)
	}
	cfg.Prefix = Prefix
	cfg.Now = func() time.Time { return time.Now().Add(time.Duration(offset.Load())) }
	var out []*Store
	for range n {
		b, err := blob.Open(loc, blob.Options{Getenv: srv.Getenv, Timeouts: blob.Timeouts{Op: time.Second, Dial: time.Second, IO: 2 * time.Second}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = b.Close() })
		out = append(out, New(b, cfg))
	}
	return out
}

// TestS3Replicas: a file stored through one replica is listed, read and
// streamed (Range, ETag = SHA-256) by another; storing it again does not
// rewrite it; it expires for readers after the TTL and the janitor deletes it;
// the size cap is enforced by the janitor's sweep.
func TestS3Replicas(t *testing.T) {
	srv := s3test.Start(t)
	var offset atomic.Int64
	st := s3Replicas(t, srv, 2, Config{TTL: time.Hour, MaxBytes: 150}, &offset)
	a, b := st[0], st[1]
	ctx := context.Background()
	data := []byte(string(bytes.Repeat([]byte("0123456789"), 10)))
	e, err := a.Put(ctx, "report", "txt", data)
	if err != nil {
		t.Fatal(err)
	}
	if b.Dir() != "" || b.Blob().Kind() != "s3" {
		t.Errorf("an S3 store has no directory: %q", b.Dir())
	}
	got, e2, err := b.ReadFile(ctx, e.Name)
	if err != nil || !bytes.Equal(got, data) || e2.SHA256 != e.SHA256 {
		t.Fatalf("read on the other replica: %q %+v %v", got, e2, err)
	}
	first, err := a.Blob().Stat(ctx, Prefix+e.Name)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Put(ctx, "report", "txt", data); err != nil {
		t.Fatal(err)
	}
	if again, _ := a.Blob().Stat(ctx, Prefix+e.Name); again.ETag != first.ETag || !again.ModTime.Equal(first.ModTime) {
		t.Errorf("storing the same fresh bytes again rewrote the object: %+v, was %+v", again, first)
	}
	srvHTTP := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ent, rs, err := b.Reader(r.Context(), e.Name)
		if err != nil {
			http.Error(w, err.Error(), http.StatusNotFound)
			return
		}
		defer rs.Close()
		w.Header().Set("ETag", `"`+ent.SHA256+`"`)
		http.ServeContent(w, r, ent.Name, time.Time{}, rs)
	}))
	defer srvHTTP.Close()
	req, _ := http.NewRequest("GET", srvHTTP.URL, nil)
	req.Header.Set("Range", "bytes=95-")
	resp, err := srvHTTP.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 206 || string(body) != "56789" || resp.Header.Get("ETag") != `"`+e.SHA256+`"` {
		t.Errorf("ranged read: %d %q %q", resp.StatusCode, body, resp.Header.Get("ETag"))
	}
	if list, err := b.List(ctx); err != nil || len(list) != 1 || list[0].Name != e.Name {
		t.Errorf("list on the other replica: %+v %v", list, err)
	}

	// The cap: S3 stores are trimmed by the janitor, not at every write.
	e3, err := a.Put(ctx, "third", "txt", bytes.Repeat([]byte("c"), 100))
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(1100 * time.Millisecond) // S3 modification times are whole seconds
	e4, err := a.Put(ctx, "fourth", "txt", bytes.Repeat([]byte("d"), 100))
	if err != nil {
		t.Fatal(err)
	}
	if list, _ := b.List(ctx); len(list) != 3 {
		t.Fatalf("before the sweep: %d files, want 3 (no trim on an S3 write)", len(list))
	}
	if err := b.Sweep(ctx); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		want bool
	}{{e.Name, false}, {e3.Name, false}, {e4.Name, true}} {
		_, _, err := a.ReadFile(ctx, c.name)
		if (err == nil) != c.want {
			t.Errorf("%s after the sweep to 150 bytes: %v, want kept=%v", c.name, err, c.want)
		}
	}
	if files, bytes, _ := b.Usage(); files != 1 || bytes != 100 {
		t.Errorf("usage after the sweep: %d files, %d bytes", files, bytes)
	}

	// Expiry: two hours later the file is gone for readers, then deleted.
	offset.Store(int64(2 * time.Hour))
	if _, _, err := b.ReadFile(ctx, e4.Name); !errors.Is(err, ErrNotFound) {
		t.Errorf("expired file read: %v", err)
	}
	if err := a.Sweep(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Blob().Stat(ctx, Prefix+e4.Name); !errors.Is(err, blob.ErrNotFound) {
		t.Errorf("the janitor left the expired object: %v", err)
	}
}

// TestS3Unavailable: a stopped S3 server makes writes and reads fail with an
// UnavailableError saying the store is not answering, never ErrNotFound.
func TestS3Unavailable(t *testing.T) {
	srv := s3test.Start(t)
	var offset atomic.Int64
	s := s3Replicas(t, srv, 1, Config{}, &offset)[0]
	ctx := context.Background()
	e, err := s.Put(ctx, "x", "txt", []byte("x"))
	if err != nil {
		t.Fatal(err)
	}
	srv.Stop()
	_, err = s.Put(ctx, "y", "txt", []byte("y"))
	wantUnavailable(t, err, "not answering")
	_, _, err = s.ReadFile(ctx, e.Name)
	wantUnavailable(t, err, "not answering")
	_, err = s.List(ctx)
	wantUnavailable(t, err, "not answering")
}
