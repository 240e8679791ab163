// Package tiktoken counts tokens as OpenAI's tiktoken does for the o200k_base
// and cl100k_base encodings, with special tokens read as plain text: a
// hand-written pre-tokenizer (pretok.go) with the Unicode classes of the
// oracle's regular-expression engine (classes_gen.go), byte-pair merging
// (bpe.go) over the embedded rank files (ranks.go), and the largest prefix
// that fits a token budget (prefix.go). Ranks are never downloaded.
package tiktoken

import (
	"errors"
	"strings"
	"unicode/utf8"
)

// Encoding is one BPE encoding; its ranks are decompressed on first use and
// shared by every caller.
type Encoding struct {
	name   string
	o200k  bool
	sha256 string // the published hash of the canonical .tiktoken file
	ranks  *lazyRanks
}

var encodings = []*Encoding{
	{name: "o200k_base", o200k: true, sha256: "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d", ranks: &lazyRanks{gz: o200kRanks}},
	{name: "cl100k_base", sha256: "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7", ranks: &lazyRanks{gz: cl100kRanks}},
}

// UnicodeVersion is the Unicode version of the code point classes.
const UnicodeVersion = unicodeVersion

// Get returns the named encoding, or nil.
func Get(name string) *Encoding {
	for _, e := range encodings {
		if e.name == name {
			return e
		}
	}
	return nil
}

// Names lists the encodings.
func Names() []string { return []string{"o200k_base", "cl100k_base"} }

// Name is the encoding's name.
func (e *Encoding) Name() string { return e.name }

// RanksSHA256 is the SHA-256 (hex) of the encoding's canonical .tiktoken rank
// file, the one tiktoken checks after downloading it. load verifies that the
// embedded ranks hash to it.
func (e *Encoding) RanksSHA256() string { return e.sha256 }

func (e *Encoding) load() (*ranks, error) {
	k, err := e.ranks.get()
	if err != nil {
		return nil, err
	}
	if k.hash != e.sha256 {
		return nil, errors.New("tiktoken: embedded " + e.name + " ranks hash to " + k.hash + ", not " + e.sha256)
	}
	return k, nil
}

// validUTF8 replaces each byte that is not part of valid UTF-8 by U+FFFD, as
// encoding/json does when it decodes a request.
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		b.WriteRune(r)
		i += n
	}
	return b.String()
}

// Encode returns the token ids of text, special tokens read as plain text.
func (e *Encoding) Encode(text string) ([]int, error) {
	k, err := e.load()
	if err != nil {
		return nil, err
	}
	text = validUTF8(text)
	var ids []int32
	var buf mergeBuf
	z := scanner{s: text, end: len(text)}
	for p := 0; p < len(text); {
		q := z.next(p, e.o200k)
		ids = k.appendPiece(ids, text[p:q], &buf)
		p = q
	}
	out := make([]int, len(ids))
	for i, id := range ids {
		out[i] = int(id)
	}
	return out, nil
}

// Count is the number of tokens of text.
func (e *Encoding) Count(text string) (int, error) {
	k, err := e.load()
	if err != nil {
		return 0, err
	}
	text = validUTF8(text)
	return e.countRange(k, text, 0, len(text), nil, &mergeBuf{}), nil
}

// countRange counts the tokens of text[from:to] scanned as if the text ended
// at to; scratch and buf are reused.
func (e *Encoding) countRange(k *ranks, text string, from, to int, scratch []int32, buf *mergeBuf) int {
	z := scanner{s: text, end: to}
	n := 0
	for p := from; p < to; {
		q := z.next(p, e.o200k)
		scratch = k.appendPiece(scratch[:0], text[p:q], buf)
		n += len(scratch)
		p = q
	}
	return n
}
