package regexpy

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
)

// A rune set as sorted, merged, inclusive [lo, hi] pairs.
type runeSet [][2]rune

func normalize(s runeSet) runeSet {
	slices.SortFunc(s, func(a, b [2]rune) int { return int(a[0]) - int(b[0]) })
	out := s[:0]
	for _, r := range s {
		if n := len(out); n > 0 && r[0] <= out[n-1][1]+1 {
			if r[1] > out[n-1][1] {
				out[n-1][1] = r[1]
			}
			continue
		}
		out = append(out, r)
	}
	return out
}

func complement(s runeSet) runeSet {
	var out runeSet
	next := rune(0)
	for _, r := range s {
		if r[0] > next {
			out = append(out, [2]rune{next, r[0] - 1})
		}
		next = r[1] + 1
	}
	if next <= unicode.MaxRune {
		out = append(out, [2]rune{next, unicode.MaxRune})
	}
	return out
}

func tableSet(tabs ...*unicode.RangeTable) runeSet {
	var s runeSet
	for _, t := range tabs {
		for _, r := range t.R16 {
			for c := rune(r.Lo); c <= rune(r.Hi); c += rune(r.Stride) {
				if r.Stride == 1 {
					s = append(s, [2]rune{rune(r.Lo), rune(r.Hi)})
					break
				}
				s = append(s, [2]rune{c, c})
			}
		}
		for _, r := range t.R32 {
			for c := rune(r.Lo); c <= rune(r.Hi); c += rune(r.Stride) {
				if r.Stride == 1 {
					s = append(s, [2]rune{rune(r.Lo), rune(r.Hi)})
					break
				}
				s = append(s, [2]rune{c, c})
			}
		}
	}
	return normalize(s)
}

var (
	catOnce sync.Once
	catSets map[string]runeSet
)

// categorySet returns the set of \d \D \s \S \w \W (Unicode or ASCII).
func categorySet(c rune, ascii bool) runeSet {
	catOnce.Do(func() {
		catSets = map[string]runeSet{}
		var sp runeSet
		for _, r := range pyWhitespace {
			sp = append(sp, [2]rune{r, r})
		}
		sp = normalize(sp)
		word := normalize(append(tableSet(unicode.L, unicode.N), [2]rune{'_', '_'}))
		catSets["d"] = tableSet(unicode.Nd)
		catSets["s"] = sp
		catSets["w"] = word
		catSets["ad"] = runeSet{{'0', '9'}}
		catSets["as"] = runeSet{{'\t', '\r'}, {' ', ' '}}
		catSets["aw"] = runeSet{{'0', '9'}, {'A', 'Z'}, {'_', '_'}, {'a', 'z'}}
		for _, k := range []string{"d", "s", "w", "ad", "as", "aw"} {
			catSets[k+"!"] = complement(catSets[k])
		}
	})
	key := strings.ToLower(string(c))
	if ascii {
		key = "a" + key
	}
	if unicode.IsUpper(c) {
		key += "!"
	}
	return catSets[key]
}

func appendRune(b []byte, r rune) []byte {
	b = append(b, `\x{`...)
	b = strconv.AppendInt(b, int64(r), 16)
	return append(b, '}')
}

// classItem is a parsed member of a class: a literal or a category.
type classItem struct {
	lit rune
	cat rune // 0 for a literal
}

func (t *translator) classEscape() (classItem, error) {
	t.pos++ // backslash
	if t.eof() {
		return classItem{}, posErr(t.pos-1, "bad escape (end of pattern)")
	}
	c := t.peek()
	switch c {
	case 'd', 'D', 's', 'S', 'w', 'W':
		t.pos++
		return classItem{cat: c}, nil
	case 'b':
		t.pos++
		return classItem{lit: '\b'}, nil
	}
	r, err := t.literalEscape(c, true)
	if err != nil {
		return classItem{}, err
	}
	return classItem{lit: r}, nil
}

// parseClass follows CPython 3.11's set parsing: "]" first is a literal, "-" first
// or last is a literal, range ends must be literals in order.
func (t *translator) parseClass(fl flagSet) error {
	open := t.pos
	t.pos++ // [
	negate := false
	if t.peek() == '^' {
		negate = true
		t.pos++
	}
	first := t.pos
	var set runeSet
	addItem := func(it classItem) {
		if it.cat != 0 {
			set = append(set, categorySet(it.cat, fl.a)...)
		} else {
			set = append(set, [2]rune{it.lit, it.lit})
		}
	}
	for {
		if t.eof() {
			return &SyntaxError{Msg: fmt.Sprintf("unterminated character set at position %d", open)}
		}
		c := t.peek()
		if c == ']' && t.pos != first {
			t.pos++
			break
		}
		var it classItem
		itemAt := t.pos
		if c == '\\' {
			var err error
			if it, err = t.classEscape(); err != nil {
				return err
			}
		} else {
			t.pos++
			it = classItem{lit: c}
		}
		if t.peek() == '-' {
			dash := t.pos
			t.pos++
			if t.eof() {
				return &SyntaxError{Msg: fmt.Sprintf("unterminated character set at position %d", open)}
			}
			if t.peek() == ']' {
				t.pos++
				addItem(it)
				addItem(classItem{lit: '-'})
				break
			}
			var hi classItem
			if t.peek() == '\\' {
				var err error
				if hi, err = t.classEscape(); err != nil {
					return err
				}
			} else {
				hi = classItem{lit: t.peek()}
				t.pos++
			}
			if it.cat != 0 || hi.cat != 0 || hi.lit < it.lit {
				// CPython quotes both ends as written
				lo := string(t.p[itemAt:dash])
				return posErr(itemAt, "bad character range %s-%s", lo, string(t.p[dash+1:t.pos]))
			}
			set = append(set, [2]rune{it.lit, hi.lit})
			continue
		}
		addItem(it)
	}
	set = normalize(set)
	fold := fl.i
	switch {
	case fl.i && fl.a: // ASCII-only case folding, done here instead of by (?i)
		fold = false
		var extra runeSet
		for _, r := range set {
			for c := max(r[0], 'A'); c <= min(r[1], 'z'); c++ {
				if o := asciiOther(c); o >= 0 {
					extra = append(extra, [2]rune{o, o})
				}
			}
		}
		set = normalize(append(set, extra...))
	case fl.i:
		for _, g := range pyFoldGroups {
			hit := false
			for _, x := range g {
				for _, r := range set {
					if x >= r[0] && x <= r[1] {
						hit = true
					}
				}
			}
			if hit {
				for _, x := range g {
					set = append(set, [2]rune{x, x})
				}
			}
		}
		set = normalize(set)
	}
	var b strings.Builder
	if fold {
		b.WriteString("(?i:")
	}
	b.WriteByte('[')
	if negate {
		b.WriteByte('^')
	}
	var buf []byte
	for _, r := range set {
		buf = appendRune(buf, r[0])
		if r[0] != r[1] {
			buf = append(buf, '-')
			buf = appendRune(buf, r[1])
		}
	}
	b.Write(buf)
	b.WriteByte(']')
	if fold {
		b.WriteByte(')')
	}
	t.out.WriteString(b.String())
	return nil
}
