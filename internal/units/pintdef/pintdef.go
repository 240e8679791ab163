// Package pintdef reads pint's unit definition files (default_en.txt with its
// @import of constants_en.txt) and resolves every unit to an exact factor over
// base units. It is used by the generator only; the service embeds the result.
//
// Supported syntax: `name = expr [= symbol] [= alias ...]` (symbol `_` means
// none), `; offset: expr` and `; logbase: ...; logfactor: ...` modifiers, base
// units `name = [dimension]` and dimensionless bases `name = []`, prefixes
// `name- = expr [= symbol-] [= alias- ...]`, derived dimensions `[x] = ...`
// (skipped: only base dimensions matter for conversion), `@alias`, `@import`,
// `@group ... @end` (its definitions count), and `@defaults`, `@context`,
// `@system` blocks (skipped). For every unit with a non-zero offset pint also
// defines a `delta_` unit (Δ symbol and aliases) with the same scale and no
// offset; so does this package.
package pintdef

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/precisiond/precisiond/internal/units"
)

// TruncatedConstants are the constants pint's file writes as 50-digit decimal
// expansions of irrational numbers. Their literal value is used, and every unit
// that depends on them is marked Approx. π (`pi`) is not in this list: it is
// tracked symbolically and its literal is only checked against π.
var TruncatedConstants = []string{"tansec", "ln10", "wien_x", "wien_u", "eulers_number"}

type def struct {
	name    string
	symbol  string
	aliases []string
	expr    string // reference expression, or "" for a base unit
	baseDim string // for base units: "length", or "" for a dimensionless base
	base    bool
	offset  string
	log     bool
	line    string // file:line, for errors
}

type prefixDef struct {
	name, symbol string
	aliases      []string
	expr         string
	line         string
}

// Reader accumulates definitions read from one or more files.
type Reader struct {
	dir      string
	units    []*def
	prefixes []*prefixDef
	aliases  [][]string // @alias lines: target, aliases...
}

// Encode writes f as units_gen.json holds it (indented, HTML characters kept).
func Encode(f *units.File) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(f); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// ReadDir reads default_en.txt (and what it imports) from dir and resolves it.
// The SOURCE note beside the files, when present, names the commit (40 hex
// digits) and the pint release ("release tag X") they were copied from.
func ReadDir(dir string) (*units.File, error) {
	r := &Reader{dir: dir}
	if err := r.readFile("default_en.txt"); err != nil {
		return nil, err
	}
	f, err := r.Resolve()
	if err != nil {
		return nil, err
	}
	f.Source.Name = "pint default_en.txt + constants_en.txt"
	for name, dst := range map[string]*string{"default_en.txt": &f.Source.DefaultSHA256, "constants_en.txt": &f.Source.ConstantsSHA256} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		sum := sha256.Sum256(b)
		*dst = hex.EncodeToString(sum[:])
	}
	if b, err := os.ReadFile(filepath.Join(dir, "SOURCE")); err == nil {
		if m := regexp.MustCompile(`\b[0-9a-f]{40}\b`).Find(b); m != nil {
			f.Source.Commit = string(m)
		}
		if m := regexp.MustCompile(`release tag ([0-9][0-9A-Za-z.]*[0-9A-Za-z])`).FindSubmatch(b); m != nil {
			f.Source.Release = string(m[1])
		}
	}
	return f, nil
}

func (r *Reader) readFile(name string) error {
	b, err := os.ReadFile(filepath.Join(r.dir, name))
	if err != nil {
		return err
	}
	return r.Read(name, b)
}

// Read adds the definitions of one file's content; name is used in messages and
// @import paths are resolved against the reader's directory.
func (r *Reader) Read(name string, content []byte) error {
	sc := bufio.NewScanner(bytes.NewReader(content))
	skipping := false
	n := 0
	for sc.Scan() {
		n++
		where := fmt.Sprintf("%s:%d", name, n)
		line := sc.Text()
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if skipping {
			if line == "@end" {
				skipping = false
			}
			continue
		}
		switch {
		case line == "@end":
			// end of a @group: its definitions were read as ordinary ones.
		case strings.HasPrefix(line, "@defaults"), strings.HasPrefix(line, "@context"), strings.HasPrefix(line, "@system"):
			skipping = true
		case strings.HasPrefix(line, "@group"):
		case strings.HasPrefix(line, "@import"):
			if err := r.readFile(strings.TrimSpace(strings.TrimPrefix(line, "@import"))); err != nil {
				return fmt.Errorf("%s: %w", where, err)
			}
		case strings.HasPrefix(line, "@alias"):
			parts := splitEq(strings.TrimPrefix(line, "@alias"))
			if len(parts) < 2 {
				return fmt.Errorf("%s: @alias needs a name and aliases", where)
			}
			r.aliases = append(r.aliases, parts)
		case strings.HasPrefix(line, "@"):
			return fmt.Errorf("%s: unknown directive %q", where, line)
		case strings.HasPrefix(line, "["):
			if !strings.Contains(line, "=") {
				return fmt.Errorf("%s: dimension definition without '='", where)
			}
		default:
			if err := r.addDefinition(line, where); err != nil {
				return err
			}
		}
	}
	if skipping {
		return fmt.Errorf("%s: block without @end", name)
	}
	return sc.Err()
}

func splitEq(s string) []string {
	parts := strings.Split(s, "=")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}

func (r *Reader) addDefinition(line, where string) error {
	parts := splitEq(line)
	if len(parts) < 2 || parts[0] == "" || parts[1] == "" {
		return fmt.Errorf("%s: expected `name = value`", where)
	}
	name, value, rest := parts[0], parts[1], parts[2:]
	symbol := ""
	if len(rest) > 0 {
		symbol, rest = rest[0], rest[1:]
		if symbol == "_" {
			symbol = ""
		}
	}
	if strings.HasSuffix(name, "-") {
		p := &prefixDef{name: strings.TrimSuffix(name, "-"), symbol: strings.TrimSuffix(symbol, "-"), expr: value, line: where}
		for _, a := range rest {
			p.aliases = append(p.aliases, strings.TrimSuffix(a, "-"))
		}
		r.prefixes = append(r.prefixes, p)
		return nil
	}
	d := &def{name: name, symbol: symbol, aliases: rest, line: where}
	mods := strings.Split(value, ";")
	d.expr = strings.TrimSpace(mods[0])
	for _, m := range mods[1:] {
		k, v, ok := strings.Cut(m, ":")
		if !ok {
			return fmt.Errorf("%s: modifier %q without ':'", where, m)
		}
		switch strings.TrimSpace(k) {
		case "offset":
			d.offset = strings.TrimSpace(v)
		case "logbase", "logfactor":
			d.log = true
		default:
			return fmt.Errorf("%s: unknown modifier %q", where, k)
		}
	}
	if strings.HasPrefix(d.expr, "[") {
		if !strings.HasSuffix(d.expr, "]") {
			return fmt.Errorf("%s: bad base dimension %q", where, d.expr)
		}
		d.base = true
		d.baseDim = strings.TrimSpace(d.expr[1 : len(d.expr)-1])
		d.expr = ""
	}
	r.units = append(r.units, d)
	if d.offset != "" {
		off, err := units.ParseNumber(d.offset)
		if err != nil {
			return fmt.Errorf("%s: offset: %w", where, err)
		}
		if off.Sign() != 0 {
			// pint defines delta_<name> for every offset unit: same scale, no offset.
			dd := &def{name: "delta_" + name, expr: d.expr, line: where}
			if symbol != "" {
				dd.symbol = "Δ" + symbol
			}
			for _, a := range rest {
				dd.aliases = append(dd.aliases, "Δ"+a)
			}
			for _, a := range rest {
				dd.aliases = append(dd.aliases, "delta_"+a)
			}
			r.units = append(r.units, dd)
		}
	}
	return nil
}

type quantity struct {
	f units.Factor
	d units.Dims
}

type resolver struct {
	r        *Reader
	names    *units.Names
	prefixF  []*big.Rat
	done     map[int]quantity
	visiting map[int]bool
	trunc    map[string]bool
}

// Resolve evaluates every definition to base units.
func (r *Reader) Resolve() (*units.File, error) {
	rs := &resolver{r: r, names: units.NewNames(), done: map[int]quantity{}, visiting: map[int]bool{}, trunc: map[string]bool{}}
	for _, c := range TruncatedConstants {
		rs.trunc[c] = true
	}
	out := &units.File{}
	for i, p := range r.prefixes {
		n, err := units.Parse(p.expr)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p.line, err)
		}
		q, err := numeric(n)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p.line, err)
		}
		rs.prefixF = append(rs.prefixF, q)
		rs.names.AddPrefix(p.name, i)
		rs.names.AddPrefix(p.symbol, i)
		for _, a := range p.aliases {
			rs.names.AddPrefix(a, i)
		}
		out.Prefixes = append(out.Prefixes, units.PrefixData{Name: p.name, Symbol: p.symbol, Aliases: p.aliases, Factor: q.RatString()})
	}
	for i, d := range r.units {
		rs.names.AddUnit(d.name, i)
		rs.names.AddUnit(d.symbol, i)
		for _, a := range d.aliases {
			rs.names.AddUnit(a, i)
		}
	}
	for _, a := range r.aliases {
		_, u, ok := rs.names.Lookup(a[0])
		if !ok || !rs.names.HasUnit(a[0]) {
			return nil, fmt.Errorf("@alias: unknown unit %q", a[0])
		}
		for _, al := range a[1:] {
			r.units[u].aliases = append(r.units[u].aliases, al)
			rs.names.AddUnit(al, u)
		}
	}
	for i, d := range r.units {
		q, err := rs.resolve(i)
		if err != nil {
			return nil, err
		}
		ud := units.UnitData{Name: d.name, Symbol: d.symbol, Aliases: d.aliases, Q: q.f.Q.RatString(), H: q.f.H, Approx: q.f.Approx, Log: d.log}
		if q.f.R.Cmp(big.NewRat(1, 1)) != 0 {
			ud.R = q.f.R.RatString()
		}
		if len(q.d) > 0 {
			ud.Dims = map[string]int(q.d)
		}
		if d.offset != "" {
			off, err := units.ParseNumber(d.offset)
			if err != nil {
				return nil, fmt.Errorf("%s: offset: %w", d.line, err)
			}
			if off.Sign() != 0 {
				ud.Offset = off.RatString()
			}
		}
		if d.log {
			ud.Q, ud.R, ud.H, ud.Approx, ud.Dims = "1", "", 0, false, nil
		}
		out.Units = append(out.Units, ud)
	}
	return out, nil
}

func (rs *resolver) resolve(i int) (quantity, error) {
	if q, ok := rs.done[i]; ok {
		return q, nil
	}
	d := rs.r.units[i]
	if rs.visiting[i] {
		return quantity{}, fmt.Errorf("%s: circular definition of %s", d.line, d.name)
	}
	rs.visiting[i] = true
	defer delete(rs.visiting, i)
	var q quantity
	switch {
	case d.base:
		q = quantity{f: units.One(), d: units.Dims{}}
		if d.baseDim != "" {
			q.d[d.baseDim] = 2
		}
	case d.log:
		q = quantity{f: units.One(), d: units.Dims{}}
	default:
		n, err := units.Parse(d.expr)
		if err != nil {
			return quantity{}, fmt.Errorf("%s: %w", d.line, err)
		}
		if q, err = rs.eval(n, d); err != nil {
			return quantity{}, err
		}
	}
	if d.name == "pi" {
		if err := checkPi(q.f); err != nil {
			return quantity{}, fmt.Errorf("%s: %w", d.line, err)
		}
		q.f = units.Pi()
	}
	if rs.trunc[d.name] {
		q.f.Approx = true
	}
	rs.done[i] = q
	return q, nil
}

// checkPi verifies that the file's literal for pi agrees with π to its 50 digits.
func checkPi(f units.Factor) error {
	if !f.IsRational() {
		return fmt.Errorf("pi is not a decimal literal")
	}
	diff := new(big.Float).SetPrec(400).SetRat(f.Q)
	diff.Sub(diff, units.PiFloat(400))
	tol := new(big.Float).SetFloat64(1e-49)
	if diff.Abs(diff).Cmp(tol) > 0 {
		return fmt.Errorf("pi literal differs from π by %s", diff.Text('g', 5))
	}
	return nil
}

func (rs *resolver) eval(n units.Node, d *def) (quantity, error) {
	switch n := n.(type) {
	case units.Num:
		return quantity{f: units.RatFactor(n.Val), d: units.Dims{}}, nil
	case units.Name:
		p, u, ok := rs.names.Lookup(n.Text)
		if !ok {
			return quantity{}, fmt.Errorf("%s: unknown unit %q in definition of %s", d.line, n.Text, d.name)
		}
		q, err := rs.resolve(u)
		if err != nil {
			return quantity{}, err
		}
		if p >= 0 {
			q.f = q.f.Mul(units.RatFactor(rs.prefixF[p]))
		}
		return q, nil
	case units.Neg:
		q, err := rs.eval(n.X, d)
		if err != nil {
			return quantity{}, err
		}
		q.f = q.f.Mul(units.RatFactor(big.NewRat(-1, 1)))
		return q, nil
	case units.Bin:
		a, err := rs.eval(n.L, d)
		if err != nil {
			return quantity{}, err
		}
		b, err := rs.eval(n.R, d)
		if err != nil {
			return quantity{}, err
		}
		if n.Op == '/' {
			if b.f.IsZero() {
				return quantity{}, fmt.Errorf("%s: division by zero", d.line)
			}
			return quantity{f: a.f.Div(b.f), d: a.d.Mul(b.d.Inv())}, nil
		}
		return quantity{f: a.f.Mul(b.f), d: a.d.Mul(b.d)}, nil
	case units.Pow:
		q, err := rs.eval(n.X, d)
		if err != nil {
			return quantity{}, err
		}
		f, err := q.f.Pow(n.Halves)
		if err != nil {
			return quantity{}, fmt.Errorf("%s: %w", d.line, err)
		}
		dims, ok := q.d.Pow(n.Halves)
		if !ok {
			return quantity{}, fmt.Errorf("%s: dimension exponent not a multiple of 1/2", d.line)
		}
		return quantity{f: f, d: dims}, nil
	}
	return quantity{}, fmt.Errorf("%s: unexpected node %T", d.line, n)
}

// numeric evaluates a prefix value: numbers, products, quotients, integer powers.
func numeric(n units.Node) (*big.Rat, error) {
	switch n := n.(type) {
	case units.Num:
		return n.Val, nil
	case units.Bin:
		a, err := numeric(n.L)
		if err != nil {
			return nil, err
		}
		b, err := numeric(n.R)
		if err != nil {
			return nil, err
		}
		if n.Op == '/' {
			if b.Sign() == 0 {
				return nil, fmt.Errorf("division by zero")
			}
			return new(big.Rat).Quo(a, b), nil
		}
		return new(big.Rat).Mul(a, b), nil
	case units.Pow:
		a, err := numeric(n.X)
		if err != nil {
			return nil, err
		}
		f, err := units.RatFactor(a).Pow(n.Halves)
		if err != nil {
			return nil, err
		}
		if !f.IsRational() {
			return nil, fmt.Errorf("prefix value is not rational")
		}
		return f.Q, nil
	}
	return nil, fmt.Errorf("prefix value must be numeric")
}
