package api

import (
	"encoding/json"
	"net/http"

	"github.com/precisiond/precisiond/internal/surface"
	"github.com/precisiond/precisiond/tools"
)

// OpenAPI returns the OpenAPI 3.1 description of the REST surface, generated from
// the registry: every tool's inputSchema, its facts (outputSchema) and the
// envelope that embeds them, the error body, and every REST route.
func OpenAPI(reg *tools.Registry, version string) map[string]any {
	if version == "" {
		version = "dev"
	}
	schemas := map[string]any{
		"Error":            surface.ErrorSchema(),
		"Catalog":          catalogSchema(),
		"CatalogEntry":     catalogEntrySchema(),
		"Health":           healthSchema(),
		"Ready":            readySchema(),
		"ToggleResult":     surface.Object(props{"ok": map[string]any{"const": true}, "name": strSchema("tool name"), "enabled": boolSchema("the new state")}, "ok", "name", "enabled"),
		"SetEnabled":       surface.Closed(surface.Object(props{"enabled": boolSchema("the wanted state")}, "enabled")),
		"VerifyResult":     verifyResultSchema(),
		"AdminSession":     surface.Object(props{"ok": map[string]any{"const": true}, "token_id": strSchema("first 8 hex digits of sha256(token)")}, "ok", "token_id"),
		"InvokeRequest":    nil, // filled below
		"InvokeResponse":   nil,
		"StructuredResult": nil,
	}
	var requests, responses, envelopes []any
	for _, e := range reg.Catalog().Tools {
		name := e["name"].(string)
		tool, hash, _ := reg.Lookup(name)
		in, facts, env := "tool."+name+".input", "tool."+name+".facts", "tool."+name+".envelope"
		schemas[in] = surface.RebaseRefs(e["inputSchema"], componentPath(in))
		schemas[facts] = surface.RebaseRefs(e["outputSchema"], componentPath(facts))
		schemas[env] = surface.EnvelopeSchema(tool.Contract, hash, ref(facts), componentPath(facts))
		requests = append(requests, surface.Closed(surface.Object(props{
			"tool":          map[string]any{"const": name, "description": str(e["title"])},
			"args":          ref(in),
			"contract_hash": map[string]any{"type": "string", "pattern": "^[0-9a-f]{64}$", "description": "optional pin: refused with contract_mismatch if it differs"},
		}, "tool")))
		responses = append(responses, surface.Closed(surface.Object(props{
			"result":            strSchema("legacy human-readable result"),
			"tool":              map[string]any{"const": name},
			"structured_result": ref(env),
			"attestation":       strSchema("JWS compact serialization (EdDSA) that signs the answer's tool, contract and result_hash; verify against /.well-known/jwks.json (docs/attestation.md)"),
		}, "result", "tool", "structured_result")))
		envelopes = append(envelopes, ref(env))
	}
	schemas["InvokeRequest"] = map[string]any{"oneOf": requests, "description": "one tool call; args defaults to {}"}
	schemas["InvokeResponse"] = map[string]any{"oneOf": responses, "description": "a successful call"}
	schemas["StructuredResult"] = map[string]any{"oneOf": envelopes, "description": "an evidence envelope"}

	nameParam := map[string]any{"name": "name", "in": "path", "required": true, "description": "tool name", "schema": map[string]any{"type": "string", "pattern": "^[a-z][a-z0-9_]*$"}}
	admin := []any{map[string]any{"adminToken": []any{}}}
	doc := map[string]any{
		"openapi":           "3.1.0",
		"jsonSchemaDialect": "https://json-schema.org/draft/2020-12/schema",
		"info": map[string]any{
			"title":       "precisiond",
			"version":     version,
			"description": "Exact answers with hashed evidence envelopes. Generated from the tool registry.",
			"license":     map[string]any{"name": "see repository", "identifier": "NOASSERTION"},
		},
		"paths": map[string]any{
			"/invoke": map[string]any{"post": op("invoke", "Run one tool (wire-compatible): tool-level errors answer HTTP 200 with an error body.",
				invokeBody(),
				responsesOf(map[string]any{"200": jsonResp("a result or a tool-level error", map[string]any{"oneOf": []any{ref("InvokeResponse"), ref("Error")}})}, "400", "413", "415", "503"))},
			"/v1/invoke": map[string]any{"post": op("invokeV1", "Run one tool; tool-level errors use HTTP statuses.",
				invokeBody(),
				responsesOf(map[string]any{"200": jsonResp("a result", ref("InvokeResponse"))}, "400", "403", "404", "409", "413", "415", "422", "500", "503", "504"))},
			"/tools": map[string]any{"get": op("listTools", "The catalogue, in fixed order, with catalog_hash.", nil,
				map[string]any{"200": jsonResp("the catalogue", ref("Catalog"))})},
			"/tools/{name}": map[string]any{"parameters": []any{nameParam}, "get": op("getTool", "One catalogue entry.", nil,
				responsesOf(map[string]any{"200": jsonResp("the entry", ref("CatalogEntry"))}, "404"))},
			"/health": map[string]any{"get": op("health", "Liveness: 200 while serving (whatever the store's state, which it reports); 503 while shutting down.", nil,
				map[string]any{"200": jsonResp("serving", ref("Health")), "503": jsonResp("shutting down", ref("Health"))})},
			"/ready": map[string]any{"get": op("ready", "Readiness: 503 while shutting down and, with --store-required, while the store is down or the toggle state has never been read from it.", nil,
				map[string]any{"200": jsonResp("ready", ref("Ready")), "503": jsonResp("not ready, with the reason", ref("Ready"))})},
			"/downloads/{filename}": map[string]any{
				"parameters": []any{map[string]any{"name": "filename", "in": "path", "required": true, "description": "a name generate_file returned", "schema": map[string]any{"type": "string"}}},
				"get": op("download", "A file made by generate_file (content-addressed, expires after the TTL).", nil,
					responsesOf(map[string]any{"200": map[string]any{"description": "the file", "content": map[string]any{"application/octet-stream": map[string]any{}}}}, "404", "503"))},
			"/tools/{name}/toggle": map[string]any{"parameters": []any{nameParam}, "post": withSecurity(op("toggleTool", "Flip a tool's enabled state (wire-compatible; admin token required).", nil,
				responsesOf(map[string]any{"200": jsonResp("the new state", ref("ToggleResult"))}, "401", "403", "404", "500", "503")), admin)},
			"/admin/tools/{name}": map[string]any{"parameters": []any{nameParam}, "put": withSecurity(op("setTool", "Set a tool's enabled state (admin token required).",
				jsonBody(ref("SetEnabled")),
				responsesOf(map[string]any{"200": jsonResp("the new state", ref("ToggleResult"))}, "400", "401", "403", "404", "500", "503")), admin)},
			"/admin/session": map[string]any{"get": withSecurity(op("adminSession", "Check an admin token.", nil,
				responsesOf(map[string]any{"200": jsonResp("the token is accepted", ref("AdminSession"))}, "401", "403")), admin)},
			"/admin": map[string]any{"get": op("adminPage", "The admin page (HTML; state changes need the token).", nil,
				map[string]any{"200": map[string]any{"description": "HTML", "content": map[string]any{"text/html": map[string]any{}}}})},
			"/admin/verify": map[string]any{"post": withSecurity(op("verify", "Recompute an /invoke response's hashes against this catalogue (admin token required).",
				jsonBody(map[string]any{"description": "an /invoke response or a bare structured_result", "type": "object"}),
				responsesOf(map[string]any{"200": jsonResp("the verdict", ref("VerifyResult"))}, "400", "401", "403", "413", "503")), admin)},
			JWKSPath: map[string]any{"get": op("jwks", "The JWK Set of the keys that sign answers (current first, then retained ones with not_after); ETag, 304 on If-None-Match; HEAD too.", nil,
				map[string]any{"200": map[string]any{"description": "JWK Set (RFC 7517)", "content": map[string]any{"application/jwk-set+json": map[string]any{}}}, "304": map[string]any{"description": "not modified"}})},
			"/metrics": map[string]any{"get": op("metrics", "Prometheus metrics.", nil,
				map[string]any{"200": map[string]any{"description": "exposition format", "content": map[string]any{"text/plain": map[string]any{}}}})},
			"/openapi.json": map[string]any{"get": op("openapi", "This document.", nil,
				map[string]any{"200": map[string]any{"description": "OpenAPI 3.1", "content": map[string]any{"application/json": map[string]any{}}}})},
		},
		"components": map[string]any{
			"schemas": schemas,
			"securitySchemes": map[string]any{
				"adminToken": map[string]any{"type": "http", "scheme": "bearer", "description": "PRECISIOND_ADMIN_TOKEN"},
			},
		},
	}
	addPlanOpenAPI(schemas, doc["paths"].(map[string]any))
	addIntentOpenAPI(schemas, doc["paths"].(map[string]any))
	return doc
}

func (s *Server) openapi(r *http.Request) (any, *surface.Error) {
	return OpenAPI(s.reg, s.opts.Version), nil
}

type props = map[string]any

func strSchema(desc string) map[string]any {
	return map[string]any{"type": "string", "description": desc}
}

func boolSchema(desc string) map[string]any {
	return map[string]any{"type": "boolean", "description": desc}
}

func ref(name string) map[string]any { return map[string]any{"$ref": componentPath(name)} }

func componentPath(name string) string { return "#/components/schemas/" + name }

func op(id, summary string, body map[string]any, responses map[string]any) map[string]any {
	m := map[string]any{"operationId": id, "summary": summary, "responses": responses}
	if body != nil {
		m["requestBody"] = body
	}
	return m
}

func withSecurity(op map[string]any, sec []any) map[string]any {
	op["security"] = sec
	return op
}

func jsonBody(schema map[string]any) map[string]any {
	return map[string]any{"required": true, "content": map[string]any{"application/json": map[string]any{"schema": schema}}}
}

// invokeBody is the request body of /invoke and /v1/invoke, with a first
// call as its example (what /docs prefills for "Try it out").
func invokeBody() map[string]any {
	b := jsonBody(ref("InvokeRequest"))
	b["content"].(map[string]any)["application/json"].(map[string]any)["example"] =
		map[string]any{"tool": "gcd_lcm", "args": map[string]any{"a": json.Number("391"), "b": json.Number("299")}}
	return b
}

func jsonResp(desc string, schema map[string]any) map[string]any {
	return map[string]any{"description": desc, "content": map[string]any{"application/json": map[string]any{"schema": schema}}}
}

// responsesOf adds the error body for each listed status.
func responsesOf(ok map[string]any, statuses ...string) map[string]any {
	for _, s := range statuses {
		ok[s] = jsonResp(statusText(s), ref("Error"))
	}
	return ok
}

func statusText(code string) string {
	texts := map[string]string{
		"400": "invalid request or input (invalid_request, input_schema_invalid)",
		"401": "missing or wrong bearer token (unauthorized)",
		"403": "tool disabled, or administration disabled (tool_disabled, forbidden)",
		"404": "no such tool, plan or file (unknown_tool, unknown_plan, not_found)",
		"409": "pinned contract_hash differs (contract_mismatch)",
		"413": "body over the limit (payload_too_large)",
		"415": "not JSON (unsupported_media_type)",
		"422": "refused on domain or cost grounds, or a plan that fails its check (tool_execution_error, tool_result_error, wrong_arguments, cost_limit_exceeded, tool_result_too_large, invalid_plan)",
		"500": "a bug (output_schema_invalid, internal_error)",
		"503": "overloaded, shutting down, or the shared store unavailable (overloaded, shutting_down, store_unavailable; Retry-After is set)",
		"504": "the deadline passed (timeout)",
	}
	return texts[code]
}

func catalogEntrySchema() map[string]any {
	return surface.Object(props{
		"name":              strSchema("tool name"),
		"title":             strSchema("title"),
		"description":       strSchema("documentation for models and operators"),
		"enabled":           boolSchema("false when disabled by an admin"),
		"inputSchema":       map[string]any{"type": "object"},
		"outputSchema":      map[string]any{"type": "object"},
		"args":              map[string]any{"type": "object"},
		"required_args":     map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
		"access_kind":       map[string]any{"enum": []any{"read", "write"}},
		"contract_id":       strSchema("precisiond.<tool>"),
		"contract_version":  strSchema("semver"),
		"contract_hash":     map[string]any{"type": "string", "pattern": "^[0-9a-f]{64}$"},
		"determinism":       map[string]any{"enum": []any{"input_only", "source_versioned", "library_pinned"}},
		"structured_result": map[string]any{"const": true},
		"examples":          map[string]any{"type": "array"},
	}, "name", "description", "enabled", "inputSchema", "args", "required_args", "access_kind", "outputSchema",
		"contract_id", "contract_version", "contract_hash", "determinism", "source_policy", "structured_result",
		"normalization_policy", "retry_policy", "cache_policy", "limits", "evidence_policy")
}

func catalogSchema() map[string]any {
	return surface.Object(props{
		"tools":        map[string]any{"type": "array", "items": ref("CatalogEntry")},
		"catalog_hash": map[string]any{"type": "string", "pattern": "^[0-9a-f]{64}$", "description": "H of [{name, contract_hash, enabled}] in order"},
	}, "tools", "catalog_hash")
}

func healthSchema() map[string]any {
	return surface.Object(props{
		"status":       map[string]any{"enum": []any{"ok", "shutting_down"}},
		"tools":        map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
		"disabled":     map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
		"catalog_hash": map[string]any{"type": "string"},
		"version":      strSchema("service version"),
		"replica":      strSchema("this process: host name and a random id per start"),
		"store":        storeStateSchema(),
	}, "status", "tools")
}

func storeStateSchema() map[string]any {
	return surface.Object(props{
		"kind":   map[string]any{"enum": []any{"file", "s3"}},
		"ok":     boolSchema("the store answered its last check"),
		"reason": map[string]any{"enum": []any{"store_unavailable", "store_error"}, "description": "not answering in time, or answering with a refusal"},
	}, "kind", "ok")
}

func readySchema() map[string]any {
	return surface.Object(props{
		"status":  map[string]any{"enum": []any{"ready", "not_ready"}},
		"reason":  map[string]any{"enum": []any{"shutting_down", "store_unavailable", "toggles_unknown"}},
		"replica": strSchema("this process"),
		"store":   storeStateSchema(),
	}, "status")
}

func verifyResultSchema() map[string]any {
	return surface.Object(props{
		"tool":        strSchema("the envelope's tool"),
		"verified":    boolSchema("true when every hash recomputes"),
		"result_hash": map[string]any{"description": "the envelope's result_hash as sent"},
		"error":       strSchema("the first mismatch"),
	}, "tool", "verified")
}
