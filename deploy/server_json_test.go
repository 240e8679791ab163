package deploy_test

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// registrySchema is the MCP registry's server.json schema of 2025-12-11,
// vendored byte for byte from the registry's repository
// (internal/validators/schemas/2025-12-11.json, at commit 29e32c39 of a
// current mirror; its $id is the published URL).
const registrySchema = "deploy/testdata/mcp-registry/server.schema.2025-12-11.json"

func compileRegistrySchema(t *testing.T) (*jsonschema.Schema, string) {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(readFile(t, registrySchema)))
	if err != nil {
		t.Fatal(err)
	}
	id, _ := doc.(map[string]any)["$id"].(string)
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(id, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(id)
	if err != nil {
		t.Fatal(err)
	}
	return sch, id
}

// TestServerJSON: the repository's server.json is valid against the
// vendored registry schema and names the schema it is written for; the
// Dockerfile's io.modelcontextprotocol.server.name label is its name; the
// OCI package's tag is its version; the remote is Streamable HTTP on /mcp;
// no member is an empty string (left out instead).
func TestServerJSON(t *testing.T) {
	sch, id := compileRegistrySchema(t)
	raw := readFile(t, "server.json")
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(inst); err != nil {
		t.Fatalf("server.json against %s:\n%v", id, err)
	}
	var sj struct {
		Schema   string `json:"$schema"`
		Name     string `json:"name"`
		Version  string `json:"version"`
		Packages []struct {
			RegistryType, Identifier, Version string
			Transport                         struct{ Type string }
		} `json:"packages"`
		Remotes []struct{ Type, URL string } `json:"remotes"`
	}
	if err := json.Unmarshal(raw, &sj); err != nil {
		t.Fatal(err)
	}
	if sj.Schema != id {
		t.Errorf("$schema = %q, want the vendored schema's %q", sj.Schema, id)
	}
	label := regexp.MustCompile(`(?m)^LABEL io\.modelcontextprotocol\.server\.name="([^"]+)"$`).FindSubmatch(readFile(t, "Dockerfile"))
	if label == nil || string(label[1]) != sj.Name {
		t.Errorf("Dockerfile label io.modelcontextprotocol.server.name = %q, want %q", label, sj.Name)
	}
	if len(sj.Packages) != 1 || sj.Packages[0].RegistryType != "oci" || !strings.HasSuffix(sj.Packages[0].Identifier, ":v"+sj.Version) ||
		sj.Packages[0].Version != sj.Version || sj.Packages[0].Transport.Type != "stdio" {
		t.Errorf("packages = %+v, want one OCI image tagged v%s serving stdio", sj.Packages, sj.Version)
	}
	if len(sj.Remotes) != 1 || sj.Remotes[0].Type != "streamable-http" || !strings.HasSuffix(sj.Remotes[0].URL, "/mcp") {
		t.Errorf("remotes = %+v, want one streamable-http on /mcp", sj.Remotes)
	}
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch v := v.(type) {
		case string:
			if v == "" {
				t.Errorf("server.json%s is an empty string: leave it out", path)
			}
		case map[string]any:
			for k, x := range v {
				walk(path+"."+k, x)
			}
		case []any:
			for i, x := range v {
				walk(path+"["+strconv.Itoa(i)+"]", x)
			}
		}
	}
	walk("", inst)
}

// TestRegistrySchemaRefuses: the vendored schema does refuse what the
// registry refuses, so TestServerJSON can fail.
func TestRegistrySchemaRefuses(t *testing.T) {
	sch, _ := compileRegistrySchema(t)
	for name, mutate := range map[string]func(m map[string]any){
		"name without a namespace": func(m map[string]any) { m["name"] = "precisiond" },
		"description too long":     func(m map[string]any) { m["description"] = strings.Repeat("x", 101) },
		"no version":               func(m map[string]any) { delete(m, "version") },
		"remote without url":       func(m map[string]any) { delete(m["remotes"].([]any)[0].(map[string]any), "url") },
		"oci package latest":       func(m map[string]any) { m["packages"].([]any)[0].(map[string]any)["version"] = "latest" },
	} {
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(readFile(t, "server.json")))
		if err != nil {
			t.Fatal(err)
		}
		mutate(inst.(map[string]any))
		if err := sch.Validate(inst); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
