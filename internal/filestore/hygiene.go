package filestore

import (
	"errors"
	"io/fs"
	"log/slog"
	"syscall"

	"github.com/precisiond/precisiond/internal/blob"
)

// UnavailableError is a failure of the store under the download files: the
// operation that failed and the store's error. It matches ErrUnavailable with
// errors.Is. Cause names the condition without a path or a key, so it can be
// shown to a client.
type UnavailableError struct {
	Op  string // "write", "stat", "read", "list", ...
	Err error
}

// Error implements error.
func (e *UnavailableError) Error() string { return "filestore: " + e.Op + ": " + e.Err.Error() }

// Unwrap lets errors.Is match both ErrUnavailable and the store's error.
func (e *UnavailableError) Unwrap() []error { return []error{ErrUnavailable, e.Err} }

// Cause describes the condition for a client: "not answering" (the store did
// not answer in time), "read-only file system", "disk full", "permission
// denied", "not a directory", "directory missing", the OS error's text for any
// other OS error, or "refused by the store" (an object store's refusal: bad
// credentials, a missing bucket). Never a path.
func (e *UnavailableError) Cause() string {
	var errno syscall.Errno
	switch {
	case errors.Is(e.Err, blob.ErrUnavailable):
		return "not answering"
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
	return "refused by the store"
}

// NotAnswering reports whether the store did not answer in time (as opposed to
// answering with a refusal).
func (e *UnavailableError) NotAnswering() bool { return errors.Is(e.Err, blob.ErrUnavailable) }

func unavailable(op string, err error) error {
	return &UnavailableError{Op: op, Err: err}
}

// tempCleaner is what a directory store offers for its temporary files.
type tempCleaner interface {
	RemoveOrphanTemps() (int, error)
	TempFilesRemoved() int64
}

// RemoveOrphanTemps removes the temporary files left by writers that died
// mid-write, in this process or another sharing the directory, and returns how
// many it removed (also counted in TempFilesRemoved); see
// blob.DirStore.RemoveOrphanTemps. An S3 store has no temporary files (an
// upload that dies leaves nothing).
func (s *Store) RemoveOrphanTemps() (int, error) {
	c, ok := blob.Inner[tempCleaner](s.blob)
	if !ok {
		return 0, nil
	}
	n, err := c.RemoveOrphanTemps()
	if err != nil {
		return n, unavailable("clean", err)
	}
	return n, nil
}

// TempFilesRemoved is the number of orphaned temporary files removed since the
// store was opened (at open, after a worker died, by the janitor): a counter
// for metrics.
func (s *Store) TempFilesRemoved() int64 {
	if c, ok := blob.Inner[tempCleaner](s.blob); ok {
		return c.TempFilesRemoved()
	}
	return 0
}

// RemoveDeadWriterTemps removes the temporary files a writer that died
// (reason: why, e.g. a worker killed at its deadline) may have left, and
// logs what it removed or why it could not.
func (s *Store) RemoveDeadWriterTemps(log *slog.Logger, reason string) {
	if n, err := s.RemoveOrphanTemps(); err != nil {
		log.Warn("removing a dead worker's temporary files", "err", err.Error())
	} else if n > 0 {
		log.Info("removed temporary files of a dead worker", "files", n, "reason", reason)
	}
}
