package contracts

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
)

// MaxSummaryChars bounds a contract's summary: one line of the compact
// catalogue (GET /v1/catalog).
const MaxSummaryChars = 100

// Group is one group of the compact catalogue.
type Group struct {
	Name    string `json:"name"`
	Summary string `json:"summary"`
}

//go:embed groups.json
var groupsJSON []byte

// groups is groups.json, decoded once at start-up.
var groups = func() []Group {
	var doc struct {
		Comment string  `json:"$comment"`
		Groups  []Group `json:"groups"`
	}
	if err := json.Unmarshal(groupsJSON, &doc); err != nil || len(doc.Groups) == 0 {
		panic(fmt.Sprintf("contracts: groups.json: %v", err)) // embedded: found by every test
	}
	return doc.Groups
}()

// Groups lists the catalogue groups in their fixed order.
func Groups() []Group { return append([]Group(nil), groups...) }

// checkSummary checks the two catalogue fields of a contract, which are
// optional in a contract document (every embedded contract has both; a test
// says so): a summary is one line of at most MaxSummaryChars characters, a
// group one of groups.json.
func checkSummary(c *Contract) error {
	if n := utf8.RuneCountInString(c.Summary); n > MaxSummaryChars || strings.ContainsAny(c.Summary, "\r\n") {
		return fmt.Errorf("summary must be one line of at most %d characters (has %d)", MaxSummaryChars, n)
	}
	if c.Group == "" {
		return nil
	}
	for _, g := range groups {
		if g.Name == c.Group {
			return nil
		}
	}
	return fmt.Errorf("group %q is not in groups.json", c.Group)
}

// DeepCopy returns a copy of a generic JSON value (maps and slices as
// evidence.ParseJSON makes them) that shares nothing with it.
func DeepCopy(v any) any { return deepCopy(v) }
