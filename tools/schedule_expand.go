package tools

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/precisiond/precisiond/internal/schedule"
	"github.com/precisiond/precisiond/internal/tzdb"
)

type scheduleInput struct {
	Syntax      string  `json:"syntax"`
	Expression  string  `json:"expression"`
	Start       string  `json:"start"`
	Timezone    string  `json:"timezone"`
	Count       int     `json:"count"`
	Until       *string `json:"until"`
	Nonexistent string  `json:"nonexistent"`
	Ambiguous   string  `json:"ambiguous"`
}

type scheduleOccurrence struct {
	Local     string `json:"local"`
	UTC       string `json:"utc"`
	UTCOffset string `json:"utc_offset"`
}

type scheduleFacts struct {
	Occurrences   []scheduleOccurrence `json:"occurrences"`
	Count         int                  `json:"count"`
	Exhausted     bool                 `json:"exhausted"`
	TzdataVersion string               `json:"tzdata_version"`
}

// scheduleExpand is schedule_expand (issue 31): the occurrences of a cron
// expression (Vixie/cronie) or an RFC 5545 RRULE (python-dateutil's
// semantics), computed as naive wall times and placed in an IANA zone of the
// embedded tzdb as zoneinfo places them; see internal/schedule.
func scheduleExpand() Tool {
	return Define(Def[scheduleInput, scheduleFacts]{
		Name: "schedule_expand",
		Run: func(_ context.Context, in scheduleInput) (scheduleFacts, []Warning, error) {
			start, err := schedule.ParseWall(in.Start)
			if err != nil {
				return scheduleFacts{}, nil, err
			}
			z, err := tzdb.Lookup(in.Timezone)
			if err != nil {
				e := Fail("unknown_timezone", "%v", err)
				var uz *tzdb.UnknownZoneError
				if errors.As(err, &uz) {
					withHints(e, "/timezone", uz.Suggestions...)
				}
				return scheduleFacts{}, nil, e
			}
			opt := schedule.Options{Start: start, Zone: z, Count: in.Count, Nonexistent: in.Nonexistent, Ambiguous: in.Ambiguous}
			if in.Until != nil {
				u, err := schedule.ParseWall(*in.Until)
				if err != nil {
					return scheduleFacts{}, nil, err
				}
				opt.Until = &u
			}
			res, err := schedule.Expand(in.Syntax, in.Expression, opt)
			if err != nil {
				return scheduleFacts{}, nil, err
			}
			out := scheduleFacts{Occurrences: make([]scheduleOccurrence, len(res.Occurrences)), Count: len(res.Occurrences),
				Exhausted: res.Exhausted, TzdataVersion: tzdb.Version()}
			for i, o := range res.Occurrences {
				out.Occurrences[i] = scheduleOccurrence{
					Local:     time.Unix(o.Unix+int64(o.Offset), 0).UTC().Format("2006-01-02T15:04:05") + schedule.FormatISOOffset(o.Offset),
					UTC:       time.Unix(o.Unix, 0).UTC().Format("2006-01-02T15:04:05Z"),
					UTCOffset: schedule.FormatOffset(o.Offset),
				}
			}
			return out, nil, nil
		},
		Legacy: func(in scheduleInput, out scheduleFacts) string {
			var b strings.Builder
			b.WriteString(in.Syntax + " " + strconv.Quote(in.Expression) + " in " + in.Timezone + ": " + strconv.Itoa(out.Count) + " occurrence(s)")
			if out.Exhausted {
				b.WriteString(" (the rule has no more)")
			}
			for _, o := range out.Occurrences {
				b.WriteString("\n" + o.Local)
			}
			return b.String()
		},
		ArgHints:  map[string]func(string) []string{"timezone": zoneHints},
		Canonical: canonicalZones("timezone"),
	})
}
