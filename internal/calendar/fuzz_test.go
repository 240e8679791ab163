package calendar

import (
	"errors"
	"testing"
)

func FuzzParseDate(f *testing.F) {
	for _, s := range []string{"2024-02-29", "2023-02-29", "0000-01-01", "9999-12-31", "today", "29.02.2024", "2024-1-1", "२०२४-01-01", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := ParseDate(s)
		if err != nil {
			if !errors.Is(err, ErrSyntax) && !errors.Is(err, ErrInvalid) && !errors.Is(err, ErrRange) {
				t.Fatalf("ParseDate(%q): untyped error %v", s, err)
			}
			return
		}
		if d.String() != s {
			t.Fatalf("ParseDate(%q) round-trips to %q", s, d.String())
		}
		back, err := FromDays(d.Days())
		if err != nil || back != d {
			t.Fatalf("%s: FromDays(Days()) = %v, %v", d, back, err)
		}
	})
}

func FuzzParseInstant(f *testing.F) {
	for _, s := range []string{"2026-07-29T12:00:00Z", "2026-07-29T14:00:00+02:00", "1900-01-01T00:00:00-23:59", "now", "2026-07-29T12:00:00", "2026-07-29T24:00:00Z", "2026-07-29T12:00:00+24:00", "2026-07-29T12:00:00+05:99"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		wall, off, err := ParseInstant(s)
		if err != nil {
			if !errors.Is(err, ErrSyntax) && !errors.Is(err, ErrInvalid) && !errors.Is(err, ErrRange) {
				t.Fatalf("ParseInstant(%q): untyped error %v", s, err)
			}
			return
		}
		out := wall.String() + FormatOffset(off)
		want := s
		if off == 0 {
			want = s[:19] + "+00:00"
		}
		if (s[len(s)-1] == 'Z' || s[len(s)-2] <= '5') && out != want { // minutes 00..59 print as written
			t.Fatalf("ParseInstant(%q) round-trips to %q", s, out)
		}
		if w2, off2, err := ParseInstant(out); err != nil || w2 != wall || off2 != off {
			t.Fatalf("ParseInstant(%q) = %v %d; its rendering %q reads back as %v %d %v", s, wall, off, out, w2, off2, err)
		}
		back, err := DateTimeFromSeconds(wall.Seconds())
		if err != nil || back != wall {
			t.Fatalf("%s: DateTimeFromSeconds(Seconds()) = %v, %v", wall, back, err)
		}
	})
}

func FuzzParseLocal(f *testing.F) {
	for _, s := range []string{"2026-10-25T02:30:00", "2026-03-29T02:30:00", "2026-07-29T12:00:00Z", "0001-01-01T00:00:00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		wall, err := ParseLocal(s)
		if err != nil {
			return
		}
		if wall.String() != s {
			t.Fatalf("ParseLocal(%q) round-trips to %q", s, wall.String())
		}
	})
}

// Relative arithmetic never panics, stays in range, and adding then removing
// plain days gets back to the start.
func FuzzAddRelative(f *testing.F) {
	f.Add(int64(738000), int64(0), int64(1), int64(0), int64(0))
	f.Add(int64(0), int64(-10000), int64(5), int64(3), int64(-9))
	f.Add(int64(2932896), int64(1), int64(0), int64(0), int64(1))
	f.Fuzz(func(t *testing.T, day, years, months, weeks, days int64) {
		base, err := FromDays(day%3000000 + minDays)
		if err != nil {
			return
		}
		r, err := AddRelative(base, years, months, weeks, days)
		if err != nil {
			if !errors.Is(err, ErrRange) {
				t.Fatalf("untyped error %v", err)
			}
			return
		}
		if r.Year < MinYear || r.Year > MaxYear {
			t.Fatalf("result %v out of range", r)
		}
		if years == 0 && months == 0 {
			back, err := AddRelative(r, 0, 0, -weeks, -days)
			if err != nil || back != base {
				t.Fatalf("%s %+dw %+dd = %s, back %v %v", base, weeks, days, r, back, err)
			}
		}
		d := Diff(base, r)
		if d.Months < 0 || d.Months > 11 || d.Day < 0 || d.Day > 30 || d.Years < 0 {
			t.Fatalf("Diff(%s, %s) = %+v", base, r, d)
		}
	})
}

// Zone resolution never panics; a resolved wall time maps back to itself.
func FuzzConvert(f *testing.F) {
	f.Add("2026-10-25T02:30:00", "Europe/Berlin", "UTC", 1)
	f.Add("2026-03-29T02:30:00", "Europe/Berlin", "Pacific/Chatham", 0)
	f.Add("2026-04-05T01:45:00", "Australia/Lord_Howe", "America/New_York", -1)
	f.Add("2026-07-29T12:00:00", "utc+0530", "europe/berlin", -1) // zone spellings of tzdb.Lookup
	f.Add("2026-07-29T12:00:00", "-09:30", "Europe/Berln", 0)
	f.Fuzz(func(t *testing.T, local, from, to string, fold int) {
		var fp *int
		if fold == 0 || fold == 1 {
			fp = &fold
		}
		c, err := Convert(local, from, to, fp, "en")
		if err != nil {
			return
		}
		back, err := InstantFacts(c.UTCInstant[:19]+"Z", from, "en")
		if errors.Is(err, ErrYearRange) { // UTC moved past the range edge (1900-01-01T00:00 east of Greenwich)
			return
		}
		if err != nil {
			t.Fatalf("%+v: %v", c, err)
		}
		if back.LocalDatetime != c.SourceDatetime {
			t.Fatalf("%s in %s: source %s, but the instant is %s there", local, from, c.SourceDatetime, back.LocalDatetime)
		}
	})
}
