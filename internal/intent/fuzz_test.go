package intent

import (
	"testing"
	"unicode/utf8"
)

// FuzzRecognize: any text is recognised without panic; spans lie within the
// text and do not overlap; every intent's arguments validate against its
// tool's input schema; a covered result has intents and no declines.
func FuzzRecognize(f *testing.F) {
	r, err := Load()
	if err != nil {
		f.Fatal(err)
	}
	for _, tool := range r.Tools() {
		for _, ex := range r.Examples(tool).Accept {
			f.Add(ex.Text)
		}
		for _, ex := range r.Examples(tool).Decline {
			f.Add(ex.Text)
		}
	}
	f.Add("1. Berechne den GGT von 10 und 15.\n2) Which weekday was 2026-07-29?\n3. Rechne 1.234,5 km in m um.")
	f.Add("Validiere dieses JSON:\n{\"a\": [1, 2]}\n")
	f.Add("  1.\t\n9999. x\n")
	f.Fuzz(func(t *testing.T, text string) {
		res, err := r.Recognize(text, nil)
		if err != nil {
			if len(text) <= MaxTextBytes && utf8.ValidString(text) {
				t.Fatalf("%q: %v", text, err)
			}
			return
		}
		n := utf8.RuneCountInString(text)
		last := 0
		for _, in := range res.Intents {
			if in.Span[0] < last || in.Span[0] > in.Span[1] || in.Span[1] > n {
				t.Fatalf("%q: span %v out of order or range (%d code points)", text, in.Span, n)
			}
			last = in.Span[1]
			if err := r.byName[in.Tool].contract.ValidateInput(in.Args); err != nil {
				t.Fatalf("%q: %s args %v do not validate: %v", text, in.Tool, in.Args, err)
			}
		}
		if res.Covered && (len(res.Intents) == 0 || len(res.Decline) != 0) {
			t.Fatalf("%q: covered with %d intents and %d declines", text, len(res.Intents), len(res.Decline))
		}
	})
}

// FuzzCanonicalDecimal: a number read as canonical reads back as itself.
func FuzzCanonicalDecimal(f *testing.F) {
	for _, s := range []string{"1.234,5", "1,234.5", "0,5", "1.234", "-007", "1.234.567", "12,50"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := canonicalDecimal(s)
		if err != nil {
			return
		}
		again, err := canonicalDecimal(c)
		if err != nil && err != errAmbiguous || err == nil && again != c {
			t.Fatalf("%q → %q → %q, %v", s, c, again, err)
		}
	})
}
