package surface

import (
	_ "embed"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/precisiond/precisiond/contracts"
	"github.com/precisiond/precisiond/evidence"
)

// wireSchemas is the one description of the envelope and the error body, as
// data; EnvelopeSchema and ErrorSchema fill it in for MCP (outputSchema) and
// OpenAPI (components) alike.
//
//go:embed schema/envelope.json
var wireSchemas []byte

// planSchemas are the shapes of compact discovery and plans, as data
// (OpenAPI in api/plans_openapi.go and the compact MCP tools in
// mcpserver/mcp_compact.go assemble them).
//
//go:embed schema/plans.json
var planSchemas []byte

// WireSchema returns a fresh copy of one top-level entry of wireSchemas, so
// that callers may fill it in.
func WireSchema(key string) map[string]any { return schemaEntry(wireSchemas, "envelope.json", key) }

// PlanSchema returns a fresh copy of one top-level entry of planSchemas.
func PlanSchema(key string) map[string]any { return schemaEntry(planSchemas, "plans.json", key) }

func schemaEntry(doc []byte, file, key string) map[string]any {
	v, err := evidence.ParseJSON(doc)
	if err != nil {
		panic(fmt.Sprintf("surface: schema/%s: %v", file, err)) // embedded: found by every test
	}
	m, ok := v.(map[string]any)[key].(map[string]any)
	if !ok {
		panic(fmt.Sprintf("surface: schema/%s has no %q", file, key))
	}
	return m
}

// EnvelopeSchema is the JSON Schema of the envelope of a successful call of the
// tool with contract c and contract hash hash; facts is the schema of its
// facts (the contract's outputSchema, inline or as a $ref), and factsAt the
// place in the final document where the outputSchema itself is found (its
// local references are rebased there). source.as_of is described from the
// contract's own facts.as_of: equal to it, or null.
func EnvelopeSchema(c *contracts.Contract, hash string, facts any, factsAt string) map[string]any {
	env := WireSchema("envelope")
	props := env["properties"].(map[string]any)
	setConst := func(key string, v any) { props[key].(map[string]any)["const"] = v }
	setConst("tool", c.Tool)
	setConst("contract_id", c.ContractID)
	setConst("contract_version", c.ContractVersion)
	setConst("contract_hash", hash)
	setConst("determinism", c.Determinism)
	props["facts"] = facts
	source := props["source"].(map[string]any)["properties"].(map[string]any)
	source["as_of"] = asOfSchema(c.OutputSchema, factsAt)
	return env
}

// asOfSchema describes source.as_of: facts.as_of when the facts have one, else
// null.
func asOfSchema(out map[string]any, factsAt string) map[string]any {
	props, _ := out["properties"].(map[string]any)
	s, ok := props["as_of"].(map[string]any)
	if !ok {
		return map[string]any{"type": "null", "description": "null: these facts have no as_of"}
	}
	s = RebaseRefs(s, factsAt).(map[string]any) // a copy: never share the contract's maps
	req, _ := out["required"].([]any)
	if slices.Contains(req, any("as_of")) {
		s["description"] = "equal to facts.as_of"
		return s
	}
	return map[string]any{"anyOf": []any{s, map[string]any{"type": "null"}}, "description": "facts.as_of, or null when the facts have none"}
}

// ErrorSchema is the JSON Schema of the error body, with every error code.
func ErrorSchema() map[string]any {
	e := WireSchema("error")
	codes := make([]any, 0, len(statusOf))
	for _, code := range slices.Sorted(maps.Keys(statusOf)) {
		codes = append(codes, code)
	}
	props := e["properties"].(map[string]any)
	props["error_code"].(map[string]any)["enum"] = codes
	return e
}

// RebaseRefs returns a deep copy of a schema in which local references ("#",
// "#/...") are rewritten to keep pointing into it once it is embedded at base
// in a larger document. A subschema with its own $id is a resource of its own:
// it is copied unchanged. The input is never modified, and the copy shares
// nothing with it.
func RebaseRefs(v any, base string) any { return rebase(v, base, true) }

func rebase(v any, base string, rewrite bool) any {
	switch x := v.(type) {
	case map[string]any:
		if _, has := x["$id"]; has {
			rewrite = false
		}
		out := make(map[string]any, len(x))
		for k, e := range x {
			if s, ok := e.(string); ok && k == "$ref" && rewrite && (s == "#" || strings.HasPrefix(s, "#/")) {
				out[k] = base + strings.TrimPrefix(s, "#")
				continue
			}
			out[k] = rebase(e, base, rewrite)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = rebase(e, base, rewrite)
		}
		return out
	}
	return v
}

// Object is the JSON Schema of an object with these properties, the required
// ones named.
func Object(props map[string]any, required ...string) map[string]any {
	m := map[string]any{"type": "object", "properties": props}
	if len(required) > 0 {
		req := make([]any, len(required))
		for i, r := range required {
			req[i] = r
		}
		m["required"] = req
	}
	return m
}

// Closed forbids properties other than the declared ones in an object schema.
func Closed(m map[string]any) map[string]any {
	m["additionalProperties"] = false
	return m
}
