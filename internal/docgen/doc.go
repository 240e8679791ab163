// Package docgen renders Markdown (parsed with github.com/yuin/goldmark, GFM
// extensions) into downloadable documents: HTML, Markdown, plain text, DOCX, PPTX,
// XLSX, CSV and PDF. Every renderer is a pure, byte-reproducible function of its
// input: no clock, no random ids, fixed zip timestamps.
package docgen

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Limits of the document model; exceeding one is a *LimitError.
const (
	MaxDepth        = 32   // nesting of lists and block quotes
	MaxTableColumns = 64   // columns of one table
	MaxSlides       = 1000 // slides of one PPTX
	MaxSheets       = 255  // tables (sheets) of one XLSX
	ctxCheckEvery   = 256  // blocks between context checks
)

// LimitError reports input that exceeds a declared limit of the renderer.
type LimitError struct {
	Reason  string // machine reason, e.g. "nesting_too_deep"
	Message string
}

func (e *LimitError) Error() string { return e.Message }

// InputError reports input the requested format cannot represent (e.g. a CSV of a
// document that has no table).
type InputError struct {
	Reason  string
	Message string
}

func (e *InputError) Error() string { return e.Message }

// Inline is one run of text with uniform style.
type Inline struct {
	Text   string
	Bold   bool
	Italic bool
	Strike bool
	Code   bool
	Link   string // destination URL when the run is (part of) a link; safe URLs only
	Break  bool   // a hard line break (Text is empty)
}

// Block kinds.
type BlockKind int

// Block kinds of the document model.
const (
	Heading BlockKind = iota + 1
	Paragraph
	List
	Table
	Code
	Quote
	Rule
)

// Block is one block of the document model.
type Block struct {
	Kind    BlockKind
	Level   int      // heading level 1..6
	Inlines []Inline // heading, paragraph
	// List
	Ordered bool
	Start   int
	Items   []Item
	// Table
	Align  []string   // "", "left", "center", "right" per column
	Header [][]Inline // header cells
	Rows   [][][]Inline
	// Code
	Lang string
	Text string
	// Quote
	Children []Block
}

// itemMarker is the marker of item k of the list b in the PDF and PPTX
// renderings: "•", or its number and a period in an ordered list.
func (b Block) itemMarker(k int) string {
	if b.Ordered {
		return strconv.Itoa(b.Start+k) + "."
	}
	return "•"
}

// taskBox is the ballot box of a task list item: ☒ when done, ☐ when open.
func taskBox(done bool) string {
	if done {
		return "☒"
	}
	return "☐"
}

// Item is one list item: its blocks (paragraphs, nested lists, ...), and the task
// state for GFM task lists (nil when not a task).
type Item struct {
	Blocks []Block
	Task   *bool
}

// Document is the parsed Markdown.
type Document struct {
	Blocks []Block
	Source []byte
}

func newMarkdown() goldmark.Markdown {
	return goldmark.New(goldmark.WithExtensions(extension.GFM))
}

// Parse parses Markdown into the document model. Raw HTML is dropped (never passed
// through), and links with dangerous schemes (javascript:, vbscript:, file:, data:
// other than images) lose their destination. It returns *LimitError when the nesting
// is deeper than MaxDepth or a table has more than MaxTableColumns columns, and
// ctx.Err() when the context ends.
func Parse(ctx context.Context, src []byte) (*Document, error) {
	md := newMarkdown()
	root := md.Parser().Parse(text.NewReader(src))
	c := &converter{src: src, ticker: newTicker(ctx, ctxCheckEvery)}
	blocks, err := c.blocks(root, 0)
	if err != nil {
		return nil, err
	}
	return &Document{Blocks: blocks, Source: src}, nil
}

type converter struct {
	src []byte
	ticker
}

// ticker counts units of work (blocks) and checks its context every
// `every`-th of them.
type ticker struct {
	ctx   context.Context
	every int
	count int
}

func newTicker(ctx context.Context, every int) ticker { return ticker{ctx: ctx, every: every} }

// tick counts one unit and returns the context's error at every every-th.
func (t *ticker) tick() error {
	t.count++
	if t.count%t.every == 0 {
		return t.ctx.Err()
	}
	return nil
}

func (c *converter) blocks(parent ast.Node, depth int) ([]Block, error) {
	if depth > MaxDepth {
		return nil, &LimitError{Reason: "nesting_too_deep", Message: fmt.Sprintf("lists and quotes are nested deeper than %d levels", MaxDepth)}
	}
	var out []Block
	for n := parent.FirstChild(); n != nil; n = n.NextSibling() {
		if err := c.tick(); err != nil {
			return nil, err
		}
		switch v := n.(type) {
		case *ast.Heading:
			out = append(out, Block{Kind: Heading, Level: v.Level, Inlines: c.inlines(v)})
		case *ast.Paragraph, *ast.TextBlock:
			in := c.inlines(v)
			if len(in) > 0 {
				out = append(out, Block{Kind: Paragraph, Inlines: in})
			}
		case *ast.List:
			b := Block{Kind: List, Ordered: v.IsOrdered(), Start: v.Start}
			for it := v.FirstChild(); it != nil; it = it.NextSibling() {
				item := Item{}
				children, err := c.blocks(it, depth+1)
				if err != nil {
					return nil, err
				}
				item.Blocks = children
				item.Task = taskState(it)
				b.Items = append(b.Items, item)
			}
			out = append(out, b)
		case *ast.FencedCodeBlock:
			out = append(out, Block{Kind: Code, Lang: string(v.Language(c.src)), Text: c.lines(v.Lines())})
		case *ast.CodeBlock:
			out = append(out, Block{Kind: Code, Text: c.lines(v.Lines())})
		case *ast.Blockquote:
			children, err := c.blocks(v, depth+1)
			if err != nil {
				return nil, err
			}
			out = append(out, Block{Kind: Quote, Children: children})
		case *ast.ThematicBreak:
			out = append(out, Block{Kind: Rule})
		case *extast.Table:
			b, err := c.table(v)
			if err != nil {
				return nil, err
			}
			out = append(out, b)
		case *ast.HTMLBlock:
			// Raw HTML is never passed through to any output.
		default:
			// Unknown container: keep its text content.
			children, err := c.blocks(v, depth+1)
			if err != nil {
				return nil, err
			}
			out = append(out, children...)
		}
	}
	return out, nil
}

func taskState(item ast.Node) *bool {
	first := item.FirstChild()
	if first == nil {
		return nil
	}
	cb, ok := first.FirstChild().(*extast.TaskCheckBox)
	if !ok {
		return nil
	}
	v := cb.IsChecked
	return &v
}

func (c *converter) lines(segs *text.Segments) string {
	var b strings.Builder
	for i := 0; i < segs.Len(); i++ {
		s := segs.At(i)
		b.Write(s.Value(c.src))
	}
	return strings.TrimRight(b.String(), "\n")
}

func (c *converter) table(t *extast.Table) (Block, error) {
	b := Block{Kind: Table}
	for _, a := range t.Alignments {
		switch a {
		case extast.AlignLeft:
			b.Align = append(b.Align, "left")
		case extast.AlignCenter:
			b.Align = append(b.Align, "center")
		case extast.AlignRight:
			b.Align = append(b.Align, "right")
		default:
			b.Align = append(b.Align, "")
		}
	}
	if len(b.Align) > MaxTableColumns {
		return Block{}, &LimitError{Reason: "too_many_columns", Message: fmt.Sprintf("a table has %d columns; at most %d are supported", len(b.Align), MaxTableColumns)}
	}
	for r := t.FirstChild(); r != nil; r = r.NextSibling() {
		var cells [][]Inline
		for cell := r.FirstChild(); cell != nil; cell = cell.NextSibling() {
			cells = append(cells, c.inlines(cell))
		}
		for len(cells) < len(b.Align) {
			cells = append(cells, nil)
		}
		if _, ok := r.(*extast.TableHeader); ok {
			b.Header = cells
		} else {
			b.Rows = append(b.Rows, cells)
		}
	}
	return b, nil
}

type style struct {
	bold, italic, strike, code bool
	link                       string
}

// inside returns the style of the children of the styling node n (a code
// span, an emphasis, a strikethrough or a link) within text of style st.
func (st style) inside(n ast.Node) style {
	switch n := n.(type) {
	case *ast.CodeSpan:
		st.code = true
	case *ast.Emphasis:
		if n.Level >= 2 {
			st.bold = true
		} else {
			st.italic = true
		}
	case *extast.Strikethrough:
		st.strike = true
	case *ast.Link:
		st.link = safeURL(n.Destination)
	}
	return st
}

func (c *converter) inlines(parent ast.Node) []Inline {
	var out []Inline
	c.walkInline(parent, style{}, &out)
	return mergeInlines(out)
}

func (c *converter) emit(out *[]Inline, st style, s string) {
	if s == "" {
		return
	}
	*out = append(*out, Inline{Text: s, Bold: st.bold, Italic: st.italic, Strike: st.strike, Code: st.code, Link: st.link})
}

func (c *converter) walkInline(parent ast.Node, st style, out *[]Inline) {
	for n := parent.FirstChild(); n != nil; n = n.NextSibling() {
		switch v := n.(type) {
		case *ast.Text:
			val := v.Value(c.src)
			if !v.IsRaw() && !st.code {
				val = unescape(val)
			}
			c.emit(out, st, strings.ReplaceAll(string(val), "\x00", "\uFFFD"))
			if v.HardLineBreak() {
				*out = append(*out, Inline{Break: true})
			} else if v.SoftLineBreak() {
				c.emit(out, st, " ")
			}
		case *ast.String:
			val := v.Value
			if !v.IsRaw() && !v.IsCode() {
				val = unescape(val)
			}
			c.emit(out, st, string(val))
		case *ast.CodeSpan, *ast.Emphasis, *extast.Strikethrough, *ast.Link:
			c.walkInline(v, st.inside(v), out)
		case *ast.AutoLink:
			s := st
			url := v.URL(c.src)
			if v.AutoLinkType == ast.AutoLinkEmail && !bytes.HasPrefix(bytes.ToLower(url), []byte("mailto:")) {
				url = append([]byte("mailto:"), url...)
			}
			s.link = safeURL(url)
			c.emit(out, s, string(v.Label(c.src)))
		case *ast.Image:
			// Images are not fetched; their alt text stands in.
			c.walkInline(v, st, out)
		case *ast.RawHTML:
			// Raw HTML is dropped.
		case *extast.TaskCheckBox:
			// Rendered from Item.Task.
		default:
			c.walkInline(v, st, out)
		}
	}
}

func unescape(b []byte) []byte {
	b = util.UnescapePunctuations(b)
	b = util.ResolveNumericReferences(b)
	b = util.ResolveEntityNames(b)
	return b
}

// safeURL returns the link destination when its scheme is harmless (http, https,
// mailto, a relative reference or a fragment) and "" otherwise.
func safeURL(dest []byte) string {
	u := strings.TrimSpace(string(unescape(dest)))
	if u == "" {
		return ""
	}
	lower := strings.ToLower(u)
	for _, p := range []string{"http://", "https://", "mailto:", "#"} {
		if strings.HasPrefix(lower, p) {
			return u
		}
	}
	// A relative reference has no scheme: no ':' before the first '/', '?' or '#'.
	if i := strings.IndexAny(u, ":/?#"); i >= 0 && u[i] == ':' {
		return ""
	}
	if strings.ContainsAny(u, "\x00\r\n") {
		return ""
	}
	return u
}

// mergeInlines joins neighbouring runs of the same style. A run of many
// pieces (goldmark splits text at every delimiter it does not pair) is joined
// once, not by repeated concatenation, which is quadratic.
func mergeInlines(in []Inline) []Inline {
	var out []Inline
	for i := 0; i < len(in); {
		r := in[i]
		j := i + 1
		for j < len(in) && !r.Break && !in[j].Break && sameStyle(r, in[j]) {
			j++
		}
		if j > i+1 {
			var b strings.Builder
			for _, p := range in[i:j] {
				b.WriteString(p.Text)
			}
			r.Text = b.String()
		}
		out = append(out, r)
		i = j
	}
	return out
}

func sameStyle(a, b Inline) bool {
	return a.Bold == b.Bold && a.Italic == b.Italic && a.Strike == b.Strike && a.Code == b.Code && a.Link == b.Link
}

// PlainText returns the text of runs without styling; hard breaks become "\n".
func PlainText(in []Inline) string {
	var b strings.Builder
	for _, r := range in {
		if r.Break {
			b.WriteByte('\n')
			continue
		}
		b.WriteString(r.Text)
	}
	return b.String()
}

// Title returns the text of the first heading, or "" when there is none.
func (d *Document) Title() string {
	for _, b := range d.Blocks {
		if b.Kind == Heading {
			return strings.TrimSpace(PlainText(b.Inlines))
		}
	}
	return ""
}

// Tables returns every table of the document, in order, with the text of the
// nearest heading before it.
func (d *Document) Tables() (tables []Block, headings []string) {
	var last string
	var walk func(bs []Block)
	walk = func(bs []Block) {
		for _, b := range bs {
			switch b.Kind {
			case Heading:
				last = strings.TrimSpace(PlainText(b.Inlines))
			case Table:
				tables = append(tables, b)
				headings = append(headings, last)
			case Quote:
				walk(b.Children)
			case List:
				for _, it := range b.Items {
					walk(it.Blocks)
				}
			}
		}
	}
	walk(d.Blocks)
	return tables, headings
}

var errUnknownFormat = errors.New("unknown format")
