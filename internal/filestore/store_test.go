package filestore

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/precisiond/precisiond/internal/blob"
	"github.com/precisiond/precisiond/internal/vectors"
)

func newStore(t *testing.T, cfg Config) *Store {
	t.Helper()
	if cfg.Dir == "" {
		cfg.Dir = filepath.Join(t.TempDir(), "downloads")
	}
	s, err := Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// age makes a stored file look written d ago (a directory store's ModTime is
// the file's mtime).
func age(t *testing.T, s *Store, name string, d time.Duration) {
	t.Helper()
	when := time.Now().Add(-d)
	if err := os.Chtimes(filepath.Join(s.Dir(), name), when, when); err != nil {
		t.Fatal(err)
	}
}

func TestPutReadRoundTrip(t *testing.T) {
	s := newStore(t, Config{})
	ctx := context.Background()
	data := []byte("# hello\n")
	e, err := s.Put(ctx, "report", "md", data)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	want := hex.EncodeToString(sum[:])
	if e.SHA256 != want || e.Name != want[:12]+"_report.md" || e.Size != int64(len(data)) {
		t.Fatalf("entry %+v", e)
	}
	got, e2, err := s.ReadFile(ctx, e.Name)
	if err != nil || string(got) != string(data) || e2.SHA256 != want {
		t.Fatalf("read %q %+v %v", got, e2, err)
	}
	// The same bytes again: same name, one file.
	e3, err := s.Put(ctx, "report", "md", data)
	if err != nil || e3.Name != e.Name {
		t.Fatalf("second put %+v %v", e3, err)
	}
	list, _ := s.List(ctx)
	if len(list) != 1 {
		t.Fatalf("%d files, want 1", len(list))
	}
	fi, _ := os.Stat(filepath.Join(s.Dir(), e.Name))
	if fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v", fi.Mode().Perm())
	}
}

func TestTTLOnReadAndJanitor(t *testing.T) {
	s := newStore(t, Config{TTL: time.Hour})
	ctx := context.Background()
	old, _ := s.Put(ctx, "old", "txt", []byte("old"))
	fresh, _ := s.Put(ctx, "fresh", "txt", []byte("fresh"))
	age(t, s, old.Name, 61*time.Minute)
	age(t, s, fresh.Name, 21*time.Minute)

	if _, _, err := s.ReadFile(ctx, old.Name); !errors.Is(err, ErrNotFound) {
		t.Fatalf("expired file readable: %v", err)
	}
	if _, _, err := s.ReadFile(ctx, fresh.Name); err != nil {
		t.Fatalf("fresh file: %v", err)
	}
	// Expired but not yet swept: still on disk, never served.
	if _, err := os.Lstat(filepath.Join(s.Dir(), old.Name)); err != nil {
		t.Fatalf("expected the expired file on disk before the sweep: %v", err)
	}
	if err := s.Sweep(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(s.Dir(), old.Name)); !os.IsNotExist(err) {
		t.Fatalf("janitor left the expired file: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(s.Dir(), fresh.Name)); err != nil {
		t.Fatalf("janitor removed a fresh file: %v", err)
	}
	// Storing the same bytes again renews a file past half its lifetime.
	age(t, s, fresh.Name, 51*time.Minute)
	if _, err := s.Put(ctx, "fresh", "txt", []byte("fresh")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(filepath.Join(s.Dir(), fresh.Name)); err != nil || time.Since(fi.ModTime()) > 10*time.Minute {
		t.Fatalf("renewed file: %v %v", fi.ModTime(), err)
	}
}

func TestSizeCapEvictsOldestFirst(t *testing.T) {
	s := newStore(t, Config{MaxBytes: 250})
	ctx := context.Background()
	var names []string
	for i := 0; i < 3; i++ {
		e, err := s.Put(ctx, "f"+strconv.Itoa(i), "txt", []byte(strings.Repeat(strconv.Itoa(i), 100)))
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, e.Name)
		age(t, s, e.Name, time.Duration(10-i)*time.Minute) // f0 oldest
	}
	// 300 bytes > 250: the oldest (f0) went, f1 and f2 stay.
	exists := func(n string) bool { _, err := os.Lstat(filepath.Join(s.Dir(), n)); return err == nil }
	if exists(names[0]) || !exists(names[1]) || !exists(names[2]) {
		t.Fatalf("after cap: f0 %v f1 %v f2 %v", exists(names[0]), exists(names[1]), exists(names[2]))
	}
	// A file larger than the whole store is refused, nothing evicted for it.
	if _, err := s.Put(ctx, "big", "txt", make([]byte, 251)); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("oversized put: %v", err)
	}
	if !exists(names[1]) || !exists(names[2]) {
		t.Fatal("an oversized put evicted files")
	}
	if files, total, _ := s.Usage(); total != 200 || files != 2 {
		t.Fatalf("usage %d files %d bytes, want 2 and 200", files, total)
	}
}

func TestMaxFileBytes(t *testing.T) {
	s := newStore(t, Config{MaxFileBytes: 10})
	ctx := context.Background()
	if _, err := s.Put(ctx, "x", "txt", make([]byte, 11)); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("err %v", err)
	}
	if _, err := s.Put(ctx, "x", "txt", make([]byte, 10)); err != nil {
		t.Fatal(err)
	}
}

// TestDeadWriterTempRemovedBySweep: a temporary file nobody holds (its writer
// died) is removed by the janitor's sweep and counted; it is never listed or
// served (blob's TestDirKilledWriter kills a real writer mid-write).
func TestDeadWriterTempRemovedBySweep(t *testing.T) {
	s := newStore(t, Config{})
	ctx := context.Background()
	tmp := filepath.Join(s.Dir(), ".blob", "tmp", "0123456789ab")
	if err := os.WriteFile(tmp, []byte("half a fi"), 0o640); err != nil {
		t.Fatal(err)
	}
	if list, _ := s.List(ctx); len(list) != 0 {
		t.Fatalf("temp file listed: %v", list)
	}
	if err := s.Sweep(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(tmp); !os.IsNotExist(err) {
		t.Fatal("orphaned temporary file not removed")
	}
	if n := s.TempFilesRemoved(); n != 1 {
		t.Fatalf("TempFilesRemoved = %d, want 1", n)
	}
}

func TestCorruptedFileNotServed(t *testing.T) {
	s := newStore(t, Config{})
	ctx := context.Background()
	e, _ := s.Put(ctx, "doc", "txt", []byte("original"))
	if err := os.WriteFile(filepath.Join(s.Dir(), e.Name), []byte("tampered"), 0o640); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.ReadFile(ctx, e.Name); !errors.Is(err, ErrNotFound) {
		t.Fatalf("tampered file served: %v", err)
	}
	if _, _, err := s.Reader(ctx, e.Name); !errors.Is(err, ErrNotFound) {
		t.Fatalf("tampered file streamed: %v", err)
	}
	// Storing the genuine bytes again repairs it.
	if _, err := s.Put(ctx, "doc", "txt", []byte("original")); err != nil {
		t.Fatal(err)
	}
	if got, _, err := s.ReadFile(ctx, e.Name); err != nil || string(got) != "original" {
		t.Fatalf("after the repair: %q %v", got, err)
	}
}

// TestSymlinkedDirectoryNotFollowed: when the downloads directory inside the
// store is a symbolic link (planted, or left by hand), nothing under it is
// listed or served, even a file whose content hashes to its name.
func TestSymlinkedDirectoryNotFollowed(t *testing.T) {
	base := t.TempDir()
	elsewhere := filepath.Join(base, "elsewhere")
	if err := os.Mkdir(elsewhere, 0o750); err != nil {
		t.Fatal(err)
	}
	data := []byte("planted")
	name := FileName(data, "planted", "txt")
	if err := os.WriteFile(filepath.Join(elsewhere, name), data, 0o640); err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(base, "store")
	b, err := blob.OpenDir(root)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(elsewhere, filepath.Join(root, "downloads")); err != nil {
		t.Fatal(err)
	}
	s := New(b, Config{Prefix: Prefix})
	ctx := context.Background()
	if _, _, err := s.ReadFile(ctx, name); !errors.Is(err, ErrNotFound) {
		t.Errorf("read through a symlinked directory: %v", err)
	}
	if list, err := s.List(ctx); err != nil || len(list) != 0 {
		t.Errorf("list through a symlinked directory: %v %v", list, err)
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
	s := newStore(t, Config{MaxBytes: 5000})
	ctx := context.Background()
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			for j := 0; j < 10; j++ {
				data := []byte(fmt.Sprintf("%02d-%02d-%s", i, j, strings.Repeat("x", 100)))
				e, err := s.Put(ctx, "c", "txt", data)
				if err != nil {
					t.Error(err)
					return
				}
				if got, _, err := s.ReadFile(ctx, e.Name); err == nil && string(got) != string(data) {
					t.Errorf("read back %q", got)
				}
			}
		}(i)
	}
	wg.Wait()
	if err := s.Sweep(ctx); err != nil {
		t.Fatal(err)
	}
	if _, total, _ := s.Usage(); total > 5000 {
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
				if _, err := s.Put(context.Background(), "bench", "txt", data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
