package access

import (
	"bytes"
	"encoding/hex"
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// FuzzParse: any bytes either fail to parse or give a set whose every entry
// is well-formed and found again by name.
func FuzzParse(f *testing.F) {
	h := Hash("x")
	for _, seed := range []string{
		`{"tokens":[]}`,
		`{"tokens":[{"name":"a","sha256":"` + h + `","tools":["gcd_*"],"rate_per_minute":5}]}`,
		`{"tokens":[{"name":"a","sha256":"` + h + `"},{"name":"a","sha256":"` + h + `"}]}`,
		`{"tokens":[{"name":"a","sha256":"` + h + `","tools":["[",""]}]}`,
		`{"tokens":null}`, `[]`, `{"tokens":[{}]}`, "\xff",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse(data)
		if err != nil {
			return
		}
		for _, tok := range s.tokens {
			if b, err := hex.DecodeString(tok.SHA256); err != nil || len(b) != 32 || s.Lookup(tok.Name) != tok || !validName.MatchString(tok.Name) || tok.RatePerMinute < 0 {
				t.Fatalf("accepted a malformed entry %+v", tok)
			}
		}
	})
}

// FuzzSignerCheck: no query made up without a key the signer holds (its
// current key, or a key it accepts) verifies, and Check never panics.
func FuzzSignerCheck(f *testing.F) {
	s, _ := NewSigner([]byte("fuzzing key of some length"))
	s.SetClock(func() time.Time { return time.Unix(1000, 0) })
	other, _ := NewSigner([]byte("an accepted key, of another replica"))
	other.SetClock(func() time.Time { return time.Unix(1000, 0) })
	if err := s.Accept(AcceptedKey{Key: []byte("an accepted key, of another replica"), Until: time.Unix(1000+7200, 0)}); err != nil {
		f.Fatal(err)
	}
	good, accepted := s.Query("0123456789ab_a.md", time.Hour), other.Query("0123456789ab_a.md", time.Hour)
	f.Add("0123456789ab_a.md", good)
	f.Add("0123456789ab_a.md", accepted)
	f.Add("0123456789ab_a.md", "exp=99999999999&sig=AAAA")
	f.Add("x", "exp=-1&sig=&sig=x")
	f.Fuzz(func(t *testing.T, name, rawQuery string) {
		q, err := url.ParseQuery(rawQuery)
		if err != nil {
			return
		}
		sig := q.Get("sig")
		if s.Check(name, q) == nil && (name != "0123456789ab_a.md" || (sig != mustQuery(t, good).Get("sig") && sig != mustQuery(t, accepted).Get("sig"))) {
			t.Fatalf("forged link verified: %q %q", name, rawQuery)
		}
	})
}

// FuzzParseAccepted: any store object either fails with ErrAcceptedObject
// or parses to keys that marshal back to an object parsing to the same keys.
func FuzzParseAccepted(f *testing.F) {
	f.Add([]byte(`{"keys":[{"key":"30313233343536373839616263646566","until":"2026-12-01T09:00:00Z"}]}`))
	f.Add([]byte(`{"keys":[{"key":"3031323334353637383961626364656630","until":"2026-12-01T09:00:00+02:00"},{"key":"30313233343536373839616263646566","until":"2026-12-01T09:00:00.5Z"}]}` + "\n"))
	f.Add([]byte(`{"keys":null}`))
	f.Add([]byte(`{"keys":[{"key":"zz","until":""}]}`))
	f.Add([]byte(`{} []`))
	f.Fuzz(func(t *testing.T, data []byte) {
		keys, err := ParseAccepted(data)
		if err != nil {
			if !errors.Is(err, ErrAcceptedObject) {
				t.Fatalf("error %v is not ErrAcceptedObject", err)
			}
			return
		}
		again, err := ParseAccepted(MarshalAccepted(keys))
		if err != nil || len(again) != len(keys) {
			t.Fatalf("%q: re-parsed %d of %d keys: %v", data, len(again), len(keys), err)
		}
		for i := range keys {
			if !bytes.Equal(keys[i].Key, again[i].Key) || !keys[i].Until.Equal(again[i].Until) || len(keys[i].Key) < MinKeyBytes {
				t.Fatalf("%q: key %d became %v, was %v", data, i, again[i], keys[i])
			}
		}
	})
}

func mustQuery(t *testing.T, q string) url.Values {
	v, err := url.ParseQuery(q)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// FuzzOwnersFile: any file content loads without a panic, and only
// well-formed pairs are taken.
func FuzzOwnersFile(f *testing.F) {
	f.Add([]byte("f1\talice\nf2\tbob\n"))
	f.Add([]byte("a/b\tx\n\t\n\tt\nf\tbad name\nf\ttrailing"))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), OwnersFileName)
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		o, err := NewOwners(path)
		if err != nil {
			t.Fatal(err)
		}
		for file, tokens := range o.by {
			for tok := range tokens {
				if file == "" || strings.ContainsAny(file, "/\t\n") || !validName.MatchString(tok) {
					t.Fatalf("took %q %q", file, tok)
				}
			}
		}
	})
}
