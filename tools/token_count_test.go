package tools

import (
	"slices"
	"strings"
	"testing"

	"github.com/precisiond/precisiond/internal/tiktoken"
)

// TestTokenCountContract: the contract's encodings are internal/tiktoken's,
// and its source_policy carries the hashes the encodings report.
func TestTokenCountContract(t *testing.T) {
	tool, _, ok := testRegistry(t).Lookup("token_count")
	if !ok {
		t.Fatal("token_count is not registered")
	}
	props := tool.Contract.InputSchema["properties"].(map[string]any)
	var enum []string
	for _, k := range props["encoding"].(map[string]any)["enum"].([]any) {
		enum = append(enum, k.(string))
	}
	if !slices.Equal(enum, tiktoken.Names()) {
		t.Errorf("contract encodings %v, internal/tiktoken %v", enum, tiktoken.Names())
	}
	for _, name := range tiktoken.Names() {
		if want := name + " sha256:" + tiktoken.Get(name).RanksSHA256(); !strings.Contains(tool.Contract.SourcePolicy["version"].(string), want) {
			t.Errorf("source_policy.version %v lacks %q", tool.Contract.SourcePolicy["version"], want)
		}
	}
}

// TestTokenCountLimits: refusals and the token_ids cut-off, through the full
// execution path.
func TestTokenCountLimits(t *testing.T) {
	t.Run("text over 1 MiB", func(t *testing.T) {
		_, err := textInvoke(t, "token_count", map[string]any{"text": strings.Repeat("é", 600000)})
		wantToolError(t, err, CodeCostLimit, "text_too_large")
	})
	t.Run("ids omitted over 4096", func(t *testing.T) {
		resp := invokeOK(t, "token_count", map[string]any{"text": strings.Repeat(" x", 5000), "return_ids": true})
		if f := resp.Envelope.Facts(); f["token_ids"] != nil {
			t.Errorf("token_ids = %v, want null", f["token_ids"])
		}
		if w := resp.Envelope.Warnings; len(w) != 1 || w[0].Code != "token_ids_omitted" {
			t.Errorf("warnings %v, want token_ids_omitted", w)
		}
	})
	t.Run("512 KiB within the default body limit", func(t *testing.T) {
		facts, err := textInvoke(t, "token_count", map[string]any{"text": strings.Repeat("The quick brown fox. ", 512*1024/21), "max_tokens": 8000})
		if err != nil {
			t.Fatal(err)
		}
		if facts["fits"] != false || facts["prefix_chars"] == nil {
			t.Errorf("facts %v", facts)
		}
	})
}

func BenchmarkTokenCountProse(b *testing.B) {
	benchTool(b, "token_count", map[string]any{"text": strings.Repeat("The quick brown fox doesn't jump; it's 1234 m away.\n", 1000)})
}

func BenchmarkTokenCountPrefix(b *testing.B) {
	benchTool(b, "token_count", map[string]any{"text": strings.Repeat("The quick brown fox doesn't jump; it's 1234 m away.\n", 1000), "max_tokens": 5000})
}
