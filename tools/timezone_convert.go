package tools

import (
	"context"

	"github.com/precisiond/precisiond/internal/calendar"
)

type timezoneConvertInput struct {
	LocalDatetime string `json:"local_datetime"`
	FromTimezone  string `json:"from_timezone"`
	ToTimezone    string `json:"to_timezone"`
	Fold          *int   `json:"fold"`
	Locale        string `json:"locale"`
}

func timezoneConvert() Tool {
	return Define(Def[timezoneConvertInput, calendar.ConvertFacts]{
		Name: "timezone_convert",
		Run: func(ctx context.Context, in timezoneConvertInput) (calendar.ConvertFacts, []Warning, error) {
			f, err := calendar.Convert(in.LocalDatetime, in.FromTimezone, in.ToTimezone, in.Fold, in.Locale)
			return f, nil, calendarError(err, "invalid_datetime")
		},
		ArgHints:  map[string]func(string) []string{"from_timezone": zoneHints, "to_timezone": zoneHints},
		Canonical: canonicalZones("from_timezone", "to_timezone"),
	})
}
