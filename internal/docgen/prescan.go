package docgen

import (
	"bytes"
	"context"
	"fmt"
	"sync"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// goldmark cannot be interrupted: once Parse starts, it runs to the end
// whatever the context says. Some inputs make it superlinear — a paragraph of
// unclosed link destinations `[a](b [a](b …` rescans the rest of the
// paragraph at every one (quadratic), mismatched emphasis delimiters `*a_ *a_
// …` are paired in quadratic time, runs of link reference definitions and
// deep nesting of quotes and lists are quadratic in the block parser — and
// even linear work is heavy per markup character (every delimiter becomes
// nodes). Prescan measures those costs before goldmark sees the input and
// refuses what would not render well within the call deadline. The limits
// below were measured (docs/files.md): at each of them, the costliest shapes
// found render in every format in well under the 5 s deadline under -race.

// MaxLineNesting bounds the container prefix of one line: '>' markers, list
// markers, and for a line with a list marker half its indentation. (MaxDepth,
// checked on the parsed document, is the real nesting limit; this looser
// estimate keeps the block parser, which is quadratic in nesting, fast before
// it runs.) A deeper line is a *LimitError, reason nesting_too_deep.
const MaxLineNesting = 2 * MaxDepth

// MaxRenderCost bounds Complexity.Cost: about two seconds of CPU under -race
// on the 2-core development machine (five to ten times less in a normal
// build), well within the 5 s call deadline.
const MaxRenderCost = 2_000_000

// MaxRenderMemory bounds Complexity.Memory: the estimated peak heap of one
// render, in bytes. Time is not the only cost: goldmark keeps hundreds of
// bytes per markup character and per line, and a document that renders in a
// second can hold 200 MB while it does.
const MaxRenderMemory = 96 << 20

// Complexity is what Prescan measured.
type Complexity struct {
	Bytes      int
	Lines      int
	MaxNesting int // largest nesting estimate of a line (see MaxLineNesting)
	Nesting    int // nesting estimates of all lines, summed
	// Markup counts inline markup characters (* _ ~ [ ] ( ) ! > & \ ` |) in
	// text that is parsed inline: each becomes nodes, runs and output.
	Markup int
	// Scanners counts what makes the parser run a regular expression or a
	// scan: '<' (raw HTML, autolinks) and autolink candidates (www., ://, @).
	Scanners int
	// InlineWork is the superlinear work of the inline parser, summed over
	// the blocks it parses: delimiter runs squared (pairing emphasis), plus
	// the block's length for every backtick run and every ']' (each can scan
	// the rest of the block for a closing run or a link destination).
	InlineWork int64
	// DefinitionWork is the superlinear work of the block parser on link
	// reference definitions, parsed in time quadratic in their run: for each
	// paragraph, the lines that start with '[' times its lines.
	DefinitionWork int64
	// InlineLines counts the lines of the blocks parsed inline: each is a
	// text node at least, and a hard line break more.
	InlineLines int
	// RawLines counts the lines of code blocks (and raw HTML blocks): not
	// parsed inline, but written line by line.
	RawLines   int
	Blocks     int // block nodes: paragraphs, list items, headings, rows, cells, ...
	TableCells int
	TableRows  int
	Headings   int
}

// costWeights are the measured costs of one unit of each Complexity count,
// in work units (about a microsecond of CPU under -race on the development
// machine; docs/files.md has the measurements they were taken from, rounded
// up to the costliest shape seen).
type costWeights struct {
	Byte, Markup, Scanner, Nesting, InlineLine, RawLine, Block, Cell, Row, Heading, InlineWork, DefinitionWork float64
}

// parseWeights is the work every format but md does: pre-scan, goldmark's
// parse and the document model.
var parseWeights = costWeights{Byte: 0.5, Markup: 8, Scanner: 50, Nesting: 12, InlineLine: 14, Block: 20, InlineWork: 0.03, DefinitionWork: 0.03}

// formatWeights is each format's own work on top of parseWeights. HTML runs
// goldmark a second time to write its body.
var formatWeights = map[Format]costWeights{
	HTML: parseWeights,
	TXT:  {},
	CSV:  {},
	XLSX: {Cell: 70},
	DOCX: {Byte: 0.5, Markup: 6, Scanner: 30, InlineLine: 10, RawLine: 12, Block: 35, Cell: 50},
	PPTX: {Byte: 5.5, Markup: 12, Scanner: 60, InlineLine: 20, RawLine: 5, Block: 45, Cell: 90, Row: 450},
	PDF:  {Byte: 9, Markup: 14, Scanner: 100, InlineLine: 10, RawLine: 5, Block: 50, Cell: 60, Heading: 100},
}

func (w costWeights) of(c *Complexity) float64 {
	return w.Byte*float64(c.Bytes) + w.Markup*float64(c.Markup) + w.Scanner*float64(c.Scanners) +
		w.Nesting*float64(c.Nesting) + w.InlineLine*float64(c.InlineLines) + w.RawLine*float64(c.RawLines) + w.Block*float64(c.Blocks) + w.Cell*float64(c.TableCells) +
		w.Row*float64(c.TableRows) + w.Heading*float64(c.Headings) + w.InlineWork*float64(c.InlineWork) +
		w.DefinitionWork*float64(c.DefinitionWork)
}

// memWeights are the measured peak heap, in bytes, per unit of each count
// (the largest seen over the formats, from the same measurements as the
// cost weights); pdfByteMemory is what the PDF writer adds per byte of text.
var memWeights = costWeights{Byte: 30, Markup: 800, Scanner: 1500, InlineLine: 900, Block: 1400, Cell: 1000}

const pdfByteMemory = 150

// Memory estimates the peak heap of rendering the measured Markdown as f, in
// bytes (see MaxRenderMemory).
func (c *Complexity) Memory(f Format) int64 {
	switch f {
	case MD:
		return 0
	case PDF:
		return int64(memWeights.of(c)) + pdfByteMemory*int64(c.Bytes)
	}
	return int64(memWeights.of(c))
}

// Cost estimates the work of rendering the measured Markdown as f, in work
// units (see MaxRenderCost). Markdown delivered as written costs nothing.
func (c *Complexity) Cost(f Format) int64 {
	if f == MD {
		return 0
	}
	return int64(parseWeights.of(c) + formatWeights[f].of(c))
}

// Check returns a *LimitError, reason markdown_too_complex, when rendering
// as f would cost more than MaxRenderCost or take more than MaxRenderMemory.
func (c *Complexity) Check(f Format) error {
	if mem := c.Memory(f); mem > MaxRenderMemory {
		return &LimitError{Reason: "markdown_too_complex", Message: fmt.Sprintf(
			"rendering this Markdown as %s is estimated to need %d MB of memory, more than the %d MB a call may use "+
				"(%d bytes, %d markup characters, %d autolink or HTML candidates, %d lines parsed inline, %d blocks, %d table cells); "+
				"split it or use less markup",
			f, mem>>20, MaxRenderMemory>>20, c.Bytes, c.Markup, c.Scanners, c.InlineLines, c.Blocks, c.TableCells)}
	}
	cost := c.Cost(f)
	if cost <= MaxRenderCost {
		return nil
	}
	return &LimitError{Reason: "markdown_too_complex", Message: fmt.Sprintf(
		"rendering this Markdown as %s is estimated at %d work units, more than the %d done within the call deadline "+
			"(%d bytes, %d markup characters, %d autolink or HTML candidates, %d blocks, %d table cells, %d units of nesting and %d of inline parsing); "+
			"split it, shorten long paragraphs full of markup, or choose a lighter format (md, txt, html)",
		f, cost, MaxRenderCost, c.Bytes, c.Markup, c.Scanners, c.Blocks, c.TableCells, c.Nesting, c.InlineWork+c.DefinitionWork)}
}

// blockParser parses Markdown blocks only (GFM tables included), without
// inline parsing: its paragraphs, headings and table cells are exactly the
// spans goldmark's inline parser will later work on.
var blockParser = sync.OnceValue(func() parser.Parser {
	return parser.NewParser(
		parser.WithBlockParsers(parser.DefaultBlockParsers()...),
		parser.WithParagraphTransformers(parser.DefaultParagraphTransformers()...),
		parser.WithParagraphTransformers(util.Prioritized(extension.NewTableParagraphTransformer(), 200)),
	)
})

// Prescan measures the Markdown complexity of src (see Complexity, and
// Complexity.Check for the per-format limit) before goldmark sees it. It
// returns a *LimitError for a line nested deeper than MaxLineNesting (reason
// nesting_too_deep) or lines that alone cost more than MaxRenderCost to parse
// (markdown_too_complex), and ctx.Err() when the context ends. It runs in time
// linear in len(src): a pass over the lines first bounds nesting and charges
// link-definition runs, which keeps the block parse that follows linear too.
func Prescan(ctx context.Context, src []byte) (Complexity, error) {
	c := Complexity{Bytes: len(src)}
	if err := c.scanLines(ctx, src); err != nil {
		return c, err
	}
	// What the lines already show (nesting, definition runs) is paid by the
	// block parse below, which cannot be interrupted: every format pays it,
	// so a document that costs too much already is refused here.
	if cost := int64(parseWeights.of(&c)); cost > MaxRenderCost {
		return c, &LimitError{Reason: "markdown_too_complex", Message: fmt.Sprintf(
			"parsing this Markdown is estimated at %d work units before any rendering, more than the %d done within the call deadline "+
				"(%d units of nesting in %d lines, %d of link-definition runs); flatten the nesting or separate the definitions with blank lines",
			cost, MaxRenderCost, c.Nesting, c.Lines, c.DefinitionWork)}
	}
	root := blockParser().Parse(text.NewReader(src))
	nodes := 0
	var werr error
	_ = ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering || n.Type() != ast.TypeBlock {
			return ast.WalkContinue, nil
		}
		if nodes++; nodes%4096 == 0 {
			if werr = ctx.Err(); werr != nil {
				return ast.WalkStop, nil
			}
		}
		c.Blocks++
		switch n.Kind() {
		case extast.KindTableCell:
			c.TableCells++
		case extast.KindTableRow, extast.KindTableHeader:
			c.TableRows++
		case ast.KindHeading:
			c.Headings++
		}
		if n.IsRaw() {
			c.RawLines += n.Lines().Len()
		} else if n.Lines().Len() > 0 {
			c.inlineBlock(n.Lines(), src)
		}
		return ast.WalkContinue, nil
	})
	return c, werr
}

// scanLines bounds line nesting and charges runs of lines that start with
// '[' (link reference definitions are parsed in time quadratic in their run).
func (c *Complexity) scanLines(ctx context.Context, src []byte) error {
	chunkLines, chunkDefs := 0, 0
	endChunk := func() {
		c.DefinitionWork += int64(chunkDefs) * int64(chunkLines)
		chunkLines, chunkDefs = 0, 0
	}
	for rest := src; len(rest) > 0; {
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			rest = nil
		}
		if c.Lines++; c.Lines%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		nesting, item, body := linePrefix(line)
		c.MaxNesting = max(c.MaxNesting, nesting)
		c.Nesting += nesting
		if nesting > MaxLineNesting {
			return &LimitError{Reason: "nesting_too_deep", Message: fmt.Sprintf(
				"line %d nests %d quotes, lists or indentation levels; at most %d are parsed", c.Lines, nesting, MaxLineNesting)}
		}
		if item || len(bytes.TrimSpace(body)) == 0 {
			// A blank line ends a paragraph; a list item starts its own
			// (a task list's "- [ ]" lines are not a run of definitions).
			endChunk()
		}
		if len(bytes.TrimSpace(body)) == 0 {
			continue
		}
		chunkLines++
		if body[0] == '[' {
			chunkDefs++
		}
	}
	endChunk()
	return nil
}

// linePrefix estimates the container nesting of a line — its '>' markers,
// its list markers and, when it has a list marker, half the spaces before
// and between them (deeper lists are indented further) — and returns it,
// whether the line starts a list item, and the rest of the line after that
// prefix.
func linePrefix(line []byte) (int, bool, []byte) {
	if isThematicBreak(line) {
		return 0, false, line // "- - - -" is a rule, not nested lists
	}
	quotes, markers, spaces := 0, 0, 0
	i := 0
	for i < len(line) {
		switch c := line[i]; {
		case c == ' ':
			spaces++
			i++
			continue
		case c == '\t':
			spaces += 4
			i++
			continue
		case c == '>':
			quotes++
			i++
			continue
		case (c == '-' || c == '*' || c == '+') && i+1 < len(line) && (line[i+1] == ' ' || line[i+1] == '\t'):
			markers++
			i++
			continue
		case c >= '0' && c <= '9':
			j := i
			for j < len(line) && j-i < 9 && line[j] >= '0' && line[j] <= '9' {
				j++
			}
			if j+1 < len(line) && (line[j] == '.' || line[j] == ')') && (line[j+1] == ' ' || line[j+1] == '\t') {
				markers++
				i = j + 1
				continue
			}
		}
		break
	}
	nesting := quotes + markers
	if markers > 0 {
		nesting += spaces / 2
	}
	return nesting, markers > 0, line[i:]
}

// isThematicBreak reports whether line is three or more '-', '*' or '_'
// (the same one) with only spaces and tabs between.
func isThematicBreak(line []byte) bool {
	var mark byte
	n := 0
	for _, c := range line {
		switch {
		case c == ' ' || c == '\t':
		case mark == 0 && (c == '-' || c == '*' || c == '_'):
			mark, n = c, 1
		case c == mark:
			n++
		default:
			return false
		}
	}
	return n >= 3
}

// inlineBlock adds the markup and the superlinear work of one block that
// goldmark parses inline (a paragraph, heading or table cell).
func (c *Complexity) inlineBlock(lines *text.Segments, src []byte) {
	length := 0
	delims, scans := 0, 0
	c.InlineLines += lines.Len()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		length += seg.Len()
	}
	for i := 0; i < lines.Len(); i++ {
		at := lines.At(i)
		seg := at.Value(src)
		escaped := false
		for j, ch := range seg {
			switch ch {
			case '*', '_', '~':
				c.Markup++
				if !escaped && (j == 0 || seg[j-1] != ch) {
					delims++
				}
			case '`':
				c.Markup++
				if !escaped && (j == 0 || seg[j-1] != '`') {
					scans++
				}
			case ']':
				c.Markup++
				if !escaped {
					scans++
				}
			case '<', '@':
				c.Scanners++
			case '.':
				if j >= 3 && string(seg[j-3:j]) == "www" {
					c.Scanners++
				}
			case ':':
				if j+2 < len(seg) && seg[j+1] == '/' && seg[j+2] == '/' {
					c.Scanners++
				}
			case '[', '(', ')', '!', '>', '&', '\\', '|':
				c.Markup++
			}
			escaped = ch == '\\' && !escaped
		}
	}
	c.InlineWork += int64(delims)*int64(delims) + int64(scans)*int64(length)
}
