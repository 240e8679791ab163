package plans

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/precisiond/precisiond/contracts"
	"github.com/precisiond/precisiond/internal/jmes"
	"github.com/precisiond/precisiond/tools"
)

// Keywords of the static check's details (besides the JSON Schema keywords of
// literal arguments that fail their tool's inputSchema, such as "required" or
// "pattern").
const (
	KeyUnknownTool      = tools.CodeUnknownTool      // the tool does not exist (or is not exposed by --tools)
	KeyToolDisabled     = tools.CodeToolDisabled     // the tool is disabled by an admin
	KeyContractMismatch = tools.CodeContractMismatch // a step's contract_hash pin differs
	KeyParamUndeclared  = "param_undeclared"         // $param names no declared parameter
	KeyRefUnknownStep   = "ref_unknown_step"         // $ref names no step of the plan
	KeyRefForward       = "ref_forward"              // $ref names this step or a later one
	KeyRefPointer       = "ref_pointer"              // the facts schema does not allow the pointer
	KeyTypeMismatch     = "type_mismatch"            // a parameter's or fact's type cannot fit the argument
	KeyJMESSyntax       = "jmes_syntax"              // a $jmes expression does not parse
	KeyJMESName         = "jmes_unknown_name"        // a $jmes expression reads a root name other than params, steps and the foreach element
	KeyJMESFunction     = "jmes_unknown_function"    // a $jmes expression calls a function the plan dialect does not have
	KeyItemOutside      = "item_outside_foreach"     // $item in a step without foreach
)

// Check holds a decoded plan against the registry's contracts before
// anything runs: every tool exists and is enabled (and matches its pin),
// every $param is declared, every $ref names an earlier step and a pointer
// its tool's facts schema (outputSchema) allows, literal arguments validate
// against the tool's inputSchema, and where both sides declare a type, a
// parameter's or a fact's type fits the argument it fills. It returns nil or
// an invalid_plan *tools.Error with one detail per problem (at most
// contracts.MaxDetails), each naming the JSON path in the plan and, in its
// message, the step id.
//
// Placeholders stand for values not known yet, so literal arguments are
// validated with each $param and $ref replaced by null and every schema
// failure at, inside or above a placeholder ignored, except a missing
// required argument and an unknown one: a placeholder can never cause those.
// A check that cannot be decided statically (a pattern against a parameter's
// value) is left to the run, where every call validates its real arguments.
func Check(p *Plan, reg *tools.Registry) error {
	var details []contracts.Detail
	add := func(path, keyword, format string, args ...any) {
		details = append(details, contracts.Detail{Path: path, Keyword: keyword, Message: fmt.Sprintf(format, args...)})
	}
	index := make(map[string]int, len(p.Steps))
	for i, st := range p.Steps {
		index[st.ID] = i
	}
	known := make([]*contracts.Contract, len(p.Steps)) // nil: the step's tool is not usable
	for i, st := range p.Steps {
		at := "/steps/" + strconv.Itoa(i)
		c, hash, err := reg.Contract(st.Tool)
		if err != nil {
			var te *tools.Error
			if errors.As(err, &te) {
				add(at+"/tool", te.Code, "step %s: %s", st.ID, te.Message)
			} else {
				add(at+"/tool", KeyUnknownTool, "step %s: tool %s is not available", st.ID, st.Tool)
			}
		} else if st.ContractHash != "" && st.ContractHash != hash {
			add(at+"/contract_hash", KeyContractMismatch, "step %s: contract_hash %s is not the current contract %s of %s", st.ID, st.ContractHash, hash, st.Tool)
		} else {
			known[i] = c
		}
		checkHole := func(h hole, hat, item string) {
			switch {
			case h.isLit:
			case h.isItem:
				if st.Foreach == nil {
					add(hat, KeyItemOutside, "step %s: $item names the element of a foreach step; this step has no foreach", st.ID)
				}
			case h.jmes != nil:
				checkExpr(h.jmes, p, index, i, item, func(keyword, format string, args ...any) {
					add(hat, keyword, "step %s: "+format, append([]any{st.ID}, args...)...)
				})
			case h.ref == nil:
				if _, ok := p.Params[h.param]; !ok {
					add(hat, KeyParamUndeclared, "step %s: $param %q is not declared in params", st.ID, clip(h.param))
				}
			default:
				j, ok := index[h.ref.Step]
				switch {
				case !ok:
					add(hat, KeyRefUnknownStep, "step %s: $ref %q names step %q, which the plan does not have", st.ID, clip(h.ref.Text), clip(h.ref.Step))
				case j >= i:
					add(hat, KeyRefForward, "step %s: $ref %q names step %q, which is not an earlier step", st.ID, clip(h.ref.Text), h.ref.Step)
				case known[j] != nil:
					if _, err := factsAt(known[j], p.Steps[j].Foreach != nil, h.ref.Pointer); err != nil {
						add(hat, KeyRefPointer, "step %s: $ref %q: the facts of %s (step %s) have no %s: %v", st.ID, clip(h.ref.Text), known[j].Tool, h.ref.Step, clip(pointer(h.ref.Pointer)), err)
					}
				}
			}
		}
		if st.Foreach != nil {
			checkHole(*st.Foreach, at+"/foreach", "")
			if msg := foreachMismatch(p, known, index, *st.Foreach); msg != "" {
				add(at+"/foreach", KeyTypeMismatch, "step %s: %s", st.ID, msg)
			}
		}
		for _, h := range st.holes {
			checkHole(h, at+"/args"+pointer(h.at), st.As)
		}
		if known[i] == nil {
			continue
		}
		for _, d := range checkLiterals(known[i], st) {
			add(at+"/args"+d.Path, d.Keyword, "step %s: argument %s: %s", st.ID, displayPath(d.Path), d.Message)
		}
		for _, h := range st.holes {
			if msg := typeMismatch(p, known, index, known[i], h); msg != "" {
				add(at+"/args"+pointer(h.at), KeyTypeMismatch, "step %s: %s", st.ID, msg)
			}
		}
	}
	if p.Output != nil {
		checkExpr(p.Output, p, index, len(p.Steps), "", func(keyword, format string, args ...any) {
			add("/output", keyword, "output: "+format, args...)
		})
	}
	if len(details) == 0 {
		return nil
	}
	if len(details) > contracts.MaxDetails {
		details = details[:contracts.MaxDetails]
	}
	msg := details[0].Message
	if n := len(details) - 1; n > 0 {
		msg += fmt.Sprintf(" (and %d more; see details)", n)
	}
	return &tools.Error{Code: CodeInvalidPlan, Reason: details[0].Keyword, Message: msg, Details: details}
}

func displayPath(p string) string {
	if p == "" {
		return "(all arguments)"
	}
	return p
}

// checkLiterals validates a step's literal arguments against its tool's
// inputSchema (see Check) and returns the details that placeholders cannot
// explain, with paths below args.
func checkLiterals(c *contracts.Contract, st Step) []contracts.Detail {
	var open []string // pointers of the $param and $ref placeholders
	args := fill(st.Args, func(tokens []string, h hole) any {
		if h.isLit {
			return h.lit
		}
		open = append(open, pointer(tokens))
		return nil
	}, st.holes)
	err := c.ValidateInput(c.ApplyDefaults(args.(map[string]any)))
	var ve *contracts.ValidationError
	if err == nil || !errors.As(err, &ve) {
		return nil
	}
	var out []contracts.Detail
	for _, d := range ve.Details {
		if d.Keyword != "required" && d.Keyword != "additionalProperties" && slices.ContainsFunc(open, func(p string) bool { return related(p, d.Path) }) {
			continue
		}
		out = append(out, d)
	}
	return out
}

// related reports whether one JSON Pointer is the other or lies inside it.
func related(a, b string) bool {
	return a == b || strings.HasPrefix(b, a+"/") || strings.HasPrefix(a, b+"/")
}

// typeMismatch describes a placeholder whose source type (the parameter's
// declared type, or the type the facts schema gives the referenced fact)
// cannot fit the type the tool's inputSchema asks for at its place, or
// returns "" when they fit or either side is not known statically.
func typeMismatch(p *Plan, known []*contracts.Contract, index map[string]int, c *contracts.Contract, h hole) string {
	target, err := walkSchema(c.InputSchema, c.InputSchema, h.at, 0)
	if err != nil || target == nil {
		return "" // an unknown argument is reported by checkLiterals
	}
	want := typesOf(target)
	if len(want) == 0 {
		return ""
	}
	var have []string
	var what string
	switch {
	case h.isLit, h.isItem, h.jmes != nil:
		return "" // known when the plan runs, where a $jmes value is checked
	case h.ref == nil:
		prm, ok := p.Params[h.param]
		if !ok {
			return ""
		}
		have, what = []string{prm.Type}, fmt.Sprintf("$param %s is declared %s", h.param, prm.Type)
	default:
		j, ok := index[h.ref.Step]
		if !ok || known[j] == nil {
			return ""
		}
		src, err := factsAt(known[j], p.Steps[j].Foreach != nil, h.ref.Pointer)
		if err != nil || src == nil {
			return ""
		}
		if have = typesOf(src); len(have) == 0 {
			return ""
		}
		what = fmt.Sprintf("$ref %q is %s in the facts of %s", clip(h.ref.Text), strings.Join(have, " or "), known[j].Tool)
	}
	for _, a := range have {
		for _, b := range want {
			if a == b || (a == "integer" && b == "number") || (a == "number" && b == "integer") {
				return ""
			}
		}
	}
	return fmt.Sprintf("argument %s must be %s, but %s", pointer(h.at), strings.Join(want, " or "), what)
}

// fill returns a deep copy of v (a step's arguments) in which every
// placeholder is replaced by value(tokens, hole).
func fill(v any, value func([]string, hole) any, holes []hole) any {
	at := make(map[string]hole, len(holes))
	for _, h := range holes {
		at[pointer(h.at)] = h
	}
	var walk func(v any, tokens []string, ptr string) any
	walk = func(v any, tokens []string, ptr string) any {
		if h, ok := at[ptr]; ok {
			return value(tokens, h)
		}
		switch x := v.(type) {
		case map[string]any:
			out := make(map[string]any, len(x))
			for k, e := range x {
				out[k] = walk(e, append(slices.Clip(tokens), k), ptr+"/"+escape(k))
			}
			return out
		case []any:
			out := make([]any, len(x))
			for i, e := range x {
				out[i] = walk(e, append(slices.Clip(tokens), strconv.Itoa(i)), ptr+"/"+strconv.Itoa(i))
			}
			return out
		}
		return v
	}
	return walk(v, nil, "")
}

// maxSchemaDepth bounds walkSchema's recursion through $ref and combinators
// (contract schemas are small; a cycle must not loop).
const maxSchemaDepth = 32

// walkSchema follows JSON Pointer tokens from the subschema s of the schema
// document root and returns the subschema that describes the value there:
// nil when the schema leaves that value open (anything may be there), or an
// error saying why no value can be there (a closed object without that
// property, an index past maxItems, a member of a string).
func walkSchema(root, s map[string]any, tokens []string, depth int) (map[string]any, error) {
	for {
		if depth > maxSchemaDepth {
			return nil, nil
		}
		if ref, ok := s["$ref"].(string); ok {
			s = resolveLocal(root, ref)
			if s == nil {
				return nil, nil
			}
			depth++
			continue
		}
		if len(tokens) == 0 {
			return s, nil
		}
		if branches := combinators(s); len(branches) > 0 && !structural(s) {
			return walkBranches(root, branches, tokens, depth+1)
		}
		tok := tokens[0]
		types := typesOf(s)
		if props, ok := s["properties"].(map[string]any); ok {
			if sub, ok := props[tok].(map[string]any); ok {
				s, tokens = sub, tokens[1:]
				continue
			}
		}
		if i, isIndex := arrayIndex(tok); isIndex && (slices.Contains(types, "array") || s["items"] != nil || s["prefixItems"] != nil) {
			if max, ok := intValue(s["maxItems"]); ok && int64(i) >= max {
				return nil, fmt.Errorf("index %d is past maxItems %d", i, max)
			}
			if prefix, ok := s["prefixItems"].([]any); ok && i < len(prefix) {
				if sub, ok := prefix[i].(map[string]any); ok {
					s, tokens = sub, tokens[1:]
					continue
				}
			}
			switch it := s["items"].(type) {
			case map[string]any:
				s, tokens = it, tokens[1:]
				continue
			case bool:
				if !it {
					return nil, fmt.Errorf("index %d is past the array's items", i)
				}
			}
			return nil, nil
		}
		if len(types) > 0 && !slices.Contains(types, "object") {
			return nil, fmt.Errorf("%s has no member %q", strings.Join(types, " or "), clip(tok))
		}
		switch ap := s["additionalProperties"].(type) {
		case bool:
			if !ap {
				return nil, fmt.Errorf("no property %q", clip(tok))
			}
		case map[string]any:
			s, tokens = ap, tokens[1:]
			continue
		}
		return nil, nil
	}
}

// walkBranches walks each alternative of anyOf/oneOf/allOf: the path is
// allowed when one alternative allows it; the subschema is known only when
// exactly one alternative reaches a described value.
func walkBranches(root map[string]any, branches []map[string]any, tokens []string, depth int) (map[string]any, error) {
	var found []map[string]any
	open := false
	var firstErr error
	for _, b := range branches {
		sub, err := walkSchema(root, b, tokens, depth)
		switch {
		case err != nil:
			if firstErr == nil {
				firstErr = err
			}
		case sub == nil:
			open = true
		default:
			found = append(found, sub)
		}
	}
	switch {
	case len(found) == 0 && !open:
		return nil, firstErr
	case len(found) == 1 && !open:
		return found[0], nil
	}
	return nil, nil
}

func combinators(s map[string]any) []map[string]any {
	var out []map[string]any
	for _, k := range []string{"anyOf", "oneOf", "allOf"} {
		list, _ := s[k].([]any)
		for _, b := range list {
			if m, ok := b.(map[string]any); ok {
				out = append(out, m)
			}
		}
	}
	return out
}

// structural reports whether a schema describes members itself (then its
// combinators only add constraints).
func structural(s map[string]any) bool {
	for _, k := range []string{"properties", "items", "prefixItems", "additionalProperties"} {
		if _, ok := s[k]; ok {
			return true
		}
	}
	return false
}

// resolveLocal resolves "#" and "#/..." within root; anything else is nil
// (contract schemas are self-contained).
func resolveLocal(root map[string]any, ref string) map[string]any {
	if ref == "#" {
		return root
	}
	rest, ok := strings.CutPrefix(ref, "#/")
	if !ok {
		return nil
	}
	var cur any = root
	for _, tok := range strings.Split(rest, "/") {
		t, err := unescape(tok)
		if err != nil {
			return nil
		}
		switch x := cur.(type) {
		case map[string]any:
			cur = x[t]
		case []any:
			i, ok := arrayIndex(t)
			if !ok || i >= len(x) {
				return nil
			}
			cur = x[i]
		default:
			return nil
		}
	}
	m, _ := cur.(map[string]any)
	return m
}

// typesOf lists a schema's declared types; integer and number are kept apart.
func typesOf(s map[string]any) []string {
	switch t := s["type"].(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, e := range t {
			if str, ok := e.(string); ok {
				out = append(out, str)
			}
		}
		return out
	}
	return nil
}

// arrayIndex parses an array index token: "0" or digits without a leading zero.
func arrayIndex(tok string) (int, bool) {
	if tok == "" || len(tok) > 9 || (len(tok) > 1 && tok[0] == '0') {
		return 0, false
	}
	for _, c := range []byte(tok) {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	i, err := strconv.Atoi(tok)
	return i, err == nil
}

func intValue(v any) (int64, bool) {
	n, ok := v.(interface{ Int64() (int64, error) })
	if !ok {
		return 0, false
	}
	i, err := n.Int64()
	return i, err == nil
}

// checkExpr checks a $jmes expression evaluated before step i (i =
// len(p.Steps) for the output): every root name it reads is params, steps or
// item (the foreach element's name; "" when there is none), every params.NAME
// a declared parameter, every steps.ID an earlier step, and every function
// one of the plan dialect.
func checkExpr(e *Expr, p *Plan, index map[string]int, i int, item string, add func(keyword, format string, args ...any)) {
	paths, funcs := e.query.Refs(2)
	for _, path := range paths {
		switch {
		case path[0] == "params":
			if len(path) > 1 {
				if _, ok := p.Params[path[1]]; !ok {
					add(KeyParamUndeclared, "$jmes %q reads params.%s, which is not declared in params", clip(e.Text), clip(path[1]))
				}
			}
		case path[0] == "steps":
			if len(path) > 1 {
				j, ok := index[path[1]]
				switch {
				case !ok:
					add(KeyRefUnknownStep, "$jmes %q reads steps.%s, which the plan does not have", clip(e.Text), clip(path[1]))
				case j >= i:
					add(KeyRefForward, "$jmes %q reads steps.%s, which is not an earlier step", clip(e.Text), path[1])
				}
			}
		case item != "" && path[0] == item:
		default:
			names := "params and steps"
			if item != "" {
				names = "params, steps and " + item
			}
			add(KeyJMESName, "$jmes %q reads %s; the expression's data holds only %s", clip(e.Text), clip(path[0]), names)
		}
	}
	for _, f := range funcs {
		if !jmes.KnownFunction(f, jmes.Plans) {
			add(KeyJMESFunction, "$jmes %q calls %s(), which is not a function of plan expressions (docs/plans.md)", clip(e.Text), clip(f))
		}
	}
}

// factsAt is walkSchema over the facts of a step: the tool's outputSchema,
// or for a foreach step {"items": [facts…], "count", "errors"?}.
func factsAt(c *contracts.Contract, foreach bool, tokens []string) (map[string]any, error) {
	if !foreach {
		return walkSchema(c.OutputSchema, c.OutputSchema, tokens, 0)
	}
	if len(tokens) == 0 {
		return map[string]any{"type": "object"}, nil
	}
	switch tokens[0] {
	case "count":
		if len(tokens) > 1 {
			return nil, fmt.Errorf("integer has no member %q", clip(tokens[1]))
		}
		return map[string]any{"type": "integer"}, nil
	case "errors":
		if len(tokens) == 1 {
			return map[string]any{"type": "array"}, nil
		}
		return nil, nil
	case "items":
		if len(tokens) == 1 {
			return map[string]any{"type": "array"}, nil
		}
		if _, ok := arrayIndex(tokens[1]); !ok {
			return nil, fmt.Errorf("array has no member %q", clip(tokens[1]))
		}
		return walkSchema(c.OutputSchema, c.OutputSchema, tokens[2:], 0)
	}
	return nil, fmt.Errorf(`no property %q (the facts of a foreach step are {"items", "count", "errors"})`, clip(tokens[0]))
}

// foreachMismatch describes a foreach $ref whose fact the facts schema types
// as something other than an array ("" when it may be one, or for $jmes).
func foreachMismatch(p *Plan, known []*contracts.Contract, index map[string]int, h hole) string {
	if h.ref == nil {
		return ""
	}
	j, ok := index[h.ref.Step]
	if !ok || known[j] == nil {
		return ""
	}
	src, err := factsAt(known[j], p.Steps[j].Foreach != nil, h.ref.Pointer)
	if err != nil || src == nil {
		return ""
	}
	have := typesOf(src)
	if len(have) == 0 || slices.Contains(have, "array") {
		return ""
	}
	return fmt.Sprintf("foreach must give an array, but $ref %q is %s in the facts of %s", clip(h.ref.Text), strings.Join(have, " or "), known[j].Tool)
}
