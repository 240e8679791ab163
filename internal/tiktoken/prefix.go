package tiktoken

import (
	"context"
	"errors"
	"unicode/utf8"
)

// ErrPrefixBudget is returned, before the work is done, when finding the
// prefix that fits would re-encode more than PrefixBudget bytes.
var ErrPrefixBudget = errors.New("tiktoken: the prefix search exceeds its budget")

// PrefixBudget bounds the bytes Analyze re-scans to find prefix_chars (each
// candidate cut re-encodes only the text after the last pre-token that is
// known to be unchanged by the cut).
const PrefixBudget = 1 << 20

// Result is what Analyze finds.
type Result struct {
	Tokens int
	// IDs are the token ids when wanted and Tokens <= the limit given, else nil.
	IDs []int
	// Fits and PrefixChars are set when a token budget is given: whether the
	// whole text fits, and the largest n such that the first n code points
	// encode in at most that many tokens.
	Fits        bool
	PrefixChars int
}

// piece is one pre-token of the whole text: where it ends, the furthest
// offset any match up to it looked at, and the tokens up to and including it.
type piece struct {
	end, seen, tokens int32
}

// Analyze counts the tokens of text; with maxTokens >= 0 it also finds the
// longest prefix within maxTokens tokens; with idLimit > 0 it returns the ids
// when there are at most idLimit of them.
//
// Prefixes: the pre-tokenizer scans left to right and a match depends only
// on the text from where it starts, so cutting the text at c leaves every
// pre-token whose match (and those before it) looked only at offsets below c
// unchanged; only the text after the last such pre-token is scanned again,
// as if it ended at c. Token counts of prefixes are not monotone, so every
// cut is tried from the longest down, skipping cuts whose unchanged part
// alone already has too many tokens.
func (e *Encoding) Analyze(ctx context.Context, text string, maxTokens, idLimit int) (Result, error) {
	r, err := e.analyze(ctx, text, maxTokens, idLimit, PrefixBudget)
	if err == nil && ctx.Err() != nil { // a merge may have stopped half way
		return Result{}, ctx.Err()
	}
	return r, err
}

func (e *Encoding) analyze(ctx context.Context, text string, maxTokens, idLimit, budget int) (Result, error) {
	k, err := e.load()
	if err != nil {
		return Result{}, err
	}
	text = validUTF8(text)
	var res Result
	var ids []int32
	var pieces []piece
	var scratch []int32
	buf := &mergeBuf{ctx: ctx}
	z := scanner{s: text, end: len(text)}
	for p, i := 0, 0; p < len(text); i++ {
		if i%4096 == 0 && ctx.Err() != nil {
			return Result{}, ctx.Err()
		}
		q := z.next(p, e.o200k)
		scratch = k.appendPiece(scratch[:0], text[p:q], buf)
		res.Tokens += len(scratch)
		if idLimit > 0 && res.Tokens <= idLimit {
			ids = append(ids, scratch...)
		}
		if maxTokens >= 0 {
			pieces = append(pieces, piece{end: int32(q), seen: int32(z.seen), tokens: int32(res.Tokens)})
		}
		p = q
	}
	if idLimit > 0 && res.Tokens <= idLimit {
		res.IDs = make([]int, len(ids))
		for i, id := range ids {
			res.IDs[i] = int(id)
		}
	}
	if maxTokens < 0 {
		return res, nil
	}
	if res.Tokens <= maxTokens {
		res.Fits, res.PrefixChars = true, utf8.RuneCountInString(text)
		return res, nil
	}
	// j: pieces[:j] are unchanged by the cut c (all looked below c).
	j := len(pieces)
	for c, i := len(text), 0; c > 0; i++ {
		if i%4096 == 0 && ctx.Err() != nil {
			return Result{}, ctx.Err()
		}
		_, n := utf8.DecodeLastRuneInString(text[:c])
		c -= n
		for j > 0 && int(pieces[j-1].seen) >= c {
			j--
		}
		// z.seen is the running maximum, so pieces[j-1].seen < c holds for all before.
		from, before := 0, 0
		if j > 0 {
			from, before = int(pieces[j-1].end), int(pieces[j-1].tokens)
		}
		if before > maxTokens {
			continue
		}
		if budget -= c - from; budget < 0 {
			return Result{}, ErrPrefixBudget
		}
		if ctx.Err() != nil {
			return Result{}, ctx.Err()
		}
		if before+e.countRange(k, text, from, c, scratch, buf) <= maxTokens {
			res.PrefixChars = utf8.RuneCountInString(text[:c])
			return res, nil
		}
	}
	return res, nil // c = 0: the empty prefix, 0 tokens
}
