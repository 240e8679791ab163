// Package filestore is the download store of generate_file: content-addressed
// files (<12 hex of sha256>_<name>.<ext>) kept as objects of a blob.Store (a
// directory on one host, or the S3 bucket a fleet shares), written once,
// expired after a TTL (on read and by a janitor that is safe on every replica),
// bounded in total size (oldest evicted first), and read only under their own
// names, never through a symbolic link or out of the store.
package filestore

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/precisiond/precisiond/internal/blob"
	"github.com/precisiond/precisiond/internal/defaults"
)

// Defaults of Config.
const (
	DefaultTTL             = 24 * time.Hour
	DefaultMaxBytes        = 1 << 30  // 1 GiB for the whole store
	DefaultMaxFileBytes    = 64 << 20 // 64 MiB for one file
	DefaultMaxContentBytes = 1 << 20  // 1 MiB of Markdown per generate_file call
	maxBaseLen             = 64
)

// Prefix is the key prefix of the generated files in the service's store:
// the object "downloads/<name>" is the file /downloads/<name> (in a directory
// store at the data directory: <data-dir>/downloads/<name>, as always).
const Prefix = "downloads/"

// Extensions the store writes and serves.
var Extensions = []string{"html", "md", "txt", "docx", "pptx", "pdf", "xlsx", "csv"}

// NamePattern matches every name the store writes and the only names it serves:
// 12 lowercase hex digits, '_', a sanitized base name (starting with a letter or
// digit; no '/', no "..", no '%'), '.', a known extension.
var NamePattern = regexp.MustCompile(`^[0-9a-f]{12}_[A-Za-z0-9](?:[A-Za-z0-9_-]|\.[A-Za-z0-9_-]){0,63}\.(?:html|md|txt|docx|pptx|pdf|xlsx|csv)$`)

// Errors returned by the store.
var (
	// ErrNotFound: no such file, an invalid name, an expired file, one whose
	// content does not hash to its name, or anything else the store will not
	// serve.
	ErrNotFound = errors.New("file not found")
	// ErrTooLarge: a file larger than MaxFileBytes or than the whole store.
	ErrTooLarge = errors.New("file too large for the store")
	// ErrUnavailable: the store cannot be written or read (not answering in
	// time, a read-only file system, disk full, permissions, a refusing
	// bucket). Errors matching it are *UnavailableError values.
	ErrUnavailable = errors.New("download store unavailable")
)

// Config configures a Store. Zero fields take the defaults.
type Config struct {
	// Dir is Open's directory: its files are the downloads (a throwaway store,
	// tests). New ignores it.
	Dir string
	// Prefix is New's key prefix of the files in the store: "" or a prefix
	// ending in '/' (the service uses the package's Prefix). Open uses "".
	Prefix          string
	TTL             time.Duration    // files older than this are gone (default 24h)
	MaxBytes        int64            // total size cap; oldest files are evicted first (default 1 GiB)
	MaxFileBytes    int64            // size cap of one file (default 64 MiB)
	MaxContentBytes int              // Markdown accepted by generate_file (default 1 MiB)
	Now             func() time.Time // clock (default time.Now), against the store's modification times
	// SkipTempCleanup leaves orphaned temporary files alone at Open (a worker
	// process opening its server's store: the server counts and removes them).
	SkipTempCleanup bool
}

// Store is the download store over one blob.Store. Its methods are safe for
// concurrent use, also by several processes and replicas on one blob store.
//
// The size cap: a directory store (one host) is trimmed to MaxBytes after
// every write, as a single instance always was; a shared S3 store is trimmed
// by every replica's janitor pass (Sweep), so it may exceed the cap by what the
// fleet writes in one janitor interval (a per-replica count cannot bound a
// shared bucket; see docs/operations.md, "Sizing").
type Store struct {
	cfg       Config
	blob      blob.Store
	trimOnPut bool

	usageFiles atomic.Int64
	usageBytes atomic.Int64
}

// Entry describes one stored file.
type Entry struct {
	Name    string
	Size    int64
	SHA256  string // hex of the full content
	ModTime time.Time
}

// New returns the download store over s, its files under cfg.Prefix.
func New(s blob.Store, cfg Config) *Store {
	defaults.Positive(&cfg.TTL, DefaultTTL)
	defaults.Positive(&cfg.MaxBytes, DefaultMaxBytes)
	defaults.Positive(&cfg.MaxFileBytes, DefaultMaxFileBytes)
	defaults.Positive(&cfg.MaxContentBytes, DefaultMaxContentBytes)
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Store{cfg: cfg, blob: s, trimOnPut: s.Kind() == "file"}
}

// Open opens (creating if needed) a directory whose files are the downloads:
// a directory store at cfg.Dir with no key prefix. Temporary files of dead
// writers are removed now, unless cfg.SkipTempCleanup (TempFilesRemoved counts
// them).
func Open(cfg Config) (*Store, error) {
	if cfg.Dir == "" {
		return nil, errors.New("filestore: no directory configured")
	}
	s, err := blob.Open(blob.Location{Kind: "file", Dir: filepath.Clean(cfg.Dir)}, blob.Options{SkipTempCleanup: cfg.SkipTempCleanup})
	if err != nil {
		return nil, fmt.Errorf("filestore: %w", err)
	}
	cfg.Prefix = ""
	return New(s, cfg), nil
}

// Blob is the object store the files live in.
func (s *Store) Blob() blob.Store { return s.blob }

// Dir is the absolute directory holding the files when the store is a
// directory store, else "".
func (s *Store) Dir() string {
	d, ok := blob.Inner[*blob.DirStore](s.blob)
	if !ok {
		return ""
	}
	return filepath.Join(d.Dir(), filepath.FromSlash(strings.TrimSuffix(s.cfg.Prefix, "/")))
}

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
// sanitized (SanitizeBase) and ext one of Extensions. The file is written once
// (created only if its name is free: a reader sees it whole or not at all);
// storing the same bytes again renews its lifetime once it has lived half of
// it, and repairs a stored object that is not these bytes. A directory store
// is then trimmed (expired files, then the oldest until it fits MaxBytes).
// Errors: ErrTooLarge, *UnavailableError (ErrUnavailable).
func (s *Store) Put(ctx context.Context, base, ext string, data []byte) (Entry, error) {
	if int64(len(data)) > s.cfg.MaxFileBytes || int64(len(data)) > s.cfg.MaxBytes {
		return Entry{}, ErrTooLarge
	}
	name := FileName(data, base, ext)
	if !NamePattern.MatchString(name) {
		return Entry{}, fmt.Errorf("filestore: generated name %q does not match the store pattern", name)
	}
	sum := sha256.Sum256(data)
	hexSum := hex.EncodeToString(sum[:])
	key := s.cfg.Prefix + name
	info, err := s.blob.Put(ctx, key, data, blob.PutOptions{IfNoneMatch: true})
	if errors.Is(err, blob.ErrPreconditionFailed) {
		info, err = s.blob.Stat(ctx, key)
		stale := err == nil && (info.SHA256 != hexSum || info.Size != int64(len(data)) || s.cfg.Now().Sub(info.ModTime) >= s.cfg.TTL/2)
		if stale || errors.Is(err, blob.ErrNotFound) {
			// Content-addressed: whoever writes this name writes these bytes,
			// so an unconditional write cannot undo anyone else's.
			info, err = s.blob.Put(ctx, key, data, blob.PutOptions{})
		}
	}
	if err != nil {
		return Entry{}, unavailable("write", err)
	}
	if s.trimOnPut {
		if err := s.trim(ctx, key); err != nil {
			return Entry{}, err
		}
	}
	return Entry{Name: name, Size: int64(len(data)), SHA256: hexSum, ModTime: info.ModTime}, nil
}

// lookup returns the object of a servable file: a name matching NamePattern,
// an unexpired regular object no larger than MaxFileBytes whose SHA-256
// starts with the name's 12 hex digits.
func (s *Store) lookup(ctx context.Context, name string) (blob.Info, Entry, error) {
	if !NamePattern.MatchString(name) {
		return blob.Info{}, Entry{}, ErrNotFound
	}
	info, err := s.blob.Stat(ctx, s.cfg.Prefix+name)
	if errors.Is(err, blob.ErrNotFound) {
		return blob.Info{}, Entry{}, ErrNotFound
	}
	if err != nil {
		return blob.Info{}, Entry{}, unavailable("stat", err)
	}
	if s.expired(info.ModTime) || info.Size > s.cfg.MaxFileBytes || !strings.HasPrefix(info.SHA256, name[:12]) {
		return blob.Info{}, Entry{}, ErrNotFound
	}
	return info, Entry{Name: name, Size: info.Size, SHA256: info.SHA256, ModTime: info.ModTime}, nil
}

// Reader opens a stored file for http.ServeContent: its entry and a
// ReadSeeker that streams from the store, pinned to the version looked up
// (Range requests read only their part). The caller closes it. Errors:
// ErrNotFound (as ReadFile), *UnavailableError.
func (s *Store) Reader(ctx context.Context, name string) (Entry, *blob.ReadSeeker, error) {
	info, e, err := s.lookup(ctx, name)
	if err != nil {
		return Entry{}, nil, err
	}
	return e, blob.NewReadSeeker(ctx, s.blob, info), nil
}

// ReadFile returns the content and entry of a stored file. It returns ErrNotFound
// for a name outside NamePattern, a missing or expired file, a symbolic link or
// other non-object, a file over MaxFileBytes, or content whose hash does not
// match its name; *UnavailableError when the store cannot be read.
func (s *Store) ReadFile(ctx context.Context, name string) ([]byte, Entry, error) {
	info, e, err := s.lookup(ctx, name)
	if err != nil {
		return nil, Entry{}, err
	}
	obj, err := s.blob.Get(ctx, info.Key, blob.GetOptions{IfMatch: info.ETag})
	if errors.Is(err, blob.ErrNotFound) || errors.Is(err, blob.ErrPreconditionFailed) {
		return nil, Entry{}, ErrNotFound // deleted or replaced since the lookup
	}
	if err != nil {
		return nil, Entry{}, unavailable("read", err)
	}
	defer obj.Close()
	data, err := io.ReadAll(io.LimitReader(obj, s.cfg.MaxFileBytes+1))
	if err != nil {
		return nil, Entry{}, unavailable("read", err)
	}
	sum := sha256.Sum256(data)
	if int64(len(data)) > s.cfg.MaxFileBytes || hex.EncodeToString(sum[:]) != e.SHA256 {
		return nil, Entry{}, ErrNotFound
	}
	return data, e, nil
}

func (s *Store) expired(mtime time.Time) bool {
	return s.cfg.Now().Sub(mtime) >= s.cfg.TTL
}

// prefix is the List prefix of the files: the key prefix, or "" for the
// whole store.
func (s *Store) listPrefix() string { return s.cfg.Prefix }

// trim expires the store's old files and evicts the oldest until it fits
// MaxBytes (never keep), recording the usage it finds.
func (s *Store) trim(ctx context.Context, keep string) error {
	if _, err := blob.Expire(ctx, s.blob, s.listPrefix(), s.cfg.Now().Add(-s.cfg.TTL)); err != nil {
		return unavailable("expire", err)
	}
	st, err := blob.Trim(ctx, s.blob, s.listPrefix(), s.cfg.MaxBytes, keep)
	if err != nil {
		return unavailable("evict", err)
	}
	s.usageFiles.Store(int64(st.Objects))
	s.usageBytes.Store(st.Bytes)
	return nil
}

// Sweep is one janitor pass: it removes dead writers' temporary files (a
// directory store), deletes expired files and enforces the size cap. Every
// replica of a fleet may sweep the same store (blob.Expire and blob.Trim are
// safe side by side).
func (s *Store) Sweep(ctx context.Context) error {
	if _, err := s.RemoveOrphanTemps(); err != nil {
		return err
	}
	return s.trim(ctx, "")
}

// List returns the live (unexpired) files, newest first; for MCP resources/list.
// Entries carry name, size and time; SHA256 is left empty (ReadFile checks it).
func (s *Store) List(ctx context.Context) ([]Entry, error) {
	var out []Entry
	err := s.blob.List(ctx, s.listPrefix(), func(info blob.Info) error {
		name := strings.TrimPrefix(info.Key, s.cfg.Prefix)
		if NamePattern.MatchString(name) && !s.expired(info.ModTime) && info.Size <= s.cfg.MaxFileBytes {
			out = append(out, Entry{Name: name, Size: info.Size, ModTime: info.ModTime})
		}
		return nil
	})
	if err != nil {
		return nil, unavailable("list", err)
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].ModTime.Equal(out[j].ModTime) {
			return out[i].ModTime.After(out[j].ModTime)
		}
		return out[i].Name < out[j].Name
	})
	return out, nil
}

// Usage returns the number and total size of the stored files as of the
// store's last listing (a janitor pass, or a directory store's write): a
// metrics gauge must not list a bucket at every scrape.
func (s *Store) Usage() (files int, bytes int64, err error) {
	return int(s.usageFiles.Load()), s.usageBytes.Load(), nil
}
