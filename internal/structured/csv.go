package structured

import (
	"context"
	"strconv"
	"unicode"
	"unicode/utf8"
)

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
// dialect with strict=True, as the reference reads CSV: '"' quotes, "" inside
// quotes is a quote, no escape character. It is fed one physical line at a
// time, as io.StringIO(payload, newline="") splits them.
type csvReader struct {
	delim  rune
	state  csvState
	field  []byte
	runes  int // code points in field
	fields []string
	err    string // the csv.Error text, once one was raised
}

func (r *csvReader) save() {
	r.fields = append(r.fields, string(r.field))
	r.field = r.field[:0]
	r.runes = 0
}

// endField saves the field at a line end: the record is complete at the
// end-of-line marker, while a newline character may still be followed by the
// other half of a CR LF pair.
func (r *csvReader) endField(eol bool) {
	r.save()
	r.state = csvEatCRNL
	if eol {
		r.state = csvStartRecord
	}
}

func (r *csvReader) add(c rune) {
	r.field = utf8.AppendRune(r.field, c)
	r.runes++
}

// process feeds one code point; eol is the end-of-line marker. It returns false
// when the reader raised (r.err).
func (r *csvReader) process(c rune, eol bool) bool {
	nl := !eol && (c == '\n' || c == '\r')
	switch r.state {
	case csvStartRecord:
		if eol {
			return true // empty line: an empty row
		}
		if nl {
			r.state = csvEatCRNL
			return true
		}
		r.state = csvStartField
		fallthrough
	case csvStartField:
		switch {
		case nl || eol:
			r.endField(eol)
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
			r.endField(eol)
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
			r.endField(eol)
		default: // strict: only a delimiter or a line end may follow
			r.err = "'" + string(r.delim) + "' expected after '\"'"
			return false
		}
	case csvEatCRNL:
		switch {
		case nl:
		case eol:
			r.state = csvStartRecord
		default:
			r.err = "new-line character seen in unquoted field - do you need to open the file with newline=''?"
			return false
		}
	}
	return true
}

// csvRecords reads src like Python's csv.reader(io.StringIO(src, newline=""),
// delimiter=delim, strict=True) and calls fn with each record, until fn
// returns false. lineNum reports reader.line_num: the physical lines read so
// far. A csv.Error ends the reading with parseErr set.
func csvRecords(ctx context.Context, src string, delim rune, fn func(fields []string) bool) (lineNum int, parseErr string, err error) {
	r := &csvReader{delim: delim}
	for i := 0; i < len(src); {
		if lineNum&255 == 255 {
			if err := ctx.Err(); err != nil {
				return lineNum, "", err
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
		lineNum++
		for _, c := range src[i:j] {
			if !r.process(c, false) {
				return lineNum, r.err, nil
			}
		}
		if !r.process(0, true) {
			return lineNum, r.err, nil
		}
		i = j
		if r.state == csvStartRecord {
			fields := r.fields
			r.fields = nil
			if !fn(fields) {
				return lineNum, "", nil
			}
		}
	}
	if r.state == csvInQuoted || len(r.field) > 0 {
		return lineNum, "unexpected end of data", nil
	}
	return lineNum, "", nil
}

// pyIsSpace is str.isspace() for one code point.
func pyIsSpace(r rune) bool { return unicode.IsSpace(r) || r >= 0x1c && r <= 0x1f }

// csvFormulaPrefix is the reference's test: the field, stripped of leading
// whitespace, starts with = + - or @ (numbers such as -3 included).
func csvFormulaPrefix(f string) bool {
	for _, c := range f {
		if pyIsSpace(c) {
			continue
		}
		return c == '=' || c == '+' || c == '-' || c == '@'
	}
	return false
}

// validateCSV reads a CSV payload as the reference does. Findings:
// csv_column_count_mismatch for every row whose field count differs from the
// first row's (line = the row number), then at most one of csv_parse_error
// (line = physical lines read), csv_row_limit_exceeded,
// csv_column_limit_exceeded, csv_field_size_limit_exceeded; details and the
// formula warning only when the whole payload was read.
func validateCSV(ctx context.Context, src string, delim rune, lim Limits, res *Result) error {
	rows, formulas, expected := 0, 0, -1
	var limitHit string
	lineNum, parseErr, err := csvRecords(ctx, src, delim, func(fields []string) bool {
		rows++
		switch {
		case rows > lim.MaxRows:
			limitHit = CodeCSVRowLimit
		case len(fields) > lim.MaxColumns:
			limitHit = CodeCSVColumnLimit
		default:
			for _, f := range fields {
				if len(f) > lim.MaxFieldChars && utf8.RuneCountInString(f) > lim.MaxFieldChars {
					limitHit = CodeCSVFieldLimit
				}
			}
		}
		if limitHit != "" {
			return false
		}
		if expected < 0 {
			expected = len(fields)
		} else if len(fields) != expected {
			res.Errors = append(res.Errors, finding(CodeCSVMismatch,
				"row has "+strconv.Itoa(len(fields))+" columns; expected "+strconv.Itoa(expected), ptr(rows), nil, ""))
		}
		for _, f := range fields {
			if csvFormulaPrefix(f) {
				formulas++
			}
		}
		return true
	})
	switch {
	case err != nil:
		return err
	case limitHit != "":
		res.Errors = append(res.Errors, valueErrorFinding(limitHit))
		return nil
	case parseErr != "":
		res.Errors = append(res.Errors, finding(CodeCSVParse, parseErr, ptr(lineNum), nil, ""))
		return nil
	}
	res.Details = Details{Rows: ptr(rows), Columns: ptr(max(expected, 0))}
	if formulas > 0 {
		res.Warnings = append(res.Warnings, Warning{Code: "csv_formula_prefix", Count: formulas})
	}
	return nil
}
