package tools

import (
	"slices"
	"strings"
	"testing"

	"github.com/precisiond/precisiond/contracts"
	"github.com/precisiond/precisiond/internal/holidays"
)

func invokeFacts(t *testing.T, tool string, args map[string]any) map[string]any {
	t.Helper()
	return invokeOK(t, tool, args).Envelope.Facts()
}

// TestBusinessCalendarSource: the contract names the dataset's version and
// SHA-256, and its description names every covered country and subdivision.
func TestBusinessCalendarSource(t *testing.T) {
	tool, _, ok := testRegistry(t).Lookup("business_calendar")
	if !ok {
		t.Fatal("business_calendar is not registered")
	}
	c := tool.Contract
	want := holidays.Version() + " sha256:" + holidays.SHA256()
	if c.SourcePolicy["version"] != want {
		t.Errorf("source_policy.version %q, want %q", c.SourcePolicy["version"], want)
	}
	if name, _ := c.SourcePolicy["name"].(string); !strings.HasPrefix(name, holidays.Name()+" ") {
		t.Errorf("source_policy.name %q does not name %s", c.SourcePolicy["name"], holidays.Name())
	}
	props := c.InputSchema["properties"].(map[string]any)
	countryDoc := props["country"].(map[string]any)["description"].(string)
	subDoc := props["subdivision"].(map[string]any)["description"].(string)
	for _, code := range holidays.Countries() {
		info := holidays.CountryInfo(code)
		if !strings.Contains(c.Description, code+" (") || !strings.Contains(countryDoc, code) {
			t.Errorf("%s is not named in the description", code)
		}
		if !strings.Contains(c.Description, "from "+itoa(info.From)) {
			t.Errorf("%s: its first year %d is not in the description", code, info.From)
		}
		for _, sub := range info.SubdivisionCodes() {
			if !strings.Contains(subDoc, sub) {
				t.Errorf("%s-%s is not named in the subdivision description", code, sub)
			}
		}
	}
}

// TestBusinessCalendarAnswers: names and reasons through the tool, for the
// cases the vectors of internal/holidays check only by date.
func TestBusinessCalendarAnswers(t *testing.T) {
	cases := []struct {
		args         map[string]any
		reason, name any
		business     bool
	}{
		{map[string]any{"operation": "is_business_day", "country": "DE", "subdivision": "SN", "date": "2023-11-22"}, "holiday", "Repentance and Prayer Day", false},
		{map[string]any{"operation": "is_business_day", "country": "DE", "subdivision": "BY", "date": "2023-11-22"}, nil, nil, true},
		{map[string]any{"operation": "is_business_day", "country": "DE", "date": "2008-05-01"}, "holiday", "Labour Day; Ascension Day", false},
		{map[string]any{"operation": "is_business_day", "country": "GB", "subdivision": "SCT", "date": "2022-01-01"}, "holiday", "New Year's Day", false},
		{map[string]any{"operation": "is_business_day", "country": "GB", "subdivision": "SCT", "date": "2022-01-04"}, "holiday", "New Year Holiday (observed)", false},
		{map[string]any{"operation": "is_business_day", "country": "US", "date": "2021-12-31"}, "holiday", "New Year's Day (observed)", false},
		{map[string]any{"operation": "is_business_day", "country": "US", "date": "2021-12-25"}, "holiday", "Christmas Day", false},
		{map[string]any{"operation": "is_business_day", "country": "US", "date": "2021-12-26"}, "weekend", nil, false},
		{map[string]any{"operation": "is_business_day", "country": "US", "date": "2021-12-26", "weekend": []any{5, 6}}, nil, nil, true},
		{map[string]any{"operation": "is_business_day", "country": "AT", "date": "2021-12-24", "weekend": []any{5, 6}}, "weekend", nil, false},
		{map[string]any{"operation": "is_business_day", "country": "NL", "date": "2014-04-26"}, "holiday", "King's Day", false},
		{map[string]any{"operation": "is_business_day", "country": "NL", "date": "2014-04-27"}, "weekend", nil, false},
		{map[string]any{"operation": "is_business_day", "country": "IT", "date": "2026-10-05"}, nil, nil, true},
		{map[string]any{"operation": "is_business_day", "country": "IE", "date": "2026-02-02"}, "holiday", "St. Brigid's Day", false},
		{map[string]any{"operation": "is_business_day", "country": "IE", "date": "2030-02-01"}, "holiday", "St. Brigid's Day", false},
		{map[string]any{"operation": "is_business_day", "country": "IE", "date": "2030-02-04"}, nil, nil, true},
		{map[string]any{"operation": "is_business_day", "country": "ES", "date": "2024-03-28"}, nil, nil, true},
		{map[string]any{"operation": "is_business_day", "country": "CH", "subdivision": "VD", "date": "2024-09-16"}, "holiday", "Federal Fast Monday", false},
		{map[string]any{"operation": "is_business_day", "country": "CH", "subdivision": "VD", "date": "2025-09-22"}, "holiday", "Federal Fast Monday", false},
		{map[string]any{"operation": "is_business_day", "country": "CH", "subdivision": "ZH", "date": "2024-09-16"}, nil, nil, true},
		// The cantons added from current python-holidays' rules.
		{map[string]any{"operation": "is_business_day", "country": "CH", "subdivision": "GE", "date": "2024-09-05"}, "holiday", "Genevan Fast", false},
		{map[string]any{"operation": "is_business_day", "country": "CH", "subdivision": "GL", "date": "2023-04-13"}, "holiday", "Battle of Naefels Victory Day", false},
		{map[string]any{"operation": "is_business_day", "country": "CH", "subdivision": "GL", "date": "2023-04-06"}, nil, nil, true},
		{map[string]any{"operation": "is_business_day", "country": "CH", "subdivision": "NE", "date": "2023-01-02"}, "holiday", "Berchtold's Day", false},
		{map[string]any{"operation": "is_business_day", "country": "CH", "subdivision": "NE", "date": "2024-01-02"}, nil, nil, true},
		{map[string]any{"operation": "is_business_day", "country": "CH", "subdivision": "TI", "date": "2024-03-29"}, nil, nil, true},
		// Spain's regions (BOE resolutions of 2022 and 2023).
		{map[string]any{"operation": "is_business_day", "country": "ES", "subdivision": "MD", "date": "2024-03-28"}, "holiday", "Maundy Thursday", false},
		{map[string]any{"operation": "is_business_day", "country": "ES", "subdivision": "CT", "date": "2024-03-28"}, nil, nil, true},
		{map[string]any{"operation": "is_business_day", "country": "ES", "subdivision": "AN", "date": "2023-01-02"}, "holiday", "Monday following New Year's Day", false},
		{map[string]any{"operation": "is_business_day", "country": "ES", "subdivision": "MD", "date": "2023-01-02"}, nil, nil, true},
		{map[string]any{"operation": "is_business_day", "country": "ES", "subdivision": "MD", "date": "2023-03-20"}, "holiday", "Saint Joseph's Day", false},
		{map[string]any{"operation": "is_business_day", "country": "ES", "subdivision": "MD", "date": "2023-01-01", "weekend": []any{5, 6}}, nil, nil, true},
		{map[string]any{"operation": "is_business_day", "country": "ES", "date": "2023-01-01", "weekend": []any{5, 6}}, "holiday", "New Year's Day", false},
		// Japan: the Cabinet Office's lists (2019, 2024, 2009).
		{map[string]any{"operation": "is_business_day", "country": "JP", "date": "2019-04-30"}, "holiday", "National Holiday", false},
		{map[string]any{"operation": "is_business_day", "country": "JP", "date": "2019-05-01"}, "holiday", "Emperor's Enthronement Day", false},
		{map[string]any{"operation": "is_business_day", "country": "JP", "date": "2024-09-23"}, "holiday", "Autumnal Equinox Day (observed)", false},
		{map[string]any{"operation": "is_business_day", "country": "JP", "date": "2009-09-22"}, "holiday", "National Holiday", false},
		{map[string]any{"operation": "is_business_day", "country": "JP", "date": "2100-03-19"}, nil, nil, true},
		// US states, CA, AU and NZ from current python-holidays' rules.
		{map[string]any{"operation": "is_business_day", "country": "US", "subdivision": "TX", "date": "2024-03-02"}, "holiday", "Texas Independence Day", false},
		{map[string]any{"operation": "is_business_day", "country": "US", "subdivision": "GA", "date": "2024-12-24"}, "holiday", "Washington's Birthday", false},
		{map[string]any{"operation": "is_business_day", "country": "US", "subdivision": "MA", "date": "2022-04-18"}, "holiday", "Patriots' Day", false},
		{map[string]any{"operation": "is_business_day", "country": "US", "subdivision": "MA", "date": "2021-12-24"}, nil, nil, true},
		{map[string]any{"operation": "is_business_day", "country": "US", "subdivision": "NY", "date": "2021-12-24"}, "holiday", "Christmas Day (observed)", false},
		{map[string]any{"operation": "is_business_day", "country": "US", "subdivision": "DC", "date": "2025-01-20"}, "holiday", "Martin Luther King Jr. Day; Inauguration Day", false},
		{map[string]any{"operation": "is_business_day", "country": "US", "subdivision": "CA", "date": "2026-11-08"}, "holiday", "Diwali", false},
		{map[string]any{"operation": "is_business_day", "country": "US", "subdivision": "VA", "date": "2025-11-04"}, "holiday", "Election Day", false},
		{map[string]any{"operation": "is_business_day", "country": "US", "subdivision": "VA", "date": "2025-11-28"}, "holiday", "Day After Thanksgiving", false},
		{map[string]any{"operation": "is_business_day", "country": "CA", "subdivision": "QC", "date": "2024-05-20"}, "holiday", "National Patriots' Day", false},
		{map[string]any{"operation": "is_business_day", "country": "CA", "subdivision": "ON", "date": "2021-12-28"}, "holiday", "Boxing Day (observed)", false},
		{map[string]any{"operation": "is_business_day", "country": "CA", "subdivision": "QC", "date": "2021-12-28"}, nil, nil, true},
		{map[string]any{"operation": "is_business_day", "country": "AU", "subdivision": "NSW", "date": "2022-12-27"}, "holiday", "Christmas Day (observed)", false},
		{map[string]any{"operation": "is_business_day", "country": "AU", "subdivision": "TAS", "date": "2021-12-28"}, "holiday", "Boxing Day", false},
		{map[string]any{"operation": "is_business_day", "country": "AU", "subdivision": "TAS", "date": "2021-12-26"}, "weekend", nil, false},
		{map[string]any{"operation": "is_business_day", "country": "AU", "subdivision": "VIC", "date": "2025-11-04"}, "holiday", "Melbourne Cup Day", false},
		{map[string]any{"operation": "is_business_day", "country": "AU", "subdivision": "NSW", "date": "2023-01-26"}, "holiday", "Australia Day", false},
		{map[string]any{"operation": "is_business_day", "country": "AU", "subdivision": "NSW", "date": "2025-01-27"}, "holiday", "Australia Day", false},
		{map[string]any{"operation": "is_business_day", "country": "NZ", "date": "2025-06-20"}, "holiday", "Matariki", false},
		{map[string]any{"operation": "is_business_day", "country": "NZ", "subdivision": "WGN", "date": "2024-01-22"}, "holiday", "Wellington Anniversary Day", false},
		{map[string]any{"operation": "is_business_day", "country": "NZ", "subdivision": "AUK", "date": "2024-01-22"}, nil, nil, true},
		{map[string]any{"operation": "is_business_day", "country": "NZ", "subdivision": "OTA", "date": "2035-03-27"}, "holiday", "Otago Anniversary Day", false},
	}
	for _, c := range cases {
		f := invokeFacts(t, "business_calendar", c.args)
		if f["business_day"] != c.business || f["reason"] != c.reason || f["holiday_name"] != c.name {
			t.Errorf("%v: got %v %v %v, want %v %v %v", c.args, f["business_day"], f["reason"], f["holiday_name"], c.business, c.reason, c.name)
		}
	}
	f := invokeFacts(t, "business_calendar", map[string]any{"operation": "holidays", "country": "GB", "subdivision": "ENG", "year": 2022})
	var got []string
	for _, h := range f["holidays"].([]any) {
		m := h.(map[string]any)
		s := m["date"].(string) + " " + m["name"].(string)
		if m["observed"] == true {
			s += " (observed)"
		}
		got = append(got, s)
	}
	// gov.uk's England and Wales list of 2022, with the days on the weekend.
	want := []string{"2022-01-01 New Year's Day", "2022-01-03 New Year's Day (observed)", "2022-04-15 Good Friday",
		"2022-04-18 Easter Monday", "2022-05-02 May Day", "2022-06-02 Spring Bank Holiday",
		"2022-06-03 Platinum Jubilee of Elizabeth II", "2022-08-29 Late Summer Bank Holiday",
		"2022-09-19 State Funeral of Queen Elizabeth II", "2022-12-25 Christmas Day", "2022-12-26 Boxing Day",
		"2022-12-27 Christmas Day (observed)"}
	if !slices.Equal(got, want) {
		t.Errorf("GB-ENG 2022:\n got %q\nwant %q", got, want)
	}
}

// TestBusinessCalendarHostile: codes in the wrong case, unknown codes and
// absurd arguments get typed refusals, with did-you-mean hints for codes.
func TestBusinessCalendarHostile(t *testing.T) {
	cases := []struct {
		name         string
		args         map[string]any
		code, reason string
		hint         string
	}{
		{"lower-case country", map[string]any{"operation": "holidays", "country": "de", "year": 2024}, CodeExecution, "unknown_country", "DE"},
		{"uncovered country", map[string]any{"operation": "holidays", "country": "BR", "year": 2024}, CodeExecution, "unknown_country", ""},
		{"Switzerland without canton", map[string]any{"operation": "holidays", "country": "CH", "year": 2024}, CodeExecution, "subdivision_required", ""},
		{"a misspelt canton", map[string]any{"operation": "holidays", "country": "CH", "subdivision": "GEN", "year": 2024}, CodeExecution, "unknown_subdivision", "GE"},
		{"a French region", map[string]any{"operation": "holidays", "country": "FR", "subdivision": "57", "year": 2024}, CodeExecution, "unknown_subdivision", ""},
		{"Bavaria with Assumption", map[string]any{"operation": "holidays", "country": "DE", "subdivision": "BYP", "year": 2024}, CodeExecution, "unknown_subdivision", "BY"},
		{"England spelled out", map[string]any{"operation": "holidays", "country": "GB", "subdivision": "EN", "year": 2024}, CodeExecution, "unknown_subdivision", "ENG"},
		{"a former US subdivision", map[string]any{"operation": "holidays", "country": "US", "subdivision": "FM", "year": 2024}, CodeExecution, "unknown_subdivision", ""},
		{"a US state in lower case", map[string]any{"operation": "holidays", "country": "US", "subdivision": "tx", "year": 2024}, CodeExecution, "unknown_subdivision", "TX"},
		{"a US state spelled out", map[string]any{"operation": "holidays", "country": "US", "subdivision": "CAL", "year": 2024}, CodeExecution, "unknown_subdivision", "CA"},
		{"Virginia before its rules", map[string]any{"operation": "holidays", "country": "US", "subdivision": "VA", "year": 2020}, CodeExecution, "year_out_of_range", ""},
		{"a Canadian province misspelled", map[string]any{"operation": "holidays", "country": "CA", "subdivision": "ONT", "year": 2024}, CodeExecution, "unknown_subdivision", "ON"},
		{"an Australian state misspelled", map[string]any{"operation": "holidays", "country": "AU", "subdivision": "VICT", "year": 2024}, CodeExecution, "unknown_subdivision", "VIC"},
		{"South Canterbury (no ISO code)", map[string]any{"operation": "holidays", "country": "NZ", "subdivision": "STC", "year": 2024}, CodeExecution, "unknown_subdivision", ""},
		{"a NZ region without its own anniversary day", map[string]any{"operation": "holidays", "country": "NZ", "subdivision": "BOP", "year": 2024}, CodeExecution, "unknown_subdivision", ""},
		{"NZ before Matariki", map[string]any{"operation": "holidays", "country": "NZ", "year": 2021}, CodeExecution, "year_out_of_range", ""},
		{"NZ after the Matariki table", map[string]any{"operation": "holidays", "country": "NZ", "subdivision": "AUK", "year": 2053}, CodeExecution, "year_out_of_range", ""},
		{"a walk past the Matariki table", map[string]any{"operation": "add_business_days", "country": "NZ", "date": "2052-12-20", "days": 20}, CodeExecution, "year_out_of_range", ""},
		{"California after its Diwali table", map[string]any{"operation": "is_business_day", "country": "US", "subdivision": "CA", "date": "2036-01-02"}, CodeExecution, "year_out_of_range", ""},
		{"GB without nation", map[string]any{"operation": "is_business_day", "country": "GB", "date": "2024-01-01"}, CodeExecution, "subdivision_required", ""},
		{"year 1990 in DE", map[string]any{"operation": "holidays", "country": "DE", "year": 1990}, CodeExecution, "year_out_of_range", ""},
		{"ES region after its last published year", map[string]any{"operation": "holidays", "country": "ES", "subdivision": "MD", "year": 2027}, CodeExecution, "year_out_of_range", ""},
		{"ES region before 2008", map[string]any{"operation": "is_business_day", "country": "ES", "subdivision": "CT", "date": "2007-12-31"}, CodeExecution, "year_out_of_range", ""},
		{"ES region walk past 2026", map[string]any{"operation": "add_business_days", "country": "ES", "subdivision": "CT", "date": "2026-12-01", "days": 40}, CodeExecution, "year_out_of_range", ""},
		{"ES region misspelt", map[string]any{"operation": "holidays", "country": "ES", "subdivision": "MAD", "year": 2024}, CodeExecution, "unknown_subdivision", "MD"},
		{"JP before 2007", map[string]any{"operation": "is_business_day", "country": "JP", "date": "2006-12-31"}, CodeExecution, "year_out_of_range", ""},
		{"a JP prefecture", map[string]any{"operation": "holidays", "country": "JP", "subdivision": "13", "year": 2024}, CodeExecution, "unknown_subdivision", ""},
		{"date after 2100", map[string]any{"operation": "is_business_day", "country": "AT", "date": "2101-01-01"}, CodeExecution, "year_out_of_range", ""},
		{"walk past 2100", map[string]any{"operation": "add_business_days", "country": "US", "date": "2000-01-01", "days": 50000}, CodeExecution, "year_out_of_range", ""},
		{"days beyond the schema", map[string]any{"operation": "add_business_days", "country": "US", "date": "2000-01-01", "days": 50001}, CodeInputSchemaInvalid, "", ""},
		{"seven-day weekend", map[string]any{"operation": "business_days_between", "country": "DE", "start": "2024-01-01", "end": "2024-02-01", "weekend": []any{1, 2, 3, 4, 5, 6, 7}}, CodeExecution, "no_business_days", ""},
		{"weekday 0", map[string]any{"operation": "business_days_between", "country": "DE", "start": "2024-01-01", "end": "2024-02-01", "weekend": []any{0}}, CodeInputSchemaInvalid, "", ""},
		{"repeated weekday", map[string]any{"operation": "business_days_between", "country": "DE", "start": "2024-01-01", "end": "2024-02-01", "weekend": []any{6, 6}}, CodeInputSchemaInvalid, "", ""},
		{"NUL in a date", map[string]any{"operation": "is_business_day", "country": "DE", "date": "2024-01-0\x00"}, CodeExecution, "invalid_date", ""},
		{"long country", map[string]any{"operation": "holidays", "country": strings.Repeat("D", 17), "year": 2024}, CodeInputSchemaInvalid, "", ""},
		{"missing days", map[string]any{"operation": "add_business_days", "country": "DE", "date": "2024-01-01"}, CodeInputSchemaInvalid, "", ""},
		{"missing year", map[string]any{"operation": "holidays", "country": "DE"}, CodeInputSchemaInvalid, "", ""},
	}
	for _, c := range cases {
		e := invokeErr(t, "business_calendar", c.args)
		if e.Code != c.code || (c.reason != "" && e.Reason != c.reason) {
			t.Errorf("%s: got %s/%s (%s), want %s/%s", c.name, e.Code, e.Reason, e.Message, c.code, c.reason)
			continue
		}
		if c.hint != "" {
			found := false
			for _, d := range e.Details {
				if d.Keyword == contracts.KeywordDidYouMean && d.Message == c.hint {
					found = true
				}
			}
			if !found {
				t.Errorf("%s: details %+v do not suggest %s", c.name, e.Details, c.hint)
			}
		}
	}
}

func BenchmarkBusinessDays(b *testing.B) {
	benchTool(b, "business_calendar", map[string]any{"operation": "business_days_between", "country": "DE", "subdivision": "BY", "start": "1991-01-01", "end": "2100-12-31"})
}
