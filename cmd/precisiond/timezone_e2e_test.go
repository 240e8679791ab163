package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/precisiond/precisiond/contracts"
	"github.com/precisiond/precisiond/evidence"
)

// timeToolNames are the tools whose answers depend on time-zone data.
var timeToolNames = []string{"calendar_facts", "day_of_week", "time_facts", "timezone_convert", "date_diff", "date_add"}

type timeCall struct {
	tool  string
	args  map[string]any
	facts map[string]any
}

// timeCalls are every contract example of the time tools plus the cases of
// tools/testdata/<tool>/oracle_allzones.json at 2026-12-01T12:00:00 (the zones
// that changed in tzdata 2026d–f), with the oracle's facts.
func timeCalls(t *testing.T) []timeCall {
	t.Helper()
	var calls []timeCall
	for _, name := range timeToolNames {
		for _, ex := range contracts.MustLoad(name).Examples {
			calls = append(calls, timeCall{name, ex.Args, ex.Facts})
		}
	}
	for _, name := range []string{"time_facts", "timezone_convert"} {
		raw, err := os.ReadFile(filepath.Join("..", "..", "tools", "testdata", name, "oracle_allzones.json"))
		if err != nil {
			t.Fatal(err)
		}
		v, err := evidence.ParseJSON(raw)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		file, _ := v.(map[string]any)
		cases, _ := file["cases"].([]any)
		for _, x := range cases {
			c, _ := x.(map[string]any)
			label, _ := c["name"].(string)
			args, _ := c["args"].(map[string]any)
			facts, _ := c["facts"].(map[string]any)
			if strings.Contains(label, "2026-12-01T12:00:00") && args != nil && facts != nil {
				calls = append(calls, timeCall{name, args, facts})
			}
		}
	}
	if len(calls) < 20 {
		t.Fatalf("only %d calls", len(calls))
	}
	return calls
}

// TestTimeToolsIgnoreHostZoneinfo: the real binary gives byte-identical
// responses whatever the host's TZ and ZONEINFO say, and its facts are the
// oracle's. One server per environment answers every call, so the test costs
// four process starts, not four per call.
func TestTimeToolsIgnoreHostZoneinfo(t *testing.T) {
	calls := timeCalls(t)
	bin := buildBinary(t)
	empty := t.TempDir()
	envs := [][]string{
		nil,
		{"TZ=Pacific/Kiritimati", "ZONEINFO=" + empty},
		{"TZ=America/Havana", "ZONEINFO=/nonexistent"},
		{"TZ=../../etc/passwd", "ZONEINFO=" + bin},
	}
	first := make([][]byte, len(calls))
	for i, env := range envs {
		base, _, _ := startBinaryEnv(t, env)
		for j, c := range calls {
			body, err := json.Marshal(map[string]any{"tool": c.tool, "args": c.args})
			if err != nil {
				t.Fatal(err)
			}
			out := invokeRaw(t, base, body)
			if i > 0 {
				if !bytes.Equal(out, first[j]) {
					t.Errorf("%s %s: env %v changed the response:\n%s\nvs\n%s", c.tool, body, env, out, first[j])
				}
				continue
			}
			first[j] = out
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
				t.Fatalf("%s %s: %v\n%s", c.tool, body, err, out)
			}
			got, _ := evidence.Canonical(gotV)
			want, _ := evidence.Canonical(c.facts)
			if string(got) != string(want) {
				t.Errorf("%s %s:\n got %s\nwant %s", c.tool, body, got, want)
			}
		}
	}
}
