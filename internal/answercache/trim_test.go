package answercache

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/precisiond/precisiond/internal/testhttp"
)

// TestKeepTrimmed: the first pass runs at once (the tier's bytes are known
// from the start and within the budget), is logged at debug, and the loop
// ends with its context.
func TestKeepTrimmed(t *testing.T) {
	_, store := dirStore(t)
	const budget = 8 << 10
	a := newReplica(t, newRing(t), 1<<20, store, budget)
	for i := range 20 {
		a.call(t, "prime_factorize", fmt.Sprintf(`{"n":"%d"}`, 1000003+2*i))
	}
	logs := &testhttp.SyncBuffer{}
	log := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // the first pass still runs; the loop then ends
	a.c.KeepTrimmed(ctx, time.Hour, log)
	st, _ := a.c.StoreStats()
	if st.Bytes > budget || st.Bytes <= 0 {
		t.Errorf("after the first pass the tier holds %d bytes, budget %d", st.Bytes, budget)
	}
	if !strings.Contains(logs.String(), "answer cache: store tier trimmed") {
		t.Errorf("log: %s", logs)
	}
}
