package schedule

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/precisiond/precisiond/internal/refusal"
	"github.com/precisiond/precisiond/internal/tzdb"
)

// TestCivil checks the day arithmetic against Go's time package over the whole
// range the package uses.
func TestCivil(t *testing.T) {
	for d := daysFromCivil(1, 1, 1); d <= daysFromCivil(9999, 12, 31); d += 97 {
		tm := time.Unix(d*86400, 0).UTC()
		y, m, dd := civilFromDays(d)
		if y != tm.Year() || m != int(tm.Month()) || dd != tm.Day() {
			t.Fatalf("civilFromDays(%d) = %d-%d-%d, time says %s", d, y, m, dd, tm)
		}
		if got := daysFromCivil(y, m, dd); got != d {
			t.Fatalf("daysFromCivil(%d-%d-%d) = %d, want %d", y, m, dd, got, d)
		}
		if got, want := weekday(d), (int(tm.Weekday())+6)%7; got != want {
			t.Fatalf("weekday(%s) = %d, want %d", tm, got, want)
		}
	}
}

func reason(err error) string {
	var re *refusal.Error
	if errors.As(err, &re) {
		return re.Reason
	}
	return ""
}

func TestParseCronRefusals(t *testing.T) {
	cases := map[string]string{
		"0 0 L * *":                             "unsupported_cron_feature",
		"0 0 ? * MON":                           "unsupported_cron_feature",
		"0 0 * * MON#2":                         "unsupported_cron_feature",
		"0 0 0 * * *":                           "unsupported_cron_feature",
		"@reboot":                               "unsupported_cron_feature",
		"5/15 * * * *":                          "invalid_cron",
		"*/0 * * * *":                           "invalid_cron",
		"* * * * 8":                             "invalid_cron",
		"* * * * *\x7f":                         "invalid_cron",
		"* * * * * \u00a0":                      "invalid_cron",
		"10-5 * * * *":                          "invalid_cron",
		"99999999 * * * *":                      "invalid_cron",
		strings.Repeat("1,", 600) + "1 * * * *": "invalid_cron",
	}
	for expr, want := range cases {
		_, err := ParseCron(expr)
		if got := reason(err); got != want {
			t.Errorf("ParseCron(%.40q): reason %q (%v), want %q", expr, got, err, want)
		}
	}
	for _, ok := range []string{"0 0 * * 7", "@DAILY", "0\t0 * jan-MAR Mon-fri", "*/5,7 1-3/2 1,15 * *"} {
		if _, err := ParseCron(ok); err != nil {
			t.Errorf("ParseCron(%q): %v", ok, err)
		}
	}
}

func TestParseRRuleRefusals(t *testing.T) {
	start := Wall{2026, 1, 1, 0, 0, 0}
	cases := map[string]string{
		"FREQ=YEARLY;BYEASTER=0":                                 "unsupported_rrule_feature",
		"BYDAY=MO":                                               "invalid_rrule",
		"FREQ=DAILY;COUNT=1;UNTIL=20260101":                      "invalid_rrule",
		"FREQ=DAILY;UNTIL=20260101T000000Z":                      "invalid_rrule",
		"FREQ=DAILY;INTERVAL=0":                                  "invalid_rrule",
		"FREQ=MONTHLY;BYDAY=6MO":                                 "invalid_rrule",
		"FREQ=HOURLY;INTERVAL=4;BYHOUR=2,3":                      "invalid_rrule",
		"FREQ=DAILY;BYSETPOS=" + strings.Repeat("1,", 400) + "1": "invalid_rrule",
	}
	for expr, want := range cases {
		_, err := ParseRRule(expr, start)
		if got := reason(err); got != want {
			t.Errorf("ParseRRule(%.40q): reason %q (%v), want %q", expr, got, err, want)
		}
	}
}

func berlin(t testing.TB) *tzdb.Zone {
	z, err := tzdb.Load("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	return z
}

// TestBudget: a rule that needs more search steps than MaxSteps is refused
// with a cost refusal, and the same rule with a small count is answered.
func TestBudget(t *testing.T) {
	opt := Options{Start: Wall{2026, 1, 1, 0, 0, 0}, Zone: berlin(t), Count: 1000, Nonexistent: "shift_forward", Ambiguous: "earlier"}
	_, err := Expand("rrule", "FREQ=SECONDLY;BYHOUR=23;BYMINUTE=59;BYSECOND=59", opt)
	var re *refusal.Error
	if !errors.As(err, &re) || !re.Costly || re.Reason != "schedule_budget_exceeded" {
		t.Fatalf("got %v, want a schedule_budget_exceeded cost refusal", err)
	}
	opt.Count = 5
	res, err := Expand("rrule", "FREQ=SECONDLY;BYHOUR=23;BYMINUTE=59;BYSECOND=59", opt)
	if err != nil || len(res.Occurrences) != 5 {
		t.Fatalf("count 5: %v, %d occurrences", err, len(res.Occurrences))
	}
}

// TestNeverMatches: rules without occurrences end as exhausted within the
// horizon instead of searching on.
func TestNeverMatches(t *testing.T) {
	opt := Options{Start: Wall{2026, 1, 1, 0, 0, 0}, Zone: berlin(t), Count: 10, Nonexistent: "shift_forward", Ambiguous: "earlier"}
	for _, c := range []struct{ syntax, expr string }{
		{"cron", "0 0 30 2 *"}, {"cron", "* * 31 4,6,9,11 *"},
		{"rrule", "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30"}, {"rrule", "FREQ=SECONDLY;BYSETPOS=2"},
		{"rrule", "FREQ=MINUTELY;BYMONTH=4;BYMONTHDAY=31"}, {"rrule", "FREQ=MONTHLY;BYSETPOS=2"},
	} {
		res, err := Expand(c.syntax, c.expr, opt)
		if err != nil || len(res.Occurrences) != 0 || !res.Exhausted {
			t.Errorf("%s %q: %v, %d occurrences, exhausted %v; want none and exhausted", c.syntax, c.expr, err, len(res.Occurrences), res.Exhausted)
		}
	}
}

func TestFormatOffset(t *testing.T) {
	for _, c := range []struct {
		sec      int
		off, iso string
	}{{7200, "+02:00", "+02:00"}, {-12600, "-03:30", "-03:30"}, {3208, "+00:53", "+00:53:28"}, {-17762, "-04:56", "-04:56:02"}, {0, "+00:00", "+00:00"}} {
		if got := FormatOffset(c.sec); got != c.off {
			t.Errorf("FormatOffset(%d) = %s, want %s", c.sec, got, c.off)
		}
		if got := FormatISOOffset(c.sec); got != c.iso {
			t.Errorf("FormatISOOffset(%d) = %s, want %s", c.sec, got, c.iso)
		}
	}
}

func BenchmarkCronEveryMinute1000(b *testing.B) {
	opt := Options{Start: Wall{2026, 3, 29, 0, 0, 0}, Zone: berlin(b), Count: 1000, Nonexistent: "shift_forward", Ambiguous: "both"}
	for b.Loop() {
		if _, err := Expand("cron", "* * * * *", opt); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCronNever(b *testing.B) {
	opt := Options{Start: Wall{2026, 1, 1, 0, 0, 0}, Zone: berlin(b), Count: 10, Nonexistent: "shift_forward", Ambiguous: "earlier"}
	for b.Loop() {
		if _, err := Expand("cron", "0 0 30 2 *", opt); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRRuleSecondly1000(b *testing.B) {
	opt := Options{Start: Wall{2026, 10, 25, 0, 0, 0}, Zone: berlin(b), Count: 1000, Nonexistent: "shift_forward", Ambiguous: "both"}
	for b.Loop() {
		if _, err := Expand("rrule", "FREQ=SECONDLY", opt); err != nil {
			b.Fatal(err)
		}
	}
}
