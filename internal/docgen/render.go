package docgen

import (
	"bytes"
	"context"
	"fmt"
	"html"
	"strings"
)

// Format is a canonical output format name.
type Format string

// Output formats.
const (
	HTML Format = "html"
	MD   Format = "md"
	TXT  Format = "txt"
	DOCX Format = "docx"
	PPTX Format = "pptx"
	PDF  Format = "pdf"
	XLSX Format = "xlsx"
	CSV  Format = "csv"
)

// Formats lists every canonical format, in documentation order.
var Formats = []Format{HTML, MD, TXT, DOCX, PPTX, PDF, XLSX, CSV}

// aliases are the reference's format names: the canonical names plus markdown,
// text, ppt and powerpoint.
var aliases = map[string]Format{
	"html": HTML,
	"md":   MD, "markdown": MD,
	"txt": TXT, "text": TXT,
	"docx": DOCX,
	"pptx": PPTX, "ppt": PPTX, "powerpoint": PPTX,
	"pdf":  PDF,
	"xlsx": XLSX,
	"csv":  CSV,
}

// ParseFormat maps a format name or alias (case-insensitive, surrounding spaces
// ignored) to its canonical Format.
func ParseFormat(s string) (Format, bool) {
	f, ok := aliases[strings.ToLower(strings.TrimSpace(s))]
	return f, ok
}

// Ext is the file extension (without the dot).
func (f Format) Ext() string { return string(f) }

// MediaType is the HTTP media type of the format.
func (f Format) MediaType() string { return MediaTypeForExt(string(f)) }

// MediaTypeForExt returns the media type for a file extension of a generated file,
// or "" for an extension the store never writes.
func MediaTypeForExt(ext string) string {
	switch Format(ext) {
	case HTML:
		return "text/html; charset=utf-8"
	case MD:
		return "text/markdown; charset=utf-8"
	case TXT:
		return "text/plain; charset=utf-8"
	case CSV:
		return "text/csv; charset=utf-8"
	case PDF:
		return "application/pdf"
	case DOCX:
		return "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
	case PPTX:
		return "application/vnd.openxmlformats-officedocument.presentationml.presentation"
	case XLSX:
		return "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
	}
	return ""
}

// Render renders Markdown source to the format. title names the document where the
// format has a title (HTML <title>, DOCX/PPTX/PDF properties, PPTX title slide) when
// the Markdown has no heading. Errors: *LimitError (too costly to parse and
// render as f within the deadline: see Prescan and Complexity.Check; too deep,
// too wide, too many slides or sheets), *InputError (CSV/XLSX without a
// table), ctx.Err().
func Render(ctx context.Context, f Format, src []byte, title string) ([]byte, error) {
	out, err := RenderFile(ctx, f, src, title)
	return out.Data, err
}

// Output is a rendered file and what the renderer changed on the way.
type Output struct {
	Data []byte
	// FormulasNeutralized counts the CSV cells that a spreadsheet would have
	// taken for a formula and that were written behind a single quote.
	FormulasNeutralized int
}

// RenderFile is Render, reporting what the renderer changed (Output).
func RenderFile(ctx context.Context, f Format, src []byte, title string) (Output, error) {
	if f == MD {
		// Markdown is delivered exactly as written.
		return Output{Data: append([]byte(nil), src...)}, nil
	}
	c, err := Prescan(ctx, src)
	if err != nil {
		return Output{}, err
	}
	if err := c.Check(f); err != nil {
		return Output{}, err
	}
	doc, err := Parse(ctx, src)
	if err != nil {
		return Output{}, err
	}
	given := title
	if t := doc.Title(); t != "" {
		title = t
	}
	var data []byte
	switch f {
	case HTML:
		data, err = renderHTML(doc, title)
	case TXT:
		data, err = renderText(ctx, doc)
	case CSV:
		var n int
		data, n, err = renderCSV(doc)
		return Output{Data: data, FormulasNeutralized: n}, err
	case XLSX:
		data, err = renderXLSX(ctx, doc, title)
	case DOCX:
		data, err = renderDOCX(ctx, doc, title)
	case PPTX:
		// The deck's title slide shows a leading # heading, else the given title
		// (a heading further down is a slide of its own).
		data, err = renderPPTX(ctx, doc, given)
	case PDF:
		data, err = renderPDF(ctx, doc, title)
	default:
		err = fmt.Errorf("%w %q", errUnknownFormat, f)
	}
	return Output{Data: data}, err
}

const htmlStyle = `body{font-family:-apple-system,"Segoe UI",Roboto,"Noto Sans","DejaVu Sans",sans-serif;line-height:1.5;max-width:50em;margin:2em auto;padding:0 1em;color:#1a1a1a}
h1,h2,h3,h4,h5,h6{line-height:1.25;margin:1.2em 0 .5em}
table{border-collapse:collapse;margin:1em 0}
th,td{border:1px solid #bbb;padding:.3em .6em;vertical-align:top}
th{background:#f0f0f0}
pre{background:#f5f5f5;padding:.8em;overflow-x:auto}
code{font-family:"DejaVu Sans Mono",Menlo,Consolas,monospace;font-size:.95em}
blockquote{border-left:4px solid #ccc;margin:1em 0;padding:0 1em;color:#555}`

func renderHTML(doc *Document, title string) ([]byte, error) {
	var body bytes.Buffer
	// goldmark without html.WithUnsafe: raw HTML becomes "<!-- raw HTML omitted -->"
	// and links with dangerous schemes get an empty href.
	if err := newMarkdown().Convert(doc.Source, &body); err != nil {
		return nil, fmt.Errorf("html: %w", err)
	}
	var b bytes.Buffer
	b.WriteString("<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n")
	b.WriteString("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">\n")
	b.WriteString("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
	b.WriteString("<title>" + html.EscapeString(title) + "</title>\n")
	b.WriteString("<style>\n" + htmlStyle + "\n</style>\n</head>\n<body>\n")
	b.Write(body.Bytes())
	b.WriteString("</body>\n</html>\n")
	return b.Bytes(), nil
}
