package tools

import (
	"context"
	"fmt"

	"github.com/precisiond/precisiond/internal/calendar"
)

type dayOfWeekInput struct {
	DateStr string `json:"date_str"`
}

type dayOfWeekFacts struct {
	Date        string `json:"date"`
	WeekdayISO  int    `json:"weekday_iso"`
	WeekdayName string `json:"weekday_name"`
	ISOWeek     int    `json:"iso_week"`
	DayOfYear   int    `json:"day_of_year"`
	Year        int    `json:"year"`
}

func dayOfWeek() Tool {
	return Define(Def[dayOfWeekInput, dayOfWeekFacts]{
		Name: "day_of_week",
		Run: func(ctx context.Context, in dayOfWeekInput) (dayOfWeekFacts, []Warning, error) {
			d, err := parseDate(in.DateStr)
			if err != nil {
				return dayOfWeekFacts{}, nil, err
			}
			f, err := calendar.FactsOf(d, "en")
			if err != nil {
				return dayOfWeekFacts{}, nil, err
			}
			return dayOfWeekFacts{Date: f.Date, WeekdayISO: f.WeekdayISO, WeekdayName: f.WeekdayName,
				ISOWeek: f.ISOWeek, DayOfYear: f.DayOfYear, Year: f.Year}, nil, nil
		},
		Legacy: func(_ dayOfWeekInput, f dayOfWeekFacts) string {
			return fmt.Sprintf("%s is a %s (ISO week %d, day %d of %d)", f.Date, f.WeekdayName, f.ISOWeek, f.DayOfYear, f.Year)
		},
	})
}
