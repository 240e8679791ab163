package schedule

import "fmt"

// A wall time is a naive local date and time, counted as seconds from
// 1970-01-01T00:00:00 of the local clock (as if it were UTC). tzdb.Zone.Resolve
// takes the same count.

// daysFromCivil is the number of days from 1970-01-01 to y-m-d of the
// proleptic Gregorian calendar (Hinnant's days_from_civil).
func daysFromCivil(y, m, d int) int64 {
	yy := int64(y)
	if m <= 2 {
		yy--
	}
	era := yy / 400
	if yy < 0 && yy%400 != 0 {
		era--
	}
	yoe := yy - era*400
	mp := int64(m+9) % 12
	doy := (153*mp+2)/5 + int64(d) - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

// civilFromDays inverts daysFromCivil.
func civilFromDays(z int64) (y, m, d int) {
	z += 719468
	era := z / 146097
	if z < 0 && z%146097 != 0 {
		era--
	}
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d = int(doy - (153*mp+2)/5 + 1)
	m = int(mp + 3)
	if m > 12 {
		m -= 12
	}
	y = int(yoe + era*400)
	if m <= 2 {
		y++
	}
	return
}

// weekday is Python's date.weekday() of a day count: Monday 0 ... Sunday 6.
func weekday(days int64) int {
	w := (days + 3) % 7 // 1970-01-01 was a Thursday
	if w < 0 {
		w += 7
	}
	return int(w)
}

func isLeap(y int) bool { return y%4 == 0 && (y%100 != 0 || y%400 == 0) }

func yearLen(y int) int {
	if isLeap(y) {
		return 366
	}
	return 365
}

var monthDays = [13]int{0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}

func daysIn(y, m int) int {
	if m == 2 && isLeap(y) {
		return 29
	}
	return monthDays[m]
}

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
