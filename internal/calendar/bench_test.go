package calendar

import "testing"

func BenchmarkFactsOf(b *testing.B) {
	for _, bc := range []struct {
		name string
		d    Date
	}{{"small", Date{2026, 7, 29}}, {"large", Date{9999, 12, 31}}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := FactsOf(bc.d, "pl"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkDiff(b *testing.B) {
	for _, bc := range []struct {
		name string
		a, c Date
	}{{"small", Date{2024, 1, 31}, Date{2024, 3, 1}}, {"large", Date{9999, 12, 31}, Date{1, 1, 1}}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				d := Diff(bc.a, bc.c)
				BusinessDays(d.Start, d.End)
			}
		})
	}
}

func BenchmarkInstantFacts(b *testing.B) {
	for _, bc := range []struct{ name, in, zone string }{
		{"small", "2026-07-29T12:00:00Z", "Europe/Berlin"},
		{"large", "2100-10-03T15:45:00+13:45", "Australia/Lord_Howe"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := InstantFacts(bc.in, bc.zone, "de"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkConvert(b *testing.B) {
	one := 1
	for _, bc := range []struct{ name, in, from, to string }{
		{"small", "2026-07-29T14:00:00", "Europe/Berlin", "UTC"},
		{"large", "2099-04-05T01:45:00", "Australia/Lord_Howe", "Pacific/Chatham"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := Convert(bc.in, bc.from, bc.to, &one, "en"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
