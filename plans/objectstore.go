package plans

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/precisiond/precisiond/internal/blob"
	"github.com/precisiond/precisiond/tools"
)

// ObjectPrefix is the key prefix of plans in an object store: the plan with
// id H is the object "plans/H.json".
const ObjectPrefix = "plans/"

// maxPlanObject bounds what Get reads (plans are canonical JSON bounded by the
// request body limit).
const maxPlanObject = 16 << 20

// ObjectStore is a Store in the object store the replicas of a fleet share
// (internal/blob): each plan is an immutable object created only if absent
// (If-None-Match), so a plan registered on one replica replays on every
// other. It keeps every plan (no cap: a bucket lifecycle rule on the prefix
// may expire old ones; a rerun then answers unknown_plan). Put it behind a
// local cache with ReadThrough.
//
// Errors: a store that does not answer or refuses is store_unavailable
// (*tools.Error, reason not_answering or refused).
type ObjectStore struct {
	Store blob.Store
}

var _ Store = ObjectStore{}

func planKey(id string) string { return ObjectPrefix + id + ".json" }

// Put implements Store: create the object; if it exists with other bytes (a
// corrupted entry: ids are content hashes), replace it.
func (o ObjectStore) Put(ctx context.Context, id string, plan []byte) error {
	if !hashPattern.MatchString(id) {
		return fmt.Errorf("plan id %q is not a content hash", clip(id))
	}
	_, err := o.Store.Put(ctx, planKey(id), plan, blob.PutOptions{IfNoneMatch: true})
	if !errors.Is(err, blob.ErrPreconditionFailed) {
		return objectError(err)
	}
	cur, err := o.Get(ctx, id)
	if err == nil && bytes.Equal(cur, plan) {
		return nil
	}
	if err != nil && !errors.Is(err, ErrNotFound) {
		return err
	}
	_, err = o.Store.Put(ctx, planKey(id), plan, blob.PutOptions{})
	return objectError(err)
}

// Get implements Store.
func (o ObjectStore) Get(ctx context.Context, id string) ([]byte, error) {
	if !hashPattern.MatchString(id) {
		return nil, ErrNotFound
	}
	obj, err := o.Store.Get(ctx, planKey(id), blob.GetOptions{})
	if errors.Is(err, blob.ErrNotFound) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, objectError(err)
	}
	defer obj.Close()
	b, err := io.ReadAll(io.LimitReader(obj, maxPlanObject+1))
	if err != nil {
		return nil, objectError(err)
	}
	if len(b) > maxPlanObject {
		return nil, fmt.Errorf("plan object %s is larger than %d bytes", planKey(id), maxPlanObject)
	}
	return b, nil
}

// objectError maps a store failure to store_unavailable.
func objectError(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, blob.ErrUnavailable):
		return tools.StoreUnavailable(tools.ReasonStoreNotAnswering, "the store holding the plans is not answering; try again shortly")
	}
	var be *blob.Error
	if errors.As(err, &be) {
		return tools.StoreUnavailable(tools.ReasonStoreRefused, "the store holding the plans refused the request")
	}
	return err
}
