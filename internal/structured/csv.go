package structured

import (
	"context"
	"regexp"
	"strconv"
	"unicode/utf8"
)

// Dialects maps csv_dialect to its delimiter. Everything else is Python's
// "excel" dialect: '"' quotes, "" inside quotes is a quote, no escape
// character, strict=False.
var Dialects = map[string]rune{"comma": ',', "semicolon": ';', "tab": '\t', "pipe": '|'}

// csvNumber is what counts as a number for the formula-prefix warning: an
// optionally signed decimal with optional exponent.
var csvNumber = regexp.MustCompile(`^[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$`)

// csvFormulaPrefix reports whether a field would be taken as a formula by a
// spreadsheet: it starts with = + - @ and is not a number.
func csvFormulaPrefix(f string) bool {
	if f == "" {
		return false
	}
	switch f[0] {
	case '=', '+', '-', '@':
		return !csvNumber.MatchString(f)
	}
	return false
}

type csvState int

const (
	csvStartRecord csvState = iota
	csvStartField
	csvInField
	csvInQuoted
	csvQuoteInQuoted
	csvEatCRNL
)

// csvReader is Python's csv reader state machine (Modules/_csv.c) for the excel
// dialect with strict=False, fed line by line as io.StringIO(newline="")
// splits them. It never fails: Python accepts every text (an unterminated quote
// runs to the end of the data; NUL is an ordinary character).
type csvReader struct {
	delim  rune
	state  csvState
	field  []byte
	runes  int // code points in field
	fields []string
}

func (r *csvReader) save() {
	r.fields = append(r.fields, string(r.field))
	r.field = r.field[:0]
	r.runes = 0
}

func (r *csvReader) add(c rune) {
	r.field = utf8.AppendRune(r.field, c)
	r.runes++
}

// process feeds one code point; eol is the end-of-line marker. It returns true
// when a record is complete.
func (r *csvReader) process(c rune, eol bool) bool {
	nl := !eol && (c == '\n' || c == '\r')
	switch r.state {
	case csvStartRecord:
		if eol {
			return true // empty line: an empty row
		}
		if nl {
			r.state = csvEatCRNL
			return false
		}
		r.state = csvStartField
		fallthrough
	case csvStartField:
		switch {
		case nl || eol:
			r.save()
			if eol {
				r.state = csvStartRecord
				return true
			}
			r.state = csvEatCRNL
		case c == '"':
			r.state = csvInQuoted
		case c == r.delim:
			r.save()
		default:
			r.add(c)
			r.state = csvInField
		}
	case csvInField:
		switch {
		case nl || eol:
			r.save()
			if eol {
				r.state = csvStartRecord
				return true
			}
			r.state = csvEatCRNL
		case c == r.delim:
			r.save()
			r.state = csvStartField
		default:
			r.add(c)
		}
	case csvInQuoted:
		switch {
		case eol:
		case c == '"':
			r.state = csvQuoteInQuoted
		default:
			r.add(c)
		}
	case csvQuoteInQuoted:
		switch {
		case !eol && c == '"':
			r.add(c)
			r.state = csvInQuoted
		case !eol && c == r.delim:
			r.save()
			r.state = csvStartField
		case nl || eol:
			r.save()
			if eol {
				r.state = csvStartRecord
				return true
			}
			r.state = csvEatCRNL
		default:
			r.add(c)
			r.state = csvInField
		}
	case csvEatCRNL:
		if eol {
			r.state = csvStartRecord
			return true
		}
	}
	return false
}

// CSVStats describes a parsed CSV payload.
type CSVStats struct {
	Rows, Columns, FormulaFields int
}

// validateCSV reads src like Python's csv.reader(io.StringIO(src,
// newline=""), delimiter=...). Findings, checked per row in this order:
// csv_row_limit (more than MaxRows rows, blank lines count as empty rows),
// csv_column_limit (a row with more than MaxColumns fields), csv_field_too_long
// (a field over MaxFieldChars code points). Line is the physical line where the
// offending row starts; Path is /row or /row/field (0-based).
func validateCSV(ctx context.Context, src string, delim rune, lim Limits) (CSVStats, *Finding, error) {
	r := &csvReader{delim: delim}
	var st CSVStats
	line := 1    // physical line being read
	rowLine := 1 // line where the current record started
	inRecord := false
	finish := func() *Finding {
		row := st.Rows
		st.Rows++
		fields := r.fields
		r.fields = r.fields[:0]
		at := ptr(rowLine)
		if st.Rows > lim.MaxRows {
			return &Finding{Code: CodeCSVRowLimit, Message: "more than " + strconv.Itoa(lim.MaxRows) + " rows", Line: at, Path: ptr("/" + strconv.Itoa(row))}
		}
		if len(fields) > lim.MaxColumns {
			return &Finding{Code: CodeCSVColumnLimit, Message: "a row has more than " + strconv.Itoa(lim.MaxColumns) + " fields", Line: at, Path: ptr("/" + strconv.Itoa(row))}
		}
		for i, f := range fields {
			if utf8.RuneCountInString(f) > lim.MaxFieldChars {
				return &Finding{Code: CodeCSVFieldTooLong, Message: "a field is longer than " + strconv.Itoa(lim.MaxFieldChars) + " characters", Line: at, Path: ptr("/" + strconv.Itoa(row) + "/" + strconv.Itoa(i))}
			}
			if csvFormulaPrefix(f) {
				st.FormulaFields++
			}
		}
		st.Columns = max(st.Columns, len(fields))
		inRecord = false
		return nil
	}
	i := 0
	for i < len(src) {
		if line&255 == 0 {
			if err := ctx.Err(); err != nil {
				return CSVStats{}, nil, err
			}
		}
		// One physical line, terminator included (\r\n, \r or \n).
		j := i
		for j < len(src) && src[j] != '\n' && src[j] != '\r' {
			j++
		}
		if j < len(src) {
			if src[j] == '\r' && j+1 < len(src) && src[j+1] == '\n' {
				j += 2
			} else {
				j++
			}
		}
		if !inRecord {
			rowLine = line
			inRecord = true
		}
		// Fields are bounded by the payload limit (64 KiB), so reading a
		// whole record before checking it is cheap.
		for _, c := range src[i:j] {
			r.process(c, false)
		}
		if r.process(0, true) {
			if f := finish(); f != nil {
				return CSVStats{}, f, nil
			}
		}
		line++
		i = j
	}
	// End of data inside a record (an unterminated quote): Python saves the
	// field and yields the row.
	if inRecord && (len(r.field) > 0 || r.runes > 0 || r.state == csvInQuoted) {
		r.save()
		if f := finish(); f != nil {
			return CSVStats{}, f, nil
		}
	}
	return st, nil, nil
}
