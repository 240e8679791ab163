package plans

import (
	"bytes"
	"errors"
	"os"
	"testing"

	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/tools"
)

// FuzzDecodePlan: plan decoding and the static check never panic; a refusal
// is invalid_plan with exactly one detail (decoding) or at least one
// (checking); an accepted plan's canonical form decodes to the same plan_id
// and the same bytes, and binding an empty parameter set never panics.
func FuzzDecodePlan(f *testing.F) {
	f.Add([]byte(citiesPlan))
	f.Add([]byte(`{"steps":[{"id":"g","tool":"gcd_lcm","args":{"a":{"$literal":1},"b":{"$param":"b"}}}],"params":{"b":{"type":"integer","default":2.0}}}`))
	f.Add([]byte(`{"steps":[{"id":"p","tool":"prime_factorize","args":{"n":12}},{"id":"q","tool":"gcd_lcm","args":{"a":{"$ref":"p/facts/factors/0/prime"},"b":{"$ref":"p/facts/n"}}}]}`))
	f.Add([]byte(`{"steps":[{"id":"x","tool":"json_query","args":{"json_str":"[]","path":{"$ref":"x/facts/~1~0"}}}]}`))
	f.Add([]byte(`{"description":"d","params":{"a":{"type":"array","default":[{"$ref":"x"}]}},"steps":[{"id":"s","tool":"statistics_calc","args":{"data":{"$param":"a"}}}]}`))
	if b, err := os.ReadFile("testdata/plan_ids.json"); err == nil {
		f.Add(b)
	}
	reg := newRegistry(f, 2)
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := evidence.ParseJSON(data)
		if err != nil {
			return
		}
		p, err := Decode(v)
		if err != nil {
			var te *tools.Error
			if !errors.As(err, &te) || te.Code != CodeInvalidPlan || len(te.Details) != 1 {
				t.Fatalf("decode error %#v", err)
			}
			return
		}
		v2, err := evidence.ParseJSON(p.Canonical())
		if err != nil {
			t.Fatalf("canonical plan does not parse: %v", err)
		}
		p2, err := Decode(v2)
		if err != nil {
			t.Fatalf("canonical plan does not decode: %v\n%s", err, p.Canonical())
		}
		if p2.ID != p.ID || !bytes.Equal(p2.Canonical(), p.Canonical()) {
			t.Fatalf("round trip changed the plan:\n%s\n%s", p.Canonical(), p2.Canonical())
		}
		if err := Check(p, reg); err != nil {
			var te *tools.Error
			if !errors.As(err, &te) || te.Code != CodeInvalidPlan || len(te.Details) == 0 {
				t.Fatalf("check error %#v", err)
			}
		}
		_, _ = p.Bind(map[string]any{}, "/params")
	})
}
