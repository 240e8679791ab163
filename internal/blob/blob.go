// Package blob is the shared object store of a precisiond fleet: everything
// several replicas must see alike (generated files, the toggle state, plans, the
// signing key) lives in one Store, either a directory (file:DIR, one host) or an
// S3-compatible bucket (s3://BUCKET/PREFIX, any number of hosts).
//
// A Store holds small objects under keys such as "downloads/0a1b2c3d4e5f_report.pdf"
// or "state/toggles.json". Each object has a size, an ETag (opaque; it changes
// whenever the content changes) and a modification time. Writes replace an object
// atomically, optionally on a condition: PutOptions.IfNoneMatch creates an object
// only if the key is free (write-once content, a signing key created by whichever
// replica comes first), PutOptions.IfMatch replaces it only if nobody changed it
// since it was read (the toggle state's read-modify-write loop). Reads stream, from
// an offset if asked.
//
// Errors carry one of the kinds ErrNotFound, ErrPreconditionFailed,
// ErrNotModified, ErrInvalidRange, ErrInvalidKey or ErrUnavailable (test with
// errors.Is); an error of none of these kinds is "everything else" (access denied,
// a missing bucket, a full disk...). ErrUnavailable means the store could not be
// reached or did not answer in time; every operation bounds how long that takes,
// so a caller learns it in seconds, never after a hang. After ErrUnavailable from
// Put the outcome is unknown: the write may or may not have landed.
package blob

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
)

// Store is an object store shared by the replicas of a fleet. Its methods are
// safe for concurrent use, also by several processes (and hosts, for S3) on one
// store.
type Store interface {
	// Kind is "file" or "s3".
	Kind() string
	// Location is the store's --store value with an absolute directory; it never
	// contains credentials.
	Location() string
	// Put writes data as the object key, atomically: readers see the old or the
	// new content, never a mix. Errors: ErrInvalidKey; ErrPreconditionFailed when
	// opts.IfNoneMatch is set and the key exists, or opts.IfMatch is set and the
	// object's ETag differs; ErrNotFound when opts.IfMatch is set and the key does
	// not exist; ErrUnavailable.
	Put(ctx context.Context, key string, data []byte, opts PutOptions) (Info, error)
	// Get opens the object key for reading, the whole object or opts.Range. The
	// caller must Close the returned Object. Errors: ErrInvalidKey, ErrNotFound,
	// ErrInvalidRange (an offset at or past the end), ErrPreconditionFailed
	// (opts.IfMatch differs), ErrNotModified (opts.IfNoneMatch equals the ETag),
	// ErrUnavailable.
	Get(ctx context.Context, key string, opts GetOptions) (*Object, error)
	// Stat returns the object's metadata. Errors: ErrInvalidKey, ErrNotFound,
	// ErrUnavailable.
	Stat(ctx context.Context, key string) (Info, error)
	// Delete removes the object key. Deleting a missing object succeeds, so
	// several replicas may delete the same object. Errors: ErrInvalidKey,
	// ErrUnavailable.
	Delete(ctx context.Context, key string) error
	// List calls fn for every object whose key starts with prefix, in ascending
	// key order, and stops at the first error fn returns (List returns it).
	// prefix is "" or a key, optionally with a trailing '/' or cut anywhere in its
	// last segment ("downloads/", "plans/ab"). Entries may lack the ETag (when the
	// backend does not have it without reading the object); Stat has it. Objects
	// written or deleted while List runs may or may not be reported. Errors:
	// ErrInvalidKey (prefix), ErrUnavailable.
	List(ctx context.Context, prefix string, fn func(Info) error) error
	// Ping reports quickly (within the store's operation timeout) whether the
	// store answers.
	Ping(ctx context.Context) Health
	// Close releases the store's resources.
	Close() error
}

// Info describes a stored object.
type Info struct {
	Key  string
	Size int64
	// ETag identifies the content: it changes whenever the content changes and
	// stays the same while it does not. It is opaque, without quotes (an HTTP
	// handler adds them). Empty only in List entries (see Store.List).
	ETag string
	// ModTime is when the object was last written, by the store's clock (the
	// file system's or the S3 server's). S3 reports it in whole seconds. Put's
	// result leaves it zero when the backend does not report it (S3).
	ModTime time.Time
	// SHA256 is the hex SHA-256 of the content, or empty when the store does
	// not know it. The directory store always knows it (it is the ETag); the
	// S3 store records it with every object it writes (x-amz-meta-sha256, the
	// digest the server verified on upload) and reports it from Put, Stat and
	// Get, not from List.
	SHA256 string
}

// PutOptions are the conditions of a write. At most one may be set.
type PutOptions struct {
	// IfMatch, when not empty, replaces the object only if its current ETag is
	// exactly this value: the compare-and-swap of a read-modify-write loop.
	IfMatch string
	// IfNoneMatch creates the object only if the key is free.
	IfNoneMatch bool
}

// GetOptions select what Get returns.
type GetOptions struct {
	// Range, when not nil, reads only part of the object.
	Range *Range
	// IfMatch, when not empty, fails with ErrPreconditionFailed unless the
	// object's ETag is this value (a reader resuming at an offset pins the
	// version it started with).
	IfMatch string
	// IfNoneMatch, when not empty, fails with ErrNotModified if the object's ETag
	// is this value (a poller asking "anything new?").
	IfNoneMatch string
}

// Range is a byte range of an object: Length bytes from Offset, or everything
// from Offset when Length is negative. A range reaching past the end is cut at
// the end; an Offset at or past the end is ErrInvalidRange.
type Range struct {
	Offset int64
	Length int64
}

// Health is a store's state as /health reports it: {"kind":"s3","ok":true}.
type Health struct {
	Kind string `json:"kind"`
	OK   bool   `json:"ok"`
	// Reason, when not OK, is "store_unavailable" (not reachable or not
	// answering in time) or "store_error" (reachable but refusing: bad
	// credentials, missing bucket, read-only directory).
	Reason string `json:"reason,omitempty"`
	// Err is the underlying error, for the log; never shown to clients.
	Err error `json:"-"`
}

// The kinds of error a Store returns; test with errors.Is.
var (
	// ErrNotFound: no object under the key.
	ErrNotFound = errors.New("not found")
	// ErrPreconditionFailed: a condition of Put or Get did not hold; for Put,
	// another writer got there first (a lost race).
	ErrPreconditionFailed = errors.New("precondition failed")
	// ErrNotModified: GetOptions.IfNoneMatch equals the current ETag.
	ErrNotModified = errors.New("not modified")
	// ErrInvalidRange: GetOptions.Range starts at or past the end of the object.
	ErrInvalidRange = errors.New("range not satisfiable")
	// ErrInvalidKey: a key or prefix outside the key syntax (see ValidKey).
	ErrInvalidKey = errors.New("invalid key")
	// ErrUnavailable: the store could not be reached or did not answer in time
	// (connection refused, network down, a paused server, a lock not obtained
	// before the deadline). For Put, the outcome is unknown.
	ErrUnavailable = errors.New("store unavailable")
)

// Error is the error type of every Store operation. Kind is one of the Err*
// variables or nil ("everything else"); Err is the cause, if any.
type Error struct {
	Op   string // "put", "get", "stat", "delete", "list", "read", "open"
	Key  string
	Kind error
	Err  error
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("blob: ")
	b.WriteString(e.Op)
	if e.Key != "" {
		b.WriteString(" ")
		b.WriteString(e.Key)
	}
	if e.Kind != nil {
		b.WriteString(": ")
		b.WriteString(e.Kind.Error())
	}
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

// Unwrap returns the kind and the cause, so errors.Is matches both.
func (e *Error) Unwrap() []error {
	var out []error
	if e.Kind != nil {
		out = append(out, e.Kind)
	}
	if e.Err != nil {
		out = append(out, e.Err)
	}
	return out
}

func newErr(op, key string, kind, cause error) error {
	return &Error{Op: op, Key: key, Kind: kind, Err: cause}
}

// MaxKeyLen is the longest key, in bytes.
const MaxKeyLen = 512

// ValidKey reports whether key is a valid object key: 1 to MaxKeyLen bytes,
// segments separated by single '/', each segment at most 255 bytes of
// [A-Za-z0-9._-] starting with a letter or digit. So no key is absolute, empty
// in a segment, "." or "..", hidden (a leading '.', which the directory store
// keeps for itself) or in need of escaping anywhere.
func ValidKey(key string) bool {
	if len(key) == 0 || len(key) > MaxKeyLen {
		return false
	}
	segStart := 0
	for i := 0; i <= len(key); i++ {
		if i < len(key) && key[i] != '/' {
			c := key[i]
			alnum := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
			if i == segStart && !alnum || !alnum && c != '.' && c != '_' && c != '-' {
				return false
			}
			continue
		}
		if i == segStart || i-segStart > 255 {
			return false
		}
		segStart = i + 1
	}
	return true
}

// validPrefix: "" or a key with an optional trailing '/'.
func validPrefix(prefix string) bool {
	return prefix == "" || ValidKey(strings.TrimSuffix(prefix, "/"))
}

func checkPut(key string, opts PutOptions) error {
	if !ValidKey(key) {
		return newErr("put", key, ErrInvalidKey, nil)
	}
	if opts.IfMatch != "" && opts.IfNoneMatch {
		return newErr("put", key, nil, errors.New("IfMatch and IfNoneMatch together"))
	}
	return nil
}

func checkGet(key string, opts GetOptions) error {
	if !ValidKey(key) {
		return newErr("get", key, ErrInvalidKey, nil)
	}
	if opts.Range != nil && opts.Range.Offset < 0 {
		return newErr("get", key, ErrInvalidRange, fmt.Errorf("negative offset %d", opts.Range.Offset))
	}
	if opts.Range != nil && opts.Range.Length == 0 {
		return newErr("get", key, ErrInvalidRange, errors.New("empty range"))
	}
	return nil
}

// span resolves a range against an object size: the offset and length to read.
func span(r *Range, size int64) (off, n int64, ok bool) {
	if r == nil {
		return 0, size, true
	}
	if r.Offset >= size {
		return 0, 0, false
	}
	n = size - r.Offset
	if r.Length >= 0 && r.Length < n {
		n = r.Length
	}
	return r.Offset, n, true
}

// Object is an open object: the whole object's Info and a stream of the
// requested bytes (Offset and Length say which). Read errors are *Error values
// (ErrUnavailable when an S3 server stops sending); a stream that ends early is
// an error, never a silent short read. Close releases the connection or file.
type Object struct {
	Info
	Offset int64 // first byte of the stream within the object
	Length int64 // bytes the stream delivers

	ctx   context.Context
	body  io.Reader
	close func() error
	read  int64
	wrap  func(error) error // maps a read error to an *Error
}

// Read reads the next bytes of the stream.
func (o *Object) Read(p []byte) (int, error) {
	if err := o.ctx.Err(); err != nil {
		return 0, o.wrap(err)
	}
	if o.read >= o.Length {
		return 0, io.EOF
	}
	if rest := o.Length - o.read; int64(len(p)) > rest {
		p = p[:rest]
	}
	n, err := o.body.Read(p)
	o.read += int64(n)
	switch {
	case err == nil:
		return n, nil
	case errors.Is(err, io.EOF) && o.read == o.Length:
		return n, io.EOF
	case errors.Is(err, io.EOF):
		return n, o.wrap(fmt.Errorf("stream ended after %d of %d bytes: %w", o.read, o.Length, io.ErrUnexpectedEOF))
	}
	return n, o.wrap(err)
}

// Close releases the object's connection or file.
func (o *Object) Close() error {
	if o.close == nil {
		return nil
	}
	c := o.close
	o.close = nil
	return c()
}
