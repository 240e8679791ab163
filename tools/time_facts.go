package tools

import (
	"context"

	"github.com/precisiond/precisiond/internal/calendar"
)

type timeFactsInput struct {
	Instant      string `json:"instant"`
	TimezoneName string `json:"timezone_name"`
	Locale       string `json:"locale"`
}

func timeFacts() Tool {
	return Define(Def[timeFactsInput, calendar.TimeFacts]{
		Name: "time_facts",
		Run: func(ctx context.Context, in timeFactsInput) (calendar.TimeFacts, []Warning, error) {
			f, err := calendar.InstantFacts(in.Instant, in.TimezoneName, in.Locale)
			return f, nil, calendarError(err, "invalid_datetime")
		},
		ArgHints:  map[string]func(string) []string{"timezone_name": zoneHints},
		Canonical: canonicalZones("timezone_name"),
	})
}
