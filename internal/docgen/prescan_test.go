package docgen

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/precisiond/precisiond/internal/allocs"
)

// repeatUnits builds n units; unit(i) gives the i-th.
func repeatUnits(n int, unit func(i int) string) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(unit(i))
	}
	return b.String()
}

// hostileMarkdown are inputs that made goldmark or a renderer run for
// seconds (quadratic paths of the parser found by cmark's pathological
// tests and by measurement, and the two requests of issue 13), each at a
// size where it took over a second on the development machine.
var hostileMarkdown = []struct {
	name, src string
	format    Format
	reason    string
	maxAlloc  uint64 // 0: 8 bytes per byte of input and 1 MiB
}{
	{"issue 13: *a ** x 100 000", strings.Repeat("*a **", 100_000), HTML, "markdown_too_complex", 0},
	{"issue 13: [a] references x 300 000", "[a]: http://x\n\n" + strings.Repeat("[a]", 300_000), HTML, "markdown_too_complex", 0},
	{"mismatched delimiters *a_", strings.Repeat("*a_ ", 20_000), HTML, "markdown_too_complex", 0},
	{"closers in multiples of 3", "a**b" + strings.Repeat("c* ", 20_000), HTML, "markdown_too_complex", 0},
	{"nested strong emphasis", strings.Repeat("*a **a ", 20_000) + "b" + strings.Repeat(" a** a*", 20_000), TXT, "markdown_too_complex", 0},
	{"unclosed link destinations", strings.Repeat("[a](b", 20_000), HTML, "markdown_too_complex", 0},
	{"unclosed bracketed destinations", strings.Repeat("[a](<b", 20_000), DOCX, "markdown_too_complex", 0},
	{"unclosed image destinations", strings.Repeat("![a](", 20_000), PDF, "markdown_too_complex", 0},
	{"strikethrough around links", strings.Repeat("~~[a~~](", 20_000), HTML, "markdown_too_complex", 0},
	{"nested brackets", strings.Repeat("[", 20_000) + "a" + strings.Repeat("]", 20_000), HTML, "markdown_too_complex", 0},
	{"backtick runs of growing length", repeatUnits(1_400, func(i int) string { return "e" + strings.Repeat("`", i+1) }), HTML, "markdown_too_complex", 0},
	{"consecutive link definitions", repeatUnits(20_000, func(i int) string { return fmt.Sprintf("[l%d]: u\n", i) }), HTML, "markdown_too_complex", 0},
	{"autolink candidates", strings.Repeat("www.a.com ", 100_000), HTML, "markdown_too_complex", 0},
	{"raw HTML openers", strings.Repeat("<a ", 100_000), HTML, "markdown_too_complex", 0},
	{"nested quotes", strings.Repeat("> ", 20_000) + "a", HTML, "nesting_too_deep", 0},
	{"quotes of lists", strings.Repeat("> - ", 20_000) + "a", HTML, "nesting_too_deep", 0},
	{"nested lists", repeatUnits(1_000, func(i int) string { return strings.Repeat("  ", i) + "* a\n" }), DOCX, "nesting_too_deep", 0},
	{"quote lines of changing depth", repeatUnits(56_000, func(i int) string { return strings.Repeat(">", i%30+1) + " a\n" }), HTML, "markdown_too_complex", 0},
	// Rows and cells are counted on the block parse: 24 000 block nodes
	// (rendering them as slides took 3.5 s of CPU and 28 MB of heap).
	{"table of 8000 rows as slides", "|a|b|\n|-|-|\n" + strings.Repeat("|c|d|\n", 8_000), PPTX, "markdown_too_complex", 16 << 20},
	{"1 MiB of text as PDF", strings.Repeat("word ", 209_715), PDF, "markdown_too_complex", 0},
	// The pre-scan's block parse holds 50 000 paragraph nodes (rendering
	// them took 165 MB before the PDF was even written).
	{"50 000 paragraphs as PDF", strings.Repeat("a\n\n", 50_000), PDF, "markdown_too_complex", 40 << 20},
}

// TestHostileMarkdownRefused: every hostile input is refused with a typed
// *LimitError before goldmark parses it, allocating a small part of what
// parsing and rendering it did.
func TestHostileMarkdownRefused(t *testing.T) {
	for _, tc := range hostileMarkdown {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			alloc := allocs.Bytes(func() { _, err = RenderFile(context.Background(), tc.format, []byte(tc.src), "t") })
			var le *LimitError
			if !errors.As(err, &le) || le.Reason != tc.reason {
				t.Fatalf("got %v, want reason %s", err, tc.reason)
			}
			// The pre-scan's block parse holds the lines of the input, not the
			// nodes of every delimiter: a few times the input at most.
			limit := tc.maxAlloc
			if limit == 0 {
				limit = 8*uint64(len(tc.src)) + 1<<20
			}
			t.Logf("allocated %d bytes for %d bytes of input", alloc, len(tc.src))
			if alloc > limit {
				t.Errorf("allocated %d bytes for %d bytes of input (limit %d)", alloc, len(tc.src), limit)
			}
		})
	}
}

// TestPrescanCounts pins what the pre-scan counts on small inputs, so the
// cost model rests on the features it claims. Blocks count block nodes below
// the document; segments of a block exclude line ends; table cells exclude
// their pipes.
func TestPrescanCounts(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want Complexity
	}{
		{"plain text\n", Complexity{Bytes: 11, Lines: 1, InlineLines: 1, Blocks: 1}},
		// Three delimiter runs of each kind... six runs per emphasis pair:
		// *, *, **, **, ~~, ~~ = 6 runs, squared.
		{"*a* **b** ~~c~~\n", Complexity{Bytes: 16, Lines: 1, Markup: 10, InlineWork: 6 * 6, InlineLines: 1, Blocks: 1}},
		// ']' and two backtick runs scan the rest of their 10-byte block;
		// the line starts with '[' (a possible link definition): 1 x 1.
		{"[a](b) `c`\n", Complexity{Bytes: 11, Lines: 1, Markup: 6, InlineWork: 3 * 10, DefinitionWork: 1, InlineLines: 1, Blocks: 1}},
		{"x <y> www.z.com a@b.c http://d\n", Complexity{Bytes: 31, Lines: 1, Markup: 1, Scanners: 4, InlineLines: 1, Blocks: 1}},
		// Escaped delimiters are markup but pair with nothing.
		{"\\*a\\*\n", Complexity{Bytes: 6, Lines: 1, Markup: 4, InlineLines: 1, Blocks: 1}},
		// Code blocks are not parsed inline.
		{"```\n*a* [b] <c>\n```\n", Complexity{Bytes: 20, Lines: 3, RawLines: 1, Blocks: 1}},
		// "> - a": quote, list marker, two spaces; ">   - b": quote, marker,
		// four spaces (half of them count).
		{"> - a\n>   - b\n", Complexity{Bytes: 14, Lines: 2, MaxNesting: 4, Nesting: 3 + 4, InlineLines: 2, Blocks: 7}},
		// table, header, row, four cells
		{"|a|b|\n|-|-|\n|c|d|\n", Complexity{Bytes: 18, Lines: 3, InlineLines: 4, Blocks: 7, TableCells: 4, TableRows: 2}},
		{"# h\n## i\n", Complexity{Bytes: 9, Lines: 2, InlineLines: 2, Blocks: 2, Headings: 2}},
		{"- - - -\n", Complexity{Bytes: 8, Lines: 1, Blocks: 1}},
	} {
		got, err := Prescan(context.Background(), []byte(tc.src))
		if err != nil {
			t.Fatalf("%q: %v", tc.src, err)
		}
		if got != tc.want {
			t.Errorf("%q:\n got %+v\nwant %+v", tc.src, got, tc.want)
		}
	}
	// A task list is a paragraph per item: no run of definitions.
	got, err := Prescan(context.Background(), []byte(strings.Repeat("- [ ] a\n", 1000)))
	if err != nil || got.DefinitionWork != 1000 {
		t.Errorf("task list: %+v, %v", got, err)
	}
	// Two lines starting with '[' in a paragraph of three lines: 2 x 3.
	got, err = Prescan(context.Background(), []byte("[a]: u\n[b]: v\nw\n"))
	if err != nil || got.DefinitionWork != 2*3 {
		t.Errorf("link definition run: %+v, %v", got, err)
	}
}

// TestCostBoundary: the largest accepted document of a shape renders; one
// unit more is refused, with the format in the message.
func TestCostBoundary(t *testing.T) {
	unit := "Some *text* with **bold**, `code` and [a link](http://x).\n\n"
	fits := func(n int) bool {
		c, err := Prescan(context.Background(), []byte(strings.Repeat(unit, n)))
		if err != nil {
			t.Fatal(err)
		}
		return c.Check(PDF) == nil
	}
	// n is the first number of units that does not fit. The full run tries
	// every size (about 1 900 pre-scans, seconds); -short bisects.
	n := 1
	if testing.Short() {
		lo := 1
		for n = 2; fits(n); n *= 2 {
			lo = n
		}
		for n-lo > 1 {
			if mid := (lo + n) / 2; fits(mid) {
				lo = mid
			} else {
				n = mid
			}
		}
	} else {
		for fits(n) {
			n++
		}
	}
	if n < 100 {
		t.Fatalf("only %d paragraphs of ordinary Markdown fit a PDF", n-1)
	}
	if _, err := Render(context.Background(), PDF, []byte(strings.Repeat(unit, n-1)), "t"); err != nil {
		t.Fatalf("%d units: %v", n-1, err)
	}
	_, err := Render(context.Background(), PDF, []byte(strings.Repeat(unit, n)), "t")
	var le *LimitError
	if !errors.As(err, &le) || le.Reason != "markdown_too_complex" || !strings.Contains(le.Message, "as pdf") {
		t.Fatalf("%d units: got %v", n, err)
	}
	// The same document is still cheap enough for the lighter formats.
	for _, f := range []Format{HTML, TXT, DOCX} {
		if _, err := Render(context.Background(), f, []byte(strings.Repeat(unit, n)), "t"); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// TestPrescanContext: a cancelled context ends the pre-scan.
func TestPrescanContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	src := strings.Repeat("line\n", 10_000)
	if _, err := Prescan(ctx, []byte(src)); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
}

// TestCSVFormulaNeutralized: cells that a spreadsheet would run as formulas
// (OWASP CSV injection: a leading =, +, -, @, tab or carriage return) are
// written behind a single quote and counted; plain numbers are not.
func TestCSVFormulaNeutralized(t *testing.T) {
	src := "| a | b | c |\n|---|---|---|\n" +
		"| =1+2 | +SUM(A1) | -42 |\n" +
		"| @cmd | -2+3 | +5 |\n" +
		"| =HYPERLINK(\"http://x\") | 1e5 | -.5 |\n" +
		"| plain | - | +- |\n"
	out, err := RenderFile(context.Background(), CSV, []byte(src), "t")
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(out.Data, []byte("\uFEFF")))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{"a", "b", "c"},
		{"'=1+2", "'+SUM(A1)", "-42"},
		{"'@cmd", "'-2+3", "+5"},
		{`'=HYPERLINK("http://x")`, "1e5", "-.5"},
		{"plain", "'-", "'+-"},
	}
	if fmt.Sprint(recs) != fmt.Sprint(want) {
		t.Fatalf("got %q\nwant %q", recs, want)
	}
	if out.FormulasNeutralized != 7 {
		t.Fatalf("neutralized %d cells, want 7", out.FormulasNeutralized)
	}
	for _, s := range []string{"\tx", "\rx"} {
		if got, changed := neutralizeFormula(s); !changed || got != "'"+s {
			t.Errorf("%q: got %q, %v", s, got, changed)
		}
	}
}

// TestXLSXCellsAreNeverFormulas: excelize writes text cells as strings, so a
// cell that looks like a formula is shown, not evaluated; nothing needs to
// be neutralized there.
func TestXLSXCellsAreNeverFormulas(t *testing.T) {
	src := "| a | b |\n|---|---|\n| =1+2 | @SUM(A1:A2) |\n| +3 | -4 |\n"
	out, err := Render(context.Background(), XLSX, []byte(src), "t")
	if err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenReader(bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sheet := f.GetSheetName(0)
	for _, cell := range []string{"A2", "B2", "A3"} {
		formula, err := f.GetCellFormula(sheet, cell)
		if err != nil || formula != "" {
			t.Errorf("%s: formula %q, %v", cell, formula, err)
		}
		typ, err := f.GetCellType(sheet, cell)
		if err != nil || (typ != excelize.CellTypeSharedString && typ != excelize.CellTypeInlineString) {
			t.Errorf("%s: type %v, %v; want a string", cell, typ, err)
		}
	}
	if v, _ := f.GetCellValue(sheet, "A2"); v != "=1+2" {
		t.Errorf("A2 = %q", v)
	}
	// -4 is a plain number and stored as one.
	if typ, _ := f.GetCellType(sheet, "B3"); typ == excelize.CellTypeSharedString || typ == excelize.CellTypeInlineString {
		t.Errorf("B3 is stored as text")
	}
}

// TestPPTXHardBreaksSplit: a paragraph of many hard-broken short lines is
// longer than a slide by PlainText's count (breaks count) but was not split
// by splitRuns (which skipped breaks), so addPara recursed on the same
// paragraph until the stack overflowed, a fatal error that no recover stops.
// It continues on "(cont.)" slides now.
func TestPPTXHardBreaksSplit(t *testing.T) {
	out, err := Render(context.Background(), PPTX, []byte(strings.Repeat("a  \n", 2000)), "t")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for name := range zipParts(t, out) {
		if strings.HasPrefix(name, "ppt/slides/slide") {
			n++
		}
	}
	// 2000 one-character lines and 2000 breaks: 4000 characters at most
	// (maxBodyLines-1)*charsPerLine = 810 per slide, plus the title slide.
	if n < 1+4000/810 {
		t.Fatalf("%d slides", n)
	}
}
