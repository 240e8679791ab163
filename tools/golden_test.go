package tools

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/precisiond/precisiond/evidence"
)

var (
	builtinOnce sync.Once
	builtinReg  *Registry
)

// testRegistry returns one registry of every builtin tool, shared by tests.
func testRegistry(t testing.TB) *Registry {
	t.Helper()
	builtinOnce.Do(func() { builtinReg = NewRegistry(Builtin(testDeps(t)), Options{DefaultTimeout: goldenDeadline}) })
	return builtinReg
}

// benchTool measures calls of tool with args on the shared registry, after one
// call that must succeed, so that a broken case fails instead of timing a
// refusal.
func benchTool(b *testing.B, tool string, args map[string]any) {
	b.Helper()
	reg := testRegistry(b)
	ctx := context.Background()
	req := Request{Tool: tool, Args: args}
	if _, err := reg.Invoke(ctx, req); err != nil {
		b.Fatalf("%s: %v", tool, err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := reg.Invoke(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
}

// testDataDir is a temporary data directory for the whole test binary, removed
// when it ends.
var testDataDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "precisiond-tools-test-")
	if err != nil {
		panic(err)
	}
	testDataDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// testDeps gives tools that need services a temporary home.
var testDeps = func(t testing.TB) Deps { return Deps{} }

var onlyTool = flag.String("golden.tool", "", "replay only this tool's golden cases")

// goldenCase is one file-driven case: args plus either facts or an error.
type goldenCase struct {
	Name      string         `json:"name"`
	Args      map[string]any `json:"args"`
	Facts     map[string]any `json:"facts"`
	ErrorCode string         `json:"error_code"`
	Reason    string         `json:"reason"`
	Warnings  []string       `json:"warnings"`
}

// readExact reads the JSON object at path with its numbers kept as written
// (evidence.ParseJSON: 2 is not 2.0).
func readExact(t *testing.T, path string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	v, err := evidence.ParseJSON(data)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	obj, ok := v.(map[string]any)
	if !ok {
		t.Fatalf("%s: not an object", path)
	}
	return obj
}

func loadGolden(t *testing.T, path string) []goldenCase {
	t.Helper()
	obj := readExact(t, path)
	var raw []any
	if cs, ok := obj["cases"].([]any); ok {
		raw = cs
	} else {
		raw = []any{obj}
	}
	cases := make([]goldenCase, 0, len(raw))
	for i, r := range raw {
		m, _ := r.(map[string]any)
		var c goldenCase
		c.Name, _ = m["name"].(string)
		if c.Name == "" {
			c.Name = strings.TrimSuffix(filepath.Base(path), ".json")
			if len(raw) > 1 {
				c.Name += "#" + itoa(i)
			}
		}
		c.Args, _ = m["args"].(map[string]any)
		c.Facts, _ = m["facts"].(map[string]any)
		c.ErrorCode, _ = m["error_code"].(string)
		c.Reason, _ = m["reason"].(string)
		if ws, ok := m["warnings"].([]any); ok {
			c.Warnings = []string{} // present and empty means "must not warn"
			for _, w := range ws {
				s, _ := w.(string)
				c.Warnings = append(c.Warnings, s)
			}
		}
		if c.Args == nil || (c.Facts == nil) == (c.ErrorCode == "") {
			t.Fatalf("%s case %d: need args and exactly one of facts / error_code", path, i)
		}
		cases = append(cases, c)
	}
	return cases
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

// TestGolden replays every tools/testdata/<tool>/*.json case through the full
// execution path and compares facts by canonical JSON, or the error code/reason.
func TestGolden(t *testing.T) {
	reg := testRegistry(t)
	dirs, err := os.ReadDir("testdata")
	if err != nil {
		t.Fatal(err)
	}
	ran := 0
	for _, d := range dirs {
		if !d.IsDir() || d.Name() == "oracle" || d.Name() == "reference" {
			continue
		}
		tool := d.Name()
		if *onlyTool != "" && tool != *onlyTool {
			continue
		}
		if _, _, ok := reg.Lookup(tool); !ok {
			continue // reported by TestGoldenDirsRegistered
		}
		files, _ := filepath.Glob(filepath.Join("testdata", tool, "*.json"))
		t.Run(tool, func(t *testing.T) {
			for _, f := range files {
				if _, ok := readExact(t, f)["tolerances"]; ok {
					continue // float vectors compared within tolerances by the tool's own test (geodesic_test.go)
				}
				for i, c := range loadGolden(t, f) {
					if testing.Short() && i%10 != 0 {
						continue // -short replays every 10th case of each file; the full run replays all
					}
					ran++
					runGolden(t, reg, tool, c)
				}
			}
		})
	}
	if ran == 0 {
		t.Fatal("no golden cases ran")
	}
}

// goldenDeadline replaces the 5 s call deadline in this package's tests (the
// registry of testRegistry and the golden replays): a case's answer must come
// from the tool and its work budgets, never from how busy the machine is. A
// budget that failed to stop would still show, as a timeout instead of the
// expected answer.
const goldenDeadline = 2 * time.Minute

func runGolden(t *testing.T, reg *Registry, tool string, c goldenCase) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), goldenDeadline)
	defer cancel()
	resp, err := reg.Invoke(ctx, Request{Tool: tool, Args: c.Args})
	if c.ErrorCode != "" {
		var te *Error
		if !errors.As(err, &te) {
			t.Errorf("%s: got %v (response %v), want error %s", c.Name, err, resp != nil, c.ErrorCode)
			return
		}
		if te.Code != c.ErrorCode || (c.Reason != "" && te.Reason != c.Reason) {
			t.Errorf("%s: got error %s/%s (%s), want %s/%s", c.Name, te.Code, te.Reason, te.Message, c.ErrorCode, c.Reason)
		}
		return
	}
	if err != nil {
		t.Errorf("%s: unexpected error %v", c.Name, err)
		return
	}
	got, _ := evidence.Canonical(resp.Envelope.Facts())
	want, err := evidence.Canonical(c.Facts)
	if err != nil {
		t.Fatalf("%s: expected facts: %v", c.Name, err)
	}
	if string(got) != string(want) {
		t.Errorf("%s:\n got %s\nwant %s", c.Name, got, want)
	}
	checkRender(t, reg, c.Name, resp)
	if c.Warnings != nil {
		var codes []string
		for _, w := range resp.Envelope.Warnings {
			codes = append(codes, w.Code)
		}
		if strings.Join(codes, ",") != strings.Join(c.Warnings, ",") {
			t.Errorf("%s: warnings %v, want %v", c.Name, codes, c.Warnings)
		}
	}
}

// checkRender: the legacy result text re-renders from the envelope alone, as
// `precisiond verify` reads it (canonical JSON parsed back, redacted input).
func checkRender(t *testing.T, reg *Registry, name string, resp *Response) {
	t.Helper()
	v, err := evidence.ParseJSON(resp.EnvelopeJSON)
	if err != nil {
		t.Fatalf("%s: envelope: %v", name, err)
	}
	env := v.(map[string]any)
	input, _ := env["input_normalized"].(map[string]any)
	facts, _ := env["facts"].(map[string]any)
	text, err := reg.Render(resp.Tool, input, facts)
	if err != nil || text != resp.Result {
		t.Errorf("%s: re-rendered result text %q (%v), the call said %q", name, text, err, resp.Result)
	}
}

// TestRenderMatchesExecute: for every example of every tool, the result text
// re-rendered from the envelope is the text the call answered; a tampered
// fact gives a different text.
func TestRenderMatchesExecute(t *testing.T) {
	reg := testRegistry(t)
	for _, name := range reg.Names() {
		tool, _, _ := reg.Lookup(name)
		for _, ex := range tool.Contract.Examples {
			resp, err := reg.Invoke(context.Background(), Request{Tool: name, Args: ex.Args})
			if err != nil {
				t.Fatalf("%s %s: %v", name, ex.Title, err)
			}
			checkRender(t, reg, name+" "+ex.Title, resp)
		}
	}
	resp, err := reg.Invoke(context.Background(), Request{Tool: "gcd_lcm", Args: map[string]any{"a": json.Number("391"), "b": json.Number("299")}})
	if err != nil {
		t.Fatal(err)
	}
	facts := map[string]any{}
	for k, v := range resp.Envelope.Facts() {
		facts[k] = v
	}
	facts["lcm"] = json.Number("9999")
	text, err := reg.Render("gcd_lcm", resp.Envelope.InputNormalized, facts)
	if err != nil || text != "GCD(391, 299) = 23  |  LCM(391, 299) = 9999" {
		t.Errorf("tampered facts rendered %q (%v)", text, err)
	}
}

// TestGoldenDirsRegistered makes sure no directory of cases is silently ignored.
func TestGoldenDirsRegistered(t *testing.T) {
	reg := testRegistry(t)
	dirs, err := os.ReadDir("testdata")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		if !d.IsDir() || d.Name() == "oracle" || d.Name() == "reference" {
			continue
		}
		if _, _, ok := reg.Lookup(d.Name()); !ok {
			t.Errorf("testdata/%s has cases but no such tool is registered", d.Name())
		}
	}
}

// TestExamples runs every contract example through the execution path: the facts
// must equal the documented ones exactly.
func TestExamples(t *testing.T) {
	reg := testRegistry(t)
	for _, name := range reg.Names() {
		tool, _, _ := reg.Lookup(name)
		t.Run(name, func(t *testing.T) {
			for _, ex := range tool.Contract.Examples {
				runGolden(t, reg, name, goldenCase{Name: ex.Title, Args: ex.Args, Facts: ex.Facts})
			}
		})
	}
}

func jsonNum(s string) json.Number { return json.Number(s) }
