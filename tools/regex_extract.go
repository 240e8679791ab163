package tools

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/internal/regexpy"
)

// Cost limits of regex_extract (declared in its contract).
const (
	regexMaxTextBytes = 1 << 20
	regexMaxSteps     = 50_000_000
	regexMaxMatches   = 1_000_000
	// regexEnvelopeRoom is kept out of a page's budget for what the envelope
	// adds around facts and input (hashes, identity, source, warnings).
	regexEnvelopeRoom = 4096
)

type regexInput struct {
	Pattern string  `json:"pattern"`
	Text    string  `json:"text"`
	Flags   string  `json:"flags"`
	Offset  int     `json:"offset"`
	Limit   int     `json:"limit"`
	Cursor  *string `json:"cursor"`
}

// regexMatch is one match of the facts. Groups hold a string or nil (a
// group that did not take part).
type regexMatch struct {
	Match  string         `json:"match"`
	Start  int            `json:"start"`
	End    int            `json:"end"`
	Groups []any          `json:"groups"`
	Named  map[string]any `json:"named"`
}

type regexFacts struct {
	Matches      []regexMatch `json:"matches"`
	TotalMatches int          `json:"total_matches"`
	Offset       int          `json:"offset"`
	Limit        int          `json:"limit"`
	HasMore      bool         `json:"has_more"`
	NextOffset   *int         `json:"next_offset"`
	NextCursor   *string      `json:"next_cursor"`
}

// regexExtract is the upgraded regex_extract tool (README, Tools): Python `re` syntax
// and finditer semantics, linear-time matching (internal/regexpy). A page holds
// at most limit matches and at most as many as fit, as canonical facts, into
// max_result_chars less the input and regexEnvelopeRoom (see regexPage).
func regexExtract() Tool {
	maxChars := contractLimit("regex_extract", "max_result_chars")
	return Define(Def[regexInput, regexFacts]{
		Name: "regex_extract",
		Run: func(ctx context.Context, in regexInput) (regexFacts, []Warning, error) {
			if len(in.Text) > regexMaxTextBytes {
				return regexFacts{}, nil, TooCostly("text_too_large", "text is %d UTF-8 bytes; the limit is %d", len(in.Text), regexMaxTextBytes)
			}
			offset, err := regexOffset(in)
			if err != nil {
				return regexFacts{}, nil, err
			}
			re, err := regexpy.Compile(in.Pattern, in.Flags)
			if err != nil {
				return regexFacts{}, nil, regexError(err)
			}
			t := scanText(in.Text)
			defer t.release()
			// The envelope carries the input too (canonical), so the facts get
			// what the input leaves of max_result_chars.
			budget := maxChars - regexEnvelopeRoom - t.chars - canonicalStringChars(in.Pattern)
			return t.page(ctx, re, offset, in.Limit, budget)
		},
		Legacy: func(in regexInput, f regexFacts) string {
			// Sized for the common case (no escapes) up front, so that the text
			// is one allocation.
			n := 64
			for _, m := range f.Matches {
				n += len(m.Match) + 4
			}
			b := make([]byte, 0, n)
			b = append(b, "Found "...)
			b = strconv.AppendInt(b, int64(f.TotalMatches), 10)
			b = append(b, " match(es)"...)
			if len(f.Matches) > 0 {
				b = append(b, "; showing "...)
				b = strconv.AppendInt(b, int64(f.Offset+1), 10)
				b = append(b, '-')
				b = strconv.AppendInt(b, int64(f.Offset+len(f.Matches)), 10)
				b = append(b, ':')
				for i, m := range f.Matches {
					if i > 0 {
						b = append(b, ',')
					}
					b = append(b, ' ')
					// Quoted as the facts quote it, so the text is never larger
					// than the facts the page budget bounds.
					b = evidence.AppendString(b, m.Match)
				}
			}
			if f.HasMore {
				b = append(b, " (more from offset "...)
				b = strconv.AppendInt(b, int64(*f.NextOffset), 10)
				b = append(b, ')')
			}
			// b is never written again: it becomes the string without a
			// copy, as strings.Builder does.
			return unsafe.String(unsafe.SliceData(b), len(b))
		},
	})
}

// regexOffset returns the first match of the page: offset, or the cursor
// (next_cursor of the previous page: the decimal next_offset). Both at once
// must agree.
func regexOffset(in regexInput) (int, error) {
	if in.Cursor == nil {
		return in.Offset, nil
	}
	c, err := strconv.Atoi(*in.Cursor)
	if err != nil || c < 0 || strconv.Itoa(c) != *in.Cursor {
		return 0, Fail("invalid_cursor", "cursor %q is not a next_cursor of this tool", regexTrunc(*in.Cursor))
	}
	if in.Offset != 0 && in.Offset != c {
		return 0, Fail("cursor_offset_conflict", "cursor %s and offset %d name different pages; give one of them", *in.Cursor, in.Offset)
	}
	return c, nil
}

func regexTrunc(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// regexFactsFixed bounds the canonical size of the facts without their
// matches: keys, total_matches, offset, limit, has_more, next_offset,
// next_cursor (every number at most 7 digits).
const regexFactsFixed = 160

// regexPage runs the search and keeps the matches offset .. offset+limit-1,
// stopping early when the next one would take the canonical facts past
// budget characters. The size of a match is computed from its spans before
// any of its strings is built. A page cut short by size carries a
// page_truncated warning; a page whose first match alone does not fit is
// refused (cost_limit_exceeded, match_too_large).
func regexPage(ctx context.Context, re *regexpy.Regexp, s string, offset, limit, budget int) (regexFacts, []Warning, error) {
	t := scanText(s)
	defer t.release()
	return t.page(ctx, re, offset, limit, budget)
}

// page is regexPage over the scanned text.
func (t *regexText) page(ctx context.Context, re *regexpy.Regexp, offset, limit, budget int) (regexFacts, []Warning, error) {
	s, text, size, valid := t.s, t.runes, t.size, t.valid
	names := re.GroupNames()
	var nameKs []int
	nameChars := 0
	for name, k := range names {
		nameKs = append(nameKs, k)
		nameChars += canonicalStringChars(name) + 1 // "name":
	}
	out := regexFacts{Matches: make([]regexMatch, 0, max(0, min(limit, 4))), Offset: offset, Limit: limit}
	used := regexFactsFixed
	cut, tooLarge := false, 0
	// Match strings are slices of s, not copies: code-point spans become byte
	// offsets directly for ASCII text, else through a table built once. Text
	// that is not valid UTF-8 (never from a JSON request) is copied from the
	// runes, so that an invalid byte reads as U+FFFD as before.
	var byteAt []int32
	if valid && len(s) != len(text) {
		byteAt = make([]int32, 0, len(text)+1)
		for i := range s {
			byteAt = append(byteAt, int32(i))
		}
		byteAt = append(byteAt, int32(len(s)))
	}
	str := func(g [2]int) string {
		switch {
		case !valid:
			return string(text[g[0]:g[1]])
		case byteAt == nil:
			return s[g[0]:g[1]]
		default:
			return s[byteAt[g[0]]:byteAt[g[1]]]
		}
	}
	// group is a group's generic JSON value: its string, or nil.
	group := func(g [2]int) any {
		if g[0] < 0 {
			return nil
		}
		return str(g)
	}
	// The groups of the page's matches are cut from slabs, a few matches'
	// worth at a time, not allocated match by match; each match's slice is
	// capped, so that nothing appended to one reaches the next.
	ng := re.NumGroups()
	var slab []any
	slabMatches := 4
	var ascii string
	if t.ascii {
		ascii = s
	}
	lim := regexpy.Limits{MaxSteps: regexMaxSteps, MaxMatches: regexMaxMatches}
	progress := HasProgress(ctx)
	if progress {
		lim.Progress = func(pos, n int) { ReportProgress(ctx, float64(pos), float64(n), "scanning the text") }
	}
	err := re.FindAllText(ctx, text, ascii, lim, func(m regexpy.Match) bool {
		if progress {
			ReportProgress(ctx, float64(m.Groups[0][1]), float64(len(text)), "scanning the text")
		}
		i := out.TotalMatches
		out.TotalMatches++
		if cut || i < offset || i >= offset+limit {
			return true
		}
		n := matchChars(m, nameKs, nameChars, size) + 1 // and a comma
		if used+n > budget {
			if len(out.Matches) == 0 {
				tooLarge = n
				return false
			}
			cut = true
			return true
		}
		used += n
		if len(slab) < ng || slab == nil { // nil: not an empty list (null) when ng is 0
			k := min(slabMatches, offset+limit-i)
			slab = make([]any, ng*k)
			slabMatches = min(2*slabMatches, 256)
		}
		rm := regexMatch{Match: str(m.Groups[0]), Start: m.Groups[0][0], End: m.Groups[0][1], Groups: slab[:ng:ng]}
		slab = slab[ng:]
		for i, g := range m.Groups[1:] {
			rm.Groups[i] = group(g)
		}
		rm.Named = make(map[string]any, len(names))
		for name, k := range names {
			rm.Named[name] = rm.Groups[k-1]
		}
		out.Matches = append(out.Matches, rm)
		return true
	})
	if err != nil {
		return regexFacts{}, nil, regexError(err)
	}
	if tooLarge > 0 {
		return regexFacts{}, nil, TooCostly("match_too_large", "match %d with its groups is %d characters of facts; a page holds at most %d (max_result_chars less the input)", offset, tooLarge, budget)
	}
	var warnings []Warning
	if end := offset + len(out.Matches); end < out.TotalMatches {
		out.HasMore = true
		out.NextOffset = &end
		cursor := strconv.Itoa(end)
		out.NextCursor = &cursor
		if cut {
			warnings = append(warnings, Warning{Code: "page_truncated", Message: fmt.Sprintf(
				"this page holds %d of the %d matches asked for: the next would take the facts past %d characters (max_result_chars less the input); continue with cursor %s",
				len(out.Matches), min(limit, out.TotalMatches-offset), budget, cursor)})
		}
	}
	return out, warnings, nil
}

// runeBufs recycles the code points of regex_extract's texts (up to
// maxPooledRunes), so that a long text is not a fresh allocation per call.
var runeBufs sync.Pool

const maxPooledRunes = 1 << 18

// regexText is a text scanned once for a search: its code points (in a
// buffer from runeBufs), its escapes (spanChars), its canonical JSON size and
// whether it is valid UTF-8 and all ASCII — what five passes over the text
// computed before (utf8.RuneCountInString, []rune, utf8.ValidString,
// newSpanChars, canonicalStringChars); TestScanText compares them.
type regexText struct {
	s     string
	runes []rune
	buf   *[]rune
	size  spanChars
	chars int  // canonicalStringChars(s)
	valid bool // utf8.ValidString(s)
	ascii bool // every byte of s is ASCII
}

// scanText scans s; give the buffer back with release once nothing reads
// the runes (match strings are slices of s or copies).
func scanText(s string) regexText {
	t := regexText{s: s, valid: true}
	// A text has at most as many code points as bytes.
	if p, _ := runeBufs.Get().(*[]rune); p != nil && cap(*p) >= len(s) {
		t.buf = p
	} else {
		b := make([]rune, len(s))
		t.buf = &b
	}
	runes := (*t.buf)[:len(s)]
	var esc []spanEsc
	var extra int32
	// s's bytes, read (never written) without a copy.
	bytes := unsafe.Slice(unsafe.StringData(s), len(s))
	k := 0
	for i := 0; i < len(s); {
		if i+8 <= len(s) && k+8 <= len(runes) {
			// Eight bytes at a time (one load) while they are ASCII that
			// escaping leaves alone (most text): no table, no decoding.
			x := binary.LittleEndian.Uint64(bytes[i:])
			if plainASCII(x) {
				r := runes[k : k+8 : k+8]
				r[0], r[1], r[2], r[3] = rune(x&0xff), rune(x>>8&0xff), rune(x>>16&0xff), rune(x>>24&0xff)
				r[4], r[5], r[6], r[7] = rune(x>>32&0xff), rune(x>>40&0xff), rune(x>>48&0xff), rune(x>>56)
				i, k = i+8, k+8
				continue
			}
		}
		c := s[i]
		var r rune
		var e int
		if c < utf8.RuneSelf {
			r, e = rune(c), asciiChars[c]-1
			i++
		} else {
			var size int
			r, size = utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				t.valid = false // []rune(s) reads the byte as U+FFFD too
			}
			e = evidence.RuneChars(r) - 1
			i += size
		}
		runes[k] = r
		if e > 0 {
			if esc == nil {
				esc = make([]spanEsc, 0, 8)
			}
			extra += int32(e)
			esc = append(esc, spanEsc{int32(k), extra})
		}
		k++
	}
	t.runes, t.size = runes[:k], spanChars{esc}
	t.chars = 2 + k + int(extra)
	t.ascii = k == len(s) && t.valid
	return t
}

// plainASCII reports whether the eight bytes of x are ASCII characters that
// canonical JSON writes as themselves: none has its high bit set, none is a
// control character (below 0x20), a quote or a backslash.
func plainASCII(x uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	hasZero := func(v uint64) uint64 { return (v - ones) & ^v & highs }
	if x&highs != 0 {
		return false
	}
	// Below 0x20: subtracting 0x20 borrows into the high bit (no byte has
	// it set here).
	return (x-0x20*ones)&highs == 0 && hasZero(x^('"'*ones)) == 0 && hasZero(x^('\\'*ones)) == 0
}

func (t *regexText) release() {
	if cap(*t.buf) <= maxPooledRunes {
		runeBufs.Put(t.buf)
	}
	t.runes = nil
}

// matchChars is the canonical JSON size of the facts of one match:
// {"end":E,"groups":[...],"match":"...","named":{...},"start":S}.
// nameKs are the group numbers of the named groups, nameChars the size of
// their keys ("name": each).
func matchChars(m regexpy.Match, nameKs []int, nameChars int, size spanChars) int {
	g0 := m.Groups[0]
	n := len(`{"end":,"groups":[],"match":,"named":{},"start":}`) + digits(g0[1]) + digits(g0[0]) + size.of(g0)
	for i, g := range m.Groups[1:] {
		if i > 0 {
			n++ // comma
		}
		n += size.of(g)
	}
	n += nameChars + max(len(nameKs)-1, 0)
	for _, k := range nameKs {
		n += size.of(m.Groups[k])
	}
	return n
}

// digits is len(strconv.Itoa(v)) for v >= 0, without building the string.
func digits(v int) int {
	n := 1
	for ; v >= 10; v /= 10 {
		n++
	}
	return n
}

// spanChars measures spans of a text as canonical JSON strings: each entry
// of esc is a position (code points) of a character escaping makes longer,
// in order, and how many characters escaping adds up to and including it.
// Texts escape few characters (newlines, quotes), so this is small where a
// per-character table would be four bytes a character; one slice of pairs,
// not two slices, so that a short text costs at most one allocation.
type spanChars struct{ esc []spanEsc }

type spanEsc struct{ at, cum int32 }

// before is how many characters escaping adds to the code points before i.
func (z spanChars) before(i int) int {
	// The first entry at or after i (slices.BinarySearch over the positions).
	lo, hi := 0, len(z.esc)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if int(z.esc[mid].at) < i {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo == 0 {
		return 0
	}
	return int(z.esc[lo-1].cum)
}

// of returns the canonical size of the span g ("null" when it did not take
// part).
func (z spanChars) of(g [2]int) int {
	if g[0] < 0 {
		return 4
	}
	n := g[1] - g[0] + 2
	if len(z.esc) > 0 {
		n += z.before(g[1]) - z.before(g[0])
	}
	return n
}

// asciiChars[c] is evidence.RuneChars of the ASCII character c.
var asciiChars = func() (t [utf8.RuneSelf]int) {
	for c := range t {
		t[c] = evidence.RuneChars(rune(c))
	}
	return t
}()

// canonicalStringChars is the size of s as a canonical JSON string.
func canonicalStringChars(s string) int {
	n := 2
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			for _, r := range s[i:] { // i is where a code point starts
				n += evidence.RuneChars(r)
			}
			return n
		}
		n += asciiChars[s[i]]
	}
	return n
}

func regexError(err error) error {
	var se *regexpy.SyntaxError
	var ue *regexpy.UnsupportedError
	var le *regexpy.TooLargeError
	var ce *regexpy.CostError
	switch {
	case errors.As(err, &se):
		return Fail("invalid_regex", "%s", se.Error())
	case errors.As(err, &ue):
		return Fail("unsupported_regex_feature", "%s", ue.Error())
	case errors.As(err, &le):
		return TooCostly("regex_too_large", "%s", le.Error())
	case errors.As(err, &ce):
		if strings.Contains(ce.Msg, "matches") {
			return TooCostly("too_many_matches", "%s; narrow the pattern", ce.Msg)
		}
		return TooCostly("regex_work_limit", "%s", ce.Msg)
	}
	return err
}
