package api

import (
	"context"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/internal/testhttp"
)

// TestOpenAPIValidates loads /openapi.json with kin-openapi as an OpenAPI 3.1
// document and validates it, then checks that it covers every tool and route.
func TestOpenAPIValidates(t *testing.T) {
	ts, reg, _ := newAdminServer(t, adminToken, nil)
	raw := testhttp.Get(t, ts.URL+"/openapi.json")
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(raw)
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	if !doc.IsOpenAPI31OrLater() || doc.OpenAPI != "3.1.0" {
		t.Fatalf("openapi = %q, want 3.1.0", doc.OpenAPI)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatalf("validate: %v", err)
	}
	for _, name := range reg.Names() {
		for _, suffix := range []string{".input", ".facts", ".envelope"} {
			if doc.Components.Schemas["tool."+name+suffix] == nil {
				t.Errorf("components lack tool.%s%s", name, suffix)
			}
		}
	}
	// Every route the router serves is described (MCP is a protocol, not REST).
	for _, p := range []string{"/invoke", "/v1/invoke", "/tools", "/tools/{name}", "/health", "/ready", "/downloads/{filename}",
		"/tools/{name}/toggle", "/admin/tools/{name}", "/admin", "/admin/session", "/admin/verify", "/metrics", "/openapi.json", "/v1/intents", "/v1/answer"} {
		if doc.Paths.Find(p) == nil {
			t.Errorf("paths lack %s", p)
		}
	}
	if op := doc.Paths.Find("/tools/{name}/toggle").Post; op == nil || op.Security == nil || len(*op.Security) == 0 {
		t.Error("the toggle route is not marked as needing the admin token")
	}
}

// TestOpenAPISchemasDescribeRealResponses compiles the document's component
// schemas (draft 2020-12) and checks real answers against them: every tool's
// first example as an InvokeResponse, and error bodies as Error.
func TestOpenAPISchemasDescribeRealResponses(t *testing.T) {
	ts, reg, _ := newAdminServer(t, adminToken, nil)
	raw := testhttp.Get(t, ts.URL+"/openapi.json")
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(string(raw)))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource("https://precisiond.invalid/openapi.json", doc); err != nil {
		t.Fatal(err)
	}
	compile := func(name string) *jsonschema.Schema {
		s, err := c.Compile("https://precisiond.invalid/openapi.json#/components/schemas/" + name)
		if err != nil {
			t.Fatalf("compile %s: %v", name, err)
		}
		return s
	}
	respSchema, errSchema, reqSchema := compile("InvokeResponse"), compile("Error"), compile("InvokeRequest")
	check := func(s *jsonschema.Schema, body []byte, what string) {
		t.Helper()
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(string(body)))
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Validate(v); err != nil {
			t.Errorf("%s does not match its schema: %v\n%s", what, err, body)
		}
	}
	for _, e := range reg.Catalog().Tools {
		name := e["name"].(string)
		if name == "generate_file" { // needs a store; its envelope is covered by the e2e tests
			continue
		}
		ex := e["examples"].([]any)[0].(map[string]any)
		body, _ := evidence.Canonical(map[string]any{"tool": name, "args": ex["args"]})
		check(reqSchema, body, name+" request")
		check(respSchema, testhttp.PostJSON(t, ts.URL+"/invoke", body).Body, name+" response")
	}
	for _, body := range []string{`{"tool":"gcd_lcm","args":{"a":"x"}}`, `{"tool":"nope"}`, `{"tool":"gcd_lcm","args":{"a":1,"b":0,"operation":"lcm"},"contract_hash":"00"}`} {
		check(errSchema, testhttp.PostJSON(t, ts.URL+"/invoke", []byte(body)).Body, "error for "+body)
	}
	// The schema is not vacuous: a response with a wrong result_hash shape or an
	// extra key fails.
	bad := `{"result":"x","tool":"gcd_lcm","structured_result":{"status":"completed"}}`
	v, _ := jsonschema.UnmarshalJSON(strings.NewReader(bad))
	if respSchema.Validate(v) == nil {
		t.Fatal("an incomplete envelope validated")
	}
}
