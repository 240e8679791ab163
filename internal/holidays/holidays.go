// Package holidays computes public holidays from rules kept as data
// (data/countries/XX.json: fixed dates, Easter offsets, nth weekdays of a
// month, the weekday before a date, one-off dates, dates by year, days
// between two holidays; shifted by a day offset or by weekday; each with the
// years and subdivisions it applies to and its substitute-day rule) and
// counts and offsets business days as numpy's busday_count and
// busday_offset do.
//
// The rules are facts from the official sources and python-holidays' current
// rules; the dataset is named and versioned (Name, Version) and its SHA-256 is
// SHA256. Nothing outside the dataset is answered: an unknown country or
// subdivision, a year before a calendar's rule set starts and a year after
// its data ends (a date table ends, a calendar is published only up to a
// year) are refused.
package holidays

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/precisiond/precisiond/internal/calendar"
	"github.com/precisiond/precisiond/internal/suggest"
)

//go:embed data/dataset.json data/countries/*.json
var dataFS embed.FS

// MaxYear is the last year any rule set answers.
const MaxYear = 2100

// Errors of Lookup and Set.Year; the tool maps each to its reason.
var (
	ErrUnknownCountry      = errors.New("unknown country")
	ErrUnknownSubdivision  = errors.New("unknown subdivision")
	ErrSubdivisionRequired = errors.New("subdivision required")
	ErrYearRange           = errors.New("year out of range")
)

// LookupError is an unknown country or subdivision with the nearest codes
// the dataset knows.
type LookupError struct {
	Err         error // ErrUnknownCountry or ErrUnknownSubdivision
	Msg         string
	Suggestions []string
}

func (e *LookupError) Error() string { return e.Msg }
func (e *LookupError) Unwrap() error { return e.Err }

// Holiday is one public holiday: a date, its English name, and whether it is
// a substitute (observed) day for a holiday on a weekend.
type Holiday struct {
	Date     calendar.Date
	Name     string
	Observed bool
}

// dataset is data/dataset.json (name and version) with the countries read
// from data/countries/XX.json.
type dataset struct {
	Comment   string `json:"$comment"`
	Name      string `json:"name"`
	Version   string `json:"version"`
	Countries map[string]*Country
}

// Country is one country's rule set.
type Country struct {
	Name string `json:"name"`
	// From is the first year the rule set answers.
	From int `json:"from"`
	// RequireSubdivision: the country has no nationwide calendar (GB).
	RequireSubdivision bool `json:"require_subdivision"`
	// Subdivisions maps ISO 3166-2 suffixes to names.
	Subdivisions map[string]string `json:"subdivisions"`
	Rules        []Rule            `json:"rules"`

	// To is the last year the rule set answers, 0 for MaxYear; a country
	// ends early only where a date table it needs ends (New Zealand's
	// Matariki dates are fixed in law up to 2052). ToReason says why, in
	// the refusal of a later year.
	To       int    `json:"to,omitempty"`
	ToReason string `json:"to_reason,omitempty"`
	// SubdivisionYears narrows the years a subdivision answers: a later
	// first year where its current rules start after the country's (a US
	// state), an earlier last year where its calendar is published only up
	// to a year (Spain's regions, decreed year by year) or a date table
	// ends (California's Diwali). Absent: the country's From..To.
	SubdivisionYears map[string]YearRange `json:"subdivision_years,omitempty"`
}

// YearRange is a subdivision's first and last covered year (0: the
// country's From, To); ToReason, required with To, says why it ends.
type YearRange struct {
	From     int    `json:"from,omitempty"`
	To       int    `json:"to,omitempty"`
	ToReason string `json:"to_reason,omitempty"`
}

// Rule is one holiday rule. Exactly one of Date, Easter, Nth, Before, On,
// ByYear, BetweenHolidays gives the date.
type Rule struct {
	Name string `json:"name"`
	// Date is a fixed day, "MM-DD".
	Date string `json:"date,omitempty"`
	// Easter is an offset in days from Western Easter Sunday.
	Easter *int `json:"easter,omitempty"`
	// Nth is the n-th ISO weekday of a month (n < 0 counts from the end).
	Nth *Nth `json:"nth,omitempty"`
	// Before is the last given weekday strictly before a fixed day
	// (Buß- und Bettag: the Wednesday before 23 November).
	Before *Before `json:"weekday_before,omitempty"`
	// OrOn replaces the date by a fixed day when that day falls on the
	// given weekday (St Brigid's Day: the first Monday of February, or
	// 1 February when it is a Friday).
	OrOn *Before `json:"or_on,omitempty"`
	// On is a one-off date, "YYYY-MM-DD".
	On string `json:"on,omitempty"`
	// From and To bound the years the rule applies to (0: unbounded).
	From int `json:"from,omitempty"`
	To   int `json:"to,omitempty"`
	// Except lists years the rule does not apply (a holiday moved by
	// proclamation; the moved date is its own On rule).
	Except []int `json:"except,omitempty"`
	// Subdivisions limits the rule to these subdivisions (empty: all).
	Subdivisions []string `json:"subdivisions,omitempty"`
	// NotIn excludes these subdivisions (the national calendar stays in).
	NotIn []string `json:"not_in,omitempty"`
	// MoveSunday moves the holiday itself by this many days when its date
	// is a Sunday (the Dutch King's Day on a Sunday is the Saturday before:
	// -1); the moved day is the holiday, not a substitute.
	MoveSunday int `json:"move_sunday,omitempty"`
	// Observed is the substitute rule for a holiday on Saturday or Sunday:
	// "" none; "sat_fri_sun_mon" (Saturday to Friday, Sunday to Monday);
	// "next_free_weekday" (the first Monday-Friday after the date that is
	// neither a holiday nor another substitute, assigned in date order);
	// "sun_next_free_day" (for a Sunday only: the first day after it, of
	// any weekday, that is neither a holiday nor another substitute — the
	// Japanese 振替休日).
	Observed string `json:"observed,omitempty"`
	// ObservedFrom is the first year the substitute rule applies (0: always).
	ObservedFrom int `json:"observed_from,omitempty"`

	// Date forms and conditions added with JP, CH and ES.
	//
	// ByYear is a table of the date ("MM-DD") by year ("YYYY"); a year the
	// rule applies to must be in it (check: the Japanese equinox days, the
	// Islamic feasts that Spain's autonomous cities fix by decree).
	ByYear map[string]string `json:"by_year,omitempty"`
	// BetweenHolidays makes every day of the year that is no holiday itself
	// but whose day before and day after are holidays of the other date
	// rules (not substitute days) a holiday (the Japanese 国民の休日,
	// citizens' holiday).
	BetweenHolidays bool `json:"between_holidays,omitempty"`
	// Offset adds days to the date form's day, before any other move (the
	// Genevan Fast: the first Sunday of September + 4; the day after the
	// fourth Thursday of November: + 1); a day leaving the year is none.
	Offset int `json:"offset,omitempty"`
	// AvoidEaster moves the date by Move days when it is Easter + Easter
	// days (Näfelser Fahrt: the first Thursday of April, a week later
	// when that is Maundy Thursday).
	AvoidEaster *AvoidEaster `json:"avoid_easter,omitempty"`
	// NotOn drops the holiday in a year its date falls on one of these ISO
	// weekdays (Neuchâtel's 2 January only on a Monday).
	NotOn []int `json:"not_on,omitempty"`
	// Years limits the rule to these years; WhenSunday to the years one of
	// these days ("MM-DD") is a Sunday (a Spanish region replaces a
	// holiday lost to a Sunday). Both limit, like From and To.
	Years      []int    `json:"years,omitempty"`
	WhenSunday []string `json:"when_sunday,omitempty"`

	// Conditions and shifts added with US, CA, AU and NZ.
	//
	// Every limits the rule to every Every-th year counted from From
	// (US Election Day in even years: from 2008, every 2).
	Every int `json:"every,omitempty"`
	// Move moves the holiday itself by Move[w-1] days when its date falls
	// on ISO weekday w (the Monday nearest a date: [0,-1,-2,-3,3,2,1]);
	// the moved day is the holiday, not a substitute.
	Move []int `json:"move,omitempty"`
	// ObservedShift is a substitute rule by weekday: a holiday on ISO
	// weekday w gets a substitute day ObservedShift[w-1] days away (0:
	// none); 7 and -7 are the next and the previous weekday (Monday to
	// Friday) that is neither a holiday nor another substitute, in the
	// same year, assigned in date order. Not with Observed.
	ObservedShift []int `json:"observed_shift,omitempty"`
}

// AvoidEaster: when the date is Easter + Easter days, it moves by Move.
type AvoidEaster struct {
	Easter int `json:"easter"`
	Move   int `json:"move"`
}

// Nth is the N-th Weekday (ISO, 1 = Monday) of Month; N = -1 is the last.
type Nth struct {
	Month   int `json:"month"`
	Weekday int `json:"weekday"`
	N       int `json:"n"`
}

// Before is the last Weekday strictly before Date ("MM-DD").
type Before struct {
	Date    string `json:"date"`
	Weekday int    `json:"weekday"`
}

var (
	data     dataset
	codes    []string // covered country codes, sorted
	dataHash string
)

func init() {
	if err := load(); err != nil {
		panic("holidays: " + err.Error())
	}
}

// load reads the embedded dataset. Its hash is SHA-256 over every file in
// path order (dataset.json, then countries/XX.json by code), each as its
// path, a NUL, its length in decimal, a NUL and its bytes, so that moving a
// rule from one file to another changes it.
func load() error {
	h := sha256.New()
	read := func(path string, v any) error {
		b, err := dataFS.ReadFile(path)
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s\x00%d\x00", path, len(b))
		h.Write(b)
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		if err := dec.Decode(v); err != nil {
			return fmt.Errorf("%s: %v", path, err)
		}
		return nil
	}
	if err := read("data/dataset.json", &data); err != nil {
		return err
	}
	files, err := fs.Glob(dataFS, "data/countries/*.json")
	if err != nil {
		return err
	}
	sort.Strings(files)
	data.Countries = map[string]*Country{}
	for _, path := range files {
		code := strings.TrimSuffix(strings.TrimPrefix(path, "data/countries/"), ".json")
		if len(code) != 2 || strings.ToUpper(code) != code {
			return fmt.Errorf("%s: not named by an ISO 3166-1 alpha-2 code", path)
		}
		c := new(Country)
		if err := read(path, c); err != nil {
			return err
		}
		if err := c.check(); err != nil {
			return fmt.Errorf("%s: %v", path, err)
		}
		data.Countries[code] = c
		codes = append(codes, code)
	}
	dataHash = hex.EncodeToString(h.Sum(nil))
	return nil
}

// Name, Version and SHA256 identify the dataset.
func Name() string    { return data.Name }
func Version() string { return data.Version }
func SHA256() string  { return dataHash }

// Countries lists the covered country codes, sorted.
func Countries() []string { return slices.Clone(codes) }

// CountryInfo returns the rule set of a covered country, nil otherwise.
func CountryInfo(code string) *Country { return data.Countries[code] }

// SubdivisionCodes lists a country's subdivision codes, sorted.
func (c *Country) SubdivisionCodes() []string {
	out := make([]string, 0, len(c.Subdivisions))
	for k := range c.Subdivisions {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func (c *Country) check() error {
	if c.From < 1900 || c.From > MaxYear {
		return fmt.Errorf("from %d", c.From)
	}
	if c.To != 0 && (c.To < c.From || c.To >= MaxYear || c.ToReason == "") {
		return fmt.Errorf("to %d needs from <= to < %d and a to_reason", c.To, MaxYear)
	}
	if c.To == 0 && c.ToReason != "" {
		return errors.New("to_reason without to")
	}
	for sub, yr := range c.SubdivisionYears {
		if _, ok := c.Subdivisions[sub]; !ok {
			return fmt.Errorf("subdivision_years: %q not listed", sub)
		}
		from, to := cmp.Or(yr.From, c.From), cmp.Or(yr.To, c.last())
		if from < c.From || to > c.last() || from > to {
			return fmt.Errorf("subdivision_years %s: %d..%d outside %d..%d", sub, from, to, c.From, c.last())
		}
		if (yr.To != 0) != (yr.ToReason != "") {
			return fmt.Errorf("subdivision_years %s: to and to_reason go together", sub)
		}
	}
	if c.RequireSubdivision && len(c.Subdivisions) == 0 {
		return errors.New("requires a subdivision but has none")
	}
	for i, r := range c.Rules {
		n := 0
		if r.Date != "" {
			n++
			if _, _, err := monthDay(r.Date); err != nil {
				return fmt.Errorf("rule %d %q: %v", i, r.Name, err)
			}
		}
		if r.Easter != nil {
			n++
		}
		if r.Nth != nil {
			n++
			if r.Nth.Month < 1 || r.Nth.Month > 12 || r.Nth.Weekday < 1 || r.Nth.Weekday > 7 || r.Nth.N == 0 || r.Nth.N < -1 || r.Nth.N > 5 {
				return fmt.Errorf("rule %d %q: bad nth", i, r.Name)
			}
		}
		if r.Before != nil {
			n++
			if _, _, err := monthDay(r.Before.Date); err != nil || r.Before.Weekday < 1 || r.Before.Weekday > 7 {
				return fmt.Errorf("rule %d %q: bad weekday_before", i, r.Name)
			}
		}
		if r.On != "" {
			n++
			if _, err := calendar.ParseDate(r.On); err != nil {
				return fmt.Errorf("rule %d %q: %v", i, r.Name, err)
			}
		}
		if r.ByYear != nil {
			n++
			if err := c.checkByYear(r); err != nil {
				return fmt.Errorf("rule %d %q: %v", i, r.Name, err)
			}
		}
		if r.BetweenHolidays {
			n++
		}
		if err := checkConditions(r); err != nil {
			return fmt.Errorf("rule %d %q: %v", i, r.Name, err)
		}
		if r.OrOn != nil {
			if _, _, err := monthDay(r.OrOn.Date); err != nil || r.OrOn.Weekday < 1 || r.OrOn.Weekday > 7 {
				return fmt.Errorf("rule %d %q: bad or_on", i, r.Name)
			}
		}
		if r.MoveSunday < -6 || r.MoveSunday > 6 {
			return fmt.Errorf("rule %d %q: move_sunday %d", i, r.Name, r.MoveSunday)
		}
		if n != 1 || r.Name == "" {
			return fmt.Errorf("rule %d %q: needs a name and exactly one date form", i, r.Name)
		}
		switch r.Observed {
		case "", "sat_fri_sun_mon", "next_free_weekday", "sun_next_free_day":
		default:
			return fmt.Errorf("rule %d %q: observed %q", i, r.Name, r.Observed)
		}
		for _, s := range slices.Concat(r.Subdivisions, r.NotIn) {
			if _, ok := c.Subdivisions[s]; !ok {
				return fmt.Errorf("rule %d %q: subdivision %q not listed", i, r.Name, s)
			}
		}
	}
	return nil
}

// checkByYear: every key a year, every value a day of that year, and every
// year the rule applies to in the country's range present.
func (c *Country) checkByYear(r Rule) error {
	for k, v := range r.ByYear {
		y, err := strconv.Atoi(k)
		if err != nil || y < 1900 || y > MaxYear || strconv.Itoa(y) != k {
			return fmt.Errorf("by_year: bad year %q", k)
		}
		if _, err := calendar.ParseDate(k + "-" + v); err != nil {
			return fmt.Errorf("by_year %s: %v", k, err)
		}
	}
	from, to := max(c.From, r.From), c.last()
	if r.To != 0 {
		to = min(to, r.To)
	}
	for y := from; y <= to; y++ {
		if _, ok := r.ByYear[strconv.Itoa(y)]; !ok && r.yearApplies(y) {
			return fmt.Errorf("by_year: no date for %d", y)
		}
	}
	return nil
}

// checkConditions validates the rule's conditions and shifts.
func checkConditions(r Rule) error {
	if r.Every < 0 || (r.Every > 0 && r.From == 0) {
		return errors.New("every needs from")
	}
	if r.Move != nil && (len(r.Move) != 7 || r.MoveSunday != 0) {
		return errors.New("move needs 7 shifts and no move_sunday")
	}
	for _, m := range r.Move {
		if m < -6 || m > 6 {
			return fmt.Errorf("move %d", m)
		}
	}
	if r.ObservedShift != nil && (len(r.ObservedShift) != 7 || r.Observed != "") {
		return errors.New("observed_shift needs 7 shifts and no observed")
	}
	for _, m := range r.ObservedShift {
		if m < -7 || m > 7 {
			return fmt.Errorf("observed_shift %d", m)
		}
	}
	if r.AvoidEaster != nil && (r.AvoidEaster.Move == 0 || r.AvoidEaster.Move < -14 || r.AvoidEaster.Move > 14) {
		return fmt.Errorf("avoid_easter: move %d", r.AvoidEaster.Move)
	}
	if r.Offset < -31 || r.Offset > 31 {
		return fmt.Errorf("offset %d", r.Offset)
	}
	for _, w := range r.NotOn {
		if w < 1 || w > 7 {
			return fmt.Errorf("not_on: weekday %d", w)
		}
	}
	for _, y := range r.Years {
		if y < 1900 || y > MaxYear {
			return fmt.Errorf("years: %d", y)
		}
	}
	for _, d := range r.WhenSunday {
		if _, _, err := monthDay(d); err != nil {
			return fmt.Errorf("when_sunday: %v", err)
		}
	}
	if r.BetweenHolidays && (r.Observed != "" || r.ObservedShift != nil || r.Offset != 0 || r.AvoidEaster != nil ||
		r.MoveSunday != 0 || r.Move != nil || r.OrOn != nil) {
		return errors.New("between_holidays takes no observed, observed_shift, offset, avoid_easter, move_sunday, move or or_on")
	}
	return nil
}

// last is the last year the rule set answers.
func (c *Country) last() int {
	if c.To != 0 {
		return c.To
	}
	return MaxYear
}

func monthDay(s string) (int, int, error) {
	d, err := calendar.ParseDate("2000-" + s) // a leap year admits 02-29
	if err != nil {
		return 0, 0, err
	}
	return d.Month, d.Day, nil
}

// Set is the holidays of one country, or one subdivision of it.
type Set struct {
	Country     string
	Subdivision string // "" for the national calendar
	c           *Country
	rules       []*Rule // the rules of this subdivision (or the national ones)
}

// Lookup finds the rule set of a country (ISO 3166-1 alpha-2, exact
// upper case) and optional subdivision (ISO 3166-2 suffix). Errors:
// *LookupError (ErrUnknownCountry, ErrUnknownSubdivision) with suggestions,
// ErrSubdivisionRequired.
func Lookup(country, subdivision string) (*Set, error) {
	c, ok := data.Countries[country]
	if !ok {
		return nil, &LookupError{Err: ErrUnknownCountry,
			Msg:         fmt.Sprintf("unknown country %q: the dataset covers %s", clip(country), strings.Join(codes, ", ")),
			Suggestions: suggest.Closest(strings.ToUpper(country), codes, 3)}
	}
	if subdivision == "" {
		if c.RequireSubdivision {
			return nil, fmt.Errorf("%w: %s has no nationwide calendar; give one of %s", ErrSubdivisionRequired, country, strings.Join(c.SubdivisionCodes(), ", "))
		}
		return newSet(country, "", c), nil
	}
	if _, ok := c.Subdivisions[subdivision]; !ok {
		subs := c.SubdivisionCodes()
		msg := fmt.Sprintf("unknown subdivision %q of %s", clip(subdivision), country)
		if len(subs) == 0 {
			msg += ": the dataset has only its national calendar (give no subdivision)"
		} else {
			msg += ": the dataset covers " + strings.Join(subs, ", ")
		}
		return nil, &LookupError{Err: ErrUnknownSubdivision, Msg: msg,
			Suggestions: suggest.Closest(strings.ToUpper(subdivision), subs, 3)}
	}
	return newSet(country, subdivision, c), nil
}

func clip(s string) string {
	if len(s) > 64 {
		return s[:64] + "…"
	}
	return s
}

// From is the first year the set answers: the subdivision's own first
// year, else the country's.
func (s *Set) From() int { return cmp.Or(s.c.SubdivisionYears[s.Subdivision].From, s.c.From) }

// To is the last year the set answers: MaxYear unless the calendar's
// data ends earlier (see ToReason).
func (s *Set) To() int { return cmp.Or(s.c.SubdivisionYears[s.Subdivision].To, s.c.last()) }

// ToReason says why the set ends before MaxYear ("" when it does not).
func (s *Set) ToReason() string {
	if yr, ok := s.c.SubdivisionYears[s.Subdivision]; ok && yr.To != 0 {
		return yr.ToReason
	}
	return s.c.ToReason
}

// CheckYear refuses a year outside From..To with ErrYearRange.
func (s *Set) CheckYear(y int) error {
	if y < s.From() || y > s.To() {
		where := s.Country
		if s.Subdivision != "" {
			where += "-" + s.Subdivision
		}
		msg := fmt.Sprintf("%s is covered for %d..%d, not %d", where, s.From(), s.To(), y)
		if y > s.To() && s.To() < MaxYear {
			msg += " (" + s.ToReason() + ")"
		}
		return fmt.Errorf("%w: %s", ErrYearRange, msg)
	}
	return nil
}

// Year lists the holidays dated in year y, by date (rule order within a
// date): the holidays themselves, also on weekends, and their substitute
// days (Observed). A substitute of a holiday of another year that falls in
// y (a US 1 January on a Saturday is observed on the 31 December before)
// is listed in y.
func (s *Set) Year(y int) ([]Holiday, error) {
	if err := s.CheckYear(y); err != nil {
		return nil, err
	}
	var out []Holiday
	for _, yy := range []int{y - 1, y, y + 1} {
		if yy < s.From() || yy > s.To()+1 { // 1 January 2101 may be observed in 2100
			continue
		}
		for _, h := range s.compute(yy) {
			if h.Date.Year == y && (yy == y || h.Observed) {
				out = append(out, h)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Date.Days() < out[j].Date.Days() })
	return out, nil
}

// newSet is the set of one calendar with the rules of its subdivision
// picked once (a US state uses about 25 of the 120-odd US rules).
func newSet(country, subdivision string, c *Country) *Set {
	s := &Set{Country: country, Subdivision: subdivision, c: c}
	for i := range c.Rules {
		r := &c.Rules[i]
		if subdivision != "" && slices.Contains(r.NotIn, subdivision) {
			continue
		}
		if len(r.Subdivisions) == 0 || slices.Contains(r.Subdivisions, subdivision) {
			s.rules = append(s.rules, r)
		}
	}
	return s
}

// yearApplies: the rule's From, To, Except, Every, Years and WhenSunday
// admit y.
func (r *Rule) yearApplies(y int) bool {
	if (r.From != 0 && y < r.From) || (r.To != 0 && y > r.To) || slices.Contains(r.Except, y) {
		return false
	}
	if r.Every != 0 && (y-r.From)%r.Every != 0 {
		return false
	}
	if len(r.Years) > 0 && !slices.Contains(r.Years, y) {
		return false
	}
	if len(r.WhenSunday) == 0 {
		return true
	}
	for _, md := range r.WhenSunday {
		m, d, _ := monthDay(md)
		if dt, err := calendar.NewDate(y, m, d); err == nil && dt.Weekday() == 7 {
			return true
		}
	}
	return false
}

// compute is the holidays of rule year y, substitutes included, unsorted.
func (s *Set) compute(y int) []Holiday {
	type base struct {
		d calendar.Date
		r *Rule
	}
	var bases []base
	var between []*Rule
	taken := map[int64]bool{}
	for _, r := range s.rules {
		if !r.yearApplies(y) {
			continue
		}
		if r.BetweenHolidays {
			between = append(between, r)
			continue
		}
		d, ok := ruleDate(r, y)
		if !ok {
			continue
		}
		if r.AvoidEaster != nil && d.Days() == Easter(y).Days()+int64(r.AvoidEaster.Easter) {
			d, _ = calendar.FromDays(d.Days() + int64(r.AvoidEaster.Move))
		}
		if r.OrOn != nil {
			m, day, _ := monthDay(r.OrOn.Date)
			if alt, err := calendar.NewDate(y, m, day); err == nil && alt.Weekday() == r.OrOn.Weekday {
				d = alt
			}
		}
		if r.MoveSunday != 0 && d.Weekday() == 7 {
			d, _ = calendar.FromDays(d.Days() + int64(r.MoveSunday))
		}
		if d, ok = moveRule(r, d); !ok {
			continue
		}
		if slices.Contains(r.NotOn, d.Weekday()) {
			continue
		}
		bases = append(bases, base{d, r})
		taken[d.Days()] = true
	}
	// Days between two holidays, from the holidays of the other rules.
	if len(between) > 0 {
		first, _ := calendar.NewDate(y, 1, 1)
		last, _ := calendar.NewDate(y, 12, 31)
		var extra []base
		for n := first.Days(); n <= last.Days(); n++ {
			if !taken[n] && taken[n-1] && taken[n+1] {
				d, _ := calendar.FromDays(n)
				for _, r := range between {
					extra = append(extra, base{d, r})
				}
			}
		}
		for _, b := range extra {
			bases = append(bases, b)
			taken[b.d.Days()] = true
		}
	}
	sort.SliceStable(bases, func(i, j int) bool { return bases[i].d.Days() < bases[j].d.Days() })
	out := make([]Holiday, 0, len(bases)+4)
	for _, b := range bases {
		out = append(out, Holiday{Date: b.d, Name: b.r.Name})
	}
	for _, b := range bases {
		w := b.d.Weekday()
		if b.r.ObservedShift != nil {
			if n, ok := observedShift(b.r, b.d, y, taken); ok {
				taken[n] = true
				d, _ := calendar.FromDays(n)
				out = append(out, Holiday{Date: d, Name: b.r.Name, Observed: true})
			}
			continue
		}
		if b.r.Observed == "" || w < 6 || (b.r.ObservedFrom != 0 && y < b.r.ObservedFrom) ||
			(b.r.Observed == "sun_next_free_day" && w != 7) {
			continue
		}
		n := b.d.Days()
		switch b.r.Observed {
		case "sat_fri_sun_mon":
			if w == 6 {
				n--
			} else {
				n++
			}
		case "next_free_weekday":
			for n++; taken[n] || weekdayOf(n) >= 6; n++ {
			}
		case "sun_next_free_day":
			for n++; taken[n]; n++ {
			}
		}
		taken[n] = true
		d, err := calendar.FromDays(n)
		if err != nil {
			continue // outside 1..9999: not reachable for years up to 2100
		}
		out = append(out, Holiday{Date: d, Name: b.r.Name, Observed: true})
	}
	return out
}

// moveRule applies a rule's move by weekday to its date; false when the
// day leaves the rule's year.
func moveRule(r *Rule, d calendar.Date) (calendar.Date, bool) {
	if r.Move == nil {
		return d, true
	}
	n := d.Days() + int64(r.Move[d.Weekday()-1])
	if n == d.Days() {
		return d, true
	}
	out, err := calendar.FromDays(n)
	return out, err == nil && out.Year == d.Year
}

// observedShift is the substitute day of a holiday on d under the rule's
// observed_shift, in rule year y; false when there is none.
func observedShift(r *Rule, d calendar.Date, y int, taken map[int64]bool) (int64, bool) {
	if r.ObservedFrom != 0 && y < r.ObservedFrom {
		return 0, false
	}
	shift := r.ObservedShift[d.Weekday()-1]
	n := d.Days()
	switch shift {
	case 0:
		return 0, false
	case 7, -7:
		step := int64(shift / 7)
		for n += step; taken[n] || weekdayOf(n) >= 6; n += step {
		}
		if dd, err := calendar.FromDays(n); err != nil || dd.Year != y {
			return 0, false // no free weekday left in the year
		}
		return n, true
	}
	return n + int64(shift), true
}

// weekdayOf is the ISO weekday of day n since 1970-01-01 (a Thursday).
func weekdayOf(n int64) int {
	return int(((n+3)%7+7)%7) + 1
}

func ruleDate(r *Rule, y int) (calendar.Date, bool) {
	d, ok := baseDate(r, y)
	if !ok || r.Offset == 0 {
		return d, ok
	}
	out, err := calendar.FromDays(d.Days() + int64(r.Offset))
	return out, err == nil && out.Year == y
}

func baseDate(r *Rule, y int) (calendar.Date, bool) {
	switch {
	case r.ByYear != nil:
		md, ok := r.ByYear[strconv.Itoa(y)]
		if !ok {
			return calendar.Date{}, false
		}
		dt, err := calendar.ParseDate(strconv.Itoa(y) + "-" + md)
		return dt, err == nil
	case r.Date != "":
		m, d, _ := monthDay(r.Date)
		dt, err := calendar.NewDate(y, m, d)
		return dt, err == nil // 02-29 only in leap years
	case r.Easter != nil:
		e := Easter(y)
		dt, err := calendar.FromDays(e.Days() + int64(*r.Easter))
		return dt, err == nil && dt.Year == y
	case r.Nth != nil:
		return nthWeekday(y, r.Nth.Month, r.Nth.Weekday, r.Nth.N), true
	case r.Before != nil:
		m, d, _ := monthDay(r.Before.Date)
		dt, _ := calendar.NewDate(y, m, d)
		n := dt.Days() - 1
		for weekdayOf(n) != r.Before.Weekday {
			n--
		}
		out, _ := calendar.FromDays(n)
		return out, out.Year == y
	default:
		dt, _ := calendar.ParseDate(r.On)
		return dt, dt.Year == y
	}
}

func nthWeekday(y, m, w, n int) calendar.Date {
	if n > 0 {
		first, _ := calendar.NewDate(y, m, 1)
		day := 1 + (w-first.Weekday()+7)%7 + 7*(n-1)
		d, err := calendar.NewDate(y, m, day)
		if err != nil { // a fifth weekday that the month lacks: the rule data never asks
			return first
		}
		return d
	}
	last, _ := calendar.NewDate(y, m, calendar.DaysInMonth(y, m))
	d, _ := calendar.NewDate(y, m, last.Day-(last.Weekday()-w+7)%7)
	return d
}

// Easter is Western Easter Sunday of year y by the Gregorian computus (the
// anonymous Gregorian algorithm, Meeus/Jones/Butcher), for years 1583 on.
func Easter(y int) calendar.Date {
	a := y % 19
	b, c := y/100, y%100
	d, e := b/4, b%4
	f := (b + 8) / 25
	g := (b - f + 1) / 3
	h := (19*a + b - d - g + 15) % 30
	i, k := c/4, c%4
	l := (32 + 2*e + 2*i - h - k) % 7
	m := (a + 11*h + 22*l) / 451
	month := (h + l - 7*m + 114) / 31
	day := (h+l-7*m+114)%31 + 1
	dt, _ := calendar.NewDate(y, month, day)
	return dt
}
