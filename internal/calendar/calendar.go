// Package calendar is the proleptic-Gregorian calendar core shared by precisiond's
// date and time tools: strict parsing of dates and date-times, day arithmetic,
// ISO 8601 weeks, dateutil-style relative deltas and localized names.
//
// Dates cover years 1 to 9999, the range of Python's datetime.date, so that every
// answer can be checked against the Python oracle.
package calendar

import (
	"errors"
	"fmt"
)

// MinYear and MaxYear bound every Date (Python's date.min and date.max years).
const (
	MinYear = 1
	MaxYear = 9999
)

// Errors returned by the parsers and the arithmetic.
var (
	// ErrSyntax: the text does not have the required shape.
	ErrSyntax = errors.New("malformed date")
	// ErrInvalid: the shape is right but the fields do not name a real date or time
	// (2023-02-29, month 13, hour 24, offset minutes 60).
	ErrInvalid = errors.New("invalid date")
	// ErrRange: a result falls outside years 1..9999.
	ErrRange = errors.New("date out of range")
)

// Date is a proleptic-Gregorian calendar date.
type Date struct {
	Year, Month, Day int
}

// IsLeap reports whether y is a Gregorian leap year.
func IsLeap(y int) bool { return y%4 == 0 && (y%100 != 0 || y%400 == 0) }

// DaysInYear is 366 for leap years, else 365.
func DaysInYear(y int) int {
	if IsLeap(y) {
		return 366
	}
	return 365
}

var monthDays = [13]int{0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}

// DaysInMonth is the number of days of month m (1..12) of year y.
func DaysInMonth(y, m int) int {
	if m == 2 && IsLeap(y) {
		return 29
	}
	return monthDays[m]
}

// NewDate checks the fields and returns the date; ErrInvalid or ErrRange.
func NewDate(y, m, d int) (Date, error) {
	if y < MinYear || y > MaxYear {
		return Date{}, fmt.Errorf("%w: year %d outside %d..%d", ErrRange, y, MinYear, MaxYear)
	}
	if m < 1 || m > 12 {
		return Date{}, fmt.Errorf("%w: month %d", ErrInvalid, m)
	}
	if d < 1 || d > DaysInMonth(y, m) {
		return Date{}, fmt.Errorf("%w: day %d of %04d-%02d", ErrInvalid, d, y, m)
	}
	return Date{y, m, d}, nil
}

// String renders YYYY-MM-DD.
func (d Date) String() string { return fmt.Sprintf("%04d-%02d-%02d", d.Year, d.Month, d.Day) }

// Days is the number of days since 1970-01-01 (negative before).
func (d Date) Days() int64 {
	// Count from 0000-03-01 so that the leap day ends each 4/100/400-year cycle.
	y := int64(d.Year)
	m := int64(d.Month)
	if m <= 2 {
		y--
		m += 12
	}
	era := floorDiv(y, 400)
	yoe := y - era*400                        // 0..399
	doy := (153*(m-3)+2)/5 + int64(d.Day) - 1 // 0..365, March-based
	doe := yoe*365 + yoe/4 - yoe/100 + doy    // 0..146096
	return era*146097 + doe - 719468          // 719468 = days 0000-03-01..1970-01-01
}

// FromDays is the inverse of Days; ErrRange outside years 1..9999.
func FromDays(n int64) (Date, error) {
	if n < minDays || n > maxDays {
		return Date{}, fmt.Errorf("%w: day number %d", ErrRange, n)
	}
	return fromDays(n), nil
}

var (
	minDays = Date{MinYear, 1, 1}.Days()
	maxDays = Date{MaxYear, 12, 31}.Days()
)

// DateOfDays is the proleptic Gregorian date n days from 1970-01-01 for any
// n, without FromDays' bounds (callers that keep their own).
func DateOfDays(n int64) Date { return fromDays(n) }

func fromDays(n int64) Date {
	z := n + 719468
	era := floorDiv(z, 146097)
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	day := doy - (153*mp+2)/5 + 1
	month := mp + 3
	if month > 12 {
		month -= 12
	}
	year := yoe + era*400
	if month <= 2 {
		year++
	}
	return Date{int(year), int(month), int(day)}
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// Weekday is the ISO weekday: 1 = Monday … 7 = Sunday.
func (d Date) Weekday() int {
	// 1970-01-01 was a Thursday (4).
	w := (d.Days()+3)%7 + 1
	if w <= 0 {
		w += 7
	}
	return int(w)
}

// YearDay is the day of the year, 1..366.
func (d Date) YearDay() int {
	return int(d.Days()-Date{d.Year, 1, 1}.Days()) + 1
}

// Quarter is 1..4.
func (d Date) Quarter() int { return (d.Month-1)/3 + 1 }

// ISOWeeksInYear is 52 or 53: the number of ISO weeks of ISO year y.
func ISOWeeksInYear(y int) int {
	p := func(y int) int { return (y + y/4 - y/100 + y/400) % 7 }
	if p(y) == 4 || p(y-1) == 3 {
		return 53
	}
	return 52
}

// ISOWeek returns the ISO 8601 week-numbering year and week (1..53).
func (d Date) ISOWeek() (year, week int) {
	year = d.Year
	week = (d.YearDay() - d.Weekday() + 10) / 7
	if week < 1 {
		year--
		week = ISOWeeksInYear(year)
	} else if week > ISOWeeksInYear(year) {
		year++
		week = 1
	}
	return year, week
}

// AddDays returns d + n days; ErrRange outside years 1..9999.
func (d Date) AddDays(n int64) (Date, error) {
	base := d.Days()
	if (n > 0 && base > maxDays-n) || (n < 0 && base < minDays-n) {
		return Date{}, fmt.Errorf("%w: %s %+d days", ErrRange, d, n)
	}
	return fromDays(base + n), nil
}
