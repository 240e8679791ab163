package schedule

import (
	"errors"
	"testing"

	"github.com/precisiond/precisiond/internal/refusal"
	"github.com/precisiond/precisiond/internal/tzdb"
)

// checkExpand runs one expansion and checks what must hold of any answer: a
// typed refusal or a strictly increasing list of at most count instants.
// The step budget keeps every input finite; a hang would show as the fuzz
// worker timing out.
func checkExpand(t *testing.T, syntax, expr string, startSec int64, zone string, count int, nx, am string) {
	t.Helper()
	z, err := tzdb.Load(zone)
	if err != nil {
		t.Fatal(err)
	}
	start := Wall{2026, 1, 1, 0, 0, 0}
	if startSec >= 0 {
		// any second of years 1970-2400
		d := startSec % (430 * 366 * 86400)
		y, m, dd := civilFromDays(d / 86400)
		r := int(d % 86400)
		start = Wall{y, m, dd, r / 3600, r % 3600 / 60, r % 60}
	}
	count = 1 + abs(count%50)
	res, err := Expand(syntax, expr, Options{Start: start, Zone: z, Count: count, Nonexistent: nx, Ambiguous: am})
	if err != nil {
		var re *refusal.Error
		if !errors.As(err, &re) {
			t.Fatalf("%s %q: untyped error %v", syntax, expr, err)
		}
		return
	}
	if len(res.Occurrences) > count {
		t.Fatalf("%s %q: %d occurrences, count %d", syntax, expr, len(res.Occurrences), count)
	}
	for i := 1; i < len(res.Occurrences); i++ {
		if res.Occurrences[i].Unix <= res.Occurrences[i-1].Unix {
			t.Fatalf("%s %q: occurrences not strictly increasing at %d", syntax, expr, i)
		}
	}
	if res.Exhausted && len(res.Occurrences) == count {
		t.Fatalf("%s %q: exhausted with count occurrences", syntax, expr)
	}
}

var fuzzZones = []string{"UTC", "Europe/Berlin", "America/New_York", "Australia/Lord_Howe"}
var fuzzNonexistent = []string{"shift_forward", "skip"}
var fuzzAmbiguous = []string{"earlier", "later", "both"}

func FuzzCron(f *testing.F) {
	for _, s := range []string{"* * * * *", "30 2 * * *", "0 0 30 2 *", "*/15 1-3 * * *", "0 0 13 * FRI", "0 0 */2 * 1",
		"@weekly", "0 9 * jan-mar MON-fri", "5/15 * * * *", "0 0 L * *", "0 0 * * 7", "1-59/58 */23 1,31 2 0-7"} {
		f.Add(s, int64(-1), uint8(1))
	}
	f.Fuzz(func(t *testing.T, expr string, start int64, opts uint8) {
		checkExpand(t, "cron", expr, start, fuzzZones[opts%4], int(opts), fuzzNonexistent[opts/4%2], fuzzAmbiguous[opts/8%3])
	})
}

func FuzzRRule(f *testing.F) {
	for _, s := range []string{"FREQ=DAILY", "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1", "FREQ=YEARLY;BYWEEKNO=1,-1;BYDAY=MO;WKST=SU",
		"FREQ=YEARLY;BYYEARDAY=1,-1,366", "FREQ=SECONDLY;BYHOUR=23;BYMINUTE=59", "FREQ=MINUTELY;INTERVAL=7;BYHOUR=2",
		"FREQ=HOURLY;INTERVAL=5;BYHOUR=1,6,11", "FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=SU", "FREQ=DAILY;UNTIL=20260310",
		"FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30", "FREQ=YEARLY;BYEASTER=0", "RRULE:freq=monthly;byday=-1su;bymonth=3"} {
		f.Add(s, int64(-1), uint8(1))
	}
	f.Fuzz(func(t *testing.T, expr string, start int64, opts uint8) {
		checkExpand(t, "rrule", expr, start, fuzzZones[opts%4], int(opts), fuzzNonexistent[opts/4%2], fuzzAmbiguous[opts/8%3])
	})
}
