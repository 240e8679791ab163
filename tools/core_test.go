package tools

import (
	"context"
	"errors"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/precisiond/precisiond/contracts"
)

// FuzzRomanNumeral: any string either parses to a numeral whose rendering reads
// back to the same value, or is refused with a typed error.
func FuzzRomanNumeral(f *testing.F) {
	for _, s := range []string{"MCMXCIV", "iiii", "", "MMMCMXCIX", "4000", "-1", "IΙ", "mmxxvi"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, ok := fromRoman(s)
		if !ok {
			return
		}
		if n < 1 || n > 3999 || !strings.EqualFold(toRoman(n), s) {
			t.Fatalf("fromRoman(%q) = %d, renders %s", s, n, toRoman(n))
		}
	})
}

func BenchmarkHashText(b *testing.B) {
	reg := NewRegistry([]Tool{hashText()}, Options{DefaultTimeout: goldenDeadline})
	for _, size := range []int{16, 1 << 20} {
		args := map[string]any{"text": strings.Repeat("a", size), "algorithm": "sha256"}
		b.Run(itoa(size), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := reg.Invoke(context.Background(), Request{Tool: "hash_text", Args: args}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkGCDLCM(b *testing.B) {
	reg := NewRegistry([]Tool{gcdLCM()}, Options{DefaultTimeout: goldenDeadline})
	args := map[string]any{"a": jsonNum("391"), "b": jsonNum("299")}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := reg.Invoke(context.Background(), Request{Tool: "gcd_lcm", Args: args}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestToggleIsAtomic: concurrent toggles all take effect (an even number
// leaves the state as it was, an odd number flips it), and each reports a
// distinct transition.
func TestToggleIsAtomic(t *testing.T) {
	reg := NewRegistry([]Tool{gcdLCM(), hashText()}, Options{DefaultTimeout: goldenDeadline})
	var changes atomic.Int64
	reg.OnChange(func() { changes.Add(1) }) // once per change, outside the lock
	for _, n := range []int{64, 65} {
		before := reg.Enabled("gcd_lcm")
		var wg sync.WaitGroup
		var disabledSeen atomic.Int64
		for range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if prev, ok := reg.Toggle("gcd_lcm"); ok && prev {
					disabledSeen.Add(1)
				}
			}()
		}
		wg.Wait()
		if got, want := reg.Enabled("gcd_lcm"), before == (n%2 == 0); got != want {
			t.Errorf("after %d toggles enabled = %v, want %v", n, got, want)
		}
		// Every toggle from enabled is one disable: half of them, rounded
		// towards the starting state.
		want := int64(n / 2)
		if before && n%2 == 1 {
			want++
		}
		if disabledSeen.Load() != want {
			t.Errorf("%d toggles: %d saw the tool enabled, want %d", n, disabledSeen.Load(), want)
		}
	}
	if changes.Load() != 64+65 {
		t.Errorf("%d change notifications for %d toggles", changes.Load(), 64+65)
	}
	if !reg.Enabled("hash_text") {
		t.Error("toggling gcd_lcm changed hash_text")
	}
	if _, ok := reg.Toggle("nope"); ok {
		t.Error("Toggle of an unknown tool reported ok")
	}
}

// stuckContract describes a test tool that ignores its context until told to
// stop, the worst case the call path must survive.
const stuckContract = `{
 "tool": "stuck", "contract_version": "1.0.0", "title": "Stuck", "description": "Blocks until released; for tests only.",
 "determinism": "input_only", "source_policy": {"kind": "test", "name": "test"}, "access_kind": "read",
 "inputSchema": {"type": "object", "additionalProperties": false, "properties": {"id": {"type": "integer", "description": "d"}}},
 "outputSchema": {"type": "object", "additionalProperties": false, "required": ["ok"], "properties": {"ok": {"type": "boolean", "description": "d"}}},
 "examples": [{"title": "a", "args": {}, "facts": {"ok": true}}, {"title": "b", "args": {"id": 1}, "facts": {"ok": true}}]
}`

type stuckTool struct {
	c       *contracts.Contract
	entered chan struct{} // receives once per execution that started
	release chan struct{} // closed to let every execution return
}

func (s *stuckTool) tool() Tool { return Tool{Contract: s.c, Execute: s.Execute} }

func (s *stuckTool) Execute(ctx context.Context, args map[string]any) (Output, error) {
	s.entered <- struct{}{}
	<-s.release // the context is ignored on purpose
	return Output{Facts: map[string]any{"ok": true}, Text: "ok", Warnings: []Warning{}}, nil
}

// TestAbandonedExecutionKeepsItsSlot: a call that times out while its tool
// keeps running answers timeout at once, but the execution keeps its slot until
// the tool returns: the gauges show no call waiting and one execution running,
// a new call is refused with overloaded instead of starting on top, and the
// slot is free again once the tool has stopped.
func TestAbandonedExecutionKeepsItsSlot(t *testing.T) {
	c, err := contracts.Parse([]byte(stuckContract))
	if err != nil {
		t.Fatal(err)
	}
	tool := &stuckTool{c: c, entered: make(chan struct{}, 4), release: make(chan struct{})}
	lim := NewLimiter(1, 20*time.Millisecond, nil)
	reg := NewRegistry([]Tool{tool.tool(), gcdLCM()}, Options{Limiter: lim, DefaultTimeout: time.Minute})

	// The stuck call's caller gives up once the execution has started (a
	// cancelled context, as a passed deadline would end it, but never before
	// the tool runs however slow the machine is); the tool goes on.
	ctx, cancel := context.WithCancel(context.Background())
	entered := make(chan struct{})
	go func() { <-tool.entered; close(entered); cancel() }()

	_, err = reg.Call(ctx, "stuck", nil, "")
	if Outcome(err) != CodeTimeout {
		t.Fatalf("stuck call: %v, want timeout", err)
	}
	<-entered
	if reg.InFlight() != 0 || reg.Running() != 1 || lim.InFlight() != 1 {
		t.Fatalf("after the timeout: in flight %d, running %d, slots held %d; want 0, 1, 1", reg.InFlight(), reg.Running(), lim.InFlight())
	}
	for range 3 {
		if _, err := reg.Call(context.Background(), "gcd_lcm", []byte(`{"a":4,"b":6}`), ""); Outcome(err) != CodeOverloaded {
			t.Fatalf("a call while the abandoned execution holds the slot: %v, want overloaded", err)
		}
	}
	select {
	case <-tool.entered:
		t.Fatal("a second execution started on top of the abandoned one")
	default:
	}
	close(tool.release)
	for reg.Running() != 0 || lim.InFlight() != 0 {
		runtime.Gosched()
	}
	resp, err := reg.Call(context.Background(), "gcd_lcm", []byte(`{"a":4,"b":6}`), "")
	if err != nil || resp.Envelope.Facts()["gcd"] == nil {
		t.Fatalf("after the tool stopped: %v", err)
	}
	if reg.PeakRunning() != 1 {
		t.Errorf("peak %d executions, want 1", reg.PeakRunning())
	}
}

// TestArgumentsParsedOnlyInASlot: while every slot is held, a call with
// arguments that are not even JSON is refused with overloaded: its arguments
// are parsed and validated only once it has a slot.
func TestArgumentsParsedOnlyInASlot(t *testing.T) {
	c, err := contracts.Parse([]byte(stuckContract))
	if err != nil {
		t.Fatal(err)
	}
	tool := &stuckTool{c: c, entered: make(chan struct{}, 1), release: make(chan struct{})}
	reg := NewRegistry([]Tool{tool.tool(), gcdLCM()}, Options{Limiter: NewLimiter(1, 10*time.Millisecond, nil), DefaultTimeout: time.Minute})
	done := make(chan error, 1)
	go func() { _, err := reg.Call(context.Background(), "stuck", nil, ""); done <- err }()
	<-tool.entered
	if _, err := reg.Call(context.Background(), "gcd_lcm", []byte(`{"a": not json`), ""); Outcome(err) != CodeOverloaded {
		t.Errorf("got %v, want overloaded", err)
	}
	close(tool.release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if _, err := reg.Call(context.Background(), "gcd_lcm", []byte(`{"a": not json`), ""); Outcome(err) != CodeInvalidRequest {
		t.Errorf("with a free slot: %v, want invalid_request", err)
	}
}

// TestLongToolNameRefused: a tool name over MaxToolNameBytes is refused
// without being looked up, echoed or reported to the observer.
func TestLongToolNameRefused(t *testing.T) {
	var seen []string
	reg := NewRegistry([]Tool{gcdLCM()}, Options{Observer: func(tool, code string, _ time.Duration) { seen = append(seen, tool+"/"+code) }})
	name := strings.Repeat("x", MaxToolNameBytes+1)
	_, err := reg.Call(context.Background(), name, nil, "")
	var te *Error
	if !errors.As(err, &te) || te.Code != CodeInvalidRequest || strings.Contains(te.Message, name) {
		t.Fatalf("got %v", err)
	}
	_, err = reg.Call(context.Background(), "no_such_tool", nil, "")
	if Outcome(err) != CodeUnknownTool {
		t.Fatalf("unknown tool: %v", err)
	}
	if want := []string{"/" + CodeInvalidRequest, "/" + CodeUnknownTool}; !slices.Equal(seen, want) {
		t.Errorf("observed %q, want %q (names of no tool are not reported)", seen, want)
	}
}

// TestDeclaresFact: of the built-in tools exactly generate_file declares
// download_path (the surfaces read no other tool's facts for a file link),
// and the answer follows the contracts, not a list.
func TestDeclaresFact(t *testing.T) {
	reg := NewRegistry(Builtin(Deps{}), Options{})
	var with []string
	for _, name := range reg.Names() {
		if reg.DeclaresFact(name, "download_path") {
			with = append(with, name)
		}
		c, _, err := reg.Contract(name)
		if err != nil {
			t.Fatal(err)
		}
		for key := range c.OutputSchema["properties"].(map[string]any) {
			if !reg.DeclaresFact(name, key) {
				t.Errorf("%s: declares %s in its outputSchema, DeclaresFact says no", name, key)
			}
		}
		if reg.DeclaresFact(name, "no_such_fact") {
			t.Errorf("%s: DeclaresFact(no_such_fact)", name)
		}
	}
	if !slices.Equal(with, []string{"generate_file"}) {
		t.Errorf("tools declaring download_path: %v, want [generate_file]", with)
	}
	if reg.DeclaresFact("no_such_tool", "download_path") {
		t.Error("an unknown tool declares a fact")
	}
}
