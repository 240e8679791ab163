package tools

import (
	"context"

	"github.com/precisiond/precisiond/internal/calendar"
)

type calendarFactsInput struct {
	DateStr string `json:"date_str"`
	Locale  string `json:"locale"`
}

func calendarFacts() Tool {
	return Define(Def[calendarFactsInput, calendar.CalendarFacts]{
		Name: "calendar_facts",
		Run: func(ctx context.Context, in calendarFactsInput) (calendar.CalendarFacts, []Warning, error) {
			d, err := parseDate(in.DateStr)
			if err != nil {
				return calendar.CalendarFacts{}, nil, err
			}
			f, err := calendar.FactsOf(d, in.Locale)
			return f, nil, calendarError(err, "invalid_date")
		},
	})
}
