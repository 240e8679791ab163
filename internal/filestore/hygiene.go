package filestore

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// UnavailableError is an I/O failure of the store's directory: the operation that
// failed and the operating system's error. It matches ErrUnavailable with
// errors.Is. Cause names the condition without the path, so it can be shown to
// a client.
type UnavailableError struct {
	Op  string // "create", "write", "rename", ...
	Err error
}

// Error implements error.
func (e *UnavailableError) Error() string { return "filestore: " + e.Op + ": " + e.Err.Error() }

// Unwrap lets errors.Is match both ErrUnavailable and the OS error.
func (e *UnavailableError) Unwrap() []error { return []error{ErrUnavailable, e.Err} }

// Cause describes the condition for a client: "read-only file system", "disk
// full", "permission denied", "not a directory", "directory missing", or the OS error's text for
// anything else (never a path).
func (e *UnavailableError) Cause() string {
	var errno syscall.Errno
	switch {
	case errors.Is(e.Err, syscall.EROFS):
		return "read-only file system"
	case errors.Is(e.Err, syscall.ENOSPC), errors.Is(e.Err, syscall.EDQUOT):
		return "disk full"
	case errors.Is(e.Err, syscall.EACCES), errors.Is(e.Err, syscall.EPERM):
		return "permission denied"
	case errors.Is(e.Err, syscall.ENOTDIR):
		return "not a directory"
	case errors.Is(e.Err, fs.ErrNotExist):
		return "directory missing"
	case errors.As(e.Err, &errno):
		return errno.Error()
	}
	return "I/O error"
}

func unavailable(op string, err error) error {
	return &UnavailableError{Op: op, Err: err}
}

// orphanGrace is how old an empty unlocked temporary file must be before it is
// taken for an orphan: a writer creates the file and locks it a moment later.
const orphanGrace = time.Minute

// RemoveOrphanTemps removes the temporary files left by writers that died
// mid-write, in this process or another sharing the directory, and returns how
// many it removed (they are also counted in TempFilesRemoved). A writer holds an
// exclusive lock on its temporary file until the rename, so a temporary file
// whose lock can be taken is an orphan once it has content (or, empty, after a
// grace period). Where the file system has no locks, temporary files older than
// the TTL are removed instead. Open calls it; so do sweeps.
func (s *Store) RemoveOrphanTemps() (int, error) {
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		if s.cfg.CreateOnWrite && errors.Is(err, fs.ErrNotExist) {
			return 0, nil // not created yet: no temporary files
		}
		return 0, unavailable("read directory", err)
	}
	n := 0
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), tempPrefix) && s.removeIfOrphan(e.Name()) {
			n++
		}
	}
	s.tempsRemoved.Add(int64(n))
	return n, nil
}

// TempFilesRemoved is the number of orphaned temporary files this Store has
// removed since Open (at Open and in sweeps): a counter for metrics.
func (s *Store) TempFilesRemoved() int64 { return s.tempsRemoved.Load() }

// removeIfOrphan removes the temporary file name when no live writer holds it.
func (s *Store) removeIfOrphan(name string) bool {
	path := filepath.Join(s.dir, name)
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	switch err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); {
	case errors.Is(err, syscall.EWOULDBLOCK):
		return false // a live writer
	case err != nil:
		// No locks on this file system: fall back to age.
		if !s.expired(fi.ModTime()) {
			return false
		}
	default:
		if fi.Size() == 0 && time.Since(fi.ModTime()) < orphanGrace {
			return false // maybe created an instant ago, not yet locked
		}
	}
	return os.Remove(path) == nil
}

// lockTemp takes the writer's lock on its temporary file. A file system without
// locks (some network file systems) is not an error: orphans are then found by
// age.
func lockTemp(f *os.File) error {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
	if errors.Is(err, syscall.ENOLCK) || errors.Is(err, syscall.EOPNOTSUPP) || errors.Is(err, syscall.EINVAL) {
		return nil
	}
	return err
}
