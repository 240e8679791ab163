package tools

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"strings"
	"unicode"
	"unicode/utf8"
)

type b64Input struct {
	Text    string `json:"text"`
	Mode    string `json:"mode"`
	Variant string `json:"variant"`
	Padding bool   `json:"padding"`
}

type b64Facts struct {
	Mode           string `json:"mode"`
	Variant        string `json:"variant"`
	Padding        bool   `json:"padding"`
	Result         string `json:"result"`
	ResultEncoding string `json:"result_encoding"`
	InputBytes     int    `json:"input_bytes"`
	OutputBytes    int    `json:"output_bytes"`
}

func base64Codec() Tool {
	return Define(Def[b64Input, b64Facts]{
		Name: "base64_codec",
		Run: func(_ context.Context, in b64Input) (b64Facts, []Warning, error) {
			enc := base64.StdEncoding
			if in.Variant == "urlsafe" {
				enc = base64.URLEncoding
			}
			f := b64Facts{Mode: in.Mode, Variant: in.Variant, Padding: in.Padding}
			if in.Mode == "encode" {
				if !in.Padding {
					enc = enc.WithPadding(base64.NoPadding)
				}
				f.Result, f.ResultEncoding = enc.EncodeToString([]byte(in.Text)), "base64"
				f.InputBytes, f.OutputBytes = len(in.Text), len(f.Result)
				return f, nil, nil
			}
			data, read, err := decodeBase64(in.Text, in.Variant == "urlsafe")
			if err != nil {
				return b64Facts{}, nil, err
			}
			f.InputBytes = read
			f.OutputBytes = len(data)
			if utf8.Valid(data) {
				f.Result, f.ResultEncoding = string(data), "utf-8"
				return f, nil, nil
			}
			f.Result, f.ResultEncoding = hex.EncodeToString(data), "hex"
			return f, []Warning{{Code: "decoded_not_utf8", Message: "the decoded bytes are not valid UTF-8; result holds them as lowercase hex"}}, nil
		},
		Legacy: func(in b64Input, out b64Facts) string { return out.Result },
	})
}

// base64Alphabets maps a character to its 6-bit value for the standard and
// the urlsafe alphabet; 0xff marks characters outside the alphabet.
var base64Alphabets = func() (t [2][256]byte) {
	const std = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	for v := range 2 {
		for i := range t[v] {
			t[v][i] = 0xff
		}
		for i := range len(std) {
			t[v][std[i]] = byte(i)
		}
	}
	t[0]['+'], t[0]['/'] = 62, 63
	t[1]['-'], t[1]['_'] = 62, 63
	return t
}()

// decodeBase64 decodes text as Python's base64.b64decode(validate=True)
// (binascii's strict mode) decodes it, with what the contract adds: CR and LF
// are ignored anywhere, missing padding is accepted, and the urlsafe alphabet
// is exactly A-Z a-z 0-9 - _. Unused trailing bits are ignored ("QR==" is
// "A"), as Python ignores them. It returns the bytes and the number of
// characters read (CR and LF not counted). Refusals are invalid_base64 with a
// message naming the character offset (in code points of text) and the
// problem: a character outside the alphabet, padding before any data, data
// after padding, a final group of one character, or incomplete padding.
func decodeBase64(text string, urlsafe bool) ([]byte, int, error) {
	alphabet, name, other, otherName := &base64Alphabets[0], "standard alphabet (A-Z a-z 0-9 + /)", "-_", "urlsafe"
	if urlsafe {
		alphabet, name, other, otherName = &base64Alphabets[1], "urlsafe alphabet (A-Z a-z 0-9 - _)", "+/", "standard"
	}
	out := make([]byte, 0, len(text)/4*3+3)
	var (
		quad, pads, read int
		data             int // alphabet characters
		left             byte
		padAt            = -1 // offset of the first '='
		doneAt           = -1 // offset of the '=' that completed the padding
		offset           = -1
	)
	for _, r := range text {
		offset++
		if r == '\r' || r == '\n' {
			continue
		}
		read++
		if doneAt >= 0 {
			return nil, 0, Fail("invalid_base64", "text is not Base64: %q at offset %d follows the padding that ends the data at offset %d", r, offset, doneAt)
		}
		if r == '=' {
			if padAt < 0 {
				if read == 1 {
					return nil, 0, Fail("invalid_base64", "text is not Base64: '=' at offset %d comes before any data (padding belongs at the end)", offset)
				}
				padAt = offset
			}
			if quad >= 2 {
				if pads++; quad+pads == 4 {
					doneAt = offset
				}
			}
			continue
		}
		v := byte(0xff)
		if r < 0x80 {
			v = alphabet[r]
		}
		if v == 0xff {
			hint := ""
			switch {
			case strings.ContainsRune(other, r):
				hint = " (it belongs to the " + otherName + " variant)"
			case unicode.IsSpace(r):
				hint = " (only CR and LF line breaks are ignored)"
			}
			return nil, 0, Fail("invalid_base64", "text is not Base64: character %q at offset %d is not in the %s%s", r, offset, name, hint)
		}
		if padAt >= 0 {
			return nil, 0, Fail("invalid_base64", "text is not Base64: character %q at offset %d follows the padding '=' at offset %d (padding belongs at the end)", r, offset, padAt)
		}
		data++
		switch quad {
		case 0:
			left = v
		case 1:
			out = append(out, left<<2|v>>4)
			left = v & 0x0f
		case 2:
			out = append(out, left<<4|v>>2)
			left = v & 0x03
		case 3:
			out = append(out, left<<6|v)
		}
		quad = (quad + 1) % 4
	}
	if doneAt < 0 {
		switch {
		case quad == 1:
			return nil, 0, Fail("invalid_base64", "text is not Base64: %d data characters, one more than a multiple of 4: the last group has a single character, which cannot encode a byte", data)
		case quad > 1 && padAt >= 0:
			return nil, 0, Fail("invalid_base64", "text is not Base64: incomplete padding at offset %d: a final group of %d characters needs %q after it, or no padding at all", padAt, quad, strings.Repeat("=", 4-quad))
		}
	}
	return out, read, nil
}
