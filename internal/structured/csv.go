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

// csvRecords reads src like Python's csv.reader(io.StringIO(src,
// newline=""), delimiter=delim) and calls fn with each record and the physical
// line where it starts, until fn returns false or ctx ends.
func csvRecords(ctx context.Context, src string, delim rune, fn func(fields []string, line int) bool) error {
	r := &csvReader{delim: delim}
	line := 1    // physical line being read
	rowLine := 1 // line where the current record started
	inRecord := false
	for i := 0; i < len(src); {
		if line&255 == 0 {
			if err := ctx.Err(); err != nil {
				return err
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
			rowLine, inRecord = line, true
		}
		// Fields are bounded by the payload limit (64 KiB), so reading a
		// whole record before checking it is cheap.
		for _, c := range src[i:j] {
			r.process(c, false)
		}
		if r.process(0, true) {
			inRecord = false
			fields := r.fields
			r.fields = nil
			if !fn(fields, rowLine) {
				return nil
			}
		}
		line++
		i = j
	}
	// End of data inside a quoted field: Python saves the field and yields the
	// row.
	if inRecord && r.state == csvInQuoted {
		r.save()
		fn(r.fields, rowLine)
	}
	return nil
}

// validateCSV checks a CSV payload. Findings, checked per record in this
// order: csv_row_limit (more than MaxRows records; blank lines are empty
// records), csv_column_limit (a record with more than MaxColumns fields),
// csv_field_too_long (a field over MaxFieldChars code points). Line is the
// physical line where the offending record starts; Path is /row or /row/field
// (0-based).
func validateCSV(ctx context.Context, src string, delim rune, lim Limits) (CSVStats, *Finding, error) {
	var st CSVStats
	var found *Finding
	err := csvRecords(ctx, src, delim, func(fields []string, line int) bool {
		row := st.Rows
		st.Rows++
		at := ptr(line)
		if st.Rows > lim.MaxRows {
			found = &Finding{Code: CodeCSVRowLimit, Message: "more than " + strconv.Itoa(lim.MaxRows) + " rows", Line: at, Path: ptr("/" + strconv.Itoa(row))}
			return false
		}
		if len(fields) > lim.MaxColumns {
			found = &Finding{Code: CodeCSVColumnLimit, Message: "a row has more than " + strconv.Itoa(lim.MaxColumns) + " fields", Line: at, Path: ptr("/" + strconv.Itoa(row))}
			return false
		}
		for i, f := range fields {
			if len(f) > lim.MaxFieldChars && utf8.RuneCountInString(f) > lim.MaxFieldChars {
				found = &Finding{Code: CodeCSVFieldTooLong, Message: "a field is longer than " + strconv.Itoa(lim.MaxFieldChars) + " characters", Line: at, Path: ptr("/" + strconv.Itoa(row) + "/" + strconv.Itoa(i))}
				return false
			}
			if csvFormulaPrefix(f) {
				st.FormulaFields++
			}
		}
		st.Columns = max(st.Columns, len(fields))
		return true
	})
	if err != nil {
		return CSVStats{}, nil, err
	}
	if found != nil {
		return CSVStats{}, found, nil
	}
	return st, nil, nil
}
