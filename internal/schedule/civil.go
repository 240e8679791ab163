package schedule

import (
	"fmt"

	"github.com/precisiond/precisiond/internal/calendar"
)

// A wall time is a naive local date and time, counted as seconds from
// 1970-01-01T00:00:00 of the local clock (as if it were UTC). tzdb.Zone.Resolve
// takes the same count.

// daysFromCivil is the number of days from 1970-01-01 to y-m-d of the
// proleptic Gregorian calendar.
func daysFromCivil(y, m, d int) int64 { return calendar.Date{Year: y, Month: m, Day: d}.Days() }

// civilFromDays inverts daysFromCivil.
func civilFromDays(z int64) (y, m, d int) {
	c := calendar.DateOfDays(z)
	return c.Year, c.Month, c.Day
}

// weekday is Python's date.weekday() of a day count: Monday 0 ... Sunday 6.
func weekday(days int64) int {
	w := (days + 3) % 7 // 1970-01-01 was a Thursday
	if w < 0 {
		w += 7
	}
	return int(w)
}

var (
	yearLen = calendar.DaysInYear
	daysIn  = calendar.DaysInMonth
)

// Wall is a naive local date-time.
type Wall struct {
	Year, Month, Day, Hour, Minute, Second int
}

// Seconds is the wall time as seconds from 1970-01-01T00:00:00 local.
func (w Wall) Seconds() int64 {
	return daysFromCivil(w.Year, w.Month, w.Day)*86400 + int64(w.Hour*3600+w.Minute*60+w.Second)
}

// String is YYYY-MM-DDTHH:MM:SS.
func (w Wall) String() string {
	return fmt.Sprintf("%04d-%02d-%02dT%02d:%02d:%02d", w.Year, w.Month, w.Day, w.Hour, w.Minute, w.Second)
}

func wallAt(days int64, sec int) int64 { return days*86400 + int64(sec) }

// ParseWall reads YYYY-MM-DDTHH:MM:SS with a year MinStartYear-MaxStartYear.
// Reason invalid_datetime.
func ParseWall(s string) (Wall, error) {
	bad := func(why string) (Wall, error) {
		return Wall{}, refusalf("invalid_datetime", "%q is not a local date-time YYYY-MM-DDTHH:MM:SS: %s", clip(s), why)
	}
	if len(s) != 19 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' {
		return bad("wrong shape")
	}
	num := func(a, b int) (int, bool) {
		n := 0
		for i := a; i < b; i++ {
			c := s[i]
			if c < '0' || c > '9' {
				return 0, false
			}
			n = n*10 + int(c-'0')
		}
		return n, true
	}
	var v [6]int
	for i, p := range [6][2]int{{0, 4}, {5, 7}, {8, 10}, {11, 13}, {14, 16}, {17, 19}} {
		n, ok := num(p[0], p[1])
		if !ok {
			return bad("not digits")
		}
		v[i] = n
	}
	w := Wall{v[0], v[1], v[2], v[3], v[4], v[5]}
	if why := w.check(MaxStartYear); why != "" {
		return bad(why)
	}
	if w.Year < MinStartYear {
		return bad(fmt.Sprintf("year outside %04d-%04d", MinStartYear, MaxStartYear))
	}
	return w, nil
}

// check says what is wrong with w as a date-time of years 1-maxYear, or "".
func (w Wall) check(maxYear int) string {
	switch {
	case w.Year < MinStartYear || w.Year > maxYear:
		return fmt.Sprintf("year outside %04d-%04d", MinStartYear, maxYear)
	case w.Month < 1 || w.Month > 12:
		return "month outside 01-12"
	case w.Day < 1 || w.Day > daysIn(w.Year, w.Month):
		return "no such day in that month"
	case w.Hour > 23 || w.Minute > 59 || w.Second > 59:
		return "time outside 00:00:00-23:59:59"
	}
	return ""
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}
