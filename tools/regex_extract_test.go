package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/internal/allocs"
	"github.com/precisiond/precisiond/internal/regexpy"
)

// invokeUnhurried calls a tool with a deadline far beyond the default one:
// these tests check what the budgets decide, which must not depend on how
// busy the machine is.
func invokeUnhurried(t *testing.T, tool string, args map[string]any) (*Response, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	return testRegistry(t).Invoke(ctx, Request{Tool: tool, Args: args})
}

func canonicalChars(t *testing.T, v any) int {
	t.Helper()
	g, err := evidence.ToGeneric(v)
	if err != nil {
		t.Fatal(err)
	}
	b, err := evidence.Canonical(g)
	if err != nil {
		t.Fatal(err)
	}
	return utf8.RuneCount(b)
}

// TestRegexExtractHostile is the request of issue 13: 40 nested named
// groups around a*, on 1 000 000 a's. The first match is the whole text, so
// its facts would be 81 copies of it (83 MB); its size is known from its
// spans before any string is built, and the call is refused.
func TestRegexExtractHostile(t *testing.T) {
	pattern := "a*"
	for i := 39; i >= 0; i-- {
		pattern = fmt.Sprintf("(?P<g%d>%s)", i, pattern)
	}
	text := strings.Repeat("a", 1_000_000)
	testRegistry(t) // built once for the package (every contract compiled): measure the call, not that
	var err error
	alloc := allocs.Bytes(func() {
		_, err = invokeUnhurried(t, "regex_extract", map[string]any{"pattern": pattern, "text": text})
	})
	wantToolError(t, err, CodeCostLimit, "match_too_large")
	// The text as runes (4 MB) and a few copies of the arguments, not 83 MB.
	t.Logf("allocated %d bytes", alloc)
	if alloc > 16<<20 {
		t.Errorf("allocated %d bytes", alloc)
	}
}

// TestRegexExtractPagesBySize: 1000 matches of 999 characters with three
// groups each are 4 MB of facts, more than max_result_chars leaves beside a
// 1 MB text. The first page stops where the next match would not fit, says
// so in a warning and a cursor; the second page, from the cursor, holds the
// rest. Every page's envelope fits max_result_chars.
func TestRegexExtractPagesBySize(t *testing.T) {
	maxChars := contractLimit("regex_extract", "max_result_chars")
	text := strings.Repeat(strings.Repeat("a", 999)+",", 1000)
	pattern := "(((a+)))"
	budget := maxChars - regexEnvelopeRoom - canonicalStringChars(text) - canonicalStringChars(pattern)
	var starts []int
	args := map[string]any{"pattern": pattern, "text": text, "limit": json.Number("1000")}
	for page := 0; ; page++ {
		resp, err := invokeUnhurried(t, "regex_extract", args)
		if err != nil {
			t.Fatalf("page %d: %v", page, err)
		}
		env, err := json.Marshal(resp.Envelope)
		if err != nil {
			t.Fatal(err)
		}
		if n := utf8.RuneCount(env); n > maxChars {
			t.Fatalf("page %d: envelope is %d characters, more than %d", page, n, maxChars)
		}
		if n := utf8.RuneCountInString(resp.Result); n > maxChars {
			t.Fatalf("page %d: legacy text is %d characters", page, n)
		}
		f := resp.Envelope.Facts()
		ms := f["matches"].([]any)
		t.Logf("page %d: %d matches, envelope %d characters", page, len(ms), utf8.RuneCount(env))
		for _, m := range ms {
			s, _ := strconv.Atoi(string(m.(map[string]any)["start"].(json.Number)))
			starts = append(starts, s)
		}
		if f["has_more"] != true {
			if f["next_cursor"] != nil || len(resp.Envelope.Warnings) != 0 {
				t.Fatalf("last page: next_cursor %v, warnings %v", f["next_cursor"], resp.Envelope.Warnings)
			}
			break
		}
		// A page cut by size: warned, and the next match would not have fit.
		if len(resp.Envelope.Warnings) != 1 || resp.Envelope.Warnings[0].Code != "page_truncated" {
			t.Fatalf("page %d: warnings %v, want page_truncated", page, resp.Envelope.Warnings)
		}
		matchesChars := canonicalChars(t, ms)
		oneMore := canonicalChars(t, ms[0]) + 1 // every match here has the same size
		if matchesChars+regexFactsFixed > budget || matchesChars+oneMore+regexFactsFixed <= budget {
			t.Fatalf("page %d: %d characters of matches (+%d fixed), one more %d, budget %d", page, matchesChars, regexFactsFixed, oneMore, budget)
		}
		cursor := f["next_cursor"].(string)
		if got := string(f["next_offset"].(json.Number)); got != cursor {
			t.Fatalf("next_offset %s and next_cursor %s differ", got, cursor)
		}
		args = map[string]any{"pattern": pattern, "text": text, "limit": json.Number("1000"), "cursor": cursor}
		if page > 3 {
			t.Fatal("too many pages")
		}
	}
	if len(starts) != 1000 {
		t.Fatalf("pages hold %d matches, want 1000", len(starts))
	}
	for i, s := range starts {
		if s != 1000*i {
			t.Fatalf("match %d starts at %d", i, s)
		}
	}
}

// TestRegexMatchChars checks the size computed from spans against the
// canonical JSON of the match as the facts hold it, on texts with escapes,
// non-ASCII characters, groups that did not take part and named groups.
func TestRegexMatchChars(t *testing.T) {
	for _, tc := range []struct{ pattern, text string }{
		{`(?P<word>\w+)(?P<sep>\W)?`, "héllo \"wörld\"\n\ttab\\back\x01\x1f end"},
		{`(a)|(b)|(?P<c>c)`, "abcabc\"c"},
		{`(.)(.)?`, "\u2028\u0000é"},
		{`x*`, "\"\"xx\"\""},
		{`(?s)(.*)`, "line\r\nline\f\b"},
		{`(.)(\W)?`, "\xffa\"\xc3\n\xe2\x82b\\"}, // not UTF-8: each bad byte is one U+FFFD
	} {
		re, err := regexpy.Compile(tc.pattern, "")
		if err != nil {
			t.Fatal(err)
		}
		text := []rune(tc.text)
		scanned := scanText(tc.text)
		size := scanned.size
		if got, want := canonicalStringChars(tc.text), canonicalChars(t, string(text)); got != want {
			t.Errorf("canonicalStringChars(%q) = %d, canonical %d", tc.text, got, want)
		}
		names := re.GroupNames()
		nameChars := 0
		for name := range names {
			nameChars += canonicalStringChars(name) + 1
		}
		err = re.FindAll(context.Background(), text, regexpy.Limits{}, func(m regexpy.Match) bool {
			span := func(g [2]int) any {
				if g[0] < 0 {
					return nil
				}
				return string(text[g[0]:g[1]])
			}
			groups := []any{}
			for _, g := range m.Groups[1:] {
				groups = append(groups, span(g))
			}
			named := map[string]any{}
			for name, k := range names {
				named[name] = span(m.Groups[k])
			}
			want := canonicalChars(t, map[string]any{"match": span(m.Groups[0]), "start": m.Groups[0][0], "end": m.Groups[0][1],
				"groups": groups, "named": named})
			var nameKs []int
			for _, k := range names {
				nameKs = append(nameKs, k)
			}
			if got := matchChars(m, nameKs, nameChars, size); got != want {
				t.Errorf("%s on %q at %v: matchChars %d, canonical %d", tc.pattern, tc.text, m.Groups[0], got, want)
			}
			return true
		})
		scanned.release()
		if err != nil {
			t.Fatal(err)
		}
	}
}

// scanTextSeeds are texts for TestScanText and FuzzScanText: ASCII with and
// without escapes, multi-byte text, control characters, bytes that are not
// UTF-8.
var scanTextSeeds = []string{"", "a", `user=alice id=42 note="hello world" ok=true`, "line\r\nline\f\b\t\\",
	"héllo \"wörld\"\n\x01\x1f", "\u2028\u0000é日本", "\xffa\"\xc3\n\xe2\x82b\\", "\xc3", "a\x80", strings.Repeat("ab\n", 100),
	"abcdefg\"hijklmn\\opqrstu\x01vwxyzA\u00e9CDEFGH\x7f\x20\x1f\x21IJKLMNOPQRS\xe6"}

// checkScanText compares one scan of s with what the separate passes give:
// []rune(s), utf8.ValidString, canonicalStringChars, the canonical size of
// the text, and for every position how many characters escaping adds
// before it, summed code point by code point.
func checkScanText(t *testing.T, s string) {
	t.Helper()
	sc := scanText(s)
	defer sc.release()
	runes := []rune(s)
	if !reflect.DeepEqual(sc.runes, runes) && !(len(runes) == 0 && len(sc.runes) == 0) {
		t.Fatalf("%q: runes %q, want %q", s, sc.runes, runes)
	}
	if sc.valid != utf8.ValidString(s) {
		t.Fatalf("%q: valid %v", s, sc.valid)
	}
	ascii := true
	for i := 0; i < len(s); i++ {
		ascii = ascii && s[i] < utf8.RuneSelf
	}
	if sc.ascii != ascii {
		t.Fatalf("%q: ascii %v, want %v", s, sc.ascii, ascii)
	}
	if sc.chars != canonicalStringChars(s) || sc.chars != canonicalChars(t, string(runes)) {
		t.Fatalf("%q: %d characters, canonicalStringChars %d, canonical %d", s, sc.chars, canonicalStringChars(s), canonicalChars(t, string(runes)))
	}
	extra := 0
	for i, r := range runes {
		if got := sc.size.before(i); got != extra {
			t.Fatalf("%q: %d characters of escapes before %d, want %d", s, got, i, extra)
		}
		extra += evidence.RuneChars(r) - 1
	}
	if got := sc.size.before(len(runes)); got != extra {
		t.Fatalf("%q: %d characters of escapes in all, want %d", s, got, extra)
	}
}

// TestScanText: scanText's one pass gives what five passes gave.
func TestScanText(t *testing.T) {
	for _, s := range scanTextSeeds {
		checkScanText(t, s)
	}
}

// FuzzScanText is TestScanText on any text.
func FuzzScanText(f *testing.F) {
	for _, s := range scanTextSeeds {
		f.Add(s)
	}
	f.Fuzz(checkScanText)
}

// TestRegexPageBudget: with a budget that fits exactly k matches, a page
// holds k; the size test is the facts' canonical size.
func TestRegexPageBudget(t *testing.T) {
	re, err := regexpy.Compile(`(\w)(\w)`, "")
	if err != nil {
		t.Fatal(err)
	}
	text := "ab\"c" + strings.Repeat("de", 10) // "c is not a match: the first is ab, then cd ...
	full, _, err := regexPage(context.Background(), re, text, 0, 1000, 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	for k := 1; k < len(full.Matches); k++ {
		budget := regexFactsFixed + canonicalChars(t, full.Matches[:k]) - 2 + k // brackets out, commas in
		page, warnings, err := regexPage(context.Background(), re, text, 0, 1000, budget)
		if err != nil {
			t.Fatal(err)
		}
		if len(page.Matches) != k || len(warnings) != 1 || page.NextCursor == nil || *page.NextCursor != strconv.Itoa(k) {
			t.Fatalf("budget for %d matches: got %d, warnings %v, cursor %v", k, len(page.Matches), warnings, page.NextCursor)
		}
	}
	// Not even the first match fits: refused, not an empty page.
	_, _, err = regexPage(context.Background(), re, text, 0, 1000, regexFactsFixed+10)
	wantToolError(t, err, CodeCostLimit, "match_too_large")
}

// TestRegexCursor: a cursor gives the page its offset gives; a cursor and a
// different offset are refused; a malformed cursor is refused by the schema.
func TestRegexCursor(t *testing.T) {
	base := map[string]any{"pattern": `\d`, "text": "1 2 3 4 5", "limit": json.Number("2")}
	with := func(extra map[string]any) map[string]any {
		m := map[string]any{}
		for k, v := range base {
			m[k] = v
		}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	byOffset, err := invokeUnhurried(t, "regex_extract", with(map[string]any{"offset": json.Number("2")}))
	if err != nil {
		t.Fatal(err)
	}
	byCursor, err := invokeUnhurried(t, "regex_extract", with(map[string]any{"cursor": "2"}))
	if err != nil {
		t.Fatal(err)
	}
	a, _ := evidence.Canonical(byOffset.Envelope.Facts())
	b, _ := evidence.Canonical(byCursor.Envelope.Facts())
	if string(a) != string(b) {
		t.Fatalf("offset page %s, cursor page %s", a, b)
	}
	if got := byCursor.Envelope.Facts()["next_cursor"]; got != "4" {
		t.Fatalf("next_cursor %v, want \"4\"", got)
	}
	_, err = invokeUnhurried(t, "regex_extract", with(map[string]any{"cursor": "2", "offset": json.Number("3")}))
	wantToolError(t, err, CodeExecution, "cursor_offset_conflict")
	for _, bad := range []string{"x", "01", "-1", "99999999"} {
		_, err = invokeUnhurried(t, "regex_extract", with(map[string]any{"cursor": bad}))
		wantToolError(t, err, CodeInputSchemaInvalid, "")
	}
}

// TestRegexPageStrings: match strings are cut from the text by code points,
// on ASCII, on multi-byte text and on text that is not valid UTF-8 (each
// invalid byte is one U+FFFD, as []rune reads it).
func TestRegexPageStrings(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string
	}{
		{"ab", []string{"a", "b"}},
		{"Grüße, 日本", []string{"G", "r", "ü", "ß", "e", ",", " ", "日", "本"}},
		{"a\xffb\xe6", []string{"a", "\uFFFD", "b", "\uFFFD"}},
	} {
		re, err := regexpy.Compile("(.)", "")
		if err != nil {
			t.Fatal(err)
		}
		f, _, err := regexPage(context.Background(), re, c.text, 0, 100, 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, m := range f.Matches {
			if m.Groups[0] != m.Match {
				t.Errorf("%q: group 1 %v differs from match %q", c.text, m.Groups[0], m.Match)
			}
			got = append(got, m.Match)
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: matches %q, want %q", c.text, got, c.want)
		}
	}
}

// TestRegexLegacyText pins the legacy result text: the count, the page's
// range and its matches quoted as canonical JSON, and where the next page
// starts.
func TestRegexLegacyText(t *testing.T) {
	tool := regexExtract()
	for _, c := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"pattern": `\d+`, "text": "a1b22c333", "flags": "", "offset": json.Number("0"), "limit": json.Number("20")},
			`Found 3 match(es); showing 1-3: "1", "22", "333"`},
		{map[string]any{"pattern": `\w+`, "text": "x \"q\" é", "flags": "", "offset": json.Number("1"), "limit": json.Number("1")},
			`Found 3 match(es); showing 2-2: "q" (more from offset 2)`},
		{map[string]any{"pattern": `z`, "text": "abc", "flags": "", "offset": json.Number("0"), "limit": json.Number("20")},
			`Found 0 match(es)`},
		{map[string]any{"pattern": `.`, "text": "\"\n", "flags": "s", "offset": json.Number("0"), "limit": json.Number("20")},
			`Found 2 match(es); showing 1-2: "\"", "\n"`},
	} {
		out, err := tool.Execute(context.Background(), c.args)
		if err != nil {
			t.Fatal(err)
		}
		if out.Text != c.want {
			t.Errorf("%v: text %q, want %q", c.args, out.Text, c.want)
		}
	}
}

// TestRegexErrorMessages: for the invalid patterns of the oracle
// (tools/testdata/oracle/gen_regex.py), the message is CPython's str(re.error)
// — text and position — behind "invalid regular expression: ".
func TestRegexErrorMessages(t *testing.T) {
	obj := readExact(t, filepath.Join("testdata", "regex_extract", "oracle_re.json"))
	cases, _ := obj["cases"].([]any)
	n := 0
	for _, r := range cases {
		c, _ := r.(map[string]any)
		msg, ok := c["message"].(string)
		if !ok {
			continue
		}
		args, _ := c["args"].(map[string]any)
		_, err := textInvoke(t, "regex_extract", args)
		var te *Error
		if !errors.As(err, &te) || te.Reason != "invalid_regex" || te.Message != "invalid regular expression: "+msg {
			t.Errorf("%v: got %v, want invalid_regex %q", c["name"], err, msg)
		}
		n++
	}
	if n < 100 {
		t.Fatalf("only %d cases with a message", n)
	}
}
