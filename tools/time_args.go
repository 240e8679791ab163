package tools

import (
	"errors"

	"github.com/precisiond/precisiond/internal/calendar"
	"github.com/precisiond/precisiond/internal/tzdb"
)

// parseDate reads a tool's date argument (YYYY-MM-DD); a malformed or
// impossible date is refused with reason invalid_date.
func parseDate(s string) (calendar.Date, error) {
	d, err := calendar.ParseDate(s)
	return d, calendarError(err, "invalid_date")
}

// calendarError turns an error of internal/calendar or internal/tzdb into the
// tool's typed error. invalid names the reason for malformed or impossible input
// ("invalid_date" or "invalid_datetime"); anything unrecognised stays an internal
// error.
func calendarError(err error, invalid string) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, calendar.ErrGap):
		return Fail("nonexistent_local_time_gap", "%v", err)
	case errors.Is(err, calendar.ErrAmbiguous):
		return Fail("ambiguous_local_time_fold_required", "%v", err)
	case errors.Is(err, calendar.ErrYearRange):
		return Fail("year_out_of_range", "%v", err)
	case errors.Is(err, tzdb.ErrUnknownZone):
		e := Fail("unknown_timezone", "%v", err)
		var uz *tzdb.UnknownZoneError
		if errors.As(err, &uz) {
			// time_facts has one zone argument; timezone_convert says which.
			path := "/timezone_name"
			var ze *calendar.ZoneError
			if errors.As(err, &ze) {
				path = "/" + ze.Arg + "_timezone"
			}
			withHints(e, path, uz.Suggestions...)
		}
		return e
	case errors.Is(err, calendar.ErrLocale):
		return Fail("unsupported_locale", "%v", err)
	case errors.Is(err, calendar.ErrSyntax), errors.Is(err, calendar.ErrInvalid), errors.Is(err, calendar.ErrRange):
		return Fail(invalid, "%v", err)
	}
	return err
}

// zoneHints is the ArgHints function of a zone argument that the schema
// refused (the reference's pattern admits no colon and no leading sign): the
// name tzdb.Lookup gives the zone the value spells, which the pattern admits
// ("+05:30" and "UTC+5:30" → UTC+0530), else Lookup's nearest ids.
func zoneHints(value string) []string {
	z, err := tzdb.Lookup(value)
	if err == nil {
		return []string{z.Name()}
	}
	var uz *tzdb.UnknownZoneError
	if errors.As(err, &uz) {
		return uz.Suggestions
	}
	return nil
}

// canonicalZones is a Def.Canonical for the zone arguments named by fields: a
// zone the release knows under another spelling (an id in another case, a
// fixed offset as UTC+5) becomes the name tzdb.Lookup reports (Europe/Berlin,
// UTC+0500), so every spelling of one zone has the same input_normalized and
// result_hash. An exact id (every name the reference answers) stays as it is,
// and so does a name Lookup refuses, for the tool to refuse with hints.
func canonicalZones(fields ...string) func(map[string]any) {
	return func(args map[string]any) {
		for _, f := range fields {
			if name, ok := args[f].(string); ok {
				if z, err := tzdb.Lookup(name); err == nil {
					args[f] = z.Name()
				}
			}
		}
	}
}
