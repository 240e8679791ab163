package tools

import (
	"bytes"
	"encoding/json"
	"math/big"
	"reflect"
	"testing"

	"github.com/precisiond/precisiond/evidence"
)

type fastIn struct {
	A     *big.Int         `json:"a"`
	N     json.Number      `json:"n"`
	I     int64            `json:"i"`
	Small int8             `json:"small"`
	U     uint             `json:"u"`
	F     float64          `json:"f"`
	S     string           `json:"s"`
	P     *string          `json:"p"`
	Q     *int             `json:"q"`
	B     bool             `json:"b"`
	Any   any              `json:"any"`
	List  []string         `json:"list"`
	Nums  []json.Number    `json:"nums"`
	M     map[string]int   `json:"m"`
	Inner *struct{ X int } `json:"inner"`
	NoTag string
}

// slowDecode is the json.Decoder path decodeStrict falls back to.
func slowDecode(args map[string]any) (fastIn, error) {
	var in fastIn
	raw, err := json.Marshal(args)
	if err != nil {
		return in, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	dec.DisallowUnknownFields()
	err = dec.Decode(&in)
	return in, err
}

// TestFastDecodeMatchesDecoder: whenever the reflection path accepts arguments,
// the value equals what the strict json.Decoder gives; what it refuses, it
// leaves to the decoder (which may accept or refuse it).
func TestFastDecodeMatchesDecoder(t *testing.T) {
	docs := []string{
		`{"a":-123456789012345678901234567890,"n":1.50,"i":-9007199254740993,"small":-128,"u":7,"f":1e-5,"s":"Grüße \"x\"","p":"p","q":null,"b":true,
		  "any":{"k":[1,2.0,"v",null,false]},"list":["a","b"],"nums":[1,2e3],"m":{"x":1},"inner":{"X":3},"NoTag":"t"}`,
		`{}`,
		`{"a":null,"list":null,"m":null,"inner":null,"any":null}`,
		`{"a":0}`,
		// refused by the fast path: the decoder decides
		`{"A":1}`,           // case-insensitive match
		`{"zzz":1}`,         // unknown field
		`{"small":128}`,     // overflow
		`{"i":1.5}`,         // float into int
		`{"i":"1"}`,         // string into int
		`{"a":1e3}`,         // float literal into big.Int
		`{"s":null}`,        // null into a string leaves it alone
		`{"inner":{"x":3}}`, // case-insensitive in a nested struct
	}
	for i, d := range docs {
		v, err := evidence.ParseJSON([]byte(d))
		if err != nil {
			t.Fatal(err)
		}
		args := v.(map[string]any)
		want, wantErr := slowDecode(args)
		var got fastIn
		accepted := fastDecode(reflect.ValueOf(&got).Elem(), args)
		if i < 4 && !accepted {
			t.Errorf("%s: the fast path should take this document", d)
		}
		if accepted {
			if wantErr != nil {
				t.Errorf("%s: fast path accepted what the decoder refuses (%v)", d, wantErr)
				continue
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s:\n fast %+v\n slow %+v", d, got, want)
			}
		}
		full, fullErr := decodeStrict[fastIn](args)
		if (fullErr == nil) != (wantErr == nil) || !reflect.DeepEqual(full, want) {
			t.Errorf("%s: decodeStrict %+v (%v), decoder %+v (%v)", d, full, fullErr, want, wantErr)
		}
	}
}

// FuzzFastDecode: for any JSON object, decodeStrict (fast path with fallback)
// gives the same value and the same success as the strict json.Decoder alone.
func FuzzFastDecode(f *testing.F) {
	for _, s := range []string{`{"a":1,"n":2.5,"s":"x","list":["a"],"m":{"k":1}}`, `{"A":1}`, `{"small":300}`,
		`{"any":{"x":[1,{"y":null}]},"q":3,"p":null}`, `{"i":-0,"u":0,"f":1e308}`, `{"nums":[1,"2"]}`, `{"inner":{"X":1,"Y":2}}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		v, err := evidence.ParseJSON([]byte(doc))
		if err != nil {
			return
		}
		args, ok := v.(map[string]any)
		if !ok {
			return
		}
		want, wantErr := slowDecode(args)
		got, gotErr := decodeStrict[fastIn](args)
		if (gotErr == nil) != (wantErr == nil) {
			t.Fatalf("%s: decodeStrict error %v, decoder error %v", doc, gotErr, wantErr)
		}
		if gotErr == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("%s:\n got %+v\nwant %+v", doc, got, want)
		}
	})
}
