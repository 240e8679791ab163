package contracts

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// FuzzValidationError: arbitrary JSON arguments for every contract are
// either valid or refused with a ValidationError whose text is the
// reference's "<path>:<keyword>" form, with at most MaxDetails details, no
// two identical, every did_you_mean detail following a detail of its path,
// and the same error for the same input every time.
func FuzzValidationError(f *testing.F) {
	names := Names()
	for _, seed := range []string{`{}`, `{"a":"x","c":1}`, `{"operation":"GCD","a":1,"b":2}`,
		`{"operands":["1",2,null],"operation":"add","currency":"eur"}`, `{"locale":"EN","date_str":"2026-01-01"}`,
		`{"data":[1,"x",{"y":[]}],"operations":["meen"]}`, `{"n":{"x":1}}`, `{"value":[1,[2,[3]]]}`,
		`{"precision":-0.5,"scale":12.5,"offset":-1.5,"days":1e9,"quantiles_n":true}`} {
		for i := range names {
			f.Add(uint8(i), []byte(seed))
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, raw []byte) {
		c := MustLoad(names[int(which)%len(names)])
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		var args map[string]any
		if dec.Decode(&args) != nil || args == nil {
			return
		}
		err := c.ValidateInput(c.ApplyDefaults(args))
		if err == nil {
			return
		}
		var ve *ValidationError
		if !errors.As(err, &ve) {
			t.Fatalf("%T %v", err, err)
		}
		text := ve.Error()
		path, kw, ok := strings.Cut(text, ":")
		if !ok || path == "" || kw == "" || strings.HasPrefix(path, "/") {
			t.Fatalf("error text %q is not <path>:<keyword>", text)
		}
		if len(ve.Details) == 0 || len(ve.Details) > MaxDetails {
			t.Fatalf("%d details", len(ve.Details))
		}
		for i, d := range ve.Details {
			for _, e := range ve.Details[:i] {
				if sameDetail(d, e) {
					t.Fatalf("duplicate detail %+v", d)
				}
			}
			if d.Keyword == KeywordDidYouMean && (i == 0 || ve.Details[i-1].Path != d.Path) {
				t.Fatalf("did_you_mean detail %+v does not follow a detail of its path", d)
			}
		}
		again := c.ValidateInput(c.ApplyDefaults(args))
		if again == nil || again.Error() != text {
			t.Fatalf("a second validation said %v, the first %q", again, text)
		}
	})
}
