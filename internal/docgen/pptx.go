package docgen

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Slide geometry (16:9, EMU).
const (
	slideW       = 12192000
	slideH       = 6858000
	marginX      = 609600
	titleY       = 365125
	titleH       = 1325563
	bodyY        = 1825625
	bodyH        = 4351338
	bodyW        = slideW - 2*marginX
	maxBodyLines = 10 // estimated text lines per slide before it continues
	charsPerLine = 90 // at the 20 pt body size on the 16:9 body width
	maxTableRows = 10 // data rows per table slide before it continues
)

const (
	nsA = `xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"`
	nsR = `xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"`
	nsP = `xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"`
)

// slidePara is one paragraph of a content slide's body.
type slidePara struct {
	level  int // 0 = plain paragraph, 1.. = bullet depth
	marker string
	runs   []Inline
	code   bool
	bold   bool
}

type slide struct {
	title    string
	subtitle []Inline // title slide only
	isTitle  bool
	paras    []slidePara
	table    *Block // a table slide (header + a page of rows)
}

type slideBuilder struct {
	ticker
	slides []slide
	cur    *slide
	lines  int
	err    error // sticky: too many slides
}

// full reports (and remembers) that the deck reached MaxSlides; builders then
// stop adding slides and blocks returns the error.
func (sb *slideBuilder) full() bool {
	if sb.err == nil && len(sb.slides) >= MaxSlides {
		sb.err = &LimitError{Reason: "too_many_slides", Message: fmt.Sprintf("the presentation would have more than %d slides", MaxSlides)}
	}
	return sb.err != nil
}

func (sb *slideBuilder) newSlide(title string) {
	if sb.full() {
		return
	}
	sb.slides = append(sb.slides, slide{title: title})
	sb.cur = &sb.slides[len(sb.slides)-1]
	sb.lines = 0
}

// splitRuns cuts runs into pieces of at most limit characters, at a space when
// there is one in the second half of a piece, so that a long paragraph can
// continue on the next slide. A hard line break counts as one character, as
// in PlainText, which addPara measures: a paragraph of many short broken
// lines must split too.
func splitRuns(in []Inline, limit int) [][]Inline {
	var out [][]Inline
	var cur []Inline
	count := 0
	for _, r := range in {
		if r.Break {
			if count+1 > limit && len(cur) > 0 {
				out = append(out, cur)
				cur, count = nil, 0
			}
			cur = append(cur, r)
			count++
			continue
		}
		text := []rune(r.Text)
		for len(text) > 0 {
			room := limit - count
			if len(text) <= room {
				piece := r
				piece.Text = string(text)
				cur = append(cur, piece)
				count += len(text)
				break
			}
			cut := room
			for i := room; i > room/2; i-- {
				if text[i-1] == ' ' {
					cut = i
					break
				}
			}
			piece := r
			piece.Text = string(text[:cut])
			cur = append(cur, piece)
			out = append(out, cur)
			cur, count = nil, 0
			text = text[cut:]
		}
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

func (sb *slideBuilder) addPara(p slidePara) {
	if !p.code && utf8.RuneCountInString(PlainText(p.runs)) > maxBodyLines*charsPerLine {
		if pieces := splitRuns(p.runs, (maxBodyLines-1)*charsPerLine); len(pieces) >= 2 {
			for i, piece := range pieces {
				q := p
				q.runs = piece
				if i > 0 {
					q.marker = "" // the item's continuation has no new bullet
				}
				sb.addPara(q)
				if sb.err != nil {
					return
				}
			}
			return
		}
		// A paragraph that does not split is added whole: recursing on it
		// would never end (a paragraph of hard breaks once did, until the
		// goroutine's stack ran out and took the process down).
	}
	n := 1
	if !p.code {
		n = max(1, (utf8.RuneCountInString(PlainText(p.runs))+charsPerLine-1)/charsPerLine)
	}
	overflow := sb.cur != nil && sb.lines+n > maxBodyLines && len(sb.cur.paras) > 0
	if sb.cur == nil || sb.cur.isTitle || sb.cur.table != nil || overflow {
		title := sb.sectionTitle()
		if sb.cur != nil && !sb.cur.isTitle {
			title += " (cont.)"
		}
		sb.newSlide(title)
	}
	if sb.err != nil {
		return
	}
	sb.cur.paras = append(sb.cur.paras, p)
	sb.lines += n
}

func (sb *slideBuilder) addTable(t Block, title string) {
	for start := 0; start == 0 || start < len(t.Rows); start += maxTableRows {
		end := min(start+maxTableRows, len(t.Rows))
		page := t
		page.Rows = t.Rows[start:end]
		if start == 0 && sb.cur != nil && !sb.cur.isTitle && sb.cur.table == nil && len(sb.cur.paras) == 0 {
			// The heading's own slide is still empty: the table goes there.
			sb.cur.table = &page
		} else {
			ttl := title
			if start > 0 || (sb.cur != nil && !sb.cur.isTitle) {
				ttl = strings.TrimSuffix(title, " (cont.)") + " (cont.)"
			}
			if sb.full() {
				return
			}
			sb.slides = append(sb.slides, slide{title: ttl, table: &page})
			sb.cur = &sb.slides[len(sb.slides)-1]
		}
		if end >= len(t.Rows) {
			break
		}
	}
}

func (sb *slideBuilder) sectionTitle() string {
	if sb.cur == nil {
		return ""
	}
	return strings.TrimSuffix(sb.cur.title, " (cont.)")
}

func (sb *slideBuilder) blocks(bs []Block, level int) error {
	for _, b := range bs {
		if sb.err != nil {
			return sb.err
		}
		if err := sb.tick(); err != nil {
			return err
		}
		switch b.Kind {
		case Heading:
			if b.Level <= 2 && level == 0 {
				sb.newSlide(strings.TrimSpace(PlainText(b.Inlines)))
				continue
			}
			sb.addPara(slidePara{level: level, runs: b.Inlines, bold: true})
		case Paragraph:
			sb.addPara(slidePara{level: level, runs: b.Inlines})
		case List:
			for k, it := range b.Items {
				marker := b.itemMarker(k)
				var prefix []Inline
				if it.Task != nil {
					prefix = []Inline{{Text: taskBox(*it.Task) + " "}}
				}
				first := true
				for _, child := range it.Blocks {
					if first && (child.Kind == Paragraph || child.Kind == Heading) {
						sb.addPara(slidePara{level: level + 1, marker: marker, runs: append(prefix, child.Inlines...)})
						first = false
						continue
					}
					if first {
						sb.addPara(slidePara{level: level + 1, marker: marker, runs: prefix})
						first = false
					}
					if err := sb.blocks([]Block{child}, level+1); err != nil {
						return err
					}
				}
				if first {
					sb.addPara(slidePara{level: level + 1, marker: marker, runs: prefix})
				}
			}
		case Table:
			title := sb.sectionTitle()
			sb.addTable(b, title)
		case Code:
			for i, line := range strings.Split(b.Text, "\n") {
				if i%ctxCheckEvery == ctxCheckEvery-1 {
					if err := sb.ctx.Err(); err != nil {
						return err
					}
				}
				sb.addPara(slidePara{level: 0, runs: []Inline{{Text: strings.ReplaceAll(line, "\t", "    "), Code: true}}, code: true})
			}
		case Quote:
			if err := sb.blocks(b.Children, level); err != nil {
				return err
			}
		case Rule:
			// A rule has no place on a slide.
		}
	}
	return sb.err
}

func renderPPTX(ctx context.Context, doc *Document, title string) ([]byte, error) {
	sb := &slideBuilder{ticker: newTicker(ctx, ctxCheckEvery)}
	blocks := doc.Blocks
	// Title slide: a leading # heading (with the paragraphs right after it as the
	// subtitle), else the document title.
	ts := slide{isTitle: true, title: title}
	if len(blocks) > 0 && blocks[0].Kind == Heading && blocks[0].Level == 1 {
		ts.title = strings.TrimSpace(PlainText(blocks[0].Inlines))
		blocks = blocks[1:]
		for len(blocks) > 0 && blocks[0].Kind == Paragraph {
			if len(ts.subtitle) > 0 {
				ts.subtitle = append(ts.subtitle, Inline{Break: true})
			}
			ts.subtitle = append(ts.subtitle, blocks[0].Inlines...)
			blocks = blocks[1:]
		}
	}
	sb.slides = append(sb.slides, ts)
	sb.cur = &sb.slides[0]
	if err := sb.blocks(blocks, 0); err != nil {
		return nil, err
	}
	// A slide opened for content before any heading is titled after the document.
	for i := range sb.slides {
		if sb.slides[i].title == "" || sb.slides[i].title == " (cont.)" {
			sb.slides[i].title = ts.title
		}
	}
	return writePPTX(ctx, sb.slides, ts.title)
}

func writePPTX(ctx context.Context, slides []slide, title string) ([]byte, error) {
	var ct strings.Builder
	ct.WriteString(xmlHeader + `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
		`<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
		`<Default Extension="xml" ContentType="application/xml"/>` +
		`<Override PartName="/ppt/presentation.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml"/>` +
		`<Override PartName="/ppt/slideMasters/slideMaster1.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.slideMaster+xml"/>` +
		`<Override PartName="/ppt/slideLayouts/slideLayout1.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.slideLayout+xml"/>` +
		`<Override PartName="/ppt/slideLayouts/slideLayout2.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.slideLayout+xml"/>` +
		`<Override PartName="/ppt/theme/theme1.xml" ContentType="application/vnd.openxmlformats-officedocument.theme+xml"/>` +
		`<Override PartName="/ppt/presProps.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.presProps+xml"/>` +
		`<Override PartName="/ppt/viewProps.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.viewProps+xml"/>` +
		`<Override PartName="/ppt/tableStyles.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.tableStyles+xml"/>` +
		`<Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/>` +
		`<Override PartName="/docProps/app.xml" ContentType="application/vnd.openxmlformats-officedocument.extended-properties+xml"/>`)
	for i := range slides {
		fmt.Fprintf(&ct, `<Override PartName="/ppt/slides/slide%d.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.slide+xml"/>`, i+1)
	}
	ct.WriteString(`</Types>`)

	var pres, presRels strings.Builder
	pres.WriteString(xmlHeader + `<p:presentation ` + nsA + ` ` + nsR + ` ` + nsP + ` saveSubsetFonts="1">`)
	pres.WriteString(`<p:sldMasterIdLst><p:sldMasterId id="2147483648" r:id="rId1"/></p:sldMasterIdLst><p:sldIdLst>`)
	presRels.WriteString(xmlHeader + `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">`)
	presRels.WriteString(`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/slideMaster" Target="slideMasters/slideMaster1.xml"/>`)
	for i := range slides {
		fmt.Fprintf(&pres, `<p:sldId id="%d" r:id="rId%d"/>`, 256+i, i+2)
		fmt.Fprintf(&presRels, `<Relationship Id="rId%d" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/slide" Target="slides/slide%d.xml"/>`, i+2, i+1)
	}
	n := len(slides) + 2
	fmt.Fprintf(&presRels, `<Relationship Id="rId%d" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/presProps" Target="presProps.xml"/>`, n)
	fmt.Fprintf(&presRels, `<Relationship Id="rId%d" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/viewProps" Target="viewProps.xml"/>`, n+1)
	fmt.Fprintf(&presRels, `<Relationship Id="rId%d" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/theme" Target="theme/theme1.xml"/>`, n+2)
	fmt.Fprintf(&presRels, `<Relationship Id="rId%d" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/tableStyles" Target="tableStyles.xml"/>`, n+3)
	presRels.WriteString(`</Relationships>`)
	pres.WriteString(`</p:sldIdLst>`)
	fmt.Fprintf(&pres, `<p:sldSz cx="%d" cy="%d"/><p:notesSz cx="6858000" cy="9144000"/>`, slideW, slideH)
	pres.WriteString(`<p:defaultTextStyle><a:defPPr><a:defRPr lang="en-US"/></a:defPPr></p:defaultTextStyle></p:presentation>`)

	parts := []zipPart{
		{"[Content_Types].xml", ct.String()},
		{"_rels/.rels", fmt.Sprintf(rootRels, "ppt/presentation.xml")},
		{"docProps/core.xml", corePropsXML(title)},
		{"docProps/app.xml", appPropsXML()},
		{"ppt/presentation.xml", pres.String()},
		{"ppt/_rels/presentation.xml.rels", presRels.String()},
		{"ppt/presProps.xml", xmlHeader + `<p:presentationPr ` + nsA + ` ` + nsR + ` ` + nsP + `/>`},
		{"ppt/viewProps.xml", xmlHeader + `<p:viewPr ` + nsA + ` ` + nsR + ` ` + nsP + `><p:normalViewPr><p:restoredLeft sz="15620"/><p:restoredTop sz="94660"/></p:normalViewPr><p:gridSpacing cx="76200" cy="76200"/></p:viewPr>`},
		{"ppt/tableStyles.xml", xmlHeader + `<a:tblStyleLst ` + nsA + ` def="{5C22544A-7EE6-4342-B048-85BDC9FD1C3A}"/>`},
		{"ppt/theme/theme1.xml", pptxTheme},
		{"ppt/slideMasters/slideMaster1.xml", pptxMaster},
		{"ppt/slideMasters/_rels/slideMaster1.xml.rels", xmlHeader + `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
			`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/slideLayout" Target="../slideLayouts/slideLayout1.xml"/>` +
			`<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/slideLayout" Target="../slideLayouts/slideLayout2.xml"/>` +
			`<Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/theme" Target="../theme/theme1.xml"/></Relationships>`},
		{"ppt/slideLayouts/slideLayout1.xml", pptxLayoutTitle},
		{"ppt/slideLayouts/_rels/slideLayout1.xml.rels", layoutRels},
		{"ppt/slideLayouts/slideLayout2.xml", pptxLayoutContent},
		{"ppt/slideLayouts/_rels/slideLayout2.xml.rels", layoutRels},
	}
	for i, s := range slides {
		if i%ctxCheckEvery == ctxCheckEvery-1 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		body, rels := slideXML(s)
		parts = append(parts,
			zipPart{fmt.Sprintf("ppt/slides/slide%d.xml", i+1), body},
			zipPart{fmt.Sprintf("ppt/slides/_rels/slide%d.xml.rels", i+1), rels})
	}
	return writeZip(parts)
}

const layoutRels = xmlHeader + `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/slideMaster" Target="../slideMasters/slideMaster1.xml"/></Relationships>`

type slideXMLWriter struct {
	b     strings.Builder
	links hyperlinks // rId2...
}

// runs writes DrawingML text runs; sz is in hundredths of a point (0 = inherit).
func (w *slideXMLWriter) runs(in []Inline, sz int, bold bool) {
	for _, r := range in {
		if r.Break {
			w.b.WriteString(`<a:br><a:rPr lang="en-US"/></a:br>`)
			continue
		}
		w.b.WriteString(`<a:r><a:rPr lang="en-US"`)
		if sz > 0 {
			fmt.Fprintf(&w.b, ` sz="%d"`, sz)
		}
		if r.Bold || bold {
			w.b.WriteString(` b="1"`)
		}
		if r.Italic {
			w.b.WriteString(` i="1"`)
		}
		if r.Strike {
			w.b.WriteString(` strike="sngStrike"`)
		}
		w.b.WriteString(` dirty="0">`)
		if r.Code {
			w.b.WriteString(`<a:latin typeface="Consolas"/><a:cs typeface="Courier New"/>`)
		}
		if r.Link != "" && externalLink(r.Link) {
			w.b.WriteString(`<a:hlinkClick r:id="` + w.links.id(r.Link) + `"/>`)
		}
		w.b.WriteString(`</a:rPr><a:t>` + esc(r.Text) + `</a:t></a:r>`)
	}
}

func (w *slideXMLWriter) placeholder(id int, name, phAttrs string, writeParas func()) {
	fmt.Fprintf(&w.b, `<p:sp><p:nvSpPr><p:cNvPr id="%d" name="%s"/><p:cNvSpPr><a:spLocks noGrp="1"/></p:cNvSpPr><p:nvPr><p:ph %s/></p:nvPr></p:nvSpPr><p:spPr/>`, id, name, phAttrs)
	w.b.WriteString(`<p:txBody><a:bodyPr><a:normAutofit/></a:bodyPr><a:lstStyle/>`)
	writeParas()
	w.b.WriteString(`</p:txBody></p:sp>`)
}

func slideXML(s slide) (string, string) {
	w := &slideXMLWriter{links: newHyperlinks(2)}
	w.b.WriteString(xmlHeader + `<p:sld ` + nsA + ` ` + nsR + ` ` + nsP + `><p:cSld><p:spTree>`)
	w.b.WriteString(`<p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="0" cy="0"/><a:chOff x="0" y="0"/><a:chExt cx="0" cy="0"/></a:xfrm></p:grpSpPr>`)
	layout := 2
	titlePh := `type="title"`
	if s.isTitle {
		layout = 1
		titlePh = `type="ctrTitle"`
	}
	w.placeholder(2, "Title 1", titlePh, func() {
		w.b.WriteString(`<a:p>`)
		if s.isTitle {
			w.b.WriteString(`<a:pPr algn="ctr"/>`)
		}
		w.runs([]Inline{{Text: s.title}}, 0, false)
		w.b.WriteString(`</a:p>`)
	})
	switch {
	case s.isTitle:
		if len(s.subtitle) > 0 {
			w.placeholder(3, "Subtitle 2", `type="subTitle" idx="1"`, func() {
				// No bullet: the subtitle inherits the master's body style otherwise.
				w.b.WriteString(`<a:p><a:pPr marL="0" indent="0" algn="ctr"><a:buNone/></a:pPr>`)
				w.runs(s.subtitle, 0, false)
				w.b.WriteString(`</a:p>`)
			})
		}
	case s.table != nil:
		w.table(*s.table)
	default:
		w.placeholder(3, "Content Placeholder 2", `idx="1"`, func() {
			for _, p := range s.paras {
				w.b.WriteString(`<a:p>`)
				sz := 0
				switch {
				case p.code:
					w.b.WriteString(`<a:pPr marL="0" indent="0"><a:buNone/></a:pPr>`)
					sz = 1600
				case p.marker == "":
					fmt.Fprintf(&w.b, `<a:pPr marL="%d" indent="0"><a:buNone/></a:pPr>`, 342900*max(0, p.level-1)+(map[bool]int{true: 342900, false: 0}[p.level > 0]))
				case p.marker == "•":
					lvl := min(p.level-1, 8)
					fmt.Fprintf(&w.b, `<a:pPr marL="%d" lvl="%d" indent="-342900"><a:buFont typeface="Arial"/><a:buChar char="•"/></a:pPr>`, 342900*(lvl+1), lvl)
				default:
					lvl := min(p.level-1, 8)
					fmt.Fprintf(&w.b, `<a:pPr marL="%d" lvl="%d" indent="-342900"><a:buFont typeface="+mj-lt"/><a:buAutoNum type="arabicPeriod" startAt="%s"/></a:pPr>`, 342900*(lvl+1), lvl, strings.TrimSuffix(p.marker, "."))
				}
				if len(p.runs) == 0 {
					w.b.WriteString(`<a:endParaRPr lang="en-US"/>`)
				}
				w.runs(p.runs, sz, p.bold)
				w.b.WriteString(`</a:p>`)
			}
		})
	}
	w.b.WriteString(`</p:spTree></p:cSld><p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:sld>`)
	return w.b.String(), w.links.relsXML(fmt.Sprintf(`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/slideLayout" Target="../slideLayouts/slideLayout%d.xml"/>`, layout))
}

func (w *slideXMLWriter) table(t Block) {
	ncol := max(1, len(t.Align))
	colW := bodyW / ncol
	rowH := 370840
	nrows := 1 + len(t.Rows)
	fmt.Fprintf(&w.b, `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="3" name="Table 2"/><p:cNvGraphicFramePr><a:graphicFrameLocks noGrp="1"/></p:cNvGraphicFramePr><p:nvPr/></p:nvGraphicFramePr>`+
		`<p:xfrm><a:off x="%d" y="%d"/><a:ext cx="%d" cy="%d"/></p:xfrm><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/table"><a:tbl><a:tblPr firstRow="1" bandRow="1"/><a:tblGrid>`,
		marginX, bodyY, colW*ncol, rowH*nrows)
	for c := 0; c < ncol; c++ {
		fmt.Fprintf(&w.b, `<a:gridCol w="%d"/>`, colW)
	}
	w.b.WriteString(`</a:tblGrid>`)
	line := `<a:solidFill><a:srgbClr val="808080"/></a:solidFill>`
	row := func(cells [][]Inline, header bool) {
		fmt.Fprintf(&w.b, `<a:tr h="%d">`, rowH)
		for c := 0; c < ncol; c++ {
			w.b.WriteString(`<a:tc><a:txBody><a:bodyPr/><a:lstStyle/><a:p>`)
			switch {
			case c < len(t.Align) && t.Align[c] == "center":
				w.b.WriteString(`<a:pPr algn="ctr"/>`)
			case c < len(t.Align) && t.Align[c] == "right":
				w.b.WriteString(`<a:pPr algn="r"/>`)
			}
			if c < len(cells) && len(cells[c]) > 0 {
				w.runs(cells[c], 1400, header)
			} else {
				w.b.WriteString(`<a:endParaRPr lang="en-US" sz="1400"/>`)
			}
			w.b.WriteString(`</a:p></a:txBody><a:tcPr>`)
			for _, side := range []string{"lnL", "lnR", "lnT", "lnB"} {
				w.b.WriteString(`<a:` + side + ` w="12700">` + line + `</a:` + side + `>`)
			}
			if header {
				w.b.WriteString(`<a:solidFill><a:srgbClr val="D9E2F3"/></a:solidFill>`)
			}
			w.b.WriteString(`</a:tcPr></a:tc>`)
		}
		w.b.WriteString(`</a:tr>`)
	}
	row(t.Header, true)
	for _, r := range t.Rows {
		row(r, false)
	}
	w.b.WriteString(`</a:tbl></a:graphicData></a:graphic></p:graphicFrame>`)
}

const spTreeHead = `<p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="0" cy="0"/><a:chOff x="0" y="0"/><a:chExt cx="0" cy="0"/></a:xfrm></p:grpSpPr>`

func phShape(id int, name, ph string, x, y, cx, cy int, bodyPr string) string {
	return fmt.Sprintf(`<p:sp><p:nvSpPr><p:cNvPr id="%d" name="%s"/><p:cNvSpPr><a:spLocks noGrp="1"/></p:cNvSpPr><p:nvPr><p:ph %s/></p:nvPr></p:nvSpPr>`+
		`<p:spPr><a:xfrm><a:off x="%d" y="%d"/><a:ext cx="%d" cy="%d"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr>`+
		`<p:txBody>%s<a:lstStyle/><a:p><a:endParaRPr lang="en-US"/></a:p></p:txBody></p:sp>`, id, name, ph, x, y, cx, cy, bodyPr)
}

func bodyLevels() string {
	var b strings.Builder
	sizes := []int{2000, 1800, 1600, 1600, 1600, 1600, 1600, 1600, 1600}
	for l := 0; l < 9; l++ {
		fmt.Fprintf(&b, `<a:lvl%dpPr marL="%d" indent="-228600" algn="l" defTabSz="914400" rtl="0" eaLnBrk="1" latinLnBrk="0" hangingPunct="1"><a:lnSpc><a:spcPct val="90000"/></a:lnSpc><a:spcBef><a:spcPts val="1000"/></a:spcBef><a:buFont typeface="Arial"/><a:buChar char="•"/><a:defRPr sz="%d" kern="1200"><a:solidFill><a:schemeClr val="tx1"/></a:solidFill><a:latin typeface="+mn-lt"/><a:ea typeface="+mn-ea"/><a:cs typeface="+mn-cs"/></a:defRPr></a:lvl%dpPr>`,
			l+1, 228600+457200*l, sizes[l], l+1)
	}
	return b.String()
}

var pptxMaster = xmlHeader + `<p:sldMaster ` + nsA + ` ` + nsR + ` ` + nsP + `><p:cSld><p:bg><p:bgRef idx="1001"><a:schemeClr val="bg1"/></p:bgRef></p:bg><p:spTree>` + spTreeHead +
	phShape(2, "Title Placeholder 1", `type="title"`, marginX, titleY, bodyW, titleH, `<a:bodyPr vert="horz" lIns="91440" tIns="45720" rIns="91440" bIns="45720" rtlCol="0" anchor="ctr"><a:normAutofit/></a:bodyPr>`) +
	phShape(3, "Text Placeholder 2", `type="body" idx="1"`, marginX, bodyY, bodyW, bodyH, `<a:bodyPr vert="horz" lIns="91440" tIns="45720" rIns="91440" bIns="45720" rtlCol="0"><a:normAutofit/></a:bodyPr>`) +
	`</p:spTree></p:cSld><p:clrMap bg1="lt1" tx1="dk1" bg2="lt2" tx2="dk2" accent1="accent1" accent2="accent2" accent3="accent3" accent4="accent4" accent5="accent5" accent6="accent6" hlink="hlink" folHlink="folHlink"/>` +
	`<p:sldLayoutIdLst><p:sldLayoutId id="2147483649" r:id="rId1"/><p:sldLayoutId id="2147483650" r:id="rId2"/></p:sldLayoutIdLst>` +
	`<p:txStyles><p:titleStyle><a:lvl1pPr algn="l" defTabSz="914400" rtl="0" eaLnBrk="1" latinLnBrk="0" hangingPunct="1"><a:lnSpc><a:spcPct val="90000"/></a:lnSpc><a:spcBef><a:spcPct val="0"/></a:spcBef><a:buNone/><a:defRPr sz="4000" kern="1200"><a:solidFill><a:schemeClr val="tx1"/></a:solidFill><a:latin typeface="+mj-lt"/><a:ea typeface="+mj-ea"/><a:cs typeface="+mj-cs"/></a:defRPr></a:lvl1pPr></p:titleStyle>` +
	`<p:bodyStyle>` + bodyLevels() + `</p:bodyStyle>` +
	`<p:otherStyle><a:defPPr><a:defRPr lang="en-US"/></a:defPPr><a:lvl1pPr marL="0" algn="l" defTabSz="914400" rtl="0" eaLnBrk="1" latinLnBrk="0" hangingPunct="1"><a:defRPr sz="1800" kern="1200"><a:solidFill><a:schemeClr val="tx1"/></a:solidFill><a:latin typeface="+mn-lt"/><a:ea typeface="+mn-ea"/><a:cs typeface="+mn-cs"/></a:defRPr></a:lvl1pPr></p:otherStyle></p:txStyles></p:sldMaster>`

var pptxLayoutTitle = xmlHeader + `<p:sldLayout ` + nsA + ` ` + nsR + ` ` + nsP + ` type="title" preserve="1"><p:cSld name="Title Slide"><p:spTree>` + spTreeHead +
	phShape(2, "Title 1", `type="ctrTitle"`, 1524000, 1122363, 9144000, 2387600, `<a:bodyPr anchor="b"><a:normAutofit/></a:bodyPr>`) +
	phShape(3, "Subtitle 2", `type="subTitle" idx="1"`, 1524000, 3602038, 9144000, 1655762, `<a:bodyPr><a:normAutofit/></a:bodyPr>`) +
	`</p:spTree></p:cSld><p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:sldLayout>`

var pptxLayoutContent = xmlHeader + `<p:sldLayout ` + nsA + ` ` + nsR + ` ` + nsP + ` type="obj" preserve="1"><p:cSld name="Title and Content"><p:spTree>` + spTreeHead +
	phShape(2, "Title 1", `type="title"`, marginX, titleY, bodyW, titleH, `<a:bodyPr/>`) +
	phShape(3, "Content Placeholder 2", `idx="1"`, marginX, bodyY, bodyW, bodyH, `<a:bodyPr><a:normAutofit/></a:bodyPr>`) +
	`</p:spTree></p:cSld><p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:sldLayout>`

func themeFill() string {
	return `<a:solidFill><a:schemeClr val="phClr"/></a:solidFill>`
}

var pptxTheme = xmlHeader + `<a:theme ` + nsA + ` name="precisiond"><a:themeElements>` +
	`<a:clrScheme name="Office"><a:dk1><a:sysClr val="windowText" lastClr="000000"/></a:dk1><a:lt1><a:sysClr val="window" lastClr="FFFFFF"/></a:lt1><a:dk2><a:srgbClr val="44546A"/></a:dk2><a:lt2><a:srgbClr val="E7E6E6"/></a:lt2>` +
	`<a:accent1><a:srgbClr val="4472C4"/></a:accent1><a:accent2><a:srgbClr val="ED7D31"/></a:accent2><a:accent3><a:srgbClr val="A5A5A5"/></a:accent3><a:accent4><a:srgbClr val="FFC000"/></a:accent4><a:accent5><a:srgbClr val="5B9BD5"/></a:accent5><a:accent6><a:srgbClr val="70AD47"/></a:accent6>` +
	`<a:hlink><a:srgbClr val="0563C1"/></a:hlink><a:folHlink><a:srgbClr val="954F72"/></a:folHlink></a:clrScheme>` +
	`<a:fontScheme name="Office"><a:majorFont><a:latin typeface="Calibri Light"/><a:ea typeface=""/><a:cs typeface=""/></a:majorFont><a:minorFont><a:latin typeface="Calibri"/><a:ea typeface=""/><a:cs typeface=""/></a:minorFont></a:fontScheme>` +
	`<a:fmtScheme name="Office"><a:fillStyleLst>` + themeFill() + themeFill() + themeFill() + `</a:fillStyleLst>` +
	`<a:lnStyleLst><a:ln w="6350" cap="flat" cmpd="sng" algn="ctr"><a:solidFill><a:schemeClr val="phClr"/></a:solidFill><a:prstDash val="solid"/><a:miter lim="800000"/></a:ln><a:ln w="12700" cap="flat" cmpd="sng" algn="ctr"><a:solidFill><a:schemeClr val="phClr"/></a:solidFill><a:prstDash val="solid"/><a:miter lim="800000"/></a:ln><a:ln w="19050" cap="flat" cmpd="sng" algn="ctr"><a:solidFill><a:schemeClr val="phClr"/></a:solidFill><a:prstDash val="solid"/><a:miter lim="800000"/></a:ln></a:lnStyleLst>` +
	`<a:effectStyleLst><a:effectStyle><a:effectLst/></a:effectStyle><a:effectStyle><a:effectLst/></a:effectStyle><a:effectStyle><a:effectLst/></a:effectStyle></a:effectStyleLst>` +
	`<a:bgFillStyleLst>` + themeFill() + themeFill() + themeFill() + `</a:bgFillStyleLst></a:fmtScheme></a:themeElements><a:objectDefaults/><a:extraClrSchemeLst/></a:theme>`
