package blob

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"sync"
)

// lazyDir is a directory store whose directory is created by the first Put:
// until then it reads as empty and nothing is written, so a process that
// stores nothing (a command-line call, an MCP session) leaves no trace.
type lazyDir struct {
	dir     string
	cleanup bool

	mu    sync.Mutex
	inner *DirStore
}

var _ Store = (*lazyDir)(nil)

// open returns the directory store, opening it if the directory exists (or,
// with create, creating it); nil while the directory does not exist.
func (l *lazyDir) open(create bool) (*DirStore, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.inner != nil {
		return l.inner, nil
	}
	if _, err := os.Stat(l.dir); errors.Is(err, fs.ErrNotExist) && !create {
		return nil, nil
	}
	s, err := openDirStore(l.dir, l.cleanup)
	if err != nil {
		return nil, err
	}
	l.inner = s
	return s, nil
}

func (l *lazyDir) Kind() string     { return "file" }
func (l *lazyDir) Location() string { return "file:" + l.dir }

// Unwrap returns the directory store once it is open, else nil.
func (l *lazyDir) Unwrap() Store {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.inner == nil {
		return nil
	}
	return l.inner
}

func (l *lazyDir) Put(ctx context.Context, key string, data []byte, opts PutOptions) (Info, error) {
	s, err := l.open(true)
	if err != nil {
		return Info{}, newErr("put", key, nil, err)
	}
	return s.Put(ctx, key, data, opts)
}

func (l *lazyDir) Get(ctx context.Context, key string, opts GetOptions) (*Object, error) {
	s, err := l.open(false)
	if err != nil || s == nil {
		return nil, newErr("get", key, ErrNotFound, err)
	}
	return s.Get(ctx, key, opts)
}

func (l *lazyDir) Stat(ctx context.Context, key string) (Info, error) {
	s, err := l.open(false)
	if err != nil || s == nil {
		return Info{}, newErr("stat", key, ErrNotFound, err)
	}
	return s.Stat(ctx, key)
}

func (l *lazyDir) Delete(ctx context.Context, key string) error {
	s, err := l.open(false)
	if err != nil || s == nil {
		return err
	}
	return s.Delete(ctx, key)
}

func (l *lazyDir) List(ctx context.Context, prefix string, fn func(Info) error) error {
	s, err := l.open(false)
	if err != nil || s == nil {
		return err
	}
	return s.List(ctx, prefix, fn)
}

func (l *lazyDir) Ping(ctx context.Context) Health {
	s, err := l.open(false)
	if err != nil {
		return Health{Kind: "file", Reason: "store_error", Err: err}
	}
	if s == nil {
		return Health{Kind: "file", OK: true} // created by the first write
	}
	return s.Ping(ctx)
}

func (l *lazyDir) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.inner == nil {
		return nil
	}
	return l.inner.Close()
}
