package tools

import (
	"context"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha3"
	"crypto/sha512"
	"encoding/hex"
	"hash"
	"strings"

	"golang.org/x/crypto/blake2b"
	"golang.org/x/crypto/blake2s"
)

type hashInput struct {
	Text      string `json:"text"`
	Algorithm string `json:"algorithm"`
	Encoding  string `json:"encoding"`
}

type hashFacts struct {
	Algorithm  string `json:"algorithm"`
	Encoding   string `json:"encoding"`
	Hex        string `json:"hex"`
	InputBytes int    `json:"input_bytes"`
}

var hashers = map[string]func() hash.Hash{
	"md5":      md5.New,
	"sha1":     sha1.New,
	"sha224":   sha256.New224,
	"sha256":   sha256.New,
	"sha384":   sha512.New384,
	"sha512":   sha512.New,
	"sha3_256": func() hash.Hash { return sha3.New256() },
	"sha3_512": func() hash.Hash { return sha3.New512() },
	"blake2b":  func() hash.Hash { h, _ := blake2b.New512(nil); return h },
	"blake2s":  func() hash.Hash { h, _ := blake2s.New256(nil); return h },
}

func hashText() Tool {
	return Define(Def[hashInput, hashFacts]{
		Name: "hash_text",
		Run: func(_ context.Context, in hashInput) (hashFacts, []Warning, error) {
			data, err := textBytes(in.Text, in.Encoding)
			if err != nil {
				return hashFacts{}, nil, err
			}
			h := hashers[in.Algorithm]()
			h.Write(data)
			return hashFacts{Algorithm: in.Algorithm, Encoding: in.Encoding, Hex: hex.EncodeToString(h.Sum(nil)), InputBytes: len(data)}, nil, nil
		},
		Legacy: func(in hashInput, out hashFacts) string { return out.Algorithm + ": " + out.Hex },
	})
}

// textBytes turns the text argument into the bytes to hash.
func textBytes(text, encoding string) ([]byte, error) {
	switch encoding {
	case "hex":
		clean := strings.Map(func(r rune) rune {
			if r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f' || r == '\v' {
				return -1
			}
			return r
		}, text)
		b, err := hex.DecodeString(clean)
		if err != nil {
			if ie, ok := err.(hex.InvalidByteError); ok {
				return nil, Fail("invalid_hex", "text is not hex: invalid character %q at offset %d of the text without whitespace", rune(ie), strings.IndexByte(clean, byte(ie)))
			}
			return nil, Fail("invalid_hex", "text is not hex: an odd number of hex digits (%d)", len(clean))
		}
		return b, nil
	case "base64":
		b, _, err := decodeBase64(text, false)
		return b, err
	}
	return []byte(text), nil
}
