package tools

import (
	"context"
	"fmt"

	"github.com/precisiond/precisiond/internal/calendar"
)

type dateAddInput struct {
	BaseDate string `json:"base_date"`
	Days     int64  `json:"days"`
	Months   int64  `json:"months"`
	Years    int64  `json:"years"`
	Weeks    int64  `json:"weeks"`
}

type dateAddFacts struct {
	BaseDate    string `json:"base_date"`
	Years       int64  `json:"years"`
	Months      int64  `json:"months"`
	Weeks       int64  `json:"weeks"`
	Days        int64  `json:"days"`
	ResultDate  string `json:"result_date"`
	WeekdayISO  int    `json:"weekday_iso"`
	WeekdayName string `json:"weekday_name"`
	TotalDays   int64  `json:"total_days"`
}

func dateAdd() Tool {
	return Define(Def[dateAddInput, dateAddFacts]{
		Name: "date_add",
		Run: func(ctx context.Context, in dateAddInput) (dateAddFacts, []Warning, error) {
			base, err := parseDate(in.BaseDate)
			if err != nil {
				return dateAddFacts{}, nil, err
			}
			r, err := calendar.AddRelative(base, in.Years, in.Months, in.Weeks, in.Days)
			if err != nil {
				return dateAddFacts{}, nil, calendarError(err, "date_out_of_range")
			}
			w := r.Weekday()
			return dateAddFacts{
				BaseDate: base.String(), Years: in.Years, Months: in.Months, Weeks: in.Weeks, Days: in.Days,
				ResultDate: r.String(), WeekdayISO: w, WeekdayName: calendar.WeekdayName("en", w),
				TotalDays: r.Days() - base.Days(),
			}, nil, nil
		},
		Legacy: func(in dateAddInput, f dateAddFacts) string {
			return fmt.Sprintf("%s %+d years %+d months %+d weeks %+d days = %s (%s)",
				f.BaseDate, f.Years, f.Months, f.Weeks, f.Days, f.ResultDate, f.WeekdayName)
		},
	})
}
