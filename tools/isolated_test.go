package tools

import (
	"bytes"
	"context"
	"errors"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/precisiond/precisiond/contracts"
)

// recordingRunner stands in for a worker pool where only the routing is under
// test (the real pool is tested in internal/worker and cmd/precisiond). With
// tools set it runs the named tool's own Execute, as a worker does in its
// process; otherwise it answers a marker fact.
type recordingRunner struct {
	calls []string
	tools map[string]Tool
}

func (r *recordingRunner) Execute(ctx context.Context, tool string, args map[string]any) (Output, error) {
	r.calls = append(r.calls, tool)
	if t, ok := r.tools[tool]; ok {
		return t.Execute(ctx, args)
	}
	return Output{Facts: map[string]any{"ran": "runner"}}, nil
}

func TestIsolateByName(t *testing.T) {
	list := Builtin(Deps{})
	r := &recordingRunner{}
	out, unknown := IsolateByName(list, r, []string{"gcd_lcm", "structured_validate", "no_such_tool"})
	if !slices.Equal(unknown, []string{"no_such_tool"}) {
		t.Errorf("unknown %v", unknown)
	}
	if len(out) != len(list) {
		t.Fatalf("%d tools, want %d", len(out), len(list))
	}
	byName := map[string]Tool{}
	for i, tool := range out {
		if got, want := tool.Contract, list[i].Contract; got != want {
			t.Fatalf("order or contract changed at %d: %s vs %s", i, got.Tool, want.Tool)
		}
		byName[tool.Name()] = tool
	}
	ctx := context.Background()
	if _, err := byName["gcd_lcm"].Execute(ctx, map[string]any{"a": 4, "b": 6}); err != nil {
		t.Fatal(err)
	}
	// structured_validate's IsolateWhen: without a schema it stays in
	// process; with one it goes to the runner.
	noSchema := map[string]any{"format_name": "json", "payload": "[]", "schema_json": nil, "csv_dialect": nil}
	if out, err := byName["structured_validate"].Execute(ctx, noSchema); err != nil || out.Facts["ran"] != nil {
		t.Fatalf("no schema: %v %v", out.Facts, err)
	}
	withSchema := map[string]any{"format_name": "json", "payload": "[]", "schema_json": "{}", "csv_dialect": nil}
	if out, _ := byName["structured_validate"].Execute(ctx, withSchema); out.Facts["ran"] != "runner" {
		t.Fatalf("with a schema: %v", out.Facts)
	}
	if !slices.Equal(r.calls, []string{"gcd_lcm", "structured_validate"}) {
		t.Errorf("runner calls %v", r.calls)
	}
}

// funcPointer identifies a function value (nil for a nil function).
func funcPointer(f any) uintptr {
	v := reflect.ValueOf(f)
	if v.IsNil() {
		return 0
	}
	return v.Pointer()
}

// TestIsolatedKeepsEverythingButExecute: isolating a tool replaces its
// Execute and nothing else a tool declares — the contract, re-rendering,
// canonical spellings, argument hints and the isolation predicate reach every
// surface as they are, for every built-in tool (a wrapper that hid one of
// them would make `serve` hash or render a call differently from `call`).
func TestIsolatedKeepsEverythingButExecute(t *testing.T) {
	for _, tool := range Builtin(Deps{}) {
		iso := Isolated(tool, &recordingRunner{})
		if iso.Contract != tool.Contract {
			t.Errorf("%s: contract replaced", tool.Name())
		}
		for name, pair := range map[string][2]any{
			"Render":       {tool.Render, iso.Render},
			"Canonicalize": {tool.Canonicalize, iso.Canonicalize},
			"IsolateWhen":  {tool.IsolateWhen, iso.IsolateWhen},
		} {
			if funcPointer(pair[0]) != funcPointer(pair[1]) {
				t.Errorf("%s: %s changed by isolation", tool.Name(), name)
			}
		}
		if !reflect.DeepEqual(slices.Sorted(maps.Keys(tool.ArgHints)), slices.Sorted(maps.Keys(iso.ArgHints))) {
			t.Errorf("%s: ArgHints changed by isolation", tool.Name())
		}
		if tool.Render == nil {
			t.Errorf("%s: cannot re-render its result text", tool.Name())
		}
	}
}

// writerContract is a test tool that writes (access_kind "write") and
// rewrites its argument to one spelling before it runs.
const writerContract = `{
 "tool": "writer", "contract_version": "1.0.0", "title": "Writer", "description": "Writes a name; for tests only.",
 "determinism": "input_only", "source_policy": {"kind": "test", "name": "test"}, "access_kind": "write",
 "inputSchema": {"type": "object", "additionalProperties": false, "required": ["name"], "properties": {"name": {"type": "string", "description": "d"}}},
 "outputSchema": {"type": "object", "additionalProperties": false, "required": ["written"], "properties": {"written": {"type": "string", "description": "d"}}},
 "examples": [{"title": "a", "args": {"name": "A"}, "facts": {"written": "a"}}, {"title": "b", "args": {"name": "b"}, "facts": {"written": "b"}}]
}`

func writerTool(t *testing.T) Tool {
	t.Helper()
	c, err := contracts.Parse([]byte(writerContract))
	if err != nil {
		t.Fatal(err)
	}
	return Tool{
		Contract:     c,
		Canonicalize: func(args map[string]any) { args["name"] = strings.ToLower(args["name"].(string)) },
		Execute: func(_ context.Context, args map[string]any) (Output, error) {
			return Output{Facts: map[string]any{"written": args["name"]}, Text: "wrote", Warnings: []Warning{}}, nil
		},
	}
}

// TestWriteToolServedAsCalled: a write tool with canonical spellings gives
// the same envelope when it is isolated and guarded (as `serve` runs it) as
// when it runs bare (as `call` without a store monitor does), and the guard
// refuses it before any work while it reports the store down.
func TestWriteToolServedAsCalled(t *testing.T) {
	ctx := context.Background()
	plain := writerTool(t)
	bare := NewRegistry([]Tool{plain}, Options{})
	var storeDown error
	runner := &recordingRunner{tools: map[string]Tool{"writer": plain}}
	served := NewRegistry([]Tool{Isolated(plain, runner)}, Options{WriteGuard: func() error { return storeDown }})

	want, err := bare.Call(ctx, "writer", []byte(`{"name":"MiXeD"}`), "")
	if err != nil {
		t.Fatal(err)
	}
	if got := want.Envelope.InputNormalized["name"]; got != "mixed" {
		t.Fatalf("bare input_normalized name %v, want the canonical spelling", got)
	}
	got, err := served.Call(ctx, "writer", []byte(`{"name":"MiXeD"}`), "")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.EnvelopeJSON, want.EnvelopeJSON) {
		t.Errorf("served envelope\n %s\nbare envelope\n %s", got.EnvelopeJSON, want.EnvelopeJSON)
	}
	if !slices.Equal(runner.calls, []string{"writer"}) {
		t.Errorf("runner calls %v, want one", runner.calls)
	}

	storeDown = StoreUnavailable(ReasonStoreNotAnswering, "store down")
	_, err = served.Call(ctx, "writer", []byte(`{"name":"x"}`), "")
	var te *Error
	if !errors.As(err, &te) || te.Code != CodeStoreUnavailable || te.Reason != ReasonStoreNotAnswering {
		t.Fatalf("with the store down: %v, want store_unavailable", err)
	}
	if len(runner.calls) != 1 {
		t.Errorf("the guard let a call reach the runner: %v", runner.calls)
	}
	// A read tool is never asked about the store.
	readOnly := NewRegistry([]Tool{gcdLCM()}, Options{WriteGuard: func() error { return storeDown }})
	if _, err := readOnly.Call(ctx, "gcd_lcm", []byte(`{"a":4,"b":6}`), ""); err != nil {
		t.Errorf("a read tool with the store down: %v", err)
	}
}
