// Package plandb keeps registered plans in an embedded SQLite database in the
// data directory (modernc.org/sqlite, pure Go): a plans.Store that survives
// restarts, with a size cap in bytes and least-recently-used eviction.
//
// One table holds (id, plan, bytes, used): the plan's canonical JSON under
// its plan_id, its size as counted against the cap (plan bytes plus
// plans.EntryOverhead) and a use counter, a logical clock bumped by every
// Put and Get, so eviction order does not depend on the wall clock. Several
// processes may open the same file (serve and mcp on one data directory):
// SQLite serialises their writes, and the cap is enforced inside each
// writing transaction from the table itself.
package plandb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sync"

	_ "modernc.org/sqlite" // registers the "sqlite" driver

	"github.com/precisiond/precisiond/plans"
)

// FileName is the database's name inside the data directory.
const FileName = "plans.db"

// DB is a plans.Store in one SQLite file.
type DB struct {
	path     string
	maxBytes int64

	mu sync.Mutex
	db *sql.DB // nil until the file exists
}

var _ plans.Store = (*DB)(nil)

// Open returns the store in dir/plans.db with a cap of maxBytes
// (plans.DefaultStoreBytes when <= 0). An existing file is opened and
// checked now: one that is not a plan database is an error, as the service
// must not start on a store it cannot read. A missing file is created by the
// first Put.
func Open(dir string, maxBytes int64) (*DB, error) {
	if maxBytes <= 0 {
		maxBytes = plans.DefaultStoreBytes
	}
	d := &DB{path: filepath.Join(dir, FileName), maxBytes: maxBytes}
	if _, err := os.Stat(d.path); err == nil {
		if _, err := d.handle(false); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// handle returns the open database; with create false it returns nil (and
// no error) while the file does not exist.
func (d *DB) handle(create bool) (*sql.DB, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.db != nil {
		return d.db, nil
	}
	if !create {
		if _, err := os.Stat(d.path); errors.Is(err, os.ErrNotExist) {
			return nil, nil
		}
	}
	if err := os.MkdirAll(filepath.Dir(d.path), 0o755); err != nil {
		return nil, fmt.Errorf("plan store: %w", err)
	}
	q := url.Values{}
	for _, p := range []string{"busy_timeout(10000)", "journal_mode(WAL)", "synchronous(NORMAL)", "auto_vacuum(INCREMENTAL)"} {
		q.Add("_pragma", p)
	}
	q.Set("_txlock", "immediate") // writers take the lock up front: no upgrade deadlocks between processes
	db, err := sql.Open("sqlite", "file:"+d.path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("plan store %s: %w", d.path, err)
	}
	if err := initSchema(db); err != nil {
		db.Close()
		return nil, fmt.Errorf("plan store %s: %w (move the file away to start with an empty store)", d.path, err)
	}
	d.db = db
	return db, nil
}

func initSchema(db *sql.DB) error {
	_, err := db.Exec(`CREATE TABLE IF NOT EXISTS plans (
		id    TEXT PRIMARY KEY,
		plan  BLOB NOT NULL,
		bytes INTEGER NOT NULL,
		used  INTEGER NOT NULL
	) WITHOUT ROWID;
	CREATE INDEX IF NOT EXISTS plans_used ON plans(used);`)
	if err != nil {
		return err
	}
	// The columns this code reads must be there (a foreign file named plans.db
	// with another "plans" table is refused).
	_, err = db.Exec(`SELECT id, plan, bytes, used FROM plans LIMIT 0`)
	return err
}

// Path is the database file.
func (d *DB) Path() string { return d.path }

// Close closes the database.
func (d *DB) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.db == nil {
		return nil
	}
	err := d.db.Close()
	d.db = nil
	return err
}

// Put implements plans.Store: it inserts the plan (or, for an id already
// there, replaces bytes that differ and marks it used), then evicts the
// least recently used plans until the total is within the cap, all in one
// transaction. A plan larger than the whole cap is not kept.
func (d *DB) Put(ctx context.Context, id string, plan []byte) error {
	size := int64(len(plan)) + plans.EntryOverhead
	if size > d.maxBytes {
		return nil
	}
	db, err := d.handle(true)
	if err != nil {
		return err
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `INSERT INTO plans (id, plan, bytes, used)
		VALUES (?1, ?2, ?3, (SELECT COALESCE(MAX(used), 0) + 1 FROM plans))
		ON CONFLICT(id) DO UPDATE SET plan = excluded.plan, bytes = excluded.bytes, used = excluded.used`, id, plan, size); err != nil {
		return err
	}
	var total int64
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE(SUM(bytes), 0) FROM plans`).Scan(&total); err != nil {
		return err
	}
	evicted := false
	for total > d.maxBytes {
		var victim string
		var n int64
		err := tx.QueryRowContext(ctx, `SELECT id, bytes FROM plans WHERE id != ?1 ORDER BY used LIMIT 1`, id).Scan(&victim, &n)
		if errors.Is(err, sql.ErrNoRows) {
			break
		}
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM plans WHERE id = ?1`, victim); err != nil {
			return err
		}
		total -= n
		evicted = true
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	if evicted {
		// Give the freed pages back to the file system (auto_vacuum is
		// incremental), so the file stays near the cap.
		_, _ = db.ExecContext(ctx, `PRAGMA incremental_vacuum`)
	}
	return nil
}

// Get implements plans.Store; a hit marks the plan used.
func (d *DB) Get(ctx context.Context, id string) ([]byte, error) {
	db, err := d.handle(false)
	if err != nil {
		return nil, err
	}
	if db == nil {
		return nil, fmt.Errorf("%w: %s", plans.ErrNotFound, id)
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	var plan []byte
	err = tx.QueryRowContext(ctx, `UPDATE plans SET used = (SELECT MAX(used) + 1 FROM plans) WHERE id = ?1 RETURNING plan`, id).Scan(&plan)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("%w: %s", plans.ErrNotFound, id)
	}
	if err != nil {
		return nil, err
	}
	return plan, tx.Commit()
}

// Usage reports the bytes counted against the cap and the number of plans.
func (d *DB) Usage(ctx context.Context) (bytes int64, count int64, err error) {
	db, err := d.handle(false)
	if err != nil || db == nil {
		return 0, 0, err
	}
	err = db.QueryRowContext(ctx, `SELECT COALESCE(SUM(bytes), 0), COUNT(*) FROM plans`).Scan(&bytes, &count)
	return bytes, count, err
}
