package tools

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"strings"
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
			data, err := decodeBase64(in.Text, enc)
			if err != nil {
				return b64Facts{}, nil, err
			}
			f.InputBytes = len(strings.NewReplacer("\r", "", "\n", "").Replace(in.Text))
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

// decodeBase64 decodes with or without padding, ignoring CR/LF, and reports the
// character offset of the first invalid character.
func decodeBase64(text string, enc *base64.Encoding) ([]byte, error) {
	clean := strings.NewReplacer("\r", "", "\n", "").Replace(text)
	trimmed := strings.TrimRight(clean, "=")
	pad := len(clean) - len(trimmed)
	if pad > 0 && (pad > 2 || len(clean)%4 != 0) {
		return nil, Fail("invalid_base64", "text is not Base64: incorrect padding")
	}
	b, err := enc.WithPadding(base64.NoPadding).Strict().DecodeString(trimmed)
	if err != nil {
		if ce, ok := err.(base64.CorruptInputError); ok {
			off := int(ce)
			if off < len(trimmed) {
				return nil, Fail("invalid_base64", "text is not Base64: invalid character %q at offset %d", trimmed[off], utf8.RuneCountInString(trimmed[:off]))
			}
			return nil, Fail("invalid_base64", "text is not Base64: truncated input (%d characters)", len(trimmed))
		}
		return nil, Fail("invalid_base64", "text is not Base64")
	}
	return b, nil
}
