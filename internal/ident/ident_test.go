package ident

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"unicode/utf8"
)

// oracleCase is one vector of tools/testdata/identifier_validate, written by
// tools/testdata/oracle/gen_identifier.py from python-stdnum.
type oracleCase struct {
	Name string `json:"name"`
	Args struct {
		Kind  string `json:"kind"`
		Value string `json:"value"`
	} `json:"args"`
	Facts struct {
		Valid     bool           `json:"valid"`
		Compact   *string        `json:"compact"`
		Formatted *string        `json:"formatted"`
		Error     *string        `json:"error"`
		Details   map[string]any `json:"details"`
	} `json:"facts"`
}

func loadOracle(t *testing.T) []oracleCase {
	t.Helper()
	data, err := os.ReadFile("../../tools/testdata/identifier_validate/oracle_stdnum.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Generator map[string]string `json:"generator"`
		Cases     []oracleCase      `json:"cases"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if got, want := doc.Generator["stdnum"], stdnumVersion; got != want {
		t.Fatalf("vectors from python-stdnum %s, tables from %s: regenerate both", got, want)
	}
	return doc.Cases
}

// details renders r's details as the tool's facts carry them.
func details(r Result) map[string]any {
	switch {
	case r.IBAN != nil:
		return map[string]any{"country": r.IBAN.Country, "check_digits": r.IBAN.CheckDigits, "bban": r.IBAN.BBAN}
	case r.ISBN != nil:
		var isbn10 any
		if r.ISBN.ISBN10 != "" {
			isbn10 = r.ISBN.ISBN10
		}
		return map[string]any{"isbn10": isbn10, "isbn13": r.ISBN.ISBN13}
	case r.EAN != nil:
		return map[string]any{"length": float64(r.EAN.Length)}
	case r.UUID != nil:
		var v any
		if r.UUID.HasVersion {
			v = float64(r.UUID.Version)
		}
		return map[string]any{"version": v, "variant": r.UUID.Variant}
	case r.Luhn != nil:
		return map[string]any{"check_digit": r.Luhn.CheckDigit}
	}
	return map[string]any{}
}

func TestOracle(t *testing.T) {
	cases := loadOracle(t)
	if len(cases) < 500 {
		t.Fatalf("%d cases, want at least 500", len(cases))
	}
	for _, c := range cases {
		r, err := Validate(c.Args.Kind, c.Args.Value)
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		want := c.Facts
		if r.Valid != want.Valid {
			t.Errorf("%s: valid %v (%s), want %v", c.Name, r.Valid, r.Error, want.Valid)
			continue
		}
		if !r.Valid {
			if r.Error != *want.Error {
				t.Errorf("%s: error %s, want %s", c.Name, r.Error, *want.Error)
			}
			continue
		}
		if r.Compact != *want.Compact || r.Formatted != *want.Formatted {
			t.Errorf("%s: compact %q formatted %q, want %q %q", c.Name, r.Compact, r.Formatted, *want.Compact, *want.Formatted)
		}
		got, _ := json.Marshal(details(r))
		exp, _ := json.Marshal(want.Details)
		if string(got) != string(exp) {
			t.Errorf("%s: details %s, want %s", c.Name, got, exp)
		}
	}
}

func TestUnknownKind(t *testing.T) {
	if _, err := Validate("vin", "1"); err == nil {
		t.Error("unknown kind accepted")
	}
	for _, k := range Kinds {
		if !Known(k) {
			t.Errorf("%s not known", k)
		}
	}
}

func ExampleValidate() {
	r, _ := Validate("iban", "de89 3704 0044 0532 0130 00")
	fmt.Println(r.Valid, r.Compact, r.Formatted)
	r, _ = Validate("isbn", "080442957x")
	fmt.Println(r.Valid, r.Formatted, r.ISBN.ISBN13)
	r, _ = Validate("ean", "4006381333932")
	fmt.Println(r.Valid, r.Error)
	// Output:
	// true DE89370400440532013000 DE89 3704 0044 0532 0130 00
	// true 0-8044-2957-X 9780804429573
	// false invalid_checksum
}

// FuzzValidate: no input makes any kind panic; a valid identifier has a
// compact form that is itself valid with the same compact form (stdnum's
// compact is idempotent on valid numbers), and an invalid one has a reason.
func FuzzValidate(f *testing.F) {
	for _, s := range []string{"DE89370400440532013000", "GB82 WEST 1234 5698 7654 32", "BE68539007547034",
		"NO9386011117947", "ES9121000418450200051332", "ME25505000012345678951", "DEUTDEFF500",
		"0-8044-2957-X", "978-0-306-40615-7", "0378-5955", "4006381333931", "US0378331005",
		"5493001KJTIIGC8Y1R12", "79927398713", "urn:uuid:12345678-1234-5678-1234-567812345678",
		"0x345678123456781234567812345678", "GB\u0668\u0662WEST12345698765432", "deutde\ufb00", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) || utf8.RuneCountInString(s) > 256 {
			return // the tool's input is a JSON string of at most 256 characters
		}
		for _, k := range Kinds {
			r, err := Validate(k, s)
			if err != nil {
				t.Fatal(err)
			}
			if !r.Valid {
				if r.Error == "" || r.Compact != "" || r.Formatted != "" {
					t.Fatalf("%s %q: invalid with %+v", k, s, r)
				}
				continue
			}
			if r.Error != "" || r.Compact == "" && k != "luhn" {
				t.Fatalf("%s %q: valid with %+v", k, s, r)
			}
			again, _ := Validate(k, r.Compact)
			if k != "uuid" && (!again.Valid || again.Compact != r.Compact) {
				t.Fatalf("%s %q: compact %q gives %+v", k, s, r.Compact, again)
			}
			if k == "uuid" && (!again.Valid || again.Formatted != r.Formatted || !strings.Contains(r.Formatted, "-")) {
				t.Fatalf("%s %q: compact %q gives %+v", k, s, r.Compact, again)
			}
		}
	})
}

func BenchmarkValidate(b *testing.B) {
	for _, c := range []struct{ kind, value string }{
		{"iban", "GB82 WEST 1234 5698 7654 32"}, {"isbn", "978-0-306-40615-7"}, {"uuid", "urn:uuid:550e8400-e29b-41d4-a716-446655440000"},
	} {
		b.Run(c.kind, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if r, _ := Validate(c.kind, c.value); !r.Valid {
					b.Fatal(r.Error)
				}
			}
		})
	}
}
