package docgen

import (
	"bytes"
	"compress/zlib"
	"context"
	"crypto/sha256"
	_ "embed"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf16"
)

//go:embed fonts/DejaVuSans.ttf
var fontSans []byte

//go:embed fonts/DejaVuSansMono.ttf
var fontMono []byte

//go:embed fonts/wqy-microhei.ttc
var fontCJK []byte

// Font slots of a PDF: 0 = sans, 1 = mono, 2 = CJK fallback.
const (
	fSans = iota
	fMono
	fCJK
	numFonts
)

var (
	fontsOnce sync.Once
	fonts     [numFonts]*ttFont
	fontsErr  error
)

func loadFonts() ([numFonts]*ttFont, error) {
	fontsOnce.Do(func() {
		for i, d := range []struct {
			name string
			data []byte
		}{{"DejaVuSans", fontSans}, {"DejaVuSansMono", fontMono}, {"WenQuanYiMicroHei", fontCJK}} {
			f, err := parseTTF(d.name, d.data)
			if err != nil {
				fontsErr = fmt.Errorf("font %s: %w", d.name, err)
				return
			}
			fonts[i] = f
		}
	})
	return fonts, fontsErr
}

// Page geometry in points (A4).
const (
	pageW    = 595.28
	pageH    = 841.89
	pMargin  = 56.69 // 20 mm
	contentW = pageW - 2*pMargin
	bodySize = 10.5
	codeSize = 9.0
	cellPad  = 4.0
	leadMul  = 1.35
	// MaxPDFPages bounds the output; a larger document is a *LimitError.
	MaxPDFPages = 2000
)

var headingPt = [6]float64{20, 16, 13.5, 12, 11, 10.5}

// textStyle is the style of a run of text as the PDF draws it.
type textStyle struct {
	size   float64
	bold   bool
	italic bool
	strike bool
	code   bool
	link   string
	gray   bool
}

// atom is an unbreakable piece of a line: a word, a space, one CJK character or
// a hard line break.
type atom struct {
	text  string
	st    textStyle
	space bool
	nl    bool
	w     float64
}

type placed struct {
	atom
	x float64
}

type pdfLine struct {
	atoms  []placed
	height float64
}

type pdfPage struct {
	content bytes.Buffer
	annots  []string
}

type pdfWriter struct {
	ticker // checks the context every 16 blocks
	fonts  [numFonts]*ttFont
	// low caches fontFor for runes below len(low[0]) (code and body text):
	// the font choice takes up to three cmap lookups and runs several times
	// per character.
	low     [2][0x800]fontChoice
	glyphs  [numFonts]*glyphSet
	outline []outlineItem // headings, for the PDF bookmarks
	pages   []*pdfPage
	page    *pdfPage
	y       float64
}

func renderPDF(ctx context.Context, doc *Document, title string) ([]byte, error) {
	fs, err := loadFonts()
	if err != nil {
		return nil, err
	}
	w := &pdfWriter{ticker: newTicker(ctx, 16), fonts: fs}
	for i := range w.glyphs {
		w.glyphs[i] = newGlyphSet()
	}
	if err := w.newPage(); err != nil {
		return nil, err
	}
	if err := w.blocks(doc.Blocks, 0); err != nil {
		return nil, err
	}
	return w.finish(title)
}

func (w *pdfWriter) newPage() error {
	if len(w.pages) >= MaxPDFPages {
		return &LimitError{Reason: "too_many_pages", Message: fmt.Sprintf("the PDF would have more than %d pages", MaxPDFPages)}
	}
	w.page = &pdfPage{}
	w.pages = append(w.pages, w.page)
	w.y = pageH - pMargin
	return nil
}

// ensure starts a new page unless h points fit above the bottom margin.
func (w *pdfWriter) ensure(h float64) error {
	if w.y-h < pMargin && w.y < pageH-pMargin-0.1 {
		return w.newPage()
	}
	return nil
}

// fontFor picks the font slot and glyph for a rune: the style's primary font when
// it has the glyph, else the other Latin font, else the CJK fallback, else the
// primary font's .notdef.
func (w *pdfWriter) fontFor(r rune, code bool) (int, uint16) {
	if r >= 0 && int(r) < len(w.low[0]) {
		k := 0
		if code {
			k = 1
		}
		c := &w.low[k][r]
		if !c.known {
			slot, g := w.pickFont(r, code)
			*c = fontChoice{known: true, slot: uint8(slot), glyph: g}
		}
		return int(c.slot), c.glyph
	}
	return w.pickFont(r, code)
}

// fontChoice is a cached result of pickFont.
type fontChoice struct {
	known bool
	slot  uint8
	glyph uint16
}

func (w *pdfWriter) pickFont(r rune, code bool) (int, uint16) {
	order := [3]int{fSans, fMono, fCJK}
	if code {
		order = [3]int{fMono, fSans, fCJK}
	}
	for _, slot := range order {
		if g, ok := w.fonts[slot].glyph(r); ok {
			return slot, g
		}
	}
	return order[0], 0
}

func (w *pdfWriter) runeWidth(r rune, st textStyle) float64 {
	slot, g := w.fontFor(r, st.code)
	f := w.fonts[slot]
	return float64(f.advance(g)) * st.size / float64(f.unitsPerEm)
}

func (w *pdfWriter) textWidth(s string, st textStyle) float64 {
	var t float64
	for _, r := range s {
		t += w.runeWidth(r, st)
	}
	return t
}

// breaksAlone reports whether a line may break before and after r (CJK scripts
// have no spaces between words).
func breaksAlone(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) ||
		(r >= 0x3000 && r <= 0x303F) || (r >= 0xFF00 && r <= 0xFFEF)
}

func (w *pdfWriter) atoms(in []Inline, base textStyle) []atom {
	var out []atom
	for _, r := range in {
		if r.Break {
			out = append(out, atom{nl: true})
			continue
		}
		st := base
		st.bold = st.bold || r.Bold
		st.italic = st.italic || r.Italic
		st.strike = r.Strike
		st.code = st.code || r.Code
		st.link = r.Link
		var word strings.Builder
		flush := func() {
			if word.Len() > 0 {
				s := word.String()
				out = append(out, atom{text: s, st: st, w: w.textWidth(s, st)})
				word.Reset()
			}
		}
		for _, c := range r.Text {
			switch {
			case c == '\t':
				c = ' '
				fallthrough
			case c == ' ' || c == '\n':
				flush()
				out = append(out, atom{text: " ", st: st, space: true, w: w.runeWidth(' ', st)})
			case unicode.IsControl(c):
			case breaksAlone(c):
				flush()
				out = append(out, atom{text: string(c), st: st, w: w.runeWidth(c, st)})
			default:
				word.WriteRune(c)
			}
		}
		flush()
	}
	return out
}

// wrap breaks atoms into lines no wider than width.
func (w *pdfWriter) wrap(atoms []atom, width float64, minSize float64) []pdfLine {
	var lines []pdfLine
	var cur pdfLine
	x := 0.0
	pendingSpace := 0.0
	var spaceAtom *atom
	emit := func() {
		lines = append(lines, cur)
		cur = pdfLine{}
		x, pendingSpace, spaceAtom = 0, 0, nil
	}
	add := func(a atom) {
		if spaceAtom != nil && len(cur.atoms) > 0 {
			cur.atoms = append(cur.atoms, placed{*spaceAtom, x})
			x += pendingSpace
		}
		spaceAtom, pendingSpace = nil, 0
		cur.atoms = append(cur.atoms, placed{a, x})
		x += a.w
		cur.height = max(cur.height, a.st.size*leadMul)
	}
	for _, a := range atoms {
		switch {
		case a.nl:
			if cur.height == 0 {
				cur.height = minSize * leadMul
			}
			emit()
		case a.space:
			if len(cur.atoms) > 0 {
				aa := a
				spaceAtom, pendingSpace = &aa, a.w
			}
		default:
			if len(cur.atoms) > 0 && x+pendingSpace+a.w > width {
				emit()
			}
			if a.w > width {
				// A word wider than the line is broken between characters.
				var part strings.Builder
				pw := 0.0
				for _, r := range a.text {
					rw := w.runeWidth(r, a.st)
					if pw+rw > width-x && (part.Len() > 0 || len(cur.atoms) > 0) {
						if part.Len() > 0 {
							add(atom{text: part.String(), st: a.st, w: pw})
						}
						emit()
						part.Reset()
						pw = 0
					}
					part.WriteRune(r)
					pw += rw
				}
				if part.Len() > 0 {
					add(atom{text: part.String(), st: a.st, w: pw})
				}
				continue
			}
			add(a)
		}
	}
	if len(cur.atoms) > 0 || len(lines) == 0 {
		if cur.height == 0 {
			cur.height = minSize * leadMul
		}
		lines = append(lines, cur)
	}
	return lines
}

func pdfNum(v float64) string {
	s := strconv.FormatFloat(math.Round(v*100)/100, 'f', -1, 64)
	if s == "-0" {
		return "0"
	}
	return s
}

// drawLine draws one laid-out line with its left edge at x0 and its top at w.y,
// then moves w.y down by the line height.
func (w *pdfWriter) drawLine(l pdfLine, x0 float64) {
	base := w.y - l.height/leadMul*0.95
	c := &w.page.content
	for _, p := range l.atoms {
		if p.space && p.st.link == "" && !p.st.strike {
			continue
		}
		x := x0 + p.x
		st := p.st
		// Split the atom into runs that use one font each.
		type seg struct {
			slot int
			cids []uint16
			adv  int // font units
		}
		var segs []seg
		for _, r := range p.text {
			slot, g := w.fontFor(r, st.code)
			cid := w.glyphs[slot].cid(g, r)
			if n := len(segs); n == 0 || segs[n-1].slot != slot {
				segs = append(segs, seg{slot: slot})
			}
			sg := &segs[len(segs)-1]
			sg.cids = append(sg.cids, cid)
			sg.adv += w.fonts[slot].advance(g)
		}
		color := "0 0 0"
		switch {
		case st.link != "":
			color = "0.02 0.35 0.75"
		case st.gray:
			color = "0.35 0.35 0.35"
		}
		c.WriteString("BT " + color + " rg " + color + " RG\n")
		if st.bold {
			fmt.Fprintf(c, "2 Tr %s w\n", pdfNum(st.size*0.035))
		}
		skew := "0"
		if st.italic {
			skew = "0.2"
		}
		sx := x
		for _, s := range segs {
			f := w.fonts[s.slot]
			fmt.Fprintf(c, "/F%d %s Tf 1 0 %s 1 %s %s Tm <", s.slot+1, pdfNum(st.size), skew, pdfNum(sx), pdfNum(base))
			for _, cid := range s.cids {
				writeHex4(c, cid)
			}
			c.WriteString("> Tj\n")
			sx += float64(s.adv) * st.size / float64(f.unitsPerEm)
		}
		if st.bold {
			c.WriteString("0 Tr\n")
		}
		c.WriteString("ET\n")
		if st.link != "" || st.strike {
			y := base - st.size*0.12
			if st.strike {
				y = base + st.size*0.3
			}
			fmt.Fprintf(c, "%s RG %s w %s %s m %s %s l S\n", color, pdfNum(st.size*0.06), pdfNum(x), pdfNum(y), pdfNum(x+p.w), pdfNum(y))
		}
		if st.link != "" && externalLink(st.link) {
			w.page.annots = append(w.page.annots, fmt.Sprintf("<< /Type /Annot /Subtype /Link /Rect [%s %s %s %s] /Border [0 0 0] /A << /S /URI /URI %s >> >>",
				pdfNum(x), pdfNum(base-st.size*0.25), pdfNum(x+p.w), pdfNum(base+st.size*0.85), pdfASCIIString(st.link)))
		}
	}
	w.y -= l.height
}

// writeHex4 writes v as four upper-case hex digits (fmt costs ten times more,
// and this runs once per glyph).
func writeHex4(b *bytes.Buffer, v uint16) {
	const hex = "0123456789ABCDEF"
	b.Write([]byte{hex[v>>12], hex[v>>8&15], hex[v>>4&15], hex[v&15]})
}

// pdfASCIIString writes s as a PDF literal string; non-ASCII bytes are
// percent-encoded (URIs are ASCII).
func pdfASCIIString(s string) string {
	var b strings.Builder
	b.WriteByte('(')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '(' || c == ')' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20 || c >= 0x7F:
			fmt.Fprintf(&b, "%%%02X", c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte(')')
	return b.String()
}

// paragraph lays out and draws runs at indentation x0 with the given width.
func (w *pdfWriter) paragraph(in []Inline, st textStyle, x0, width float64, after float64, keepWith float64) error {
	lines := w.wrap(w.atoms(in, st), width, st.size)
	for i, l := range lines {
		if i%64 == 63 {
			if err := w.ctx.Err(); err != nil {
				return err
			}
		}
		need := l.height
		if i == 0 {
			need += keepWith
		}
		if err := w.ensure(need); err != nil {
			return err
		}
		w.drawLine(l, x0)
	}
	w.y -= after
	return nil
}

func (w *pdfWriter) rule(x0, x1, y float64, gray float64, width float64) {
	fmt.Fprintf(&w.page.content, "%s G %s w %s %s m %s %s l S\n", pdfNum(gray), pdfNum(width), pdfNum(x0), pdfNum(y), pdfNum(x1), pdfNum(y))
}

// maxIndent keeps deeply nested lists and quotes at least 2 inches wide.
const maxIndent = contentW - 144

func (w *pdfWriter) blocks(bs []Block, indent float64) error {
	indent = min(indent, maxIndent)
	width := contentW - indent
	x0 := pMargin + indent
	for _, b := range bs {
		if err := w.tick(); err != nil {
			return err
		}
		switch b.Kind {
		case Heading:
			size := headingPt[min(max(b.Level, 1), 6)-1]
			w.y -= size * 0.6
			keep := 3 * bodySize * leadMul
			if err := w.ensure(size*leadMul + keep); err != nil {
				return err
			}
			w.outline = append(w.outline, outlineItem{level: b.Level, title: strings.TrimSpace(PlainText(b.Inlines)), page: len(w.pages) - 1, y: w.y})
			if err := w.paragraph(b.Inlines, textStyle{size: size, bold: true}, x0, width, size*0.35, 3*bodySize*leadMul); err != nil {
				return err
			}
		case Paragraph:
			if err := w.paragraph(b.Inlines, textStyle{size: bodySize}, x0, width, 6, 0); err != nil {
				return err
			}
		case List:
			if err := w.list(b, indent); err != nil {
				return err
			}
		case Table:
			if err := w.table(b, x0, width); err != nil {
				return err
			}
		case Code:
			if err := w.code(b.Text, x0, width); err != nil {
				return err
			}
		case Quote:
			top := w.y
			startPage := w.page
			if err := w.blocks(b.Children, indent+14); err != nil {
				return err
			}
			if w.page == startPage {
				// The bar is drawn for the part on the quote's last page only when
				// it started there; a quote across pages keeps its indentation.
				fmt.Fprintf(&w.page.content, "0.75 G 2 w %s %s m %s %s l S\n", pdfNum(x0+4), pdfNum(top), pdfNum(x0+4), pdfNum(w.y+6))
			}
		case Rule:
			if err := w.ensure(14); err != nil {
				return err
			}
			w.y -= 7
			w.rule(x0, x0+width, w.y, 0.6, 0.75)
			w.y -= 7
		}
	}
	return nil
}

func (w *pdfWriter) list(b Block, indent float64) error {
	const step = 18.0
	indent = min(indent, maxIndent-step)
	x0 := pMargin + indent
	for k, it := range b.Items {
		marker := b.itemMarker(k)
		if it.Task != nil {
			marker = taskBox(*it.Task)
		}
		st := textStyle{size: bodySize}
		if err := w.ensure(bodySize * leadMul); err != nil {
			return err
		}
		mw := w.textWidth(marker, st)
		markLine := pdfLine{atoms: []placed{{atom{text: marker, st: st, w: mw}, 0}}, height: bodySize * leadMul}
		saved := w.y
		w.drawLine(markLine, x0+step-4-mw)
		w.y = saved
		if len(it.Blocks) == 0 {
			w.y -= bodySize * leadMul
		}
		for i, child := range it.Blocks {
			if err := w.blocks([]Block{child}, indent+step); err != nil {
				return err
			}
			if i == len(it.Blocks)-1 && child.Kind == Paragraph {
				w.y += 4 // list items sit closer than paragraphs
			}
		}
	}
	w.y -= 4
	return nil
}

func (w *pdfWriter) code(text string, x0, width float64) error {
	st := textStyle{size: codeSize, code: true}
	lh := codeSize * leadMul
	var lines []pdfLine
	for _, src := range strings.Split(text, "\n") {
		src = strings.ReplaceAll(src, "\t", "    ")
		// Keep leading spaces: render them as one word of spaces.
		trimmed := strings.TrimLeft(src, " ")
		lead := len(src) - len(trimmed)
		var atoms []atom
		if lead > 0 {
			sp := strings.Repeat(" ", lead)
			atoms = append(atoms, atom{text: sp, st: st, w: w.textWidth(sp, st)})
		}
		atoms = append(atoms, w.atoms([]Inline{{Text: trimmed, Code: true}}, st)...)
		lines = append(lines, w.wrap(atoms, width-12, codeSize)...)
	}
	w.y -= 2
	for i, l := range lines {
		if i%64 == 63 {
			if err := w.ctx.Err(); err != nil {
				return err
			}
		}
		if err := w.ensure(lh); err != nil {
			return err
		}
		fmt.Fprintf(&w.page.content, "0.95 g %s %s %s %s re f\n", pdfNum(x0), pdfNum(w.y-l.height), pdfNum(width), pdfNum(l.height))
		w.drawLine(l, x0+6)
	}
	w.y -= 8
	return nil
}

type tableLayout struct {
	x0     float64
	widths []float64
	align  []string
}

func (w *pdfWriter) table(t Block, x0, avail float64) error {
	ncol := len(t.Align)
	if ncol == 0 {
		return nil
	}
	size := bodySize - 1
	head := textStyle{size: size, bold: true}
	body := textStyle{size: size}
	rows := append([][][]Inline{t.Header}, t.Rows...)
	natural := make([]float64, ncol)
	minW := make([]float64, ncol)
	for r, row := range rows {
		st := body
		if r == 0 {
			st = head
		}
		for c := 0; c < ncol && c < len(row); c++ {
			var lineW float64
			for _, a := range w.atoms(row[c], st) {
				if a.nl {
					lineW = 0
					continue
				}
				lineW += a.w
				natural[c] = max(natural[c], lineW)
				if !a.space {
					minW[c] = max(minW[c], min(a.w, avail/float64(ncol)))
				}
			}
		}
	}
	widths := make([]float64, ncol)
	total := 0.0
	for c := range natural {
		natural[c] += 2 * cellPad
		minW[c] += 2 * cellPad
		total += natural[c]
	}
	if total <= avail {
		copy(widths, natural)
	} else {
		// Give every column its longest word, then share the rest in proportion
		// to how much more each column would like.
		base := 0.0
		for c := range minW {
			base += minW[c]
		}
		if base > avail {
			for c := range widths {
				widths[c] = avail / float64(ncol)
			}
		} else {
			extra := avail - base
			want := 0.0
			for c := range natural {
				want += natural[c] - minW[c]
			}
			for c := range widths {
				widths[c] = minW[c]
				if want > 0 {
					widths[c] += extra * (natural[c] - minW[c]) / want
				}
			}
		}
	}
	lay := &tableLayout{x0: x0, widths: widths, align: t.Align}
	layoutRow := func(row [][]Inline, st textStyle) [][]pdfLine {
		cells := make([][]pdfLine, ncol)
		for c := 0; c < ncol; c++ {
			var in []Inline
			if c < len(row) {
				in = row[c]
			}
			cells[c] = w.wrap(w.atoms(in, st), widths[c]-2*cellPad, st.size)
		}
		return cells
	}
	header := layoutRow(t.Header, head)
	w.y -= 2
	if err := w.drawRow(lay, header, true, nil); err != nil {
		return err
	}
	for i, row := range t.Rows {
		if i%32 == 0 {
			if err := w.ctx.Err(); err != nil {
				return err
			}
		}
		if err := w.drawRow(lay, layoutRow(row, body), false, header); err != nil {
			return err
		}
	}
	w.y -= 8
	return nil
}

// drawRow draws one table row; a row that does not fit continues on the next page
// (with the header repeated), split between lines if it is taller than a page.
func (w *pdfWriter) drawRow(lay *tableLayout, cells [][]pdfLine, isHeader bool, header [][]pdfLine) error {
	pos := make([]int, len(cells))
	first := true
	for {
		remaining := 0.0
		for c := range cells {
			h := 0.0
			for _, l := range cells[c][pos[c]:] {
				h += l.height
			}
			remaining = max(remaining, h)
		}
		if !first && remaining == 0 {
			return nil
		}
		avail := w.y - pMargin - 2*cellPad
		if remaining > avail && (first || avail < 2*bodySize*leadMul) {
			freshPage := w.y >= pageH-pMargin-0.1
			if !freshPage {
				if err := w.newPage(); err != nil {
					return err
				}
				if !isHeader && header != nil {
					if err := w.drawRow(lay, header, true, nil); err != nil {
						return err
					}
				}
				avail = w.y - pMargin - 2*cellPad
			}
		}
		first = false
		// Take as many lines of each cell as fit.
		rowH := 0.0
		take := make([]int, len(cells))
		for c := range cells {
			h := 0.0
			for _, l := range cells[c][pos[c]:] {
				if h+l.height > avail && take[c] > 0 {
					break
				}
				h += l.height
				take[c]++
			}
			rowH = max(rowH, h)
		}
		rowH += 2 * cellPad
		top := w.y
		x := lay.x0
		content := &w.page.content
		if isHeader {
			fmt.Fprintf(content, "0.9 g %s %s %s %s re f\n", pdfNum(lay.x0), pdfNum(top-rowH), pdfNum(sum(lay.widths)), pdfNum(rowH))
		}
		for c := range cells {
			w.y = top - cellPad
			for _, l := range cells[c][pos[c] : pos[c]+take[c]] {
				lw := 0.0
				if n := len(l.atoms); n > 0 {
					lw = l.atoms[n-1].x + l.atoms[n-1].w
				}
				off := cellPad
				switch lay.align[c] {
				case "right":
					off = lay.widths[c] - cellPad - lw
				case "center":
					off = (lay.widths[c] - lw) / 2
				}
				w.drawLine(l, x+off)
			}
			pos[c] += take[c]
			fmt.Fprintf(content, "0.5 G 0.5 w %s %s %s %s re S\n", pdfNum(x), pdfNum(top-rowH), pdfNum(lay.widths[c]), pdfNum(rowH))
			x += lay.widths[c]
		}
		w.y = top - rowH
		done := true
		for c := range cells {
			if pos[c] < len(cells[c]) {
				done = false
			}
		}
		if done {
			return nil
		}
		if err := w.newPage(); err != nil {
			return err
		}
	}
}

func sum(v []float64) float64 {
	t := 0.0
	for _, x := range v {
		t += x
	}
	return t
}

// outlineItem is a heading's bookmark: where its first line starts.
type outlineItem struct {
	level int
	title string
	page  int
	y     float64
}

// writeOutline writes the document outline (bookmarks nested by heading level)
// and returns the object number of its root, or 0 when there are no headings.
func (w *pdfWriter) writeOutline(alloc func() int, set func(int, string), pageIDs []int) int {
	if len(w.outline) == 0 {
		return 0
	}
	type node struct {
		id, parent                    int
		level                         int
		first, last, prev, next, desc int
		lastChild                     *node
		item                          outlineItem
	}
	root := &node{id: alloc(), level: 0}
	nodes := []*node{root}
	stack := []*node{root}
	for _, it := range w.outline {
		n := &node{id: alloc(), level: it.level, item: it}
		for len(stack) > 1 && stack[len(stack)-1].level >= it.level {
			stack = stack[:len(stack)-1]
		}
		parent := stack[len(stack)-1]
		n.parent = parent.id
		if parent.lastChild != nil {
			parent.lastChild.next = n.id
			n.prev = parent.lastChild.id
		} else {
			parent.first = n.id
		}
		parent.last, parent.lastChild = n.id, n
		for _, a := range stack {
			a.desc++
		}
		nodes = append(nodes, n)
		stack = append(stack, n)
	}
	for _, n := range nodes {
		if n == root {
			set(n.id, fmt.Sprintf("<< /Type /Outlines /First %d 0 R /Last %d 0 R /Count %d >>", n.first, n.last, n.desc))
			continue
		}
		var b strings.Builder
		fmt.Fprintf(&b, "<< /Title %s /Parent %d 0 R", pdfTextString(n.item.title), n.parent)
		if n.prev != 0 {
			fmt.Fprintf(&b, " /Prev %d 0 R", n.prev)
		}
		if n.next != 0 {
			fmt.Fprintf(&b, " /Next %d 0 R", n.next)
		}
		if n.first != 0 {
			fmt.Fprintf(&b, " /First %d 0 R /Last %d 0 R /Count %d", n.first, n.last, n.desc)
		}
		fmt.Fprintf(&b, " /Dest [%d 0 R /XYZ 0 %s 0] >>", pageIDs[n.item.page], pdfNum(n.item.y))
		set(n.id, b.String())
	}
	return root.id
}

// pageNumbers writes "n / N" centred in the bottom margin of every page.
func (w *pdfWriter) pageNumbers() {
	st := textStyle{size: 8, gray: true}
	for i, p := range w.pages {
		label := strconv.Itoa(i+1) + " / " + strconv.Itoa(len(w.pages))
		lw := w.textWidth(label, st)
		w.page = p
		w.y = pMargin*0.6 + 8
		w.drawLine(pdfLine{atoms: []placed{{atom{text: label, st: st, w: lw}, 0}}, height: 8 * leadMul}, (pageW-lw)/2)
	}
}

// pdfTextString encodes s as a PDF text string (UTF-16BE with BOM, hex).
func pdfTextString(s string) string {
	var b strings.Builder
	b.WriteString("<FEFF")
	for _, u := range utf16.Encode([]rune(s)) {
		fmt.Fprintf(&b, "%04X", u)
	}
	b.WriteString(">")
	return b.String()
}

// deflater compresses streams with one reused zlib writer (a new one allocates
// about a megabyte); the output is the same as with a fresh writer.
type deflater struct {
	buf bytes.Buffer
	zw  *zlib.Writer
}

func (d *deflater) deflate(data []byte) []byte {
	d.buf.Reset()
	if d.zw == nil {
		d.zw, _ = zlib.NewWriterLevel(&d.buf, zlib.DefaultCompression)
	} else {
		d.zw.Reset(&d.buf)
	}
	_, _ = d.zw.Write(data)
	_ = d.zw.Close()
	return append([]byte(nil), d.buf.Bytes()...)
}

// finish writes the PDF file: catalog, page tree, pages, fonts, info, xref.
func (w *pdfWriter) finish(title string) ([]byte, error) {
	if len(w.pages) > 1 {
		w.pageNumbers()
	}
	var objs [][]byte // object i+1
	alloc := func() int { objs = append(objs, nil); return len(objs) }
	set := func(id int, s string) { objs[id-1] = []byte(s) }
	var dfl deflater
	stream := func(id int, dict string, data []byte) {
		z := dfl.deflate(data)
		var b bytes.Buffer
		fmt.Fprintf(&b, "<< %s /Filter /FlateDecode /Length %d >>\nstream\n", dict, len(z))
		b.Write(z)
		b.WriteString("\nendstream")
		objs[id-1] = b.Bytes()
	}
	catalog := alloc()
	pagesID := alloc()
	info := alloc()

	// Fonts actually used.
	var fontRes strings.Builder
	for slot := 0; slot < numFonts; slot++ {
		gs := w.glyphs[slot]
		if !gs.used() {
			continue
		}
		f := w.fonts[slot]
		sub := f.subset(gs) // may number composite components: before W and tag
		tag := subsetTag(f.name, gs.order)
		baseFont := tag + "+" + f.name
		scale := func(v int) int { return int(math.Round(float64(v) * 1000 / float64(f.unitsPerEm))) }

		type0, cid, desc, file, toUni := alloc(), alloc(), alloc(), alloc(), alloc()
		fmt.Fprintf(&fontRes, "/F%d %d 0 R ", slot+1, type0)
		set(type0, fmt.Sprintf("<< /Type /Font /Subtype /Type0 /BaseFont /%s /Encoding /Identity-H /DescendantFonts [%d 0 R] /ToUnicode %d 0 R >>", baseFont, cid, toUni))
		var wArr strings.Builder
		wArr.WriteString("0 [")
		for i, g := range gs.order {
			if i > 0 {
				wArr.WriteByte(' ')
			}
			wArr.WriteString(strconv.Itoa(scale(f.advance(g))))
		}
		wArr.WriteString("]")
		set(cid, fmt.Sprintf("<< /Type /Font /Subtype /CIDFontType2 /BaseFont /%s /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor %d 0 R /DW 1000 /W [%s] /CIDToGIDMap /Identity >>",
			baseFont, desc, wArr.String()))
		flags := 32
		if f.fixedPitch {
			flags |= 1
		}
		set(desc, fmt.Sprintf("<< /Type /FontDescriptor /FontName /%s /Flags %d /FontBBox [%d %d %d %d] /ItalicAngle 0 /Ascent %d /Descent %d /CapHeight %d /StemV 80 /FontFile2 %d 0 R >>",
			baseFont, flags, scale(f.bbox[0]), scale(f.bbox[1]), scale(f.bbox[2]), scale(f.bbox[3]), scale(f.ascent), scale(f.descent), scale(f.capHeight), file))
		stream(file, fmt.Sprintf("/Length1 %d", len(sub)), sub)
		stream(toUni, "", toUnicodeCMap(gs))
	}

	pageIDs := make([]int, len(w.pages))
	for i, p := range w.pages {
		if i%16 == 15 { // compressing a page's content is the costly part
			if err := w.ctx.Err(); err != nil {
				return nil, err
			}
		}
		pageIDs[i] = alloc()
		contentID := alloc()
		annots := ""
		if len(p.annots) > 0 {
			annots = " /Annots [" + strings.Join(p.annots, " ") + "]"
		}
		set(pageIDs[i], fmt.Sprintf("<< /Type /Page /Parent %d 0 R /MediaBox [0 0 %s %s] /Resources << /Font << %s>> >> /Contents %d 0 R%s >>",
			pagesID, pdfNum(pageW), pdfNum(pageH), fontRes.String(), contentID, annots))
		stream(contentID, "", p.content.Bytes())
	}
	var kids strings.Builder
	for i, id := range pageIDs {
		if i > 0 {
			kids.WriteByte(' ')
		}
		fmt.Fprintf(&kids, "%d 0 R", id)
	}
	set(pagesID, fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", kids.String(), len(pageIDs)))
	outlines := w.writeOutline(alloc, set, pageIDs)
	if outlines != 0 {
		set(catalog, fmt.Sprintf("<< /Type /Catalog /Pages %d 0 R /Outlines %d 0 R /PageMode /UseOutlines >>", pagesID, outlines))
	} else {
		set(catalog, fmt.Sprintf("<< /Type /Catalog /Pages %d 0 R >>", pagesID))
	}
	set(info, fmt.Sprintf("<< /Title %s /Producer (precisiond) >>", pdfTextString(title)))

	var out bytes.Buffer
	out.WriteString("%PDF-1.7\n%\xE2\xE3\xCF\xD3\n")
	offsets := make([]int, len(objs))
	for i, o := range objs {
		offsets[i] = out.Len()
		fmt.Fprintf(&out, "%d 0 obj\n", i+1)
		out.Write(o)
		out.WriteString("\nendobj\n")
	}
	xref := out.Len()
	fmt.Fprintf(&out, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, off := range offsets {
		fmt.Fprintf(&out, "%010d 00000 n \n", off)
	}
	sumID := sha256.Sum256(out.Bytes())
	fmt.Fprintf(&out, "trailer\n<< /Size %d /Root %d 0 R /Info %d 0 R /ID [<%x> <%x>] >>\nstartxref\n%d\n%%%%EOF\n",
		len(objs)+1, catalog, info, sumID[:16], sumID[:16], xref)
	return out.Bytes(), nil
}

// subsetTag derives the six-letter subset prefix from the glyph list, so that
// the same document always gets the same tag.
func subsetTag(name string, gids []uint16) string {
	h := sha256.New()
	h.Write([]byte(name))
	for _, g := range gids {
		fmt.Fprintf(h, "%d,", g)
	}
	sum := h.Sum(nil)
	tag := make([]byte, 6)
	for i := range tag {
		tag[i] = 'A' + sum[i]%26
	}
	return string(tag)
}

func toUnicodeCMap(gs *glyphSet) []byte {
	var b bytes.Buffer
	b.WriteString("/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n/CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n")
	var cids []int
	for c := range gs.uni {
		cids = append(cids, int(c))
	}
	sort.Ints(cids)
	for i := 0; i < len(cids); i += 100 {
		chunk := cids[i:min(i+100, len(cids))]
		fmt.Fprintf(&b, "%d beginbfchar\n", len(chunk))
		for _, c := range chunk {
			fmt.Fprintf(&b, "<%04X> <", c)
			for _, u := range utf16.Encode([]rune{gs.uni[uint16(c)]}) {
				fmt.Fprintf(&b, "%04X", u)
			}
			b.WriteString(">\n")
		}
		b.WriteString("endbfchar\n")
	}
	b.WriteString("endcmap\nCMapName currentdict /CIDInit /ProcSet findresource /CMapName get exch defineresource pop\nend\nend\n")
	return b.Bytes()
}
