package holidays

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/precisiond/precisiond/internal/calendar"
)

// debianDiff is testdata/debian_disagreements.json, written by
// tools/testdata/oracle/gen_business_debian_diff.py: every date on which
// Debian's python-holidays 0.10.1 or workalendar 17.0.0 differs from the
// reference vectors of the calendars checked against current
// python-holidays, with its cause.
type debianDiff struct {
	Generator struct {
		Reference []string `json:"reference"`
	} `json:"generator"`
	UnexplainedPerCalendar map[string]int `json:"unexplained_per_calendar"`
	Unexplained            []debianEntry  `json:"unexplained"`
	Cases                  []debianEntry  `json:"cases"`
}

// debianEntry is one calendar's dates on which one library and the
// reference differ for one cause.
type debianEntry struct {
	Country     string   `json:"country"`
	Subdivision string   `json:"subdivision"`
	Library     string   `json:"library"`
	In          string   `json:"in"`
	Cause       *string  `json:"cause"`
	Dates       []string `json:"dates"`
}

// TestDebianDisagreements: every listed disagreement has a cause, and the
// side it names still holds: a date "in" the reference is a holiday of the
// reference vectors and of the dataset, a date "in" the library is neither.
// So a data or vector change that settles or moves a disagreement makes the
// list stale and fails here until the script is run again.
func TestDebianDisagreements(t *testing.T) {
	b, err := os.ReadFile("testdata/debian_disagreements.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc debianDiff
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Cases) == 0 || len(doc.Generator.Reference) == 0 {
		t.Fatal("no disagreements or no reference files listed")
	}
	type calYear struct {
		code string
		year int
	}
	ref := map[calYear]map[string]bool{}
	for _, f := range doc.Generator.Reference {
		var v struct {
			Cases []struct {
				Country     string   `json:"country"`
				Subdivision string   `json:"subdivision"`
				Year        int      `json:"year"`
				Dates       []string `json:"dates"`
			} `json:"cases"`
		}
		b, err := os.ReadFile(filepath.Join("..", "..", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, c := range v.Cases {
			set := map[string]bool{}
			for _, d := range c.Dates {
				set[d] = true
			}
			ref[calYear{c.Country + "-" + c.Subdivision, c.Year}] = set
		}
	}
	sets := map[string]*Set{}
	holidayIn := func(country, sub, date string) bool {
		s, ok := sets[country+"-"+sub]
		if !ok {
			var err error
			if s, err = Lookup(country, sub); err != nil {
				t.Fatalf("%s-%s: %v", country, sub, err)
			}
			sets[country+"-"+sub] = s
		}
		d, err := calendar.ParseDate(date)
		if err != nil {
			t.Fatalf("%s: %v", date, err)
		}
		hs, err := s.Year(d.Year)
		if err != nil {
			t.Fatalf("%s-%s %s: %v", country, sub, date, err)
		}
		for _, h := range hs {
			if h.Date == d {
				return true
			}
		}
		return false
	}
	type dateKey struct{ code, library, date string }
	seen := map[dateKey]bool{}
	perCal := map[string]int{}
	check := func(e debianEntry, explained bool) {
		code := e.Country
		if e.Subdivision != "" {
			code += "-" + e.Subdivision
		}
		if explained && (e.Cause == nil || *e.Cause == "") {
			t.Errorf("%s %s %s: no cause", code, e.Library, e.In)
		}
		if !explained && e.Cause != nil {
			t.Errorf("%s %s %s: unexplained with a cause", code, e.Library, e.In)
		}
		if e.Library != "holidays 0.10.1" && e.Library != "workalendar 17.0.0" {
			t.Errorf("%s: library %q", code, e.Library)
		}
		if e.In != "reference" && e.In != "library" {
			t.Errorf("%s: side %q", code, e.In)
		}
		if len(e.Dates) == 0 {
			t.Errorf("%s %s %s: no dates", code, e.Library, e.In)
		}
		for _, date := range e.Dates {
			k := dateKey{code, e.Library, date}
			if seen[k] {
				t.Errorf("%v: listed twice", k)
			}
			seen[k] = true
			y := 0
			for _, c := range date[:4] {
				y = y*10 + int(c-'0')
			}
			dates, ok := ref[calYear{e.Country + "-" + e.Subdivision, y}]
			if !ok {
				t.Errorf("%v: no reference vectors for that calendar and year", k)
				continue
			}
			want := e.In == "reference"
			if got := holidayIn(e.Country, e.Subdivision, date); dates[date] != want || got != want {
				t.Errorf("%v in %s: stale: the reference vectors have the date %v, the dataset %v", k, e.In, dates[date], got)
			}
		}
		if !explained {
			perCal[code] += len(e.Dates)
		}
	}
	for _, e := range doc.Cases {
		check(e, true)
	}
	for _, e := range doc.Unexplained {
		check(e, false)
	}
	if len(perCal) != len(doc.UnexplainedPerCalendar) {
		t.Errorf("unexplained per calendar %v, listed %v", doc.UnexplainedPerCalendar, perCal)
	}
	for k, n := range perCal {
		if doc.UnexplainedPerCalendar[k] != n {
			t.Errorf("%s: %d unexplained listed, counted %d", k, n, doc.UnexplainedPerCalendar[k])
		}
	}
	if len(doc.Unexplained) > 0 {
		t.Logf("%d disagreements still without a cause: %v", len(doc.Unexplained), perCal)
	}
}
