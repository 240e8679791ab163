package tiktoken

import (
	"context"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func fuzzSeeds(f *testing.F) {
	for _, s := range []string{"", "don't", "Hello, World!", "  \n\n  x", "a\r\n/b", "👨‍👩‍👧‍👦", "漢字かな", "e\u0301\u0301",
		"ǅ'LL ʰx", "123456", " !?\n/", "<|endoftext|>", strings.Repeat("ab", 40), "\xff\xfe", "\u0085\ufeff \u00a0"} {
		f.Add(s, uint8(3))
	}
}

// FuzzEncode: ids decode to the text, counts agree, encoding is
// deterministic, and on short texts prefix_chars equals the naive answer.
func FuzzEncode(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, text string, budget uint8) {
		for _, name := range Names() {
			e := Get(name)
			k, _ := e.load()
			ids, err := e.Encode(text)
			if err != nil {
				t.Fatal(err)
			}
			var back []byte
			for _, id := range ids {
				back = append(back, k.token(int32(id))...)
			}
			if string(back) != validUTF8(text) {
				t.Fatalf("%s %q: ids decode to %q", name, text, back)
			}
			again, _ := e.Encode(text)
			n, _ := e.Count(text)
			if !slices.Equal(ids, again) || n != len(ids) {
				t.Fatalf("%s %q: %v then %v, count %d", name, text, ids, again, n)
			}
			if utf8.RuneCountInString(text) > 48 {
				continue
			}
			maxTokens := int(budget) % (len(ids) + 2)
			r, err := e.Analyze(context.Background(), text, maxTokens, 4096)
			if err != nil {
				t.Fatal(err)
			}
			if want := naivePrefix(e, text, maxTokens); r.PrefixChars != want || r.Tokens != len(ids) || !slices.Equal(r.IDs, ids) {
				t.Fatalf("%s %q max %d: prefix %d tokens %d; want %d %d", name, text, maxTokens, r.PrefixChars, r.Tokens, want, len(ids))
			}
		}
	})
}

func naivePrefix(e *Encoding, text string, maxTokens int) int {
	runes := []rune(validUTF8(text))
	for n := len(runes); n > 0; n-- {
		if c, _ := e.Count(string(runes[:n])); c <= maxTokens {
			return n
		}
	}
	return 0
}

// FuzzMerge: the heap merge gives the quadratic scan's tokens.
func FuzzMerge(f *testing.F) {
	for _, s := range []string{"aaaaaaa", "hello world", "\x00\x01\x02", "ababababab", "日本語"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		if len(p) < 2 || len(p) > smallPiece {
			return
		}
		for _, name := range Names() {
			k, _ := Get(name).load()
			a := k.mergeSmall(nil, p)
			b := k.mergeHeap(nil, p, nil)
			if !slices.Equal(a, b) {
				t.Fatalf("%s %q: small %v heap %v", name, p, a, b)
			}
		}
	})
}
