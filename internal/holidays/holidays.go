// Package holidays computes public holidays from rules kept as data
// (data/countries/XX.json: fixed dates, Easter offsets, nth weekdays of a month,
// the weekday before a date, one-off dates, shifted by a day offset or by
// weekday, each with the years and subdivisions it applies to and its
// substitute-day rule) and counts and
// offsets business days as numpy's busday_count and busday_offset do.
//
// The rules are facts from the official sources and python-holidays' current
// rules; the dataset is named and versioned (Name, Version) and its SHA-256 is
// SHA256. Nothing outside the dataset is answered: an unknown country or
// subdivision and a year before a calendar's rule set starts (or after a
// date table it needs ends) are refused.
package holidays

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"sort"
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
	// From is the first year the rule set answers; To is MaxYear.
	From int `json:"from"`
	// RequireSubdivision: the country has no nationwide calendar (GB).
	RequireSubdivision bool `json:"require_subdivision"`
	// Subdivisions maps ISO 3166-2 suffixes to names.
	Subdivisions map[string]string `json:"subdivisions"`
	Rules        []Rule            `json:"rules"`

	// SubdivisionFrom is a subdivision's own first year where its current
	// rules start later than the country's (a US state). To is the last
	// year the rule set answers when a date table ends before MaxYear
	// (New Zealand's Matariki, 2052; 0: MaxYear), SubdivisionTo a
	// subdivision's own (California's Diwali, 2035).
	SubdivisionFrom map[string]int `json:"subdivision_from,omitempty"`
	To              int            `json:"to,omitempty"`
	SubdivisionTo   map[string]int `json:"subdivision_to,omitempty"`
}

// Rule is one holiday rule. Exactly one of Date, Easter, Nth, Before, On
// gives the date.
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
	// neither a holiday nor another substitute, assigned in date order).
	Observed string `json:"observed,omitempty"`
	// ObservedFrom is the first year the substitute rule applies (0: always).
	ObservedFrom int `json:"observed_from,omitempty"`

	// Offset moves the date form's day by this many days (the day after
	// the fourth Thursday of November: nth and 1).
	Offset int `json:"offset,omitempty"`
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
	if c.To != 0 && (c.To < c.From || c.To > MaxYear) {
		return fmt.Errorf("to %d", c.To)
	}
	for sub, y := range c.SubdivisionFrom {
		if _, ok := c.Subdivisions[sub]; !ok || y < c.From || y > c.last() {
			return fmt.Errorf("subdivision_from %q: %d", sub, y)
		}
	}
	for sub, y := range c.SubdivisionTo {
		if _, ok := c.Subdivisions[sub]; !ok || y > c.last() || y < max(c.From, c.SubdivisionFrom[sub]) {
			return fmt.Errorf("subdivision_to %q: %d", sub, y)
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
		case "", "sat_fri_sun_mon", "next_free_weekday":
		default:
			return fmt.Errorf("rule %d %q: observed %q", i, r.Name, r.Observed)
		}
		if err := r.checkShifts(); err != nil {
			return fmt.Errorf("rule %d %q: %v", i, r.Name, err)
		}
		for _, s := range slices.Concat(r.Subdivisions, r.NotIn) {
			if _, ok := c.Subdivisions[s]; !ok {
				return fmt.Errorf("rule %d %q: subdivision %q not listed", i, r.Name, s)
			}
		}
	}
	return nil
}

// checkShifts validates offset, every, move and observed_shift.
func (r *Rule) checkShifts() error {
	if r.Offset < -366 || r.Offset > 366 {
		return fmt.Errorf("offset %d", r.Offset)
	}
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
func (s *Set) From() int {
	if y, ok := s.c.SubdivisionFrom[s.Subdivision]; ok && s.Subdivision != "" {
		return y
	}
	return s.c.From
}

// To is the last year the set answers (MaxYear unless a date table ends
// earlier).
func (s *Set) To() int {
	if y, ok := s.c.SubdivisionTo[s.Subdivision]; ok && s.Subdivision != "" {
		return y
	}
	return s.c.last()
}

// CheckYear refuses a year outside From..To with ErrYearRange.
func (s *Set) CheckYear(y int) error {
	if y < s.From() || y > s.To() {
		where := s.Country
		if s.Subdivision != "" {
			where += "-" + s.Subdivision
		}
		return fmt.Errorf("%w: %s is covered for %d..%d, not %d", ErrYearRange, where, s.From(), s.To(), y)
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

// applies says whether rule r, one of the set's, applies in year y.
func applies(r *Rule, y int) bool {
	if (r.From != 0 && y < r.From) || (r.To != 0 && y > r.To) || slices.Contains(r.Except, y) {
		return false
	}
	return r.Every == 0 || (y-r.From)%r.Every == 0
}

// compute is the holidays of rule year y, substitutes included, unsorted.
func (s *Set) compute(y int) []Holiday {
	type base struct {
		d calendar.Date
		r *Rule
	}
	var bases []base
	taken := map[int64]bool{}
	for _, r := range s.rules {
		if !applies(r, y) {
			continue
		}
		d, ok := ruleDate(r, y)
		if !ok {
			continue
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
		if d, ok = shiftRule(r, d); !ok {
			continue
		}
		bases = append(bases, base{d, r})
		taken[d.Days()] = true
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
		if b.r.Observed == "" || w < 6 || (b.r.ObservedFrom != 0 && y < b.r.ObservedFrom) {
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

// shiftRule applies a rule's offset and move to its date; false when the
// day leaves the rule's year.
func shiftRule(r *Rule, d calendar.Date) (calendar.Date, bool) {
	n := d.Days() + int64(r.Offset)
	if r.Move != nil {
		n += int64(r.Move[weekdayOf(n)-1])
	}
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
	switch {
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
