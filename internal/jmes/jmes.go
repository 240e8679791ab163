// Package jmes evaluates JMESPath expressions over the ordered JSON values of
// package structured. Expressions are parsed by
// github.com/jmespath-community/go-jmespath (full JMESPath plus the community
// extensions: let, $root, arithmetic); evaluation is ours so that it is bounded
// (steps, built values, a context), never panics, keeps object key order, and
// keeps numbers exact with Python's int/float distinction — the same answers as
// Python's jmespath on json.loads output, the reference.
package jmes

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/jmespath-community/go-jmespath/pkg/parsing"

	"github.com/precisiond/precisiond/internal/structured"
)

// Error kinds, named as in the JMESPath specification and compliance suite.
const (
	KindSyntax            = "syntax"
	KindInvalidType       = "invalid-type"
	KindInvalidArity      = "invalid-arity"
	KindInvalidValue      = "invalid-value"
	KindUnknownFunction   = "unknown-function"
	KindUndefinedVariable = "undefined-variable"
	KindLimit             = "limit"
)

// Error is a typed JMESPath error: a syntax error at compile time, or a runtime
// error (Kind invalid-type, invalid-arity, invalid-value, unknown-function,
// undefined-variable) or KindLimit when evaluation would exceed its budget;
// then Reason is ReasonWorkLimit or ReasonResultTooLarge.
type Error struct {
	Kind    string
	Reason  string // KindLimit only
	Message string
}

func (e *Error) Error() string { return e.Kind + ": " + e.Message }

func errorf(kind, format string, args ...any) *Error {
	return &Error{Kind: kind, Message: fmt.Sprintf(format, args...)}
}

// Limits bounds one evaluation; zero means unbounded.
type Limits struct {
	// MaxSteps bounds AST node evaluations, function iterations (a sort of n
	// values is n·log n of them) and nodes visited while measuring values.
	MaxSteps int
	// MaxWorkBytes bounds the canonical JSON size of all values the
	// evaluation builds, summed: every array, object, string and number it
	// makes is charged in full, a shared value once per reference (see
	// budget.go). It is checked while a value is built, before the memory is
	// taken.
	MaxWorkBytes int
	// MaxResultBytes bounds the canonical JSON size of the result, in
	// characters as evidence.Canonical writes them.
	MaxResultBytes int
}

// WorkFactor is the ratio of the work budget to the result budget in
// LimitsFor: the values an evaluation builds may be this many times larger,
// in total, than the answer. For json_query (65536 characters) that is
// 16 MiB: room for several passes over the largest input (1 MiB), and a bound
// on the memory one evaluation holds.
const WorkFactor = 256

// DefaultSteps is the step budget of LimitsFor.
const DefaultSteps = 20_000_000

// LimitsFor returns the limits for a result of at most maxResult characters
// of canonical JSON: DefaultSteps, a work budget of WorkFactor·maxResult
// bytes, and the result budget itself.
func LimitsFor(maxResult int) Limits {
	return Limits{MaxSteps: DefaultSteps, MaxWorkBytes: WorkFactor * maxResult, MaxResultBytes: maxResult}
}

// DefaultLimits are the limits for a 65536-character result (json_query's
// max_result_chars).
var DefaultLimits = LimitsFor(65536)

// MaxExpressionBytes bounds the expression text.
const MaxExpressionBytes = 4096

// Query is a compiled expression; it is safe for concurrent use.
type Query struct {
	ast  parsing.ASTNode
	lits map[string]any // literal fingerprint -> exact value, see literals.go
}

// Compile parses expr; it returns *Error with Kind syntax when expr is not a
// JMESPath expression or is longer than MaxExpressionBytes.
func Compile(expr string) (q *Query, err error) {
	if len(expr) > MaxExpressionBytes {
		return nil, errorf(KindSyntax, "expression longer than %d bytes", MaxExpressionBytes)
	}
	defer func() {
		if r := recover(); r != nil {
			q, err = nil, errorf(KindSyntax, "expression cannot be parsed")
		}
	}()
	ast, perr := parsing.NewParser().Parse(expr)
	if perr != nil {
		var se parsing.SyntaxError
		if errors.As(perr, &se) {
			return nil, errorf(KindSyntax, "%s", se.Error())
		}
		return nil, errorf(KindSyntax, "invalid literal: %s", perr.Error())
	}
	if !checkAST(&ast, false) {
		return nil, errorf(KindSyntax, "malformed expression")
	}
	lits, seq := exactLiterals(expr)
	pinLiterals(&ast, seq)
	resolveLiterals(&ast, &interp{lits: lits})
	return &Query{ast: ast, lits: lits}, nil
}

// Search evaluates q against data (a value of package structured). The result
// is again such a value, whose canonical JSON fits lim.MaxResultBytes. Errors:
// *Error for runtime errors and exhausted budgets (KindLimit with Reason
// ReasonWorkLimit or ReasonResultTooLarge), ctx.Err() when the context ends.
func (q *Query) Search(ctx context.Context, data any, lim Limits) (result any, err error) {
	result, _, err = q.search(ctx, data, lim, Standard)
	return result, err
}

// search evaluates q and also returns the steps it took.
func (q *Query) search(ctx context.Context, data any, lim Limits, d Dialect) (result any, steps int, err error) {
	in := &interp{ctx: ctx, root: data, lim: lim, lits: q.lits, dialect: d}
	defer func() { steps = in.steps }()
	defer func() {
		if r := recover(); r != nil {
			// Defence in depth: a bug must not take the process down.
			result, err = nil, fmt.Errorf("jmes: internal error: %v", r)
		}
	}()
	v, err := in.eval(&q.ast, data)
	if err != nil {
		return nil, 0, err
	}
	if _, ok := v.(expref); ok {
		return nil, 0, errorf(KindInvalidValue, "an expression reference is not a value")
	}
	if lim.MaxResultBytes > 0 {
		n, err := in.size(v, lim.MaxResultBytes)
		if err != nil {
			return nil, 0, err
		}
		if n > lim.MaxResultBytes {
			return nil, 0, limitError(ReasonResultTooLarge, "the result is more than %d characters of JSON", lim.MaxResultBytes)
		}
	}
	return v, 0, nil
}

type scope struct {
	name string
	val  any
	next *scope
}

type interp struct {
	ctx   context.Context
	root  any
	lim   Limits
	steps int
	spent int // bytes charged, see budget.go
	lits  map[string]any
	vars  *scope
	// dialect selects the function set (plan.go).
	dialect Dialect
}

type expref struct{ node *parsing.ASTNode }

// step accounts for one unit of work and checks the context every 4096 units.
func (in *interp) step() error {
	in.steps++
	if in.lim.MaxSteps > 0 && in.steps > in.lim.MaxSteps {
		return limitError(ReasonWorkLimit, "evaluation exceeds %d steps", in.lim.MaxSteps)
	}
	if in.steps&4095 == 0 {
		if err := in.ctx.Err(); err != nil {
			return err
		}
	}
	return nil
}

// truthy implements JMESPath truthiness: false, null, "", [] and {} are false.
func truthy(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case bool:
		return x
	case string:
		return x != ""
	case []any:
		return len(x) > 0
	case *structured.Object:
		return x.Len() > 0
	}
	return true
}

// evalLeft evaluates node's left child (a projection's or flatten's source);
// ok is false, meaning a null result, when that value is not a T.
func evalLeft[T any](in *interp, node *parsing.ASTNode, value any) (x T, ok bool, err error) {
	left, err := in.eval(&node.Children[0], value)
	if err != nil {
		return x, false, err
	}
	x, ok = left.(T)
	return x, ok, nil
}

func (in *interp) eval(node *parsing.ASTNode, value any) (any, error) {
	if err := in.step(); err != nil {
		return nil, err
	}
	switch node.NodeType {
	case parsing.ASTField:
		if o, ok := value.(*structured.Object); ok {
			v, _ := o.Get(node.Value.(string))
			return v, nil
		}
		return nil, nil
	case parsing.ASTSubexpression, parsing.ASTIndexExpression:
		left, err := in.eval(&node.Children[0], value)
		if err != nil {
			return nil, err
		}
		return in.eval(&node.Children[1], left)
	case parsing.ASTIndex:
		arr, ok := value.([]any)
		if !ok {
			return nil, nil
		}
		i := node.Value.(int)
		if i < 0 {
			i += len(arr)
		}
		if i < 0 || i >= len(arr) {
			return nil, nil
		}
		return arr[i], nil
	case parsing.ASTSlice:
		arr, ok := value.([]any)
		if !ok {
			return nil, nil
		}
		return in.slice(arr, node.Value.([]*int))
	case parsing.ASTProjection:
		arr, ok, err := evalLeft[[]any](in, node, value)
		if !ok || err != nil {
			return nil, err
		}
		return in.project(arr, &node.Children[1], nil)
	case parsing.ASTValueProjection:
		obj, ok, err := evalLeft[*structured.Object](in, node, value)
		if !ok || err != nil {
			return nil, err
		}
		return in.project(obj.Values, &node.Children[1], nil)
	case parsing.ASTFilterProjection:
		arr, ok, err := evalLeft[[]any](in, node, value)
		if !ok || err != nil {
			return nil, err
		}
		return in.project(arr, &node.Children[1], &node.Children[2])
	case parsing.ASTFlatten:
		arr, ok, err := evalLeft[[]any](in, node, value)
		if !ok || err != nil {
			return nil, err
		}
		if err := in.charge(2); err != nil {
			return nil, err
		}
		out := make([]any, 0, len(arr))
		for _, el := range arr {
			sub, ok := el.([]any)
			if !ok {
				sub = []any{el}
			}
			for _, e := range sub {
				if err := in.chargeElem(e); err != nil {
					return nil, err
				}
			}
			out = append(out, sub...)
		}
		return out, nil
	case parsing.ASTIdentity, parsing.ASTCurrentNode:
		return value, nil
	case parsing.ASTRootNode:
		return in.root, nil
	case parsing.ASTLiteral:
		return in.literal(node.Value)
	case parsing.ASTMultiSelectList:
		if value == nil {
			return nil, nil
		}
		if err := in.charge(2); err != nil {
			return nil, err
		}
		out := make([]any, 0, len(node.Children))
		for i := range node.Children {
			r, err := in.eval(&node.Children[i], value)
			if err != nil {
				return nil, err
			}
			if err := in.chargeElem(r); err != nil {
				return nil, err
			}
			out = append(out, r)
		}
		return out, nil
	case parsing.ASTMultiSelectHash:
		if value == nil {
			return nil, nil
		}
		if err := in.charge(2); err != nil {
			return nil, err
		}
		out := structured.NewObject(len(node.Children))
		for i := range node.Children {
			kv := &node.Children[i]
			r, err := in.eval(&kv.Children[0], value)
			if err != nil {
				return nil, err
			}
			if err := in.chargeMember(kv.Value.(string), r); err != nil {
				return nil, err
			}
			out.Set(kv.Value.(string), r)
		}
		return out, nil
	case parsing.ASTKeyValPair:
		return in.eval(&node.Children[0], value)
	case parsing.ASTOrExpression:
		left, err := in.eval(&node.Children[0], value)
		if err != nil || truthy(left) {
			return left, err
		}
		return in.eval(&node.Children[1], value)
	case parsing.ASTAndExpression:
		left, err := in.eval(&node.Children[0], value)
		if err != nil || !truthy(left) {
			return left, err
		}
		return in.eval(&node.Children[1], value)
	case parsing.ASTNotExpression:
		v, err := in.eval(&node.Children[0], value)
		if err != nil {
			return nil, err
		}
		return !truthy(v), nil
	case parsing.ASTPipe:
		result := value
		for i := range node.Children {
			var err error
			if result, err = in.eval(&node.Children[i], result); err != nil {
				return nil, err
			}
		}
		return result, nil
	case parsing.ASTComparator:
		return in.compare(node, value)
	case parsing.ASTExpRef:
		return expref{node: &node.Children[0]}, nil
	case parsing.ASTFunctionExpression:
		args := make([]any, len(node.Children))
		for i := range node.Children {
			v, err := in.eval(&node.Children[i], value)
			if err != nil {
				return nil, err
			}
			args[i] = v
		}
		return in.call(node.Value.(string), args)
	case parsing.ASTArithmeticExpression:
		return in.arithmetic(node, value)
	case parsing.ASTArithmeticUnaryExpression:
		v, err := in.eval(&node.Children[0], value)
		if err != nil {
			return nil, err
		}
		n, ok := isNum(v)
		if !ok {
			return nil, nil
		}
		if node.Value == parsing.TOKMinus {
			n = negate(n)
			return n, in.charge(len(n))
		}
		return n, nil
	case parsing.ASTLetExpression:
		saved := in.vars
		defer func() { in.vars = saved }()
		if _, err := in.eval(&node.Children[0], value); err != nil {
			return nil, err
		}
		return in.eval(&node.Children[1], value)
	case parsing.ASTBindings:
		for i := range node.Children {
			b := &node.Children[i]
			v, err := in.eval(&b.Children[1], value)
			if err != nil {
				return nil, err
			}
			in.vars = &scope{name: b.Children[0].Value.(string), val: v, next: in.vars}
		}
		return value, nil
	case parsing.ASTVariable:
		name := node.Value.(string)
		for s := in.vars; s != nil; s = s.next {
			if s.name == name {
				return s.val, nil
			}
		}
		return nil, errorf(KindUndefinedVariable, "variable %s is not defined", name)
	}
	return nil, fmt.Errorf("jmes: unhandled node type %v", node.NodeType)
}

// project evaluates rhs on each element of arr, dropping null results; with a
// filter, only on the elements for which filter is truthy.
func (in *interp) project(arr []any, rhs, filter *parsing.ASTNode) (any, error) {
	if err := in.charge(2); err != nil {
		return nil, err
	}
	out := []any{}
	if filter == nil {
		out = make([]any, 0, len(arr))
	}
	for _, el := range arr {
		if filter != nil {
			c, err := in.eval(filter, el)
			if err != nil {
				return nil, err
			}
			if !truthy(c) {
				continue
			}
		}
		r, err := in.eval(rhs, el)
		if err != nil {
			return nil, err
		}
		if r != nil {
			if err := in.chargeElem(r); err != nil {
				return nil, err
			}
			out = append(out, r)
		}
	}
	return out, nil
}

// slice follows Python's list slicing (which JMESPath adopted).
func (in *interp) slice(arr []any, parts []*int) (any, error) {
	step := 1
	if len(parts) > 2 && parts[2] != nil {
		step = *parts[2]
		if step == 0 {
			return nil, errorf(KindInvalidValue, "slice step cannot be 0")
		}
	}
	n := len(arr)
	capIdx := func(p *int, dflt int) int {
		if p == nil {
			return dflt
		}
		i := *p
		if i < 0 {
			i += n
			if i < 0 {
				if step < 0 {
					return -1
				}
				return 0
			}
		} else if i >= n {
			if step < 0 {
				return n - 1
			}
			return n
		}
		return i
	}
	var start, stop int
	if step > 0 {
		start, stop = capIdx(parts[0], 0), capIdx(parts[1], n)
	} else {
		start, stop = capIdx(parts[0], n-1), capIdx(parts[1], -1)
	}
	// Indices are visited without overflow: a step as large as an int may
	// not be added to an index past the last one.
	if err := in.charge(2); err != nil {
		return nil, err
	}
	out := []any{}
	for i := start; step > 0 && i < stop || step < 0 && i > stop; {
		if err := in.chargeElem(arr[i]); err != nil {
			return nil, err
		}
		out = append(out, arr[i])
		if step > 0 && step > stop-i || step < 0 && step < stop-i {
			break
		}
		i += step
	}
	return out, nil
}

// equal is JMESPath equality: numbers by value (1 == 1.0), booleans never equal
// numbers, arrays element-wise, objects by key set regardless of order. Results
// can share subtrees (a DAG such as @ | [@, @] | [@, @] ...), so every visited
// node is a step of the budget.
func (in *interp) equal(a, b any) (bool, error) {
	if err := in.step(); err != nil {
		return false, err
	}
	switch x := a.(type) {
	case nil:
		return b == nil, nil
	case bool:
		y, ok := b.(bool)
		return ok && x == y, nil
	case string:
		y, ok := b.(string)
		return ok && x == y, nil
	case number:
		y, ok := b.(number)
		return ok && cmpNum(x, y) == 0, nil
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false, nil
		}
		for i := range x {
			if eq, err := in.equal(x[i], y[i]); err != nil || !eq {
				return false, err
			}
		}
		return true, nil
	case *structured.Object:
		y, ok := b.(*structured.Object)
		if !ok || x.Len() != y.Len() {
			return false, nil
		}
		for i, k := range x.Keys {
			yv, ok := y.Get(k)
			if !ok {
				return false, nil
			}
			if eq, err := in.equal(x.Values[i], yv); err != nil || !eq {
				return false, err
			}
		}
		return true, nil
	}
	return false, nil
}

// equal compares two values without a budget (trees only, e.g. parsed input).
func equal(a, b any) bool {
	in := &interp{ctx: context.Background()}
	eq, _ := in.equal(a, b)
	return eq
}

// evalBoth evaluates both children of a binary operator node against value,
// left first.
func (in *interp) evalBoth(node *parsing.ASTNode, value any) (left, right any, err error) {
	if left, err = in.eval(&node.Children[0], value); err != nil {
		return nil, nil, err
	}
	if right, err = in.eval(&node.Children[1], value); err != nil {
		return nil, nil, err
	}
	return left, right, nil
}

func (in *interp) compare(node *parsing.ASTNode, value any) (any, error) {
	left, right, err := in.evalBoth(node, value)
	if err != nil {
		return nil, err
	}
	op := node.Value.(parsing.TokType)
	switch op {
	case parsing.TOKEQ:
		return in.equal(left, right)
	case parsing.TOKNE:
		eq, err := in.equal(left, right)
		return !eq && err == nil, err
	}
	// Ordering: numbers with numbers, strings with strings (code point order,
	// as Python's jmespath does); anything else is null.
	var c int
	ln, lok := isNum(left)
	rn, rok := isNum(right)
	ls, lsok := left.(string)
	rs, rsok := right.(string)
	switch {
	case lok && rok:
		c = cmpNum(ln, rn)
	case lsok && rsok:
		c = strings.Compare(ls, rs)
	default:
		return nil, nil
	}
	switch op {
	case parsing.TOKLT:
		return c < 0, nil
	case parsing.TOKLTE:
		return c <= 0, nil
	case parsing.TOKGT:
		return c > 0, nil
	case parsing.TOKGTE:
		return c >= 0, nil
	}
	return nil, fmt.Errorf("jmes: unknown comparator %v", op)
}

// TypeName returns the JMESPath type of a value: number, string, boolean, array,
// object or null.
func TypeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case number:
		return "number"
	case []any:
		return "array"
	case *structured.Object:
		return "object"
	case expref:
		return "expref"
	}
	return "unknown"
}

// ToGeneric converts a result into plain JSON values for the facts: objects
// become map[string]any, numbers json.Number (integers as digits, "-0" as "0";
// floats in Python repr form). Errors (*Error): a float outside the double range
// or an integer over MaxIntegerDigits (invalid-value; JSON and Python cannot
// carry them). Shared subtrees are copied at every reference, so v must be a
// result of Search, whose size is bounded by Limits.MaxResultBytes.
func ToGeneric(v any) (any, error) {
	switch x := v.(type) {
	case nil, bool, string:
		return x, nil
	case number:
		if x.IsInt() {
			if len(strings.TrimPrefix(string(x), "-")) > MaxIntegerDigits {
				return nil, errorf(KindInvalidValue, "an integer in the result has more than %d digits", MaxIntegerDigits)
			}
			if x == "-0" {
				return json.Number("0"), nil
			}
			return json.Number(x), nil
		}
		f, _ := float(x)
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return nil, errorf(KindInvalidValue, "a number in the result is outside the double-precision range")
		}
		return json.Number(FormatFloat(f)), nil
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			g, err := ToGeneric(e)
			if err != nil {
				return nil, err
			}
			out[i] = g
		}
		return out, nil
	case *structured.Object:
		out := make(map[string]any, x.Len())
		for i, k := range x.Keys {
			g, err := ToGeneric(x.Values[i])
			if err != nil {
				return nil, err
			}
			out[k] = g
		}
		return out, nil
	}
	return nil, errorf(KindInvalidValue, "a %s is not a JSON value", TypeName(v))
}

// Input limits of RunQuery.
const (
	MaxJSONBytes = 1 << 20 // json_str, UTF-8 bytes
	MaxJSONDepth = 512     // container nesting of json_str
	MaxJSONNodes = 1 << 20 // values in json_str
	// MaxIntegerDigits is Python's default int conversion limit: json.loads
	// refuses longer integers, and so do we, in input and in results.
	MaxIntegerDigits = 4300
)

// InputError describes why json_str was refused: Reason is invalid_json,
// json_too_large, json_too_deep or integer_too_long.
type InputError struct {
	Reason  string
	Message string
}

func (e *InputError) Error() string { return e.Reason + ": " + e.Message }

// ParseInput parses json_str under the json_query limits. Syntax errors carry
// Python's json message, line and column.
func ParseInput(s string) (any, error) {
	if len(s) > MaxJSONBytes {
		return nil, &InputError{"json_too_large", fmt.Sprintf("json_str is %d UTF-8 bytes; the limit is %d", len(s), MaxJSONBytes)}
	}
	v, _, f := structured.ParseJSON(s, structured.JSONOptions{Build: true, MaxDepth: MaxJSONDepth, MaxNodes: MaxJSONNodes})
	if f != nil {
		switch f.Code {
		case structured.CodeDepthLimit:
			return nil, &InputError{"json_too_deep", fmt.Sprintf("json_str nests deeper than %d levels", MaxJSONDepth)}
		case structured.CodeNodeLimit:
			return nil, &InputError{"json_too_large", fmt.Sprintf("json_str has more than %d values", MaxJSONNodes)}
		}
		return nil, &InputError{"invalid_json", fmt.Sprintf("%s: line %d column %d", strings.TrimPrefix(f.Message, "JSON syntax error: "), *f.Line, *f.Column)}
	}
	if err := checkDigits(v); err != nil {
		return nil, err
	}
	return v, nil
}

func checkDigits(v any) error {
	switch x := v.(type) {
	case number:
		if x.IsInt() && len(strings.TrimPrefix(string(x), "-")) > MaxIntegerDigits {
			return &InputError{"integer_too_long", fmt.Sprintf("an integer has more than %d digits", MaxIntegerDigits)}
		}
	case []any:
		for _, e := range x {
			if err := checkDigits(e); err != nil {
				return err
			}
		}
	case *structured.Object:
		for _, e := range x.Values {
			if err := checkDigits(e); err != nil {
				return err
			}
		}
	}
	return nil
}
