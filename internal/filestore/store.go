// Package filestore is the download store of generate_file: a directory of
// content-addressed files (<12 hex of sha256>_<name>.<ext>) written atomically,
// expired after a TTL (on read and by a janitor), bounded in total size (oldest
// evicted first), and read without ever following a symbolic link or leaving the
// directory.
package filestore

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Defaults of Config.
const (
	DefaultTTL             = 24 * time.Hour
	DefaultMaxBytes        = 1 << 30  // 1 GiB for the whole store
	DefaultMaxFileBytes    = 64 << 20 // 64 MiB for one file
	DefaultMaxContentBytes = 1 << 20  // 1 MiB of Markdown per generate_file call
	maxBaseLen             = 64
	tempPrefix             = ".tmp-"
)

// Extensions the store writes and serves.
var Extensions = []string{"html", "md", "txt", "docx", "pptx", "pdf", "xlsx", "csv"}

// NamePattern matches every name the store writes and the only names it serves:
// 12 lowercase hex digits, '_', a sanitized base name (starting with a letter or
// digit; no '/', no "..", no '%'), '.', a known extension. Temporary files start
// with '.' and never match.
var NamePattern = regexp.MustCompile(`^[0-9a-f]{12}_[A-Za-z0-9](?:[A-Za-z0-9_-]|\.[A-Za-z0-9_-]){0,63}\.(?:html|md|txt|docx|pptx|pdf|xlsx|csv)$`)

// Errors returned by the store.
var (
	// ErrNotFound: no such file, an invalid name, an expired file, a symlink or
	// anything else the store will not serve.
	ErrNotFound = errors.New("file not found")
	// ErrTooLarge: a file larger than MaxFileBytes or than the whole store.
	ErrTooLarge = errors.New("file too large for the store")
	// ErrUnavailable: the directory cannot be written (read-only file system,
	// disk full, permissions, not a directory, I/O error). Errors matching it are
	// *UnavailableError values.
	ErrUnavailable = errors.New("download store unavailable")
)

// Config configures a Store. Zero fields take the defaults.
type Config struct {
	Dir             string           // the directory, created if missing (e.g. <data dir>/downloads)
	TTL             time.Duration    // files older than this are gone (default 24h)
	MaxBytes        int64            // total size cap; oldest files are evicted first (default 1 GiB)
	MaxFileBytes    int64            // size cap of one file (default 64 MiB)
	MaxContentBytes int              // Markdown accepted by generate_file (default 1 MiB)
	Now             func() time.Time // clock (default time.Now); files' mtimes are set from it
	// SkipTempCleanup leaves orphaned temporary files alone at Open (a worker
	// process opening its server's store: the server counts and removes them).
	SkipTempCleanup bool
	// CreateOnWrite leaves a missing directory missing until the first Put
	// creates it, so that a process that stores nothing writes nothing (a
	// command-line call, an MCP session started in a read-only directory).
	// Until then the store is empty.
	CreateOnWrite bool
}

// Store is a download directory. Its methods are safe for concurrent use; several
// processes may share the directory (writes are atomic renames).
type Store struct {
	cfg Config
	dir string
	mu  sync.Mutex // serializes writes and sweeps of this process

	tempsRemoved atomic.Int64 // orphaned temporary files removed so far

	// testHookAfterWrite, when set, runs after the temporary file is written and
	// before it is renamed into place; tests use it to simulate a crash.
	testHookAfterWrite func(tmp string) error
}

// Entry describes one stored file.
type Entry struct {
	Name    string
	Size    int64
	SHA256  string // hex of the full content
	ModTime time.Time
}

// Open opens (creating if needed, mode 0750, unless CreateOnWrite) the store
// directory. The directory itself must not be a symbolic link.
func Open(cfg Config) (*Store, error) {
	if cfg.Dir == "" {
		return nil, errors.New("filestore: no directory configured")
	}
	if cfg.TTL <= 0 {
		cfg.TTL = DefaultTTL
	}
	if cfg.MaxBytes <= 0 {
		cfg.MaxBytes = DefaultMaxBytes
	}
	if cfg.MaxFileBytes <= 0 {
		cfg.MaxFileBytes = DefaultMaxFileBytes
	}
	if cfg.MaxContentBytes <= 0 {
		cfg.MaxContentBytes = DefaultMaxContentBytes
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	dir, err := filepath.Abs(cfg.Dir)
	if err != nil {
		return nil, fmt.Errorf("filestore: %w", err)
	}
	s := &Store{cfg: cfg, dir: dir}
	if cfg.CreateOnWrite {
		if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
			return s, nil // created by the first Put
		}
	}
	if err := s.ensureDir(); err != nil {
		return nil, err
	}
	if !cfg.SkipTempCleanup {
		// Temporary files of writers killed mid-write (a crash, a worker killed at
		// its deadline) are removed now; TempFilesRemoved counts them.
		if _, err := s.RemoveOrphanTemps(); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// ensureDir creates the directory if it is missing and checks that it is a
// directory, not a symbolic link.
func (s *Store) ensureDir() error {
	if err := os.MkdirAll(s.dir, 0o750); err != nil {
		return fmt.Errorf("filestore: %w", err)
	}
	fi, err := os.Lstat(s.dir)
	if err != nil {
		return fmt.Errorf("filestore: %w", err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("filestore: %s is not a directory (symbolic links are refused)", s.dir)
	}
	return nil
}

// Dir is the absolute path of the store directory.
func (s *Store) Dir() string { return s.dir }

// TTL is the lifetime of a file.
func (s *Store) TTL() time.Duration { return s.cfg.TTL }

// MaxContentBytes is the largest Markdown input generate_file accepts.
func (s *Store) MaxContentBytes() int { return s.cfg.MaxContentBytes }

// MaxFileBytes is the largest file the store accepts.
func (s *Store) MaxFileBytes() int64 { return s.cfg.MaxFileBytes }

// FileName is the content-addressed name of data: the first 12 hex digits of its
// SHA-256, '_', base (already sanitized), '.', ext.
func FileName(data []byte, base, ext string) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:6]) + "_" + base + "." + ext
}

// FormatKB renders a size in KiB with one decimal as the reference's legacy text
// does (Python f"{n/1024:.1f}"): n/1024 is exact in binary for any file size, and
// both Python and strconv round that exact value half-to-even.
func FormatKB(n int) string {
	return strconv.FormatFloat(float64(n)/1024, 'f', 1, 64)
}

var translit = strings.NewReplacer("ä", "ae", "ö", "oe", "ü", "ue", "Ä", "Ae", "Ö", "Oe", "Ü", "Ue", "ß", "ss", "ẞ", "SS", "æ", "ae", "Æ", "AE", "ø", "o", "Ø", "O", "œ", "oe", "Œ", "OE", "ł", "l", "Ł", "L", "đ", "d", "Đ", "D", "þ", "th", "Þ", "Th")

// SanitizeBase turns a user-supplied file name into a safe base name: German
// umlauts and ß transliterated, other accents dropped (é → e), every character
// outside [A-Za-z0-9._-] replaced by '_', runs of '_' and '.' collapsed, leading and
// trailing '.', '_', '-' trimmed, a trailing ".<ext>" (the requested format's
// extension, any case) removed, at most 64 bytes; "output" when nothing is left.
// The result joined as FileName always matches NamePattern.
func SanitizeBase(name, ext string) string {
	name = strings.TrimSpace(name)
	if ext != "" && len(name) > len(ext)+1 && strings.EqualFold(name[len(name)-len(ext)-1:], "."+ext) {
		name = name[:len(name)-len(ext)-1]
	}
	name = translit.Replace(name)
	var b strings.Builder
	for _, r := range norm.NFKD.String(name) {
		switch {
		case unicode.Is(unicode.Mn, r):
			// combining accent of a decomposed letter: dropped
		case r < 0x80 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '.' || r == '_'):
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	out := b.String()
	for {
		before := out
		out = strings.ReplaceAll(out, "__", "_")
		out = strings.ReplaceAll(out, "..", ".")
		out = strings.ReplaceAll(out, "._", "_")
		out = strings.ReplaceAll(out, "_.", "_")
		out = strings.ReplaceAll(out, ".-", "-")
		out = strings.ReplaceAll(out, "-.", "-")
		if out == before {
			break
		}
	}
	out = strings.Trim(out, "._-")
	if len(out) > maxBaseLen {
		out = strings.TrimRight(out[:maxBaseLen], "._-")
	}
	if out == "" {
		return "output"
	}
	return out
}

// Put stores data as FileName(data, base, ext) and returns its entry. base must be
// sanitized (SanitizeBase) and ext one of Extensions. The write is atomic (temporary
// file, fsync, rename, fsync of the directory); storing the same bytes again
// renews the file's lifetime. Afterwards the oldest other files are evicted until
// the store fits MaxBytes. Errors: ErrTooLarge, or an I/O error.
func (s *Store) Put(base, ext string, data []byte) (Entry, error) {
	if int64(len(data)) > s.cfg.MaxFileBytes || int64(len(data)) > s.cfg.MaxBytes {
		return Entry{}, ErrTooLarge
	}
	name := FileName(data, base, ext)
	if !NamePattern.MatchString(name) {
		return Entry{}, fmt.Errorf("filestore: generated name %q does not match the store pattern", name)
	}
	sum := sha256.Sum256(data)
	now := s.cfg.Now()
	s.mu.Lock()
	defer s.mu.Unlock()

	if s.cfg.CreateOnWrite {
		if err := s.ensureDir(); err != nil {
			return Entry{}, unavailable("create directory", err)
		}
	}
	tmp, err := os.CreateTemp(s.dir, tempPrefix+"*")
	if err != nil {
		return Entry{}, unavailable("create", err)
	}
	tmpName := tmp.Name()
	ok := false
	defer func() {
		if !ok {
			_ = os.Remove(tmpName)
		}
		_ = tmp.Close() // releases the lock, after the rename
	}()
	// The lock marks the file as being written by a live process: a writer that
	// dies (killed mid-write) leaves an unlocked file, which RemoveOrphanTemps
	// recognises, in this process or any other sharing the directory.
	if err := lockTemp(tmp); err != nil {
		return Entry{}, unavailable("lock", err)
	}
	if _, err := tmp.Write(data); err != nil {
		return Entry{}, unavailable("write", err)
	}
	if err := tmp.Sync(); err != nil {
		return Entry{}, unavailable("sync", err)
	}
	if err := tmp.Chmod(0o640); err != nil {
		return Entry{}, unavailable("chmod", err)
	}
	if err := os.Chtimes(tmpName, now, now); err != nil {
		return Entry{}, unavailable("chtimes", err)
	}
	if s.testHookAfterWrite != nil {
		if err := s.testHookAfterWrite(tmpName); err != nil {
			return Entry{}, err
		}
	}
	// rename replaces a directory entry (even a planted symlink) and never
	// follows it.
	if err := os.Rename(tmpName, filepath.Join(s.dir, name)); err != nil {
		return Entry{}, unavailable("rename", err)
	}
	ok = true
	syncDir(s.dir)
	if err := s.evictLocked(name); err != nil {
		return Entry{}, err
	}
	return Entry{Name: name, Size: int64(len(data)), SHA256: hex.EncodeToString(sum[:]), ModTime: now}, nil
}

func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		_ = d.Close()
	}
}

// ReadFile returns the content and entry of a stored file. It returns ErrNotFound
// for a name outside NamePattern, a missing or expired file, a symbolic link or
// other non-regular file, a file over MaxFileBytes, or content whose hash does not
// match its name.
func (s *Store) ReadFile(name string) ([]byte, Entry, error) {
	if !NamePattern.MatchString(name) {
		return nil, Entry{}, ErrNotFound
	}
	// O_NOFOLLOW: a symlink planted under a valid name fails to open (ELOOP).
	f, err := os.OpenFile(filepath.Join(s.dir, name), os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ELOOP) {
			return nil, Entry{}, ErrNotFound
		}
		return nil, Entry{}, fmt.Errorf("filestore: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, Entry{}, fmt.Errorf("filestore: %w", err)
	}
	if !fi.Mode().IsRegular() || fi.Size() > s.cfg.MaxFileBytes {
		return nil, Entry{}, ErrNotFound
	}
	if s.expired(fi.ModTime()) {
		return nil, Entry{}, ErrNotFound
	}
	data, err := io.ReadAll(io.LimitReader(f, s.cfg.MaxFileBytes+1))
	if err != nil {
		return nil, Entry{}, fmt.Errorf("filestore: %w", err)
	}
	sum := sha256.Sum256(data)
	hexSum := hex.EncodeToString(sum[:])
	if int64(len(data)) > s.cfg.MaxFileBytes || !strings.HasPrefix(name, hexSum[:12]+"_") {
		return nil, Entry{}, ErrNotFound
	}
	return data, Entry{Name: name, Size: int64(len(data)), SHA256: hexSum, ModTime: fi.ModTime()}, nil
}

func (s *Store) expired(mtime time.Time) bool {
	return s.cfg.Now().Sub(mtime) >= s.cfg.TTL
}

type fileInfo struct {
	name  string
	size  int64
	mtime time.Time
}

// scan lists the store's own files (names matching NamePattern, regular files).
// Planted symlinks or other non-regular entries under a valid name are removed;
// orphaned temporary files too (see RemoveOrphanTemps). Foreign names are left
// alone.
func (s *Store) scan() ([]fileInfo, error) {
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		if s.cfg.CreateOnWrite && errors.Is(err, fs.ErrNotExist) {
			return nil, nil // not created yet: empty
		}
		return nil, unavailable("read directory", err)
	}
	var out []fileInfo
	for _, e := range entries {
		name := e.Name()
		switch {
		case strings.HasPrefix(name, tempPrefix):
			if s.removeIfOrphan(name) {
				s.tempsRemoved.Add(1)
			}
		case NamePattern.MatchString(name):
			fi, err := e.Info() // lstat: does not follow links
			if err != nil {
				continue
			}
			if !fi.Mode().IsRegular() {
				_ = os.Remove(filepath.Join(s.dir, name)) // removes the link itself
				continue
			}
			out = append(out, fileInfo{name, fi.Size(), fi.ModTime()})
		}
	}
	return out, nil
}

// evictLocked removes expired files, then the oldest files (never keep) until the
// total size fits MaxBytes.
func (s *Store) evictLocked(keep string) error {
	files, err := s.scan()
	if err != nil {
		return err
	}
	var live []fileInfo
	var total int64
	for _, f := range files {
		if s.expired(f.mtime) && f.name != keep {
			_ = os.Remove(filepath.Join(s.dir, f.name))
			continue
		}
		live = append(live, f)
		total += f.size
	}
	if total <= s.cfg.MaxBytes {
		return nil
	}
	sort.Slice(live, func(i, j int) bool {
		if !live[i].mtime.Equal(live[j].mtime) {
			return live[i].mtime.Before(live[j].mtime)
		}
		return live[i].name < live[j].name
	})
	for _, f := range live {
		if total <= s.cfg.MaxBytes {
			break
		}
		if f.name == keep {
			continue
		}
		if err := os.Remove(filepath.Join(s.dir, f.name)); err == nil || errors.Is(err, fs.ErrNotExist) {
			total -= f.size
		}
	}
	return nil
}

// Sweep deletes expired files and stale temporary files and enforces the size
// cap. The janitor calls it periodically.
func (s *Store) Sweep() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.evictLocked("")
}

// List returns the live (unexpired) files, newest first; for MCP resources/list.
// Entries carry name, size and time; SHA256 is left empty (ReadFile computes it).
func (s *Store) List() ([]Entry, error) {
	s.mu.Lock()
	files, err := s.scan()
	s.mu.Unlock()
	if err != nil {
		return nil, err
	}
	var out []Entry
	for _, f := range files {
		if !s.expired(f.mtime) {
			out = append(out, Entry{Name: f.name, Size: f.size, ModTime: f.mtime})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].ModTime.Equal(out[j].ModTime) {
			return out[i].ModTime.After(out[j].ModTime)
		}
		return out[i].Name < out[j].Name
	})
	return out, nil
}

// Usage returns the number and total size of live files (for metrics).
func (s *Store) Usage() (files int, bytes int64, err error) {
	list, err := s.List()
	for _, e := range list {
		files++
		bytes += e.Size
	}
	return files, bytes, err
}
