package blob

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestCreateOnWrite: a file: store opened with CreateOnWrite leaves a missing
// directory missing and reads as empty until the first Put creates it.
func TestCreateOnWrite(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state", "precisiond")
	s, err := Open(Location{Kind: "file", Dir: dir}, Options{CreateOnWrite: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	if _, err := s.Stat(ctx, "downloads/x"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Stat: %v", err)
	}
	if _, err := s.Get(ctx, "downloads/x", GetOptions{}); !errors.Is(err, ErrNotFound) {
		t.Errorf("Get: %v", err)
	}
	n := 0
	if err := s.List(ctx, "", func(Info) error { n++; return nil }); err != nil || n != 0 {
		t.Errorf("List: %d %v", n, err)
	}
	if h := s.Ping(ctx); !h.OK || s.Delete(ctx, "downloads/x") != nil {
		t.Errorf("Ping %+v", h)
	}
	if _, err := os.Lstat(filepath.Dir(dir)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("reads created the directory: %v", err)
	}
	if _, err := s.Put(ctx, "downloads/x", []byte("hi"), PutOptions{IfNoneMatch: true}); err != nil {
		t.Fatal(err)
	}
	obj, err := s.Get(ctx, "downloads/x", GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(obj)
	obj.Close()
	if string(b) != "hi" {
		t.Errorf("read %q", b)
	}
	if d, ok := Inner[*DirStore](s); !ok || d.Dir() != dir {
		t.Errorf("the directory store under it: %v", ok)
	}
}
