package tools

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/precisiond/precisiond/internal/calendar"
	"github.com/precisiond/precisiond/internal/holidays"
)

// bizInput is business_calendar's arguments; the schema requires each
// operation's arguments and bounds days, year and weekend.
type bizInput struct {
	Operation   string  `json:"operation"`
	Country     string  `json:"country"`
	Subdivision *string `json:"subdivision"`
	Date        *string `json:"date"`
	Start       *string `json:"start"`
	End         *string `json:"end"`
	Days        *int64  `json:"days"`
	Year        *int    `json:"year"`
	Weekend     []int   `json:"weekend"`
}

// bizFacts is a map so that the nullable facts (subdivision, reason,
// holiday_name) are present as null, and each operation has only its own.
type bizFacts map[string]any

// businessCalendar is business_calendar (issue 32): business days and
// public holidays from the rules of internal/holidays.
func businessCalendar() Tool {
	return Define(Def[bizInput, bizFacts]{
		Name: "business_calendar",
		Run: func(_ context.Context, in bizInput) (bizFacts, []Warning, error) {
			f, err := runBusiness(in)
			return f, nil, err
		},
		Legacy: bizText,
	})
}

func runBusiness(in bizInput) (bizFacts, error) {
	sub := ""
	if in.Subdivision != nil {
		sub = *in.Subdivision
	}
	set, err := holidays.Lookup(in.Country, sub)
	if err != nil {
		return nil, holidayError(err)
	}
	f := bizFacts{"country": in.Country, "subdivision": nil}
	if sub != "" {
		f["subdivision"] = sub
	}
	if in.Operation == "holidays" {
		if in.Year == nil {
			return nil, Fail("missing_argument", "holidays needs year")
		}
		hs, err := set.Year(*in.Year)
		if err != nil {
			return nil, holidayError(err)
		}
		list := make([]any, len(hs))
		for i, h := range hs {
			list[i] = map[string]any{"date": h.Date.String(), "name": h.Name, "observed": h.Observed}
		}
		f["year"], f["holidays"] = *in.Year, list
		return f, nil
	}
	weekend := []int{6, 7}
	if in.Weekend != nil {
		weekend = slices.Clone(in.Weekend)
		slices.Sort(weekend)
		weekend = slices.Compact(weekend)
	}
	week, err := holidays.NewWeek(set, weekend)
	if err != nil {
		return nil, holidayError(err)
	}
	f["weekend"] = weekend
	date := func(name string, s *string) (calendar.Date, error) {
		if s == nil {
			return calendar.Date{}, Fail("missing_argument", "%s needs %s", in.Operation, name)
		}
		d, err := calendar.ParseDate(*s)
		if err != nil {
			return calendar.Date{}, Fail("invalid_date", "%s: %v", name, err)
		}
		return d, nil
	}
	switch in.Operation {
	case "is_business_day":
		d, err := date("date", in.Date)
		if err != nil {
			return nil, err
		}
		names, err := week.Names(d)
		if err != nil {
			return nil, holidayError(err)
		}
		ok, _ := week.IsBusinessDay(d)
		f["date"], f["business_day"], f["reason"], f["holiday_name"] = d.String(), ok, nil, nil
		switch {
		case len(names) > 0:
			f["reason"], f["holiday_name"] = "holiday", strings.Join(names, "; ")
		case !ok:
			f["reason"] = "weekend"
		}
		return f, nil
	case "add_business_days":
		d, err := date("date", in.Date)
		if err != nil {
			return nil, err
		}
		if in.Days == nil {
			return nil, Fail("missing_argument", "add_business_days needs days")
		}
		r, err := week.Offset(d, *in.Days)
		if err != nil {
			return nil, holidayError(err)
		}
		f["date"], f["days"], f["result"] = d.String(), *in.Days, r.String()
		return f, nil
	case "business_days_between":
		s, err := date("start", in.Start)
		if err != nil {
			return nil, err
		}
		e, err := date("end", in.End)
		if err != nil {
			return nil, err
		}
		n, err := week.Count(s, e)
		if err != nil {
			return nil, holidayError(err)
		}
		f["start"], f["end"], f["business_days"] = s.String(), e.String(), n
		return f, nil
	}
	return nil, Fail("unknown_operation", "unknown operation %q", in.Operation)
}

// holidayError maps an internal/holidays error to the tool's reason, with
// did-you-mean hints for an unknown country or subdivision.
func holidayError(err error) error {
	var le *holidays.LookupError
	switch {
	case errors.As(err, &le) && errors.Is(err, holidays.ErrUnknownCountry):
		return withHints(Fail("unknown_country", "%v", err), "/country", le.Suggestions...)
	case errors.As(err, &le):
		return withHints(Fail("unknown_subdivision", "%v", err), "/subdivision", le.Suggestions...)
	case errors.Is(err, holidays.ErrSubdivisionRequired):
		return Fail("subdivision_required", "%v", err)
	case errors.Is(err, holidays.ErrYearRange):
		return Fail("year_out_of_range", "%v", err)
	case errors.Is(err, holidays.ErrNoBusinessDays):
		return Fail("no_business_days", "%v", err)
	}
	return err
}

func bizText(in bizInput, f bizFacts) string {
	where := in.Country
	if s, ok := f["subdivision"].(string); ok {
		where += "-" + s
	}
	switch in.Operation {
	case "is_business_day":
		verdict := "a business day"
		if f["business_day"] != true {
			verdict = "not a business day"
			if n, ok := f["holiday_name"].(string); ok {
				verdict += " (holiday: " + n + ")"
			} else {
				verdict += " (weekend)"
			}
		}
		return fmt.Sprintf("%s is %s in %s", f["date"], verdict, where)
	case "add_business_days":
		var days int64
		if in.Days != nil {
			days = *in.Days
		}
		return fmt.Sprintf("%s %+d business days in %s = %s", f["date"], days, where, f["result"])
	case "business_days_between":
		return fmt.Sprintf("%v business days in %s from %s (included) to %s (excluded)", f["business_days"], where, f["start"], f["end"])
	case "holidays":
		list, _ := f["holidays"].([]any)
		lines := []string{fmt.Sprintf("%d public holidays of %s in %v:", len(list), where, f["year"])}
		for _, h := range list {
			m := h.(map[string]any)
			line := fmt.Sprintf("%s %s", m["date"], m["name"])
			if m["observed"] == true {
				line += " (observed)"
			}
			lines = append(lines, line)
		}
		return strings.Join(lines, "\n")
	}
	return where
}
