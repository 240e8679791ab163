package contracts

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"

	"github.com/precisiond/precisiond/internal/pyrepr"
	"github.com/precisiond/precisiond/internal/suggest"
)

// Detail is one failure of an error: a JSON Pointer into the arguments, the
// failing keyword and a readable message. Where the schema enumerates what is
// valid at Path (the properties of a closed object, for an unknown property;
// the values of an enum) Allowed lists it. A misspelt name or value is
// followed by one KeywordDidYouMean detail per valid one near it.
type Detail struct {
	Path    string `json:"path"`
	Keyword string `json:"keyword"`
	Message string `json:"message"`
	// Allowed lists every name or value valid at Path; nil when the schema
	// does not enumerate them.
	Allowed []any `json:"allowed,omitempty"`
}

// KeywordDidYouMean is the keyword of a did-you-mean detail: Path is the
// argument, Message one name or value that was probably meant. An error
// carries one such detail per suggestion, nearest first, right after the
// detail it belongs to, and the same suggestions in that detail's message.
const KeywordDidYouMean = "did_you_mean"

// DidYouMean returns one KeywordDidYouMean detail per name, for the argument
// at path.
func DidYouMean(path string, names ...string) []Detail {
	out := make([]Detail, len(names))
	for i, n := range names {
		out[i] = Detail{Path: path, Keyword: KeywordDidYouMean, Message: n}
	}
	return out
}

// ValidationError reports that an instance failed a contract schema. Its
// Error is "<path>:<keyword>" of the first failure in the reference sidecar's
// order (Python jsonschema's errors sorted by path parts, then message; the
// path dotted, "value" for the root), so the message matches the reference's
// byte for byte. Details are every failure with JSON Pointer paths, in the same
// order, without duplicates.
type ValidationError struct {
	Details []Detail
	first   *refError // the reference's first error; nil: derived from Details[0]
}

func (e *ValidationError) Error() string {
	if e.first != nil {
		return e.first.String()
	}
	if len(e.Details) == 0 {
		return "schema validation failed"
	}
	d := e.Details[0]
	return refPath(unpointer(d.Path)) + ":" + d.Keyword
}

// refError is one error as Python jsonschema's iter_errors reports it: the
// instance path, the validator (keyword) and the message, whose text only
// orders errors at the same path.
type refError struct {
	parts     []string
	validator string
	message   string
}

func (r *refError) String() string { return refPath(r.parts) + ":" + r.validator }

// refPath joins path parts with "." as the reference does; the root is "value".
func refPath(parts []string) string {
	if len(parts) == 0 {
		return "value"
	}
	return strings.Join(parts, ".")
}

// compareRef orders errors as the reference sorts them: by the tuple of path
// parts (as strings), then by message.
func compareRef(a, b *refError) int {
	if c := slices.Compare(a.parts, b.parts); c != 0 {
		return c
	}
	return strings.Compare(a.message, b.message)
}

// unpointer splits a JSON Pointer into its unescaped tokens.
func unpointer(p string) []string {
	if p == "" {
		return nil
	}
	parts := strings.Split(p[1:], "/")
	for i, s := range parts {
		parts[i] = strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
	}
	return parts
}

// failure is a ValidationError under construction: the tree of the schema
// library's errors read once into the reference's first error and the
// details, each detail with its place in the reference's order.
type failure struct {
	raw      map[string]any // the schema as written, for hints; may be nil
	instance any
	first    *refError
	details  []Detail
	keys     []refError
}

// newValidationError reads the schema library's error tree for instance
// (validated against raw).
func newValidationError(ve *jsonschema.ValidationError, raw map[string]any, instance any) *ValidationError {
	f := &failure{raw: raw, instance: instance}
	ve = f.expand(ve)
	f.reference(ve)
	f.leaves(ve)
	idx := make([]int, len(f.details))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(i, j int) int { return compareRef(&f.keys[i], &f.keys[j]) })
	out := make([]Detail, 0, min(len(idx), MaxDetails))
	for _, i := range idx {
		d := f.details[i]
		if slices.ContainsFunc(out, func(o Detail) bool { return sameDetail(o, d) }) {
			continue
		}
		if len(out) == MaxDetails {
			break
		}
		out = append(out, d)
	}
	return &ValidationError{Details: out, first: f.first}
}

func sameDetail(a, b Detail) bool {
	return a.Path == b.Path && a.Keyword == b.Keyword && a.Message == b.Message
}

// reference walks the tree as Python jsonschema reports errors: through
// $ref, allOf, if/then/else and nested properties to the failing keywords,
// but not into anyOf, oneOf, not or contains, which fail as a whole. It keeps
// the first error in the reference's order.
func (f *failure) reference(e *jsonschema.ValidationError) {
	switch k := e.ErrorKind.(type) {
	case *kind.Schema, *kind.Group, *kind.Reference, *kind.AllOf:
		for _, c := range e.Causes {
			f.reference(c)
		}
		return
	case *kind.Required:
		for _, p := range k.Missing {
			f.keep(refError{e.InstanceLocation, "required", pyRepr(p) + " is a required property"})
		}
		return
	case *kind.DependentRequired:
		for _, p := range k.Missing {
			f.keep(refError{e.InstanceLocation, "dependentRequired", pyRepr(p) + " is a dependency of " + pyRepr(k.Prop)})
		}
		return
	}
	f.keep(refError{e.InstanceLocation, keywordOf(e), f.pyMessage(e)})
}

// expand adds, where the schema library stopped at a failing type, const or
// enum, the errors of the keywords it skipped there, in the part of the tree
// the reference reports (see reference): Python jsonschema checks every
// keyword, so -0.5 at {"type": "integer", "minimum": 1} fails minimum too.
func (f *failure) expand(e *jsonschema.ValidationError) *jsonschema.ValidationError {
	switch e.ErrorKind.(type) {
	case *kind.Schema, *kind.Group, *kind.Reference, *kind.AllOf:
		for i, c := range e.Causes {
			e.Causes[i] = f.expand(c)
		}
		return e
	}
	more := f.skipped(e)
	if len(more) == 0 {
		return e
	}
	return &jsonschema.ValidationError{SchemaURL: e.SchemaURL, InstanceLocation: e.InstanceLocation,
		ErrorKind: &kind.Group{}, Causes: append([]*jsonschema.ValidationError{e}, more...)}
}

// stopsAt lists the keywords the schema library checks first, in its order;
// when one fails it checks nothing else of that schema.
var stopsAt = []string{"type", "const", "enum"}

// annotations are keywords that never fail.
var annotations = []string{"title", "description", "default", "examples", "$comment", "deprecated", "readOnly", "writeOnly"}

// skipped validates the instance at e's path against each keyword the
// library skipped after e's (a later one of stopsAt alone, the rest of the
// schema together) and returns the failures, located as if the library had
// reported them. It returns nil when e is not one of stopsAt or the schema
// cannot be found or compiled on its own (a $ref into the rest of it).
func (f *failure) skipped(e *jsonschema.ValidationError) []*jsonschema.ValidationError {
	at := slices.Index(stopsAt, keywordOf(e))
	_, frag, ok := strings.Cut(e.SchemaURL, "#")
	if at < 0 || !ok || f.raw == nil {
		return nil
	}
	s, _ := valueAt(f.raw, unpointer(frag)).(map[string]any)
	if s == nil {
		return nil
	}
	rest := make(map[string]any, len(s))
	for k, v := range s {
		if !slices.Contains(stopsAt, k) && !slices.Contains(annotations, k) {
			rest[k] = v
		}
	}
	todo := []map[string]any{rest}
	for _, k := range stopsAt[at+1:] {
		if v, ok := s[k]; ok {
			todo = append(todo, map[string]any{k: v})
		}
	}
	inst := valueAt(f.instance, e.InstanceLocation)
	var out []*jsonschema.ValidationError
	for _, p := range todo {
		if len(p) == 0 {
			continue
		}
		sch := compilePart(p)
		if sch == nil {
			continue
		}
		var ve *jsonschema.ValidationError
		if errors.As(sch.Validate(inst), &ve) {
			rebase(ve, e.InstanceLocation, e.SchemaURL)
			out = append(out, ve)
		}
	}
	return out
}

// parts holds the compiled parts of schemas by their JSON text (nil: the
// part does not compile on its own), at most maxParts of them: the contracts'
// schemas have a few dozen, and ValidateAgainst may be handed others.
var parts struct {
	sync.Mutex
	m map[string]*jsonschema.Schema
}

const maxParts = 1024

// compilePart compiles a part of a schema, once; nil when it cannot be
// compiled on its own.
func compilePart(p map[string]any) *jsonschema.Schema {
	b, err := json.Marshal(p)
	if err != nil {
		return nil
	}
	key := string(b)
	parts.Lock()
	sch, ok := parts.m[key]
	parts.Unlock()
	if ok {
		return sch
	}
	sch, err = compile("skipped", p)
	if err != nil {
		sch = nil
	}
	parts.Lock()
	if parts.m == nil {
		parts.m = make(map[string]*jsonschema.Schema)
	}
	if len(parts.m) < maxParts {
		parts.m[key] = sch
	}
	parts.Unlock()
	return sch
}

// rebase moves an error tree of a validation of the instance at loc against
// the schema at url to where the whole validation would have reported it.
func rebase(e *jsonschema.ValidationError, loc []string, url string) {
	e.InstanceLocation = append(slices.Clone(loc), e.InstanceLocation...)
	if _, frag, ok := strings.Cut(e.SchemaURL, "#"); ok {
		e.SchemaURL = url + frag
	}
	for _, c := range e.Causes {
		rebase(c, loc, url)
	}
}

func (f *failure) keep(r refError) {
	if f.first == nil || compareRef(&r, f.first) < 0 {
		r.parts = slices.Clone(r.parts)
		f.first = &r
	}
}

func keywordOf(e *jsonschema.ValidationError) string {
	switch e.ErrorKind.(type) {
	case *kind.FalseSchema:
		return "invalid" // Python jsonschema names no validator for a false schema
	case *kind.Not:
		return "not" // the schema library gives "not" no keyword path
	}
	if kw := e.ErrorKind.KeywordPath(); len(kw) > 0 {
		return kw[0]
	}
	return "invalid"
}

// pyMessage is the start of Python jsonschema's message for e: enough to
// order two errors at the same path as the reference does.
func (f *failure) pyMessage(e *jsonschema.ValidationError) string {
	inst := func() string { return pyRepr(valueAt(f.instance, e.InstanceLocation)) }
	switch k := e.ErrorKind.(type) {
	case *kind.AdditionalProperties:
		return "Additional properties are not allowed"
	case *kind.AdditionalItems:
		return "Expected at most"
	case *kind.Const:
		return pyRepr(k.Want) + " was expected"
	case *kind.Type:
		return inst() + " is not of type"
	case *kind.Enum:
		return inst() + " is not one of"
	case *kind.Minimum:
		return inst() + " is less than the minimum of"
	case *kind.Maximum:
		return inst() + " is greater than the maximum of"
	case *kind.ExclusiveMinimum:
		return inst() + " is less than or equal to the minimum of"
	case *kind.ExclusiveMaximum:
		return inst() + " is greater than or equal to the maximum of"
	case *kind.MultipleOf:
		return inst() + " is not a multiple of"
	case *kind.MinLength:
		return inst() + minMessage(k.Want, "is too short")
	case *kind.MaxLength:
		return inst() + maxMessage(k.Want, "is too long")
	case *kind.MinItems:
		return inst() + minMessage(k.Want, "is too short")
	case *kind.MaxItems:
		return inst() + maxMessage(k.Want, "is too long")
	case *kind.MinProperties:
		return inst() + minMessage(k.Want, "does not have enough properties")
	case *kind.MaxProperties:
		return inst() + maxMessage(k.Want, "has too many properties")
	case *kind.Pattern:
		return inst() + " does not match"
	case *kind.Format:
		return inst() + " is not a"
	case *kind.UniqueItems:
		return inst() + " has non-unique elements"
	case *kind.AnyOf:
		return inst() + " is not valid under any of the given schemas"
	case *kind.OneOf:
		if len(k.Subschemas) > 0 {
			return inst() + " is valid under each of"
		}
		return inst() + " is not valid under any of the given schemas"
	case *kind.Not:
		return inst() + " should not be valid under"
	case *kind.FalseSchema:
		return "False schema does not allow " + inst()
	}
	return inst()
}

func minMessage(want int, other string) string {
	if want == 1 {
		return " should be non-empty"
	}
	return " " + other
}

func maxMessage(want int, other string) string {
	if want == 0 {
		return " is expected to be empty"
	}
	return " " + other
}

// valueAt is the value at a path of tokens in a generic JSON value (an
// instance, or a schema); nil when there is none.
func valueAt(v any, path []string) any {
	for _, t := range path {
		switch x := v.(type) {
		case map[string]any:
			v = x[t]
		case []any:
			i, err := strconv.Atoi(t)
			if err != nil || i < 0 || i >= len(x) {
				return nil
			}
			v = x[i]
		default:
			return nil
		}
	}
	return v
}

// leaves collects one detail per failing keyword, descending into every
// branch, with hints for unknown properties and enum values.
func (f *failure) leaves(e *jsonschema.ValidationError) {
	if len(e.Causes) > 0 {
		for _, c := range e.Causes {
			f.leaves(c)
		}
		return
	}
	keyword := keywordOf(e)
	if keyword == "invalid" {
		keyword = "schema"
	}
	loc := e.InstanceLocation
	// A missing or an unknown property is reported at the property's own path,
	// one detail each, so the client sees which field to fix.
	switch k := e.ErrorKind.(type) {
	case *kind.Required:
		for _, p := range k.Missing {
			f.add(refError{loc, keyword, pyRepr(p) + " is a required property"},
				Detail{Path: pointer(append(slices.Clone(loc), p)), Keyword: keyword, Message: "missing required property"})
		}
		return
	case *kind.AdditionalProperties:
		allowed := f.propertyNames(e.SchemaURL)
		key := refError{loc, keyword, "Additional properties are not allowed"}
		// The library lists them in map order; sorted, the details are the
		// same on every call (FuzzMCPFastPath compared two calls).
		for _, p := range slices.Sorted(slices.Values(k.Properties)) {
			path := pointer(append(slices.Clone(loc), p))
			near := suggest.Closest(p, allowed, MaxSuggestions)
			if len(near) == 0 {
				near = suggest.Words(p, allowed, MaxSuggestions) // timezone → timezone_name
			}
			d := Detail{Path: path, Keyword: keyword,
				Message: fmt.Sprintf("unknown property %s (not in the schema%s)", strconv.Quote(p), didYouMean(near))}
			if len(allowed) > 0 {
				d.Allowed = make([]any, len(allowed))
				for i, a := range allowed {
					d.Allowed[i] = a
				}
			}
			f.add(key, d)
			f.add(key, DidYouMean(path, near...)...)
		}
		return
	}
	key := refError{loc, keyword, f.pyMessage(e)}
	d := Detail{Path: pointer(loc), Keyword: keyword, Message: e.ErrorKind.LocalizedString(printer)}
	var near []string
	if k, ok := e.ErrorKind.(*kind.Enum); ok {
		d.Allowed = slices.Clone(k.Want)
		if got, ok := k.Got.(string); ok {
			near = suggest.Closest(got, enumStrings(k.Want), MaxSuggestions)
			d.Message += suggest.Phrase(near)
		}
	}
	f.add(key, d)
	f.add(key, DidYouMean(d.Path, near...)...)
}

// add appends details with their place in the reference's order.
func (f *failure) add(key refError, ds ...Detail) {
	for _, d := range ds {
		f.details = append(f.details, d)
		f.keys = append(f.keys, key)
	}
}

// MaxSuggestions bounds the did-you-mean suggestions for one name or value.
const MaxSuggestions = 3

// didYouMean is "; did you mean "a" or "b"?" (empty for no names), to end a
// parenthesis.
func didYouMean(names []string) string {
	p := suggest.Phrase(names) // ` (did you mean "a"?)`
	if p == "" {
		return ""
	}
	return "; " + strings.TrimSuffix(strings.TrimPrefix(p, " ("), ")")
}

func enumStrings(values []any) []string {
	var out []string
	for _, v := range values {
		if s, ok := v.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// propertyNames lists the declared properties of the schema at url (a
// location in the compiled schema, "…#/json/pointer"), sorted; nil when it
// cannot be found.
func (f *failure) propertyNames(url string) []string {
	_, frag, ok := strings.Cut(url, "#")
	if !ok || f.raw == nil {
		return nil
	}
	m, _ := valueAt(f.raw, unpointer(frag)).(map[string]any)
	props, _ := m["properties"].(map[string]any)
	names := make([]string, 0, len(props))
	for n := range props {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// pyRepr writes a generic JSON value as Python's repr writes what json.loads
// made of it (str, int, float, bool, None, list, dict with keys in sorted
// order): the text Python jsonschema's messages begin with.
func pyRepr(v any) string {
	var b strings.Builder
	writePyRepr(&b, v)
	return b.String()
}

func writePyRepr(b *strings.Builder, v any) {
	switch x := v.(type) {
	case nil:
		b.WriteString("None")
	case bool:
		if x {
			b.WriteString("True")
		} else {
			b.WriteString("False")
		}
	case json.Number:
		s := string(x)
		if !strings.ContainsAny(s, ".eE") {
			if n, ok := new(big.Int).SetString(s, 10); ok {
				s = n.String()
			}
		} else if fl, err := strconv.ParseFloat(s, 64); err == nil || fl != 0 {
			// Python's float() reads an overflowing literal as ±inf, as ParseFloat does.
			s = pyrepr.Float(fl)
		}
		b.WriteString(s)
	case float64:
		b.WriteString(pyrepr.Float(x))
	case int:
		b.WriteString(strconv.Itoa(x))
	case string:
		b.WriteString(pyrepr.String(x))
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			writePyRepr(b, e)
		}
		b.WriteByte(']')
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(pyrepr.String(k))
			b.WriteString(": ")
			writePyRepr(b, x[k])
		}
		b.WriteByte('}')
	default:
		fmt.Fprint(b, x)
	}
}
