package holidays

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/precisiond/precisiond/internal/calendar"
)

// country decodes a rule set as load does and checks it.
func country(t *testing.T, js string) (*Country, error) {
	t.Helper()
	c := new(Country)
	dec := json.NewDecoder(strings.NewReader(js))
	dec.DisallowUnknownFields()
	if err := dec.Decode(c); err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	return c, c.check()
}

// listed is the holidays of year y as "MM-DD name" (observed marked "*").
func listed(t *testing.T, c *Country, sub string, y int) []string {
	t.Helper()
	s := newSet("XX", sub, c)
	hs, err := s.Year(y)
	if err != nil {
		t.Fatalf("%d: %v", y, err)
	}
	var out []string
	for _, h := range hs {
		e := h.Date.String()[5:] + " " + h.Name
		if h.Observed {
			e += "*"
		}
		out = append(out, e)
	}
	return out
}

// TestRuleForms: the date forms and conditions added for JP, CH and ES,
// each on a small rule set whose answer is worked out by hand from a
// calendar (2024: 1 January a Monday; Easter 31 March; 2023: Easter
// 9 April, 6 April Maundy Thursday).
func TestRuleForms(t *testing.T) {
	cases := []struct {
		name, rules string
		year        int
		want        []string
	}{
		{"by_year", `{"name": "Eq", "by_year": {"2023": "03-21", "2024": "03-20"}, "from": 2023, "to": 2024}`, 2024, []string{"03-20 Eq"}},
		{"between_holidays fills one day", `{"name": "A", "date": "09-16"}, {"name": "B", "date": "09-18"}, {"name": "Mid", "between_holidays": true}`,
			2024, []string{"09-16 A", "09-17 Mid", "09-18 B"}},
		{"between_holidays needs both sides", `{"name": "A", "date": "09-16"}, {"name": "B", "date": "09-19"}, {"name": "Mid", "between_holidays": true}`,
			2024, []string{"09-16 A", "09-19 B"}},
		// 22 September 2024 is a Sunday; the 23rd is taken, so the 24th.
		{"sun_next_free_day", `{"name": "S", "date": "09-22", "observed": "sun_next_free_day"}, {"name": "M", "date": "09-23"}`,
			2024, []string{"09-22 S", "09-23 M", "09-24 S*"}},
		{"sun_next_free_day ignores Saturday", `{"name": "S", "date": "09-21", "observed": "sun_next_free_day"}`, 2024, []string{"09-21 S"}},
		// The first Sunday of September 2024 is the 1st; + 4 is Thursday the 5th.
		{"offset", `{"name": "G", "nth": {"month": 9, "weekday": 7, "n": 1}, "offset": 4}`, 2024, []string{"09-05 G"}},
		{"avoid_easter moves", `{"name": "N", "nth": {"month": 4, "weekday": 4, "n": 1}, "avoid_easter": {"easter": -3, "move": 7}}`, 2023, []string{"04-13 N"}},
		{"avoid_easter stays", `{"name": "N", "nth": {"month": 4, "weekday": 4, "n": 1}, "avoid_easter": {"easter": -3, "move": 7}}`, 2024, []string{"04-04 N"}},
		{"not_on drops", `{"name": "B", "date": "01-02", "not_on": [2, 3, 4, 5, 6, 7]}`, 2024, nil},
		{"not_on keeps", `{"name": "B", "date": "01-01", "not_on": [2, 3, 4, 5, 6, 7]}`, 2024, []string{"01-01 B"}},
		{"years", `{"name": "Y", "date": "03-19", "years": [2023, 2025]}`, 2024, nil},
		// 1 September 2024 is a Sunday; 1 May 2024 a Wednesday.
		{"when_sunday holds", `{"name": "W", "date": "07-25", "when_sunday": ["05-01", "09-01"]}`, 2024, []string{"07-25 W"}},
		{"when_sunday fails, years hold", `{"name": "W", "date": "07-25", "when_sunday": ["05-01"], "years": [2024]}`, 2024, nil},
		{"when_sunday holds, years fail", `{"name": "W", "date": "07-25", "when_sunday": ["09-01"], "years": [2023]}`, 2024, nil},
		{"when_sunday and years hold", `{"name": "W", "date": "07-25", "when_sunday": ["09-01"], "years": [2024]}`, 2024, []string{"07-25 W"}},
		// 1 September 2024 a Sunday: a date moved to the Monday, only then.
		{"move on its own Sunday", `{"name": "M", "date": "09-01", "when_sunday": ["09-01"], "move_sunday": 1}`, 2024, []string{"09-02 M"}},
		{"when_sunday fails", `{"name": "W", "date": "07-25", "when_sunday": ["05-01"]}`, 2024, nil},
	}
	for _, c := range cases {
		cc, err := country(t, `{"name": "T", "from": 2020, "subdivisions": {}, "rules": [`+c.rules+`]}`)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if got := listed(t, cc, "", c.year); !slices.Equal(got, c.want) {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

// TestRuleFormsRefused: check() refuses malformed uses of the new forms.
func TestRuleFormsRefused(t *testing.T) {
	for _, rules := range []string{
		`{"name": "Eq", "by_year": {"2023": "03-21"}}`,                           // 2020..2100 not all present
		`{"name": "Eq", "by_year": {"2021": "02-30"}, "from": 2021, "to": 2021}`, // no such day
		`{"name": "Eq", "by_year": {"21": "03-20"}, "from": 2021, "to": 2021}`,   // not a year
		`{"name": "Eq", "by_year": {"2021": "03-20"}, "date": "03-20", "from": 2021, "to": 2021}`,
		`{"name": "Mid", "between_holidays": true, "observed": "sun_next_free_day"}`,
		`{"name": "Mid", "between_holidays": true, "date": "01-01"}`,
		`{"name": "N", "date": "04-01", "avoid_easter": {"easter": -3, "move": 0}}`,
		`{"name": "N", "date": "04-01", "offset": 40}`,
		`{"name": "N", "date": "04-01", "not_on": [8]}`,
		`{"name": "N", "date": "04-01", "years": [3000]}`,
		`{"name": "N", "date": "04-01", "when_sunday": ["02-30"]}`,
		`{"name": "N", "date": "04-01", "observed": "sun_next_weekday"}`,
	} {
		if _, err := country(t, `{"name": "T", "from": 2020, "subdivisions": {}, "rules": [`+rules+`]}`); err == nil {
			t.Errorf("%s: accepted", rules)
		}
	}
	for _, years := range []string{`{"ZZ": {"to": 2026}}`, `{"AA": {"from": 2019}}`, `{"AA": {"to": 2101, "to_reason": "r"}}`,
		`{"AA": {"from": 2030, "to": 2029, "to_reason": "r"}}`, `{"AA": {"to": 2026}}`, `{"AA": {"to_reason": "r"}}`} {
		if _, err := country(t, `{"name": "T", "from": 2020, "subdivisions": {"AA": "A"}, "rules": [], "subdivision_years": `+years+`}`); err == nil {
			t.Errorf("subdivision_years %s: accepted", years)
		}
	}
}

// TestSubdivisionYears: a subdivision published up to a year answers up to
// it, refuses the next year and a walk past it; the national calendar
// keeps its own range.
func TestSubdivisionYears(t *testing.T) {
	c, err := country(t, `{"name": "T", "from": 2020, "subdivisions": {"AA": "A"}, "subdivision_years": {"AA": {"from": 2022, "to": 2026, "to_reason": "published only up to 2026"}},
		"rules": [{"name": "R", "date": "12-31", "subdivisions": ["AA"]}]}`)
	if err != nil {
		t.Fatal(err)
	}
	sub := newSet("XX", "AA", c)
	nat := newSet("XX", "", c)
	if sub.From() != 2022 || sub.To() != 2026 || nat.From() != 2020 || nat.To() != MaxYear {
		t.Fatalf("ranges %d..%d, %d..%d", sub.From(), sub.To(), nat.From(), nat.To())
	}
	for _, y := range []int{2021, 2027} {
		if _, err := sub.Year(y); !errors.Is(err, ErrYearRange) {
			t.Errorf("%d: %v", y, err)
		}
	}
	if _, err := sub.Year(2027); err == nil || !strings.Contains(err.Error(), "published only up to 2026") {
		t.Errorf("2027: %v", err)
	}
	if got := listed(t, c, "AA", 2026); !slices.Equal(got, []string{"12-31 R"}) {
		t.Errorf("2026: %q", got)
	}
	w, _ := NewWeek(sub, []int{6, 7})
	d := mustDate(t, "2026-12-29")
	if r, err := w.Offset(d, 1); err != nil || r.String() != "2026-12-30" {
		t.Errorf("Offset 1: %v %v", r, err)
	}
	if _, err := w.Offset(d, 2); !errors.Is(err, ErrYearRange) { // 31 Dec is a holiday; 1 Jan 2027 is not covered
		t.Errorf("Offset 2: %v", err)
	}
	if _, err := NewWeek(nat, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := nat.Year(2100); err != nil {
		t.Errorf("national 2100: %v", err)
	}
}

func mustDate(t *testing.T, s string) calendar.Date {
	t.Helper()
	d, err := calendar.ParseDate(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}
