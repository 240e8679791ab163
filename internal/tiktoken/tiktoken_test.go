package tiktoken

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
)

// vector is one case of the oracle file, in the golden form the tool test
// also runs: {name, args, facts}.
type vector struct {
	Name string `json:"name"`
	Args struct {
		Text      string `json:"text"`
		Encoding  string `json:"encoding"`
		MaxTokens *int   `json:"max_tokens"`
		ReturnIDs bool   `json:"return_ids"`
	} `json:"args"`
	Facts struct {
		Tokens      int    `json:"tokens"`
		Encoding    string `json:"encoding"`
		RanksSHA256 string `json:"ranks_sha256"`
		Fits        *bool  `json:"fits"`
		PrefixChars *int   `json:"prefix_chars"`
		TokenIDs    []int  `json:"token_ids"`
	} `json:"facts"`
}

func loadVectors(t testing.TB) []vector {
	t.Helper()
	b, err := os.ReadFile("../../tools/testdata/token_count/oracle_tiktoken.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Generator map[string]string `json:"generator"`
		Cases     []vector          `json:"cases"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Generator["unicode"] != UnicodeVersion {
		t.Fatalf("vectors come from Unicode %s, the classes are %s", doc.Generator["unicode"], UnicodeVersion)
	}
	if len(doc.Cases) < 500 {
		t.Fatalf("only %d cases", len(doc.Cases))
	}
	return doc.Cases
}

// TestOracle: ids, counts, the ranks' hash and prefix_chars equal
// js-tiktoken's.
func TestOracle(t *testing.T) {
	for _, v := range loadVectors(t) {
		e := Get(v.Facts.Encoding)
		if e == nil {
			t.Fatalf("%s: unknown encoding %s", v.Name, v.Facts.Encoding)
		}
		if e.RanksSHA256() != v.Facts.RanksSHA256 {
			t.Errorf("%s: ranks hash %s, the oracle's %s", v.Name, e.RanksSHA256(), v.Facts.RanksSHA256)
		}
		text := v.Args.Text
		if v.Facts.TokenIDs != nil {
			ids, err := e.Encode(text)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(ids, v.Facts.TokenIDs) {
				t.Errorf("%s %q: ids\n got %v\nwant %v", v.Name, text, ids, v.Facts.TokenIDs)
				continue
			}
		}
		n, err := e.Count(text)
		if err != nil || n != v.Facts.Tokens {
			t.Errorf("%s %q: Count = %d, %v; want %d", v.Name, text, n, err, v.Facts.Tokens)
		}
		maxTokens := -1
		if v.Args.MaxTokens != nil {
			maxTokens = *v.Args.MaxTokens
		}
		r, err := e.Analyze(context.Background(), text, maxTokens, 4096)
		if err != nil {
			t.Errorf("%s: Analyze: %v", v.Name, err)
			continue
		}
		if r.Tokens != v.Facts.Tokens || v.Facts.TokenIDs != nil && !slices.Equal(r.IDs, v.Facts.TokenIDs) {
			t.Errorf("%s: Analyze tokens %d ids %v; want %d %v", v.Name, r.Tokens, r.IDs, v.Facts.Tokens, v.Facts.TokenIDs)
		}
		if v.Facts.PrefixChars != nil && (r.PrefixChars != *v.Facts.PrefixChars || r.Fits != *v.Facts.Fits) {
			t.Errorf("%s %q max %d: prefix_chars %d fits %v; want %d %v", v.Name, text, maxTokens, r.PrefixChars, r.Fits, *v.Facts.PrefixChars, *v.Facts.Fits)
		}
	}
}

// TestRanksHash: the embedded ranks rebuild the .tiktoken files whose
// SHA-256 tiktoken publishes and checks.
func TestRanksHash(t *testing.T) {
	for _, name := range Names() {
		e := Get(name)
		k, err := e.ranks.get()
		if err != nil {
			t.Fatal(err)
		}
		if k.hash != e.RanksSHA256() {
			t.Errorf("%s: ranks hash to %s, want %s", name, k.hash, e.RanksSHA256())
		}
		want := map[string]int{"o200k_base": 199998, "cl100k_base": 100256}[name]
		if len(k.off) != want {
			t.Errorf("%s: %d ranks, want %d", name, len(k.off), want)
		}
	}
}

// TestPrefixBudget: a long pre-token and a small budget make every cut
// re-encode the piece up to it; the search stops at its byte budget, before
// doing the work, and a search within the budget answers.
func TestPrefixBudget(t *testing.T) {
	e := Get("o200k_base")
	long := strings.Repeat("supercalifragilistic", 1000) // one 20 000-byte pre-token
	if _, err := e.analyze(context.Background(), long, 10, 0, 100_000); !errors.Is(err, ErrPrefixBudget) {
		t.Errorf("20 kB piece, budget 100 kB: err = %v, want ErrPrefixBudget", err)
	}
	// Prose: each cut re-encodes only the pre-tokens near it.
	prose := strings.Repeat("The quick brown fox doesn't jump. ", 3000)
	r, err := e.analyze(context.Background(), prose, 1000, 0, 100_000)
	if err != nil || r.Fits || r.PrefixChars == 0 {
		t.Fatalf("prose: %+v, %v", r, err)
	}
	if n, _ := e.Count(string([]rune(prose)[:r.PrefixChars])); n > 1000 {
		t.Errorf("prefix of %d code points has %d tokens", r.PrefixChars, n)
	}
	if n, _ := e.Count(string([]rune(prose)[:r.PrefixChars+1])); n <= 1000 {
		t.Errorf("prefix of %d code points has %d tokens: not the largest", r.PrefixChars+1, n)
	}
}

// TestCanceled: a call whose context is done answers its error, never a count.
func TestCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	long := strings.Repeat("supercalifragilistic", 10000)
	if r, err := Get("o200k_base").Analyze(ctx, long, 5, 0); !errors.Is(err, context.Canceled) {
		t.Errorf("Analyze = %+v, %v; want context.Canceled", r, err)
	}
	// A long merge stops part way once the context is done.
	k, _ := Get("o200k_base").load()
	full := k.mergeHeap(nil, long, nil)
	if cut := k.mergeHeap(nil, long, &mergeBuf{ctx: ctx}); len(cut) <= len(full) {
		t.Errorf("a canceled merge gave %d tokens, the full one %d: it did not stop", len(cut), len(full))
	}
}
