package tools

import (
	"context"
	"math"
	"testing"
	"time"
)

type progressRecord struct {
	done, total float64
	msg         string
}

// TestProgressThrottle drives the hook with a fake clock: reports closer
// than ProgressInterval, non-advancing and non-finite ones are dropped.
func TestProgressThrottle(t *testing.T) {
	var got []progressRecord
	ctx := WithProgress(context.Background(), func(d, tot float64, m string) { got = append(got, progressRecord{d, tot, m}) })
	h := ctx.Value(progressKey{}).(*progressHook)
	now := time.Unix(1000, 0)
	h.now = func() time.Time { return now }
	step := func(d time.Duration, done, total float64) {
		now = now.Add(d)
		ReportProgress(ctx, done, total, "m")
	}
	step(0, 0, 10)                                 // first: passed on
	step(ProgressInterval-time.Millisecond, 1, 10) // too soon
	step(time.Millisecond, 2, 10)                  // 250 ms after the first
	step(ProgressInterval, 2, 10)                  // does not advance
	step(ProgressInterval, 1, 10)                  // goes back
	step(ProgressInterval, math.NaN(), 10)         // not finite
	step(ProgressInterval, 3, math.Inf(1))         // not finite
	step(ProgressInterval, -1, 10)                 // negative
	step(ProgressInterval, 50, 10)                 // clamped to total
	want := []progressRecord{{0, 10, "m"}, {2, 10, "m"}, {10, 10, "m"}}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("report %d: got %v, want %v", i, got[i], want[i])
		}
	}
}

func TestProgressAbsentAndRemoved(t *testing.T) {
	ReportProgress(context.Background(), 1, 2, "nobody listens") // must not panic
	if HasProgress(context.Background()) || HasProgress(WithProgress(context.Background(), nil)) {
		t.Fatal("HasProgress without a hook")
	}
	called := false
	ctx := WithProgress(context.Background(), func(float64, float64, string) { called = true })
	if !HasProgress(ctx) {
		t.Fatal("HasProgress with a hook")
	}
	inner := WithoutProgress(ctx)
	if HasProgress(inner) {
		t.Fatal("WithoutProgress kept the hook")
	}
	ReportProgress(inner, 1, 2, "")
	if called {
		t.Fatal("a report under WithoutProgress reached the hook")
	}
}

// TestToolsReportProgress runs the tools that report progress through the
// registry with a hook and checks that reports arrive, within their total.
func TestToolsReportProgress(t *testing.T) {
	reg := NewRegistry(Builtin(Deps{}), Options{DefaultTimeout: time.Minute})
	cases := []struct{ tool, args string }{
		// 1099511627791 × 2199023255579, the primes after 2^40 and 2^41
		// (Python, Miller–Rabin): Pollard–Brent work that is reported.
		{"prime_factorize", `{"n": "2417851639291930512195989"}`},
		{"regex_extract", `{"pattern": "a", "text": "` + repeatString("b", 200000) + `a"}`},
	}
	for _, tc := range cases {
		t.Run(tc.tool, func(t *testing.T) {
			var got []progressRecord
			ctx := WithProgress(context.Background(), func(d, tot float64, m string) { got = append(got, progressRecord{d, tot, m}) })
			if _, err := reg.Call(ctx, tc.tool, []byte(tc.args), ""); err != nil {
				t.Fatal(err)
			}
			if len(got) == 0 {
				t.Fatal("no progress reported")
			}
			for _, g := range got {
				if g.total > 0 && g.done > g.total {
					t.Fatalf("progress %v beyond its total", g)
				}
			}
		})
	}
}

func repeatString(s string, n int) string {
	b := make([]byte, 0, len(s)*n)
	for range n {
		b = append(b, s...)
	}
	return string(b)
}
