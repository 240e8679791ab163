package contracts

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"testing"
)

// TestReferenceErrorOrder: for invalid arguments of every contract, the
// error text is what the reference sidecar's _schema_error reports (Python
// jsonschema's errors sorted by path parts, then message; the first one's
// dotted path, "value" for the root, and validator), and valid arguments
// validate. The vectors are written by testdata/gen_schema_errors.py.
func TestReferenceErrorOrder(t *testing.T) {
	data, err := os.ReadFile("testdata/schema_errors.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Cases []struct {
			Tool  string         `json:"tool"`
			Args  map[string]any `json:"args"`
			Error string         `json:"error"`
		} `json:"cases"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Cases) < 1000 {
		t.Fatalf("%d cases", len(doc.Cases))
	}
	invalid := 0
	for _, c := range doc.Cases {
		err := MustLoad(c.Tool).ValidateInput(c.Args)
		got := ""
		if err != nil {
			var ve *ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("%s %v: %T %v", c.Tool, c.Args, err, err)
			}
			got = ve.Error()
			invalid++
		}
		if got != c.Error {
			b, _ := json.Marshal(c.Args)
			t.Errorf("%s %s: %q, reference %q", c.Tool, b, got, c.Error)
		}
	}
	t.Logf("%d cases, %d invalid", len(doc.Cases), invalid)
}
