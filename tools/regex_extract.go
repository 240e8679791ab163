package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/precisiond/precisiond/internal/regexpy"
)

// Cost limits of regex_extract (declared in its contract).
const (
	regexMaxTextBytes = 1 << 20
	regexMaxSteps     = 50_000_000
	regexMaxMatches   = 1_000_000
)

type regexInput struct {
	Pattern string `json:"pattern"`
	Text    string `json:"text"`
	Flags   string `json:"flags"`
	Offset  int    `json:"offset"`
	Limit   int    `json:"limit"`
}

type regexMatch struct {
	Match  string             `json:"match"`
	Start  int                `json:"start"`
	End    int                `json:"end"`
	Groups []*string          `json:"groups"`
	Named  map[string]*string `json:"named"`
}

type regexFacts struct {
	Matches      []regexMatch `json:"matches"`
	TotalMatches int          `json:"total_matches"`
	Offset       int          `json:"offset"`
	Limit        int          `json:"limit"`
	HasMore      bool         `json:"has_more"`
	NextOffset   *int         `json:"next_offset"`
}

// regexExtract is the upgraded regex_extract tool (SPEC §7.2): Python `re` syntax
// and finditer semantics, linear-time matching (internal/regexpy).
func regexExtract() Tool {
	return Define(Def[regexInput, regexFacts]{
		Name: "regex_extract",
		Run: func(ctx context.Context, in regexInput) (regexFacts, []Warning, error) {
			if len(in.Text) > regexMaxTextBytes {
				return regexFacts{}, nil, TooCostly("text_too_large", "text is %d UTF-8 bytes; the limit is %d", len(in.Text), regexMaxTextBytes)
			}
			re, err := regexpy.Compile(in.Pattern, in.Flags)
			if err != nil {
				return regexFacts{}, nil, regexError(err)
			}
			text := []rune(in.Text)
			names := re.GroupNames()
			out := regexFacts{Matches: []regexMatch{}, Offset: in.Offset, Limit: in.Limit}
			str := func(g [2]int) *string {
				if g[0] < 0 {
					return nil
				}
				s := string(text[g[0]:g[1]])
				return &s
			}
			err = re.FindAll(ctx, text, regexpy.Limits{MaxSteps: regexMaxSteps, MaxMatches: regexMaxMatches}, func(m regexpy.Match) bool {
				i := out.TotalMatches
				out.TotalMatches++
				if i < in.Offset || i >= in.Offset+in.Limit {
					return true
				}
				rm := regexMatch{Match: *str(m.Groups[0]), Start: m.Groups[0][0], End: m.Groups[0][1],
					Groups: make([]*string, 0, len(m.Groups)-1), Named: map[string]*string{}}
				for _, g := range m.Groups[1:] {
					rm.Groups = append(rm.Groups, str(g))
				}
				for name, k := range names {
					rm.Named[name] = str(m.Groups[k])
				}
				out.Matches = append(out.Matches, rm)
				return true
			})
			if err != nil {
				return regexFacts{}, nil, regexError(err)
			}
			if end := in.Offset + len(out.Matches); end < out.TotalMatches {
				out.HasMore = true
				out.NextOffset = &end
			}
			return out, nil, nil
		},
		Legacy: func(in regexInput, f regexFacts) string {
			var b strings.Builder
			fmt.Fprintf(&b, "Found %d match(es)", f.TotalMatches)
			if len(f.Matches) > 0 {
				fmt.Fprintf(&b, "; showing %d-%d:", f.Offset+1, f.Offset+len(f.Matches))
				for i, m := range f.Matches {
					q, _ := json.Marshal(m.Match)
					if i > 0 {
						b.WriteByte(',')
					}
					b.WriteByte(' ')
					b.Write(q)
				}
			}
			if f.HasMore {
				fmt.Fprintf(&b, " (more from offset %d)", *f.NextOffset)
			}
			return b.String()
		},
	})
}

func regexError(err error) error {
	var se *regexpy.SyntaxError
	var ue *regexpy.UnsupportedError
	var le *regexpy.TooLargeError
	var ce *regexpy.CostError
	switch {
	case errors.As(err, &se):
		return Fail("invalid_regex", "%s", se.Error())
	case errors.As(err, &ue):
		return Fail("unsupported_regex_feature", "%s", ue.Error())
	case errors.As(err, &le):
		return TooCostly("regex_too_large", "%s", le.Error())
	case errors.As(err, &ce):
		if strings.Contains(ce.Msg, "matches") {
			return TooCostly("too_many_matches", "%s; narrow the pattern", ce.Msg)
		}
		return TooCostly("regex_work_limit", "%s", ce.Msg)
	}
	return err
}
