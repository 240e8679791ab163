package toggles

import (
	"context"
	"errors"
	"log/slog"

	"github.com/precisiond/precisiond/internal/blob"
)

// Open applies the toggle state in the shared store to reg and returns it.
// Neither a corrupt state nor a store that does not answer stops the start
// (in a container a start-up error is a restart loop, and the same
// corruption at run time is tolerated): every tool stays enabled until the
// state can be read (Watch applies it; Loaded reports false meanwhile), a
// corrupt one is logged as an error saying how to fix it and reported by
// Problem. Names of tools reg does not have are logged and kept. The error
// result is kept for callers; it is always nil.
func Open(ctx context.Context, shared blob.Store, reg Registry, log *slog.Logger) (*Store, error) {
	tg := New(shared, reg)
	unknown, err := tg.Load(ctx)
	switch {
	case errors.Is(err, blob.ErrUnavailable):
		log.Warn("toggle state unknown: the store is not answering; every tool stays enabled until it answers", "where", tg.Where(), "err", err.Error())
	case err != nil:
		log.Error("toggle state unreadable: every tool stays enabled until it is fixed (it must be {\"disabled\":[tool names]}; fix or remove it)", "where", tg.Where(), "err", err.Error())
	case len(unknown) > 0:
		log.Warn("toggle state names tools this build does not have; ignored", "where", tg.Where(), "unknown", unknown)
	}
	return tg, nil
}
