package toggles

import (
	"log/slog"
	"strings"
	"testing"

	"github.com/precisiond/precisiond/internal/testhttp"
)

// TestOpen: a missing state enables everything, unknown names are logged
// and kept, a corrupt state is logged with how to fix it and reported by
// Problem, and does not stop the start: every tool stays enabled.
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
	reg2 := newReg(t)
	tg, err := Open(ctxT(t), b.open(), reg2, log)
	if err != nil || tg.Loaded() || len(reg2.Disabled()) != 0 || tg.Problem() == "" {
		t.Fatalf("corrupt state: %v, loaded %v, disabled %v, problem %q", err, tg.Loaded(), reg2.Disabled(), tg.Problem())
	}
	if !strings.Contains(logs.String(), `it must be {\"disabled\":[tool names]}`) {
		t.Errorf("log of a corrupt state: %s", logs)
	}
	b.put([]byte(`{"disabled":["gcd_lcm"]}`))
	if _, _, err := tg.Reload(ctxT(t)); err != nil || tg.Problem() != "" || !tg.Loaded() {
		t.Fatalf("fixed state: %v, problem %q", err, tg.Problem())
	}
}
