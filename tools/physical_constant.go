package tools

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/precisiond/precisiond/internal/codata"
	"github.com/precisiond/precisiond/internal/suggest"
)

// constantInput is physical_constant's arguments; the schema bounds both
// strings and the edition, and Run insists on exactly one of name and query
// (the schema does not say so with a top-level oneOf, which some model APIs
// refuse in a tool's input schema).
type constantInput struct {
	Name    *string `json:"name"`
	Query   *string `json:"query"`
	Edition string  `json:"edition"`
}

// constantFacts holds either a constant's facts (name … unit) or a search's
// (query … truncated); the fields of the other kind are left out.
type constantFacts struct {
	Name           *string   `json:"name,omitempty"`
	Value          *string   `json:"value,omitempty"`
	Uncertainty    *string   `json:"uncertainty,omitempty"`
	Exact          *bool     `json:"exact,omitempty"`
	ValueTruncated *bool     `json:"value_truncated,omitempty"`
	Unit           *string   `json:"unit,omitempty"`
	Query          *string   `json:"query,omitempty"`
	Matches        *[]string `json:"matches,omitempty"`
	Total          *int      `json:"total,omitempty"`
	Truncated      *bool     `json:"truncated,omitempty"`
	Edition        string    `json:"edition"`
}

// maxConstantMatches is the contract's limits.max_matches.
const maxConstantMatches = 20

// maxConstantHints is how many names an unknown_constant error suggests.
const maxConstantHints = 3

func physicalConstant() Tool {
	return Define(Def[constantInput, constantFacts]{
		Name: "physical_constant",
		Run: func(_ context.Context, in constantInput) (constantFacts, []Warning, error) {
			f, err := lookupConstant(in)
			return f, nil, err
		},
		Legacy: constantText,
	})
}

func lookupConstant(in constantInput) (constantFacts, error) {
	if in.Edition == "" {
		in.Edition = codata.Default
	}
	t, ok := codata.Lookup(in.Edition)
	if !ok { // the schema's enum admits only the editions codata has
		return constantFacts{}, Fail("unknown_edition", "edition %q is not one of %s", in.Edition, strings.Join(codata.Editions(), ", "))
	}
	switch {
	case in.Name == nil && in.Query == nil:
		return constantFacts{}, Fail("name_or_query_required", "give a constant's name (name) or text to search the names for (query)")
	case in.Name != nil && in.Query != nil:
		return constantFacts{}, Fail("name_and_query_both_given", "give either name or query, not both")
	case in.Query != nil:
		q := *in.Query
		matches, total := t.Search(q, maxConstantMatches)
		truncated := total > len(matches)
		return constantFacts{Query: &q, Matches: &matches, Total: &total, Truncated: &truncated, Edition: t.Edition}, nil
	}
	c, ok := t.Get(*in.Name)
	if !ok {
		return constantFacts{}, unknownConstant(t, *in.Name)
	}
	return constantFacts{Name: &c.Name, Value: &c.Value, Uncertainty: &c.Uncertainty, Exact: &c.Exact,
		ValueTruncated: &c.Truncated, Unit: &c.Unit, Edition: t.Edition}, nil
}

// unknownConstant is the unknown_constant error for name in t: it says when
// the name belongs to another edition, and suggests first the name a renamed
// constant has in t, then the nearest names by spelling, else names that
// contain name.
func unknownConstant(t *codata.Table, name string) *Error {
	msg := "no constant named " + strconv.Quote(name) + " in " + t.Edition
	for _, ed := range codata.Editions() {
		if other, _ := codata.Lookup(ed); ed != t.Edition {
			if c, ok := other.Get(name); ok {
				msg += " (" + strconv.Quote(c.Name) + " is a " + ed + " name)"
				break
			}
		}
	}
	var hints []string
	if renamed, ok := codata.Renamed[t.Edition][codata.Key(name)]; ok {
		hints = append(hints, renamed)
	}
	near := suggest.Closest(name, t.Names(), maxConstantHints)
	if len(near) == 0 {
		near, _ = t.Search(name, maxConstantHints)
	}
	for _, n := range near {
		if len(hints) < maxConstantHints && !slices.Contains(hints, n) {
			hints = append(hints, n)
		}
	}
	return withHints(Fail("unknown_constant", "%s%s", msg, suggest.Phrase(hints)), "/name", hints...)
}

// constantText is the legacy result line: "electron mass (CODATA2022) =
// 9.1093837139e-31 kg, standard uncertainty 0.0000000028e-31 kg", or the
// names a query found.
func constantText(_ constantInput, out constantFacts) string {
	if out.Query != nil {
		var b strings.Builder
		b.WriteString(strconv.Quote(*out.Query) + " in " + out.Edition + ": ")
		b.WriteString(strconv.Itoa(*out.Total) + " names")
		if len(*out.Matches) > 0 {
			b.WriteString(": " + strings.Join(*out.Matches, "; "))
		}
		if *out.Truncated {
			b.WriteString("; … (first " + strconv.Itoa(len(*out.Matches)) + " shown)")
		}
		return b.String()
	}
	unit := ""
	if *out.Unit != "" {
		unit = " " + *out.Unit
	}
	s := *out.Name + " (" + out.Edition + ") = " + *out.Value
	if *out.ValueTruncated {
		s += "..."
	}
	s += unit
	if *out.Exact {
		return s + " (exact)"
	}
	return s + ", standard uncertainty " + *out.Uncertainty + unit
}
