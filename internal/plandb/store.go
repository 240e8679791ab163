package plandb

import (
	"github.com/precisiond/precisiond/internal/blob"
	"github.com/precisiond/precisiond/plans"
)

// OpenStore is where plans persist: plans.db in dataDir (bounded by
// maxBytes), or memory without a data directory. backing, when not nil,
// opens the shared store when that is not the data directory itself (a
// fleet): plans are then objects in it (plans/<plan_id>.json) and the local
// store is their read-through cache, so that a plan registered on one
// replica replays on every other; a nil store from it means none. The
// returned function closes the local database.
func OpenStore(dataDir string, maxBytes int64, backing func() (blob.Store, error)) (plans.Store, func() error, error) {
	var local plans.Store
	closeStore := func() error { return nil }
	if dataDir == "" {
		local = plans.NewMemoryStore(maxBytes)
	} else {
		db, err := Open(dataDir, maxBytes)
		if err != nil {
			return nil, nil, err
		}
		local, closeStore = db, db.Close
	}
	if backing == nil {
		return local, closeStore, nil
	}
	shared, err := backing()
	if err != nil {
		_ = closeStore()
		return nil, nil, err
	}
	if shared == nil {
		return local, closeStore, nil
	}
	return plans.ReadThrough{Cache: local, Backing: plans.ObjectStore{Store: shared}}, closeStore, nil
}
