package api

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/precisiond/precisiond/internal/testhttp"
	"github.com/precisiond/precisiond/mcpserver"
	"github.com/precisiond/precisiond/tools"
)

const stdioInit = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}` + "\n" +
	`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"

// runStdio serves input (then EOF) and returns every output line, decoded.
func runStdio(t *testing.T, opts mcpserver.Options, input string) []map[string]any {
	t.Helper()
	reg := builtinRegistry()
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- mcpserver.ServeStdio(context.Background(), reg, opts, strings.NewReader(input), pw)
		pw.Close()
	}()
	var out []map[string]any
	sc := bufio.NewScanner(pr)
	sc.Buffer(make([]byte, 1<<20), 8<<20)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil || m["jsonrpc"] != "2.0" {
			t.Fatalf("not a JSON-RPC line: %q", sc.Text())
		}
		out = append(out, m)
	}
	if err := testhttp.Returned(t, done, "mcpserver.ServeStdio (after EOF)"); err != nil {
		t.Fatalf("mcpserver.ServeStdio: %v", err)
	}
	return out
}

func byID(msgs []map[string]any) map[string]map[string]any {
	m := map[string]map[string]any{}
	for _, msg := range msgs {
		if id, ok := msg["id"]; ok {
			m[fmt.Sprint(id)] = msg
		}
	}
	return m
}

// TestStdioAnswersEverythingReadBeforeEOF: 50 calls written at once and stdin
// closed right after them: all 50 are answered before the session ends.
func TestStdioAnswersEverythingReadBeforeEOF(t *testing.T) {
	var in strings.Builder
	in.WriteString(stdioInit)
	for i := 1; i <= 50; i++ {
		fmt.Fprintf(&in, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"gcd_lcm","arguments":{"a":%d,"b":6}}}`+"\n", i, 4*i)
	}
	replies := byID(runStdio(t, mcpserver.Options{}, in.String()))
	for i := 1; i <= 50; i++ {
		msg := replies[fmt.Sprint(i)]
		res, _ := msg["result"].(map[string]any)
		if res == nil || res["isError"] == true {
			t.Errorf("call %d: %v", i, msg)
			continue
		}
		facts := res["structuredContent"].(map[string]any)["facts"].(map[string]any)
		if got, want := facts["a"], float64(4*i); got != want {
			t.Errorf("call %d answered with a=%v", i, got)
		}
	}
}

// TestStdioMalformedLines: a line that is not JSON gets -32700 with id null, valid
// JSON that is not a message -32600 (with its id when it has one), a batch and an
// over-long line -32600; the session goes on and later requests are answered.
func TestStdioMalformedLines(t *testing.T) {
	long := `{"jsonrpc":"2.0","id":"long","method":"ping","params":{"x":"` + strings.Repeat("x", 5000) + `"}}`
	input := stdioInit +
		"this is not json\n" +
		`{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n" +
		`{"jsonrpc":"2.0","id":` + "\n" +
		`{"id":"x","hello":1}` + "\n" +
		`[{"jsonrpc":"2.0","id":2,"method":"ping"}]` + "\n" +
		long + "\n" +
		"\n   \n" +
		"\xff\xfe\n" +
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"gcd_lcm","arguments":{"a":4,"b":6}}}` + "\n"
	msgs := runStdio(t, mcpserver.Options{MaxBodyBytes: 4096}, input)
	var codes []float64
	nullIDs := 0
	for _, m := range msgs {
		if e, ok := m["error"].(map[string]any); ok {
			codes = append(codes, e["code"].(float64))
			if id, has := m["id"]; has && id == nil {
				nullIDs++
			}
		}
	}
	want := []float64{-32700, -32700, -32600, -32600, -32600, -32700}
	if fmt.Sprint(codes) != fmt.Sprint(want) {
		t.Errorf("error codes %v, want %v", codes, want)
	}
	if nullIDs != 5 {
		t.Errorf("%d errors with id null, want 5 (all but the one with id \"x\")", nullIDs)
	}
	replies := byID(msgs)
	if e, _ := replies["x"]["error"].(map[string]any); e == nil || e["code"] != float64(-32600) {
		t.Errorf(`invalid request with id "x": %v`, replies["x"])
	}
	if _, ok := replies["1"]["result"]; !ok {
		t.Errorf("ping after a parse error: %v", replies["1"])
	}
	res, _ := replies["3"]["result"].(map[string]any)
	if res == nil || res["isError"] == true {
		t.Errorf("tool call after the malformed lines: %v", replies["3"])
	}
}

// FuzzStdioFraming: any input ends the session cleanly (no panic, no hang), and
// every line written is a JSON-RPC message.
func FuzzStdioFraming(f *testing.F) {
	for _, s := range []string{
		stdioInit, "not json\n", "[]\n", "{}\n", `{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		stdioInit + `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"gcd_lcm","arguments":{"a":4,"b":6}}}` + "\n",
		"\xff\n\n\r\n", `{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}` + "\n", strings.Repeat("[", 3000) + "\n",
	} {
		f.Add([]byte(s))
	}
	reg := tools.NewRegistry(tools.Builtin(tools.Deps{}), tools.Options{DefaultTimeout: time.Second})
	f.Fuzz(func(t *testing.T, input []byte) {
		var out syncBuf
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		if err := mcpserver.ServeStdio(ctx, reg, mcpserver.Options{MaxBodyBytes: 2048}, strings.NewReader(string(input)), &out); err != nil && ctx.Err() == nil {
			t.Logf("mcpserver.ServeStdio: %v", err)
		}
		if ctx.Err() != nil {
			t.Fatalf("session did not end after EOF for %q", input)
		}
		for _, line := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
			if line == "" {
				continue
			}
			var m map[string]any
			if err := json.Unmarshal([]byte(line), &m); err != nil || m["jsonrpc"] != "2.0" {
				t.Fatalf("output line %q for input %q", line, input)
			}
		}
	})
}
