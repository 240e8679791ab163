package tools

import "github.com/precisiond/precisiond/internal/blob"

// StoreGuard is a registry write guard (Options.WriteGuard) over a store
// monitor: while the monitor has the store down, a tool that writes into it
// (generate_file) answers store_unavailable before it does any work, where
// an isolated call would otherwise render in a worker and then wait on the
// store until its deadline. Nil without a monitor.
func StoreGuard(mon *blob.Monitor) func() error {
	if mon == nil {
		return nil
	}
	return func() error {
		h := mon.Health()
		if h.OK {
			return nil
		}
		reason := ReasonStoreNotAnswering
		if h.Reason == "store_error" {
			reason = ReasonStoreRefused
		}
		return StoreUnavailable(reason, "the download store is unavailable (%s); try again shortly", h.Reason)
	}
}
