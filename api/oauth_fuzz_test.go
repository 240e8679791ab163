package api

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// parseChallenge reads back a Bearer challenge: the scheme, then
// name="quoted-string" pairs separated by ", " (RFC 9110 §11.2).
func parseChallenge(t *testing.T, h string) [][2]string {
	t.Helper()
	rest, ok := strings.CutPrefix(h, "Bearer")
	if !ok {
		t.Fatalf("challenge %q does not start with Bearer", h)
	}
	var out [][2]string
	for i := 0; rest != ""; i++ {
		sep := " "
		if i > 0 {
			sep = ", "
		}
		if rest, ok = strings.CutPrefix(rest, sep); !ok {
			t.Fatalf("challenge %q: want %q before param %d", h, sep, i)
		}
		name, after, ok := strings.Cut(rest, `="`)
		if !ok {
			t.Fatalf("challenge %q: no value for param %d", h, i)
		}
		var v strings.Builder
		j := 0
		for ; j < len(after) && after[j] != '"'; j++ {
			if after[j] == '\\' {
				j++
			}
			v.WriteByte(after[j])
		}
		if j == len(after) {
			t.Fatalf("challenge %q: unterminated quoted-string", h)
		}
		out = append(out, [2]string{name, v.String()})
		rest = after[j+1:]
	}
	return out
}

// visible is what challenge keeps of a value: its VCHAR and SP characters,
// from its first maxChallengeArg bytes.
func visible(v string) string {
	if len(v) > maxChallengeArg {
		v = v[:maxChallengeArg]
	}
	var b strings.Builder
	for _, r := range v {
		if r >= 0x20 && r < 0x7f {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func TestChallenge(t *testing.T) {
	for _, tc := range []struct {
		params []string
		want   string
	}{
		{nil, "Bearer"},
		{[]string{"error", "insufficient_scope", "scope", "precisiond:tool:gcd_lcm"}, `Bearer error="insufficient_scope", scope="precisiond:tool:gcd_lcm"`},
		{[]string{"resource_metadata", `https://h/x"y\z`}, `Bearer resource_metadata="https://h/x\"y\\z"`},
		{[]string{"scope", "a\r\nb\x00é"}, `Bearer scope="ab"`},
	} {
		if got := challenge(tc.params...); got != tc.want {
			t.Errorf("challenge(%q) = %q, want %q", tc.params, got, tc.want)
		}
	}
}

// FuzzChallenge: whatever the values, the header is printable ASCII on one
// line and parses back to the values challenge kept.
func FuzzChallenge(f *testing.F) {
	f.Add("https://precisiond.example/.well-known/oauth-protected-resource/mcp", "precisiond:tools")
	f.Add(`a"b\c`, "\r\n")
	f.Add(strings.Repeat("x", 600), "é\x7f")
	f.Fuzz(func(t *testing.T, meta, scope string) {
		h := challenge("resource_metadata", meta, "scope", scope)
		for i := 0; i < len(h); i++ {
			if h[i] < 0x20 || h[i] >= 0x7f {
				t.Fatalf("byte %#x in header %q", h[i], h)
			}
		}
		got := parseChallenge(t, h)
		if len(got) != 2 || got[0] != [2]string{"resource_metadata", visible(meta)} || got[1] != [2]string{"scope", visible(scope)} {
			t.Fatalf("challenge(%q, %q) = %q parses to %q", meta, scope, h, got)
		}
	})
}

// FuzzProtectedResourceMetadata: the document is JSON whose members hold
// the resource and issuer as given, whatever their bytes.
func FuzzProtectedResourceMetadata(f *testing.F) {
	f.Add("https://precisiond.example/mcp", "https://auth.example")
	f.Add("\"}", "\x00\xff")
	f.Fuzz(func(t *testing.T, resource, issuer string) {
		b := protectedResourceMetadata(resource, issuer)
		var doc struct {
			Resource string   `json:"resource"`
			AS       []string `json:"authorization_servers"`
			Scopes   []string `json:"scopes_supported"`
			Methods  []string `json:"bearer_methods_supported"`
		}
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatalf("%q: %v", b, err)
		}
		valid := func(s string) string { return strings.Map(func(r rune) rune { return r }, s) } // one U+FFFD per invalid byte, as encoding/json
		if doc.Resource != valid(resource) || len(doc.AS) != 1 || doc.AS[0] != valid(issuer) || len(doc.Scopes) != 2 || len(doc.Methods) != 1 {
			t.Fatalf("metadata of (%q, %q) = %s", resource, issuer, b)
		}
		if !utf8.Valid(b) {
			t.Fatalf("metadata is not UTF-8: %q", b)
		}
	})
}
