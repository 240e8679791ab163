package tools

import (
	"context"
	"strconv"
	"strings"

	"github.com/precisiond/precisiond/internal/version"
)

// versionInput is version_compare's arguments; the schema requires the
// arguments of the operation (a and b, versions, or version and
// constraint) and bounds every string.
type versionInput struct {
	Scheme     string   `json:"scheme"`
	Operation  string   `json:"operation"`
	A          *string  `json:"a"`
	B          *string  `json:"b"`
	Versions   []string `json:"versions"`
	Version    *string  `json:"version"`
	Constraint *string  `json:"constraint"`
}

// versionFacts holds the facts of one operation; the others' are left out.
type versionFacts struct {
	Result      *int      `json:"result,omitempty"`
	ANormalized *string   `json:"a_normalized,omitempty"`
	BNormalized *string   `json:"b_normalized,omitempty"`
	Sorted      *[]string `json:"sorted,omitempty"`
	Max         *string   `json:"max,omitempty"`
	Satisfied   *bool     `json:"satisfied,omitempty"`
}

// versionCompare is version_compare (issue 31): compare, sort, max and
// satisfies over npm semver, PEP 440 (packaging) and Debian (dpkg)
// versions; see internal/version.
func versionCompare() Tool {
	return Define(Def[versionInput, versionFacts]{
		Name: "version_compare",
		Run: func(_ context.Context, in versionInput) (versionFacts, []Warning, error) {
			f, err := runVersion(in)
			return f, nil, err
		},
		Legacy: versionText,
	})
}

func runVersion(in versionInput) (versionFacts, error) {
	missing := func(names string) (versionFacts, error) { // the schema lets none through
		return versionFacts{}, Fail("missing_argument", "%s needs %s", in.Operation, names)
	}
	switch in.Operation {
	case "compare":
		if in.A == nil || in.B == nil {
			return missing("a and b")
		}
		c, err := version.Compare(in.Scheme, *in.A, *in.B)
		if err != nil {
			return versionFacts{}, err
		}
		return versionFacts{Result: &c.Result, ANormalized: &c.ANormalized, BNormalized: &c.BNormalized}, nil
	case "sort":
		if len(in.Versions) == 0 {
			return missing("versions")
		}
		s, err := version.Sort(in.Scheme, in.Versions)
		if err != nil {
			return versionFacts{}, err
		}
		return versionFacts{Sorted: &s}, nil
	case "max":
		if len(in.Versions) == 0 {
			return missing("versions")
		}
		m, err := version.Max(in.Scheme, in.Versions)
		if err != nil {
			return versionFacts{}, err
		}
		return versionFacts{Max: &m}, nil
	case "satisfies":
		if in.Version == nil || in.Constraint == nil {
			return missing("version and constraint")
		}
		ok, err := version.Satisfies(in.Scheme, *in.Version, *in.Constraint)
		if err != nil {
			return versionFacts{}, err
		}
		return versionFacts{Satisfied: &ok}, nil
	}
	return versionFacts{}, Fail("unknown_operation", "unknown operation %q", in.Operation)
}

func versionText(in versionInput, out versionFacts) string {
	switch {
	case out.Result != nil:
		rel := map[int]string{-1: "<", 0: "==", 1: ">"}[*out.Result]
		return in.Scheme + ": " + *out.ANormalized + " " + rel + " " + *out.BNormalized
	case out.Sorted != nil:
		q := make([]string, len(*out.Sorted))
		for i, v := range *out.Sorted {
			q[i] = strconv.Quote(v)
		}
		return in.Scheme + " ascending: " + strings.Join(q, ", ")
	case out.Max != nil:
		return in.Scheme + " max: " + strconv.Quote(*out.Max)
	case out.Satisfied != nil:
		verdict := "does not satisfy"
		if *out.Satisfied {
			verdict = "satisfies"
		}
		return in.Scheme + ": " + strconv.Quote(*in.Version) + " " + verdict + " " + strconv.Quote(*in.Constraint)
	}
	return in.Scheme
}
