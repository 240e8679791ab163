package blob

import (
	"fmt"
	"log/slog"
)

// LogHealth is a MonitorOptions.OnChange that logs the health changes of
// the store at location: a store that answers from the first check says
// nothing (precisiond call prints nothing but its answer); later it logs
// when the store goes down and when it answers again. The monitor
// serializes the calls.
func LogHealth(log *slog.Logger, location string) func(Health) {
	first := true
	return func(h Health) {
		wasFirst := first
		first = false
		switch {
		case h.OK && wasFirst:
		case h.OK:
			log.Info("store answers", "store", location)
		default:
			log.Warn("store unavailable: generate_file, downloads, toggles and plans not in the local cache answer store_unavailable until it answers again",
				"store", location, "reason", h.Reason, "err", fmt.Sprint(h.Err))
		}
	}
}
