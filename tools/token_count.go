package tools

import (
	"context"
	"errors"
	"fmt"

	"github.com/precisiond/precisiond/internal/tiktoken"
)

// tokenMaxTextBytes is the contract's max_text_bytes.
const tokenMaxTextBytes = 1 << 20

// tokenMaxIDs is the most token ids returned (return_ids).
const tokenMaxIDs = 4096

type tokenInput struct {
	Text      string `json:"text"`
	Encoding  string `json:"encoding"`
	MaxTokens *int   `json:"max_tokens"`
	ReturnIDs bool   `json:"return_ids"`
}

type tokenFacts struct {
	Tokens      int    `json:"tokens"`
	Encoding    string `json:"encoding"`
	RanksSHA256 string `json:"ranks_sha256"`
	Fits        *bool  `json:"fits"`
	PrefixChars *int   `json:"prefix_chars"`
	TokenIDs    []int  `json:"token_ids"`
}

// tokenCount is token_count (issue 32): OpenAI tiktoken's token count of a
// text for o200k_base or cl100k_base, special tokens as plain text, with the
// longest prefix that fits a budget; see internal/tiktoken.
func tokenCount() Tool {
	return Define(Def[tokenInput, tokenFacts]{
		Name: "token_count",
		Run: func(ctx context.Context, in tokenInput) (tokenFacts, []Warning, error) {
			if len(in.Text) > tokenMaxTextBytes {
				return tokenFacts{}, nil, TooCostly("text_too_large", "text is %d UTF-8 bytes; the limit is %d", len(in.Text), tokenMaxTextBytes)
			}
			enc := tiktoken.Get(in.Encoding)
			if enc == nil { // the schema's enum lets no other name through
				return tokenFacts{}, nil, Fail("unknown_encoding", "unknown encoding %q; known: o200k_base, cl100k_base", in.Encoding)
			}
			maxTokens, idLimit := -1, 0
			if in.MaxTokens != nil {
				maxTokens = *in.MaxTokens
			}
			if in.ReturnIDs {
				idLimit = tokenMaxIDs
			}
			r, err := enc.Analyze(ctx, in.Text, maxTokens, idLimit)
			if errors.Is(err, tiktoken.ErrPrefixBudget) {
				return tokenFacts{}, nil, TooCostly("prefix_search_too_costly", "finding the prefix within %d tokens would re-encode more than %d bytes; try a larger max_tokens or a shorter text", maxTokens, tiktoken.PrefixBudget)
			}
			if err != nil {
				return tokenFacts{}, nil, err
			}
			out := tokenFacts{Tokens: r.Tokens, Encoding: enc.Name(), RanksSHA256: enc.RanksSHA256(), TokenIDs: r.IDs}
			if in.MaxTokens != nil {
				out.Fits, out.PrefixChars = &r.Fits, &r.PrefixChars
			}
			var warnings []Warning
			if in.ReturnIDs && r.IDs == nil {
				warnings = append(warnings, Warning{Code: "token_ids_omitted", Message: fmt.Sprintf("%d tokens: token_ids are returned only up to %d", r.Tokens, tokenMaxIDs)})
			}
			return out, warnings, nil
		},
		Legacy: func(in tokenInput, f tokenFacts) string {
			s := fmt.Sprintf("%d tokens (%s)", f.Tokens, f.Encoding)
			switch {
			case f.Fits == nil:
			case *f.Fits:
				s += fmt.Sprintf("; fits in %d", *in.MaxTokens)
			default:
				s += fmt.Sprintf("; does not fit in %d, the first %d characters do", *in.MaxTokens, *f.PrefixChars)
			}
			return s
		},
	})
}
