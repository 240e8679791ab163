package calendar

import (
	"errors"
	"fmt"

	"github.com/precisiond/precisiond/internal/tzdb"
)

// CalendarFacts are the facts of the calendar_facts tool (17 keys, wire-compatible).
type CalendarFacts struct {
	CalendarSystem string `json:"calendar_system"`
	Date           string `json:"date"`
	Day            int    `json:"day"`
	DayOfYear      int    `json:"day_of_year"`
	DaysInMonth    int    `json:"days_in_month"`
	DaysInYear     int    `json:"days_in_year"`
	IsLeapYear     bool   `json:"is_leap_year"`
	IsWeekend      bool   `json:"is_weekend"`
	ISOWeek        int    `json:"iso_week"`
	ISOWeekYear    int    `json:"iso_week_year"`
	Locale         string `json:"locale"`
	Month          int    `json:"month"`
	MonthName      string `json:"month_name"`
	Quarter        int    `json:"quarter"`
	WeekdayISO     int    `json:"weekday_iso"`
	WeekdayName    string `json:"weekday_name"`
	Year           int    `json:"year"`
}

// ErrLocale: the locale is not one of Locales().
var ErrLocale = errors.New("unsupported locale")

// FactsOf computes the calendar facts of d in locale loc (ErrLocale when unknown).
func FactsOf(d Date, loc string) (CalendarFacts, error) {
	if err := checkLocale(loc); err != nil {
		return CalendarFacts{}, err
	}
	wy, ww := d.ISOWeek()
	wd := d.Weekday()
	return CalendarFacts{
		CalendarSystem: "proleptic_gregorian",
		Date:           d.String(),
		Day:            d.Day,
		DayOfYear:      d.YearDay(),
		DaysInMonth:    DaysInMonth(d.Year, d.Month),
		DaysInYear:     DaysInYear(d.Year),
		IsLeapYear:     IsLeap(d.Year),
		IsWeekend:      wd >= 6,
		ISOWeek:        ww,
		ISOWeekYear:    wy,
		Locale:         loc,
		Month:          d.Month,
		MonthName:      MonthName(loc, d.Month),
		Quarter:        d.Quarter(),
		WeekdayISO:     wd,
		WeekdayName:    WeekdayName(loc, wd),
		Year:           d.Year,
	}, nil
}

// Year range of the zone-aware tools (time_facts, timezone_convert).
const (
	ZonedYearMin = 1900
	ZonedYearMax = 2100
)

// Errors of the zone-aware functions, besides ErrSyntax, ErrInvalid, ErrLocale and
// tzdb.ErrUnknownZone.
var (
	// ErrYearRange: a year outside ZonedYearMin..ZonedYearMax.
	ErrYearRange = errors.New("year out of range")
	// ErrGap: the local time does not exist (clocks were set forward).
	ErrGap = errors.New("nonexistent local time")
	// ErrAmbiguous: the local time occurs twice and no fold was given.
	ErrAmbiguous = errors.New("ambiguous local time")
)

// TimeFacts are the facts of the time_facts tool (18 keys, wire-compatible).
type TimeFacts struct {
	InputInstant     string `json:"input_instant"`
	UTCInstant       string `json:"utc_instant"`
	AsOf             string `json:"as_of"`
	Timezone         string `json:"timezone"`
	LocalDatetime    string `json:"local_datetime"`
	UTCOffset        string `json:"utc_offset"`
	UTCOffsetSeconds int    `json:"utc_offset_seconds"`
	Abbreviation     string `json:"timezone_abbreviation"`
	IsDST            bool   `json:"is_dst"`
	Fold             int    `json:"fold"`
	TzdataVersion    string `json:"tzdata_version"`
	Date             string `json:"date"`
	Time             string `json:"time"`
	WeekdayISO       int    `json:"weekday_iso"`
	WeekdayName      string `json:"weekday_name"`
	ISOWeek          int    `json:"iso_week"`
	ISOWeekYear      int    `json:"iso_week_year"`
	Locale           string `json:"locale"`
}

// ZoneError says which zone of a conversion ("from" or "to") could not be
// found; Err is the tzdb error (a *tzdb.UnknownZoneError for an unknown name).
type ZoneError struct {
	Arg string
	Err error
}

func (e *ZoneError) Error() string { return e.Arg + " zone: " + e.Err.Error() }

// Unwrap returns Err.
func (e *ZoneError) Unwrap() error { return e.Err }

// checkLocale returns ErrLocale, naming loc, unless loc is one of Locales().
func checkLocale(loc string) error {
	if !KnownLocale(loc) {
		return fmt.Errorf("%w: %q", ErrLocale, loc)
	}
	return nil
}

func checkZonedYear(y int, what string) error {
	if y < ZonedYearMin || y > ZonedYearMax {
		return fmt.Errorf("%w: %s year %d outside %d..%d", ErrYearRange, what, y, ZonedYearMin, ZonedYearMax)
	}
	return nil
}

func isoAt(wall DateTime, off int) string { return wall.String() + FormatOffset(off) }

// InstantFacts describes the instant s (YYYY-MM-DDTHH:MM:SS with Z or ±HH:MM) in
// zone name. The year as written must lie in 1900..2100, as the reference
// checks it; the UTC instant and the local time may fall in 1899 or 2101.
// The zone is found with tzdb.Lookup (an IANA id in any case, or a fixed UTC
// offset) and reported by its canonical name.
func InstantFacts(s, zoneName, loc string) (TimeFacts, error) {
	if err := checkLocale(loc); err != nil {
		return TimeFacts{}, err
	}
	wall, off, err := ParseInstant(s)
	if err != nil {
		return TimeFacts{}, err
	}
	if err := checkZonedYear(wall.Year, "instant"); err != nil {
		return TimeFacts{}, err
	}
	z, err := tzdb.Lookup(zoneName)
	if err != nil {
		return TimeFacts{}, err
	}
	u := wall.Seconds() - int64(off)
	utc, err := DateTimeFromSeconds(u)
	if err != nil {
		return TimeFacts{}, fmt.Errorf("%w: %v", ErrYearRange, err)
	}
	o, fold := z.At(u)
	local, err := DateTimeFromSeconds(u + int64(o.Seconds))
	if err != nil {
		return TimeFacts{}, fmt.Errorf("%w: %v", ErrYearRange, err)
	}
	wy, ww := local.ISOWeek()
	wd := local.Weekday()
	utcStr := isoAt(utc, 0)
	return TimeFacts{
		InputInstant:     isoAt(wall, off),
		UTCInstant:       utcStr,
		AsOf:             utcStr,
		Timezone:         z.Name(),
		LocalDatetime:    isoAt(local, o.Seconds),
		UTCOffset:        OffsetHHMM(o.Seconds),
		UTCOffsetSeconds: o.Seconds,
		Abbreviation:     o.Abbrev,
		IsDST:            o.IsDST,
		Fold:             fold,
		TzdataVersion:    tzdb.Version(),
		Date:             local.Date.String(),
		Time:             local.Clock(),
		WeekdayISO:       wd,
		WeekdayName:      WeekdayName(loc, wd),
		ISOWeek:          ww,
		ISOWeekYear:      wy,
		Locale:           loc,
	}, nil
}

// ConvertFacts are the facts of the timezone_convert tool (16 keys, wire-compatible).
type ConvertFacts struct {
	InputLocalDatetime string `json:"input_local_datetime"`
	FromTimezone       string `json:"from_timezone"`
	ToTimezone         string `json:"to_timezone"`
	Fold               int    `json:"fold"`
	Ambiguous          bool   `json:"ambiguous"`
	SourceDatetime     string `json:"source_datetime"`
	SourceUTCOffset    string `json:"source_utc_offset"`
	SourceIsDST        bool   `json:"source_is_dst"`
	UTCInstant         string `json:"utc_instant"`
	AsOf               string `json:"as_of"`
	TargetDatetime     string `json:"target_datetime"`
	TargetUTCOffset    string `json:"target_utc_offset"`
	TargetIsDST        bool   `json:"target_is_dst"`
	TargetFold         int    `json:"target_fold"`
	Locale             string `json:"locale"`
	TzdataVersion      string `json:"tzdata_version"`
}

// Convert interprets the naive local time s in zone from and expresses the
// instant in zone to. fold (nil, 0 or 1) picks the occurrence of an ambiguous
// time (PEP 495: 0 = earlier); it is required there (ErrAmbiguous) and ignored
// elsewhere, where the reported fold is 0. A time in a gap is ErrGap. Zones are
// found with tzdb.Lookup and reported by their canonical names.
func Convert(s, from, to string, fold *int, loc string) (ConvertFacts, error) {
	if err := checkLocale(loc); err != nil {
		return ConvertFacts{}, err
	}
	if fold != nil && *fold != 0 && *fold != 1 {
		return ConvertFacts{}, fmt.Errorf("%w: fold must be 0 or 1", ErrInvalid)
	}
	wall, err := ParseLocal(s)
	if err != nil {
		return ConvertFacts{}, err
	}
	if err := checkZonedYear(wall.Year, "local"); err != nil {
		return ConvertFacts{}, err
	}
	src, err := tzdb.Lookup(from)
	if err != nil {
		return ConvertFacts{}, &ZoneError{Arg: "from", Err: err}
	}
	dst, err := tzdb.Lookup(to)
	if err != nil {
		return ConvertFacts{}, &ZoneError{Arg: "to", Err: err}
	}
	r := src.Resolve(wall.Seconds())
	f := 0
	switch r.Kind {
	case tzdb.Gap:
		return ConvertFacts{}, fmt.Errorf("%w: %s does not exist in %s (clocks were set forward)", ErrGap, s, src.Name())
	case tzdb.Ambiguous:
		if fold == nil {
			return ConvertFacts{}, fmt.Errorf("%w: %s occurs twice in %s; give fold 0 (earlier) or 1 (later)", ErrAmbiguous, s, src.Name())
		}
		f = *fold
	}
	u := r.Instants[f]
	so, _ := src.At(u)
	to2, tfold := dst.At(u)
	utc, err := DateTimeFromSeconds(u)
	if err != nil {
		return ConvertFacts{}, fmt.Errorf("%w: %v", ErrYearRange, err)
	}
	target, err := DateTimeFromSeconds(u + int64(to2.Seconds))
	if err != nil {
		return ConvertFacts{}, fmt.Errorf("%w: %v", ErrYearRange, err)
	}
	utcStr := isoAt(utc, 0)
	return ConvertFacts{
		InputLocalDatetime: s,
		FromTimezone:       src.Name(),
		ToTimezone:         dst.Name(),
		Fold:               f,
		Ambiguous:          r.Kind == tzdb.Ambiguous,
		SourceDatetime:     isoAt(wall, so.Seconds),
		SourceUTCOffset:    OffsetHHMM(so.Seconds),
		SourceIsDST:        so.IsDST,
		UTCInstant:         utcStr,
		AsOf:               utcStr,
		TargetDatetime:     isoAt(target, to2.Seconds),
		TargetUTCOffset:    OffsetHHMM(to2.Seconds),
		TargetIsDST:        to2.IsDST,
		TargetFold:         tfold,
		Locale:             loc,
		TzdataVersion:      tzdb.Version(),
	}, nil
}
