// Package codata holds the CODATA recommended values of the fundamental
// physical constants as NIST publishes them (the 2018 and 2022 adjustments),
// embedded as the published ASCII tables, and answers lookups by name and
// substring searches over them.
//
// The tables are data, not code: data/codata2018.txt and data/codata2022.txt
// are NIST's "Table of all values" text as scipy.constants embeds it
// (data/SOURCE.md). Every string a Constant carries is taken from the table
// text; nothing is computed or rounded.
package codata

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"regexp"
	"strings"
	"sync"
)

//go:embed data/codata2018.txt data/codata2022.txt
var dataFS embed.FS

// The editions this package carries, oldest first. Default is the newest.
const (
	Edition2018 = "CODATA2018"
	Edition2022 = "CODATA2022"
	Default     = Edition2022
)

// Editions lists the editions, oldest first.
func Editions() []string { return []string{Edition2018, Edition2022} }

var files = map[string]string{
	Edition2018: "data/codata2018.txt",
	Edition2022: "data/codata2022.txt",
}

// Constant is one row of a published table, as published.
type Constant struct {
	// Name is the quantity's name exactly as NIST spells it ("electron mass").
	Name string
	// Value is the published value with the digit-group spaces and the "..."
	// of a truncated exact value removed: "9.1093837139e-31", "25812.80745".
	Value string
	// Uncertainty is the published standard uncertainty without spaces
	// ("0.0000000028e-31"), or "0" for an exact value.
	Uncertainty string
	// Exact is true when the table gives "(exact)" as the uncertainty.
	Exact bool
	// Truncated is true when the table prints the value with "...": an exact
	// value with more digits than published, so Value is its truncation.
	Truncated bool
	// Unit is the unit as published ("J Hz^-1"); "" for a dimensionless
	// quantity (a ratio, a g-factor).
	Unit string
}

// Table is one edition's constants in table order.
type Table struct {
	Edition string
	// SHA256 is the hex SHA-256 of the embedded table file.
	SHA256 string
	rows   []Constant
	keys   []string       // lower-case names, parallel to rows
	index  map[string]int // key -> row
}

var (
	loadOnce sync.Once
	tables   map[string]*Table
)

// Lookup returns the table of an edition ("CODATA2018", "CODATA2022"; exact
// spelling), or false.
func Lookup(edition string) (*Table, bool) {
	loadOnce.Do(load)
	t, ok := tables[edition]
	return t, ok
}

// load parses the embedded tables; it panics on a malformed one, which is a
// build defect that the package tests catch.
func load() {
	tables = map[string]*Table{}
	for ed, path := range files {
		data, err := dataFS.ReadFile(path)
		if err != nil {
			panic(err)
		}
		t, err := Parse(ed, data)
		if err != nil {
			panic(fmt.Sprintf("codata: %s: %v", path, err))
		}
		tables[ed] = t
	}
}

// The published tables (2018 onwards) are fixed-width: the name in columns
// 1-60, the value in 61-85, the uncertainty in 86-110 and the unit from 111
// on (NIST's header above the table in allascii.txt marks the same columns).
const (
	valueCol = 60
	uncCol   = 85
	unitCol  = 110
)

var (
	// A published value: digit groups separated by single spaces, an optional
	// "..." (truncated exact value) and an optional " e<exponent>".
	valueText = regexp.MustCompile(`^-?[0-9]+(?: [0-9]+)*(?:\.[0-9]+(?: [0-9]+)*)?(?:\.\.\.)?(?: ?e-?[0-9]+)?$`)
	// A published uncertainty: a decimal with digit groups, or "(exact)".
	uncText = regexp.MustCompile(`^(?:\(exact\)|[0-9]+(?: [0-9]+)*(?:\.[0-9]+(?: [0-9]+)*)?(?: ?e-?[0-9]+)?)$`)
)

// Parse reads one published table (2018 layout) of the given edition. It
// refuses anything it does not recognise rather than guess: a short line, a
// field that runs into the next column, a value or uncertainty that is not
// published decimal text, a "..." on an inexact value, a duplicate name.
func Parse(edition string, data []byte) (*Table, error) {
	sum := sha256.Sum256(data)
	t := &Table{Edition: edition, SHA256: hex.EncodeToString(sum[:]), index: map[string]int{}}
	text := strings.TrimSuffix(string(data), "\n")
	for i, line := range strings.Split(text, "\n") {
		c, err := parseLine(line)
		if err != nil {
			return nil, fmt.Errorf("line %d: %v", i+1, err)
		}
		key := Key(c.Name)
		if _, dup := t.index[key]; dup {
			return nil, fmt.Errorf("line %d: duplicate name %q", i+1, c.Name)
		}
		t.index[key] = len(t.rows)
		t.rows = append(t.rows, c)
		t.keys = append(t.keys, key)
	}
	return t, nil
}

func parseLine(line string) (Constant, error) {
	if len(line) < uncCol+1 {
		return Constant{}, fmt.Errorf("%d characters, want at least %d", len(line), uncCol+1)
	}
	for _, col := range []int{valueCol, uncCol, unitCol} {
		if col <= len(line) && line[col-1] != ' ' {
			return Constant{}, fmt.Errorf("no space before column %d", col+1)
		}
	}
	for i := 0; i < len(line); i++ {
		if line[i] < ' ' || line[i] > '~' {
			return Constant{}, fmt.Errorf("byte %#x at column %d is not printable ASCII", line[i], i+1)
		}
	}
	name := strings.TrimRight(line[:valueCol], " ")
	value := strings.TrimSpace(line[valueCol:uncCol])
	unc := strings.TrimSpace(line[uncCol:min(unitCol, len(line))])
	unit := ""
	if len(line) > unitCol {
		unit = strings.TrimSpace(line[unitCol:])
	}
	if name == "" || name != strings.TrimSpace(name) || strings.Contains(name, "  ") {
		return Constant{}, fmt.Errorf("bad name %q", name)
	}
	if !valueText.MatchString(value) {
		return Constant{}, fmt.Errorf("%s: value %q is not published decimal text", name, value)
	}
	if !uncText.MatchString(unc) {
		return Constant{}, fmt.Errorf("%s: uncertainty %q is not published decimal text", name, unc)
	}
	c := Constant{Name: name, Unit: unit, Exact: unc == "(exact)", Truncated: strings.Contains(value, "...")}
	if c.Truncated && !c.Exact {
		return Constant{}, fmt.Errorf("%s: a truncated value (...) whose uncertainty is not (exact)", name)
	}
	c.Value = strings.NewReplacer(" ", "", "...", "").Replace(value)
	c.Uncertainty = "0"
	if !c.Exact {
		c.Uncertainty = strings.ReplaceAll(unc, " ", "")
	}
	return c, nil
}

// Key is the matching form of a name: ASCII letters lower-cased, nothing else
// changed (so "K" and "k" match, but the Kelvin sign U+212A matches nothing).
func Key(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if b[j] >= 'A' && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

// Len is the number of constants in the table.
func (t *Table) Len() int { return len(t.rows) }

// All returns the constants in table order (a copy).
func (t *Table) All() []Constant { return append([]Constant(nil), t.rows...) }

// Names returns every name in table order.
func (t *Table) Names() []string {
	out := make([]string, len(t.rows))
	for i, c := range t.rows {
		out[i] = c.Name
	}
	return out
}

// Get returns the constant whose name equals name without regard to ASCII
// case, or false.
func (t *Table) Get(name string) (Constant, bool) {
	i, ok := t.index[Key(name)]
	if !ok {
		return Constant{}, false
	}
	return t.rows[i], true
}

// Search returns, in table order, the names of up to max constants whose
// name contains query without regard to ASCII case, and how many contain it
// in all. An empty query matches every name.
func (t *Table) Search(query string, max int) (names []string, total int) {
	q := Key(query)
	names = []string{}
	for i, k := range t.keys {
		if strings.Contains(k, q) {
			total++
			if len(names) < max {
				names = append(names, t.rows[i].Name)
			}
		}
	}
	return names, total
}

// Renamed maps the lower-case key of a name NIST renamed between the
// editions to the name it has in the other edition (CODATA 2022 spells
// out the x units of copper and molybdenum).
var Renamed = map[string]map[string]string{
	Edition2018: {"copper x unit": "Cu x unit", "molybdenum x unit": "Mo x unit"},
	Edition2022: {"cu x unit": "Copper x unit", "mo x unit": "Molybdenum x unit"},
}
