// Command isolation measures process isolation (`precisiond worker`): the cost
// of starting a worker, the overhead a call pays for running in one, and each
// candidate tool's worst cases at the default limits — wall time and the
// worker's peak resident set — with and without the worker's memory limit.
// docs/operations.md ("Process isolation") records its output.
//
//	go run ./bench/isolation                  # everything
//	go run ./bench/isolation -cases generate_file/emphasis -deadline 120s
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/precisiond/precisiond/bench/internal/benchbin"
	"github.com/precisiond/precisiond/contracts"
	"github.com/precisiond/precisiond/internal/filestore"
	"github.com/precisiond/precisiond/internal/worker"
	"github.com/precisiond/precisiond/tools"
)

func main() {
	binary := flag.String("binary", "", "precisiond binary (default: go build ./cmd/precisiond)")
	deadline := flag.Duration("deadline", 5*time.Second, "per-call deadline (the default --call-timeout)")
	memory := flag.Int64("memory", 256<<20, "worker memory limit for the limited runs (the default --worker-memory)")
	only := flag.String("cases", "", "comma-separated case names (default: all)")
	calls := flag.Int("calls", 200, "calls per overhead measurement")
	flag.Parse()
	if err := runAll(*binary, *deadline, *memory, *only, *calls); err != nil {
		fmt.Fprintln(os.Stderr, "isolation:", err)
		os.Exit(1)
	}
}

func runAll(binary string, deadline time.Duration, memory int64, only string, calls int) error {
	binary, dir, cleanup, err := benchbin.Prepare(binary, "isolation")
	if err != nil {
		return err
	}
	defer cleanup()
	newPool := func(mem int64) (*worker.Pool, error) {
		return worker.NewPool(worker.Config{Size: 1, Command: []string{binary, "worker", "--data-dir", dir, "--worker-memory", fmt.Sprint(mem)}})
	}
	// Spawn cost: start to hello, fresh process each time.
	var spawn []time.Duration
	for range 20 {
		p, err := newPool(memory)
		if err != nil {
			return err
		}
		start := time.Now()
		if err := p.Warm(); err != nil {
			return err
		}
		spawn = append(spawn, time.Since(start))
		p.Close()
	}
	fmt.Printf("worker spawn (start to ready, 20 runs): median %v, max %v\n\n", median(spawn), slices.Max(spawn))

	store, err := filestore.Open(filestore.Config{Dir: filepath.Join(dir, "downloads")})
	if err != nil {
		return err
	}
	inProcess := map[string]tools.Tool{}
	for _, t := range tools.Builtin(tools.Deps{Files: store}) {
		inProcess[t.Contract.Tool] = t
	}

	// Per-call overhead on small inputs: in process vs a warm worker.
	fmt.Println("| call | in process | in a worker | overhead |")
	fmt.Println("|---|---|---|---|")
	pool, err := newPool(memory)
	if err != nil {
		return err
	}
	for _, c := range smallCases() {
		args := normalized(c.tool, c.args)
		in, err := timeCalls(calls, func(ctx context.Context) error { _, err := inProcess[c.tool].Execute(ctx, args); return err })
		if err != nil {
			return fmt.Errorf("%s in process: %w", c.name, err)
		}
		out, err := timeCalls(calls, func(ctx context.Context) error { _, err := pool.Execute(ctx, c.tool, args); return err })
		if err != nil {
			return fmt.Errorf("%s in a worker: %w", c.name, err)
		}
		fmt.Printf("| %s | %v | %v | %v |\n", c.name, in, out, out-in)
	}
	pool.Close()

	// Worst cases: a fresh worker per case, so that its peak RSS is the case's.
	fmt.Printf("\n| case | no memory limit: outcome, time, peak RSS | --worker-memory %d MiB: outcome, time, peak RSS |\n|---|---|---|\n", memory>>20)
	for _, c := range worstCases() {
		if only != "" && !slices.Contains(strings.Split(only, ","), c.name) {
			continue
		}
		args := normalized(c.tool, c.args)
		var cols []string
		for _, mem := range []int64{0, memory} {
			p, err := newPool(mem)
			if err != nil {
				return err
			}
			if err := p.Warm(); err != nil {
				return err
			}
			ctx, cancel := context.WithTimeout(context.Background(), deadline)
			start := time.Now()
			_, err = p.Execute(ctx, c.tool, args)
			took := time.Since(start)
			cancel()
			rss := p.Stats().MaxRSSBytes
			p.Close()
			rssText := "—"
			if rss > 0 {
				rssText = fmt.Sprintf("%d MiB", rss>>20)
			}
			cols = append(cols, fmt.Sprintf("%s, %v, %s", outcome(err), took.Round(time.Millisecond), rssText))
		}
		fmt.Printf("| %s | %s | %s |\n", c.name, cols[0], cols[1])
	}
	return nil
}

type testCase struct {
	name, tool string
	args       map[string]any
}

func normalized(tool string, args map[string]any) map[string]any {
	return contracts.MustLoad(tool).ApplyDefaults(args)
}

func outcome(err error) string {
	if err == nil {
		return "ok"
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return "timeout (worker killed)"
	}
	var te *tools.Error
	if errors.As(err, &te) {
		return te.Code + "/" + te.Reason
	}
	return "error: " + err.Error()
}

func timeCalls(n int, f func(context.Context) error) (time.Duration, error) {
	var ds []time.Duration
	for range n {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		start := time.Now()
		err := f(ctx)
		ds = append(ds, time.Since(start))
		cancel()
		if err != nil {
			return 0, err
		}
	}
	return median(ds), nil
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

func smallCases() []testCase {
	return []testCase{
		{"generate_file md (50 B)", "generate_file", map[string]any{"content": "# Title\n\nSome *text*.\n", "filename": "a", "format": "md"}},
		{"generate_file docx (50 B)", "generate_file", map[string]any{"content": "# Title\n\nSome *text*.\n", "filename": "a", "format": "docx"}},
		{"structured_validate json + schema", "structured_validate", map[string]any{"format_name": "json", "payload": `{"a":[1,2,3]}`,
			"schema_json": `{"type":"object","properties":{"a":{"type":"array","items":{"type":"integer"}}}}`}},
		{"structured_validate json, no schema", "structured_validate", map[string]any{"format_name": "json", "payload": `{"a":[1,2,3]}`}},
	}
}

func worstCases() []testCase {
	rep := strings.Repeat
	zeros := "[" + strings.TrimSuffix(rep("0,", 1000), ",") + "]"
	nots := `{"items":{"anyOf":[` + strings.TrimSuffix(rep(`{"not":{}},`, 2900), ",") + `]}}`
	table := "| " + rep("a | ", 64) + "\n|" + rep("---|", 64) + "\n" + rep("| "+rep("x | ", 64)+"\n", 3000)
	return []testCase{
		{"generate_file/emphasis", "generate_file", map[string]any{"content": rep("*a **", 100000), "filename": "e", "format": "html"}},
		{"generate_file/emphasis-docx", "generate_file", map[string]any{"content": rep("*a **", 100000), "filename": "e", "format": "docx"}},
		{"generate_file/link-refs", "generate_file", map[string]any{"content": rep("[a]", 300000), "filename": "l", "format": "html"}},
		{"generate_file/nesting", "generate_file", map[string]any{"content": rep("> ", 30) + rep("- ", 30) + "x\n", "filename": "n", "format": "pdf"}},
		{"generate_file/table-xlsx", "generate_file", map[string]any{"content": table[:min(len(table), 1<<20-1)], "filename": "t", "format": "xlsx"}},
		{"generate_file/table-pdf", "generate_file", map[string]any{"content": table[:min(len(table), 1<<20-1)], "filename": "t", "format": "pdf"}},
		{"generate_file/slides-pptx", "generate_file", map[string]any{"content": rep("## s\n\ntext\n\n", 1000), "filename": "s", "format": "pptx"}},
		{"generate_file/pages-pdf", "generate_file", map[string]any{"content": rep("paragraph of text that fills lines\n\n", 28000), "filename": "p", "format": "pdf"}},
		{"structured_validate/anyOf-not", "structured_validate", map[string]any{"format_name": "json", "payload": zeros, "schema_json": nots}},
		{"structured_validate/nested-anyOf", "structured_validate", map[string]any{"format_name": "json", "payload": "[" + strings.TrimSuffix(rep(`"aaaaaaaaaaaaaaaaaaaa",`, 2000), ",") + "]",
			"schema_json": `{"items":` + rep(`{"anyOf":[{"type":"integer"},`, 60) + `{"pattern":"^(a|aa)*$"}` + rep("]}", 60) + `}`}},
		{"structured_validate/uniqueItems", "structured_validate", map[string]any{"format_name": "json", "payload": "[" + strings.TrimSuffix(rep(`[1,2,3,4,5,6,7,8],`, 1100), ",") + "]",
			"schema_json": `{"uniqueItems":true}`}},
	}
}
