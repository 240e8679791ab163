package holidays

import (
	"errors"
	"testing"

	"github.com/precisiond/precisiond/internal/calendar"
)

// FuzzBusinessArgs: any country, subdivision, date text, day count and
// weekend either answers or is refused with one of the package's errors
// (or the calendar's for the date); an answer of Offset counts back to the
// day count from the rolled start.
func FuzzBusinessArgs(f *testing.F) {
	f.Add("DE", "BY", "2025-12-19", int64(10), uint8(0b1100000))
	f.Add("GB", "SCT", "2022-01-01", int64(-3), uint8(0b1000000))
	f.Add("US", "", "2100-12-30", int64(2), uint8(0b0110000))
	f.Add("de", "by", "1990-12-31", int64(1), uint8(0))
	f.Add("GB", "", "2024-02-30", int64(50001), uint8(0b1111111))
	f.Add("AT", "9", "1967-01-01", int64(-1), uint8(0b1111110))
	f.Add("JP", "", "2019-04-27", int64(5), uint8(0b1100000))
	f.Add("ES", "MD", "2026-12-30", int64(3), uint8(0b1100000))
	f.Add("CH", "GL", "2023-04-12", int64(-2), uint8(0b1000000))
	f.Add("NZ", "OTA", "2052-12-24", int64(3), uint8(0b1100000))
	f.Add("US", "CA", "2035-12-28", int64(-400), uint8(0b1100000))
	f.Add("AU", "TAS", "2021-12-24", int64(2), uint8(0b0000001))
	f.Add("CA", "ON", "2008-01-01", int64(-1), uint8(0b1100000))
	f.Fuzz(func(t *testing.T, country, sub, date string, days int64, mask uint8) {
		s, err := Lookup(country, sub)
		if err != nil {
			if !errors.Is(err, ErrUnknownCountry) && !errors.Is(err, ErrUnknownSubdivision) && !errors.Is(err, ErrSubdivisionRequired) {
				t.Fatalf("Lookup(%q, %q): %v", country, sub, err)
			}
			return
		}
		var weekend []int
		for i := range 7 {
			if mask&(1<<i) != 0 {
				weekend = append(weekend, i+1)
			}
		}
		w, err := NewWeek(s, weekend)
		if err != nil {
			if !errors.Is(err, ErrNoBusinessDays) {
				t.Fatalf("NewWeek(%v): %v", weekend, err)
			}
			return
		}
		d, err := calendar.ParseDate(date)
		if err != nil {
			return
		}
		if days > 50000 || days < -50000 {
			days %= 50000
		}
		r, err := w.Offset(d, days)
		if err != nil {
			if !errors.Is(err, ErrYearRange) {
				t.Fatalf("Offset(%s, %d): %v", d, days, err)
			}
			return
		}
		start, err := w.Offset(d, 0) // the rolled start
		if err != nil {
			t.Fatalf("Offset(%s, 0): %v after Offset(%s, %d) = %s", d, err, d, days, r)
		}
		if n, err := w.Count(start, r); err != nil || n != days {
			t.Fatalf("Count(%s, %s) = %d, %v; want %d", start, r, n, err, days)
		}
	})
}
