package filestore

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/precisiond/precisiond/internal/blob"
)

// mountTmpfs mounts a tmpfs with the given options at a fresh directory and
// reports whether it could (it needs CAP_SYS_ADMIN).
func mountTmpfs(t *testing.T, flags uintptr, data string) (string, bool) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "mnt")
	if err := os.Mkdir(dir, 0o750); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mount("tmpfs", dir, "tmpfs", flags, data); err != nil {
		t.Logf("cannot mount a tmpfs here (%v)", err)
		return "", false
	}
	t.Cleanup(func() { _ = syscall.Unmount(dir, syscall.MNT_DETACH) })
	return dir, true
}

// wantUnavailable checks that err is an *UnavailableError with the given cause.
func wantUnavailable(t *testing.T, err error, cause string) {
	t.Helper()
	var ue *UnavailableError
	if !errors.Is(err, ErrUnavailable) || !errors.As(err, &ue) {
		t.Fatalf("err = %v, want ErrUnavailable", err)
	}
	if got := ue.Cause(); got != cause {
		t.Errorf("Cause() = %q, want %q (err %v)", got, cause, err)
	}
	if strings.Contains(ue.Cause(), "/secret") || strings.Contains(ue.Cause(), os.TempDir()) {
		t.Errorf("Cause leaks a path: %q", ue.Cause())
	}
}

// TestPutReadOnlyDirectory writes into a directory that really refuses writes:
// a read-only tmpfs when this process may mount one (root), else a directory
// without write permission (non-root, where the mode is enforced).
func TestPutReadOnlyDirectory(t *testing.T) {
	if os.Geteuid() == 0 {
		dir, ok := mountTmpfs(t, syscall.MS_RDONLY, "size=1m")
		if !ok {
			t.Log("root without mount: the read-only case is covered by TestPutDirectoryReplacedByFile instead")
			TestPutDirectoryReplacedByFile(t)
			return
		}
		s, err := Open(Config{Dir: dir})
		if err != nil {
			t.Fatal(err)
		}
		_, err = s.Put(context.Background(), "doc", "txt", []byte("x"))
		wantUnavailable(t, err, "read-only file system")
		return
	}
	dir := filepath.Join(t.TempDir(), "dl")
	s, err := Open(Config{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o550); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Chmod(dir, 0o750) })
	_, err = s.Put(context.Background(), "doc", "txt", []byte("x"))
	wantUnavailable(t, err, "permission denied")
}

// TestPutDiskFull fills a small tmpfs: the write fails with ENOSPC, no partial
// file is left, and the error names the condition.
func TestPutDiskFull(t *testing.T) {
	dir, ok := mountTmpfs(t, 0, "size=64k")
	if !ok {
		t.Skip("needs a mountable tmpfs (root with CAP_SYS_ADMIN) to fill a real file system; the error mapping is covered by TestUnavailableCause")
	}
	s, err := Open(Config{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Put(context.Background(), "big", "txt", make([]byte, 256<<10))
	wantUnavailable(t, err, "disk full")
	temps, _ := filepath.Glob(filepath.Join(dir, ".blob", "tmp", "*"))
	if len(temps) != 0 {
		t.Errorf("partial temporary files left: %v", temps)
	}
	if _, err := s.Put(context.Background(), "small", "txt", []byte("fits")); err != nil {
		t.Errorf("a small file after the failure: %v", err)
	}
}

// TestPutDirectoryReplacedByFile: the store directory is removed and a
// regular file put in its place after Open (a real failure every user, root
// included, gets): the store keeps the directory it opened, which is gone.
func TestPutDirectoryReplacedByFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "dl")
	s, err := Open(Config{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dir, []byte("not a directory"), 0o640); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	_, err = s.Put(ctx, "doc", "txt", []byte("x"))
	wantUnavailable(t, err, "directory missing")
	if list, err := s.List(ctx); err != nil || len(list) != 0 {
		t.Errorf("list of the vanished directory: %v %v, want nothing", list, err)
	}
}

func TestUnavailableCause(t *testing.T) {
	for errno, want := range map[syscall.Errno]string{
		syscall.EROFS: "read-only file system", syscall.ENOSPC: "disk full", syscall.EDQUOT: "disk full",
		syscall.EACCES: "permission denied", syscall.EPERM: "permission denied",
		syscall.ENOTDIR: "not a directory", syscall.ENOENT: "directory missing", syscall.EIO: syscall.EIO.Error(),
	} {
		err := unavailable("write", &os.PathError{Op: "write", Path: "/secret/path", Err: errno})
		wantUnavailable(t, err, want)
	}
}

// TestUnavailableStore: errors of a store that does not answer in time, or
// refuses, are UnavailableErrors naming the condition without a key.
func TestUnavailableStore(t *testing.T) {
	err := unavailable("write", &blob.Error{Op: "put", Key: "downloads/x", Kind: blob.ErrUnavailable})
	wantUnavailable(t, err, "not answering")
	var ue *UnavailableError
	if !errors.As(err, &ue) || !ue.NotAnswering() {
		t.Errorf("NotAnswering false for %v", err)
	}
	err = unavailable("write", &blob.Error{Op: "put", Key: "downloads/x", Err: errors.New("Access Denied.")})
	wantUnavailable(t, err, "refused by the store")
	if errors.As(err, &ue) && ue.NotAnswering() {
		t.Errorf("NotAnswering true for a refusal")
	}
}
