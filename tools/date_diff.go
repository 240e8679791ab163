package tools

import (
	"context"
	"fmt"

	"github.com/precisiond/precisiond/internal/calendar"
)

type dateDiffInput struct {
	Date1 string `json:"date1"`
	Date2 string `json:"date2"`
}

type dateDiffFacts struct {
	Start         string `json:"start"`
	End           string `json:"end"`
	TotalDays     int64  `json:"total_days"`
	Years         int    `json:"years"`
	Months        int    `json:"months"`
	Days          int    `json:"days"`
	TotalWeeks    int64  `json:"total_weeks"`
	RemainderDays int64  `json:"remainder_days"`
	BusinessDays  int64  `json:"business_days"`
}

func dateDiff() Tool {
	return Define(Def[dateDiffInput, dateDiffFacts]{
		Name: "date_diff",
		Run: func(ctx context.Context, in dateDiffInput) (dateDiffFacts, []Warning, error) {
			a, err := parseDate(in.Date1)
			if err != nil {
				return dateDiffFacts{}, nil, err
			}
			b, err := parseDate(in.Date2)
			if err != nil {
				return dateDiffFacts{}, nil, err
			}
			d := calendar.Diff(a, b)
			return dateDiffFacts{
				Start: d.Start.String(), End: d.End.String(), TotalDays: d.TotalDays,
				Years: d.Years, Months: d.Months, Days: d.Day,
				TotalWeeks: d.TotalDays / 7, RemainderDays: d.TotalDays % 7,
				BusinessDays: calendar.BusinessDays(d.Start, d.End),
			}, nil, nil
		},
		Legacy: func(_ dateDiffInput, f dateDiffFacts) string {
			return fmt.Sprintf("From %s to %s: %d days (%d years, %d months, %d days; %d weeks and %d days; %d business days)",
				f.Start, f.End, f.TotalDays, f.Years, f.Months, f.Days, f.TotalWeeks, f.RemainderDays, f.BusinessDays)
		},
	})
}
