package tzdb

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// Every id resolves from any case to itself, and no two ids of the release
// differ only in case (else case-insensitive matching would be ambiguous).
func TestLookupCaseInsensitive(t *testing.T) {
	names := Names()
	f, _ := foldedNames()
	if len(f) != len(names) {
		t.Fatalf("%d ids fold to %d lower-case names", len(names), len(f))
	}
	for _, id := range names {
		for _, in := range []string{id, strings.ToLower(id), strings.ToUpper(id)} {
			z, err := Lookup(in)
			if err != nil || z.Name() != id {
				t.Fatalf("Lookup(%q) = %v, %v; want %s", in, z, err, id)
			}
		}
	}
}

// Fixed offsets have ISO 8601's sign: UTC+5 is five hours east, the same
// offset as the IANA id Etc/GMT-5 (POSIX sign) at every instant.
func TestLookupFixedOffsetsAgreeWithEtc(t *testing.T) {
	for h := -12; h <= 14; h++ {
		etcName := "Etc/GMT"
		if h != 0 {
			etcName += fmt.Sprintf("%+d", -h)
		}
		etc, err := Load(etcName)
		if err != nil {
			t.Fatal(err)
		}
		for _, form := range []string{fmt.Sprintf("UTC%+d", h), fmt.Sprintf("UTC%+03d:00", h), fmt.Sprintf("%+03d00", h), fmt.Sprintf("utc%+03d", h)} {
			z, err := Lookup(form)
			if err != nil {
				t.Fatalf("Lookup(%q): %v", form, err)
			}
			for _, u := range []int64{-2208988800, 0, 1780000000, 4102444799} {
				got, fold := z.At(u)
				want, _ := etc.At(u)
				if got.Seconds != want.Seconds || got.IsDST || fold != 0 {
					t.Fatalf("%s at %d: %+v fold %d, %s says %+v", form, u, got, fold, etcName, want)
				}
			}
		}
	}
}

func TestLookupForms(t *testing.T) {
	for _, c := range []struct {
		in, name string
		off      int
	}{
		{"europe/berlin", "Europe/Berlin", 7200},
		{"AMERICA/NEW_YORK", "America/New_York", -4 * 3600},
		{"us/eastern", "US/Eastern", -4 * 3600}, // a link keeps its own id, as the reference keeps it
		{"utc", "UTC", 0},
		{"Etc/GMT-5", "Etc/GMT-5", 5 * 3600},
		{"+05:30", "UTC+0530", 19800},
		{"UTC+05:30", "UTC+0530", 19800},
		{"UTC+5:30", "UTC+0530", 19800},
		{"UTC+0530", "UTC+0530", 19800},
		{"UTC+5", "UTC+0500", 5 * 3600},
		{"-0800", "UTC-0800", -8 * 3600},
		{"UTC-3", "UTC-0300", -3 * 3600},
		{"-09:30", "UTC-0930", -(9*3600 + 1800)},
		{"+23:59", "UTC+2359", 23*3600 + 59*60},
		{"UTC+00:00", "UTC", 0},
		{"-00", "UTC", 0},
	} {
		z, err := Lookup(c.in)
		if err != nil {
			t.Errorf("Lookup(%q): %v", c.in, err)
			continue
		}
		o, _ := z.At(1780000000) // 2026-05-28, summer in the north
		if z.Name() != c.name || o.Seconds != c.off {
			t.Errorf("Lookup(%q) = %s %+v, want %s at %d s", c.in, z.Name(), o, c.name, c.off)
		}
		if strings.HasPrefix(c.name, "UTC") && c.name != "UTC" && (o.Abbrev != c.name || !ValidName(c.name)) {
			t.Errorf("Lookup(%q): abbreviation %q, name valid %v", c.in, o.Abbrev, ValidName(c.name))
		}
		if r := z.Resolve(1780000000); r.Kind != Unique || r.Instants[0] != 1780000000-int64(c.off) {
			t.Errorf("Lookup(%q).Resolve: %+v", c.in, r)
		}
	}
}

func TestLookupUnknown(t *testing.T) {
	for _, c := range []struct {
		in      string
		suggest []string
		why     string
	}{
		{"Europe/Berln", []string{"Europe/Berlin"}, ""},
		{"Berlin", []string{"Europe/Berlin"}, ""},
		{"New York", []string{"America/New_York"}, ""},
		{"America/NewYork", []string{"America/New_York"}, ""},
		{"Asia/Calcuta", []string{"Asia/Calcutta"}, ""},
		{"Kolkata", []string{"Asia/Kolkata"}, ""},
		{"Mars/Olympus_Mons", nil, ""},
		{"GMT+5", []string{"UTC+0500", "Etc/GMT+5"}, "the IANA id Etc/GMT+5 keeps the POSIX sign and is UTC-0500"},
		{"gmt-3", []string{"UTC-0300", "Etc/GMT-3"}, "UTC+0300"},
		{"GMT+05:30", []string{"UTC+0530"}, "GMT with an offset is not a zone id"},
		{"PST", nil, "an abbreviation is not a zone id"},
		{"UTC+24", nil, "strictly within ±24:00"},
		{"+24:00", nil, "strictly within ±24:00"},
		{"UTC+05:60", nil, "minutes 00..59"},
		{"+5:3", nil, ""},
		{"+123", nil, ""},
		{"UTC++5", nil, ""},
		{"Europe/../UTC", nil, ""},
		{"../etc/passwd", nil, ""},
	} {
		_, err := Lookup(c.in)
		var e *UnknownZoneError
		if !errors.As(err, &e) || !errors.Is(err, ErrUnknownZone) {
			t.Errorf("Lookup(%q) = %v, want *UnknownZoneError", c.in, err)
			continue
		}
		if len(e.Suggestions) != len(c.suggest) || (len(c.suggest) > 0 && !reflect.DeepEqual(e.Suggestions, c.suggest)) {
			t.Errorf("Lookup(%q) suggests %q, want %q", c.in, e.Suggestions, c.suggest)
		}
		if !strings.Contains(e.Why, c.why) {
			t.Errorf("Lookup(%q): why %q, want it to say %q", c.in, e.Why, c.why)
		}
		for _, s := range e.Suggestions {
			if _, err := Lookup(s); err != nil {
				t.Errorf("Lookup(%q) suggests %q, which does not resolve: %v", c.in, s, err)
			}
			if !strings.Contains(err.Error(), `"`+s+`"`) {
				t.Errorf("Lookup(%q): message %q does not name %q", c.in, err, s)
			}
		}
	}
}

// Path-like and host-only names stay refused.
func TestLookupRefusesPaths(t *testing.T) {
	for _, n := range []string{"", "../etc/passwd", "/usr/share/zoneinfo/UTC", "Europe/../../etc/passwd",
		"Europe/./Berlin", "Europe/Berlin/..", "localtime", "posixrules", "posix/Europe/Berlin", "right/UTC",
		"+VERSION", "Europe\\Berlin", "UTC\x00", strings.Repeat("A", 129)} {
		if z, err := Lookup(n); !errors.Is(err, ErrUnknownZone) {
			t.Errorf("Lookup(%q) = %v, %v; want ErrUnknownZone", n, z, err)
		}
	}
}

// A misspelt city (one letter dropped from the last component of an id) is
// recovered: the id is among the suggestions in nearly every case.
func TestLookupSuggestionsRecoverTypos(t *testing.T) {
	tried, found := 0, 0
	for _, id := range Names() {
		i := strings.LastIndexByte(id, '/')
		city := id[i+1:]
		if len(city) < 5 {
			continue
		}
		typo := id[:i+1] + city[:len(city)/2] + city[len(city)/2+1:]
		if _, err := Lookup(typo); err == nil {
			continue
		}
		tried++
		var e *UnknownZoneError
		_, err := Lookup(typo)
		if !errors.As(err, &e) || len(e.Suggestions) > MaxSuggestions {
			t.Fatalf("%q: %v", typo, err)
		}
		for _, s := range e.Suggestions {
			if s == id {
				found++
				break
			}
		}
	}
	if tried < 400 || found*100 < tried*95 {
		t.Errorf("the id meant is suggested for %d of %d one-letter typos", found, tried)
	}
	t.Logf("recovered %d of %d one-letter typos", found, tried)
}

func FuzzLookup(f *testing.F) {
	for _, s := range []string{"Europe/Berlin", "europe/berlin", "Europe/Berln", "UTC+5:30", "+05:30", "-0800", "GMT+5",
		"PST", "UTC+24", "Etc/GMT-5", "../etc/passwd", "Berlin", "utc", "+5:3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		z, err := Lookup(name)
		if err != nil {
			var e *UnknownZoneError
			if !errors.As(err, &e) || !errors.Is(err, ErrUnknownZone) || len(e.Suggestions) > MaxSuggestions {
				t.Fatalf("Lookup(%q): %v", name, err)
			}
			for _, s := range e.Suggestions {
				if _, err := Lookup(s); err != nil {
					t.Fatalf("Lookup(%q) suggests %q: %v", name, s, err)
				}
			}
			return
		}
		// The canonical name is a valid id-shaped name and resolves to itself.
		again, err := Lookup(z.Name())
		if err != nil || again.Name() != z.Name() || !ValidName(z.Name()) {
			t.Fatalf("Lookup(%q) = %s, which resolves to %v, %v", name, z.Name(), again, err)
		}
	})
}
