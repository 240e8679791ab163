package bench

import (
	"strconv"
	"strings"
	"testing"

	"github.com/precisiond/precisiond/internal/intent"
)

// intentTexts are 1 KiB requests (issue 33's budget: less than 100 µs of CPU
// each): a covered numbered list of 30 intents (three requests repeated, and
// 30 different ones), long prose that names no
// tool, long prose that names one tool (each of its phrasings runs over the
// whole KiB) and long prose that names several (every phrasing of each
// tried, then the trigger words and the decline rules).
func intentTexts() map[string]string {
	pad := func(s string) string {
		for len(s) < 1024 {
			s += " " + s
		}
		return s[:1024]
	}
	var list strings.Builder
	for i := 1; list.Len() < 1000; i++ {
		switch i % 3 {
		case 1:
			list.WriteString(itoa(i) + ". Berechne den GGT von 391 und 299.\n")
		case 2:
			list.WriteString(itoa(i) + ". Which weekday was 2026-07-29?\n")
		default:
			list.WriteString(itoa(i) + ". Rechne 72 km/h exakt in m/s um.\n")
		}
	}
	// The same three requests, each item with other numbers, dates and
	// units: no two items are the same text.
	units := []string{"km/h in m/s", "km in Meilen", "Liter in Gallonen", "Meter in Fuß"}
	var distinct strings.Builder
	for i := 1; distinct.Len() < 980; i++ {
		switch i % 3 {
		case 1:
			distinct.WriteString(itoa(i) + ". Berechne den GGT von " + strconv.Itoa(i+300) + " und 2" + itoa(i) + ".\n")
		case 2:
			distinct.WriteString(itoa(i) + ". Which weekday was 2026-07-" + itoa(i%28+1) + "?\n")
		default:
			distinct.WriteString(itoa(i) + ". Rechne " + strconv.Itoa(i+40) + " " + units[i/3%len(units)] + " um.\n")
		}
	}
	return map[string]string{
		"list":          list.String(),
		"list_distinct": distinct.String(),
		"prose":         pad("Please summarise the meeting notes and draft a friendly reply to the customer about the delayed delivery."),
		"triggers":      pad("Berechne den GGT von 10 und 15 sowie den Wochentag für 2026-07-29 und rechne 72 km/h in m/s um."),
		"one_tool":      pad("Please convert all the distances of my last bike tours to km and write a short report about them."),
	}
}

func itoa(i int) string {
	return string(rune('0'+i/10%10)) + string(rune('0'+i%10))
}

// BenchmarkRecognize1KiB measures one recognition of a 1 KiB text.
func BenchmarkRecognize1KiB(b *testing.B) {
	rules, err := intent.Load()
	if err != nil {
		b.Fatal(err)
	}
	for name, text := range intentTexts() {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			done := reportCPU(b) // the budget is CPU time
			for b.Loop() {
				if _, err := rules.Recognize(text, nil); err != nil {
					b.Fatal(err)
				}
			}
			done()
		})
	}
}
