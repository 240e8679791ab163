package tools

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"
)

// textInvoke runs one call of the text group through the full execution path.
func textInvoke(t testing.TB, tool string, args map[string]any) (map[string]any, error) {
	t.Helper()
	resp, err := testRegistry(t).Invoke(context.Background(), Request{Tool: tool, Args: args})
	if err != nil {
		return nil, err
	}
	return resp.Envelope.Facts(), nil
}

func wantToolError(t *testing.T, err error, code, reason string) {
	t.Helper()
	var te *Error
	if !errors.As(err, &te) || te.Code != code || (reason != "" && te.Reason != reason) {
		t.Fatalf("got %v, want %s/%s", err, code, reason)
	}
}

// TestTextGroupHostile: inputs that would hang or blow up a naive implementation
// answer promptly with a result or a typed error.
func TestTextGroupHostile(t *testing.T) {
	t.Run("catastrophic regex", func(t *testing.T) {
		facts, err := textInvoke(t, "regex_extract", map[string]any{"pattern": `(a+)+$`, "text": strings.Repeat("a", 100000) + "b"})
		if err != nil {
			t.Fatal(err)
		}
		if got := facts["total_matches"]; got != jsonInt(0) {
			t.Fatalf("total_matches: got %v, want 0 (the text ends in b)", got)
		}
	})
	for _, p := range []string{`a{1001}`, `(?<=x)a{2,1001}`} {
		t.Run("unsupported "+p, func(t *testing.T) {
			_, err := textInvoke(t, "regex_extract", map[string]any{"pattern": p, "text": "xa"})
			wantToolError(t, err, CodeExecution, "unsupported_regex_feature")
		})
	}
	// Exponential for a backtracking engine (CPython never finishes): the
	// step budget or the stack bound refuses them, deterministically.
	for _, p := range []string{`(a+)+\1$`, `(?=(a+))*(a+)+b`, `(\w+\s?)*(?=!)x`, `(?:(a)|b)*\1c`} {
		t.Run("catastrophic backtracking "+p, func(t *testing.T) {
			_, err := invokeUnhurried(t, "regex_extract", map[string]any{"pattern": p, "text": strings.Repeat("a", 100000) + "!"})
			wantToolError(t, err, CodeCostLimit, "regex_work_limit")
		})
	}
	t.Run("regex text over 1 MiB", func(t *testing.T) {
		_, err := textInvoke(t, "regex_extract", map[string]any{"pattern": "a", "text": strings.Repeat("é", 600000)})
		wantToolError(t, err, CodeCostLimit, "text_too_large")
	})
	t.Run("regex quadratic work", func(t *testing.T) {
		// a*b|a: every match rescans the rest of the text looking for a b.
		// The step budget stops it (0.5-0.9 CPU-s, -race included); the
		// unhurried deadline keeps the outcome independent of machine load.
		_, err := invokeUnhurried(t, "regex_extract", map[string]any{"pattern": `a*b|a`, "text": strings.Repeat("a", 1000000)})
		wantToolError(t, err, CodeCostLimit, "regex_work_limit")
	})
	for _, tc := range []struct{ cidr, num string }{
		{"0.0.0.0/0", "4294967296"},
		{"::/0", "340282366920938463463374607431768211456"},
	} {
		t.Run("subnet "+tc.cidr, func(t *testing.T) {
			facts, err := textInvoke(t, "subnet_calc", map[string]any{"cidr": tc.cidr})
			if err != nil {
				t.Fatal(err)
			}
			if got := facts["num_addresses"]; got != tc.num && got != json.Number("4294967296") {
				t.Fatalf("num_addresses: got %v, want %s", got, tc.num)
			}
		})
	}
	t.Run("text 1 MiB", func(t *testing.T) {
		text := strings.Repeat("Word one. ", (1<<20)/10) + "abcdef"
		if len(text) != 1<<20 {
			t.Fatalf("test text is %d bytes", len(text))
		}
		facts, err := textInvoke(t, "text_analyze", map[string]any{"text": text})
		if err != nil {
			t.Fatal(err)
		}
		n := (1 << 20) / 10
		if facts["words"] != jsonInt(2*n+1) || facts["sentences"] != jsonInt(n+1) {
			t.Fatalf("got %v words, %v sentences; want %d, %d", facts["words"], facts["sentences"], 2*n+1, n+1)
		}
	})
	t.Run("text over 1 MiB", func(t *testing.T) {
		_, err := textInvoke(t, "text_analyze", map[string]any{"text": strings.Repeat("é", 600000)})
		wantToolError(t, err, CodeCostLimit, "text_too_large")
	})
}

func jsonInt(n int) any { return json.Number(strconv.Itoa(n)) }

func BenchmarkRegexExtractSmall(b *testing.B) {
	benchTool(b, "regex_extract", map[string]any{"pattern": `(?P<user>\w+)@(?P<host>[\w.]+)`, "text": "joe@example.com ann@test.org"})
}

func BenchmarkRegexExtractLarge(b *testing.B) {
	unit := "contact joe@example.com or ann@test.org; café Straße 12345\n"
	benchTool(b, "regex_extract", map[string]any{"pattern": `(?P<user>\w+)@(?P<host>[\w.]+)`, "text": strings.Repeat(unit, 1000000/len(unit)), "limit": json.Number("1000")})
}

func BenchmarkSubnetCalcSmall(b *testing.B) {
	benchTool(b, "subnet_calc", map[string]any{"cidr": "192.168.1.77/24"})
}

func BenchmarkSubnetCalcLarge(b *testing.B) {
	benchTool(b, "subnet_calc", map[string]any{"cidr": "2001:db8:85a3::8a2e:370:7334/0"})
}

func BenchmarkTextAnalyzeSmall(b *testing.B) {
	benchTool(b, "text_analyze", map[string]any{"text": "The quick brown fox jumps over the lazy dog."})
}

func BenchmarkTextAnalyzeLarge(b *testing.B) {
	unit := "The quick brown fox jumps over the lazy dog. Über café naïve 3.14?\n\n"
	benchTool(b, "text_analyze", map[string]any{"text": strings.Repeat(unit, 1000000/len(unit))})
}
