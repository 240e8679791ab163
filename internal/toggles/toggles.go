// Package toggles persists the set of disabled tools in the data directory, so
// that an administrator's toggle survives a restart and is seen by every process
// that opens the same directory (serve, mcp, call, tools).
//
// The file is <data-dir>/disabled_tools.json holding exactly
// {"disabled":[sorted names]}, the reference sidecar's format. It is written
// atomically: a temporary file in the same directory, fsync, rename, fsync of the
// directory.
package toggles

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
)

// FileName is the toggle file's name inside the data directory.
const FileName = "disabled_tools.json"

// maxFileBytes bounds what Load reads: the file lists tool names only.
const maxFileBytes = 1 << 20

// Registry is the part of tools.Registry a Store drives.
type Registry interface {
	SetEnabled(name string, enabled bool) (previous bool, ok bool)
	Toggle(name string) (previous bool, ok bool)
	SetDisabled(names []string) (unknown []string)
	Disabled() []string
	Names() []string
}

// Store ties a registry's enabled state to the toggle file. Every change goes
// through Set, which updates the registry and the file under one lock, so the
// file always ends up holding the latest state.
type Store struct {
	path string
	reg  Registry

	mu      sync.Mutex
	last    []byte   // the file content last written or applied
	foreign []string // disabled names the registry does not know: kept in the file
}

// Open reads the toggle file in dir (a missing file means nothing is disabled),
// applies it to reg and returns the store. Names in the file that reg does not
// know are returned in unknown (the caller logs them) and kept in the file
// when it is written: they may be tools this process does not expose
// (--tools) but another process on the same data directory does. A file
// that is not in the expected format is an error: the service must not
// start with a state it cannot read.
func Open(dir string, reg Registry) (s *Store, unknown []string, err error) {
	s = &Store{path: filepath.Join(dir, FileName), reg: reg}
	data, names, err := s.read()
	if err != nil {
		return nil, nil, err
	}
	unknown = reg.SetDisabled(names)
	s.foreign = unknown
	s.last = data
	return s, unknown, nil
}

// Path is the toggle file's path.
func (s *Store) Path() string { return s.path }

// read returns the raw file and the names in it; a missing file is empty.
func (s *Store) read() ([]byte, []string, error) {
	f, err := os.Open(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("toggle file: %w", err)
	}
	defer f.Close()
	data, err := readLimited(f)
	if err != nil {
		return nil, nil, fmt.Errorf("toggle file %s: %w", s.path, err)
	}
	names, err := Parse(data)
	if err != nil {
		return nil, nil, fmt.Errorf("toggle file %s: %w", s.path, err)
	}
	return data, names, nil
}

func readLimited(f *os.File) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(f, maxFileBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxFileBytes {
		return nil, fmt.Errorf("larger than %d bytes", maxFileBytes)
	}
	return data, nil
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

// Encode renders the file content for a set of names: {"disabled":[sorted]}.
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

// Set enables or disables one tool and persists the new state before returning.
// It returns the previous state; ok is false for an unknown tool (nothing
// changes). When the file cannot be written the registry is put back and the
// error returned, so the running state never differs from the persisted one.
func (s *Store) Set(name string, enabled bool) (previous, ok bool, err error) {
	return s.change(name, func() (bool, bool) { return s.reg.SetEnabled(name, enabled) })
}

// Toggle flips one tool's state and persists it, as Set does. The flip is
// relative to the state at the moment of the change, so two concurrent toggles
// both take effect. It returns the previous state.
func (s *Store) Toggle(name string) (previous, ok bool, err error) {
	return s.change(name, func() (bool, bool) { return s.reg.Toggle(name) })
}

// change applies f (a change of name's state in the registry) and persists the
// result under the store's lock, putting the registry back when the file
// cannot be written.
func (s *Store) change(name string, f func() (previous, ok bool)) (previous, ok bool, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	previous, ok = f()
	disabled := s.reg.Disabled()
	if !ok || previous == !slices.Contains(disabled, name) {
		return previous, ok, nil
	}
	if err := s.writeLocked(append(disabled, s.foreign...)); err != nil {
		s.reg.SetEnabled(name, previous)
		return previous, true, err
	}
	return previous, true, nil
}

func (s *Store) writeLocked(names []string) error {
	data := Encode(names)
	if err := WriteAtomic(s.path, data); err != nil {
		return err
	}
	s.last = data
	return nil
}

// WriteAtomic replaces path with data: temp file in the same directory, fsync,
// rename over path, fsync of the directory. A reader sees the old or the new
// content, never a part.
func WriteAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("toggle file: %w", err)
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("toggle file: %w", err)
	}
	tmpName := tmp.Name()
	defer os.Remove(tmpName) // no-op after a successful rename
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("toggle file: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("toggle file: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("toggle file: %w", err)
	}
	if err := os.Chmod(tmpName, 0o644); err != nil {
		return fmt.Errorf("toggle file: %w", err)
	}
	if err := os.Rename(tmpName, path); err != nil {
		return fmt.Errorf("toggle file: %w", err)
	}
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync() // best effort: not every file system syncs directories
		d.Close()
	}
	return nil
}

// Reload re-reads the file and applies it when its content changed since the
// last read or write (another process toggled a tool). It reports whether the
// registry changed and the unknown names in the file.
func (s *Store) Reload() (changed bool, unknown []string, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	data, names, err := s.read()
	if err != nil {
		return false, nil, err
	}
	if bytes.Equal(data, s.last) {
		return false, nil, nil
	}
	s.last = data
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
	if slices.Equal(mine, s.reg.Disabled()) {
		return false, nil, nil
	}
	s.reg.SetDisabled(mine)
	return true, s.foreign, nil
}
