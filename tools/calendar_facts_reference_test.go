package tools

import (
	"strings"
	"testing"
	"unicode"

	"github.com/precisiond/precisiond/internal/calendar"
)

// calendarReferenceJudge explains the documented differences of calendar_facts
// from the reference (docs/compatibility.md, ## calendar_facts).
func calendarReferenceJudge(o refOutcome) string {
	date, loc := o.arg("date_str"), o.arg("locale")
	switch {
	case o.err == nil && o.refCode() == CodeInputSchemaInvalid:
		if loc != "de" && loc != "en" && calendar.KnownLocale(loc) && strings.Contains(o.v.Ref["error"].(string), "locale:enum") {
			return "more-locales"
		}
	case o.err != nil && o.err.Code == CodeInputSchemaInvalid && o.err.Message == "Input schema validation failed for 'calendar_facts': date_str:pattern" && o.refCode() != CodeInputSchemaInvalid:
		// The reference's pattern (Python re) let the string through; its
		// function answered or refused it (tool_execution_error).
		if strings.HasSuffix(date, "\n") {
			return "final-newline"
		}
		if strings.IndexFunc(date, func(r rune) bool { return r > unicode.MaxASCII && unicode.IsDigit(r) }) >= 0 {
			return "unicode-digits"
		}
	}
	return ""
}

// calendar_facts answers as the reference's own code does (run by
// gen_reference_calendar.py), but for the differences listed under
// ## calendar_facts in docs/compatibility.md.
func TestCalendarFactsMatchesReference(t *testing.T) {
	seen := compareWithReference(t, "calendar_facts", calendarReferenceJudge)
	if seen[""] < 500 {
		t.Errorf("only %d reference vectors match exactly", seen[""])
	}
	for _, tag := range []string{"more-locales", "final-newline", "unicode-digits"} {
		if seen[tag] == 0 {
			t.Errorf("no vector shows %q: the vectors no longer cover it", tag)
		}
	}
}
