package evidence

import (
	"bytes"
	"encoding/json"
	"math/big"
	"reflect"
	"testing"
	"time"
)

// slowGeneric is the encode-then-decode round trip ToGeneric falls back to.
func slowGeneric(t *testing.T, v any) (any, error) {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return decodeGeneric(buf.Bytes())
}

type genInner struct {
	X *Float   `json:"x"`
	N *big.Int `json:"n"`
	S []string `json:"s,omitempty"`
	M map[string]any
}

type genFacts struct {
	Name     string           `json:"name"`
	Count    int              `json:"count"`
	U        uint8            `json:"u"`
	Ratio    Float            `json:"ratio"`
	Exact    json.Number      `json:"exact"`
	Big      *big.Int         `json:"big"`
	Nil      *big.Int         `json:"nil"`
	Opt      *string          `json:"opt,omitempty"`
	Zero     int              `json:"zero,omitempty"`
	Flag     bool             `json:"flag"`
	Any      any              `json:"any"`
	List     []genInner       `json:"list"`
	Empty    []int            `json:"empty"`
	ByName   map[string]Float `json:"by_name"`
	Skipped  string           `json:"-"`
	private  int
	NoTag    string
	Nullable *Float `json:"nullable"`
}

// TestFastGenericMatchesRoundTrip: for every value the reflection path accepts
// it gives exactly what encoding + decoding gives; values it cannot mirror are
// handed to the round trip.
func TestFastGenericMatchesRoundTrip(t *testing.T) {
	half := Float(0.5)
	s := "x"
	huge, _ := new(big.Int).SetString("-123456789012345678901234567890", 10)
	accepted := []any{
		genFacts{Name: "Grüße \"<&>\"\n", Count: -7, U: 200, Ratio: 100, Exact: "1.50", Big: huge, Opt: &s, Flag: true,
			Any:  map[string]any{"k": []any{json.Number("1e3"), nil, "v", true}, "f": Float(1e-5)},
			List: []genInner{{X: &half, N: big.NewInt(3), S: []string{"a"}}, {}}, ByName: map[string]Float{"a": 1.25, "b": -0.0},
			NoTag: "plain", Nullable: nil, private: 3},
		genFacts{},
		map[string]any{"a": json.Number("-0"), "b": []any{}},
		[]any{1, int64(-2), uint(3), "s"},
		nil,
	}
	for i, v := range accepted {
		fast, ok := fastGeneric(reflect.ValueOf(v))
		if !ok {
			t.Errorf("case %d: fast path refused %#v", i, v)
			continue
		}
		slow, err := slowGeneric(t, v)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(fast, slow) {
			t.Errorf("case %d:\nfast %#v\nslow %#v", i, fast, slow)
		}
		got, err := ToGeneric(v)
		if err != nil || !reflect.DeepEqual(got, slow) {
			t.Errorf("case %d: ToGeneric %#v (%v)", i, got, err)
		}
	}
	type withString struct {
		N int `json:"n,string"`
	}
	type embedded struct{ genInner }
	refused := []any{
		1.5,                           // plain float64: encoding/json's own format
		[]byte("ab"),                  // base64
		[2]int{1, 2},                  // arrays
		withString{N: 1},              // ",string"
		embedded{},                    // embedded fields
		json.RawMessage(`{"a":1}`),    // a json.Marshaler
		time.Unix(0, 0).UTC(),         // a json.Marshaler
		map[int]string{1: "a"},        // non-string keys
		"\xff",                        // invalid UTF-8
		json.Number("1.2.3"),          // malformed number
		Float(0) / Float(zeroFloat()), // NaN
	}
	for i, v := range refused {
		if _, ok := fastGeneric(reflect.ValueOf(v)); ok {
			t.Errorf("refused case %d (%T): fast path accepted it", i, v)
		}
	}
}

func zeroFloat() float64 { return 0 }

// FuzzFastGeneric: for values decoded from any JSON document (as generic JSON
// and into a facts-like struct), ToGeneric's reflection path gives what the
// encode-and-decode round trip gives, whenever it takes the value.
func FuzzFastGeneric(f *testing.F) {
	for _, s := range []string{`{"name":"x","count":3,"ratio":1.5,"exact":"1.50","big":12345678901234567890,"list":[{"x":0.5,"n":3}]}`,
		`{"any":{"k":[1,2.0,null]},"by_name":{"a":1e-7}}`, `[1,"a",true,null]`, `"\u2028"`, `{"opt":null,"zero":0}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		var values []any
		if v, err := decodeGeneric([]byte(doc)); err == nil {
			values = append(values, v)
		}
		var gf genFacts
		if json.Unmarshal([]byte(doc), &gf) == nil {
			values = append(values, gf)
		}
		for _, v := range values {
			fast, ok := fastGeneric(reflect.ValueOf(v))
			if !ok {
				continue
			}
			slow, err := slowGeneric(t, v)
			if err != nil {
				t.Fatalf("%s: fast path took a value the round trip refuses: %v", doc, err)
			}
			if !reflect.DeepEqual(fast, slow) {
				t.Fatalf("%s:\nfast %#v\nslow %#v", doc, fast, slow)
			}
		}
	})
}
