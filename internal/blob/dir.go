package blob

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// The directory store keeps its own files under a hidden directory that no key
// can name (keys never start a segment with '.').
const (
	dirInternal = ".blob"
	dirTmp      = ".blob/tmp"
	dirLocks    = ".blob/locks"
	// etagXattr caches an object's ETag on its file: "v1 <size> <mtime ns>
	// <sha256 hex>". It is trusted only while size and mtime still match, so a
	// file edited in place by hand gets its ETag recomputed from the content.
	etagXattr = "user.precisiond.etag"
	// staleTmpAge: where the file system has no locks, temporary files older
	// than this are taken for a crashed writer's.
	staleTmpAge = time.Hour
	// orphanGrace: an empty, unlocked temporary file younger than this may be
	// one a writer created an instant ago and has not locked yet.
	orphanGrace = time.Minute
	lockShards  = 256
)

// DirStore is a Store in a local directory: the object "a/b.json" is the file
// DIR/a/b.json. Writes go to a temporary file, are fsynced and renamed into
// place, so readers never see a partial object. Every write (and the check of its
// condition) happens under an exclusive flock(2) on one of 256 lock files
// (DIR/.blob/locks/XX, chosen by a hash of the key), so several processes sharing
// the directory never lose an update. ETags are the SHA-256 of the content.
// Nothing outside DIR is ever reached (os.Root), symbolic links included.
//
// A writer holds an exclusive flock on its temporary file until the rename, so
// a temporary file nobody holds is a dead writer's (a crash, a worker process
// killed at its deadline): RemoveOrphanTemps removes those, in this process or
// any other sharing the directory.
type DirStore struct {
	dir  string
	root *os.Root
	// sem serializes this process's lockers per shard, so at most one goroutine
	// per shard polls the flock and waiters honour their context.
	sem [lockShards]chan struct{}

	tempsRemoved atomic.Int64
}

var _ Store = (*DirStore)(nil)

// OpenDir opens (creating if needed, mode 0750) a directory store and removes
// the temporary files of dead writers (RemoveOrphanTemps). A directory that
// exists but cannot be written (a read-only volume) opens: reads work, writes
// and Ping report the condition.
func OpenDir(dir string) (*DirStore, error) { return openDirStore(dir, true) }

func openDirStore(dir string, cleanup bool) (*DirStore, error) {
	if dir == "" {
		return nil, newErr("open", "", nil, errors.New("no directory given"))
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, newErr("open", "", nil, err)
	}
	if err := os.MkdirAll(abs, 0o750); err != nil {
		if fi, serr := os.Stat(abs); serr != nil || !fi.IsDir() {
			return nil, newErr("open", "", nil, err)
		}
	}
	root, err := os.OpenRoot(abs)
	if err != nil {
		return nil, newErr("open", "", nil, err)
	}
	s := &DirStore{dir: abs, root: root}
	for i := range s.sem {
		s.sem[i] = make(chan struct{}, 1)
	}
	s.ensureInternal() // best effort: a read-only directory still opens
	if cleanup {
		_, _ = s.RemoveOrphanTemps()
	}
	return s, nil
}

// ensureInternal creates the store's own directories if they are missing.
func (s *DirStore) ensureInternal() error {
	for _, d := range []string{dirTmp, dirLocks} {
		if err := s.root.MkdirAll(d, 0o750); err != nil {
			return err
		}
	}
	return nil
}

// Kind returns "file".
func (s *DirStore) Kind() string { return "file" }

// Location returns "file:" and the absolute directory.
func (s *DirStore) Location() string { return "file:" + s.dir }

// Dir returns the absolute directory.
func (s *DirStore) Dir() string { return s.dir }

// Close releases the directory handle.
func (s *DirStore) Close() error { return s.root.Close() }

// RemoveOrphanTemps removes the temporary files of writers that died before
// their rename, and returns how many it removed (TempFilesRemoved counts them
// too). A file whose writer lives is locked and stays; an unlocked file is an
// orphan once it has content, or, empty, once it is older than a minute (a
// writer creates its file an instant before locking it). Where the file
// system has no locks, temporary files older than an hour are removed
// instead. OpenDir calls it; so does whoever learns that a writer died (the
// server, when a worker process is killed).
func (s *DirStore) RemoveOrphanTemps() (int, error) {
	entries, err := fs.ReadDir(s.root.FS(), dirTmp)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, newErr("clean", "", nil, err)
	}
	n := 0
	for _, e := range entries {
		if s.removeIfOrphan(path.Join(dirTmp, e.Name())) {
			n++
		}
	}
	s.tempsRemoved.Add(int64(n))
	return n, nil
}

// TempFilesRemoved is the number of dead writers' temporary files this store
// has removed since it was opened.
func (s *DirStore) TempFilesRemoved() int64 { return s.tempsRemoved.Load() }

func (s *DirStore) removeIfOrphan(name string) bool {
	fi, err := s.root.Lstat(name)
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	f, err := s.root.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	switch err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); {
	case errors.Is(err, unix.EWOULDBLOCK):
		return false // a live writer
	case err != nil:
		if time.Since(fi.ModTime()) < staleTmpAge {
			return false // no locks here: only age tells
		}
	case fi.Size() == 0 && time.Since(fi.ModTime()) < orphanGrace:
		return false
	}
	return s.root.Remove(name) == nil
}

// Put writes data as key: a temporary file (fsynced, ETag recorded in an
// extended attribute when the file system has them), then, under the key's lock,
// the condition check and the rename into place.
func (s *DirStore) Put(ctx context.Context, key string, data []byte, opts PutOptions) (Info, error) {
	if err := checkPut(key, opts); err != nil {
		return Info{}, err
	}
	if err := ctx.Err(); err != nil {
		return Info{}, ctxErr("put", key, err)
	}
	sum := sha256.Sum256(data)
	etag := hex.EncodeToString(sum[:])
	tmp, fi, f, err := s.writeTmp(data, etag, true)
	if err != nil {
		return Info{}, newErr("put", key, nil, err)
	}
	defer func() {
		_ = s.root.Remove(tmp) // a no-op once renamed
		_ = f.Close()          // drops the writer's lock, after the rename
	}()

	unlock, err := s.lock(ctx, key)
	if err != nil {
		return Info{}, fileErr("put", key, err)
	}
	defer unlock()
	if opts.IfMatch != "" || opts.IfNoneMatch {
		cur, err := s.stat(key)
		switch {
		case errors.Is(err, ErrNotFound):
			if opts.IfMatch != "" {
				return Info{}, newErr("put", key, ErrNotFound, nil)
			}
		case err != nil:
			return Info{}, newErr("put", key, nil, err)
		case opts.IfNoneMatch:
			return Info{}, newErr("put", key, ErrPreconditionFailed, errors.New("the key exists"))
		case cur.ETag != opts.IfMatch:
			return Info{}, newErr("put", key, ErrPreconditionFailed, errors.New("the ETag changed"))
		}
	}
	if parent := path.Dir(key); parent != "." {
		if err := s.root.MkdirAll(parent, 0o750); err != nil {
			return Info{}, newErr("put", key, nil, err)
		}
	}
	if err := s.root.Rename(tmp, key); err != nil {
		return Info{}, newErr("put", key, nil, err)
	}
	if d, err := s.root.Open(path.Dir(key)); err == nil {
		_ = d.Sync() // the rename itself is durable too
		_ = d.Close()
	}
	return Info{Key: key, Size: fi.Size(), ETag: etag, SHA256: etag, ModTime: fi.ModTime()}, nil
}

// writeTmp writes data to a new temporary file, locked (see RemoveOrphanTemps),
// and returns its root-relative name, final FileInfo and the open file: the
// caller closes it, which drops the lock, once the file is renamed or removed.
func (s *DirStore) writeTmp(data []byte, etag string, durable bool) (string, os.FileInfo, *os.File, error) {
	var rnd [12]byte
	_, _ = rand.Read(rnd[:])
	name := path.Join(dirTmp, hex.EncodeToString(rnd[:]))
	f, err := s.root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o640)
	if errors.Is(err, fs.ErrNotExist) {
		if err = s.ensureInternal(); err == nil {
			f, err = s.root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o640)
		}
	}
	if err != nil {
		return "", nil, nil, err
	}
	fail := func(err error) (string, os.FileInfo, *os.File, error) {
		_ = s.root.Remove(name)
		_ = f.Close()
		return "", nil, nil, err
	}
	// A file system without locks is not an error: orphans are then found by age.
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX); err != nil &&
		!errors.Is(err, unix.ENOLCK) && !errors.Is(err, unix.EOPNOTSUPP) && !errors.Is(err, unix.EINVAL) {
		return fail(err)
	}
	if _, err := f.Write(data); err != nil {
		return fail(err)
	}
	if durable {
		if err := f.Sync(); err != nil {
			return fail(err)
		}
	}
	// The content is final: its mtime is the object's ModTime and goes into the
	// ETag record with the size.
	fi, err := f.Stat()
	if err != nil {
		return fail(err)
	}
	if etag != "" {
		_ = unix.Fsetxattr(int(f.Fd()), etagXattr, []byte(etagRecord(fi, etag)), 0) // optional: without it Stat hashes
	}
	return name, fi, f, nil
}

func etagRecord(fi os.FileInfo, etag string) string {
	return "v1 " + strconv.FormatInt(fi.Size(), 10) + " " + strconv.FormatInt(fi.ModTime().UnixNano(), 10) + " " + etag
}

// cachedETag returns the ETag recorded in rec if it still describes fi.
func cachedETag(rec []byte, fi os.FileInfo) (string, bool) {
	want := etagRecord(fi, "")
	r := string(rec)
	if !strings.HasPrefix(r, want) || len(r) != len(want)+64 {
		return "", false
	}
	return r[len(want):], true
}

// open opens key read-only and returns the file with its Info; ErrNotFound for a
// missing key or anything but a regular file reached without a symbolic link
// (os.Root keeps links inside the directory; a link is still not an object).
func (s *DirStore) open(key string) (*os.File, Info, error) {
	fi, err := s.lstatKey(key)
	if err != nil {
		return nil, Info{}, err
	}
	f, err := s.root.OpenFile(key, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		if notFound(err) {
			return nil, Info{}, ErrNotFound
		}
		return nil, Info{}, err
	}
	ffi, err := f.Stat()
	if err == nil && (!ffi.Mode().IsRegular() || !os.SameFile(fi, ffi)) {
		err = ErrNotFound // replaced by something else since the Lstat
	}
	if err != nil {
		_ = f.Close()
		return nil, Info{}, err
	}
	etag, err := fileETag(f, ffi)
	if err != nil {
		_ = f.Close()
		return nil, Info{}, err
	}
	return f, Info{Key: key, Size: ffi.Size(), ETag: etag, SHA256: etag, ModTime: ffi.ModTime()}, nil
}

// lstatKey returns the FileInfo of the regular file key, reached through real
// directories only; ErrNotFound otherwise.
func (s *DirStore) lstatKey(key string) (os.FileInfo, error) {
	if i := strings.LastIndexByte(key, '/'); i > 0 {
		ok, err := s.realDir(key[:i])
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, ErrNotFound
		}
	}
	fi, err := s.root.Lstat(key)
	if err != nil && !notFound(err) {
		return nil, err
	}
	if err != nil || !fi.Mode().IsRegular() {
		return nil, ErrNotFound
	}
	return fi, nil
}

// realDir reports whether dir (a root-relative path) and every directory on the
// way to it are directories, not symbolic links.
func (s *DirStore) realDir(dir string) (bool, error) {
	for i := 0; i <= len(dir); i++ {
		if i < len(dir) && dir[i] != '/' {
			continue
		}
		fi, err := s.root.Lstat(dir[:i])
		if err != nil && !notFound(err) {
			return false, err
		}
		if err != nil || !fi.IsDir() {
			return false, nil
		}
	}
	return true, nil
}

// notFound: the path does not exist as a file of the store.
func notFound(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) || errors.Is(err, syscall.ELOOP)
}

// fileETag is the recorded ETag when it matches the file, else the SHA-256 of
// the content.
func fileETag(f *os.File, fi os.FileInfo) (string, error) {
	buf := make([]byte, 128)
	if n, err := unix.Fgetxattr(int(f.Fd()), etagXattr, buf); err == nil {
		if etag, ok := cachedETag(buf[:n], fi); ok {
			return etag, nil
		}
	}
	h := sha256.New()
	if _, err := io.Copy(h, io.NewSectionReader(f, 0, fi.Size())); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func (s *DirStore) stat(key string) (Info, error) {
	f, info, err := s.open(key)
	if err != nil {
		return Info{}, err
	}
	_ = f.Close()
	return info, nil
}

// Stat returns the object's metadata.
func (s *DirStore) Stat(ctx context.Context, key string) (Info, error) {
	if !ValidKey(key) {
		return Info{}, newErr("stat", key, ErrInvalidKey, nil)
	}
	if err := ctx.Err(); err != nil {
		return Info{}, ctxErr("stat", key, err)
	}
	info, err := s.stat(key)
	if err != nil {
		return Info{}, fileErr("stat", key, err)
	}
	return info, nil
}

// Get opens key. The open file keeps the content it had when Get returned, even
// if a writer replaces the object meanwhile.
func (s *DirStore) Get(ctx context.Context, key string, opts GetOptions) (*Object, error) {
	if err := checkGet(key, opts); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, ctxErr("get", key, err)
	}
	f, info, err := s.open(key)
	if err != nil {
		return nil, fileErr("get", key, err)
	}
	fail := func(kind error) (*Object, error) {
		_ = f.Close()
		return nil, newErr("get", key, kind, nil)
	}
	if opts.IfMatch != "" && opts.IfMatch != info.ETag {
		return fail(ErrPreconditionFailed)
	}
	if opts.IfNoneMatch != "" && opts.IfNoneMatch == info.ETag {
		return fail(ErrNotModified)
	}
	off, n, ok := span(opts.Range, info.Size)
	if !ok {
		return fail(ErrInvalidRange)
	}
	return &Object{
		Info: info, Offset: off, Length: n,
		ctx:   ctx,
		body:  io.NewSectionReader(f, off, n),
		close: f.Close,
		wrap:  func(err error) error { return fileErr("read", key, err) },
	}, nil
}

// Delete removes key under its lock; a missing key, or a directory under that
// name, is left as it is.
func (s *DirStore) Delete(ctx context.Context, key string) error {
	if !ValidKey(key) {
		return newErr("delete", key, ErrInvalidKey, nil)
	}
	unlock, err := s.lock(ctx, key)
	if err != nil {
		return fileErr("delete", key, err)
	}
	defer unlock()
	fi, err := s.root.Lstat(key)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) || err == nil && fi.IsDir() {
		return nil
	}
	if err == nil {
		err = s.root.Remove(key)
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return newErr("delete", key, nil, err)
	}
	return nil
}

// List walks the directory below prefix. Entries carry the ETag recorded on the
// file when it is still valid (every object this store wrote), else none.
func (s *DirStore) List(ctx context.Context, prefix string, fn func(Info) error) error {
	if !validPrefix(prefix) {
		return newErr("list", prefix, ErrInvalidKey, nil)
	}
	start := "."
	if i := strings.LastIndexByte(prefix, '/'); i > 0 {
		start = prefix[:i]
		// Keys are reached through real directories only (see lstatKey).
		ok, err := s.realDir(start)
		if err != nil {
			return newErr("list", prefix, nil, err)
		}
		if !ok {
			return nil
		}
	}
	var found []Info
	err := fs.WalkDir(s.root.FS(), start, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == start && errors.Is(err, fs.ErrNotExist) {
				return fs.SkipAll
			}
			return err
		}
		if p == "." {
			return nil
		}
		if d.IsDir() {
			// Descend only into directories that can hold matching keys.
			if strings.HasPrefix(d.Name(), ".") || !strings.HasPrefix(p+"/", prefix) && !strings.HasPrefix(prefix, p+"/") {
				return fs.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || !strings.HasPrefix(p, prefix) || !ValidKey(p) {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return nil // deleted meanwhile
		}
		info := Info{Key: p, Size: fi.Size(), ModTime: fi.ModTime()}
		buf := make([]byte, 128)
		if n, err := unix.Lgetxattr(filepath.Join(s.dir, filepath.FromSlash(p)), etagXattr, buf); err == nil {
			info.ETag, _ = cachedETag(buf[:n], fi)
			info.SHA256 = info.ETag
		}
		found = append(found, info)
		return ctx.Err()
	})
	if err != nil {
		if ctx.Err() != nil {
			return ctxErr("list", prefix, ctx.Err())
		}
		return newErr("list", prefix, nil, err)
	}
	slices.SortFunc(found, func(a, b Info) int { return strings.Compare(a.Key, b.Key) })
	for _, info := range found {
		if err := fn(info); err != nil {
			return err
		}
	}
	return nil
}

// Ping checks that the directory exists and accepts a new file.
func (s *DirStore) Ping(ctx context.Context) Health {
	h := Health{Kind: "file"}
	if err := ctx.Err(); err != nil {
		h.Reason, h.Err = "store_unavailable", err
		return h
	}
	tmp, _, f, err := s.writeTmp(nil, "", false)
	if err != nil {
		h.Reason, h.Err = "store_error", newErr("ping", "", nil, err)
		return h
	}
	_ = s.root.Remove(tmp)
	_ = f.Close()
	h.OK = true
	return h
}

// lock takes the key's shard lock: this process's semaphore, then an exclusive
// flock on the shard's lock file, polled so that a waiter gives up when ctx ends.
func (s *DirStore) lock(ctx context.Context, key string) (unlock func(), err error) {
	sum := sha256.Sum256([]byte(key))
	shard := sum[0]
	select {
	case s.sem[shard] <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	release := func() { <-s.sem[shard] }
	f, err := s.root.OpenFile(path.Join(dirLocks, fmt.Sprintf("%02x", shard)), os.O_RDWR|os.O_CREATE, 0o640)
	if err != nil {
		release()
		return nil, err
	}
	wait := time.Millisecond
	for {
		err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		if err == nil {
			break
		}
		if !errors.Is(err, unix.EWOULDBLOCK) && !errors.Is(err, unix.EINTR) {
			_ = f.Close()
			release()
			return nil, err
		}
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			_ = f.Close()
			release()
			return nil, ctx.Err()
		}
		wait = min(2*wait, 16*time.Millisecond)
	}
	return func() {
		_ = f.Close() // closing the descriptor drops the flock
		release()
	}, nil
}

// fileErr classifies a file-system error.
func fileErr(op, key string, err error) error {
	switch {
	case errors.Is(err, ErrNotFound):
		return newErr(op, key, ErrNotFound, nil)
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return ctxErr(op, key, err)
	}
	return newErr(op, key, nil, err)
}

// ctxErr: a deadline that ran out is the store not answering in time; a
// cancellation is the caller's own doing and carries no kind.
func ctxErr(op, key string, err error) error {
	if errors.Is(err, context.DeadlineExceeded) {
		return newErr(op, key, ErrUnavailable, err)
	}
	return newErr(op, key, nil, err)
}
