package regexpy

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"strconv"
	"strings"
	"sync"
)

// Character names for \N{...}, as CPython 3.11's unicodedata.lookup resolves
// them (Unicode 14.0.0): names.txt.gz, written by unames/gen_names.py from
// that Python, lists every character name and name alias; Hangul syllables
// and CJK unified ideographs are named by rule (below), the table holding
// only the ideographs' ranges. The table is read once, on the first \N.

//go:embed names.txt.gz
var namesGz []byte

var names struct {
	once   sync.Once
	byName map[string]rune
	cjk    [][2]rune
}

func loadNames() {
	names.byName = make(map[string]rune, 36000)
	zr, err := gzip.NewReader(bytes.NewReader(namesGz))
	if err != nil {
		panic("regexpy: names.txt.gz: " + err.Error()) // embedded: cannot happen
	}
	sc := bufio.NewScanner(zr)
	sc.Scan() // header
	for sc.Scan() {
		hex, name, _ := strings.Cut(sc.Text(), " ")
		if hex == "CJK" {
			a, b, _ := strings.Cut(name, "-")
			lo, _ := strconv.ParseUint(a, 16, 32)
			hi, _ := strconv.ParseUint(b, 16, 32)
			names.cjk = append(names.cjk, [2]rune{rune(lo), rune(hi)})
			continue
		}
		v, err := strconv.ParseUint(hex, 16, 32)
		if err != nil {
			panic("regexpy: names.txt.gz: bad line " + sc.Text())
		}
		names.byName[name] = rune(v)
	}
	if err := sc.Err(); err != nil {
		panic("regexpy: names.txt.gz: " + err.Error())
	}
}

// Hangul jamo short names (Unicode's Jamo.txt), in index order.
var (
	jamoL = []string{"G", "GG", "N", "D", "DD", "R", "M", "B", "BB", "S", "SS", "", "J", "JJ", "C", "K", "T", "P", "H"}
	jamoV = []string{"A", "AE", "YA", "YAE", "EO", "E", "YEO", "YE", "O", "WA", "WAE", "OE", "YO", "U", "WEO", "WE", "WI", "YU", "EU", "YI", "I"}
	jamoT = []string{"", "G", "GG", "GS", "N", "NJ", "NH", "D", "L", "LG", "LM", "LB", "LS", "LT", "LP", "LH", "M", "B", "BS", "S", "SS", "NG", "J", "C", "K", "T", "P", "H"}
)

// longestJamo returns the index and length of the longest short name in
// list that s starts with (case-sensitive, as CPython's find_syllable), or
// -1.
func longestJamo(s string, list []string) (int, int) {
	best, n := -1, -1
	for i, j := range list {
		if len(j) > n && strings.HasPrefix(s, j) {
			best, n = i, len(j)
		}
	}
	return best, n
}

// lookupName resolves a character name as unicodedata.lookup in CPython
// 3.11 (its _getcode): ASCII letters in any case, except that a Hangul
// syllable or CJK ideograph name, made by rule, must be upper case.
func lookupName(name string) (rune, bool) {
	upper := strings.ToUpper(name)
	for i := 0; i < len(name); i++ {
		if name[i] >= 0x80 {
			return 0, false // names are ASCII
		}
	}
	if strings.HasPrefix(name, "HANGUL SYLLABLE ") {
		s := name[len("HANGUL SYLLABLE "):]
		l, nl := longestJamo(s, jamoL)
		s = s[max(nl, 0):]
		v, nv := longestJamo(s, jamoV)
		s = s[max(nv, 0):]
		t, nt := longestJamo(s, jamoT)
		s = s[max(nt, 0):]
		if l < 0 || v < 0 || t < 0 || s != "" {
			return 0, false
		}
		return rune(0xac00 + (l*21+v)*28 + t), true
	}
	names.once.Do(loadNames)
	if strings.HasPrefix(name, "CJK UNIFIED IDEOGRAPH-") {
		h := name[len("CJK UNIFIED IDEOGRAPH-"):]
		if len(h) != 4 && len(h) != 5 {
			return 0, false
		}
		v := rune(0)
		for i := 0; i < len(h); i++ {
			switch c := h[i]; {
			case c >= '0' && c <= '9':
				v = v*16 + rune(c-'0')
			case c >= 'A' && c <= 'F':
				v = v*16 + rune(c-'A'+10)
			default:
				return 0, false
			}
		}
		for _, r := range names.cjk {
			if v >= r[0] && v <= r[1] {
				return v, true
			}
		}
		return 0, false
	}
	r, ok := names.byName[upper]
	return r, ok
}
