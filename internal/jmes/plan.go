package jmes

import (
	"context"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/jmespath-community/go-jmespath/pkg/parsing"
)

// Dialect selects the function set of an evaluation. Standard is the set of
// json_query (JMESPath plus the community extensions); Plans adds the glue
// functions of plan $jmes expressions (docs/plans.md). A function is added
// to Plans only, so that json_query's contract and answers never change
// when plans gain one.
type Dialect uint8

// Dialects.
const (
	Standard Dialect = iota
	Plans
)

// planFunctions are the functions only the Plans dialect has.
var planFunctions = map[string]*function{
	"substr": {args: []argType{tString, tNumber, tNumber}, optional: 1, call: fnSubstr},
}

// PlanFunctionNames lists the functions the Plans dialect adds, sorted.
func PlanFunctionNames() []string { return slices.Sorted(maps.Keys(planFunctions)) }

// SearchIn is Search in a dialect (Standard is Search itself); it also
// returns the steps the evaluation took (of lim.MaxSteps), so that a caller
// can hold many evaluations to one budget.
func (q *Query) SearchIn(ctx context.Context, data any, lim Limits, d Dialect) (any, int, error) {
	return q.search(ctx, data, lim, d)
}

// fnSubstr is substr(s, start, length?): the code points of s from index
// start (0-based), at most length of them, all the rest without length;
// Python's s[start:start+length]. start and length are non-negative
// integers (invalid-value otherwise); a start at or past the end gives "".
func fnSubstr(in *interp, a []any) (any, error) {
	s := a[0].(string)
	start, err := intArg("substr", a[1])
	if err != nil {
		return nil, err
	}
	if start < 0 {
		return nil, errorf(KindInvalidValue, "substr() start must not be negative")
	}
	length := -1
	if len(a) > 2 {
		if length, err = intArg("substr", a[2]); err != nil {
			return nil, err
		}
		if length < 0 {
			return nil, errorf(KindInvalidValue, "substr() length must not be negative")
		}
	}
	i := 0
	for range start {
		if i >= len(s) {
			return "", nil
		}
		_, w := utf8.DecodeRuneInString(s[i:])
		i += w
	}
	j := len(s)
	if length >= 0 {
		j = i
		for n := 0; n < length && j < len(s); n++ {
			_, w := utf8.DecodeRuneInString(s[j:])
			j += w
		}
	}
	if err := in.chargeString(j - i); err != nil {
		return nil, err
	}
	return s[i:j], nil
}

// FromGeneric converts generic JSON (what evidence.ParseJSON returns: objects
// as map[string]any, numbers as json.Number) into the values Search takes.
// Object members are ordered by key, as canonical JSON orders them.
func FromGeneric(v any) any { return fromGo(v) }

// Path is a chain of field names that an expression reads from the root of
// its data: "a.b.c" or "$.a.b" give [a b c] and [a b] (a prefix of what is
// read). Paths lets a caller check statically that an expression names only
// what its data will hold.
type Path []string

// Refs lists the root paths q reads (each at most depth names long) and the
// functions it calls. A root path starts at the expression's top level (where
// the current node is the root) or at $. Field names read below a
// projection, a filter, the right of a pipe or in an expression reference
// are relative to other values and are not listed.
func (q *Query) Refs(depth int) (paths []Path, funcs []string) {
	var walk func(n *parsing.ASTNode, atRoot bool)
	walk = func(n *parsing.ASTNode, atRoot bool) {
		if names, rooted, ok := leading(n); ok && (rooted || atRoot) && len(names) > 0 {
			paths = append(paths, Path(names[:min(len(names), depth)]))
		}
		if n.NodeType == parsing.ASTFunctionExpression {
			funcs = append(funcs, n.Value.(string))
		}
		switch n.NodeType {
		case parsing.ASTSubexpression, parsing.ASTIndexExpression, parsing.ASTProjection, parsing.ASTValueProjection,
			parsing.ASTFilterProjection, parsing.ASTFlatten, parsing.ASTPipe:
			for i := range n.Children {
				walk(&n.Children[i], atRoot && i == 0)
			}
		case parsing.ASTExpRef:
			walk(&n.Children[0], false)
		default:
			for i := range n.Children {
				walk(&n.Children[i], atRoot)
			}
		}
	}
	walk(&q.ast, true)
	// A chain is seen again at each of its prefixes: keep each path once.
	seen := map[string]bool{}
	paths = slices.DeleteFunc(paths, func(p Path) bool {
		k := strings.Join(p, "\x00")
		dup := seen[k]
		seen[k] = true
		return dup
	})
	return paths, funcs
}

// leading returns the field names at the start of a chain of subexpressions
// (a.b.c, $.a.b, a.b[0].c gives [a b]); rooted is true when the chain
// starts at $ rather than at a field; ok is false when n starts with neither.
func leading(n *parsing.ASTNode) (names []string, rooted, ok bool) {
	switch n.NodeType {
	case parsing.ASTField:
		return []string{n.Value.(string)}, false, true
	case parsing.ASTRootNode:
		return nil, true, true
	case parsing.ASTSubexpression:
		names, rooted, ok = leading(&n.Children[0])
		if !ok {
			return nil, false, false
		}
		if complete(&n.Children[0]) && n.Children[1].NodeType == parsing.ASTField {
			names = append(slices.Clip(names), n.Children[1].Value.(string))
		}
		return names, rooted, true
	case parsing.ASTIndexExpression, parsing.ASTProjection, parsing.ASTValueProjection, parsing.ASTFilterProjection, parsing.ASTFlatten:
		return leading(&n.Children[0])
	}
	return nil, false, false
}

// complete reports whether n is a pure chain of fields (from a field or $).
func complete(n *parsing.ASTNode) bool {
	switch n.NodeType {
	case parsing.ASTField, parsing.ASTRootNode:
		return true
	case parsing.ASTSubexpression:
		return complete(&n.Children[0]) && n.Children[1].NodeType == parsing.ASTField
	}
	return false
}

// KnownFunction reports whether name is a function of dialect d.
func KnownFunction(name string, d Dialect) bool {
	if _, ok := functions[name]; ok {
		return true
	}
	_, ok := planFunctions[name]
	return ok && d == Plans
}
