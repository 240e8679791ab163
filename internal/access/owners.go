package access

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// Owners remembers which API tokens generated which stored files, so that a
// token sees only its own files. With a path it is also kept in a file of
// "FILE<TAB>TOKEN" lines: reloaded at start, appended to (one open, write and
// close per new pair, so that processes sharing the directory all keep
// appending to the live file), and read again on a miss when another
// process has appended since.
type Owners struct {
	path string

	mu     sync.Mutex
	by     map[string]map[string]bool // file → token names
	offset int64                      // bytes of the file already read
	limit  int                        // Prune is due when by grows past it
}

// OwnersFileName is the file in the data directory that Owners keeps.
const OwnersFileName = "download-owners.log"

// NewOwners makes an owner record kept in path ("": in memory only). A
// missing file is an empty record.
func NewOwners(path string) (*Owners, error) {
	o := &Owners{path: path, by: map[string]map[string]bool{}, limit: 1024}
	if path == "" {
		return o, nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if err := o.readLocked(); err != nil {
		return nil, err
	}
	return o, nil
}

// readLocked reads what was appended since the last read (everything, when
// the file was rewritten shorter).
func (o *Owners) readLocked() error {
	f, err := os.Open(o.path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if st.Size() < o.offset {
		o.offset = 0
	}
	if _, err := f.Seek(o.offset, io.SeekStart); err != nil {
		return err
	}
	r := bufio.NewReader(f)
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return nil // EOF, or a partial last line: read again later
		}
		o.offset += int64(len(line))
		file, token, ok := strings.Cut(strings.TrimSuffix(line, "\n"), "\t")
		if ok && file != "" && validName.MatchString(token) && !strings.ContainsAny(file, "/\t") {
			o.noteLocked(file, token)
		}
	}
}

func (o *Owners) noteLocked(file, token string) {
	if o.by[file] == nil {
		o.by[file] = map[string]bool{}
	}
	o.by[file][token] = true
}

// Add records that token generated file. It reports whether the record now
// holds more files than its limit (time to Prune).
func (o *Owners) Add(file, token string) (pruneDue bool, err error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.by[file][token] {
		return false, nil
	}
	o.noteLocked(file, token)
	if o.path != "" {
		f, err := os.OpenFile(o.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
		if err != nil {
			return false, err
		}
		_, werr := f.WriteString(file + "\t" + token + "\n")
		if err := f.Close(); werr == nil {
			werr = err
		}
		if werr != nil {
			return false, werr
		}
	}
	return len(o.by) > o.limit, nil
}

// Owns reports whether token generated file.
func (o *Owners) Owns(file, token string) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.by[file][token] {
		return true
	}
	if o.path != "" {
		_ = o.readLocked() // another process may have appended
	}
	return o.by[file][token]
}

// Prune forgets the files live reports gone and rewrites the file with the
// rest (a temporary file renamed into place); the limit becomes twice what
// is left, so that memory stays proportional to the store.
func (o *Owners) Prune(live func(file string) bool) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.path != "" {
		_ = o.readLocked()
	}
	var buf bytes.Buffer
	for file, tokens := range o.by {
		if !live(file) {
			delete(o.by, file)
			continue
		}
		for token := range tokens {
			buf.WriteString(file + "\t" + token + "\n")
		}
	}
	o.limit = max(1024, 2*len(o.by))
	if o.path == "" {
		return nil
	}
	if err := WriteFileAtomic(o.path, buf.Bytes()); err != nil {
		return err
	}
	o.offset = int64(buf.Len())
	return nil
}

// WriteFileAtomic writes b to path through a temporary file in its directory
// (created if missing) renamed into place, so that a reader sees the old
// content or the new, never part of it.
func WriteFileAtomic(path string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
