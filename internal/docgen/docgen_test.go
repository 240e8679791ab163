package docgen

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/xuri/excelize/v2"
	"golang.org/x/net/html"
)

func sample(t testing.TB) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/sample.md")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func render(t testing.TB, f Format, src []byte) []byte {
	t.Helper()
	b, err := Render(context.Background(), f, src, "output")
	if err != nil {
		t.Fatalf("%s: %v", f, err)
	}
	return b
}

// zipParts opens an OOXML package, checks every XML part is well-formed and
// returns the parts by name.
func zipParts(t *testing.T, data []byte) map[string]string {
	return zipPartsOpt(t, data, true)
}

// zipPartsOpt: ours checks what our own writer promises (content types first,
// fixed timestamps); excelize writes zero timestamps in its own order.
func zipPartsOpt(t *testing.T, data []byte, ours bool) map[string]string {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	parts := map[string]string{}
	for i, f := range zr.File {
		if ours && i == 0 && f.Name != "[Content_Types].xml" {
			t.Errorf("first entry %q, want [Content_Types].xml", f.Name)
		}
		if ours && !f.Modified.Equal(zipEpoch) {
			t.Errorf("%s: timestamp %v, want fixed", f.Name, f.Modified)
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		if _, dup := parts[f.Name]; dup {
			t.Errorf("duplicate entry %s", f.Name)
		}
		parts[f.Name] = string(b)
		if strings.HasSuffix(f.Name, ".xml") || strings.HasSuffix(f.Name, ".rels") {
			wellFormed(t, f.Name, b)
		}
	}
	return parts
}

func wellFormed(t *testing.T, name string, b []byte) {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(b))
	d.Strict = true
	for {
		_, err := d.Token()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatalf("%s is not well-formed XML: %v", name, err)
		}
	}
}

var (
	overrideRe = regexp.MustCompile(`<Override PartName="/([^"]+)"`)
	relRe      = regexp.MustCompile(`<Relationship Id="([^"]+)" Type="[^"]+" Target="([^"]+)"( TargetMode="External")?/>`)
)

// checkPackage verifies content types and relationships: every part has a content
// type, every override names an existing part, every internal relationship target
// exists.
func checkPackage(t *testing.T, parts map[string]string) {
	t.Helper()
	ct := parts["[Content_Types].xml"]
	overrides := map[string]bool{}
	for _, m := range overrideRe.FindAllStringSubmatch(ct, -1) {
		overrides[m[1]] = true
		if _, ok := parts[m[1]]; !ok {
			t.Errorf("content type override for missing part %s", m[1])
		}
	}
	for name := range parts {
		if name == "[Content_Types].xml" || strings.HasSuffix(name, ".rels") {
			continue
		}
		if !overrides[name] {
			t.Errorf("part %s has no content type override", name)
		}
	}
	for name, body := range parts {
		if !strings.HasSuffix(name, ".rels") {
			continue
		}
		// _rels/x.xml.rels belongs to x.xml; targets are relative to x's folder.
		dir := strings.TrimSuffix(name[:strings.Index(name, "_rels/")], "/")
		ids := map[string]bool{}
		for _, m := range relRe.FindAllStringSubmatch(body, -1) {
			if ids[m[1]] {
				t.Errorf("%s: duplicate id %s", name, m[1])
			}
			ids[m[1]] = true
			if m[3] != "" {
				continue
			}
			target := m[2]
			base := dir
			for strings.HasPrefix(target, "../") {
				target = target[3:]
				if i := strings.LastIndex(base, "/"); i >= 0 {
					base = base[:i]
				} else {
					base = ""
				}
			}
			full := target
			if base != "" {
				full = base + "/" + target
			}
			if _, ok := parts[full]; !ok {
				t.Errorf("%s: relationship %s targets missing part %s", name, m[1], full)
			}
		}
	}
}

func TestRenderEveryFormat(t *testing.T) {
	src := sample(t)
	for _, f := range Formats {
		t.Run(string(f), func(t *testing.T) {
			out := render(t, f, src)
			again := render(t, f, src)
			if !bytes.Equal(out, again) {
				t.Fatal("two renderings of the same input differ")
			}
			switch f {
			case HTML:
				checkHTML(t, out)
			case MD:
				if !bytes.Equal(out, src) {
					t.Fatal("md output is not the content as written")
				}
			case TXT:
				checkTXT(t, string(out))
			case CSV:
				checkCSV(t, out)
			case XLSX:
				checkXLSX(t, out)
			case DOCX:
				checkDOCX(t, out)
			case PPTX:
				checkPPTX(t, out)
			case PDF:
				checkPDF(t, out)
			}
		})
	}
}

func checkHTML(t *testing.T, out []byte) {
	s := string(out)
	if !strings.HasPrefix(s, "<!DOCTYPE html>\n") {
		t.Error("no doctype")
	}
	for _, bad := range []string{"<script", "alert(", "javascript:"} {
		if strings.Contains(strings.ToLower(s), bad) {
			t.Errorf("html contains %q", bad)
		}
	}
	doc, err := html.Parse(bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	var title string
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			count[n.Data]++
			if n.Data == "title" && n.FirstChild != nil {
				title = n.FirstChild.Data
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	if title != "Quarterly Report — Müller & Söhne" {
		t.Errorf("title %q", title)
	}
	want := map[string]int{"h1": 1, "h2": 3, "h3": 1, "table": 2, "ul": 3, "ol": 1, "pre": 1, "strong": 3, "em": 3, "del": 1, "a": 2, "blockquote": 1, "hr": 1, "br": 1, "script": 0}
	for el, n := range want {
		if count[el] != n {
			t.Errorf("<%s>: %d, want %d", el, count[el], n)
		}
	}
}

func checkTXT(t *testing.T, s string) {
	for _, want := range []string{
		"Quarterly Report — Müller & Söhne\n=================================\n",
		"Prepared for Grüße aus Köln with emphasis, both, struck and inline code.",
		"A link to the spec (https://example.com/spec?a=1&b=2) and https://example.org.",
		"  - Nested bullet\n",
		"3. Step three\n",
		"- [x] done task\n",
		"| Nord   |  1234.5 |  0.12  | gut  |\n",
		"| 東京   | 1000000 |   0    | ok   |\n", // wide characters take two columns
		"    \tfmt.Println(\"Grüße, 世界\")\n",
		"> A quoted remark with style.\n",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("txt lacks %q", want)
		}
	}
	if strings.Contains(s, "alert") || strings.Contains(s, "**") {
		t.Error("txt contains raw HTML or emphasis markers")
	}
}

func checkCSV(t *testing.T, out []byte) {
	if !bytes.HasPrefix(out, []byte("\uFEFF")) {
		t.Fatal("no UTF-8 BOM")
	}
	if !bytes.Contains(out, []byte("\r\n")) {
		t.Fatal("no CRLF line ends")
	}
	recs, err := csv.NewReader(bytes.NewReader(out[3:])).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"Region", "Revenue", "Growth", "Note"}, {"Nord", "1234.5", "0.12", "gut"}, {"Süd", "-42", "1e3", "007"}, {"東京", "1000000", "0", "ok"}}
	if !equalRecords(recs, want) {
		t.Fatalf("csv %q, want %q", recs, want)
	}
}

func equalRecords(a, b [][]string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if strings.Join(a[i], "\x00") != strings.Join(b[i], "\x00") {
			return false
		}
	}
	return true
}

func checkXLSX(t *testing.T, out []byte) {
	parts := zipPartsOpt(t, out, false)
	// excelize keeps parts in maps: check many renderings are byte-identical.
	for i := 0; i < 20; i++ {
		if again := render(t, XLSX, sample(t)); !bytes.Equal(again, out) {
			t.Fatalf("rendering %d differs", i)
		}
	}
	if !strings.Contains(parts["docProps/core.xml"], fixedTimestamp) {
		t.Error("core.xml lacks the fixed timestamp")
	}
	f, err := excelize.OpenReader(bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got := strings.Join(f.GetSheetList(), ","); got != "Figures,Appendix" {
		t.Fatalf("sheets %q", got)
	}
	rows, err := f.GetRows("Figures")
	if err != nil {
		t.Fatal(err)
	}
	// 1e3 is a number: the spreadsheet shows it as 1000.
	want := [][]string{{"Region", "Revenue", "Growth", "Note"}, {"Nord", "1234.5", "0.12", "gut"}, {"Süd", "-42", "1000", "007"}, {"東京", "1000000", "0", "ok"}}
	if !equalRecords(rows, want) {
		t.Fatalf("rows %q, want %q", rows, want)
	}
	// Numbers are stored as numbers (no t="s"), text as shared strings.
	sheet := parts["xl/worksheets/sheet1.xml"]
	for ref, numeric := range map[string]bool{"B2": true, "C3": true, "B4": true, "A2": false, "D3": false, "B1": false} {
		m := regexp.MustCompile(`<c r="` + ref + `"[^>]*>`).FindString(sheet)
		if m == "" {
			t.Errorf("no cell %s", ref)
			continue
		}
		if isStr := strings.Contains(m, `t="s"`); isStr == numeric {
			t.Errorf("cell %s: %s (numeric want %v)", ref, m, numeric)
		}
	}
	v, err := f.GetCellValue("Appendix", "B3")
	if err != nil || v != "2" {
		t.Errorf("Appendix!B3 = %q, %v", v, err)
	}
}

// packageWith returns the parts of our package out after checking that it
// holds every required part and is consistent (checkPackage).
func packageWith(t *testing.T, out []byte, required ...string) map[string]string {
	t.Helper()
	parts := zipParts(t, out)
	for _, p := range required {
		if _, ok := parts[p]; !ok {
			t.Fatalf("missing part %s", p)
		}
	}
	checkPackage(t, parts)
	return parts
}

func checkDOCX(t *testing.T, out []byte) {
	parts := packageWith(t, out, "[Content_Types].xml", "_rels/.rels", "word/document.xml", "word/_rels/document.xml.rels", "word/styles.xml", "word/numbering.xml", "docProps/core.xml")
	doc := parts["word/document.xml"]
	styles := parts["word/styles.xml"]
	for l := 1; l <= 6; l++ {
		if !strings.Contains(styles, `w:styleId="Heading`+string(rune('0'+l))+`"`) {
			t.Errorf("styles lack Heading%d", l)
		}
	}
	for _, want := range []string{
		`<w:pStyle w:val="Heading1"/>`, `<w:pStyle w:val="Heading2"/>`, `<w:pStyle w:val="Heading3"/>`,
		`<w:b/>`, `<w:i/>`, `<w:strike/>`, `<w:numPr>`, `<w:tbl>`, `<w:tblHeader/>`, `<w:hyperlink r:id="rId4">`,
		`<w:pStyle w:val="SourceCode"/>`, `<w:pStyle w:val="Quote"/>`, `Grüße aus Köln`, `中文测试`, `☒ `,
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("document.xml lacks %s", want)
		}
	}
	if strings.Contains(doc, "alert") {
		t.Error("raw HTML reached the document")
	}
	if !strings.Contains(parts["word/_rels/document.xml.rels"], `Target="https://example.com/spec?a=1&amp;b=2" TargetMode="External"`) {
		t.Error("hyperlink relationship missing or unescaped")
	}
	nums := parts["word/numbering.xml"]
	if strings.Count(nums, "<w:num ") != 4 || !strings.Contains(nums, `<w:numFmt w:val="decimal"/>`) || !strings.Contains(nums, `<w:numFmt w:val="bullet"/>`) {
		t.Errorf("numbering.xml: %d num instances", strings.Count(nums, "<w:num "))
	}
}

var slideTitleRe = regexp.MustCompile(`<p:ph type="(?:title|ctrTitle)"/></p:nvPr></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr><a:normAutofit/></a:bodyPr><a:lstStyle/><a:p>(?:<a:pPr algn="ctr"/>)?<a:r><a:rPr lang="en-US" dirty="0"></a:rPr><a:t>([^<]*)</a:t>`)

func checkPPTX(t *testing.T, out []byte) {
	parts := packageWith(t, out, "ppt/presentation.xml", "ppt/_rels/presentation.xml.rels", "ppt/slideMasters/slideMaster1.xml", "ppt/slideLayouts/slideLayout1.xml", "ppt/slideLayouts/slideLayout2.xml", "ppt/theme/theme1.xml", "ppt/slides/slide1.xml")
	nSlides := strings.Count(parts["ppt/presentation.xml"], "<p:sldId ")
	var titles []string
	for i := 1; i <= nSlides; i++ {
		s, ok := parts["ppt/slides/slide"+strconv.Itoa(i)+".xml"]
		if !ok {
			t.Fatalf("slide %d listed but missing", i)
		}
		m := slideTitleRe.FindStringSubmatch(s)
		if m == nil {
			t.Fatalf("slide %d has no title", i)
		}
		titles = append(titles, m[1])
	}
	if _, extra := parts["ppt/slides/slide"+strconv.Itoa(nSlides+1)+".xml"]; extra {
		t.Fatal("more slide parts than listed slides")
	}
	want := []string{"Quarterly Report — Müller &amp; Söhne", "Summary", "Summary (cont.)", "Figures", "Figures (cont.)", "Appendix", "Appendix (cont.)"}
	if strings.Join(titles, "|") != strings.Join(want, "|") {
		t.Errorf("slide titles %q, want %q", titles, want)
	}
	if !strings.Contains(parts["ppt/slides/slide1.xml"], "Grüße aus Köln") {
		t.Error("title slide lacks the subtitle paragraph")
	}
	if !strings.Contains(parts["ppt/slides/slide4.xml"], "<a:tbl>") || strings.Count(parts["ppt/slides/slide4.xml"], "<a:tr ") != 4 {
		t.Error("table slide lacks its 4-row table")
	}
	if !strings.Contains(parts["ppt/slides/slide2.xml"], `<a:buChar char="•"/>`) || !strings.Contains(parts["ppt/slides/slide2.xml"], `lvl="1"`) {
		t.Error("bullets or nested level missing")
	}
}

func checkPDF(t *testing.T, out []byte) {
	p := parsePDF(t, out)
	if len(p.pages) != 1 {
		t.Errorf("%d pages, want 1", len(p.pages))
	}
	text := strings.Join(p.text(t), "")
	for _, want := range []string{"QuarterlyReport—Müller&Söhne", "GrüßeausKöln", "äöüÄÖÜß", "中文测试，日本語のテキスト、한국어", "Region", "東京", "fmt.Println(\"Grüße,世界\")", "☒donetask", "1.Stepone"} {
		if !strings.Contains(text, want) {
			t.Errorf("pdf text lacks %q", want)
		}
	}
	if strings.ContainsRune(text, '\uFFFD') {
		t.Error("pdf text has glyphs without a Unicode mapping")
	}
	if strings.Contains(text, "alert") {
		t.Error("raw HTML reached the PDF")
	}
	if n := strings.Count(string(out), "/Subtype /CIDFontType2"); n != 3 {
		t.Errorf("%d embedded CID fonts, want 3 (sans, mono, CJK)", n)
	}
	if !strings.Contains(string(out), "/URI (https://example.com/spec?a=1&b=2)") {
		t.Error("link annotation missing")
	}
	// Bookmarks: one per heading, nested by level (h1 > three h2, the h3 under
	// "Figures").
	var titles []string
	var sawRoot bool
	for _, o := range p.objs {
		if strings.HasPrefix(o.dict, "<< /Type /Outlines ") {
			sawRoot = true
			if !strings.Contains(o.dict, "/Count 5 ") {
				t.Errorf("outline root %s", o.dict)
			}
		}
		if m := regexp.MustCompile(`^<< /Title <FEFF([0-9A-F]*)> /Parent`).FindStringSubmatch(o.dict); m != nil {
			var units []uint16
			for i := 0; i+4 <= len(m[1]); i += 4 {
				v, _ := strconv.ParseUint(m[1][i:i+4], 16, 16)
				units = append(units, uint16(v))
			}
			titles = append(titles, string(utf16.Decode(units)))
			if !strings.Contains(o.dict, "/Dest [") {
				t.Errorf("bookmark without destination: %s", o.dict)
			}
		}
	}
	sort.Strings(titles)
	if !sawRoot || strings.Join(titles, "|") != "Appendix|Code|Figures|Quarterly Report — Müller & Söhne|Summary" {
		t.Errorf("bookmarks %q", titles)
	}
}

// TestEdgeCasesStructure renders a document of awkward constructs (tables and
// code inside list items, a heading in a list, empty items, lists and code in
// quotes, a header-only table, entities, emoji, RTL text, a long URL) in every
// format and checks the generic structure.
func TestEdgeCasesStructure(t *testing.T) {
	src, err := os.ReadFile("testdata/edge_cases.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range Formats {
		out := render(t, f, src)
		switch f {
		case DOCX, PPTX:
			checkPackage(t, zipParts(t, out))
		case XLSX:
			zipPartsOpt(t, out, false)
		case PDF:
			p := parsePDF(t, out)
			text := strings.Join(p.text(t), "")
			for _, want := range []string{"nestedcode", "codeinquote", "3.startsatthree", "onlyheader", "*escaped*&©😀"} {
				if !strings.Contains(text, want) {
					t.Errorf("pdf lacks %q", want)
				}
			}
		case HTML:
			if !strings.Contains(string(out), "<ol start=\"3\">") {
				t.Error("html lost the list start")
			}
		}
	}
}

func TestPDFMultiPageAndTableBreak(t *testing.T) {
	var b strings.Builder
	b.WriteString("# Long\n\n| n | square | text |\n|---|---:|---|\n")
	for i := 0; i < 150; i++ {
		b.WriteString("| " + strconv.Itoa(i) + " | " + strconv.Itoa(i*i) + " | Zeile mit Umlauten äöü und 漢字 |\n")
	}
	out := render(t, PDF, []byte(b.String()))
	p := parsePDF(t, out)
	if len(p.pages) < 3 {
		t.Fatalf("%d pages for 150 table rows, want at least 3", len(p.pages))
	}
	pages := p.text(t)
	for i, pg := range pages {
		if !strings.Contains(pg, "nsquaretext") {
			t.Errorf("page %d does not repeat the header row", i+1)
		}
		if num := strconv.Itoa(i+1) + " / " + strconv.Itoa(len(pages)); !strings.HasSuffix(pg, num) {
			t.Errorf("page %d does not end with its number %s", i+1, num)
		}
	}
	all := strings.Join(pages, "")
	for _, want := range []string{"149", "22201", "Zeilemit"} {
		if !strings.Contains(all, want) {
			t.Errorf("missing %q", want)
		}
	}
}

func TestLimitsAndInputErrors(t *testing.T) {
	wide := "|" + strings.Repeat(" c |", 65) + "\n|" + strings.Repeat("---|", 65) + "\n"
	cases := []struct {
		name   string
		format Format
		src    string
		reason string
		limit  bool
	}{
		{"deep quotes", HTML, strings.Repeat(">", 40) + " x", "nesting_too_deep", true},
		{"deep lists", DOCX, nestedList(40), "nesting_too_deep", true},
		{"wide table", XLSX, wide, "too_many_columns", true},
		{"many slides", PPTX, strings.Repeat("## s\n\nx\n\n", 1001), "too_many_slides", true},
		{"many heading slides", PPTX, strings.Repeat("# h\n", 1200), "too_many_slides", true},
		// 10 001 rows would make 1001 slides, but cost more than the pre-scan
		// allows: refused before parsing (TestTableSlideLimit checks the
		// slide limit on the document model directly).
		{"many table slides", PPTX, "| a |\n|---|\n" + strings.Repeat("| 1 |\n", 10*1000+1), "markdown_too_complex", true},
		// Likewise 10 001 bullets (TestSlideLimitBeyondPrescan).
		{"many bullets", PPTX, strings.Repeat("- a\n", 10*1000+1), "markdown_too_complex", true},
		{"many sheets", XLSX, strings.Repeat("| a |\n|---|\n| 1 |\n\n", 256), "too_many_tables", true},
		{"csv no table", CSV, "# nothing\n", "no_table", false},
		{"xlsx no table", XLSX, "text", "no_table", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Render(context.Background(), c.format, []byte(c.src), "t")
			var le *LimitError
			var ie *InputError
			switch {
			case c.limit && errors.As(err, &le):
				if le.Reason != c.reason {
					t.Fatalf("reason %q, want %q", le.Reason, c.reason)
				}
			case !c.limit && errors.As(err, &ie):
				if ie.Reason != c.reason {
					t.Fatalf("reason %q, want %q", ie.Reason, c.reason)
				}
			default:
				t.Fatalf("err %v, want reason %s", err, c.reason)
			}
		})
	}
}

// TestSlideLimitBeyondPrescan: the PPTX writer itself stops at MaxSlides for
// a table that continues over slides and for bullets that do (the pre-scan
// refuses both before they are parsed, so the document model is built here
// without it).
func TestSlideLimitBeyondPrescan(t *testing.T) {
	for _, src := range []string{
		"| a |\n|---|\n" + strings.Repeat("| 1 |\n", 10*1000+1),
		strings.Repeat("- a\n", 10*1000+1),
	} {
		doc, err := Parse(context.Background(), []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		_, err = renderPPTX(context.Background(), doc, "t")
		var le *LimitError
		if !errors.As(err, &le) || le.Reason != "too_many_slides" {
			t.Fatalf("%.20q: got %v, want too_many_slides", src, err)
		}
	}
}

func nestedList(depth int) string {
	var b strings.Builder
	for i := 0; i < depth; i++ {
		b.WriteString(strings.Repeat("  ", i) + "- item\n")
	}
	return b.String()
}

func TestSlideLimitIsExact(t *testing.T) {
	// 999 heading slides + the title slide = 1000: allowed.
	out, err := Render(context.Background(), PPTX, []byte(strings.Repeat("## h\n", 999)), "t")
	if err != nil {
		t.Fatal(err)
	}
	zr, _ := zip.NewReader(bytes.NewReader(out), int64(len(out)))
	n := 0
	for _, f := range zr.File {
		if strings.HasPrefix(f.Name, "ppt/slides/slide") {
			n++
		}
	}
	if n != MaxSlides {
		t.Fatalf("%d slides, want %d", n, MaxSlides)
	}
	if _, err := Render(context.Background(), PPTX, []byte(strings.Repeat("## h\n", 1000)), "t"); err == nil {
		t.Fatal("1001 slides accepted")
	}
}

func TestDeckWithoutLeadingHeading(t *testing.T) {
	out, err := Render(context.Background(), PPTX, []byte("Intro text.\n\n## Later\n\nmore\n"), "Quartalsbericht")
	if err != nil {
		t.Fatal(err)
	}
	parts := zipParts(t, out)
	var titles []string
	for i := 1; i <= 3; i++ {
		m := slideTitleRe.FindStringSubmatch(parts["ppt/slides/slide"+strconv.Itoa(i)+".xml"])
		if m == nil {
			t.Fatalf("slide %d has no title", i)
		}
		titles = append(titles, m[1])
	}
	if strings.Join(titles, "|") != "Quartalsbericht|Quartalsbericht|Later" {
		t.Fatalf("titles %q", titles)
	}
}

func TestLongParagraphContinuesOnSlides(t *testing.T) {
	var words []string
	for i := 0; i < 1500; i++ {
		words = append(words, "w"+strconv.Itoa(i))
	}
	src := "## Long\n\n" + strings.Join(words, " ") + "\n"
	parts := zipParts(t, render(t, PPTX, []byte(src)))
	var all strings.Builder
	slides := 0
	for i := 2; ; i++ {
		body, ok := parts["ppt/slides/slide"+strconv.Itoa(i)+".xml"]
		if !ok {
			break
		}
		slides++
		for _, m := range regexp.MustCompile(`<a:t>([^<]*)</a:t>`).FindAllStringSubmatch(body, -1)[1:] {
			all.WriteString(m[1])
		}
	}
	if slides < 3 {
		t.Fatalf("%d slides for a 9000-character paragraph", slides)
	}
	if all.String() != strings.Join(words, " ") {
		t.Fatal("text lost or changed when split across slides")
	}
}

func TestDeepListPDF(t *testing.T) {
	// 32 levels (the maximum) with long words: indentation is capped, the text
	// still wraps inside the page.
	src := nestedList(32) + strings.Repeat("  ", 31) + "- " + strings.Repeat("Donaudampfschifffahrt ", 40) + "\n"
	p := parsePDF(t, render(t, PDF, []byte(src)))
	if !strings.Contains(strings.Join(p.text(t), ""), "DonaudampfschifffahrtDonaudampfschifffahrt") {
		t.Fatal("text missing")
	}
	tm := regexp.MustCompile(`1 0 (?:0|0\.2) 1 (-?[0-9.]+) (-?[0-9.]+) Tm`)
	n := 0
	for _, o := range p.objs {
		for _, m := range tm.FindAllSubmatch(o.stream, -1) {
			x, _ := strconv.ParseFloat(string(m[1]), 64)
			y, _ := strconv.ParseFloat(string(m[2]), 64)
			n++
			if x < pMargin-1 || x > pageW-pMargin-20 || y < pMargin/2 || y > pageH-pMargin {
				t.Fatalf("text placed at (%v, %v), outside the page's text area", x, y)
			}
		}
	}
	if n < 40 {
		t.Fatalf("only %d text runs", n)
	}
}

func TestCanceledContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	big := bytes.Repeat(sample(t), 20)
	for _, f := range Formats {
		if f == MD {
			continue
		}
		if _, err := Render(ctx, f, big, "t"); !errors.Is(err, context.Canceled) {
			t.Errorf("%s: err %v, want context.Canceled", f, err)
		}
	}
}

func TestUnsafeLinksAndRawHTML(t *testing.T) {
	src := []byte("[click](javascript:alert(1)) [data](data:text/html,x) [ok](https://ok.example/) <b onclick=\"x()\">raw</b>\n\n<div>block</div>\n")
	h := string(render(t, HTML, src))
	for _, bad := range []string{"javascript:", "data:text", "onclick", "<div>", "<b "} {
		if strings.Contains(h, bad) {
			t.Errorf("html contains %q", bad)
		}
	}
	if !strings.Contains(h, `href="https://ok.example/"`) {
		t.Error("safe link lost")
	}
	d := zipParts(t, render(t, DOCX, src))
	if strings.Contains(d["word/_rels/document.xml.rels"], "javascript") || strings.Contains(d["word/document.xml"], "block") {
		t.Error("docx kept an unsafe link or raw HTML")
	}
	txt := string(render(t, TXT, src))
	if strings.Contains(txt, "javascript") || strings.Contains(txt, "onclick") {
		t.Errorf("txt: %q", txt)
	}
}

func TestAsNumber(t *testing.T) {
	for s, want := range map[string]bool{
		"0": true, "-42": true, "1234.5": true, "1e3": true, "-0.001": true, "123456789012345": true,
		"1234567890123456": false, "007": false, "1,000": false, "5%": false, "": false, "+1": false,
		"1.": false, ".5": false, "1e999": false, "NaN": false, "Inf": false, "0x10": false, "12.3400": true,
	} {
		if got := asNumber(s); got != want {
			t.Errorf("asNumber(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestSheetNames(t *testing.T) {
	got := sheetNames([]string{"Sales [EUR]: Q1/Q2?", "", "Sales (EUR)- Q1-Q2", "sales (eur)- q1-q2", strings.Repeat("x", 40)})
	want := []string{"Sales (EUR)- Q1-Q2", "Table 2", "Sales (EUR)- Q1-Q2 (2)", "sales (eur)- q1-q2 (3)", strings.Repeat("x", 31)}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestParseFormat(t *testing.T) {
	for in, want := range map[string]Format{"markdown": MD, "text": TXT, "ppt": PPTX, "powerpoint": PPTX, " PDF ": PDF, "xlsx": XLSX, "csv": CSV, "html": HTML, "docx": DOCX} {
		if got, ok := ParseFormat(in); !ok || got != want {
			t.Errorf("ParseFormat(%q) = %q, %v", in, got, ok)
		}
	}
	if _, ok := ParseFormat("exe"); ok {
		t.Error("exe accepted")
	}
}

func TestSubsetFontParses(t *testing.T) {
	fs, err := loadFonts()
	if err != nil {
		t.Fatal(err)
	}
	for _, slot := range []int{fSans, fCJK} {
		f := fs[slot]
		gs := newGlyphSet()
		text := "中文한국어ü"
		if slot == fSans {
			text = "Ǘǘ ÄÖÜ äöü ß" // precomposed letters are often composite glyphs
		}
		var want []uint16
		for _, r := range text {
			g, ok := f.glyph(r)
			if !ok {
				t.Fatalf("font %s lacks %q", f.name, r)
			}
			gs.cid(g, r)
			want = append(want, g)
		}
		sub := f.subset(gs)
		if len(sub) > 64<<10 {
			t.Errorf("%s: subset is %d bytes", f.name, len(sub))
		}
		if checksum(sub) != 0xB1B0AFBA {
			t.Errorf("%s: file checksum %#x, want 0xB1B0AFBA", f.name, checksum(sub))
		}
		g, err := parseTTFNoCmap(sub)
		if err != nil {
			t.Fatal(err)
		}
		if g.numGlyphs != len(gs.order) {
			t.Fatalf("%s: %d glyphs in the subset, %d numbered", f.name, g.numGlyphs, len(gs.order))
		}
		for _, old := range want {
			cid := gs.ids[old]
			if old != 0 && len(f.glyphData(int(old))) > 0 && len(g.glyphData(int(cid))) == 0 {
				t.Errorf("%s: glyph %d (cid %d) lost its outline", f.name, old, cid)
			}
			if g.advance(cid) != f.advance(old) {
				t.Errorf("%s: cid %d advance %d, want %d", f.name, cid, g.advance(cid), f.advance(old))
			}
		}
		// Composite glyphs refer to components by CID, inside the subset.
		for cid := 0; cid < g.numGlyphs; cid++ {
			gd := g.glyphData(cid)
			if len(gd) >= 10 {
				if nc, _ := i16(gd, 0); nc < 0 {
					comp, _ := u16(gd, 12)
					if comp >= g.numGlyphs {
						t.Errorf("%s: cid %d refers to component %d outside the subset", f.name, cid, comp)
					}
				}
			}
		}
	}
}

// parseTTFNoCmap parses a subset (which has no cmap) for the test above.
func parseTTFNoCmap(data []byte) (*ttFont, error) {
	tables := map[string][]byte{}
	f := &ttFont{data: data, tables: tables}
	n, _ := u16(data, 4)
	for i := 0; i < n; i++ {
		rec := 12 + 16*i
		off, _ := u32(data, rec+8)
		l, _ := u32(data, rec+12)
		tables[string(data[rec:rec+4])] = data[off : off+l]
	}
	f.numHMetrics, _ = u16(tables["hhea"], 34)
	f.numGlyphs, _ = u16(tables["maxp"], 4)
	lf, _ := i16(tables["head"], 50)
	f.locaLong = lf == 1
	if f.numHMetrics == 0 || !f.locaLong || len(tables["loca"]) != 4*(f.numGlyphs+1) {
		return nil, errBadFont
	}
	return f, nil
}
