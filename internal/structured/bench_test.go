package structured

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

func benchPayloads() map[string]Request {
	comma := "comma"
	schema := `{"type": "array", "items": {"type": "object", "required": ["id", "name"], "additionalProperties": false,
 "properties": {"id": {"type": "integer", "minimum": 0}, "name": {"type": "string", "maxLength": 64},
 "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": true}, "score": {"type": "number"}}}}`
	var items []map[string]any
	for i := 0; i < 600; i++ {
		items = append(items, map[string]any{"id": i, "name": fmt.Sprintf("item %d", i), "tags": []string{"a", "b"}, "score": float64(i) / 7})
	}
	large, _ := json.Marshal(items)
	var yamlB, xmlB, csvB strings.Builder
	xmlB.WriteString("<items>")
	for i := 0; i < 600; i++ {
		fmt.Fprintf(&yamlB, "- id: %d\n  name: item %d\n  tags: [a, b]\n", i, i)
		fmt.Fprintf(&xmlB, `<item id="%d"><name>item %d</name><tag>a</tag></item>`, i, i)
		fmt.Fprintf(&csvB, "%d,item %d,=A%d,3.5\n", i, i, i)
	}
	xmlB.WriteString("</items>")
	// A realistic configuration file of about 25 KB: comments, nested block
	// mappings and sequences, flow collections, quoted and block scalars,
	// numbers, booleans, dates and URLs, as a deployment manifest has them.
	var manifest strings.Builder
	manifest.WriteString("# generated manifest\nversion: '3.8'\n")
	for i := 0; manifest.Len() < 25000; i++ {
		fmt.Fprintf(&manifest, `service-%d:
  image: "registry.example.com/team/app-%d:1.%d.0"
  enabled: yes
  replicas: %d
  ratio: %d.25
  created: 2026-12-%02d
  labels: {app: web-%d, tier: "frontend", canary: false}
  ports:
    - "80%02d:80"
    - 443
  environment:
    - KEY_%d=value # set by ops
    - URL=https://example.com/path?q=%d&r=2
  command: [sh, -c, 'echo "started %d" && exec app']
  healthcheck:
    test: |
      curl -f http://localhost:80%02d/health || exit 1
      echo ok
    interval: 30s
  description: >
    Service number %d of the fleet,
    folded onto one line.
`, i, i, i%10, i%5+1, i, i%28+1, i, i%100, i, i, i, i%100, i)
	}
	small := `{"id": 1, "name": "x", "tags": ["a"]}`
	smallSchema := `{"type": "object", "required": ["id"], "properties": {"id": {"type": "integer"}}}`
	return map[string]Request{
		"json_small":        {Format: "json", Payload: small},
		"json_small_schema": {Format: "json", Payload: small, Schema: &smallSchema},
		"json_large":        {Format: "json", Payload: string(large)},
		"json_large_schema": {Format: "json", Payload: string(large), Schema: &schema},
		"yaml_small":        {Format: "yaml", Payload: "id: 1\nname: x\ntags: [a]\n"},
		"yaml_large":        {Format: "yaml", Payload: yamlB.String()},
		"yaml_manifest":     {Format: "yaml", Payload: manifest.String()},
		"xml_small":         {Format: "xml", Payload: `<a id="1"><b>x</b></a>`},
		"xml_large":         {Format: "xml", Payload: xmlB.String()},
		"csv_small":         {Format: "csv", Payload: "a,b\n1,2\n", Dialect: &comma},
		"csv_large":         {Format: "csv", Payload: csvB.String(), Dialect: &comma},
	}
}

func BenchmarkValidate(b *testing.B) {
	reqs := benchPayloads()
	for _, name := range []string{"json_small", "json_small_schema", "json_large", "json_large_schema", "yaml_small", "yaml_large", "yaml_manifest", "xml_small", "xml_large", "csv_small", "csv_large"} {
		req := reqs[name]
		b.Run(fmt.Sprintf("%s_%dB", name, len(req.Payload)), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(req.Payload)))
			for b.Loop() {
				res, err := Validate(context.Background(), req, DefaultLimits)
				if err != nil || !res.Valid {
					b.Fatalf("%v %+v", err, res.Errors)
				}
			}
		})
	}
}

// BenchmarkSchemaWorkBudget runs the request of issue 13 (1000 zeros against
// an anyOf of 2900 failing branches) until it is refused at the work budget:
// the worst case of a schema check, in time and allocation.
func BenchmarkSchemaWorkBudget(b *testing.B) {
	schema := `{"items":{"anyOf":[` + strings.TrimSuffix(strings.Repeat(`{"not":{}},`, 2900), ",") + `]}}`
	req := Request{Format: "json", Payload: "[" + strings.TrimSuffix(strings.Repeat("0,", 1000), ",") + "]", Schema: &schema}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Validate(context.Background(), req, DefaultLimits); err == nil {
			b.Fatal("not refused")
		}
	}
}

// BenchmarkYAMLHostile: 64 KiB payloads at the edges of the YAML reader's
// bookkeeping (flow nesting past the limit with a possible simple key per
// level, stray brackets, block indentation 32 768 deep, a flow mapping of
// 32 767 keys without values, 32 767 escaped line breaks, lines whose ':'s
// each make a key of a token up to 900 characters back); each is answered in
// linear time.
func BenchmarkYAMLHostile(b *testing.B) {
	for _, tc := range []struct{ name, payload string }{
		{"flow_open", strings.Repeat("[", 65536)},
		{"flow_keys", strings.Repeat("[a: ", 16384)},
		{"stray_brackets", strings.Repeat("][", 32768)},
		{"block_indent", strings.Repeat("- ", 32768)},
		{"flow_map_keys", "{" + strings.Repeat("a,", 32767)},
		{"escaped_breaks", `"` + strings.Repeat("\\\n", 32767)},
		{"keys_far_back", strings.Repeat(strings.Repeat("[", 300)+strings.Repeat("]:", 300)+"\n", 72)},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Validate(context.Background(), Request{Format: "yaml", Payload: tc.payload}, DefaultLimits); err != nil && tc.name != "flow_open" && tc.name != "flow_keys" && tc.name != "block_indent" && tc.name != "keys_far_back" {
					b.Fatal(err)
				}
			}
		})
	}
}
