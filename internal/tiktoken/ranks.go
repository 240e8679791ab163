package tiktoken

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	_ "embed" // the rank files
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"hash/maphash"
	"io"
	"strconv"
	"sync"
)

//go:embed o200k_base.ranks.gz
var o200kRanks []byte

//go:embed cl100k_base.ranks.gz
var cl100kRanks []byte

// ranks is one BPE vocabulary, built once per process and shared: the token
// bytes in rank order inside raw (each after its length byte), and an
// open-addressing table from token bytes to rank. About 5 MiB for o200k_base,
// against some 20 MiB for a Go map[string]int.
type ranks struct {
	raw   []byte   // the decompressed file: length byte, token bytes, ...
	off   []uint32 // off[r]: where token r's bytes start in raw
	table []int32  // rank+1 or 0 (empty), len a power of two
	seed  maphash.Seed
	hash  string // SHA-256 of the canonical .tiktoken text, hex
}

func (k *ranks) token(r int32) []byte {
	o := k.off[r]
	return k.raw[o : o+uint32(k.raw[o-1])]
}

// rank is the rank of b, or -1.
func (k *ranks) rank(b string) int32 {
	mask := uint64(len(k.table) - 1)
	for i := maphash.String(k.seed, b) & mask; ; i = (i + 1) & mask {
		r := k.table[i] - 1
		if r < 0 {
			return -1
		}
		if string(k.token(r)) == b {
			return r
		}
	}
}

// loadRanks decompresses an embedded rank file, checks that every single
// byte is a token (so every piece encodes) and that no token repeats, and
// hashes the canonical .tiktoken text it stands for ("base64 rank\n" per
// token in rank order), the file tiktoken downloads and checks.
func loadRanks(gz []byte) (*ranks, error) {
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, err
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		return nil, err
	}
	k := &ranks{raw: raw, seed: maphash.MakeSeed()}
	for i := 0; i < len(raw); {
		n := int(raw[i])
		if n == 0 || i+1+n > len(raw) {
			return nil, fmt.Errorf("tiktoken: rank file truncated at byte %d", i)
		}
		k.off = append(k.off, uint32(i+1))
		i += 1 + n
	}
	size := 1
	for size < 2*len(k.off) {
		size <<= 1
	}
	k.table = make([]int32, size)
	mask := uint64(size - 1)
	h := sha256.New()
	line := make([]byte, 0, 512)
	for r := range k.off {
		tok := k.token(int32(r))
		if k.rank(string(tok)) >= 0 {
			return nil, fmt.Errorf("tiktoken: token %d repeats", r)
		}
		i := maphash.String(k.seed, string(tok)) & mask
		for k.table[i] != 0 {
			i = (i + 1) & mask
		}
		k.table[i] = int32(r) + 1
		line = base64.StdEncoding.AppendEncode(line[:0], tok)
		line = append(line, ' ')
		line = strconv.AppendInt(line, int64(r), 10)
		h.Write(append(line, '\n'))
	}
	for b := range 256 {
		if k.rank(string([]byte{byte(b)})) < 0 {
			return nil, fmt.Errorf("tiktoken: byte %#x is no token", b)
		}
	}
	k.hash = hex.EncodeToString(h.Sum(nil))
	return k, nil
}

type lazyRanks struct {
	once sync.Once
	gz   []byte
	k    *ranks
	err  error
}

func (l *lazyRanks) get() (*ranks, error) {
	l.once.Do(func() { l.k, l.err = loadRanks(l.gz) })
	return l.k, l.err
}
