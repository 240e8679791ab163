package tools

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/precisiond/precisiond/evidence"
)

var timeToolNames = []string{"calendar_facts", "day_of_week", "time_facts", "timezone_convert", "date_diff", "date_add"}

// The real binary gives byte-identical responses whatever the host's TZ and
// ZONEINFO say, and its facts are the oracle's (contract examples and the
// cases in testdata/<tool>/oracle_allzones.json that changed in tzdata 2026d–f).
func TestTimeToolsBinaryIgnoresHostZoneinfo(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "precisiond")
	build := exec.Command("go", "build", "-o", bin, "../cmd/precisiond")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ../cmd/precisiond: %v\n%s", err, out)
	}
	type call struct {
		tool  string
		args  map[string]any
		facts map[string]any
	}
	var calls []call
	reg := testRegistry(t)
	for _, name := range timeToolNames {
		tool, _, ok := reg.Lookup(name)
		if !ok {
			t.Fatalf("%s not registered", name)
		}
		for _, ex := range tool.Contract().Examples {
			calls = append(calls, call{name, ex.Args, ex.Facts})
		}
	}
	for _, name := range []string{"time_facts", "timezone_convert"} {
		for _, c := range loadGolden(t, filepath.Join("testdata", name, "oracle_allzones.json")) {
			if strings.Contains(c.Name, "2026-12-01T12:00:00") && c.Facts != nil {
				calls = append(calls, call{name, c.Args, c.Facts})
			}
		}
	}
	if len(calls) < 20 {
		t.Fatalf("only %d calls", len(calls))
	}
	empty := t.TempDir()
	dataDir := t.TempDir()
	envs := [][]string{
		nil,
		{"TZ=Pacific/Kiritimati", "ZONEINFO=" + empty},
		{"TZ=America/Havana", "ZONEINFO=/nonexistent"},
		{"TZ=../../etc/passwd", "ZONEINFO=" + bin},
	}
	for _, c := range calls {
		args, _ := json.Marshal(c.args)
		var first string
		for i, env := range envs {
			cmd := exec.Command(bin, "call", c.tool, string(args))
			cmd.Env = append(append(os.Environ(), "PRECISIOND_DATA_DIR="+dataDir), env...)
			var stderr strings.Builder
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("%s %s (env %v): %v\n%s\n%s", c.tool, args, env, err, out, stderr.String())
			}
			if i == 0 {
				first = string(out)
				var resp struct {
					StructuredResult struct {
						Facts json.RawMessage `json:"facts"`
					} `json:"structured_result"`
				}
				if err := json.Unmarshal(out, &resp); err != nil {
					t.Fatalf("%s: %v\n%s", c.tool, err, out)
				}
				gotV, err := evidence.ParseJSON(resp.StructuredResult.Facts)
				if err != nil {
					t.Fatal(err)
				}
				got, _ := evidence.Canonical(gotV)
				want, _ := evidence.Canonical(c.facts)
				if string(got) != string(want) {
					t.Errorf("%s %s:\n got %s\nwant %s", c.tool, args, got, want)
				}
				continue
			}
			if string(out) != first {
				t.Errorf("%s %s: env %v changed the response:\n%s\nvs\n%s", c.tool, args, env, out, first)
			}
		}
	}
}

func benchInvoke(b *testing.B, tool, args string) {
	b.Helper()
	reg := testRegistry(b)
	v, err := evidence.ParseJSON([]byte(args))
	if err != nil {
		b.Fatal(err)
	}
	req := Request{Tool: tool, Args: v.(map[string]any)}
	if _, err := reg.Invoke(context.Background(), req); err != nil {
		b.Fatalf("%s %s: %v", tool, args, err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := reg.Invoke(context.Background(), req); err != nil {
			b.Fatal(err)
		}
	}
}

// Small inputs are ordinary calls; large ones take the longest path each tool
// has (extreme years, the widest spans, rule-based zone data after 2037,
// ambiguous times in a zone with many transitions).
func BenchmarkTimeTools(b *testing.B) {
	for _, bc := range []struct{ name, tool, args string }{
		{"calendar_facts/small", "calendar_facts", `{"date_str":"2026-07-29"}`},
		{"calendar_facts/large", "calendar_facts", `{"date_str":"9999-12-31","locale":"pl"}`},
		{"day_of_week/small", "day_of_week", `{"date_str":"2021-01-01"}`},
		{"day_of_week/large", "day_of_week", `{"date_str":"0001-01-01"}`},
		{"time_facts/small", "time_facts", `{"instant":"2026-07-29T12:00:00Z","timezone_name":"Europe/Berlin"}`},
		{"time_facts/large", "time_facts", `{"instant":"2100-10-03T15:45:00+13:45","timezone_name":"Australia/Lord_Howe","locale":"pt"}`},
		{"timezone_convert/small", "timezone_convert", `{"local_datetime":"2026-07-29T14:00:00","from_timezone":"Europe/Berlin","to_timezone":"UTC"}`},
		{"timezone_convert/large", "timezone_convert", `{"local_datetime":"2099-04-05T01:45:00","from_timezone":"Australia/Lord_Howe","to_timezone":"Pacific/Chatham","fold":1}`},
		{"date_diff/small", "date_diff", `{"date1":"2024-01-31","date2":"2024-03-01"}`},
		{"date_diff/large", "date_diff", `{"date1":"9999-12-31","date2":"0001-01-01"}`},
		{"date_add/small", "date_add", `{"base_date":"2024-01-31","months":1}`},
		{"date_add/large", "date_add", `{"base_date":"0001-01-01","years":9998,"months":11,"weeks":4,"days":2}`},
	} {
		b.Run(bc.name, func(b *testing.B) { benchInvoke(b, bc.tool, bc.args) })
	}
}
