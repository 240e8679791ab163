package tzdb

import (
	"testing"
	"time"
)

// Every wall time from 31 December to 2 January exists exactly once in zones
// whose DST transitions lie far from the new year, in every year up to 2100,
// also where the TZif footer rule serves (from about 2038) and the year is a
// leap year (golang/go#81583 made these look like gaps).
func TestResolveNewYearUnique(t *testing.T) {
	for _, name := range []string{"Europe/Berlin", "Europe/London", "America/New_York", "Australia/Sydney",
		"Pacific/Auckland", "America/Santiago", "Australia/Lord_Howe", "UTC", "Asia/Tokyo"} {
		z, err := Load(name)
		if err != nil {
			t.Fatal(err)
		}
		for y := 2020; y <= 2100; y++ {
			start := time.Date(y, 12, 31, 0, 0, 0, 0, time.UTC).Unix()
			for w := start; w < start+3*86400; w += 1800 {
				r := z.Resolve(w)
				if r.Kind != Unique {
					t.Fatalf("%s %s: kind %d, want unique", name, time.Unix(w, 0).UTC().Format("2006-01-02T15:04:05"), r.Kind)
				}
				if o, fold := z.At(r.Instants[0]); r.Instants[0]+int64(o.Seconds) != w || fold != 0 {
					t.Fatalf("%s %d: instant %d shows %d (fold %d)", name, w, r.Instants[0], r.Instants[0]+int64(o.Seconds), fold)
				}
			}
		}
	}
}
