package holidays

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/precisiond/precisiond/internal/calendar"
	"github.com/precisiond/precisiond/internal/vectors"
)

// TestOracleHolidays: every covered year of every calendar has the holiday
// dates of the reference (python-holidays with the generator's corrections
// to current rules), and the same dates that are only substitute days.
func TestOracleHolidays(t *testing.T) {
	var doc struct {
		Cases []struct {
			Country        string   `json:"country"`
			Subdivision    string   `json:"subdivision"`
			Year           int      `json:"year"`
			Dates          []string `json:"dates"`
			SubstituteOnly []string `json:"substitute_only"`
		} `json:"cases"`
	}
	// oracle_holidays.json (gen_business.py) and oracle_holidays_GROUP.json
	// (gen_business_current.py, current python-holidays) together.
	decodeAll(t, "testdata/oracle_holidays*.json", &doc)
	seen := map[string]bool{}
	for _, c := range doc.Cases {
		s, err := Lookup(c.Country, c.Subdivision)
		if err != nil {
			t.Fatalf("%s-%s: %v", c.Country, c.Subdivision, err)
		}
		seen[c.Country+"-"+c.Subdivision] = true
		hs, err := s.Year(c.Year)
		if err != nil {
			t.Fatalf("%s-%s %d: %v", c.Country, c.Subdivision, c.Year, err)
		}
		var dates, subst []string
		kinds := map[string][2]bool{} // date: has a holiday, has a substitute
		for _, h := range hs {
			k := kinds[h.Date.String()]
			k[0] = k[0] || !h.Observed
			k[1] = k[1] || h.Observed
			kinds[h.Date.String()] = k
		}
		for d, k := range kinds {
			dates = append(dates, d)
			if !k[0] {
				subst = append(subst, d)
			}
		}
		slices.Sort(dates)
		slices.Sort(subst)
		if !slices.Equal(dates, c.Dates) {
			t.Errorf("%s-%s %d: dates\n got %v\nwant %v", c.Country, c.Subdivision, c.Year, dates, c.Dates)
		}
		if !slices.Equal(subst, c.SubstituteOnly) && !(len(subst) == 0 && len(c.SubstituteOnly) == 0) {
			t.Errorf("%s-%s %d: substitute-only dates %v, want %v", c.Country, c.Subdivision, c.Year, subst, c.SubstituteOnly)
		}
	}
	// The vectors cover every calendar of the dataset.
	for _, code := range Countries() {
		c := CountryInfo(code)
		if !c.RequireSubdivision && !seen[code+"-"] {
			t.Errorf("%s: no vectors for the national calendar", code)
		}
		for _, sub := range c.SubdivisionCodes() {
			if !seen[code+"-"+sub] {
				t.Errorf("%s-%s: no vectors", code, sub)
			}
		}
	}
}

// TestEaster: the computus against dateutil's easter, 1583..4099.
func TestEaster(t *testing.T) {
	var doc struct {
		Cases []struct {
			Year   int    `json:"year"`
			Easter string `json:"easter"`
		} `json:"cases"`
	}
	vectors.Decode(t, "testdata/oracle_easter.json", &doc)
	if len(doc.Cases) < 2500 {
		t.Fatalf("%d cases", len(doc.Cases))
	}
	for _, c := range doc.Cases {
		if got := Easter(c.Year).String(); got != c.Easter {
			t.Errorf("%d: %s, want %s", c.Year, got, c.Easter)
		}
	}
}

// TestRefusals: unknown codes with their suggestions, GB without a
// subdivision, years outside the rule set, a weekend of seven days.
func TestRefusals(t *testing.T) {
	var le *LookupError
	if _, err := Lookup("de", ""); !errors.As(err, &le) || !errors.Is(err, ErrUnknownCountry) || !slices.Contains(le.Suggestions, "DE") {
		t.Errorf("de: %v", err)
	}
	if _, err := Lookup("DE", "BYP"); !errors.As(err, &le) || !errors.Is(err, ErrUnknownSubdivision) || !slices.Contains(le.Suggestions, "BY") {
		t.Errorf("DE-BYP: %v", err)
	}
	if _, err := Lookup("GB", ""); !errors.Is(err, ErrSubdivisionRequired) {
		t.Errorf("GB: %v", err)
	}
	s, _ := Lookup("DE", "SN")
	for _, y := range []int{1990, 2101, 0, -5, math.MaxInt32} {
		if _, err := s.Year(y); !errors.Is(err, ErrYearRange) {
			t.Errorf("DE-SN %d: %v", y, err)
		}
	}
	if _, err := NewWeek(s, []int{1, 2, 3, 4, 5, 6, 7, 7}); !errors.Is(err, ErrNoBusinessDays) {
		t.Errorf("seven-day weekend: %v", err)
	}
	w, _ := NewWeek(s, []int{6, 7})
	d, _ := calendar.ParseDate("2050-06-01")
	if _, err := w.Offset(d, 1<<40); !errors.Is(err, ErrYearRange) {
		t.Errorf("huge offset: %v", err)
	}
}

// TestOffsetCountInverse: for a business day d and n >= 0, the count from d
// to Offset(d, n) is n (numpy's busday_offset and busday_count agree), and
// the count back is -n; on every weekend shape.
func TestOffsetCountInverse(t *testing.T) {
	s, _ := Lookup("GB", "SCT")
	for _, weekend := range [][]int{{6, 7}, {5, 6}, {7}, {}} {
		w, err := NewWeek(s, weekend)
		if err != nil {
			t.Fatal(err)
		}
		d, _ := calendar.ParseDate("2021-12-20")
		for n := int64(0); n < 40; n++ {
			r, err := w.Offset(d, n)
			if err != nil {
				t.Fatal(err)
			}
			if c, _ := w.Count(d, r); c != n {
				t.Errorf("%v: count(%s, %s) = %d, want %d", weekend, d, r, c, n)
			}
			if c, _ := w.Count(r, d); c != -n {
				t.Errorf("%v: count(%s, %s) = %d, want %d", weekend, r, d, c, -n)
			}
		}
	}
}

// TestOracleIsBusinessDay: numpy.is_busday with the reference holidays, and
// the reason: holiday (also on a weekend), else weekend, else none.
func TestOracleIsBusinessDay(t *testing.T) {
	var doc struct {
		Cases []struct {
			Country, Subdivision, Date string
			Weekend                    []int
			BusinessDay                bool    `json:"business_day"`
			Reason                     *string `json:"reason"`
		} `json:"cases"`
	}
	decodeAll(t, "testdata/oracle_isbusday*.json", &doc)
	if len(doc.Cases) < 500 {
		t.Fatalf("%d cases", len(doc.Cases))
	}
	for _, c := range doc.Cases {
		s, err := Lookup(c.Country, c.Subdivision)
		if err != nil {
			t.Fatal(err)
		}
		w, err := NewWeek(s, c.Weekend)
		if err != nil {
			t.Fatal(err)
		}
		d, _ := calendar.ParseDate(c.Date)
		ok, err := w.IsBusinessDay(d)
		names, _ := w.Names(d)
		if err != nil || ok != c.BusinessDay || (len(names) > 0) != (c.Reason != nil && *c.Reason == "holiday") {
			t.Errorf("%s-%s %s %v: business_day %v, names %q (%v); want %v, reason %v", c.Country, c.Subdivision, c.Date, c.Weekend, ok, names, err, c.BusinessDay, c.Reason)
		}
	}
}

// decodeAll decodes every vector file matching pattern into doc, whose Cases
// slice collects the cases of all of them.
func decodeAll[T any](t *testing.T, pattern string, doc *struct {
	Cases []T `json:"cases"`
}) {
	t.Helper()
	files, err := filepath.Glob(pattern)
	if err != nil || len(files) == 0 {
		t.Fatalf("%s: no vector files (%v)", pattern, err)
	}
	var all []T
	for _, f := range files {
		doc.Cases = nil
		vectors.Decode(t, f, doc)
		all = append(all, doc.Cases...)
	}
	doc.Cases = all
}

// TestShiftRules: offset, every, move and observed_shift on hand-checked
// calendar facts, the country's to and subdivision_years bounds (with the
// reason in the refusal), and check() refusing malformed shifts.
func TestShiftRules(t *testing.T) {
	c := &Country{Name: "test", From: 2000, To: 2060, ToReason: "the table ends in 2060",
		Subdivisions: map[string]string{"A": "a", "B": "b"},
		SubdivisionYears: map[string]YearRange{"A": {From: 2010},
			"B": {To: 2030, ToReason: "published only up to 2030"}},
		Rules: []Rule{
			{Name: "Day after Thanksgiving", Nth: &Nth{Month: 11, Weekday: 4, N: 4}, Offset: 1},
			{Name: "Election Day", Nth: &Nth{Month: 11, Weekday: 1, N: 1}, Offset: 1, From: 2008, Every: 2},
			{Name: "Nearest Monday", Date: "01-22", Move: []int{0, -1, -2, -3, 3, 2, 1}},
			{Name: "Christmas Eve", Date: "12-24", ObservedShift: []int{0, 0, 0, 0, -1, -1, -2}},
			{Name: "Christmas Day", Date: "12-25", ObservedShift: []int{0, 0, 0, 0, 0, 7, 7}},
			{Name: "Boxing Day", Date: "12-26", ObservedShift: []int{0, 0, 0, 0, 0, 7, 7}},
		},
	}
	if err := c.check(); err != nil {
		t.Fatal(err)
	}
	year := func(s *Set, y int) []string {
		hs, err := s.Year(y)
		if err != nil {
			t.Fatalf("%d: %v", y, err)
		}
		var out []string
		for _, h := range hs {
			out = append(out, fmt.Sprintf("%s %s %v", h.Date, h.Name, h.Observed))
		}
		return out
	}
	s := newSet("T", "", c)
	// 2022: Thanksgiving 24 Nov (day after 25 Nov); 1 Nov a Tuesday, so the
	// first Monday is 7 Nov and Election Day 8 Nov; 22 Jan a Saturday (nearest
	// Monday 24 Jan); 24 Dec a Saturday (observed Friday 23), 25 Dec a Sunday
	// (26 is Boxing Day, so 27), 26 Dec a Monday.
	want := []string{"2022-01-24 Nearest Monday false", "2022-11-08 Election Day false", "2022-11-25 Day after Thanksgiving false",
		"2022-12-23 Christmas Eve true", "2022-12-24 Christmas Eve false", "2022-12-25 Christmas Day false",
		"2022-12-26 Boxing Day false", "2022-12-27 Christmas Day true"}
	if got := year(s, 2022); !slices.Equal(got, want) {
		t.Errorf("2022:\n got %q\nwant %q", got, want)
	}
	// 2021: no Election Day (odd year); 22 Jan a Friday (Monday 25 Jan);
	// 24 Dec a Friday (Thursday 23); 25 Dec a Saturday and 26 a Sunday:
	// substitutes Monday 27 and Tuesday 28.
	want = []string{"2021-01-25 Nearest Monday false", "2021-11-26 Day after Thanksgiving false",
		"2021-12-23 Christmas Eve true", "2021-12-24 Christmas Eve false", "2021-12-25 Christmas Day false",
		"2021-12-26 Boxing Day false", "2021-12-27 Christmas Day true", "2021-12-28 Boxing Day true"}
	if got := year(s, 2021); !slices.Equal(got, want) {
		t.Errorf("2021:\n got %q\nwant %q", got, want)
	}
	for _, tc := range []struct {
		sub      string
		from, to int
	}{{"", 2000, 2060}, {"A", 2010, 2060}, {"B", 2000, 2030}} {
		s := newSet("T", tc.sub, c)
		if s.From() != tc.from || s.To() != tc.to {
			t.Errorf("%q: %d..%d, want %d..%d", tc.sub, s.From(), s.To(), tc.from, tc.to)
		}
		for _, y := range []int{tc.from - 1, tc.to + 1} {
			if _, err := s.Year(y); !errors.Is(err, ErrYearRange) {
				t.Errorf("%q %d: %v", tc.sub, y, err)
			}
		}
		why := s.ToReason()
		if _, err := s.Year(tc.to + 1); err == nil || !strings.Contains(err.Error(), "("+why+")") {
			t.Errorf("%q %d: %v does not say %q", tc.sub, tc.to+1, err, why)
		}
		w, _ := NewWeek(s, []int{6, 7})
		d, _ := calendar.NewDate(tc.to, 12, 20)
		if _, err := w.Offset(d, 30); !errors.Is(err, ErrYearRange) || !strings.Contains(err.Error(), "("+why+")") {
			t.Errorf("%q: a walk past %d: %v", tc.sub, tc.to, err)
		}
	}
	if s := newSet("T", "A", c); s.ToReason() != "the table ends in 2060" {
		t.Errorf("A's reason %q, want the country's", s.ToReason())
	}
	bad := []Rule{
		{Name: "every without from", Date: "01-01", Every: 2},
		{Name: "short move", Date: "01-01", Move: []int{0, 1}},
		{Name: "move and move_sunday", Date: "01-01", Move: make([]int, 7), MoveSunday: 1},
		{Name: "big move", Date: "01-01", Move: []int{0, 0, 0, 0, 0, 0, 7}},
		{Name: "two observed rules", Date: "01-01", Observed: "sat_fri_sun_mon", ObservedShift: make([]int, 7)},
		{Name: "big shift", Date: "01-01", ObservedShift: []int{0, 0, 0, 0, 0, 0, 8}},
		{Name: "big offset", Date: "01-01", Offset: 40},
	}
	for _, r := range bad {
		if err := (&Country{Name: "x", From: 2000, Rules: []Rule{r}}).check(); err == nil {
			t.Errorf("%s: accepted", r.Name)
		}
	}
	for _, c := range []*Country{
		{Name: "x", From: 2000, To: 1999, ToReason: "r"},
		{Name: "x", From: 2000, To: 2050},
		{Name: "x", From: 2000, ToReason: "r"},
		{Name: "x", From: 2000, SubdivisionYears: map[string]YearRange{"Z": {From: 2001}}},
		{Name: "x", From: 2000, To: 2050, ToReason: "r", Subdivisions: map[string]string{"A": "a"},
			SubdivisionYears: map[string]YearRange{"A": {To: 2060, ToReason: "r"}}},
	} {
		if err := c.check(); err == nil {
			t.Errorf("%+v: accepted", c)
		}
	}
}
