package units

import (
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/precisiond/precisiond/internal/suggest"
)

// MaxSuggestions bounds the names an UnknownUnitError suggests.
const MaxSuggestions = 3

// vocabulary is the registry's name table prepared for suggestions: every unit
// name, symbol and alias (but those of logarithmic units, which are refused
// anyway) with its lower-case form, and the prefix keys.
type vocabulary struct {
	keys     []string // sorted
	lower    []string // lower-case keys, same order
	prefixes []string // prefix keys, definition order
}

func (r *Registry) vocab() *vocabulary {
	r.vocabOnce.Do(func() {
		v := &vocabulary{}
		for k, i := range r.names.units {
			if !r.Units[i].Log {
				v.keys = append(v.keys, k)
			}
		}
		sort.Strings(v.keys)
		for _, k := range v.keys {
			v.lower = append(v.lower, strings.ToLower(k))
		}
		v.prefixes = r.names.prefixOrder[1:] // [0] is the empty prefix
		r.vocabV = v
	})
	return r.vocabV
}

// suggest fills in e's suggestions, best first, at most MaxSuggestions
// written names that the unknown token (at byte offset pos of src) may have
// meant: the hint of hint() first (alone when it is the whole expression
// joined), then the names nearest by edit distance, compared in lower case.
// Ties go to the name nearer in the original case, then to one with the same
// first letter, then to alphabetical order.
//
// Candidates are the unit names, symbols and aliases, and, for each prefix the
// token starts with (in any case), that prefix before each of them, unless the
// key alone is at least as near (no "ccelsius" for "Celsius", but "kWh" for
// "kWH"): a bounded set, about a thousand names per prefix, each comparison
// cut off at the limit. Tokens of one or two characters are only matched in
// another case ("KM" → "km"): at distance 1 nearly every short symbol is a
// neighbour.
func (r *Registry) suggest(e *UnknownUnitError, src string, pos int) {
	token := e.Token
	add := func(s string, whole bool) {
		if contains(e.Suggestions, s) {
			return
		}
		e.Suggestions = append(e.Suggestions, s)
		switch {
		case whole:
			e.Expressions = append(e.Expressions, s)
		case pos >= 0 && pos+len(token) <= len(src) && src[pos:pos+len(token)] == token:
			e.Expressions = append(e.Expressions, src[:pos]+s+src[pos+len(token):])
		}
	}
	if h, whole := r.hint(src, token); h != "" {
		add(h, whole)
		if whole {
			return // "imperial gallon" is imperial_gallon: nothing nearer to add
		}
	}
	n := utf8.RuneCountInString(token)
	if n > suggest.MaxQuery {
		return
	}
	limit := suggest.Limit(n)
	if n <= 2 {
		limit = 0
	}
	q := strings.ToLower(token)
	first, _ := utf8.DecodeRuneInString(q)
	rank := suggest.NewRanker(q, MaxSuggestions, limit)
	v := r.vocab()
	alone := make([]int, len(v.keys)) // distance of the key alone, if within the limit
	for i := range alone {
		alone[i] = limit + 1
	}
	offer := func(prefix string) {
		lp := strings.ToLower(prefix)
		for i, k := range v.keys {
			d, ok := rank.NearJoined(lp, v.lower[i])
			if !ok || (prefix != "" && alone[i] <= d) {
				continue
			}
			if prefix == "" {
				alone[i] = d
			}
			if !rank.Competes(d) {
				continue
			}
			name := prefix + k
			tie := 2 * suggest.Distance(token, name, suggest.MaxQuery)
			if f, _ := utf8.DecodeRuneInString(lp + v.lower[i][:min(len(v.lower[i]), utf8.UTFMax)]); f != first {
				tie++
			}
			rank.Keep(name, d, tie)
		}
	}
	offer("")
	for _, p := range v.prefixes {
		if len(p) < len(q) && strings.HasPrefix(q, strings.ToLower(p)) {
			offer(p)
		}
	}
	for _, name := range rank.Names() {
		if len(e.Suggestions) == MaxSuggestions {
			break
		}
		if _, _, ok := r.Lookup(name); ok {
			add(name, false)
		}
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// temperatureSymbols are unit symbols that pint reads as other units but that
// people write for temperatures: F is the farad, C the coulomb, R the molar
// gas constant. The value is the temperature meant.
var temperatureSymbols = map[string]string{"F": "degF", "C": "degC", "R": "degR"}

// TemperatureHint explains a dimensionality mismatch between the unit strings
// from and to that comes from a temperature written as a bare symbol ("F" to
// "C", "F" to "kelvin"): when one of them is F, C or R and the other is also
// one of these or has the dimension of a temperature, it returns what was
// probably meant for each side (degF, degC, degR for the symbols; the other
// side as written) and what the symbols are in pint ("F" is the farad).
// ok is false when the mismatch has nothing to do with temperatures.
func (r *Registry) TemperatureHint(from, to string) (meantFrom, meantTo, why string, ok bool) {
	from, to = strings.TrimSpace(from), strings.TrimSpace(to)
	tf, fromSym := temperatureSymbols[from]
	tt, toSym := temperatureSymbols[to]
	if !fromSym && !toSym {
		return "", "", "", false
	}
	if !(fromSym && toSym) {
		other := to
		if toSym {
			other = from
		}
		e, err := r.Parse(other)
		if err != nil || len(e.D) != 1 || e.D["temperature"] != 2 {
			return "", "", "", false
		}
	}
	meantFrom, meantTo = from, to
	var whys []string
	for _, s := range []struct {
		sym   bool
		text  string
		meant string
		out   *string
	}{{fromSym, from, tf, &meantFrom}, {toSym, to, tt, &meantTo}} {
		if !s.sym {
			continue
		}
		*s.out = s.meant
		if _, u, ok := r.Lookup(s.text); ok {
			w := `"` + s.text + `" is the ` + u.Name
			if !contains(whys, w) {
				whys = append(whys, w)
			}
		}
	}
	return meantFrom, meantTo, strings.Join(whys, " and "), true
}
