// Package units converts quantities between units named in pint's vocabulary,
// exactly. The unit registry is generated (go generate) from pint's definition
// files by ./gen and embedded as units_gen.json; factors are exact rationals,
// with π tracked symbolically and square roots kept as radicands.
package units

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"math/big"
	"strings"
	"sync"
	"unicode/utf8"
)

//go:generate go run ./gen -src pintdata -out units_gen.json

//go:embed units_gen.json
var genData []byte

// File is the generated registry data, the schema of units_gen.json.
type File struct {
	Source   Source       `json:"source"`
	Prefixes []PrefixData `json:"prefixes"`
	Units    []UnitData   `json:"units"`
}

// Source identifies the definition files a registry was generated from.
type Source struct {
	Name            string `json:"name"`
	Release         string `json:"release,omitempty"` // pint release, e.g. "0.25.3"
	Commit          string `json:"commit"`
	DefaultSHA256   string `json:"default_en_sha256"`
	ConstantsSHA256 string `json:"constants_en_sha256"`
}

// PrefixData is one prefix: its name, symbol, aliases and exact factor ("p/q").
type PrefixData struct {
	Name    string   `json:"name"`
	Symbol  string   `json:"symbol,omitempty"`
	Aliases []string `json:"aliases,omitempty"`
	Factor  string   `json:"factor"`
}

// UnitData is one unit resolved to base units: factor Q·√R·π^(H/2) (rationals as
// "p/q"), Approx when that factor is a rational approximation, dims as base
// dimension → exponent counted in halves, Offset (a rational, present only when
// non-zero) for units such as degree_Celsius, and Log for logarithmic units.
type UnitData struct {
	Name    string         `json:"name"`
	Symbol  string         `json:"symbol,omitempty"`
	Aliases []string       `json:"aliases,omitempty"`
	Q       string         `json:"q"`
	R       string         `json:"r,omitempty"`
	H       int            `json:"pi_halves,omitempty"`
	Approx  bool           `json:"approx,omitempty"`
	Dims    map[string]int `json:"dims,omitempty"`
	Offset  string         `json:"offset,omitempty"`
	Log     bool           `json:"log,omitempty"`
}

// Unit is a resolved unit of a Registry.
type Unit struct {
	Name   string
	Symbol string
	F      Factor   // value of one unit in base units (for offset units: the scale)
	D      Dims     // dimensionality
	Offset *big.Rat // nil for multiplicative units; base = value·F + Offset
	Log    bool     // logarithmic (decibel, neper, ...): not convertible here
}

// Prefix is a resolved unit prefix.
type Prefix struct {
	Name string
	F    *big.Rat
}

// Names resolves a written unit name the way pint does: an exact name, symbol
// or alias first; otherwise the first (prefix, unit, plural "s") split, trying
// no suffix before "s" and prefixes in definition order (name, symbol, then
// aliases of each). Later definitions of the same key replace earlier ones.
type Names struct {
	units       map[string]int
	prefixes    map[string]int
	prefixOrder []string
}

// NewNames returns an empty name table.
func NewNames() *Names {
	return &Names{units: map[string]int{}, prefixes: map[string]int{}, prefixOrder: []string{""}}
}

// AddUnit maps key to unit index i.
func (n *Names) AddUnit(key string, i int) {
	if key != "" && key != "_" {
		n.units[key] = i
	}
}

// AddPrefix maps key to prefix index i.
func (n *Names) AddPrefix(key string, i int) {
	if key == "" || key == "_" {
		return
	}
	if _, seen := n.prefixes[key]; !seen {
		n.prefixOrder = append(n.prefixOrder, key)
	}
	n.prefixes[key] = i
}

// HasUnit reports whether key names a unit exactly.
func (n *Names) HasUnit(key string) bool { _, ok := n.units[key]; return ok }

// Lookup splits name into prefix index (-1 for none) and unit index.
func (n *Names) Lookup(name string) (prefix, unit int, ok bool) {
	if u, ok := n.units[name]; ok {
		return -1, u, true
	}
	for _, suffix := range []string{"", "s"} {
		if !strings.HasSuffix(name, suffix) {
			continue
		}
		for _, pk := range n.prefixOrder {
			if !strings.HasPrefix(name, pk) || len(pk)+len(suffix) > len(name) {
				continue
			}
			mid := name[len(pk) : len(name)-len(suffix)]
			if suffix != "" && utf8.RuneCountInString(mid) == 1 {
				continue
			}
			if u, ok := n.units[mid]; ok {
				if pk == "" {
					return -1, u, true
				}
				return n.prefixes[pk], u, true
			}
		}
	}
	return 0, 0, false
}

// Registry is a loaded, immutable unit registry; safe for concurrent use.
type Registry struct {
	Source   Source
	Units    []*Unit
	Prefixes []*Prefix
	names    *Names

	vocabOnce sync.Once // the name table prepared for suggestions, built on first use
	vocabV    *vocabulary
}

// NewRegistry builds a registry from generated data.
func NewRegistry(f *File) (*Registry, error) {
	r := &Registry{Source: f.Source, names: NewNames()}
	for i, p := range f.Prefixes {
		q, ok := new(big.Rat).SetString(p.Factor)
		if !ok {
			return nil, fmt.Errorf("prefix %s: bad factor %q", p.Name, p.Factor)
		}
		r.Prefixes = append(r.Prefixes, &Prefix{Name: p.Name, F: q})
		r.names.AddPrefix(p.Name, i)
		r.names.AddPrefix(p.Symbol, i)
		for _, a := range p.Aliases {
			r.names.AddPrefix(a, i)
		}
	}
	for i, u := range f.Units {
		q, ok := new(big.Rat).SetString(u.Q)
		if !ok {
			return nil, fmt.Errorf("unit %s: bad q %q", u.Name, u.Q)
		}
		rad := big.NewRat(1, 1)
		if u.R != "" {
			if rad, ok = new(big.Rat).SetString(u.R); !ok {
				return nil, fmt.Errorf("unit %s: bad r %q", u.Name, u.R)
			}
		}
		unit := &Unit{Name: u.Name, Symbol: u.Symbol, F: Factor{Q: q, R: rad, H: u.H, Approx: u.Approx}, D: Dims(u.Dims), Log: u.Log}
		if unit.D == nil {
			unit.D = Dims{}
		}
		if u.Offset != "" {
			off, ok := new(big.Rat).SetString(u.Offset)
			if !ok {
				return nil, fmt.Errorf("unit %s: bad offset %q", u.Name, u.Offset)
			}
			unit.Offset = off
		}
		r.Units = append(r.Units, unit)
		r.names.AddUnit(u.Name, i)
		r.names.AddUnit(u.Symbol, i)
		for _, a := range u.Aliases {
			r.names.AddUnit(a, i)
		}
	}
	return r, nil
}

var (
	defaultOnce sync.Once
	defaultReg  *Registry
	defaultErr  error
)

// Default returns the registry embedded in the binary (generated from pint's
// definition files). It panics if the embedded data is corrupt, which the tests
// and the start-up example check catch.
func Default() *Registry {
	defaultOnce.Do(func() {
		var f File
		if defaultErr = json.Unmarshal(genData, &f); defaultErr == nil {
			defaultReg, defaultErr = NewRegistry(&f)
		}
	})
	if defaultErr != nil {
		panic("units: embedded registry: " + defaultErr.Error())
	}
	return defaultReg
}

// Lookup resolves one written name (prefix, plural and all) to its unit.
func (r *Registry) Lookup(name string) (*Prefix, *Unit, bool) {
	p, u, ok := r.names.Lookup(name)
	if !ok {
		return nil, nil, false
	}
	var pre *Prefix
	if p >= 0 {
		pre = r.Prefixes[p]
	}
	return pre, r.Units[u], true
}
