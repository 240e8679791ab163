package docgen

import (
	"bytes"
	"context"
	"encoding/csv"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/width"
)

// displayWidth is the number of terminal columns s takes: East Asian wide and
// fullwidth characters take two.
func displayWidth(s string) int {
	n := 0
	for _, r := range s {
		switch width.LookupRune(r).Kind() {
		case width.EastAsianWide, width.EastAsianFullwidth:
			n += 2
		default:
			n++
		}
	}
	return n
}

// inlineText renders runs as plain text: links as "text (url)" when the URL differs
// from the text.
func inlineText(in []Inline) string {
	var b strings.Builder
	for i := 0; i < len(in); i++ {
		r := in[i]
		if r.Break {
			b.WriteByte('\n')
			continue
		}
		if r.Link == "" {
			b.WriteString(r.Text)
			continue
		}
		// Collect the whole link (it may span runs of different styles).
		var t strings.Builder
		j := i
		for ; j < len(in) && !in[j].Break && in[j].Link == r.Link; j++ {
			t.WriteString(in[j].Text)
		}
		i = j - 1
		b.WriteString(t.String())
		if t.String() != r.Link && "mailto:"+t.String() != r.Link {
			b.WriteString(" (" + r.Link + ")")
		}
	}
	return b.String()
}

func renderText(ctx context.Context, doc *Document) ([]byte, error) {
	var b bytes.Buffer
	if err := writeTextBlocks(ctx, &b, doc.Blocks, ""); err != nil {
		return nil, err
	}
	out := bytes.TrimRight(b.Bytes(), "\n")
	return append(out, '\n'), nil
}

func writeTextBlocks(ctx context.Context, b *bytes.Buffer, blocks []Block, indent string) error {
	for i, bl := range blocks {
		if i%ctxCheckEvery == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		switch bl.Kind {
		case Heading:
			t := inlineText(bl.Inlines)
			b.WriteString(indent + t + "\n")
			if bl.Level <= 2 {
				ch := "="
				if bl.Level == 2 {
					ch = "-"
				}
				b.WriteString(indent + strings.Repeat(ch, max(3, displayWidth(t))) + "\n")
			}
			b.WriteString("\n")
		case Paragraph:
			writeIndented(b, indent, inlineText(bl.Inlines))
			b.WriteString("\n")
		case List:
			for k, it := range bl.Items {
				marker := "- "
				if bl.Ordered {
					marker = strconv.Itoa(bl.Start+k) + ". "
				}
				if it.Task != nil {
					if *it.Task {
						marker += "[x] "
					} else {
						marker += "[ ] "
					}
				}
				var sub bytes.Buffer
				if err := writeTextBlocks(ctx, &sub, it.Blocks, ""); err != nil {
					return err
				}
				lines := strings.Split(strings.TrimRight(sub.String(), "\n"), "\n")
				pad := strings.Repeat(" ", utf8.RuneCountInString(marker))
				for n, line := range lines {
					switch {
					case n == 0:
						b.WriteString(indent + marker + line + "\n")
					case line == "":
						// Keep item-internal paragraphs tight.
					default:
						b.WriteString(indent + pad + line + "\n")
					}
				}
			}
			b.WriteString("\n")
		case Table:
			writeTextTable(b, bl, indent)
			b.WriteString("\n")
		case Code:
			for _, line := range strings.Split(bl.Text, "\n") {
				b.WriteString(indent + "    " + line + "\n")
			}
			b.WriteString("\n")
		case Quote:
			var sub bytes.Buffer
			if err := writeTextBlocks(ctx, &sub, bl.Children, ""); err != nil {
				return err
			}
			for _, line := range strings.Split(strings.TrimRight(sub.String(), "\n"), "\n") {
				b.WriteString(strings.TrimRight(indent+"> "+line, " ") + "\n")
			}
			b.WriteString("\n")
		case Rule:
			b.WriteString(indent + strings.Repeat("-", 40) + "\n\n")
		}
	}
	return nil
}

func writeIndented(b *bytes.Buffer, indent, s string) {
	for _, line := range strings.Split(s, "\n") {
		b.WriteString(indent + line + "\n")
	}
}

// cellText is a table cell as one line of plain text.
func cellText(in []Inline) string {
	return strings.TrimSpace(strings.ReplaceAll(inlineText(in), "\n", " "))
}

func writeTextTable(b *bytes.Buffer, t Block, indent string) {
	rows := append([][][]Inline{t.Header}, t.Rows...)
	ncol := len(t.Align)
	width := make([]int, ncol)
	text := make([][]string, len(rows))
	for i, r := range rows {
		text[i] = make([]string, ncol)
		for c := 0; c < ncol && c < len(r); c++ {
			text[i][c] = cellText(r[c])
			width[c] = max(width[c], displayWidth(text[i][c]))
		}
	}
	line := func(cells []string) {
		var parts []string
		for c, s := range cells {
			pad := width[c] - displayWidth(s)
			switch t.Align[c] {
			case "right":
				s = strings.Repeat(" ", pad) + s
			case "center":
				s = strings.Repeat(" ", pad/2) + s + strings.Repeat(" ", pad-pad/2)
			default:
				s += strings.Repeat(" ", pad)
			}
			parts = append(parts, s)
		}
		b.WriteString(strings.TrimRight(indent+"| "+strings.Join(parts, " | ")+" |", " ") + "\n")
	}
	line(text[0])
	var sep []string
	for c := range width {
		sep = append(sep, strings.Repeat("-", max(3, width[c])))
	}
	b.WriteString(indent + "|-" + strings.Join(sep, "-|-") + "-|\n")
	for _, r := range text[1:] {
		line(r)
	}
}

// renderCSV writes the first table as RFC 4180 CSV (CRLF line ends, quotes where
// needed) with a UTF-8 byte order mark, so that spreadsheet programs read non-ASCII
// text correctly.
// plainNumberRe matches what the CSV writer leaves alone although it starts
// with '+' or '-': a signed decimal number, which a spreadsheet reads as a
// number and never as a formula.
var plainNumberRe = regexp.MustCompile(`^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$`)

// neutralizeFormula returns s, or s behind a single quote when a spreadsheet
// opening the CSV would take it for a formula: it starts with '=', '+', '-',
// '@', a tab or a carriage return (OWASP, CSV injection) and is not a plain
// number. The quote makes the spreadsheet show the cell as text.
func neutralizeFormula(s string) (string, bool) {
	if s == "" || !strings.ContainsRune("=+-@\t\r", rune(s[0])) || plainNumberRe.MatchString(s) {
		return s, false
	}
	return "'" + s, true
}

// renderCSV writes the first table as CSV and reports how many cells it
// neutralized (see neutralizeFormula).
func renderCSV(doc *Document) ([]byte, int, error) {
	tables, _ := doc.Tables()
	if len(tables) == 0 {
		return nil, 0, &InputError{Reason: "no_table", Message: "format csv needs a Markdown table in the content; none was found"}
	}
	t := tables[0]
	var b bytes.Buffer
	b.WriteString("\uFEFF")
	w := csv.NewWriter(&b)
	w.UseCRLF = true
	neutralized := 0
	for _, r := range append([][][]Inline{t.Header}, t.Rows...) {
		rec := make([]string, len(t.Align))
		for c := range rec {
			if c < len(r) {
				var changed bool
				if rec[c], changed = neutralizeFormula(cellText(r[c])); changed {
					neutralized++
				}
			}
		}
		if err := w.Write(rec); err != nil {
			return nil, 0, err
		}
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return nil, 0, err
	}
	return b.Bytes(), neutralized, nil
}
