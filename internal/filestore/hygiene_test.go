package filestore

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// killedWriterEnv makes the test binary a writer that blocks mid-write (see
// TestMain): the parent kills it there, as a crash or a deadline kill would.
const killedWriterEnv = "FILESTORE_TEST_KILLED_WRITER_DIR"

func TestMain(m *testing.M) {
	if dir := os.Getenv(killedWriterEnv); dir != "" {
		s, err := Open(Config{Dir: dir, SkipTempCleanup: true})
		if err != nil {
			os.Exit(3)
		}
		s.testHookAfterWrite = func(string) error {
			os.Stdout.WriteString("written\n")
			select {} // wait to be killed, lock held
		}
		_, _ = s.Put("doc", "txt", []byte("content the writer never finished"))
		os.Exit(4)
	}
	os.Exit(m.Run())
}

// TestKilledWriterOrphanRemovedAtOpen: a process killed with SIGKILL in the
// middle of Put leaves a temporary file; it is not removed while another
// writer's file is locked, and the next Open removes and counts it.
func TestKilledWriterOrphanRemovedAtOpen(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "downloads")
	if err := os.MkdirAll(dir, 0o750); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), killedWriterEnv+"="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 8)
	if n, err := out.Read(buf); err != nil || string(buf[:n]) != "written\n" {
		_ = cmd.Process.Kill()
		t.Fatalf("writer did not reach the middle of its write: %q %v", buf[:n], err)
	}
	// While the writer lives, its file is left alone by anyone opening the store.
	live, err := Open(Config{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if n := live.TempFilesRemoved(); n != 0 {
		t.Fatalf("a live writer's file was removed (%d)", n)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	temps, _ := filepath.Glob(filepath.Join(dir, tempPrefix+"*"))
	if len(temps) != 1 {
		t.Fatalf("temporary files after the kill: %v", temps)
	}
	s, err := Open(Config{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if got := s.TempFilesRemoved(); got != 1 {
		t.Errorf("TempFilesRemoved = %d, want 1", got)
	}
	if _, err := os.Lstat(temps[0]); !os.IsNotExist(err) {
		t.Errorf("orphan still there: %v", err)
	}
}

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
		_, err = s.Put("doc", "txt", []byte("x"))
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
	_, err = s.Put("doc", "txt", []byte("x"))
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
	_, err = s.Put("big", "txt", make([]byte, 256<<10))
	wantUnavailable(t, err, "disk full")
	temps, _ := filepath.Glob(filepath.Join(dir, tempPrefix+"*"))
	if len(temps) != 0 {
		t.Errorf("partial temporary files left: %v", temps)
	}
	if _, err := s.Put("small", "txt", []byte("fits")); err != nil {
		t.Errorf("a small file after the failure: %v", err)
	}
}

// TestPutDirectoryReplacedByFile: the store directory is replaced by a regular
// file after Open (a real failure every user, root included, gets).
func TestPutDirectoryReplacedByFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "dl")
	s, err := Open(Config{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dir, []byte("not a directory"), 0o640); err != nil {
		t.Fatal(err)
	}
	_, err = s.Put("doc", "txt", []byte("x"))
	wantUnavailable(t, err, "not a directory")
	_, err = s.List()
	wantUnavailable(t, err, "not a directory")
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

// TestEmptyTempFileGrace: an unlocked empty temporary file may be one a writer
// created an instant ago; it is kept until it is older than the grace period.
func TestEmptyTempFileGrace(t *testing.T) {
	s, _ := newStore(t, Config{})
	fresh := filepath.Join(s.Dir(), tempPrefix+"fresh")
	old := filepath.Join(s.Dir(), tempPrefix+"old")
	for _, p := range []string{fresh, old} {
		if err := os.WriteFile(p, nil, 0o640); err != nil {
			t.Fatal(err)
		}
	}
	past := time.Now().Add(-2 * orphanGrace)
	if err := os.Chtimes(old, past, past); err != nil {
		t.Fatal(err)
	}
	n, err := s.RemoveOrphanTemps()
	if err != nil || n != 1 {
		t.Fatalf("removed %d, %v; want 1", n, err)
	}
	if _, err := os.Lstat(fresh); err != nil {
		t.Error("fresh empty temporary file removed")
	}
	if _, err := os.Lstat(old); !os.IsNotExist(err) {
		t.Error("old empty temporary file kept")
	}
}
