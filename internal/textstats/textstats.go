// Package textstats counts words, sentences, paragraphs and syllables of a text by
// fixed, documented rules (docs/data-text.md and the text_analyze contract), and
// derives reading time and the Flesch readability scores with exact rational
// arithmetic rounded half away from zero to two decimals.
//
// Rules (the Python reference implementation in tools/testdata/oracle/gen_text.py
// follows the same text):
//   - whitespace: the Unicode White_Space property (U+0009–U+000D, U+0020, U+0085,
//     U+00A0, U+1680, U+2000–U+200A, U+2028, U+2029, U+202F, U+205F, U+3000);
//   - word character: general category L, M or N; a word is a maximal run of word
//     characters in which a single joiner (U+0027 ', U+2019 ’, U+002D -) between two
//     word characters is kept ("don't", "well-known" are one word each);
//   - unique words: distinct words after full Unicode case folding, ’ read as ';
//   - sentence: a maximal run of terminators (. ! ? …) ends a sentence when, after
//     skipping closing characters (" ' ) ] } » ” ’), the next character is whitespace
//     or the end of the text, and at least one word came since the previous end; a
//     final stretch of words without a terminator is one more sentence;
//   - paragraph: a maximal run of non-blank lines (lines split at \r\n, \r or \n; a
//     line is blank when it holds only whitespace);
//   - syllables: see Syllables.
package textstats

import (
	"context"
	"math/big"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
)

// MaxBytes is the largest text accepted, in UTF-8 bytes (1 MiB).
const MaxBytes = 1 << 20

// WordsPerMinute is the reading speed of reading_time_minutes.
const WordsPerMinute = 200

// Stats are the counts of one text. Decimal fields are exact two-decimal strings
// (e.g. "0.01", "-12.5" is never produced: always two decimals, "-12.50").
type Stats struct {
	Characters             int
	CharactersNoWhitespace int
	Words                  int
	UniqueWords            int
	Sentences              int
	Paragraphs             int
	Syllables              int
	ReadingTimeMinutes     string // words/200, 2 decimals, half up
	FleschReadingEase      string // "" when there are no words
	FleschKincaidGrade     string // "" when there are no words
}

// IsSpace reports the Unicode White_Space property.
func IsSpace(r rune) bool { return unicode.IsSpace(r) }

func isWordChar(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsNumber(r)
}

func isJoiner(r rune) bool { return r == '\'' || r == '\u2019' || r == '-' }

func isTerminator(r rune) bool { return r == '.' || r == '!' || r == '?' || r == '\u2026' }

func isCloser(r rune) bool {
	switch r {
	case '"', '\'', ')', ']', '}', '\u00bb', '\u201d', '\u2019':
		return true
	}
	return false
}

// Analyze computes the statistics of text, checking ctx every 64 Ki characters. It
// returns ctx.Err() when the context ends. The caller enforces MaxBytes.
func Analyze(ctx context.Context, text string) (*Stats, error) {
	rs := []rune(text)
	n := len(rs)
	st := &Stats{Characters: n}
	folder := cases.Fold()
	unique := make(map[string]struct{})
	wordSince := false
	for i := 0; i < n; {
		if i&0xffff == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		r := rs[i]
		switch {
		case isWordChar(r):
			j := i + 1
			for j < n {
				if isWordChar(rs[j]) {
					j++
				} else if isJoiner(rs[j]) && j+1 < n && isWordChar(rs[j+1]) {
					j += 2
				} else {
					break
				}
			}
			key := foldWord(folder, rs[i:j])
			unique[key] = struct{}{}
			st.Words++
			st.Syllables += Syllables(key)
			wordSince = true
			i = j
		case isTerminator(r):
			j := i + 1
			for j < n && isTerminator(rs[j]) {
				j++
			}
			k := j
			for k < n && isCloser(rs[k]) {
				k++
			}
			if wordSince && (k == n || IsSpace(rs[k])) {
				st.Sentences++
				wordSince = false
			}
			i = j
		default:
			i++
		}
	}
	if wordSince {
		st.Sentences++
	}
	st.UniqueWords = len(unique)
	for _, r := range rs {
		if !IsSpace(r) {
			st.CharactersNoWhitespace++
		}
	}
	st.Paragraphs = countParagraphs(text)
	st.ReadingTimeMinutes = round2(big.NewRat(int64(st.Words), WordsPerMinute))
	if st.Words > 0 {
		w := big.NewRat(int64(st.Words), 1)
		wps := new(big.Rat).Quo(w, big.NewRat(int64(st.Sentences), 1))
		spw := new(big.Rat).Quo(big.NewRat(int64(st.Syllables), 1), w)
		fre := rat("206.835")
		fre.Sub(fre, new(big.Rat).Mul(rat("1.015"), wps))
		fre.Sub(fre, new(big.Rat).Mul(rat("84.6"), spw))
		fk := new(big.Rat).Mul(rat("0.39"), wps)
		fk.Add(fk, new(big.Rat).Mul(rat("11.8"), spw))
		fk.Sub(fk, rat("15.59"))
		st.FleschReadingEase = round2(fre)
		st.FleschKincaidGrade = round2(fk)
	}
	return st, nil
}

// foldWord case-folds a word; ASCII words (the common case) skip the Unicode
// folder, since folding ASCII is lowercasing.
func foldWord(folder cases.Caser, w []rune) string {
	ascii := true
	for _, r := range w {
		if r >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		b := make([]byte, len(w))
		for i, r := range w {
			if r >= 'A' && r <= 'Z' {
				r += 'a' - 'A'
			}
			b[i] = byte(r)
		}
		return string(b)
	}
	return strings.ReplaceAll(folder.String(string(w)), "\u2019", "'")
}

func rat(s string) *big.Rat {
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		panic("textstats: bad constant " + s)
	}
	return r
}

// round2 rounds x half away from zero to two decimals and formats it as a plain
// decimal string with exactly two decimals; a result of zero is "0.00", never
// "-0.00".
func round2(x *big.Rat) string {
	neg := x.Sign() < 0
	a := new(big.Rat).Abs(x)
	// hundredths = floor(a*100 + 1/2)
	h := new(big.Rat).Mul(a, big.NewRat(100, 1))
	h.Add(h, big.NewRat(1, 2))
	q := new(big.Int).Quo(h.Num(), h.Denom())
	s := q.String()
	for len(s) < 3 {
		s = "0" + s
	}
	s = s[:len(s)-2] + "." + s[len(s)-2:]
	if neg && q.Sign() != 0 {
		s = "-" + s
	}
	return s
}

func countParagraphs(text string) int {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	text = strings.ReplaceAll(text, "\r", "\n")
	count := 0
	inPara := false
	for _, line := range strings.Split(text, "\n") {
		blank := strings.IndexFunc(line, func(r rune) bool { return !IsSpace(r) }) < 0
		if !blank && !inPara {
			count++
		}
		inPara = !blank
	}
	return count
}

// Syllables estimates the syllables of one case-folded word by English rules:
//  1. keep only the ASCII letters a–z; none left (numbers, other scripts) → 1;
//  2. three letters or fewer → 1;
//  3. count maximal runs of vowels (a e i o u y);
//  4. when that count is above 1, subtract one for a silent ending — at most one of:
//     a final "e" whose preceding letter is a consonant, except consonant+"le"
//     (make, whale; not table, agree); a final "ed" not after t or d (jumped; not
//     wanted); a final "es" not in -ses -xes -zes -ces -ges -ches -shes (makes; not
//     boxes);
//  5. at least 1.
func Syllables(folded string) int {
	var b strings.Builder
	for i := 0; i < len(folded); {
		r, size := utf8.DecodeRuneInString(folded[i:])
		if r >= 'a' && r <= 'z' {
			b.WriteByte(byte(r))
		}
		i += size
	}
	w := b.String()
	if w == "" || len(w) <= 3 {
		return 1
	}
	count := 0
	prevVowel := false
	for i := 0; i < len(w); i++ {
		v := isVowel(w[i])
		if v && !prevVowel {
			count++
		}
		prevVowel = v
	}
	if count > 1 {
		n := len(w)
		switch {
		case w[n-1] == 'e':
			before := w[n-2]
			consLE := before == 'l' && !isVowel(w[n-3])
			if !isVowel(before) && !consLE {
				count--
			}
		case strings.HasSuffix(w, "ed"):
			if before := w[n-3]; before != 't' && before != 'd' {
				count--
			}
		case strings.HasSuffix(w, "es"):
			keep := false
			for _, s := range []string{"ses", "xes", "zes", "ces", "ges", "ches", "shes"} {
				if strings.HasSuffix(w, s) {
					keep = true
					break
				}
			}
			if !keep {
				count--
			}
		}
	}
	if count < 1 {
		count = 1
	}
	return count
}

func isVowel(c byte) bool {
	switch c {
	case 'a', 'e', 'i', 'o', 'u', 'y':
		return true
	}
	return false
}
