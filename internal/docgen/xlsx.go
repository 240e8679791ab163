package docgen

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"
)

// fixedTimestamp is written wherever a format wants a creation or modification
// time, so that output does not depend on the clock (1980-01-01, the zip epoch).
const fixedTimestamp = "1980-01-01T00:00:00Z"

var numberRe = regexp.MustCompile(`^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]{1,3})?$`)

// asNumber reports whether a cell's text is a plain decimal number that a
// spreadsheet stores exactly enough: at most 15 significant digits (what a double
// keeps) and finite. Numbers with leading zeros ("007"), grouping separators
// ("1,000"), units or percent signs stay text.
func asNumber(s string) bool {
	if !numberRe.MatchString(s) {
		return false
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return false
	}
	mant := s
	if i := strings.IndexAny(mant, "eE"); i >= 0 {
		mant = mant[:i]
	}
	digits := strings.TrimLeft(strings.NewReplacer("-", "", ".", "").Replace(mant), "0")
	if strings.Contains(mant, ".") {
		digits = strings.TrimRight(digits, "0")
	}
	return len(digits) <= 15
}

var badSheetChars = strings.NewReplacer("[", "(", "]", ")", ":", "-", "*", "-", "?", "", "/", "-", "\\", "-")

// sheetNames derives unique sheet names (≤ 31 characters, no []:*?/\) from the
// heading before each table, or "Table N".
func sheetNames(headings []string) []string {
	used := map[string]bool{}
	names := make([]string, len(headings))
	for i, h := range headings {
		base := strings.TrimSpace(badSheetChars.Replace(h))
		base = strings.Trim(base, "'")
		if base == "" {
			base = fmt.Sprintf("Table %d", i+1)
		}
		name := truncRunes(base, 31)
		for n := 2; used[strings.ToLower(name)]; n++ {
			suffix := fmt.Sprintf(" (%d)", n)
			name = truncRunes(base, 31-len(suffix)) + suffix
		}
		used[strings.ToLower(name)] = true
		names[i] = name
	}
	return names
}

func truncRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:n]))
}

// renderXLSX writes each Markdown table to its own sheet (named after the heading
// before it), header row bold, numeric cells as numbers.
func renderXLSX(ctx context.Context, doc *Document, title string) ([]byte, error) {
	tables, headings := doc.Tables()
	if len(tables) == 0 {
		return nil, &InputError{Reason: "no_table", Message: "format xlsx needs at least one Markdown table in the content; none was found"}
	}
	if len(tables) > MaxSheets {
		return nil, &LimitError{Reason: "too_many_tables", Message: fmt.Sprintf("%d tables; an xlsx file holds at most %d sheets", len(tables), MaxSheets)}
	}
	f := excelize.NewFile()
	defer f.Close()
	if err := f.SetDocProps(&excelize.DocProperties{
		Title:          title,
		Creator:        "precisiond",
		LastModifiedBy: "precisiond",
		Created:        fixedTimestamp,
		Modified:       fixedTimestamp,
	}); err != nil {
		return nil, err
	}
	bold, err := f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true}})
	if err != nil {
		return nil, err
	}
	names := sheetNames(headings)
	for i, t := range tables {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		name := names[i]
		if i == 0 {
			if err := f.SetSheetName("Sheet1", name); err != nil {
				return nil, err
			}
		} else if _, err := f.NewSheet(name); err != nil {
			return nil, err
		}
		width := make([]int, len(t.Align))
		for r, row := range append([][][]Inline{t.Header}, t.Rows...) {
			if r%ctxCheckEvery == 0 {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
			}
			for c := 0; c < len(t.Align); c++ {
				var s string
				if c < len(row) {
					s = cellText(row[c])
				}
				if s == "" {
					continue
				}
				width[c] = max(width[c], utf8.RuneCountInString(s))
				ref, err := excelize.CoordinatesToCellName(c+1, r+1)
				if err != nil {
					return nil, err
				}
				if r > 0 && asNumber(s) {
					err = f.SetCellDefault(name, ref, s)
				} else {
					err = f.SetCellStr(name, ref, s)
				}
				if err != nil {
					return nil, err
				}
			}
		}
		last, err := excelize.CoordinatesToCellName(len(t.Align), 1)
		if err != nil {
			return nil, err
		}
		if err := f.SetCellStyle(name, "A1", last, bold); err != nil {
			return nil, err
		}
		for c, w := range width {
			col, err := excelize.ColumnNumberToName(c + 1)
			if err != nil {
				return nil, err
			}
			if err := f.SetColWidth(name, col, col, float64(min(max(w, 6), 60))+2); err != nil {
				return nil, err
			}
		}
	}
	f.SetActiveSheet(0)
	buf, err := f.WriteToBuffer()
	if err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
