package plandb

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/precisiond/precisiond/plans"
	"github.com/precisiond/precisiond/plans/storetest"
)

func open(t *testing.T, dir string, maxBytes int64) *DB {
	t.Helper()
	d, err := Open(dir, maxBytes)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

func TestBasics(t *testing.T) { storetest.Basics(t, open(t, t.TempDir(), 0)) }

func TestEviction(t *testing.T) {
	const capBytes = 10 * (1000 + plans.EntryOverhead)
	d := open(t, t.TempDir(), capBytes)
	storetest.Eviction(t, d, capBytes, func() int64 {
		b, _, err := d.Usage(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return b
	})
}

// TestSurvivesReopen: plans and their use order are in the file, not in the
// process: a second Open of the same directory finds them.
func TestSurvivesReopen(t *testing.T) {
	dir := t.TempDir()
	d, err := Open(dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	id, plan := storetest.Plan(1, 500)
	if err := d.Put(context.Background(), id, plan); err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	d2 := open(t, dir, 0)
	got, err := d2.Get(context.Background(), id)
	if err != nil || string(got) != string(plan) {
		t.Fatalf("after reopen: %q, %v", got, err)
	}
}

// TestTwoHandlesOneFile: two handles on one file (serve and mcp sharing a
// data directory) write concurrently without errors, and each sees the
// other's plans.
func TestTwoHandlesOneFile(t *testing.T) {
	dir := t.TempDir()
	a, b := open(t, dir, 0), open(t, dir, 0)
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := a
			if i%2 == 1 {
				s = b
			}
			id, plan := storetest.Plan(i, 300)
			if err := s.Put(context.Background(), id, plan); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for i := range 50 {
		id, _ := storetest.Plan(i, 300)
		for _, s := range []*DB{a, b} {
			if _, err := s.Get(context.Background(), id); err != nil {
				t.Errorf("plan %d: %v", i, err)
			}
		}
	}
}

// TestForeignFileRefused: a plans.db that is not a SQLite database, or one
// whose plans table has other columns, is a start-up error naming the file.
func TestForeignFileRefused(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte("not a database, just text of some length to read"), 0o644); err != nil {
		t.Fatal(err)
	}
	if d, err := Open(dir, 0); err == nil {
		d.Close()
		t.Fatal("a text file opened as a plan store")
	}
	other := t.TempDir()
	d := open(t, other, 0)
	db, err := d.handle(true)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`DROP TABLE plans; CREATE TABLE plans (name TEXT)`); err != nil {
		t.Fatal(err)
	}
	d.Close()
	if d2, err := Open(other, 0); err == nil {
		d2.Close()
		t.Fatal("a foreign plans table was accepted")
	}
}

// TestNoFileUntilFirstPut: opening, reading and measuring an empty store
// create nothing; the first Put creates the file.
func TestNoFileUntilFirstPut(t *testing.T) {
	dir := t.TempDir()
	d, early := open(t, dir, 0), open(t, dir, 0)
	id, plan := storetest.Plan(1, 100)
	if _, err := d.Get(context.Background(), id); !errors.Is(err, plans.ErrNotFound) {
		t.Fatal(err)
	}
	if b, n, err := d.Usage(context.Background()); b != 0 || n != 0 || err != nil {
		t.Fatal(b, n, err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("an unused store wrote %v", entries)
	}
	if err := d.Put(context.Background(), id, plan); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, FileName)); err != nil {
		t.Fatal(err)
	}
	// A second handle opened before the file existed finds it.
	if _, err := early.Get(context.Background(), id); err != nil {
		t.Fatal(err)
	}
}

func TestNotFound(t *testing.T) {
	_, err := open(t, t.TempDir(), 0).Get(context.Background(), "0000")
	if !errors.Is(err, plans.ErrNotFound) {
		t.Fatalf("%v", err)
	}
}
