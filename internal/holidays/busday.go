package holidays

import (
	"errors"
	"fmt"

	"github.com/precisiond/precisiond/internal/calendar"
)

// ErrNoBusinessDays: the weekend covers all seven weekdays (numpy refuses a
// weekmask of all zeros).
var ErrNoBusinessDays = errors.New("no business days")

// Week is a business-day calendar: a Set's holidays and a weekend.
type Week struct {
	set     *Set
	weekend [8]bool // by ISO weekday
	first   int64   // first covered day (1 January of set.From())
	last    int64   // last covered day (31 December of set.To())
	years   map[int]bool
	holiday map[int64]bool
}

// NewWeek is the business-day calendar of s with the given weekend (ISO
// weekday numbers 1..7; repeats allowed); ErrNoBusinessDays when it
// covers every weekday.
func NewWeek(s *Set, weekend []int) (*Week, error) {
	w := &Week{set: s, years: map[int]bool{}, holiday: map[int64]bool{}}
	n := 0
	for _, d := range weekend {
		if d < 1 || d > 7 {
			return nil, fmt.Errorf("weekday %d outside 1..7", d)
		}
		if !w.weekend[d] {
			n++
		}
		w.weekend[d] = true
	}
	if n == 7 {
		return nil, fmt.Errorf("%w: the weekend %v covers every weekday", ErrNoBusinessDays, weekend)
	}
	f, _ := calendar.NewDate(s.From(), 1, 1)
	l, _ := calendar.NewDate(s.To(), 12, 31)
	w.first, w.last = f.Days(), l.Days()
	return w, nil
}

// check refuses a date outside the covered years.
func (w *Week) check(d calendar.Date, what string) error {
	if n := d.Days(); n < w.first || n > w.last {
		return fmt.Errorf("%w: %s %s is outside %s", ErrYearRange, what, d, w.covered())
	}
	return nil
}

// covered names the covered days and, when they end before MaxYear, why.
func (w *Week) covered() string {
	where := w.set.Country
	if w.set.Subdivision != "" {
		where += "-" + w.set.Subdivision
	}
	msg := fmt.Sprintf("%d-01-01..%d-12-31, the years the rules of %s cover", w.set.From(), w.set.To(), where)
	if w.set.To() < MaxYear {
		msg += " (" + w.set.ToReason() + ")"
	}
	return msg
}

func (w *Week) isHoliday(n int64) bool {
	d, _ := calendar.FromDays(n)
	if !w.years[d.Year] {
		w.years[d.Year] = true
		hs, _ := w.set.Year(d.Year) // the callers keep n within the covered years
		for _, h := range hs {
			w.holiday[h.Date.Days()] = true
		}
	}
	return w.holiday[n]
}

func (w *Week) business(n int64) bool {
	return !w.weekend[weekdayOf(n)] && !w.isHoliday(n)
}

// IsBusinessDay says whether d is a business day.
func (w *Week) IsBusinessDay(d calendar.Date) (bool, error) {
	if err := w.check(d, "date"); err != nil {
		return false, err
	}
	return w.business(d.Days()), nil
}

// Offset is numpy.busday_offset(d, days, roll="forward"): d rolled forward
// to a business day, then moved days business days (back when negative).
// A walk that leaves the covered years is refused with ErrYearRange; the
// walk is at most the covered span long, checked before it starts.
func (w *Week) Offset(d calendar.Date, days int64) (calendar.Date, error) {
	if err := w.check(d, "date"); err != nil {
		return calendar.Date{}, err
	}
	span := w.last - w.first + 1
	if days > span || -days > span {
		return calendar.Date{}, fmt.Errorf("%w: %d business days from %s leave %s", ErrYearRange, days, d, w.covered())
	}
	n := d.Days()
	out := func() (calendar.Date, error) {
		return calendar.Date{}, fmt.Errorf("%w: %d business days from %s leave %s", ErrYearRange, days, d, w.covered())
	}
	for !w.business(n) {
		if n++; n > w.last {
			return out()
		}
	}
	step := int64(1)
	if days < 0 {
		step, days = -1, -days
	}
	for ; days > 0; days-- {
		for {
			n += step
			if n < w.first || n > w.last {
				return out()
			}
			if w.business(n) {
				break
			}
		}
	}
	return calendar.FromDays(n)
}

// Count is numpy.busday_count(start, end): the business days in
// [start, end), or minus those in [end, start) when end < start.
func (w *Week) Count(start, end calendar.Date) (int64, error) {
	if err := w.check(start, "start"); err != nil {
		return 0, err
	}
	if err := w.check(end, "end"); err != nil {
		return 0, err
	}
	a, b, sign := start.Days(), end.Days(), int64(1)
	if b < a {
		a, b, sign = b, a, -1
	}
	var c int64
	for n := a; n < b; n++ {
		if w.business(n) {
			c++
		}
	}
	return sign * c, nil
}

// Names lists the holidays on d (substitutes marked " (observed)"), in the
// order Year lists them; empty when d is no holiday.
func (w *Week) Names(d calendar.Date) ([]string, error) {
	if err := w.check(d, "date"); err != nil {
		return nil, err
	}
	hs, err := w.set.Year(d.Year)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, h := range hs {
		if h.Date == d {
			n := h.Name
			if h.Observed {
				n += " (observed)"
			}
			out = append(out, n)
		}
	}
	return out, nil
}
