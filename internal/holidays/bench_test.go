package holidays

import (
	"testing"

	"github.com/precisiond/precisiond/internal/calendar"
)

func BenchmarkYear(b *testing.B) {
	s, _ := Lookup("GB", "SCT")
	for b.Loop() {
		if _, err := s.Year(2022); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCountFullSpan: the costliest count, every day of DE-BY's 110 years.
func BenchmarkCountFullSpan(b *testing.B) {
	s, _ := Lookup("DE", "BY")
	start, _ := calendar.ParseDate("1991-01-01")
	end, _ := calendar.ParseDate("2100-12-31")
	for b.Loop() {
		w, _ := NewWeek(s, []int{6, 7})
		if _, err := w.Count(start, end); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCountJapan: Japan's full span, where every year also scans its
// days for citizens' holidays (between_holidays).
func BenchmarkCountJapan(b *testing.B) {
	s, _ := Lookup("JP", "")
	start, _ := calendar.ParseDate("2007-01-01")
	end, _ := calendar.ParseDate("2100-12-31")
	for b.Loop() {
		w, _ := NewWeek(s, []int{6, 7})
		if _, err := w.Count(start, end); err != nil {
			b.Fatal(err)
		}
	}
}
