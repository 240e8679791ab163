// Package plans holds replayable plans (docs/plans.md): a declarative list of tool
// calls whose arguments may name parameters ({"$param": NAME}) and facts of
// earlier steps ({"$ref": "STEP/facts/POINTER"}). A plan is decoded strictly,
// checked statically against the contracts before anything runs, stored by
// its plan_id (the SHA-256 of its canonical JSON) and run with one or many
// parameter sets; every step goes through Registry.Invoke, the one execution
// path, and every run carries a run_hash over its steps' result hashes.
//
// No code is ever executed: a plan is data.
package plans

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/precisiond/precisiond/contracts"
	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/internal/jmes"
	"github.com/precisiond/precisiond/tools"
)

// Limits of a plan.
const (
	MaxSteps            = 32         // steps of one plan
	MaxParams           = 32         // declared parameters of one plan
	MaxPlaceholders     = 1024       // $param and $ref placeholders in one plan
	MaxPlanBytes        = 256 << 10  // canonical JSON of one plan
	MaxDescriptionChars = 2000       // the plan's description
	MaxParamDescChars   = 500        // one parameter's description
	MaxBatch            = 1000       // parameter sets of one run request
	maxNameBytes        = 64         // step ids and parameter names
	placeholderParam    = "$param"   // {"$param": NAME}
	placeholderRef      = "$ref"     // {"$ref": "STEP/facts/POINTER"}
	placeholderLiteral  = "$literal" // {"$literal": VALUE}: VALUE as it is
	placeholderJMES     = "$jmes"    // {"$jmes": EXPRESSION}
	placeholderItem     = "$item"    // {"$item": "/JSON/POINTER"} into a foreach element
	// MaxForeachItems bounds the array a foreach step runs over.
	MaxForeachItems = 1000
	// DefaultItemName is the name a foreach element is bound to in $jmes
	// when the step has no "as".
	DefaultItemName = "item"
)

// On-error modes of a foreach step.
const (
	OnErrorStop    = "stop"    // a failing item stops the run (the default)
	OnErrorCollect = "collect" // failing items are listed beside the results
)

// Error codes of plans (docs/plans.md), beside the execution path's (tools.Code*).
const (
	// CodeInvalidPlan is a plan that fails decoding or the static check
	// (HTTP 422); details name the step and the JSON path.
	CodeInvalidPlan = "invalid_plan"
	// CodeUnknownPlan is a plan_id the store does not hold (HTTP 404).
	CodeUnknownPlan = "unknown_plan"
)

// ParamTypes are the types a parameter may declare (JSON Schema type names).
var ParamTypes = []string{"string", "integer", "number", "boolean", "array", "object"}

var (
	stepIDPattern    = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*$`)
	paramNamePattern = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	hashPattern      = regexp.MustCompile(`^[0-9a-f]{64}$`)
)

// Plan is a decoded plan whose shape has been checked (Decode). Check holds it
// against the registry's contracts.
type Plan struct {
	ID          string // plan_id: H(canonical JSON of the normalized plan)
	Description string
	Params      map[string]Param
	Steps       []Step
	// Output is the plan's output projection, {"output": {"$jmes": …}}; nil
	// when the plan has none.
	Output *Expr

	canonical []byte // canonical JSON of the normalized plan
}

// Param is one declared parameter.
type Param struct {
	Type        string
	Default     any // generic JSON; meaningful when HasDefault
	HasDefault  bool
	Description string
}

// Step is one tool call of a plan.
type Step struct {
	ID           string
	Tool         string
	ContractHash string         // optional pin
	Args         map[string]any // generic JSON with the placeholder objects in place
	// Foreach is the array source of a foreach step ($ref or $jmes); nil for
	// a plain step. As is the element's name in $jmes (DefaultItemName when
	// not given), OnError OnErrorStop or OnErrorCollect.
	Foreach *hole
	As      string
	OnError string
	holes   []hole
}

// Expr is a parsed {"$jmes": EXPRESSION}.
type Expr struct {
	Text  string
	query *jmes.Query
}

// hole is one placeholder in a step's arguments.
type hole struct {
	at     []string // JSON Pointer tokens below args
	param  string   // $param: the parameter's name
	ref    *Ref     // $ref: the earlier step's facts
	lit    any      // $literal: the value
	isLit  bool
	jmes   *Expr    // $jmes: the expression
	item   []string // $item: tokens of the pointer into the element (with isItem)
	isItem bool
}

// Ref is a parsed {"$ref": "STEP/facts/POINTER"}.
type Ref struct {
	Text    string   // as written
	Step    string   // the step id
	Pointer []string // tokens of the JSON Pointer into that step's facts
}

// Canonical returns the canonical JSON of the normalized plan, the bytes that
// are stored and whose SHA-256 is the plan_id.
func (p *Plan) Canonical() []byte { return p.canonical }

// Calls is the number of tool calls one run of the plan makes at most.
func (p *Plan) Calls() int { return len(p.Steps) }

// planError is an invalid_plan error with one detail.
func planError(path, keyword, format string, args ...any) *tools.Error {
	msg := fmt.Sprintf(format, args...)
	return &tools.Error{Code: CodeInvalidPlan, Reason: keyword, Message: msg,
		Details: []contracts.Detail{{Path: path, Keyword: keyword, Message: msg}}}
}

// Decode reads a plan from generic JSON (what evidence.ParseJSON returns)
// strictly: unknown keys, wrong types, malformed placeholders and limits are
// refused with an invalid_plan *tools.Error naming the JSON path (keyword
// "shape" or "limit"). The result is normalized — absent params and args
// become {} — and carries its plan_id.
func Decode(v any) (*Plan, error) {
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, planError("", "shape", "a plan is a JSON object {\"description\"?, \"params\", \"steps\"}")
	}
	for k := range obj {
		switch k {
		case "description", "params", "steps", "output":
		default:
			return nil, planError("/"+escape(k), "shape", "unknown key %q in the plan (allowed: description, params, steps, output)", k)
		}
	}
	p := &Plan{Params: map[string]Param{}}
	norm := map[string]any{}
	if d, present := obj["description"]; present {
		s, ok := d.(string)
		if !ok {
			return nil, planError("/description", "shape", "description must be a string")
		}
		if n := utf8.RuneCountInString(s); n > MaxDescriptionChars {
			return nil, planError("/description", "limit", "description has %d characters; at most %d", n, MaxDescriptionChars)
		}
		p.Description = s
		norm["description"] = s
	}
	params, err := decodeParams(obj["params"], p)
	if err != nil {
		return nil, err
	}
	norm["params"] = params
	steps, err := decodeSteps(obj["steps"], p)
	if err != nil {
		return nil, err
	}
	norm["steps"] = steps
	if o, present := obj["output"]; present {
		m, ok := o.(map[string]any)
		text, isStr := m[placeholderJMES].(string)
		if !ok || len(m) != 1 || !isStr {
			return nil, planError("/output", "shape", `output must be {"$jmes": "EXPRESSION"}`)
		}
		e, err := compileExpr(text, "/output", "output")
		if err != nil {
			return nil, err
		}
		p.Output = e
		norm["output"] = map[string]any{placeholderJMES: text}
	}
	b, err := evidence.Canonical(norm)
	if err != nil {
		return nil, planError("", "shape", "the plan cannot be written as canonical JSON: %v", err)
	}
	if len(b) > MaxPlanBytes {
		return nil, planError("", "limit", "the plan has %d bytes of canonical JSON; at most %d", len(b), MaxPlanBytes)
	}
	p.canonical = b
	p.ID = evidence.HashBytes(b)
	return p, nil
}

func decodeParams(v any, p *Plan) (map[string]any, error) {
	out := map[string]any{}
	if v == nil {
		return out, nil
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, planError("/params", "shape", "params must be an object {NAME: {\"type\", \"default\"?, \"description\"?}}")
	}
	if len(obj) > MaxParams {
		return nil, planError("/params", "limit", "%d params; at most %d", len(obj), MaxParams)
	}
	for _, name := range sortedKeys(obj) {
		at := "/params/" + escape(name)
		if len(name) > maxNameBytes || !paramNamePattern.MatchString(name) {
			return nil, planError(at, "shape", "parameter name %q: letters, digits and _, not starting with a digit, at most %d bytes", clip(name), maxNameBytes)
		}
		decl, ok := obj[name].(map[string]any)
		if !ok {
			return nil, planError(at, "shape", "parameter %s must be an object {\"type\", \"default\"?, \"description\"?}", name)
		}
		var prm Param
		norm := map[string]any{}
		for k, e := range decl {
			switch k {
			case "type":
				t, _ := e.(string)
				if !slices.Contains(ParamTypes, t) {
					return nil, planError(at+"/type", "shape", "parameter %s: type must be one of %s", name, strings.Join(ParamTypes, ", "))
				}
				prm.Type = t
			case "default":
				prm.Default, prm.HasDefault = e, true
			case "description":
				s, ok := e.(string)
				if !ok || utf8.RuneCountInString(s) > MaxParamDescChars {
					return nil, planError(at+"/description", "shape", "parameter %s: description must be a string of at most %d characters", name, MaxParamDescChars)
				}
				prm.Description = s
			default:
				return nil, planError(at+"/"+escape(k), "shape", "parameter %s: unknown key %q (allowed: type, default, description)", name, k)
			}
			norm[k] = e
		}
		if prm.Type == "" {
			return nil, planError(at+"/type", "shape", "parameter %s has no type", name)
		}
		if prm.HasDefault && !TypeMatches(prm.Type, prm.Default) {
			return nil, planError(at+"/default", "shape", "parameter %s: the default is not of type %s", name, prm.Type)
		}
		p.Params[name] = prm
		out[name] = norm
	}
	return out, nil
}

func decodeSteps(v any, p *Plan) ([]any, error) {
	list, ok := v.([]any)
	if !ok {
		return nil, planError("/steps", "shape", "steps must be a list of {\"id\", \"tool\", \"args\"}")
	}
	if len(list) == 0 || len(list) > MaxSteps {
		return nil, planError("/steps", "limit", "a plan has 1 to %d steps, not %d", MaxSteps, len(list))
	}
	seen := map[string]int{}
	holes := 0
	out := make([]any, len(list))
	for i, sv := range list {
		at := "/steps/" + strconv.Itoa(i)
		obj, ok := sv.(map[string]any)
		if !ok {
			return nil, planError(at, "shape", "step %d must be an object {\"id\", \"tool\", \"args\"}", i)
		}
		var st Step
		for k, e := range obj {
			switch k {
			case "id", "tool", "contract_hash":
				s, ok := e.(string)
				if !ok {
					return nil, planError(at+"/"+k, "shape", "step %d: %s must be a string", i, k)
				}
				switch k {
				case "id":
					st.ID = s
				case "tool":
					st.Tool = s
				default:
					st.ContractHash = s
				}
			case "args":
				args, ok := e.(map[string]any)
				if !ok {
					return nil, planError(at+"/args", "shape", "step %d: args must be an object", i)
				}
				st.Args = args
			case "as", "on_error":
				s, ok := e.(string)
				if !ok {
					return nil, planError(at+"/"+k, "shape", "step %d: %s must be a string", i, k)
				}
				if k == "as" {
					st.As = s
				} else {
					st.OnError = s
				}
			case "foreach":
			default:
				return nil, planError(at+"/"+escape(k), "shape", "step %d: unknown key %q (allowed: id, tool, args, contract_hash, foreach, as, on_error)", i, k)
			}
		}
		if len(st.ID) > maxNameBytes || !stepIDPattern.MatchString(st.ID) {
			return nil, planError(at+"/id", "shape", "step %d: id %q must be letters, digits, _ and -, not starting with a digit or -, at most %d bytes", i, clip(st.ID), maxNameBytes)
		}
		if j, dup := seen[st.ID]; dup {
			return nil, planError(at+"/id", "shape", "step %d: id %q is already the id of step %d", i, st.ID, j)
		}
		seen[st.ID] = i
		if st.Tool == "" || len(st.Tool) > tools.MaxToolNameBytes {
			return nil, planError(at+"/tool", "shape", "step %s: tool must be a tool name of 1 to %d bytes", st.ID, tools.MaxToolNameBytes)
		}
		if st.ContractHash != "" && !hashPattern.MatchString(st.ContractHash) {
			return nil, planError(at+"/contract_hash", "shape", "step %s: contract_hash must be 64 lowercase hex digits", st.ID)
		}
		if st.Args == nil {
			st.Args = map[string]any{}
		}
		norm := map[string]any{"id": st.ID, "tool": st.Tool, "args": st.Args}
		if err := decodeForeach(obj, at, &st, norm); err != nil {
			return nil, err
		}
		if isPlaceholder(st.Args) {
			return nil, planError(at+"/args", "shape", "step %s: args must be an object of arguments; a placeholder cannot stand for all of them", st.ID)
		}
		if err := collectHoles(st.Args, nil, at+"/args", &st); err != nil {
			return nil, err
		}
		if st.Foreach != nil {
			holes++
		}
		if holes += len(st.holes); holes > MaxPlaceholders {
			return nil, planError(at+"/args", "limit", "the plan has more than %d placeholders", MaxPlaceholders)
		}
		if st.ContractHash != "" {
			norm["contract_hash"] = st.ContractHash
		}
		out[i] = norm
		p.Steps = append(p.Steps, st)
	}
	return out, nil
}

// decodeForeach reads a step's foreach, as and on_error into st and its
// normalized form: as is written out ("item" by default), on_error only when
// it is collect.
func decodeForeach(obj map[string]any, at string, st *Step, norm map[string]any) error {
	src, present := obj["foreach"]
	if !present {
		if _, ok := obj["as"]; ok {
			return planError(at+"/as", "shape", "step %s: as names the element of a foreach step; this step has no foreach", st.ID)
		}
		if _, ok := obj["on_error"]; ok {
			return planError(at+"/on_error", "shape", "step %s: on_error belongs to a foreach step; this step has no foreach", st.ID)
		}
		return nil
	}
	m, ok := src.(map[string]any)
	_, isRef := m[placeholderRef]
	_, isJMES := m[placeholderJMES]
	if !ok || len(m) != 1 || !isRef && !isJMES {
		return planError(at+"/foreach", "shape", `step %s: foreach must be {"$ref": "STEP/facts/POINTER"} or {"$jmes": "EXPRESSION"} giving an array`, st.ID)
	}
	tmp := Step{ID: st.ID}
	if err := addHole(m, nil, at+"/foreach", &tmp); err != nil {
		return err
	}
	st.Foreach = &tmp.holes[0]
	norm["foreach"] = src
	if st.As == "" {
		st.As = DefaultItemName
	}
	if len(st.As) > maxNameBytes || !paramNamePattern.MatchString(st.As) || st.As == "params" || st.As == "steps" {
		return planError(at+"/as", "shape", "step %s: as %q must be letters, digits and _, not starting with a digit, at most %d bytes, and neither params nor steps", st.ID, clip(st.As), maxNameBytes)
	}
	norm["as"] = st.As
	switch st.OnError {
	case "", OnErrorStop:
		st.OnError = OnErrorStop
	case OnErrorCollect:
		norm["on_error"] = OnErrorCollect
	default:
		return planError(at+"/on_error", "shape", "step %s: on_error must be %q or %q", st.ID, OnErrorStop, OnErrorCollect)
	}
	return nil
}

// compileExpr parses the text of a $jmes placeholder (keyword jmes_syntax).
func compileExpr(text, at, who string) (*Expr, error) {
	q, err := jmes.Compile(text)
	if err != nil {
		var je *jmes.Error
		msg := "the expression cannot be parsed"
		if errors.As(err, &je) {
			msg = je.Message
		}
		return nil, planError(at, KeyJMESSyntax, "%s: $jmes %q: %s", who, clip(text), msg)
	}
	return &Expr{Text: text, query: q}, nil
}

// isPlaceholder reports whether an object uses one of the placeholder keys.
func isPlaceholder(m map[string]any) bool {
	for _, k := range []string{placeholderParam, placeholderRef, placeholderLiteral, placeholderJMES, placeholderItem} {
		if _, ok := m[k]; ok {
			return true
		}
	}
	return false
}

// collectHoles finds the placeholders in v (below args, at tokens) and checks
// their form.
func collectHoles(v any, tokens []string, at string, st *Step) error {
	switch x := v.(type) {
	case map[string]any:
		if isPlaceholder(x) {
			return addHole(x, tokens, at, st)
		}
		for _, k := range sortedKeys(x) {
			if err := collectHoles(x[k], append(slices.Clip(tokens), k), at+"/"+escape(k), st); err != nil {
				return err
			}
		}
	case []any:
		for i, e := range x {
			if err := collectHoles(e, append(slices.Clip(tokens), strconv.Itoa(i)), at+"/"+strconv.Itoa(i), st); err != nil {
				return err
			}
		}
	}
	return nil
}

func addHole(x map[string]any, tokens []string, at string, st *Step) error {
	if len(x) != 1 {
		return planError(at, "shape", "step %s: a placeholder object has exactly one key ($param, $ref, $jmes, $item or $literal); wrap an object that has such keys as data in {\"$literal\": …}", st.ID)
	}
	h := hole{at: tokens}
	for k, e := range x {
		switch k {
		case placeholderLiteral:
			h.lit, h.isLit = e, true
		case placeholderParam:
			s, ok := e.(string)
			if !ok || s == "" {
				return planError(at, "shape", "step %s: $param must name a parameter (a string)", st.ID)
			}
			h.param = s
		case placeholderRef:
			s, ok := e.(string)
			if !ok {
				return planError(at, "ref_syntax", "step %s: $ref must be a string \"STEP_ID/facts/JSON/POINTER\"", st.ID)
			}
			r, err := ParseRef(s)
			if err != nil {
				return planError(at, "ref_syntax", "step %s: %v", st.ID, err)
			}
			h.ref = r
		case placeholderJMES:
			text, ok := e.(string)
			if !ok {
				return planError(at, KeyJMESSyntax, "step %s: $jmes must be a string (a JMESPath expression)", st.ID)
			}
			x, err := compileExpr(text, at, "step "+st.ID)
			if err != nil {
				return err
			}
			h.jmes = x
		case placeholderItem:
			text, ok := e.(string)
			if !ok || text != "" && !strings.HasPrefix(text, "/") {
				return planError(at, "ref_syntax", `step %s: $item must be a JSON Pointer into the element: "" (the element) or "/…"`, st.ID)
			}
			h.isItem, h.item = true, []string{}
			if text != "" {
				for _, tok := range strings.Split(text[1:], "/") {
					u, err := unescape(tok)
					if err != nil {
						return planError(at, "ref_syntax", "step %s: $item %q: %v", st.ID, clip(text), err)
					}
					h.item = append(h.item, u)
				}
			}
		}
	}
	st.holes = append(st.holes, h)
	return nil
}

// ParseRef parses "STEP_ID/facts" or "STEP_ID/facts/JSON/POINTER" (RFC 6901
// escapes: ~0 is ~, ~1 is /).
func ParseRef(s string) (*Ref, error) {
	id, rest, ok := strings.Cut(s, "/")
	if !ok || id == "" || !(rest == "facts" || strings.HasPrefix(rest, "facts/")) {
		return nil, fmt.Errorf("$ref %q must be \"STEP_ID/facts\" or \"STEP_ID/facts/JSON/POINTER\"", clip(s))
	}
	r := &Ref{Text: s, Step: id, Pointer: []string{}}
	if rest == "facts" {
		return r, nil
	}
	for _, tok := range strings.Split(strings.TrimPrefix(rest, "facts/"), "/") {
		u, err := unescape(tok)
		if err != nil {
			return nil, fmt.Errorf("$ref %q: %v", clip(s), err)
		}
		r.Pointer = append(r.Pointer, u)
	}
	return r, nil
}

func unescape(tok string) (string, error) {
	if !strings.Contains(tok, "~") {
		return tok, nil
	}
	var b strings.Builder
	for i := 0; i < len(tok); i++ {
		if tok[i] != '~' {
			b.WriteByte(tok[i])
			continue
		}
		if i+1 == len(tok) || (tok[i+1] != '0' && tok[i+1] != '1') {
			return "", fmt.Errorf("~ must be followed by 0 or 1 in a JSON Pointer")
		}
		if tok[i+1] == '0' {
			b.WriteByte('~')
		} else {
			b.WriteByte('/')
		}
		i++
	}
	return b.String(), nil
}

// escape writes one JSON Pointer token (~ as ~0, / as ~1).
func escape(tok string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(tok)
}

// pointer joins tokens as a JSON Pointer.
func pointer(tokens []string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		b.WriteString(escape(t))
	}
	return b.String()
}

// clip shortens a string echoed in an error.
func clip(s string) string {
	if len(s) <= 80 {
		return s
	}
	for i := 80; i > 0; i-- {
		if utf8.RuneStart(s[i]) {
			return s[:i] + "…"
		}
	}
	return ""
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// TypeMatches reports whether a generic JSON value is of a parameter type.
// An integer is a number without a fractional part, as JSON Schema counts
// it (2.0 is an integer).
func TypeMatches(typ string, v any) bool {
	switch typ {
	case "string":
		_, ok := v.(string)
		return ok
	case "boolean":
		_, ok := v.(bool)
		return ok
	case "number":
		_, ok := v.(json.Number)
		return ok
	case "integer":
		n, ok := v.(json.Number)
		if !ok {
			return false
		}
		if !evidence.IsFloatLiteral(string(n)) {
			return true
		}
		if evidence.CheckNumbers(n) != nil {
			return false // an exponent big.Rat must never expand
		}
		r, ok := new(big.Rat).SetString(string(n))
		return ok && r.IsInt()
	case "array":
		_, ok := v.([]any)
		return ok
	case "object":
		_, ok := v.(map[string]any)
		return ok
	}
	return false
}
