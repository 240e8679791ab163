package tools

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/precisiond/precisiond/contracts"
	"github.com/precisiond/precisiond/evidence"
)

// invokeErr calls tool through the registry and returns its typed error.
func invokeErr(t *testing.T, tool string, args map[string]any) *Error {
	t.Helper()
	_, err := testRegistry(t).Invoke(context.Background(), Request{Tool: tool, Args: args})
	var te *Error
	if !errors.As(err, &te) {
		t.Fatalf("%s %v: got %v, want a typed error", tool, args, err)
	}
	return te
}

func invokeOK(t *testing.T, tool string, args map[string]any) *Response {
	t.Helper()
	resp, err := testRegistry(t).Invoke(context.Background(), Request{Tool: tool, Args: args})
	if err != nil {
		t.Fatalf("%s %v: %v", tool, args, err)
	}
	return resp
}

func hints(path string, names ...string) []contracts.Detail {
	var ds []contracts.Detail
	for _, n := range names {
		ds = append(ds, contracts.Detail{Path: path, Keyword: KeywordDidYouMean, Message: n})
	}
	return ds
}

// F to C is the farad and the coulomb; the error says so and names degF and
// degC, which convert.
func TestUnitConvertTemperatureSymbolHint(t *testing.T) {
	for _, c := range []struct {
		from, to string
		msg      string
		details  []contracts.Detail
	}{
		{"F", "C", `: "F" is the farad and "C" is the coulomb (did you mean "degF" to "degC"?)`,
			append(hints("/from_unit", "degF"), hints("/to_unit", "degC")...)},
		{"C", "F", `: "C" is the coulomb and "F" is the farad (did you mean "degC" to "degF"?)`,
			append(hints("/from_unit", "degC"), hints("/to_unit", "degF")...)},
		{"F", "K", `: "F" is the farad (did you mean "degF" to "K"?)`, hints("/from_unit", "degF")},
		{"kelvin", "C", `: "C" is the coulomb (did you mean "kelvin" to "degC"?)`, hints("/to_unit", "degC")},
		{"R", "degC", `: "R" is the molar_gas_constant (did you mean "degR" to "degC"?)`, hints("/from_unit", "degR")},
	} {
		e := invokeErr(t, "unit_convert", unitArgs("100", c.from, c.to))
		if e.Code != CodeToolResult || e.Reason != "dimensionality_mismatch" || !strings.HasSuffix(e.Message, c.msg) {
			t.Errorf("%s -> %s: %v, want a message ending %q", c.from, c.to, e, c.msg)
		}
		if !reflect.DeepEqual(e.Details, c.details) {
			t.Errorf("%s -> %s: details %v, want %v", c.from, c.to, e.Details, c.details)
		}
		// The hint is usable as it stands.
		args := unitArgs("100", c.from, c.to)
		for _, d := range e.Details {
			args[strings.TrimPrefix(d.Path, "/")] = d.Message
		}
		invokeOK(t, "unit_convert", args)
	}
	// A mismatch with nothing to do with temperatures gets no hint.
	for _, p := range [][2]string{{"F", "m"}, {"m", "s"}, {"mF", "degC"}} {
		e := invokeErr(t, "unit_convert", unitArgs("1", p[0], p[1]))
		if e.Reason != "dimensionality_mismatch" || strings.Contains(e.Message, "did you mean") || len(e.Details) != 0 {
			t.Errorf("%s -> %s: %v details %v", p[0], p[1], e, e.Details)
		}
	}
}

// An unknown unit's error suggests the nearest names; the details give the
// whole argument with the token replaced, which converts.
func TestUnitConvertUnknownUnitHints(t *testing.T) {
	for _, c := range []struct {
		from, to, field, msg, first string
	}{
		{"furlong/fortnite", "m/s", "from_unit", `unknown unit "fortnite" (did you mean "fortnight"?)`, "furlong/fortnight"},
		{"m", "kilomter", "to_unit", `unknown unit "kilomter" (did you mean "kilometer"`, "kilometer"},
		{"kWH", "J", "from_unit", `unknown unit "kWH" (did you mean "kWh"`, "kWh"},
		{"imperial gallon", "L", "from_unit", `unknown unit "imperial" (did you mean "imperial_gallon"?)`, "imperial_gallon"},
	} {
		e := invokeErr(t, "unit_convert", unitArgs("1", c.from, c.to))
		if e.Reason != "unknown_unit" || !strings.Contains(e.Message, c.msg) {
			t.Errorf("%s -> %s: %v, want %q", c.from, c.to, e, c.msg)
		}
		if len(e.Details) == 0 || len(e.Details) > 3 || !reflect.DeepEqual(e.Details[0], contracts.Detail{Path: "/" + c.field, Keyword: KeywordDidYouMean, Message: c.first}) {
			t.Errorf("%s -> %s: details %v, want %s first", c.from, c.to, e.Details, c.first)
			continue
		}
		args := unitArgs("1", c.from, c.to)
		args[c.field] = c.first
		invokeOK(t, "unit_convert", args)
	}
	if e := invokeErr(t, "unit_convert", unitArgs("1", "Qxqxqxq", "m")); e.Reason != "unknown_unit" || len(e.Details) != 0 || strings.Contains(e.Message, "did you mean") {
		t.Errorf("nonsense unit: %v details %v", e, e.Details)
	}
}

// A zone id in another case answers as the id does: the same facts, the id in
// input_normalized, so the same result_hash. An exact id, a link among them,
// keeps its spelling.
func TestTimeFactsZoneCase(t *testing.T) {
	exact := invokeOK(t, "time_facts", map[string]any{"instant": "2026-07-29T12:00:00Z", "timezone_name": "Europe/Berlin"})
	for _, z := range []string{"europe/berlin", "EUROPE/BERLIN", "eUrOpE/bErLiN"} {
		resp := invokeOK(t, "time_facts", map[string]any{"instant": "2026-07-29T12:00:00Z", "timezone_name": z})
		a, _ := evidence.Canonical(exact.Envelope.Facts())
		b, _ := evidence.Canonical(resp.Envelope.Facts())
		if string(a) != string(b) || resp.Result != exact.Result {
			t.Errorf("%s: facts %s, want %s", z, b, a)
		}
		if got := resp.Envelope.InputNormalized["timezone_name"]; got != "Europe/Berlin" {
			t.Errorf("%s: input_normalized timezone_name %v, want Europe/Berlin", z, got)
		}
		if resp.Envelope.ResultHash != exact.Envelope.ResultHash {
			t.Errorf("%s: result_hash %s, Europe/Berlin's is %s", z, resp.Envelope.ResultHash, exact.Envelope.ResultHash)
		}
	}
	for z, want := range map[string]string{"US/Eastern": "US/Eastern", "us/eastern": "US/Eastern", "UTC": "UTC", "utc": "UTC", "Etc/GMT-5": "Etc/GMT-5"} {
		resp := invokeOK(t, "time_facts", map[string]any{"instant": "2026-07-29T12:00:00Z", "timezone_name": z})
		if got := resp.Envelope.InputNormalized["timezone_name"]; got != want {
			t.Errorf("%s: input_normalized timezone_name %v, want %s", z, got, want)
		}
	}
	// timezone_convert: both zone arguments.
	conv := invokeOK(t, "timezone_convert", map[string]any{"local_datetime": "2026-07-29T12:00:00", "from_timezone": "asia/kolkata", "to_timezone": "utc+5"})
	if in := conv.Envelope.InputNormalized; in["from_timezone"] != "Asia/Kolkata" || in["to_timezone"] != "UTC+0500" {
		t.Errorf("timezone_convert input_normalized %v", in)
	}
}

// Fixed offsets within the pattern answer as the IANA Etc zone with the same
// offset, under the name UTC±HHMM; forms the pattern refuses stay refused.
func TestTimeFactsFixedOffsets(t *testing.T) {
	etc := invokeOK(t, "time_facts", map[string]any{"instant": "2026-07-29T12:00:00Z", "timezone_name": "Etc/GMT-5"}).Envelope.Facts()
	for _, z := range []string{"UTC+5", "UTC+05", "UTC+0500", "utc+0500"} {
		f := invokeOK(t, "time_facts", map[string]any{"instant": "2026-07-29T12:00:00Z", "timezone_name": z}).Envelope.Facts()
		if f["timezone"] != "UTC+0500" || f["timezone_abbreviation"] != "UTC+0500" {
			t.Errorf("%s: timezone %v, abbreviation %v", z, f["timezone"], f["timezone_abbreviation"])
		}
		for _, k := range []string{"local_datetime", "utc_offset", "utc_offset_seconds", "is_dst", "fold", "date", "time", "weekday_iso"} {
			if !reflect.DeepEqual(f[k], etc[k]) {
				t.Errorf("%s: %s = %v, Etc/GMT-5 says %v", z, k, f[k], etc[k])
			}
		}
	}
	f := invokeOK(t, "time_facts", map[string]any{"instant": "2026-07-29T12:00:00Z", "timezone_name": "UTC-0930"}).Envelope.Facts()
	if f["local_datetime"] != "2026-07-29T02:30:00-09:30" || f["utc_offset"] != "-09:30" {
		t.Errorf("UTC-0930: %v", f)
	}
	// Forms the reference's pattern refuses stay refused, with the spelling it
	// admits as the hint; the hint answers with the offset meant.
	for _, c := range []struct{ z, hint, offset string }{
		{"UTC+05:30", "UTC+0530", "+05:30"}, {"+05:30", "UTC+0530", "+05:30"}, {"UTC+5:30", "UTC+0530", "+05:30"},
		{"-0800", "UTC-0800", "-08:00"}, {"+00:00", "UTC", "+00:00"},
	} {
		z, hint := c.z, c.hint
		e := invokeErr(t, "time_facts", map[string]any{"instant": "2026-07-29T12:00:00Z", "timezone_name": z})
		if e.Code != CodeInputSchemaInvalid || e.Message != "Input schema validation failed for 'time_facts': timezone_name:pattern" {
			t.Errorf("%s: %v, want the reference's pattern to refuse it", z, e)
		}
		want := []contracts.Detail{{Path: "/timezone_name", Keyword: KeywordDidYouMean, Message: hint}}
		if len(e.Details) != 2 || !reflect.DeepEqual(e.Details[1:], want) || !strings.HasSuffix(e.Details[0].Message, `(did you mean "`+hint+`"?)`) {
			t.Errorf("%s: details %v, want the hint %s", z, e.Details, hint)
		}
		f := invokeOK(t, "time_facts", map[string]any{"instant": "2026-07-29T12:00:00Z", "timezone_name": hint}).Envelope.Facts()
		if f["utc_offset"] != c.offset {
			t.Errorf("%s: the hint %s answers offset %v", z, hint, f["utc_offset"])
		}
	}
	// Nothing near, no hint; a pattern failure's detail is otherwise untouched.
	e := invokeErr(t, "time_facts", map[string]any{"instant": "2026-07-29T12:00:00Z", "timezone_name": "+25:00"})
	if len(e.Details) != 1 || e.Details[0].Keyword != "pattern" || strings.Contains(e.Details[0].Message, "did you mean") {
		t.Errorf("+25:00: details %v", e.Details)
	}
}

// An unknown zone suggests the nearest ids, in the message and as details on
// the argument's path; the first suggestion answers.
func TestTimeZoneHints(t *testing.T) {
	for _, c := range []struct {
		tool  string
		args  map[string]any
		path  string
		first string
	}{
		{"time_facts", map[string]any{"instant": "2026-07-29T12:00:00Z", "timezone_name": "Europe/Berln"}, "/timezone_name", "Europe/Berlin"},
		{"time_facts", map[string]any{"instant": "2026-07-29T12:00:00Z", "timezone_name": "Berlin"}, "/timezone_name", "Europe/Berlin"},
		{"time_facts", map[string]any{"instant": "2026-07-29T12:00:00Z", "timezone_name": "GMT+5"}, "/timezone_name", "UTC+0500"},
		{"timezone_convert", map[string]any{"local_datetime": "2026-07-29T12:00:00", "from_timezone": "america/new_yrok", "to_timezone": "UTC"}, "/from_timezone", "America/New_York"},
		{"timezone_convert", map[string]any{"local_datetime": "2026-07-29T12:00:00", "from_timezone": "UTC", "to_timezone": "Asia/Kolkatta"}, "/to_timezone", "Asia/Kolkata"},
	} {
		e := invokeErr(t, c.tool, c.args)
		if e.Reason != "unknown_timezone" || !strings.Contains(e.Message, `(did you mean "`+c.first+`"`) {
			t.Errorf("%v: %v", c.args, e)
		}
		if len(e.Details) == 0 || !reflect.DeepEqual(e.Details[0], contracts.Detail{Path: c.path, Keyword: KeywordDidYouMean, Message: c.first}) {
			t.Errorf("%v: details %v", c.args, e.Details)
			continue
		}
		args := map[string]any{}
		for k, v := range c.args {
			args[k] = v
		}
		args[strings.TrimPrefix(c.path, "/")] = c.first
		invokeOK(t, c.tool, args)
	}
	e := invokeErr(t, "time_facts", map[string]any{"instant": "2026-07-29T12:00:00Z", "timezone_name": "PST"})
	if e.Reason != "unknown_timezone" || len(e.Details) != 0 || !strings.Contains(e.Message, "abbreviation") {
		t.Errorf("PST: %v details %v", e, e.Details)
	}
}

// timezone_convert names both zones canonically; a fixed offset has no gap.
func TestTimezoneConvertZoneForms(t *testing.T) {
	f := invokeOK(t, "timezone_convert", map[string]any{"local_datetime": "2026-03-29T02:30:00", "from_timezone": "UTC+0530", "to_timezone": "europe/berlin"}).Envelope.Facts()
	want := map[string]any{"from_timezone": "UTC+0530", "to_timezone": "Europe/Berlin", "utc_instant": "2026-03-28T21:00:00+00:00",
		"target_datetime": "2026-03-28T22:00:00+01:00", "source_utc_offset": "+05:30", "ambiguous": false}
	for k, v := range want {
		if f[k] != v {
			t.Errorf("%s = %v, want %v", k, f[k], v)
		}
	}
}

// An argument named by a word of the real name ("timezone" for
// timezone_name, "from" for from_unit) is beyond any edit distance worth
// suggesting; the hint is the names it is a word of.
func TestArgumentWordHints(t *testing.T) {
	for _, c := range []struct {
		tool string
		args map[string]any
		want []contracts.Detail
	}{
		{"time_facts", map[string]any{"instant": "2026-07-29T12:00:00Z", "timezone": "UTC"}, hints("/timezone", "timezone_name")},
		{"unit_convert", map[string]any{"value": 1, "from": "m", "to_unit": "km"}, hints("/from", "from_unit")},
		{"timezone_convert", map[string]any{"local_datetime": "2026-07-29T12:00:00", "from_timezone": "UTC", "to_timezone": "UTC", "datetime": "x"},
			hints("/datetime", "local_datetime")},
	} {
		e := invokeErr(t, c.tool, c.args)
		var got []contracts.Detail
		for _, d := range e.Details {
			if d.Keyword == KeywordDidYouMean {
				got = append(got, d)
			}
		}
		if e.Code != CodeInputSchemaInvalid || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s %v: %v details %v, want %v", c.tool, c.args, e, e.Details, c.want)
		}
	}
}
