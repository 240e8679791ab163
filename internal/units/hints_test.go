package units

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

func unknownUnit(t testing.TB, expr string) *UnknownUnitError {
	t.Helper()
	_, err := Default().Parse(expr)
	var u *UnknownUnitError
	if !errors.As(err, &u) {
		t.Fatalf("Parse(%q) = %v, want *UnknownUnitError", expr, err)
	}
	return u
}

// The nearest names come first; the whole-expression forms put each in the
// token's place.
func TestUnknownUnitSuggestions(t *testing.T) {
	for _, c := range []struct {
		expr, first, firstExpr string
	}{
		{"fortnite", "fortnight", "fortnight"},
		{"furlong/fortnite", "fortnight", "furlong/fortnight"},
		{"kilomter", "kilometer", "kilometer"}, // prefix + unit
		{"m/kilomter**2", "kilometer", "m/kilometer**2"},
		{"kWH", "kWh", "kWh"}, // case
		{"Celsius", "celsius", "celsius"},
		{"joul", "joule", "joule"},
		{"metr", "meter", "meter"},
		{"wat", "watt", "watt"}, // same first letter wins the tie with "at"
		{"imperial gallon", "imperial_gallon", "imperial_gallon"},
	} {
		u := unknownUnit(t, c.expr)
		if len(u.Suggestions) == 0 || u.Suggestions[0] != c.first {
			t.Errorf("%q: suggestions %q, want %q first", c.expr, u.Suggestions, c.first)
		}
		if len(u.Expressions) == 0 || u.Expressions[0] != c.firstExpr {
			t.Errorf("%q: expressions %q, want %q first", c.expr, u.Expressions, c.firstExpr)
		}
		if !strings.Contains(u.Error(), `(did you mean "`+c.first+`"`) {
			t.Errorf("%q: message %q does not suggest %q", c.expr, u.Error(), c.first)
		}
	}
	// A joined spelling is the one answer; tokens of one or two letters and
	// nonsense get none (or only another case).
	if u := unknownUnit(t, "imperial gallon"); !reflect.DeepEqual(u.Suggestions, []string{"imperial_gallon"}) {
		t.Errorf("imperial gallon: %q", u.Suggestions)
	}
	for _, expr := range []string{"Q", "xx", "Qxqxqxq", strings.Repeat("z", 64)} {
		if u := unknownUnit(t, expr); len(u.Suggestions) != 0 || u.Error() != `unknown unit "`+expr+`"` {
			t.Errorf("%q: suggestions %q, message %q", expr, u.Suggestions, u.Error())
		}
	}
	if u := unknownUnit(t, "KM"); len(u.Suggestions) == 0 || u.Suggestions[0] != "km" {
		t.Errorf("KM: %q", u.Suggestions)
	}
}

// Every unit name of five or more letters with one letter dropped gets at most
// MaxSuggestions suggestions, each a name the registry resolves, and in nearly
// every case one of them is a name of the unit meant.
func TestUnknownUnitSuggestionsRecoverTypos(t *testing.T) {
	r := Default()
	tried, found := 0, 0
	for _, u := range r.Units {
		if u.Log || utf8.RuneCountInString(u.Name) < 5 {
			continue
		}
		rs := []rune(u.Name)
		typo := string(rs[:len(rs)/2]) + string(rs[len(rs)/2+1:])
		if _, _, ok := r.Lookup(typo); ok {
			continue // the typo is itself a unit (or a plural or prefixed one)
		}
		_, err := r.Parse(typo)
		var e *UnknownUnitError
		if !errors.As(err, &e) {
			continue // not a single name token (a digit, an operator word)
		}
		tried++
		if len(e.Suggestions) > MaxSuggestions || len(e.Expressions) != len(e.Suggestions) {
			t.Fatalf("%q: %d suggestions, %d expressions", typo, len(e.Suggestions), len(e.Expressions))
		}
		hit := false
		for _, s := range e.Suggestions {
			_, got, ok := r.Lookup(s)
			if !ok {
				t.Fatalf("%q: suggestion %q does not resolve", typo, s)
			}
			hit = hit || got == u
		}
		if hit {
			found++
		}
	}
	if tried < 300 || found*100 < tried*95 {
		t.Errorf("the unit meant is among the suggestions for %d of %d one-letter typos", found, tried)
	}
	t.Logf("recovered %d of %d one-letter typos", found, tried)
}

func TestTemperatureHint(t *testing.T) {
	r := Default()
	for _, c := range []struct {
		from, to        string
		mFrom, mTo, why string
		ok              bool
	}{
		{"F", "C", "degF", "degC", `"F" is the farad and "C" is the coulomb`, true},
		{"C", "F", "degC", "degF", `"C" is the coulomb and "F" is the farad`, true},
		{"F", "K", "degF", "K", `"F" is the farad`, true},
		{"kelvin", "F", "kelvin", "degF", `"F" is the farad`, true},
		{" F ", "degC", "degF", "degC", `"F" is the farad`, true},
		{"F", "delta_degC", "degF", "delta_degC", `"F" is the farad`, true},
		{"R", "degF", "degR", "degF", `"R" is the molar_gas_constant`, true},
		{"C", "C", "degC", "degC", `"C" is the coulomb`, true},
		{"F", "m", "", "", "", false},   // a length: nothing to do with temperature
		{"F", "K/m", "", "", "", false}, // not a temperature
		{"F", "zorch", "", "", "", false},
		{"degF", "degC", "", "", "", false}, // no symbol involved
		{"mF", "degC", "", "", "", false},   // millifarad is not a temperature slip
	} {
		f, to, why, ok := r.TemperatureHint(c.from, c.to)
		if f != c.mFrom || to != c.mTo || why != c.why || ok != c.ok {
			t.Errorf("TemperatureHint(%q, %q) = %q, %q, %q, %v; want %q, %q, %q, %v", c.from, c.to, f, to, why, ok, c.mFrom, c.mTo, c.why, c.ok)
		}
		if ok {
			// What is suggested converts.
			if _, err := r.Convert(ratOne, f, to); err != nil {
				t.Errorf("%q to %q: the suggestion %q to %q fails: %v", c.from, c.to, f, to, err)
			}
		}
	}
}

func BenchmarkUnknownUnitSuggestions(b *testing.B) {
	r := Default()
	for _, expr := range []string{"kilomter", "Zorch", strings.Repeat("q", 64)} {
		b.Run(expr[:min(len(expr), 8)], func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := r.Parse(expr); err == nil {
					b.Fatal("parsed")
				}
			}
		})
	}
}
