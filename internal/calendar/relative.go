package calendar

import "fmt"

// AddRelative applies a relative delta the way python-dateutil's relativedelta
// does for whole days: first years and months are added (the day clamped to the
// last day of the resulting month: 2024-01-31 + 1 month = 2024-02-29), then
// weeks×7 + days are added as plain days. Negative amounts move backwards. It
// returns ErrRange when an intermediate or the final date leaves years 1..9999.
func AddRelative(d Date, years, months, weeks, days int64) (Date, error) {
	const lim = 1 << 40 // far beyond any date; keeps the products below from overflowing
	if abs(years) > lim || abs(months) > lim || abs(weeks) > lim || abs(days) > lim {
		return Date{}, fmt.Errorf("%w: amount too large", ErrRange)
	}
	total := int64(d.Year)*12 + int64(d.Month-1) + years*12 + months
	y := floorDiv(total, 12)
	m := int(total-y*12) + 1
	if y < MinYear || y > MaxYear {
		return Date{}, fmt.Errorf("%w: year %d", ErrRange, y)
	}
	day := d.Day
	if dim := DaysInMonth(int(y), m); day > dim {
		day = dim
	}
	mid := Date{int(y), m, day}
	return mid.AddDays(weeks*7 + days)
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// Delta is the calendar difference between two dates, as dateutil's
// relativedelta(end, start) computes it for start <= end.
type Delta struct {
	Start, End         Date
	Years, Months, Day int
	TotalDays          int64
}

// Diff returns the delta between a and b in either order: Start is the earlier
// date, End the later. Years and months are the largest whole number of months
// m such that Start + m months (day clamped) does not pass End; Day is what
// remains (2024-01-31 → 2024-03-01 is 1 month and 1 day, 30 days in total).
func Diff(a, b Date) Delta {
	start, end := a, b
	if end.Days() < start.Days() {
		start, end = end, start
	}
	months := (end.Year-start.Year)*12 + (end.Month - start.Month)
	var mid Date
	for {
		m, err := AddRelative(start, 0, int64(months), 0, 0)
		if err == nil && m.Days() <= end.Days() {
			mid = m
			break
		}
		months--
	}
	return Delta{
		Start:     start,
		End:       end,
		Years:     months / 12,
		Months:    months % 12,
		Day:       int(end.Days() - mid.Days()),
		TotalDays: end.Days() - start.Days(),
	}
}

// BusinessDays counts Monday–Friday dates in [start, end): start inclusive, end
// exclusive; 0 when end <= start.
func BusinessDays(start, end Date) int64 {
	n := end.Days() - start.Days()
	if n <= 0 {
		return 0
	}
	full := n / 7
	count := full * 5
	w := start.Weekday() // 1..7
	for i := int64(0); i < n%7; i++ {
		if (w-1+int(i))%7 < 5 {
			count++
		}
	}
	return count
}
