package structured

import (
	"context"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/precisiond/precisiond/internal/regexpy"
)

// This file is a JSON Schema 2020-12 validator with the semantics, error
// messages and error order of Python jsonschema 4.26's Draft202012Validator,
// the library the reference runs (its keyword functions are the model; no code
// of it is copied). It exists because the Go library we used builds the whole
// error tree of a validation before answering (issue 13: an anyOf of 2900
// failing branches over 1000 items took the process out of memory), and
// because the reference's messages are part of its answers.
//
// What it adds over the reference: every evaluation step costs work units from
// a fixed, deterministic budget (a call that would exceed it is refused, never
// left running), only the 50 errors that will be shown are kept (ordered as
// the reference sorts them, by path then message), and branches whose errors
// are never shown (anyOf, oneOf, not, if, contains) are only checked for
// validity, stopping at their first failure.

// evalMode is what an evaluation does with the errors it finds.
type evalMode uint8

const (
	modeValid   evalMode = iota // stop at the first error (is_valid)
	modeCount                   // count every error
	modeCollect                 // hand every error to the sink
)

// pathFrame is one step of an error's instance path, linked to its parent; it
// is turned into a path only for the errors that are kept.
type pathFrame struct {
	parent *pathFrame
	key    string
	index  int
	isKey  bool
}

func (f *pathFrame) parts() []string {
	n := 0
	for p := f; p != nil; p = p.parent {
		n++
	}
	out := make([]string, n)
	for p := f; p != nil; p = p.parent {
		n--
		if p.isKey {
			out[n] = p.key
		} else {
			out[n] = strconv.Itoa(p.index)
		}
	}
	return out
}

// pyError is an exception the reference's code would raise. A ValueError
// becomes a finding whose code is its text (the reference catches ValueError);
// anything else is a tool error.
type pyError struct {
	valueError bool
	msg        string
}

func (e *pyError) Error() string { return e.msg }

// snode is a compiled schema: a boolean schema or an object schema whose
// keywords run in the object's key order, as Python iterates a dict.
type snode struct {
	isBool bool
	value  bool    // the boolean schema's value
	obj    *Object // the schema object, for messages and sibling lookups
	kws    []kw

	prefixLen    int      // len(prefixItems)
	minContains  any      // nil when absent
	maxContains  any      // nil when absent
	then, els    *snode   // nil when absent
	properties   *Object  // the "properties" object, nil when absent
	patterns     []string // patternProperties keys, in order
	joined       *pyRegex
	additional   *snode // additionalProperties
	unevalProps  *snode
	unevalItems  *snode
	items        *snode
	contains     *snode
	ifNode       *snode
	allOf        []*snode
	anyOf        []*snode
	oneOf        []*snode
	depSchemas   []depSchema
	ref, dynamic *snode // metaschema only: $ref and $dynamicRef targets
}

type depSchema struct {
	prop string
	node *snode
}

// kw is one keyword of an object schema.
type kw struct {
	op   kwOp
	val  any
	sub  *snode
	subs []*snode
	keys []string // properties / patternProperties / dependentSchemas keys
	re   []*pyRegex
}

type kwOp uint8

const (
	kwAdditionalProperties kwOp = iota
	kwAllOf
	kwAnyOf
	kwConst
	kwContains
	kwDependentRequired
	kwDependentSchemas
	kwEnum
	kwExclusiveMaximum
	kwExclusiveMinimum
	kwFormat
	kwIf
	kwItems
	kwMaxItems
	kwMaxLength
	kwMaxProperties
	kwMaximum
	kwMinItems
	kwMinLength
	kwMinProperties
	kwMinimum
	kwMultipleOf
	kwNot
	kwOneOf
	kwPattern
	kwPatternProperties
	kwPrefixItems
	kwProperties
	kwPropertyNames
	kwRequired
	kwType
	kwUnevaluatedItems
	kwUnevaluatedProperties
	kwUniqueItems
	kwRef
	kwDynamicRef
)

var kwOps = map[string]kwOp{
	"additionalProperties": kwAdditionalProperties, "allOf": kwAllOf, "anyOf": kwAnyOf, "const": kwConst,
	"contains": kwContains, "dependentRequired": kwDependentRequired, "dependentSchemas": kwDependentSchemas,
	"enum": kwEnum, "exclusiveMaximum": kwExclusiveMaximum, "exclusiveMinimum": kwExclusiveMinimum,
	"format": kwFormat, "if": kwIf, "items": kwItems, "maxItems": kwMaxItems, "maxLength": kwMaxLength,
	"maxProperties": kwMaxProperties, "maximum": kwMaximum, "minItems": kwMinItems, "minLength": kwMinLength,
	"minProperties": kwMinProperties, "minimum": kwMinimum, "multipleOf": kwMultipleOf, "not": kwNot,
	"oneOf": kwOneOf, "pattern": kwPattern, "patternProperties": kwPatternProperties, "prefixItems": kwPrefixItems,
	"properties": kwProperties, "propertyNames": kwPropertyNames, "required": kwRequired, "type": kwType,
	"unevaluatedItems": kwUnevaluatedItems, "unevaluatedProperties": kwUnevaluatedProperties,
	"uniqueItems": kwUniqueItems, "$ref": kwRef, "$dynamicRef": kwDynamicRef,
}

// RefusalUnsupportedRegex is the tool error for a schema pattern that Python's
// re accepts but that needs backtracking (look-around, backreferences), which
// the linear-time engine refuses.
const RefusalUnsupportedRegex = "schema_pattern_unsupported"

// schemaCompiler turns a parsed schema (a value checked against the
// metaschema) into snodes.
type schemaCompiler struct {
	// checkDialect flags a subschema whose $schema names an older draft
	// (the reference would validate that subtree with that draft's rules).
	checkDialect bool
	dialectErr   bool
	// resolve compiles $ref and $dynamicRef (metaschema only).
	resolve func(n *snode, key string, ref string)
}

// pyRegex is a compiled pattern, or why it cannot run; the reason is raised
// only when the pattern is used, as Python compiles it only then.
type pyRegex struct {
	re      *regexpy.Regexp
	pattern string
	err     error
	cost    int64 // work units per character searched
	setup   int64 // work units per search (the VM's queues are program-sized)
}

func (c *schemaCompiler) regex(p string) *pyRegex {
	re, err := regexpy.Compile(p, "")
	if err == nil {
		if bt := re.Backtracking(); bt != "" {
			// the backtracker is outside this validator's cost model
			err = &regexpy.UnsupportedError{Construct: bt}
		}
	}
	if err != nil {
		return &pyRegex{pattern: p, err: err}
	}
	// A Pike VM step costs at most one instruction per character: the
	// program's size is estimated from the translated pattern.
	return &pyRegex{re: re, pattern: p, cost: int64(len(re.GoPattern)/16 + 1), setup: int64(len(re.GoPattern)/2 + 1)}
}

// regexRefusal: a pattern the engine cannot run.
type regexRefusal struct {
	pattern string
	err     error
}

func (e *regexRefusal) Error() string { return e.err.Error() }

func (c *schemaCompiler) node(v any) *snode {
	switch x := v.(type) {
	case bool:
		return &snode{isBool: true, value: x}
	case *Object:
		if c.checkDialect && olderDraft(x) {
			c.dialectErr = true
		}
		n := &snode{obj: x}
		c.fill(n)
		return n
	}
	// Not a schema: the metaschema check refuses it before validation; treat
	// it as the empty schema.
	return &snode{isBool: true, value: true}
}

// subschemaSlot is where a node keeps the subschema of a keyword that other
// keywords read (unevaluated*, additionalProperties' evaluated keys, if's
// then/else), or nil.
func (n *snode) subschemaSlot(op kwOp) **snode {
	switch op {
	case kwAdditionalProperties:
		return &n.additional
	case kwUnevaluatedProperties:
		return &n.unevalProps
	case kwUnevaluatedItems:
		return &n.unevalItems
	case kwItems:
		return &n.items
	case kwContains:
		return &n.contains
	case kwIf:
		return &n.ifNode
	}
	return nil
}

// listSlot is the same for keywords holding a list of subschemas.
func (n *snode) listSlot(op kwOp) *[]*snode {
	switch op {
	case kwAllOf:
		return &n.allOf
	case kwAnyOf:
		return &n.anyOf
	case kwOneOf:
		return &n.oneOf
	}
	return nil
}

// olderDrafts are the metaschema URIs jsonschema knows besides 2020-12, as its
// URI normalisation writes them (scheme lower-cased, empty fragment dropped).
var olderDrafts = map[string]bool{
	"http://json-schema.org/draft-03/schema": true, "http://json-schema.org/draft-04/schema": true,
	"http://json-schema.org/draft-06/schema": true, "http://json-schema.org/draft-07/schema": true,
	"https://json-schema.org/draft/2019-09/schema": true,
}

func olderDraft(o *Object) bool {
	v, ok := o.Get("$schema")
	s, isStr := v.(string)
	if !ok || !isStr {
		return false
	}
	s = strings.TrimSuffix(s, "#")
	if scheme, rest, found := strings.Cut(s, "://"); found {
		s = strings.ToLower(scheme) + "://" + rest
	}
	return olderDrafts[s]
}

func (c *schemaCompiler) nodes(v any) []*snode {
	arr, _ := v.([]any)
	out := make([]*snode, len(arr))
	for i, e := range arr {
		out[i] = c.node(e)
	}
	return out
}

func (c *schemaCompiler) fill(n *snode) {
	o := n.obj
	if pi, ok := o.Get("prefixItems"); ok {
		if arr, ok := pi.([]any); ok {
			n.prefixLen = len(arr)
		}
	}
	n.minContains, _ = o.Get("minContains")
	n.maxContains, _ = o.Get("maxContains")
	for i, key := range o.Keys {
		val := o.Values[i]
		op, known := kwOps[key]
		if !known {
			continue
		}
		k := kw{op: op, val: val}
		switch op {
		case kwAdditionalProperties, kwUnevaluatedProperties, kwUnevaluatedItems, kwItems, kwContains, kwIf, kwPropertyNames, kwNot:
			k.sub = c.node(val)
			if slot := n.subschemaSlot(op); slot != nil {
				*slot = k.sub
			}
		case kwAllOf, kwAnyOf, kwOneOf, kwPrefixItems:
			k.subs = c.nodes(val)
			if slot := n.listSlot(op); slot != nil {
				*slot = k.subs
			}
		case kwProperties:
			if po, ok := val.(*Object); ok {
				n.properties = po
				k.keys = po.Keys
				k.subs = c.nodes(po.Values)
			}
		case kwPatternProperties:
			if po, ok := val.(*Object); ok {
				k.keys = po.Keys
				k.subs = c.nodes(po.Values)
				for _, p := range po.Keys {
					k.re = append(k.re, c.regex(p))
				}
				n.patterns = po.Keys
			}
		case kwDependentSchemas:
			if po, ok := val.(*Object); ok {
				k.keys = po.Keys
				k.subs = c.nodes(po.Values)
				for j, p := range po.Keys {
					n.depSchemas = append(n.depSchemas, depSchema{p, k.subs[j]})
				}
			}
		case kwPattern:
			if s, ok := val.(string); ok {
				k.re = []*pyRegex{c.regex(s)}
			}
		case kwRef, kwDynamicRef:
			if c.resolve == nil {
				continue // refused before compiling a user schema
			}
			c.resolve(n, key, val.(string))
		}
		n.kws = append(n.kws, k)
	}
	if t, ok := o.Get("then"); ok {
		n.then = c.node(t)
	}
	if e, ok := o.Get("else"); ok {
		n.els = c.node(e)
	}
	if len(n.patterns) > 0 {
		// find_additional_properties searches "|".join(patterns).
		n.joined = c.regex(strings.Join(n.patterns, "|"))
	}
}

// schemaRun is one validation: its budget, its sink and the exception that
// ended it, if any.
type schemaRun struct {
	ctx       context.Context
	limit     int64 // the budget, in work units
	budget    int64 // work units left
	tick      int64 // units since the context was last checked
	exc       error // *pyError, *CostError, ctx.Err() or errStop
	sink      *errorSink
	formats   bool // assert "format": "regex" (the metaschema check)
	stopFirst bool // end at the first collected error (check_schema)
	first     *schemaError
}

// CostError reports that a validation needed more work units than its budget.
type CostError struct{ Budget int64 }

func (e *CostError) Error() string {
	return "schema validation needs more than " + strconv.FormatInt(e.Budget, 10) + " work units"
}

type stopError struct{}

func (stopError) Error() string { return "stopped at the first error" }

var errStop error = stopError{}

// spend charges n work units; it reports false (and records why) when the
// budget or the context has run out.
func (r *schemaRun) spend(n int64) bool {
	if r.exc != nil {
		return false
	}
	r.budget -= n
	if r.budget < 0 {
		r.exc = &CostError{Budget: r.limit}
		return false
	}
	if r.tick += n; r.tick >= 4096 {
		r.tick = 0
		if err := r.ctx.Err(); err != nil {
			r.exc = err
			return false
		}
	}
	return true
}

func (r *schemaRun) raise(valueError bool, msg string) {
	if r.exc == nil {
		r.exc = &pyError{valueError: valueError, msg: msg}
	}
}

// emit records one error; it returns 1 (the error count).
func (r *schemaRun) emit(m evalMode, at *pathFrame, msg ...any) int {
	if m != modeCollect {
		return 1
	}
	e := schemaError{msg: makeMsg(msg)}
	if r.stopFirst {
		e.path = at.parts()
		r.first = &e
		r.exc = errStop
		return 1
	}
	if !r.spend(int64(depthOf(at)) + 1) {
		return 1
	}
	r.sink.add(at, e.msg)
	return 1
}

func depthOf(f *pathFrame) int {
	n := 0
	for ; f != nil; f = f.parent {
		n++
	}
	return n
}

func key(parent *pathFrame, k string) *pathFrame {
	return &pathFrame{parent: parent, key: k, isKey: true}
}

func index(parent *pathFrame, i int) *pathFrame {
	return &pathFrame{parent: parent, index: i}
}

// valid is is_valid: whether inst has no error under n.
func (r *schemaRun) valid(n *snode, inst any) bool {
	return r.eval(n, inst, modeValid, nil) == 0 && r.exc == nil
}

// eval applies schema n to inst and returns the number of errors (in modeValid
// at most 1: it stops at the first).
func (r *schemaRun) eval(n *snode, inst any, m evalMode, at *pathFrame) int {
	if !r.spend(1) {
		return 0
	}
	if n.isBool {
		if n.value {
			return 0
		}
		return r.emit(m, at, "False schema does not allow ", repr{inst})
	}
	errs := 0
	for i := range n.kws {
		errs += r.keyword(n, &n.kws[i], inst, m, at)
		if r.done(m, errs) {
			return errs
		}
	}
	return errs
}

// done reports whether an evaluation must stop: an exception ended the run,
// or a validity check has found its error.
func (r *schemaRun) done(m evalMode, errs int) bool {
	return r.exc != nil || m == modeValid && errs > 0
}

// each sums f(0..n-1), stopping as done says.
func (r *schemaRun) each(n int, m evalMode, f func(i int) int) int {
	errs := 0
	for i := 0; i < n; i++ {
		errs += f(i)
		if r.done(m, errs) {
			break
		}
	}
	return errs
}

// descend applies a subschema to a child value one path step below at. The
// reference's descend yields a false schema's error before adding its path
// step, so that error keeps the parent's path.
func (r *schemaRun) descend(n *snode, inst any, m evalMode, at, step *pathFrame) int {
	if n.isBool && !n.value {
		return r.eval(n, inst, m, at)
	}
	return r.eval(n, inst, m, step)
}

// repr marks a message argument that is rendered with Python's repr().
type repr struct{ v any }

func (r *schemaRun) keyword(n *snode, k *kw, inst any, m evalMode, at *pathFrame) int {
	if !r.spend(1) {
		return 0
	}
	switch k.op {
	case kwType:
		types, ok := k.val.([]any)
		if s, isStr := k.val.(string); isStr {
			types, ok = []any{s}, true
		}
		if !ok {
			return 0
		}
		for _, t := range types {
			if s, _ := t.(string); pyIsType(inst, s) {
				return 0
			}
		}
		return r.emit(m, at, joinReprs([]any{repr{inst}, " is not of type "}, types)...)
	case kwEnum:
		enums, _ := k.val.([]any)
		for _, e := range enums {
			if r.equal(e, inst) {
				return 0
			}
			if r.exc != nil {
				return 0
			}
		}
		return r.emit(m, at, repr{inst}, " is not one of ", repr{k.val})
	case kwConst:
		if r.equal(inst, k.val) || r.exc != nil {
			return 0
		}
		return r.emit(m, at, repr{k.val}, " was expected")
	case kwMinimum, kwMaximum, kwExclusiveMinimum, kwExclusiveMaximum:
		if !pyIsNumber(inst) || !pyIsNumber(k.val) {
			return 0
		}
		c, ok := pyCompare(inst, k.val)
		if !ok {
			return 0
		}
		switch {
		case k.op == kwMinimum && c < 0:
			return r.emit(m, at, repr{inst}, " is less than the minimum of ", repr{k.val})
		case k.op == kwMaximum && c > 0:
			return r.emit(m, at, repr{inst}, " is greater than the maximum of ", repr{k.val})
		case k.op == kwExclusiveMinimum && c <= 0:
			return r.emit(m, at, repr{inst}, " is less than or equal to the minimum of ", repr{k.val})
		case k.op == kwExclusiveMaximum && c >= 0:
			return r.emit(m, at, repr{inst}, " is greater than or equal to the maximum of ", repr{k.val})
		}
		return 0
	case kwMultipleOf:
		if !pyIsNumber(inst) || !pyIsNumber(k.val) {
			return 0
		}
		if r.notMultiple(inst, k.val) {
			return r.emit(m, at, repr{inst}, " is not a multiple of ", repr{k.val})
		}
		return 0
	case kwMinLength, kwMaxLength:
		s, ok := inst.(string)
		if !ok {
			return 0
		}
		if !r.spend(int64(len(s)/64) + 1) {
			return 0
		}
		return r.lengthCheck(k, int64(pyLen(s)), inst, m, at)
	case kwMinItems, kwMaxItems:
		a, ok := inst.([]any)
		if !ok {
			return 0
		}
		return r.lengthCheck(k, int64(len(a)), inst, m, at)
	case kwMinProperties, kwMaxProperties:
		o, ok := inst.(*Object)
		if !ok {
			return 0
		}
		return r.lengthCheck(k, int64(o.Len()), inst, m, at)
	case kwUniqueItems:
		a, ok := inst.([]any)
		if b, _ := k.val.(bool); !b || !ok {
			return 0
		}
		if r.unique(a) || r.exc != nil {
			return 0
		}
		return r.emit(m, at, repr{inst}, " has non-unique elements")
	case kwPattern:
		s, ok := inst.(string)
		if !ok || len(k.re) == 0 {
			return 0
		}
		if r.search(k.re[0], s) || r.exc != nil {
			return 0
		}
		return r.emit(m, at, repr{inst}, " does not match ", repr{k.val})
	case kwFormat:
		if !r.formats {
			return 0
		}
		if f, _ := k.val.(string); f == "regex" {
			if s, ok := inst.(string); ok {
				_, err := regexpy.Compile(s, "")
				if _, bad := err.(*regexpy.SyntaxError); bad {
					return r.emit(m, at, repr{inst}, " is not a ", repr{"regex"})
				}
			}
		}
		return 0
	case kwRequired:
		o, ok := inst.(*Object)
		req, _ := k.val.([]any)
		if !ok {
			return 0
		}
		errs := 0
		for _, p := range req {
			s, _ := p.(string)
			if _, has := o.Get(s); !has {
				errs += r.emit(m, at, repr{p}, " is a required property")
				if m == modeValid || r.exc != nil {
					return errs
				}
			}
		}
		return errs
	case kwDependentRequired:
		o, ok := inst.(*Object)
		deps, _ := k.val.(*Object)
		if !ok || deps == nil {
			return 0
		}
		errs := 0
		for i, p := range deps.Keys {
			if _, has := o.Get(p); !has {
				continue
			}
			list, _ := deps.Values[i].([]any)
			for _, each := range list {
				s, _ := each.(string)
				if _, has := o.Get(s); !has {
					errs += r.emit(m, at, repr{each}, " is a dependency of ", repr{p})
					if m == modeValid || r.exc != nil {
						return errs
					}
				}
			}
		}
		return errs
	case kwProperties:
		o, ok := inst.(*Object)
		if !ok {
			return 0
		}
		return r.each(len(k.keys), m, func(i int) int {
			v, has := o.Get(k.keys[i])
			if !has {
				return 0
			}
			return r.descend(k.subs[i], v, m, at, key(at, k.keys[i]))
		})
	case kwPatternProperties:
		o, ok := inst.(*Object)
		if !ok {
			return 0
		}
		errs := 0
		for i := range k.keys {
			for j, name := range o.Keys {
				if !r.search(k.re[i], name) {
					if r.exc != nil {
						return errs
					}
					continue
				}
				errs += r.descend(k.subs[i], o.Values[j], m, at, key(at, name))
				if r.done(m, errs) {
					return errs
				}
			}
		}
		return errs
	case kwAdditionalProperties:
		return r.additionalProperties(n, k, inst, m, at)
	case kwPropertyNames:
		o, ok := inst.(*Object)
		if !ok {
			return 0
		}
		return r.each(o.Len(), m, func(i int) int { return r.eval(k.sub, o.Keys[i], m, at) })
	case kwDependentSchemas:
		o, ok := inst.(*Object)
		if !ok {
			return 0
		}
		return r.each(len(k.keys), m, func(i int) int {
			if _, has := o.Get(k.keys[i]); !has {
				return 0
			}
			return r.eval(k.subs[i], inst, m, at)
		})
	case kwItems:
		a, ok := inst.([]any)
		if !ok {
			return 0
		}
		prefix := n.prefixLen
		extra := len(a) - prefix
		if extra <= 0 {
			return 0
		}
		if k.sub.isBool && !k.sub.value {
			var rest any = a[prefix:]
			if extra == 1 {
				rest = a[prefix]
			}
			item := "items"
			if prefix == 1 {
				item = "item"
			}
			return r.emit(m, at, "Expected at most "+strconv.Itoa(prefix)+" "+item+" but found "+strconv.Itoa(extra)+" extra: ", repr{rest})
		}
		return r.each(extra, m, func(i int) int { return r.descend(k.sub, a[prefix+i], m, at, index(at, prefix+i)) })
	case kwPrefixItems:
		a, ok := inst.([]any)
		if !ok {
			return 0
		}
		return r.each(min(len(a), len(k.subs)), m, func(i int) int { return r.descend(k.subs[i], a[i], m, at, index(at, i)) })
	case kwContains:
		return r.containsKW(n, k, inst, m, at)
	case kwAllOf:
		return r.each(len(k.subs), m, func(i int) int { return r.eval(k.subs[i], inst, m, at) })
	case kwAnyOf:
		for _, s := range k.subs {
			if r.valid(s, inst) {
				return 0
			}
			if r.exc != nil {
				return 0
			}
		}
		return r.emit(m, at, repr{inst}, " is not valid under any of the given schemas")
	case kwOneOf:
		first := -1
		for i, s := range k.subs {
			if r.valid(s, inst) {
				first = i
				break
			}
			if r.exc != nil {
				return 0
			}
		}
		if first < 0 {
			return r.emit(m, at, repr{inst}, " is not valid under any of the given schemas")
		}
		schemas, _ := k.val.([]any)
		var more []any
		for i := first + 1; i < len(k.subs); i++ {
			if r.valid(k.subs[i], inst) {
				more = append(more, schemas[i])
			}
			if r.exc != nil {
				return 0
			}
		}
		if len(more) == 0 {
			return 0
		}
		more = append(more, schemas[first])
		return r.emit(m, at, joinReprs([]any{repr{inst}, " is valid under each of "}, more)...)
	case kwNot:
		if !r.valid(k.sub, inst) || r.exc != nil {
			return 0
		}
		return r.emit(m, at, repr{inst}, " should not be valid under ", repr{k.val})
	case kwIf:
		if r.valid(k.sub, inst) {
			if n.then != nil {
				return r.eval(n.then, inst, m, at)
			}
		} else if r.exc == nil && n.els != nil {
			return r.eval(n.els, inst, m, at)
		}
		return 0
	case kwUnevaluatedItems:
		return r.unevaluatedItems(n, k, inst, m, at)
	case kwUnevaluatedProperties:
		return r.unevaluatedProperties(n, k, inst, m, at)
	case kwRef:
		return r.eval(n.ref, inst, m, at)
	case kwDynamicRef:
		return r.eval(n.dynamic, inst, m, at)
	}
	return 0
}

// lengthCheck is minLength/maxLength, minItems/maxItems and
// minProperties/maxProperties, with the reference's messages.
func (r *schemaRun) lengthCheck(k *kw, n int64, inst any, m evalMode, at *pathFrame) int {
	if !pyIsNumber(k.val) {
		return 0
	}
	c, ok := pyCompare(n, k.val)
	if !ok {
		return 0
	}
	one, _ := pyCompare(k.val, int64(1))
	zero, _ := pyCompare(k.val, int64(0))
	switch k.op {
	case kwMinLength, kwMinItems:
		if c < 0 {
			if one == 0 {
				return r.emit(m, at, repr{inst}, " should be non-empty")
			}
			return r.emit(m, at, repr{inst}, " is too short")
		}
	case kwMaxLength, kwMaxItems:
		if c > 0 {
			if zero == 0 {
				return r.emit(m, at, repr{inst}, " is expected to be empty")
			}
			return r.emit(m, at, repr{inst}, " is too long")
		}
	case kwMinProperties:
		if c < 0 {
			if one == 0 {
				return r.emit(m, at, repr{inst}, " should be non-empty")
			}
			return r.emit(m, at, repr{inst}, " does not have enough properties")
		}
	case kwMaxProperties:
		if c > 0 {
			if zero == 0 {
				return r.emit(m, at, repr{inst}, " is expected to be empty")
			}
			return r.emit(m, at, repr{inst}, " has too many properties")
		}
	}
	return 0
}

// pyIsType is the draft 2020-12 type checker.
func pyIsType(v any, t string) bool {
	switch t {
	case "array":
		_, ok := v.([]any)
		return ok
	case "boolean":
		_, ok := v.(bool)
		return ok
	case "integer":
		return pyIsInteger(v)
	case "null":
		return v == nil
	case "number":
		return pyIsNumber(v)
	case "object":
		_, ok := v.(*Object)
		return ok
	case "string":
		_, ok := v.(string)
		return ok
	}
	return false
}

// search is re.search(pattern, s). A pattern Python rejects raises re.error
// (a tool error, as in the reference); one that needs backtracking is refused.
func (r *schemaRun) search(p *pyRegex, s string) bool {
	if p.err != nil {
		if r.exc == nil {
			if se, ok := p.err.(*regexpy.SyntaxError); ok {
				r.exc = &pyError{msg: se.Msg}
			} else {
				r.exc = &regexRefusal{pattern: p.pattern, err: p.err}
			}
		}
		return false
	}
	re := p.re
	text := pyRunes(s)
	// Charge the text times the program size before running, and never let
	// the VM take more steps than are left.
	if !r.spend(int64(len(text)+1)*p.cost + p.setup) {
		return false
	}
	found := false
	err := re.FindAll(r.ctx, text, regexpy.Limits{MaxSteps: max(r.budget, 1), MaxMatches: 1}, func(regexpy.Match) bool {
		found = true
		return false
	})
	if err != nil && r.exc == nil {
		if _, costly := err.(*regexpy.CostError); costly {
			r.exc = &CostError{Budget: r.limit}
		} else {
			r.exc = err
		}
	}
	return found
}

// notMultiple is multipleOf's test: a float divisor divides in floating point
// and checks the quotient is integral (falling back to exact fractions when it
// overflows); an int divisor takes Python's remainder.
func (r *schemaRun) notMultiple(inst, dB any) bool {
	if d, ok := dB.(float64); ok {
		x, ok := pyFloat(inst)
		if !ok {
			r.raise(false, errIntTooLarge)
			return false
		}
		q := x / d
		switch {
		case math.IsNaN(q):
			r.raise(true, "cannot convert float NaN to integer")
			return false
		case math.IsInf(q, 0):
			if f, isFloat := inst.(float64); isFloat && math.IsInf(f, 0) {
				r.raise(false, "cannot convert Infinity to integer ratio")
				return false
			}
			var num *big.Rat
			if f, isFloat := inst.(float64); isFloat {
				num = new(big.Rat).SetFloat64(f)
			} else {
				num = new(big.Rat).SetInt(bigOf(inst))
			}
			den := new(big.Rat).SetFloat64(d)
			if den == nil || den.Sign() == 0 {
				return false
			}
			return !num.Quo(num, den).IsInt()
		}
		return q != math.Trunc(q)
	}
	if f, ok := inst.(float64); ok {
		d, ok := pyFloat(dB)
		if !ok {
			r.raise(false, errIntTooLarge)
			return false
		}
		if d == 0 {
			return false
		}
		rem := math.Mod(f, d)
		return rem != 0 // NaN (an infinite instance) is truthy
	}
	if bigOf(dB).Sign() == 0 {
		return false
	}
	return new(big.Int).Rem(bigOf(inst), bigOf(dB)).Sign() != 0
}

// containsKW is contains with minContains/maxContains.
func (r *schemaRun) containsKW(n *snode, k *kw, inst any, m evalMode, at *pathFrame) int {
	a, ok := inst.([]any)
	if !ok {
		return 0
	}
	var minC any = int64(1)
	if n.minContains != nil {
		minC = n.minContains
	}
	var maxC any = int64(len(a))
	if n.maxContains != nil {
		maxC = n.maxContains
	}
	matches := int64(0)
	for _, each := range a {
		if r.valid(k.sub, each) {
			matches++
			if c, ok := pyCompare(matches, maxC); ok && c > 0 {
				return r.emit(m, at, "Too many items match the given schema (expected at most ", repr{maxC}, ")")
			}
		}
		if r.exc != nil {
			return 0
		}
	}
	if c, ok := pyCompare(matches, minC); ok && c < 0 {
		if matches == 0 {
			return r.emit(m, at, repr{inst}, " does not contain items matching the given schema")
		}
		return r.emit(m, at, "Too few items match the given schema (expected at least ", repr{minC}, " but only "+strconv.FormatInt(matches, 10)+" matched)")
	}
	return 0
}

// additionalProperties validates the properties that neither properties nor
// the joined patternProperties regex claim.
func (r *schemaRun) additionalProperties(n *snode, k *kw, inst any, m evalMode, at *pathFrame) int {
	o, ok := inst.(*Object)
	if !ok {
		return 0
	}
	var extras []int
	for i, name := range o.Keys {
		if n.properties != nil {
			if _, has := n.properties.Get(name); has {
				continue
			}
		}
		if len(n.patterns) > 0 {
			if r.search(n.joined, name) {
				continue
			}
			if r.exc != nil {
				return 0
			}
		}
		extras = append(extras, i)
	}
	if _, isObj := k.val.(*Object); isObj {
		return r.each(len(extras), m, func(j int) int {
			i := extras[j]
			return r.descend(k.sub, o.Values[i], m, at, key(at, o.Keys[i]))
		})
	}
	if b, isBool := k.val.(bool); !isBool || b || len(extras) == 0 {
		return 0
	}
	names := make([]string, len(extras))
	for j, i := range extras {
		names[j] = o.Keys[i]
	}
	sortStrings(names)
	if len(n.patterns) > 0 {
		verb := " do"
		if len(names) == 1 {
			verb = " does"
		}
		pats := append([]string(nil), n.patterns...)
		sortStrings(pats)
		msg := joinReprs(nil, names)
		msg = append(msg, verb+" not match any of the regexes: ")
		msg = joinReprs(msg, pats)
		return r.emit(m, at, msg...)
	}
	msg := append([]any{"Additional properties are not allowed ("}, joinReprs(nil, names)...)
	return r.emit(m, at, append(msg, " "+wasWere(len(names))+" unexpected)")...)
}

func wasWere(n int) string {
	if n == 1 {
		return "was"
	}
	return "were"
}

// joinReprs appends ", ".join(repr(s) for s in names) as message parts.
func joinReprs[T any](msg []any, names []T) []any {
	for i, s := range names {
		if i > 0 {
			msg = append(msg, ", ")
		}
		msg = append(msg, repr{any(s)})
	}
	return msg
}

// unevaluatedItems reports the items no keyword of n evaluated.
func (r *schemaRun) unevaluatedItems(n *snode, k *kw, inst any, m evalMode, at *pathFrame) int {
	a, ok := inst.([]any)
	if !ok {
		return 0
	}
	seen := make([]bool, len(a))
	r.evaluatedItems(n, a, seen)
	if r.exc != nil {
		return 0
	}
	var rest []any
	for i, e := range a {
		if !seen[i] {
			rest = append(rest, e)
		}
	}
	if len(rest) == 0 {
		return 0
	}
	msg := append([]any{"Unevaluated items are not allowed ("}, joinReprs(nil, rest)...)
	return r.emit(m, at, append(msg, " "+wasWere(len(rest))+" unexpected)")...)
}

// evaluatedItems marks the indexes n evaluates (find_evaluated_item_indexes_by_schema).
func (r *schemaRun) evaluatedItems(n *snode, a []any, seen []bool) {
	if n.isBool || !r.spend(1) {
		return
	}
	if n.items != nil {
		for i := range seen {
			seen[i] = true
		}
		return
	}
	for i := 0; i < n.prefixLen && i < len(seen); i++ {
		seen[i] = true
	}
	mark := func(s *snode) { r.evaluatedItems(s, a, seen) }
	r.conditional(n, a, mark)
	for _, s := range []*snode{n.contains, n.unevalItems} {
		if s == nil {
			continue
		}
		for i, e := range a {
			if r.valid(s, e) {
				seen[i] = true
			}
		}
	}
	r.validInPlace(n, a, mark)
}

// conditional calls mark for the subschemas of n's if/then/else that apply
// to inst: if and then when inst is valid under if, else otherwise.
func (r *schemaRun) conditional(n *snode, inst any, mark func(*snode)) {
	if n.ifNode == nil {
		return
	}
	if r.valid(n.ifNode, inst) {
		mark(n.ifNode)
		if n.then != nil {
			mark(n.then)
		}
	} else if n.els != nil {
		mark(n.els)
	}
}

// validInPlace calls mark for each subschema of n's allOf, oneOf and anyOf
// under which inst is valid.
func (r *schemaRun) validInPlace(n *snode, inst any, mark func(*snode)) {
	for _, group := range [][]*snode{n.allOf, n.oneOf, n.anyOf} {
		for _, s := range group {
			if r.valid(s, inst) {
				mark(s)
			}
		}
	}
}

// unevaluatedProperties reports the properties no keyword of n evaluated and
// that fail the unevaluatedProperties schema (each once per error, as the
// reference lists them).
func (r *schemaRun) unevaluatedProperties(n *snode, k *kw, inst any, m evalMode, at *pathFrame) int {
	o, ok := inst.(*Object)
	if !ok {
		return 0
	}
	seen := make([]bool, o.Len())
	r.evaluatedProps(n, o, seen)
	if r.exc != nil {
		return 0
	}
	var bad []string
	for i, name := range o.Keys {
		if seen[i] {
			continue
		}
		c := r.eval(k.sub, o.Values[i], modeCount, nil)
		if r.exc != nil {
			return 0
		}
		for ; c > 0; c-- {
			bad = append(bad, name)
		}
	}
	if len(bad) == 0 {
		return 0
	}
	if b, isBool := k.val.(bool); isBool && !b {
		sortStrings(bad)
		msg := append([]any{"Unevaluated properties are not allowed ("}, joinReprs(nil, bad)...)
		return r.emit(m, at, append(msg, " "+wasWere(len(bad))+" unexpected)")...)
	}
	msg := append([]any{"Unevaluated properties are not valid under the given schema ("}, joinReprs(nil, bad)...)
	return r.emit(m, at, append(msg, " "+wasWere(len(bad))+" unevaluated and invalid)")...)
}

// evaluatedProps marks the keys n evaluates (find_evaluated_property_keys_by_schema).
func (r *schemaRun) evaluatedProps(n *snode, o *Object, seen []bool) {
	if n.isBool || !r.spend(1) {
		return
	}
	if n.properties != nil {
		for i, name := range o.Keys {
			if _, has := n.properties.Get(name); has {
				seen[i] = true
			}
		}
	}
	for _, s := range []*snode{n.additional, n.unevalProps} {
		if s == nil {
			continue
		}
		for i := range o.Keys {
			if r.valid(s, o.Values[i]) {
				seen[i] = true
			}
		}
	}
	if len(n.patterns) > 0 {
		for _, k := range n.kws {
			if k.op != kwPatternProperties {
				continue
			}
			for i, name := range o.Keys {
				for _, re := range k.re {
					if r.search(re, name) {
						seen[i] = true
					}
				}
			}
		}
	}
	for _, d := range n.depSchemas {
		if _, has := o.Get(d.prop); has {
			r.evaluatedProps(d.node, o, seen)
		}
	}
	mark := func(s *snode) { r.evaluatedProps(s, o, seen) }
	r.validInPlace(n, o, mark)
	r.conditional(n, o, mark)
}
