// Package toggles keeps the set of disabled tools in the store the replicas
// share (internal/blob), so that an administrator's toggle survives a restart
// and reaches every process on the same store: every replica of a fleet on one
// S3 bucket, or serve, mcp and call on one data directory.
//
// The state is one small object, Key, holding exactly {"disabled":[sorted
// names]}, the reference sidecar's format (in a directory store at the data
// directory it is <data-dir>/disabled_tools.json, where it always was). Every
// change is a read-modify-write with a conditional write: replace only if the
// ETag is still the one read (If-Match), create only if absent
// (If-None-Match); a write that loses a race is retried on the new state, so
// two admins toggling on two replicas at once never lose an update. Replicas
// follow changes by polling with If-None-Match (Reload).
package toggles

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"github.com/precisiond/precisiond/internal/blob"
	"github.com/precisiond/precisiond/tools"
)

// Key is the toggle state's object key in the store.
const Key = "disabled_tools.json"

// FileName is the toggle state's file name in a directory store (the same as
// Key: the object sits at the store's top).
const FileName = Key

// maxBytes bounds what is read: the object lists tool names only.
const maxBytes = 1 << 20

// maxAttempts bounds the retries of a change that keeps losing races.
const maxAttempts = 32

// Registry is the part of tools.Registry a Store drives.
type Registry interface {
	SetDisabled(names []string) (unknown []string)
	Disabled() []string
	Names() []string
}

// Store ties a registry's enabled state to the toggle object. Changes and
// reloads are serialized in this process; across processes the conditional
// writes order them.
type Store struct {
	store blob.Store
	reg   Registry

	mu      sync.Mutex
	etag    string   // ETag of the object last read or written; "" when absent
	loaded  bool     // the state has been read from the store at least once
	foreign []string // disabled names the registry does not know: kept in the object
	problem string   // why the object last could not be used ("": it could); a store that does not answer is not one
}

// New returns the toggle state of reg in s. It reads nothing: Load does.
func New(s blob.Store, reg Registry) *Store { return &Store{store: s, reg: reg} }

// Where names the toggle object for logs: the store's location and the key.
func (s *Store) Where() string { return s.store.Location() + " " + Key }

// Loaded reports whether the state has been read from the store at least once
// (until then every tool is enabled, whatever an admin disabled: readiness
// waits for it).
func (s *Store) Loaded() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.loaded
}

// Problem is why the toggle object could not be used at the last read (it
// is corrupt: the state in force is the last good one, or every tool
// enabled), or "" when it could.
func (s *Store) Problem() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.problem
}

// Load reads the toggle object (a missing one means nothing is disabled) and
// applies it to the registry. Names that the registry does not know are
// returned in unknown (the caller logs them) and kept in the object when it
// is written: they may be tools this process does not expose (--tools) but
// another does. An object that is not in the expected format is an error
// naming it (the service must not start with a state it cannot read); a store
// that does not answer is an error matching blob.ErrUnavailable (the caller
// may start anyway: Reload applies the state once the store answers).
func (s *Store) Load(ctx context.Context) (unknown []string, err error) {
	_, unknown, err = s.Reload(ctx)
	return unknown, err
}

// Reload reads the toggle object if it changed since the last read or write
// (a conditional read: If-None-Match on the ETag, so an unchanged state costs
// one short answer) and applies it. It reports whether the registry's state
// changed and the unknown names in the object. On an error the state stays
// as it was.
func (s *Store) Reload(ctx context.Context) (changed bool, unknown []string, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ifNoneMatch := ""
	if s.loaded {
		ifNoneMatch = s.etag
	}
	names, etag, err := s.read(ctx, ifNoneMatch)
	if errors.Is(err, blob.ErrNotModified) {
		return false, nil, nil
	}
	if err != nil {
		if !errors.Is(err, blob.ErrUnavailable) {
			s.problem = err.Error()
		}
		return false, nil, err
	}
	s.problem = ""
	if s.loaded && etag == s.etag {
		return false, nil, nil
	}
	changed, unknown = s.apply(names, etag)
	return changed, unknown, nil
}

// read returns the names in the toggle object and its ETag; a missing object
// is an empty list with ETag "".
func (s *Store) read(ctx context.Context, ifNoneMatch string) ([]string, string, error) {
	obj, err := s.store.Get(ctx, Key, blob.GetOptions{IfNoneMatch: ifNoneMatch})
	if errors.Is(err, blob.ErrNotFound) {
		return nil, "", nil
	}
	if err != nil {
		return nil, "", fmt.Errorf("toggle state %s: %w", s.Where(), err)
	}
	defer obj.Close()
	data, err := io.ReadAll(io.LimitReader(obj, maxBytes+1))
	if err != nil {
		return nil, "", fmt.Errorf("toggle state %s: %w", s.Where(), err)
	}
	if len(data) > maxBytes {
		return nil, "", fmt.Errorf("toggle state %s: larger than %d bytes", s.Where(), maxBytes)
	}
	names, err := Parse(data)
	if err != nil {
		return nil, "", fmt.Errorf("toggle state %s: %w", s.Where(), err)
	}
	return names, obj.ETag, nil
}

// apply makes names (the whole disabled list of the store, as of etag) the
// registry's state; it reports whether the registry changed and the names it
// does not know.
func (s *Store) apply(names []string, etag string) (changed bool, unknown []string) {
	known := s.reg.Names()
	var mine []string
	s.foreign = nil
	for _, n := range names {
		if slices.Contains(known, n) {
			mine = append(mine, n)
		} else {
			s.foreign = append(s.foreign, n)
		}
	}
	s.etag, s.loaded = etag, true
	if slices.Equal(mine, s.reg.Disabled()) {
		return false, s.foreign
	}
	s.reg.SetDisabled(mine)
	return true, s.foreign
}

// Parse decodes {"disabled":[names]}: an object with exactly that key, a list of
// strings. Duplicates are allowed and collapse.
func Parse(data []byte) ([]string, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var doc struct {
		Disabled *[]string `json:"disabled"`
	}
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("not {\"disabled\":[names]}: %v", err)
	}
	if dec.More() {
		return nil, errors.New("trailing data after the JSON object")
	}
	if doc.Disabled == nil {
		return nil, errors.New(`missing "disabled" list`)
	}
	names := slices.Clone(*doc.Disabled)
	for _, n := range names {
		if n == "" {
			return nil, errors.New("empty tool name in the disabled list")
		}
	}
	slices.Sort(names)
	return slices.Compact(names), nil
}

// Encode renders the object's content for a set of names: {"disabled":[sorted]}.
func Encode(names []string) []byte {
	sorted := slices.Clone(names)
	slices.Sort(sorted)
	sorted = slices.Compact(sorted)
	if sorted == nil {
		sorted = []string{}
	}
	b, _ := json.Marshal(map[string][]string{"disabled": sorted}) // strings only: cannot fail
	return b
}

// Set enables or disables one tool and persists the new state in the store
// before returning; the registry changes only once the store has it. It
// returns the previous state as the store had it; ok is false for an unknown
// tool (nothing changes). Errors: store_unavailable (*tools.Error) when the
// store does not answer or refuses, or when the change lost the race to other
// writers too many times in a row; an error naming the object when it is
// corrupt. Nothing changes on an error.
func (s *Store) Set(ctx context.Context, name string, enabled bool) (previous, ok bool, err error) {
	return s.change(ctx, name, func(bool) bool { return !enabled })
}

// Toggle flips one tool's state as the store has it at the moment of the
// write, and persists it as Set does: two toggles on two replicas at once both
// take effect (the tool ends as it started). It returns the previous state.
func (s *Store) Toggle(ctx context.Context, name string) (previous, ok bool, err error) {
	return s.change(ctx, name, func(disabled bool) bool { return !disabled })
}

// change is the read-modify-write loop: read the object, compute name's next
// state from the stored one (disabled → disable), write it on the condition
// that nobody wrote since, retry on a lost race.
func (s *Store) change(ctx context.Context, name string, disable func(disabled bool) bool) (previous, ok bool, err error) {
	if !slices.Contains(s.reg.Names(), name) {
		return false, false, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for attempt := range maxAttempts {
		names, etag, err := s.read(ctx, "")
		if err != nil {
			return false, true, storeError(err)
		}
		was := slices.Contains(names, name)
		previous = !was
		next := disable(was)
		if next == was {
			s.apply(names, etag)
			return previous, true, nil
		}
		if next {
			names = append(names, name)
		} else {
			names = slices.DeleteFunc(names, func(n string) bool { return n == name })
		}
		opts := blob.PutOptions{IfMatch: etag, IfNoneMatch: etag == ""}
		info, err := s.store.Put(ctx, Key, Encode(names), opts)
		switch {
		case err == nil:
			s.apply(names, info.ETag)
			return previous, true, nil
		case errors.Is(err, blob.ErrPreconditionFailed), errors.Is(err, blob.ErrNotFound):
			// Another writer got there first (or deleted the object): read
			// the new state and try again, after a short random pause so that
			// racing writers spread out.
			t := time.NewTimer(time.Duration(rand.N(attempt+1)) * time.Millisecond)
			select {
			case <-ctx.Done():
				t.Stop()
				return false, true, storeError(ctx.Err())
			case <-t.C:
			}
		default:
			return false, true, storeError(fmt.Errorf("toggle state %s: %w", s.Where(), err))
		}
	}
	return false, true, tools.StoreUnavailable(tools.ReasonStoreRefused, "the toggle state changed under every one of %d attempts to write it; try again", maxAttempts)
}

// storeError turns a failure to read or write the toggle object into the
// error the admin routes answer: store_unavailable when the store did not
// answer or refused; a corrupt object stays what it is (an internal error).
func storeError(err error) error {
	var be *blob.Error
	switch {
	case errors.Is(err, blob.ErrUnavailable), errors.Is(err, context.DeadlineExceeded):
		return tools.StoreUnavailable(tools.ReasonStoreNotAnswering, "the store holding the toggle state is not answering")
	case errors.As(err, &be):
		return tools.StoreUnavailable(tools.ReasonStoreRefused, "the store holding the toggle state refused the request")
	}
	return err
}
