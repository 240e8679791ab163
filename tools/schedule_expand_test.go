package tools

import (
	"slices"
	"strings"
	"testing"

	"github.com/precisiond/precisiond/internal/schedule"
)

// TestScheduleVectors: the contract's syntax enum is what internal/schedule
// reads, and the oracle vectors (replayed by TestGolden) cover what the issue
// asks for: at least 500 random cases, every nonexistent/ambiguous option on
// both 2026 transitions of Berlin, New York and Lord Howe, the RRULE parts,
// and every refusal reason.
func TestScheduleVectors(t *testing.T) {
	reg := testRegistry(t)
	tool, _, ok := reg.Lookup("schedule_expand")
	if !ok {
		t.Fatal("schedule_expand is not registered")
	}
	props := tool.Contract.InputSchema["properties"].(map[string]any)
	var enum []string
	for _, s := range props["syntax"].(map[string]any)["enum"].([]any) {
		enum = append(enum, s.(string))
	}
	if !slices.Equal(enum, schedule.Syntaxes) {
		t.Errorf("contract syntaxes %v, internal/schedule %v", enum, schedule.Syntaxes)
	}
	random := 0
	dst := map[string]bool{}
	parts := map[string]int{}
	reasons := map[string]bool{}
	for _, f := range []string{"oracle_cron.json", "oracle_rrule.json", "oracle_refusals.json"} {
		for _, c := range loadGolden(t, "testdata/schedule_expand/"+f) {
			if strings.HasPrefix(c.Name, "random ") {
				random++
			}
			if c.ErrorCode != "" {
				reasons[c.ErrorCode+"/"+c.Reason] = true
				continue
			}
			if strings.HasPrefix(c.Name, "DST ") && c.Args["syntax"] == "cron" {
				dst[c.Args["timezone"].(string)+" "+c.Args["start"].(string)[:7]+" "+c.Args["nonexistent"].(string)+" "+c.Args["ambiguous"].(string)] = true
			}
			if c.Args["syntax"] == "rrule" {
				for _, p := range strings.Split(strings.ToUpper(c.Args["expression"].(string)), ";") {
					name, _, _ := strings.Cut(p, "=")
					parts[name]++
				}
			}
		}
	}
	if random < 500 {
		t.Errorf("%d random oracle cases, want at least 500", random)
	}
	for _, zone := range []string{"Europe/Berlin", "America/New_York", "Australia/Lord_Howe"} {
		n := 0
		for k := range dst {
			if strings.HasPrefix(k, zone+" ") {
				n++
			}
		}
		if n != 2*2*3 {
			t.Errorf("%s: %d transition × option combinations, want 12", zone, n)
		}
	}
	for _, p := range []string{"BYSETPOS", "BYWEEKNO", "BYYEARDAY", "UNTIL", "COUNT", "INTERVAL", "WKST", "BYDAY", "BYMONTHDAY", "BYMONTH", "BYHOUR", "BYMINUTE", "BYSECOND"} {
		if parts[p] < 5 {
			t.Errorf("RRULE part %s in %d oracle cases, want at least 5", p, parts[p])
		}
	}
	for _, r := range []string{"tool_execution_error/unsupported_cron_feature", "tool_execution_error/invalid_cron", "tool_execution_error/invalid_rrule",
		"tool_execution_error/unsupported_rrule_feature", "tool_execution_error/invalid_datetime", "tool_execution_error/unknown_timezone",
		"cost_limit_exceeded/schedule_budget_exceeded", "input_schema_invalid/"} {
		if !reasons[r] {
			t.Errorf("no refusal vector for %s", r)
		}
	}
}

func BenchmarkScheduleCron(b *testing.B) {
	benchTool(b, "schedule_expand", map[string]any{"syntax": "cron", "expression": "*/15 9-17 * * MON-FRI", "start": "2026-03-27T12:00:00", "timezone": "Europe/Berlin", "count": 10})
}

func BenchmarkScheduleRRule(b *testing.B) {
	benchTool(b, "schedule_expand", map[string]any{"syntax": "rrule", "expression": "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1", "start": "2026-01-01T09:00:00", "timezone": "America/New_York", "count": 10})
}

func BenchmarkScheduleEveryMinute1000(b *testing.B) {
	benchTool(b, "schedule_expand", map[string]any{"syntax": "cron", "expression": "* * * * *", "start": "2026-10-25T00:00:00", "timezone": "Europe/Berlin", "count": 1000, "ambiguous": "both"})
}
