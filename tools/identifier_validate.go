package tools

import (
	"context"
	"strconv"

	"github.com/precisiond/precisiond/internal/ident"
)

type identInput struct {
	Kind  string `json:"kind"`
	Value string `json:"value"`
}

type identFacts struct {
	Valid     bool    `json:"valid"`
	Compact   *string `json:"compact"`
	Formatted *string `json:"formatted"`
	Error     *string `json:"error"`
	// Details is null when invalid, else one of the *Details types below or
	// an empty object.
	Details any `json:"details"`
}

type ibanDetails struct {
	Country     string `json:"country"`
	CheckDigits string `json:"check_digits"`
	BBAN        string `json:"bban"`
}

type isbnDetails struct {
	ISBN10 *string `json:"isbn10"`
	ISBN13 string  `json:"isbn13"`
}

type eanDetails struct {
	Length int `json:"length"`
}

type uuidDetails struct {
	Version *int   `json:"version"`
	Variant string `json:"variant"`
}

type luhnDetails struct {
	CheckDigit string `json:"check_digit"`
}

// identifierValidate is identifier_validate (issue 31): python-stdnum's
// verdicts on IBAN, BIC, ISBN, ISSN, EAN, ISIN, LEI, Luhn numbers and UUIDs;
// see internal/ident. An invalid identifier is a fact (valid false).
func identifierValidate() Tool {
	return Define(Def[identInput, identFacts]{
		Name: "identifier_validate",
		Run: func(_ context.Context, in identInput) (identFacts, []Warning, error) {
			r, err := ident.Validate(in.Kind, in.Value)
			if err != nil { // the schema's enum lets no unknown kind through
				return identFacts{}, nil, Fail("unknown_kind", "%s", err.Error())
			}
			if !r.Valid {
				return identFacts{Error: &r.Error}, nil, nil
			}
			out := identFacts{Valid: true, Compact: &r.Compact, Formatted: &r.Formatted, Details: struct{}{}}
			switch {
			case r.IBAN != nil:
				out.Details = ibanDetails{Country: r.IBAN.Country, CheckDigits: r.IBAN.CheckDigits, BBAN: r.IBAN.BBAN}
			case r.ISBN != nil:
				d := isbnDetails{ISBN13: r.ISBN.ISBN13}
				if r.ISBN.ISBN10 != "" {
					d.ISBN10 = &r.ISBN.ISBN10
				}
				out.Details = d
			case r.EAN != nil:
				out.Details = eanDetails{Length: r.EAN.Length}
			case r.UUID != nil:
				d := uuidDetails{Variant: r.UUID.Variant}
				if r.UUID.HasVersion {
					d.Version = &r.UUID.Version
				}
				out.Details = d
			case r.Luhn != nil:
				out.Details = luhnDetails{CheckDigit: r.Luhn.CheckDigit}
			}
			return out, nil, nil
		},
		Legacy: func(in identInput, out identFacts) string {
			if !out.Valid {
				return in.Kind + " " + strconv.Quote(in.Value) + ": invalid (" + *out.Error + ")"
			}
			return in.Kind + " " + *out.Formatted + ": valid"
		},
	})
}
