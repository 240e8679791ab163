package jmes

import (
	"encoding/json"
	"maps"
	"math"
	"math/big"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/jmespath-community/go-jmespath/pkg/parsing"

	"github.com/precisiond/precisiond/internal/structured"
)

// The community parser decodes `json literals` with encoding/json, which turns
// every number into a float64 and forgets key order. To answer like the
// reference (Python keeps 1 and 1.0 apart and keeps key order), we re-read the
// literal texts of the expression with our own parser and key them by the
// fingerprint of their float64 decoding. A literal node then takes the exact
// value with the same fingerprint; when two different literals share one
// fingerprint (`1` and `1.0` in one expression) the float64 value is converted
// instead (integral values within 2^53 as integers).

const (
	ambiguous = "\x00ambiguous"
	rawKey    = "\x00raw:"
)

// exactLiterals scans expr for `...` literals the way the lexer does (skipping
// "quoted identifiers" and 'raw strings') and parses each one exactly.
func exactLiterals(expr string) (map[string]any, []litTok) {
	var out map[string]any
	var seq []litTok
	for i := 0; i < len(expr); i++ {
		switch c := expr[i]; c {
		case '"', '`':
			j := i + 1
			for j < len(expr) && expr[j] != c {
				if expr[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(expr) {
				return out, seq
			}
			if c == '`' {
				text := strings.ReplaceAll(expr[i+1:j], "\\`", "`")
				v, _, f := structured.ParseJSON(strings.TrimSpace(text), structured.JSONOptions{Build: true, MaxDepth: 128})
				seq = append(seq, litTok{exact: v, ok: f == nil})
				if f == nil {
					if out == nil {
						out = map[string]any{}
					}
					fp := fingerprint(v)
					if prev, ok := out[fp]; ok && !equalExact(prev, v) {
						out[fp] = ambiguous
					} else if !ok {
						out[fp] = v
					}
				}
			}
			i = j
		case '\'':
			j := i + 1
			for j < len(expr) && expr[j] != '\'' {
				if expr[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(expr) {
				return out, seq
			}
			body := expr[i+1 : j]
			seq = append(seq, litTok{raw: true, ok: true,
				lexed: strings.NewReplacer(`\\`, `\`, `\'`, `'`).Replace(body),
				exact: strings.ReplaceAll(body, `\'`, `'`)})
			if strings.Contains(body, `\\`) {
				// The community lexer also turns \\ into \; JMESPath (and the
				// compliance suite) only unescapes \'.
				lexed := strings.NewReplacer(`\\`, `\`, `\'`, `'`).Replace(body)
				want := strings.ReplaceAll(body, `\'`, `'`)
				if out == nil {
					out = map[string]any{}
				}
				key := rawKey + lexed
				if prev, ok := out[key]; ok && prev != want {
					out[key] = ambiguous
				} else {
					out[key] = want
				}
			}
			i = j
		}
	}
	return out, seq
}

// litTok is one literal token of the expression, in source order.
type litTok struct {
	exact any    // the value as Python's jmespath reads it
	raw   bool   // a 'raw string'
	lexed string // raw strings: the community lexer's reading
	ok    bool   // the JSON text parsed
}

// exactLit marks a literal node whose value was replaced by its exact reading.
type exactLit struct{ v any }

// pinLiterals replaces the values of the AST's literal nodes by their exact
// readings, pairing nodes and tokens in source order. It changes nothing unless
// every pair matches (same count, same float64 fingerprint, same lexed raw
// string), so a mismatch falls back to the fingerprint map.
func pinLiterals(ast *parsing.ASTNode, seq []litTok) {
	var nodes []*parsing.ASTNode
	var walk func(n *parsing.ASTNode)
	walk = func(n *parsing.ASTNode) {
		if n.NodeType == parsing.ASTLiteral {
			nodes = append(nodes, n)
			return
		}
		order := []int{}
		if n.NodeType == parsing.ASTFilterProjection && len(n.Children) == 3 {
			order = []int{0, 2, 1} // left [? condition ] right, in the source
		} else {
			for i := range n.Children {
				order = append(order, i)
			}
		}
		for _, i := range order {
			walk(&n.Children[i])
		}
	}
	walk(ast)
	if len(nodes) != len(seq) {
		return
	}
	for i, n := range nodes {
		t := seq[i]
		if !t.ok {
			return
		}
		if t.raw {
			if s, isStr := n.Value.(string); !isStr || s != t.lexed {
				return
			}
			continue
		}
		if fingerprint(n.Value) != fingerprint(t.exact) {
			return
		}
	}
	for i, n := range nodes {
		n.Value = exactLit{seq[i].exact}
	}
}

// resolveLiterals converts every literal node once, at compile time, so that
// evaluating a literal is free: a large literal inside a projection must not
// be decoded again for every element.
func resolveLiterals(n *parsing.ASTNode, in *interp) {
	if n.NodeType == parsing.ASTLiteral {
		if _, done := n.Value.(exactLit); !done {
			v, _ := in.literal(n.Value)
			n.Value = exactLit{v}
		}
		return
	}
	for i := range n.Children {
		resolveLiterals(&n.Children[i], in)
	}
}

// equalExact is equality that also keeps int and float apart.
func equalExact(a, b any) bool {
	if fingerprint(a) != fingerprint(b) {
		return false
	}
	return exactText(a) == exactText(b)
}

// exactText is v as to_string() writes it: two values have the same text
// exactly when they are equal and their numbers are written alike.
func exactText(v any) string {
	var b strings.Builder
	writeJSON(&b, v)
	return b.String()
}

// fingerprint is what encoding/json would have decoded from a value,
// re-encoded with sorted keys and numbers as floats. It takes both exact values
// (structured.Number, *structured.Object) and encoding/json's (float64,
// map[string]any), so a literal's two decodings have the same fingerprint.
func fingerprint(v any) string {
	var b strings.Builder
	var walk func(v any)
	member := func(n int, k string, v any) {
		if n > 0 {
			b.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		b.Write(kb)
		b.WriteByte(':')
		walk(v)
	}
	walk = func(v any) {
		switch x := v.(type) {
		case structured.Number:
			f, _ := float(x)
			writeFloatFP(&b, f)
		case float64:
			writeFloatFP(&b, x)
		case []any:
			b.WriteByte('[')
			for i, e := range x {
				if i > 0 {
					b.WriteByte(',')
				}
				walk(e)
			}
			b.WriteByte(']')
		case *structured.Object:
			idx := make([]int, x.Len())
			for i := range idx {
				idx[i] = i
			}
			sort.Slice(idx, func(i, j int) bool { return x.Keys[idx[i]] < x.Keys[idx[j]] })
			b.WriteByte('{')
			for n, i := range idx {
				member(n, x.Keys[i], x.Values[i])
			}
			b.WriteByte('}')
		case map[string]any:
			b.WriteByte('{')
			for n, k := range slices.Sorted(maps.Keys(x)) {
				member(n, k, x[k])
			}
			b.WriteByte('}')
		default:
			k, _ := json.Marshal(x)
			b.Write(k)
		}
	}
	walk(v)
	return b.String()
}

func writeFloatFP(b *strings.Builder, f float64) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		b.WriteString("inf")
		return
	}
	b.WriteString(FormatFloat(f))
}

// literal returns the exact value of a literal node.
func (in *interp) literal(v any) (any, error) {
	switch x := v.(type) {
	case exactLit:
		return x.v, nil
	case nil, bool:
		return v, nil
	case string:
		if fixed, ok := in.lits[rawKey+x].(string); ok && fixed != ambiguous {
			return fixed, nil
		}
		return v, nil
	}
	if in.lits != nil {
		if exact, ok := in.lits[fingerprint(v)]; ok && exact != ambiguous {
			return exact, nil
		}
	}
	return fromGo(v), nil
}

// fromGo converts an encoding/json value (numbers as float64, or as
// json.Number with UseNumber; int from Go code) into the structured model.
func fromGo(v any) any {
	switch x := v.(type) {
	case json.Number:
		return number(x)
	case int:
		return number(strconv.Itoa(x))
	case float64:
		if x == math.Trunc(x) && math.Abs(x) <= 1<<53 {
			return intNum(big.NewInt(int64(x)))
		}
		return floatNum(x)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = fromGo(e)
		}
		return out
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		o := structured.NewObject(len(keys))
		for _, k := range keys {
			o.Set(k, fromGo(x[k]))
		}
		return o
	}
	return v
}
