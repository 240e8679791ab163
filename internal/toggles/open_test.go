package toggles

import (
	"log/slog"
	"strings"
	"testing"

	"github.com/precisiond/precisiond/internal/testhttp"
)

// TestOpen: a missing state enables everything, unknown names are logged
// and kept, a corrupt state is an error that says how to fix it.
func TestOpen(t *testing.T) {
	b := dirBackend(t)
	logs := &testhttp.SyncBuffer{}
	log := slog.New(slog.NewTextHandler(logs, nil))
	reg := newReg(t)
	if tg, err := Open(ctxT(t), b.open(), reg, log); err != nil || !tg.Loaded() || len(reg.Disabled()) != 0 {
		t.Fatalf("missing state: %v", err)
	}
	b.put([]byte(`{"disabled":["gcd_lcm","no_such_tool"]}`))
	if _, err := Open(ctxT(t), b.open(), reg, log); err != nil {
		t.Fatal(err)
	}
	if got := reg.Disabled(); len(got) != 1 || got[0] != "gcd_lcm" {
		t.Errorf("disabled: got %v", got)
	}
	if !strings.Contains(logs.String(), "toggle state names tools this build does not have") || !strings.Contains(logs.String(), "no_such_tool") {
		t.Errorf("log: %s", logs)
	}
	b.put([]byte(`garbage`))
	if _, err := Open(ctxT(t), b.open(), reg, log); err == nil || !strings.Contains(err.Error(), `it must be {"disabled":[tool names]}`) {
		t.Errorf("corrupt state: %v", err)
	}
}
