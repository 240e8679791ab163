package docgen

import (
	"context"
	"fmt"
	"strings"
)

type docxWriter struct {
	ticker
	body  strings.Builder
	links hyperlinks // rId4...
	nums  []string   // <w:num> elements
}

const docxContentTypes = xmlHeader + `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
	`<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
	`<Default Extension="xml" ContentType="application/xml"/>` +
	`<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>` +
	`<Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/>` +
	`<Override PartName="/word/numbering.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.numbering+xml"/>` +
	`<Override PartName="/word/settings.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.settings+xml"/>` +
	`<Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/>` +
	`<Override PartName="/docProps/app.xml" ContentType="application/vnd.openxmlformats-officedocument.extended-properties+xml"/>` +
	`</Types>`

const wNS = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"`

func headingStyle(level int) string {
	return fmt.Sprintf(`<w:style w:type="paragraph" w:styleId="Heading%d"><w:name w:val="heading %d"/><w:basedOn w:val="Normal"/><w:next w:val="Normal"/><w:uiPriority w:val="9"/><w:qFormat/>`+
		`<w:pPr><w:keepNext/><w:keepLines/><w:spacing w:before="%d" w:after="120"/><w:outlineLvl w:val="%d"/></w:pPr>`+
		`<w:rPr><w:b/><w:color w:val="1F3864"/><w:sz w:val="%d"/><w:szCs w:val="%d"/></w:rPr></w:style>`,
		level, level, 360-40*level, level-1, headingSizes[level-1], headingSizes[level-1])
}

var headingSizes = [6]int{36, 30, 26, 24, 22, 22} // half-points

func docxStyles() string {
	var b strings.Builder
	b.WriteString(xmlHeader + `<w:styles ` + wNS + `>`)
	b.WriteString(`<w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="Calibri" w:hAnsi="Calibri" w:eastAsia="SimSun" w:cs="Arial"/><w:sz w:val="22"/><w:szCs w:val="22"/><w:lang w:val="en-US" w:eastAsia="zh-CN" w:bidi="ar-SA"/></w:rPr></w:rPrDefault>` +
		`<w:pPrDefault><w:pPr><w:spacing w:after="120" w:line="264" w:lineRule="auto"/></w:pPr></w:pPrDefault></w:docDefaults>`)
	b.WriteString(`<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/><w:qFormat/></w:style>`)
	b.WriteString(`<w:style w:type="character" w:default="1" w:styleId="DefaultParagraphFont"><w:name w:val="Default Paragraph Font"/><w:uiPriority w:val="1"/><w:semiHidden/></w:style>`)
	b.WriteString(`<w:style w:type="table" w:default="1" w:styleId="TableNormal"><w:name w:val="Normal Table"/><w:semiHidden/><w:tblPr><w:tblInd w:w="0" w:type="dxa"/><w:tblCellMar><w:top w:w="0" w:type="dxa"/><w:left w:w="108" w:type="dxa"/><w:bottom w:w="0" w:type="dxa"/><w:right w:w="108" w:type="dxa"/></w:tblCellMar></w:tblPr></w:style>`)
	b.WriteString(`<w:style w:type="numbering" w:default="1" w:styleId="NoList"><w:name w:val="No List"/><w:semiHidden/></w:style>`)
	b.WriteString(`<w:style w:type="paragraph" w:styleId="Title"><w:name w:val="Title"/><w:basedOn w:val="Normal"/><w:next w:val="Normal"/><w:qFormat/><w:rPr><w:sz w:val="48"/><w:szCs w:val="48"/></w:rPr></w:style>`)
	for l := 1; l <= 6; l++ {
		b.WriteString(headingStyle(l))
	}
	b.WriteString(`<w:style w:type="paragraph" w:styleId="ListParagraph"><w:name w:val="List Paragraph"/><w:basedOn w:val="Normal"/><w:qFormat/><w:pPr><w:spacing w:after="60"/><w:ind w:left="720"/><w:contextualSpacing/></w:pPr></w:style>`)
	b.WriteString(`<w:style w:type="paragraph" w:styleId="Quote"><w:name w:val="Quote"/><w:basedOn w:val="Normal"/><w:next w:val="Normal"/><w:qFormat/><w:pPr><w:ind w:left="720" w:right="720"/></w:pPr><w:rPr><w:i/><w:color w:val="404040"/></w:rPr></w:style>`)
	b.WriteString(`<w:style w:type="paragraph" w:styleId="SourceCode"><w:name w:val="Source Code"/><w:basedOn w:val="Normal"/><w:pPr><w:shd w:val="clear" w:color="auto" w:fill="F2F2F2"/><w:spacing w:after="120" w:line="240" w:lineRule="auto"/></w:pPr><w:rPr><w:rFonts w:ascii="Consolas" w:hAnsi="Consolas" w:cs="Courier New"/><w:sz w:val="20"/></w:rPr></w:style>`)
	b.WriteString(`<w:style w:type="character" w:styleId="VerbatimChar"><w:name w:val="Verbatim Char"/><w:basedOn w:val="DefaultParagraphFont"/><w:rPr><w:rFonts w:ascii="Consolas" w:hAnsi="Consolas" w:cs="Courier New"/></w:rPr></w:style>`)
	b.WriteString(`<w:style w:type="character" w:styleId="Hyperlink"><w:name w:val="Hyperlink"/><w:basedOn w:val="DefaultParagraphFont"/><w:rPr><w:color w:val="0563C1"/><w:u w:val="single"/></w:rPr></w:style>`)
	b.WriteString(`<w:style w:type="table" w:styleId="TableGrid"><w:name w:val="Table Grid"/><w:basedOn w:val="TableNormal"/><w:tblPr><w:tblBorders>` +
		`<w:top w:val="single" w:sz="4" w:space="0" w:color="auto"/><w:left w:val="single" w:sz="4" w:space="0" w:color="auto"/><w:bottom w:val="single" w:sz="4" w:space="0" w:color="auto"/><w:right w:val="single" w:sz="4" w:space="0" w:color="auto"/><w:insideH w:val="single" w:sz="4" w:space="0" w:color="auto"/><w:insideV w:val="single" w:sz="4" w:space="0" w:color="auto"/>` +
		`</w:tblBorders></w:tblPr></w:style>`)
	b.WriteString(`</w:styles>`)
	return b.String()
}

// numbering.xml: abstractNum 0 = bullets, 1 = decimal, 9 levels each.
func docxNumbering(nums []string) string {
	var b strings.Builder
	b.WriteString(xmlHeader + `<w:numbering ` + wNS + `>`)
	bullets := []string{"•", "◦", "▪"}
	for a := 0; a < 2; a++ {
		fmt.Fprintf(&b, `<w:abstractNum w:abstractNumId="%d"><w:multiLevelType w:val="hybridMultilevel"/>`, a)
		for l := 0; l < 9; l++ {
			ind := 720 * (l + 1)
			if a == 0 {
				fmt.Fprintf(&b, `<w:lvl w:ilvl="%d"><w:start w:val="1"/><w:numFmt w:val="bullet"/><w:lvlText w:val="%s"/><w:lvlJc w:val="left"/><w:pPr><w:ind w:left="%d" w:hanging="360"/></w:pPr><w:rPr><w:rFonts w:ascii="Calibri" w:hAnsi="Calibri"/></w:rPr></w:lvl>`, l, bullets[l%3], ind)
			} else {
				fmt.Fprintf(&b, `<w:lvl w:ilvl="%d"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%%%d."/><w:lvlJc w:val="left"/><w:pPr><w:ind w:left="%d" w:hanging="360"/></w:pPr></w:lvl>`, l, l+1, ind)
			}
		}
		b.WriteString(`</w:abstractNum>`)
	}
	for _, n := range nums {
		b.WriteString(n)
	}
	b.WriteString(`</w:numbering>`)
	return b.String()
}

const docxSettings = xmlHeader + `<w:settings ` + wNS + `><w:defaultTabStop w:val="720"/><w:characterSpacingControl w:val="doNotCompress"/><w:compat><w:compatSetting w:name="compatibilityMode" w:uri="http://schemas.microsoft.com/office/word" w:val="15"/></w:compat></w:settings>`

func renderDOCX(ctx context.Context, doc *Document, title string) ([]byte, error) {
	w := &docxWriter{ticker: newTicker(ctx, ctxCheckEvery), links: newHyperlinks(4)}
	if err := w.blocks(doc.Blocks, 0, ""); err != nil {
		return nil, err
	}
	var d strings.Builder
	d.WriteString(xmlHeader + `<w:document ` + wNS + `><w:body>`)
	d.WriteString(w.body.String())
	d.WriteString(`<w:sectPr><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1417" w:right="1417" w:bottom="1134" w:left="1417" w:header="708" w:footer="708" w:gutter="0"/></w:sectPr>`)
	d.WriteString(`</w:body></w:document>`)

	rels := w.links.relsXML(
		`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>`,
		`<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/numbering" Target="numbering.xml"/>`,
		`<Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/settings" Target="settings.xml"/>`)

	return writeZip([]zipPart{
		{"[Content_Types].xml", docxContentTypes},
		{"_rels/.rels", fmt.Sprintf(rootRels, "word/document.xml")},
		{"docProps/core.xml", corePropsXML(title)},
		{"docProps/app.xml", appPropsXML()},
		{"word/document.xml", d.String()},
		{"word/_rels/document.xml.rels", rels},
		{"word/styles.xml", docxStyles()},
		{"word/numbering.xml", docxNumbering(w.nums)},
		{"word/settings.xml", docxSettings},
	})
}

// runs writes inline runs; bold forces bold (table headers).
func (w *docxWriter) runs(in []Inline, bold bool) {
	for i := 0; i < len(in); i++ {
		r := in[i]
		if r.Link != "" && externalLink(r.Link) {
			w.body.WriteString(`<w:hyperlink r:id="` + w.links.id(r.Link) + `">`)
			for ; i < len(in) && in[i].Link == r.Link && !in[i].Break; i++ {
				w.run(in[i], bold, true)
			}
			i--
			w.body.WriteString(`</w:hyperlink>`)
			continue
		}
		w.run(r, bold, false)
	}
}

func (w *docxWriter) run(r Inline, bold, hyperlink bool) {
	if r.Break {
		w.body.WriteString(`<w:r><w:br/></w:r>`)
		return
	}
	var rpr strings.Builder
	// Element order inside rPr is fixed by the schema: rStyle, b, bCs, i, iCs, strike.
	if hyperlink {
		rpr.WriteString(`<w:rStyle w:val="Hyperlink"/>`)
	} else if r.Code {
		rpr.WriteString(`<w:rStyle w:val="VerbatimChar"/>`)
	}
	if r.Bold || bold {
		rpr.WriteString(`<w:b/><w:bCs/>`)
	}
	if r.Italic {
		rpr.WriteString(`<w:i/><w:iCs/>`)
	}
	if r.Strike {
		rpr.WriteString(`<w:strike/>`)
	}
	w.body.WriteString(`<w:r>`)
	if rpr.Len() > 0 {
		w.body.WriteString(`<w:rPr>` + rpr.String() + `</w:rPr>`)
	}
	w.body.WriteString(`<w:t xml:space="preserve">` + esc(strings.ReplaceAll(r.Text, "\t", "    ")) + `</w:t></w:r>`)
}

func (w *docxWriter) para(pPr string, in []Inline, bold bool) {
	w.body.WriteString(`<w:p>`)
	if pPr != "" {
		w.body.WriteString(`<w:pPr>` + pPr + `</w:pPr>`)
	}
	w.runs(in, bold)
	w.body.WriteString(`</w:p>`)
}

// blocks writes blocks; listLevel > 0 means inside a list item at that depth,
// pStyle overrides the paragraph style (Quote).
func (w *docxWriter) blocks(bs []Block, listLevel int, pStyle string) error {
	for _, b := range bs {
		if err := w.tick(); err != nil {
			return err
		}
		switch b.Kind {
		case Heading:
			w.para(fmt.Sprintf(`<w:pStyle w:val="Heading%d"/>`, b.Level), b.Inlines, false)
		case Paragraph:
			ppr := ""
			if pStyle != "" {
				ppr = `<w:pStyle w:val="` + pStyle + `"/>`
			} else if listLevel > 0 {
				ppr = fmt.Sprintf(`<w:pStyle w:val="ListParagraph"/><w:ind w:left="%d"/>`, 720*listLevel)
			}
			w.para(ppr, b.Inlines, false)
		case List:
			if err := w.list(b, listLevel); err != nil {
				return err
			}
		case Table:
			if err := w.table(b); err != nil {
				return err
			}
		case Code:
			w.body.WriteString(`<w:p><w:pPr><w:pStyle w:val="SourceCode"/></w:pPr>`)
			for i, line := range strings.Split(b.Text, "\n") {
				if i%ctxCheckEvery == ctxCheckEvery-1 {
					if err := w.ctx.Err(); err != nil {
						return err
					}
				}
				if i > 0 {
					w.body.WriteString(`<w:r><w:br/></w:r>`)
				}
				w.body.WriteString(`<w:r><w:t xml:space="preserve">` + esc(strings.ReplaceAll(line, "\t", "    ")) + `</w:t></w:r>`)
			}
			w.body.WriteString(`</w:p>`)
		case Quote:
			if err := w.blocks(b.Children, listLevel, "Quote"); err != nil {
				return err
			}
		case Rule:
			w.body.WriteString(`<w:p><w:pPr><w:pBdr><w:bottom w:val="single" w:sz="6" w:space="1" w:color="auto"/></w:pBdr></w:pPr></w:p>`)
		}
	}
	return nil
}

func (w *docxWriter) list(b Block, level int) error {
	numID := len(w.nums) + 1
	abstract := 0
	override := ""
	if b.Ordered {
		abstract = 1
		override = fmt.Sprintf(`<w:lvlOverride w:ilvl="%d"><w:startOverride w:val="%d"/></w:lvlOverride>`, min(level, 8), b.Start)
	}
	w.nums = append(w.nums, fmt.Sprintf(`<w:num w:numId="%d"><w:abstractNumId w:val="%d"/>%s</w:num>`, numID, abstract, override))
	numPr := fmt.Sprintf(`<w:pStyle w:val="ListParagraph"/><w:numPr><w:ilvl w:val="%d"/><w:numId w:val="%d"/></w:numPr>`, min(level, 8), numID)
	for _, it := range b.Items {
		first := true
		var prefix []Inline
		if it.Task != nil {
			mark := "☐ "
			if *it.Task {
				mark = "☒ "
			}
			prefix = []Inline{{Text: mark}}
		}
		for _, child := range it.Blocks {
			if first && (child.Kind == Paragraph || child.Kind == Heading) {
				w.para(numPr, append(prefix, child.Inlines...), false)
				first = false
				continue
			}
			if first {
				// An item that starts with a non-paragraph block still gets its marker.
				w.para(numPr, prefix, false)
				first = false
			}
			if err := w.blocks([]Block{child}, level+1, ""); err != nil {
				return err
			}
		}
		if first {
			w.para(numPr, prefix, false)
		}
	}
	return nil
}

func (w *docxWriter) table(t Block) error {
	ncol := len(t.Align)
	if ncol == 0 {
		return nil
	}
	colW := 9072 / ncol // text width of A4 with the margins above, in twips
	w.body.WriteString(`<w:tbl><w:tblPr><w:tblStyle w:val="TableGrid"/><w:tblW w:w="0" w:type="auto"/><w:tblLook w:val="04A0" w:firstRow="1" w:lastRow="0" w:firstColumn="1" w:lastColumn="0" w:noHBand="0" w:noVBand="1"/></w:tblPr><w:tblGrid>`)
	for c := 0; c < ncol; c++ {
		fmt.Fprintf(&w.body, `<w:gridCol w:w="%d"/>`, colW)
	}
	w.body.WriteString(`</w:tblGrid>`)
	row := func(cells [][]Inline, header bool) {
		w.body.WriteString(`<w:tr>`)
		if header {
			w.body.WriteString(`<w:trPr><w:tblHeader/></w:trPr>`)
		}
		for c := 0; c < ncol; c++ {
			fmt.Fprintf(&w.body, `<w:tc><w:tcPr><w:tcW w:w="%d" w:type="dxa"/>`, colW)
			if header {
				w.body.WriteString(`<w:shd w:val="clear" w:color="auto" w:fill="E7E6E6"/>`)
			}
			w.body.WriteString(`</w:tcPr>`)
			ppr := `<w:spacing w:after="0"/>`
			switch t.Align[c] {
			case "center":
				ppr += `<w:jc w:val="center"/>`
			case "right":
				ppr += `<w:jc w:val="right"/>`
			}
			var in []Inline
			if c < len(cells) {
				in = cells[c]
			}
			w.para(ppr, in, header)
			w.body.WriteString(`</w:tc>`)
		}
		w.body.WriteString(`</w:tr>`)
	}
	row(t.Header, true)
	for i, r := range t.Rows {
		if i%ctxCheckEvery == ctxCheckEvery-1 {
			if err := w.ctx.Err(); err != nil {
				return err
			}
		}
		row(r, false)
	}
	w.body.WriteString(`</w:tbl><w:p/>`)
	return nil
}
