package tools

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/precisiond/precisiond/contracts"
)

// CompactCatalog is the compact catalogue (GET /v1/catalog, MCP list_tools):
// every enabled tool in one line, grouped, with the catalog_hash of the same
// snapshot.
type CompactCatalog struct {
	CatalogHash string         `json:"catalog_hash"`
	Groups      []CompactGroup `json:"groups"`
}

// CompactGroup is one group of the compact catalogue.
type CompactGroup struct {
	Name    string        `json:"name"`
	Summary string        `json:"summary"`
	Tools   []CompactTool `json:"tools"`
}

// CompactTool is one line of the compact catalogue.
type CompactTool struct {
	Name    string `json:"name"`
	Summary string `json:"summary"`
}

// otherGroup collects tools whose contract names no group (only tools built
// from test contracts: every embedded contract has one).
var otherGroup = contracts.Group{Name: "other", Summary: "Other tools"}

// CompactCatalog returns the enabled tools grouped in the order of
// contracts.Groups (tools in catalogue order within a group; groups without
// an enabled tool left out), with their summaries. A contract without a
// summary is described by its title.
func (r *Registry) CompactCatalog() CompactCatalog {
	s := r.state.Load()
	byGroup := map[string][]CompactTool{}
	for _, e := range r.tools {
		c := e.contract
		if s.disabled[c.Tool] {
			continue
		}
		g := c.Group
		if g == "" {
			g = otherGroup.Name
		}
		byGroup[g] = append(byGroup[g], CompactTool{Name: c.Tool, Summary: summaryOf(c)})
	}
	out := CompactCatalog{CatalogHash: s.catalogHash, Groups: []CompactGroup{}}
	for _, g := range append(contracts.Groups(), otherGroup) {
		if list := byGroup[g.Name]; len(list) > 0 {
			out.Groups = append(out.Groups, CompactGroup{Name: g.Name, Summary: g.Summary, Tools: list})
		}
	}
	return out
}

func summaryOf(c *contracts.Contract) string {
	if c.Summary != "" {
		return c.Summary
	}
	if r := []rune(c.Title); len(r) > contracts.MaxSummaryChars {
		return string(r[:contracts.MaxSummaryChars])
	}
	return c.Title
}

// Describe returns what a model needs to call one tool right the first time
// (POST /v1/describe, MCP describe_tools): name, summary, description,
// inputSchema, factsSchema (the contract's outputSchema), contract_hash (to
// pin) and the first worked example. Errors: unknown_tool, tool_disabled.
func (r *Registry) Describe(name string) (map[string]any, error) {
	e, err := r.resolve(name, "")
	if err != nil {
		return nil, err
	}
	c := e.contract
	ex := c.Examples[0] // every contract has at least two
	return map[string]any{
		"name":          c.Tool,
		"summary":       summaryOf(c),
		"description":   c.Description,
		"inputSchema":   c.InputSchema,
		"factsSchema":   c.OutputSchema,
		"contract_hash": e.contractHash,
		"example":       map[string]any{"title": ex.Title, "args": ex.Args, "facts": ex.Facts},
	}, nil
}

// Contract returns the contract and contract hash of an enabled tool: the
// static check of a plan reads them. Errors: unknown_tool, tool_disabled.
func (r *Registry) Contract(name string) (*contracts.Contract, string, error) {
	e, err := r.resolve(name, "")
	if err != nil {
		return nil, "", err
	}
	return e.contract, e.contractHash, nil
}

// Select keeps the tools whose names match one of patterns (path.Match globs:
// "*", "?", "[...]"), in their order: the --tools allowlist. No patterns keep
// every tool. A malformed pattern, or one that matches no tool (a typo that
// would silently expose less than intended), is an error.
func Select(list []Tool, patterns []string) ([]Tool, error) {
	if len(patterns) == 0 {
		return list, nil
	}
	used := make([]bool, len(patterns))
	var out []Tool
	for _, t := range list {
		name := t.Contract.Tool
		keep := false
		for i, p := range patterns {
			ok, err := path.Match(p, name)
			if err != nil {
				return nil, fmt.Errorf("tool pattern %q: %v", p, err)
			}
			if ok {
				keep, used[i] = true, true
			}
		}
		if keep {
			out = append(out, t)
		}
	}
	var unused []string
	for i, p := range patterns {
		if !used[i] {
			unused = append(unused, p)
		}
	}
	if len(unused) > 0 {
		return nil, fmt.Errorf("tool patterns match no tool: %s", strings.Join(slices.Compact(unused), ", "))
	}
	return out, nil
}
