package toggles

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/precisiond/precisiond/internal/blob"
)

// Open applies the toggle state in the shared store to reg and returns it.
// A corrupt state is an error (a start-up error: the message says how to
// fix it); a store that does not answer is not: every tool stays enabled
// until the state can be read (Watch applies it; Loaded reports false
// meanwhile). Names of tools reg does not have are logged and kept.
func Open(ctx context.Context, shared blob.Store, reg Registry, log *slog.Logger) (*Store, error) {
	tg := New(shared, reg)
	unknown, err := tg.Load(ctx)
	switch {
	case errors.Is(err, blob.ErrUnavailable):
		log.Warn("toggle state unknown: the store is not answering; every tool stays enabled until it answers", "where", tg.Where(), "err", err.Error())
	case err != nil:
		return nil, fmt.Errorf("%w (fix or remove it; it must be {\"disabled\":[tool names]})", err)
	case len(unknown) > 0:
		log.Warn("toggle state names tools this build does not have; ignored", "where", tg.Where(), "unknown", unknown)
	}
	return tg, nil
}
