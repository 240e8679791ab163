package calendar

import (
	"errors"
	"math/rand"
	"slices"
	"testing"
	"time"

	"github.com/precisiond/precisiond/internal/vectors"
)

// Every day of years 1..9999 against Go's time package, an independent
// implementation of the proleptic Gregorian calendar.
func TestEveryDayAgainstTimePackage(t *testing.T) {
	start := Date{1, 1, 1}.Days()
	end := Date{9999, 12, 31}.Days()
	epoch := time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC)
	for n := start; n <= end; n++ {
		d, err := FromDays(n)
		if err != nil {
			t.Fatalf("FromDays(%d): %v", n, err)
		}
		if got := d.Days(); got != n {
			t.Fatalf("%s.Days() = %d, want %d", d, got, n)
		}
		ref := epoch.AddDate(0, 0, int(n))
		if d.Year != ref.Year() || d.Month != int(ref.Month()) || d.Day != ref.Day() {
			t.Fatalf("day %d: got %s, want %s", n, d, ref.Format("2006-01-02"))
		}
		if n%7 == 0 || d.Month == 1 || d.Month == 12 { // keep the run short; ISO weeks change at year ends
			wantW := int(ref.Weekday())
			if wantW == 0 {
				wantW = 7
			}
			if got := d.Weekday(); got != wantW {
				t.Fatalf("%s weekday %d, want %d", d, got, wantW)
			}
			if got := d.YearDay(); got != ref.YearDay() {
				t.Fatalf("%s yearday %d, want %d", d, got, ref.YearDay())
			}
			wy, ww := ref.ISOWeek()
			if gy, gw := d.ISOWeek(); gy != wy || gw != ww {
				t.Fatalf("%s ISO week %d-W%d, want %d-W%d", d, gy, gw, wy, ww)
			}
		}
	}
	if _, err := FromDays(start - 1); !errors.Is(err, ErrRange) {
		t.Errorf("FromDays before 0001-01-01: got %v, want ErrRange", err)
	}
	if _, err := FromDays(end + 1); !errors.Is(err, ErrRange) {
		t.Errorf("FromDays after 9999-12-31: got %v, want ErrRange", err)
	}
}

func TestSpecExamples(t *testing.T) {
	d, _ := ParseDate("2021-01-01")
	if y, w := d.ISOWeek(); y != 2020 || w != 53 {
		t.Errorf("2021-01-01 ISO week = %d-W%d, want 2020-W53", y, w)
	}
	a, _ := ParseDate("2024-01-31")
	b, _ := ParseDate("2024-03-01")
	for _, pair := range [][2]Date{{a, b}, {b, a}} {
		got := Diff(pair[0], pair[1])
		if got.TotalDays != 30 || got.Years != 0 || got.Months != 1 || got.Day != 1 || got.Start != a || got.End != b {
			t.Errorf("Diff(%s, %s) = %+v, want 30 days, 0y 1m 1d", pair[0], pair[1], got)
		}
	}
	r, err := AddRelative(a, 0, 1, 0, 0)
	if err != nil || r.String() != "2024-02-29" {
		t.Errorf("2024-01-31 + 1 month = %v, %v; want 2024-02-29", r, err)
	}
	f, _ := FactsOf(Date{2026, 7, 29}, DefaultLocale)
	if f.WeekdayName != "Mittwoch" || f.WeekdayISO != 3 {
		t.Errorf("2026-07-29 in de: %s (%d), want Mittwoch (3)", f.WeekdayName, f.WeekdayISO)
	}
}

// The name table equals CLDR as extracted by the oracle script.
func TestNamesMatchCLDR(t *testing.T) {
	var v struct {
		Locales []string `json:"locales"`
		Names   map[string]struct {
			Weekdays []string `json:"weekdays"`
			Months   []string `json:"months"`
		} `json:"names"`
	}
	vectors.Decode(t, "testdata/cldr_names.json", &v)
	if !slices.Equal(Locales(), v.Locales) {
		t.Errorf("Locales() = %v, want %v", Locales(), v.Locales)
	}
	for _, loc := range v.Locales {
		n := v.Names[loc]
		for i, want := range n.Weekdays {
			if got := WeekdayName(loc, i+1); got != want {
				t.Errorf("%s weekday %d = %q, want %q", loc, i+1, got, want)
			}
		}
		for i, want := range n.Months {
			if got := MonthName(loc, i+1); got != want {
				t.Errorf("%s month %d = %q, want %q", loc, i+1, got, want)
			}
		}
	}
	if WeekdayName("xx", 1) != "" || MonthName("de", 13) != "" || WeekdayName("de", 0) != "" {
		t.Error("unknown locale or index must give an empty name")
	}
}

func TestBusinessDaysBruteForce(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for i := 0; i < 2000; i++ {
		a, _ := FromDays(int64(rng.Intn(40000)) - 10000)
		b, _ := a.AddDays(int64(rng.Intn(60)) - 10)
		var want int64
		for d := a; d.Days() < b.Days(); d, _ = d.AddDays(1) {
			if d.Weekday() <= 5 {
				want++
			}
		}
		if got := BusinessDays(a, b); got != want {
			t.Fatalf("BusinessDays(%s, %s) = %d, want %d", a, b, got, want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want error
	}{
		{"today", ErrSyntax}, {"29.02.2024", ErrSyntax}, {"2024-2-01", ErrSyntax}, {"２０２４-01-01", ErrSyntax},
		{"2023-02-29", ErrInvalid}, {"2024-13-01", ErrInvalid}, {"2024-04-31", ErrInvalid}, {"0000-01-01", ErrRange},
	} {
		if _, err := ParseDate(tc.in); !errors.Is(err, tc.want) {
			t.Errorf("ParseDate(%q) = %v, want %v", tc.in, err, tc.want)
		}
	}
	for _, tc := range []struct {
		in   string
		want error
	}{
		{"now", ErrSyntax}, {"2026-07-29T12:00:00", ErrSyntax}, {"2026-07-29T12:00:00+0200", ErrSyntax},
		{"2026-07-29 12:00:00Z", ErrSyntax}, {"2026-07-29T12:00:00.5Z", ErrSyntax},
		{"2026-07-29T24:00:00Z", ErrInvalid}, {"2026-07-29T12:60:00Z", ErrInvalid}, {"2026-07-29T12:00:60Z", ErrInvalid},
		{"2026-07-29T12:00:00+24:00", ErrInvalid}, {"2026-07-29T12:00:00-23:60", ErrInvalid}, {"2026-07-29T12:00:00+00:99:00", ErrSyntax},
	} {
		if _, _, err := ParseInstant(tc.in); !errors.Is(err, tc.want) {
			t.Errorf("ParseInstant(%q) = %v, want %v", tc.in, err, tc.want)
		}
	}
}

// Offsets are read as Python's datetime.fromisoformat reads them: minutes past
// 59 carry into hours, and only the total must stay within 24 hours.
func TestParseInstantOffsetMinutes(t *testing.T) {
	for _, tc := range []struct {
		in  string
		off int
	}{
		{"2026-07-29T12:00:00+05:99", 6*3600 + 39*60}, {"2026-07-29T12:00:00-01:60", -2 * 3600},
		{"2026-07-29T12:00:00+23:59", 23*3600 + 59*60}, {"2026-07-29T12:00:00-00:00", 0}, {"2026-07-29T12:00:00+00:99", 99 * 60},
	} {
		_, off, err := ParseInstant(tc.in)
		if err != nil || off != tc.off {
			t.Errorf("ParseInstant(%q) = %d, %v; want %d", tc.in, off, err, tc.off)
		}
	}
}

// utc_offset is written as the reference writes it: whole minutes of the
// magnitude, seconds dropped, "+" for zero.
func TestOffsetHHMM(t *testing.T) {
	for _, tc := range []struct {
		sec  int
		want string
	}{
		{0, "+00:00"}, {3600, "+01:00"}, {-2670, "-00:44"}, {-30, "-00:00"}, {19800, "+05:30"}, {-37886, "-10:31"}, {4772, "+01:19"},
	} {
		if got := OffsetHHMM(tc.sec); got != tc.want {
			t.Errorf("OffsetHHMM(%d) = %q, want %q", tc.sec, got, tc.want)
		}
	}
}

func TestZonedErrors(t *testing.T) {
	zero, one := 0, 1
	for _, tc := range []struct {
		local, from string
		fold        *int
		want        error
	}{
		{"2026-03-29T02:30:00", "Europe/Berlin", nil, ErrGap},
		{"2026-03-29T02:30:00", "Europe/Berlin", &one, ErrGap},
		{"2026-10-25T02:30:00", "Europe/Berlin", nil, ErrAmbiguous},
		{"2101-01-01T00:00:00", "UTC", nil, ErrYearRange},
		{"1899-12-31T23:59:59", "UTC", &zero, ErrYearRange},
	} {
		if _, err := Convert(tc.local, tc.from, "UTC", tc.fold, "de"); !errors.Is(err, tc.want) {
			t.Errorf("Convert(%s, %s, fold %v) = %v, want %v", tc.local, tc.from, tc.fold, err, tc.want)
		}
	}
	for fold, want := range []string{"2026-10-25T00:30:00+00:00", "2026-10-25T01:30:00+00:00"} {
		f := fold
		got, err := Convert("2026-10-25T02:30:00", "Europe/Berlin", "UTC", &f, "de")
		if err != nil || got.UTCInstant != want || !got.Ambiguous {
			t.Errorf("fold %d: %+v, %v; want %s", fold, got, err, want)
		}
	}
	for _, in := range []string{"2201-01-01T00:00:00Z", "1899-12-31T23:30:00-01:00", "2101-01-01T00:30:00+01:00"} {
		if _, err := InstantFacts(in, "UTC", "de"); !errors.Is(err, ErrYearRange) {
			t.Errorf("InstantFacts(%s) = %v, want ErrYearRange", in, err)
		}
	}
	// The limit applies to the year as written, as the reference applies it: the
	// UTC instant may fall in 1899 or 2101.
	for in, want := range map[string]string{
		"1900-01-01T00:30:00+01:00": "1899-12-31T23:30:00+00:00",
		"2100-12-31T23:00:00-02:00": "2101-01-01T01:00:00+00:00",
	} {
		if f, err := InstantFacts(in, "UTC", "de"); err != nil || f.UTCInstant != want || f.InputInstant != in {
			t.Errorf("InstantFacts(%s) = %+v, %v; want UTC %s", in, f, err, want)
		}
	}
	if _, err := InstantFacts("2026-07-29T12:00:00Z", "UTC", "xx"); !errors.Is(err, ErrLocale) {
		t.Errorf("unknown locale: %v", err)
	}
}
