package filestore

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/precisiond/precisiond/internal/vectors"
)

// fakeClock is an injected clock tests move by hand.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *fakeClock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func newStore(t *testing.T, cfg Config) (*Store, *fakeClock) {
	t.Helper()
	clock := &fakeClock{t: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)}
	if cfg.Dir == "" {
		cfg.Dir = filepath.Join(t.TempDir(), "downloads")
	}
	cfg.Now = clock.Now
	s, err := Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s, clock
}

func TestPutReadRoundTrip(t *testing.T) {
	s, _ := newStore(t, Config{})
	data := []byte("# hello\n")
	e, err := s.Put("report", "md", data)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	want := hex.EncodeToString(sum[:])
	if e.SHA256 != want || e.Name != want[:12]+"_report.md" || e.Size != int64(len(data)) {
		t.Fatalf("entry %+v", e)
	}
	got, e2, err := s.ReadFile(e.Name)
	if err != nil || string(got) != string(data) || e2.SHA256 != want {
		t.Fatalf("read %q %+v %v", got, e2, err)
	}
	// The same bytes again: same name, one file.
	e3, err := s.Put("report", "md", data)
	if err != nil || e3.Name != e.Name {
		t.Fatalf("second put %+v %v", e3, err)
	}
	list, _ := s.List()
	if len(list) != 1 {
		t.Fatalf("%d files, want 1", len(list))
	}
	fi, _ := os.Stat(filepath.Join(s.Dir(), e.Name))
	if fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v", fi.Mode().Perm())
	}
}

func TestTTLOnReadAndJanitor(t *testing.T) {
	s, clock := newStore(t, Config{TTL: time.Hour})
	old, _ := s.Put("old", "txt", []byte("old"))
	clock.Add(40 * time.Minute)
	fresh, _ := s.Put("fresh", "txt", []byte("fresh"))
	clock.Add(21 * time.Minute) // old is 61 min, fresh 21 min

	if _, _, err := s.ReadFile(old.Name); !errors.Is(err, ErrNotFound) {
		t.Fatalf("expired file readable: %v", err)
	}
	if _, _, err := s.ReadFile(fresh.Name); err != nil {
		t.Fatalf("fresh file: %v", err)
	}
	// Expired but not yet swept: still on disk, never served.
	if _, err := os.Lstat(filepath.Join(s.Dir(), old.Name)); err != nil {
		t.Fatalf("expected the expired file on disk before the sweep: %v", err)
	}
	if err := s.Sweep(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(s.Dir(), old.Name)); !os.IsNotExist(err) {
		t.Fatalf("janitor left the expired file: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(s.Dir(), fresh.Name)); err != nil {
		t.Fatalf("janitor removed a fresh file: %v", err)
	}
	// Storing the same bytes again renews the lifetime.
	clock.Add(30 * time.Minute) // fresh is 51 min
	if _, err := s.Put("fresh", "txt", []byte("fresh")); err != nil {
		t.Fatal(err)
	}
	clock.Add(30 * time.Minute)
	if _, _, err := s.ReadFile(fresh.Name); err != nil {
		t.Fatalf("renewed file expired: %v", err)
	}
}

func TestSizeCapEvictsOldestFirst(t *testing.T) {
	s, clock := newStore(t, Config{MaxBytes: 250})
	var names []string
	for i := 0; i < 3; i++ {
		e, err := s.Put("f"+strconv.Itoa(i), "txt", []byte(strings.Repeat(strconv.Itoa(i), 100)))
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, e.Name)
		clock.Add(time.Minute)
	}
	// 300 bytes > 250: the oldest (f0) went, f1 and f2 stay.
	exists := func(n string) bool { _, err := os.Lstat(filepath.Join(s.Dir(), n)); return err == nil }
	if exists(names[0]) || !exists(names[1]) || !exists(names[2]) {
		t.Fatalf("after cap: f0 %v f1 %v f2 %v", exists(names[0]), exists(names[1]), exists(names[2]))
	}
	// A file larger than the whole store is refused, nothing evicted for it.
	if _, err := s.Put("big", "txt", make([]byte, 251)); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("oversized put: %v", err)
	}
	if !exists(names[1]) || !exists(names[2]) {
		t.Fatal("an oversized put evicted files")
	}
	_, total, _ := s.Usage()
	if total != 200 {
		t.Fatalf("usage %d, want 200", total)
	}
}

func TestMaxFileBytes(t *testing.T) {
	s, _ := newStore(t, Config{MaxFileBytes: 10})
	if _, err := s.Put("x", "txt", make([]byte, 11)); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("err %v", err)
	}
	if _, err := s.Put("x", "txt", make([]byte, 10)); err != nil {
		t.Fatal(err)
	}
}

func TestCrashMidWriteLeavesNothingVisible(t *testing.T) {
	s, clock := newStore(t, Config{TTL: time.Hour})
	crash := errors.New("simulated crash")
	var tmpSeen string
	s.testHookAfterWrite = func(tmp string) error {
		tmpSeen = filepath.Base(tmp)
		// The temporary name can never be served.
		if NamePattern.MatchString(tmpSeen) {
			t.Errorf("temporary name %q matches the serving pattern", tmpSeen)
		}
		return crash
	}
	data := []byte("partial?")
	if _, err := s.Put("doc", "txt", data); !errors.Is(err, crash) {
		t.Fatalf("err %v", err)
	}
	name := FileName(data, "doc", "txt")
	if _, _, err := s.ReadFile(name); !errors.Is(err, ErrNotFound) {
		t.Fatalf("file visible after a failed write: %v", err)
	}
	entries, _ := os.ReadDir(s.Dir())
	if len(entries) != 0 {
		t.Fatalf("left behind: %v", entries)
	}

	// A temporary file with a live writer (one holding its lock) is not listed,
	// not served and not removed; once the writer is gone it is an orphan, and
	// the next sweep removes and counts it.
	s.testHookAfterWrite = nil
	stale := filepath.Join(s.Dir(), tempPrefix+"123456")
	if err := os.WriteFile(stale, []byte("half a fi"), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(stale, clock.Now(), clock.Now()); err != nil {
		t.Fatal(err)
	}
	writer, err := os.Open(stale)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Flock(int(writer.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.ReadFile(tempPrefix + "123456"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("temp file readable: %v", err)
	}
	if list, _ := s.List(); len(list) != 0 {
		t.Fatalf("temp file listed: %v", list)
	}
	if err := s.Sweep(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(stale); err != nil {
		t.Fatal("a temporary file with a live writer was removed")
	}
	if n := s.TempFilesRemoved(); n != 0 {
		t.Fatalf("TempFilesRemoved = %d, want 0", n)
	}
	writer.Close() // the writer dies
	if err := s.Sweep(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(stale); !os.IsNotExist(err) {
		t.Fatal("orphaned temporary file not removed")
	}
	if n := s.TempFilesRemoved(); n != 1 {
		t.Fatalf("TempFilesRemoved = %d, want 1", n)
	}
}

func TestCorruptedFileNotServed(t *testing.T) {
	s, _ := newStore(t, Config{})
	e, _ := s.Put("doc", "txt", []byte("original"))
	if err := os.WriteFile(filepath.Join(s.Dir(), e.Name), []byte("tampered"), 0o640); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.ReadFile(e.Name); !errors.Is(err, ErrNotFound) {
		t.Fatalf("tampered file served: %v", err)
	}
}

func TestOpenRefusesSymlinkDir(t *testing.T) {
	base := t.TempDir()
	real := filepath.Join(base, "real")
	if err := os.Mkdir(real, 0o750); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(base, "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(Config{Dir: link}); err == nil {
		t.Fatal("a symlinked store directory was accepted")
	}
}

func TestSanitizeBase(t *testing.T) {
	cases := map[[2]string]string{
		{"report", "pdf"}:                   "report",
		{"report.pdf", "pdf"}:               "report",
		{"Report.PDF", "pdf"}:               "Report",
		{"report.docx", "pdf"}:              "report.docx",
		{"Grüße aus Köln", "md"}:            "Gruesse_aus_Koeln",
		{"Café résumé", "md"}:               "Cafe_resume",
		{"../../etc/passwd", "txt"}:         "etc_passwd",
		{"/abs/path", "txt"}:                "abs_path",
		{"a..b", "txt"}:                     "a.b",
		{"...", "txt"}:                      "output",
		{"", "txt"}:                         "output",
		{"中文", "txt"}:                       "output",
		{"a\x00b", "txt"}:                   "a_b",
		{"C:\\Users\\x", "txt"}:             "C_Users_x",
		{"  spaced  name  ", "txt"}:         "spaced_name",
		{".hidden", "txt"}:                  "hidden",
		{"name.", "txt"}:                    "name",
		{"%2e%2e%2f", "txt"}:                "2e_2e_2f",
		{strings.Repeat("x", 100), "txt"}:   strings.Repeat("x", 64),
		{strings.Repeat("ab_", 30), "txt"}:  strings.TrimRight(strings.Repeat("ab_", 30)[:64], "_"),
		{"Straße ẞ Æsir Øre", "csv"}:        "Strasse_SS_AEsir_Ore",
		{"x.csv.csv", "csv"}:                "x.csv",
		{"file-name_v1.2", "html"}:          "file-name_v1.2",
		{"a-.b", "html"}:                    "a-b",
		{"ﬁle", "html"}:                     "file", // NFKD splits the ligature
		{"\u202eevil\u202dtxt.exe", "html"}: "evil_txt.exe",
	}
	for in, want := range cases {
		got := SanitizeBase(in[0], in[1])
		if got != want {
			t.Errorf("SanitizeBase(%q, %q) = %q, want %q", in[0], in[1], got, want)
		}
		if name := FileName([]byte("x"), got, in[1]); !NamePattern.MatchString(name) {
			t.Errorf("%q does not match the pattern", name)
		}
	}
}

func TestKBMatchesPythonVectors(t *testing.T) {
	// The legacy text's KB figure is Python's f"{n/1024:.1f}"; the vectors come
	// from tools/testdata/oracle/gen_generate_file.py.
	type kbCase struct {
		Bytes int    `json:"bytes"`
		KB    string `json:"kb"`
	}
	for _, c := range vectors.Cases[kbCase](t, "testdata/oracle_kb.json", 100) {
		if got := FormatKB(c.Bytes); got != c.KB {
			t.Errorf("%d bytes: %s, Python %s", c.Bytes, got, c.KB)
		}
	}
}

func TestConcurrentPuts(t *testing.T) {
	s, _ := newStore(t, Config{MaxBytes: 5000})
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			for j := 0; j < 10; j++ {
				data := []byte(fmt.Sprintf("%02d-%02d-%s", i, j, strings.Repeat("x", 100)))
				e, err := s.Put("c", "txt", data)
				if err != nil {
					t.Error(err)
					return
				}
				if got, _, err := s.ReadFile(e.Name); err == nil && string(got) != string(data) {
					t.Errorf("read back %q", got)
				}
			}
		}(i)
	}
	wg.Wait()
	_, total, _ := s.Usage()
	if total > 5000 {
		t.Fatalf("store holds %d bytes over its 5000 cap", total)
	}
}

// BenchmarkPut measures an atomic store write (temp file, fsync, rename, cap
// check) of a 1 KB and a 1 MB file.
func BenchmarkPut(b *testing.B) {
	for _, size := range []int{1 << 10, 1 << 20} {
		b.Run(strconv.Itoa(size), func(b *testing.B) {
			s, err := Open(Config{Dir: filepath.Join(b.TempDir(), "dl")})
			if err != nil {
				b.Fatal(err)
			}
			data := make([]byte, size)
			b.ReportAllocs()
			b.SetBytes(int64(size))
			i := 0
			for b.Loop() {
				data[0], data[1], data[2] = byte(i), byte(i>>8), byte(i>>16)
				i++
				if _, err := s.Put("bench", "txt", data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestCreateOnWrite: with CreateOnWrite, Open leaves a missing directory
// missing; the store reads as empty (List, Usage, ReadFile, Sweep) until the
// first Put creates the directory (and its parent) and the file. A symbolic
// link in the directory's place is still refused, at Put.
func TestCreateOnWrite(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "state", "downloads")
	s, err := Open(Config{Dir: dir, CreateOnWrite: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(base, "state")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("Open created the directory: %v", err)
	}
	if list, err := s.List(); err != nil || len(list) != 0 {
		t.Errorf("List of a missing directory: %v %v", list, err)
	}
	if n, b, err := s.Usage(); err != nil || n != 0 || b != 0 {
		t.Errorf("Usage: %d %d %v", n, b, err)
	}
	if err := s.Sweep(); err != nil {
		t.Errorf("Sweep: %v", err)
	}
	if n, err := s.RemoveOrphanTemps(); err != nil || n != 0 {
		t.Errorf("RemoveOrphanTemps: %d %v", n, err)
	}
	if _, _, err := s.ReadFile("0123456789ab_x.md"); !errors.Is(err, ErrNotFound) {
		t.Errorf("ReadFile: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(base, "state")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("reading created the directory: %v", err)
	}
	e, err := s.Put("x", "md", []byte("# x\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got, _, err := s.ReadFile(e.Name); err != nil || string(got) != "# x\n" {
		t.Fatalf("ReadFile after Put: %q %v", got, err)
	}

	linked := filepath.Join(base, "linked")
	s2, err := Open(Config{Dir: linked, CreateOnWrite: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(dir, linked); err != nil {
		t.Fatal(err)
	}
	if _, err := s2.Put("y", "md", []byte("# y\n")); err == nil {
		t.Error("Put through a symbolic link in the directory's place succeeded")
	}
}
