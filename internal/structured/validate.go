package structured

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/precisiond/precisiond/internal/refusal"
)

// Limits of structured_validate, the reference's (docs/compatibility.md), plus the limits
// that bound our own work.
type Limits struct {
	MaxPayloadBytes int
	MaxSchemaBytes  int
	MaxDepth        int // details.depth as the reference counts it
	MaxNodes        int // details.nodes as the reference counts it
	MaxRows         int
	MaxColumns      int
	MaxFieldChars   int
	MaxErrors       int
	// MaxJSONNesting is where Python's json module exhausts its recursion
	// limit in the reference (982 nested containers parse, 983 do not, under
	// the vector generator's call stack; the reference behind FastAPI fails a
	// few dozen levels earlier).
	MaxJSONNesting int
	// MaxYAMLNesting is the same for PyYAML's composer (about 490 levels).
	MaxYAMLNesting int
	// SchemaWorkUnits bounds one schema check plus one validation
	// (pyschema.go); over it the call is refused with cost_limit_exceeded.
	SchemaWorkUnits int64
}

// DefaultLimits are the wire-compatible limits and our work budget.
var DefaultLimits = Limits{
	MaxPayloadBytes: 65536, MaxSchemaBytes: 32768, MaxDepth: 64, MaxNodes: 10000,
	MaxRows: 1000, MaxColumns: 100, MaxFieldChars: 8192, MaxErrors: 50,
	MaxJSONNesting: 982, MaxYAMLNesting: 488, SchemaWorkUnits: 4_000_000,
}

// MaxMessageChars bounds finding messages and paths (the reference cuts them
// at 300 code points).
const MaxMessageChars = 300

// Request is one structured_validate call.
type Request struct {
	Format  string  // json, yaml, xml, csv
	Payload string  // the document
	Schema  *string // JSON Schema 2020-12 text (JSON payloads only)
	Dialect *string // comma, semicolon, tab, pipe (CSV only; required there)
}

// Warning is a counted warning in the facts.
type Warning struct {
	Code  string `json:"code"`
	Count int    `json:"count"`
}

// Details are the document's size, as far as the reference got: depth and
// nodes (JSON, YAML, XML) or rows and columns (CSV); empty when it stopped
// before counting.
type Details struct {
	Depth   *int `json:"depth,omitempty"`
	Nodes   *int `json:"nodes,omitempty"`
	Rows    *int `json:"rows,omitempty"`
	Columns *int `json:"columns,omitempty"`
}

// Result holds the facts of structured_validate.
type Result struct {
	Valid       bool      `json:"valid"`
	Format      string    `json:"format"`
	PayloadHash string    `json:"payload_hash"`
	SchemaHash  *string   `json:"schema_hash"`
	Errors      []Finding `json:"errors"`
	Warnings    []Warning `json:"warnings"`
	Details     Details   `json:"details"`
}

// Refusal reasons: the reference raises these (its tool_execution_error), the
// text of the exception being the reason itself.
const (
	ReasonUnsupportedFormat = "unsupported_structured_format"
	ReasonPayloadTooLarge   = "structured_payload_size_limit_exceeded"
	ReasonSchemaNotJSON     = "schema_json_is_supported_only_for_json"
	ReasonDialectRequired   = "csv_dialect_must_be_explicit"
	ReasonSchemaTooLarge    = "structured_schema_size_limit_exceeded"
	ReasonDepthLimit        = "structured_depth_limit_exceeded"
	ReasonNodeLimit         = "structured_node_limit_exceeded"
	// ReasonIntTooLong: a JSON payload integer of more than 4300 digits,
	// which the reference's int() refuses (its message is kept).
	ReasonIntTooLong = "json_integer_too_long"
	// ReasonSchemaEvaluation: an exception other than ValueError inside the
	// reference's schema validation (its message is kept).
	ReasonSchemaEvaluation = "schema_evaluation_error"
	// ReasonSchemaDialect: a subschema declares an older draft in $schema,
	// which the reference would switch to; we validate 2020-12 only.
	ReasonSchemaDialect = "schema_dialect_not_supported"
	// ReasonSurrogatePath: an error path holds a lone surrogate, which the
	// reference cannot encode (it fails while hashing its answer).
	ReasonSurrogatePath = "surrogate_in_error_path"
	// ReasonNotUTF8: payload or schema_json is not UTF-8 (unreachable
	// through the API, which decodes JSON strings).
	ReasonNotUTF8 = "payload_not_utf8"
	// ReasonWorkLimit: the schema check needs more than SchemaWorkUnits.
	ReasonWorkLimit = "schema_validation_work_limit"
)

// Dialects maps csv_dialect to its delimiter, as the reference does.
var Dialects = map[string]rune{"comma": ',', "semicolon": ';', "tab": '\t', "pipe": '|'}

// SHA256Hex is the lowercase hex SHA-256 of s's UTF-8 bytes.
func SHA256Hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

func domain(reason string) error { return refusal.Domain(reason, "%s", reason) }

// Validate checks a payload as the reference's structured_validate does.
// Syntax errors, refused constructs, schema violations and most limit hits are
// findings in Result (valid:false); where the reference raises instead, the
// error is a *refusal.Error with the reference's reason (see the Reason*
// constants), or ctx.Err().
func Validate(ctx context.Context, req Request, lim Limits) (Result, error) {
	switch req.Format {
	case "json", "yaml", "xml", "csv":
	default:
		return Result{}, domain(ReasonUnsupportedFormat)
	}
	if len(req.Payload) > lim.MaxPayloadBytes {
		return Result{}, domain(ReasonPayloadTooLarge)
	}
	if !utf8.ValidString(req.Payload) || req.Schema != nil && !utf8.ValidString(*req.Schema) {
		// Arguments arrive as JSON strings, always UTF-8 (the reference's are
		// Python str); a direct caller is refused rather than answered.
		return Result{}, domain(ReasonNotUTF8)
	}
	if req.Schema != nil && req.Format != "json" {
		return Result{}, domain(ReasonSchemaNotJSON)
	}
	res := Result{Format: req.Format, PayloadHash: SHA256Hex(req.Payload), Errors: []Finding{}, Warnings: []Warning{}}
	if req.Schema != nil {
		res.SchemaHash = ptr(SHA256Hex(*req.Schema))
	}
	var err error
	switch req.Format {
	case "json":
		err = validateJSON(ctx, req, lim, &res)
	case "yaml":
		err = validateYAML(ctx, req.Payload, lim, &res)
	case "xml":
		validateXML(req.Payload, lim, &res)
	case "csv":
		if req.Dialect == nil {
			return Result{}, domain(ReasonDialectRequired)
		}
		delim, ok := Dialects[*req.Dialect]
		if !ok {
			return Result{}, domain(ReasonDialectRequired)
		}
		err = validateCSV(ctx, req.Payload, delim, lim, &res)
	}
	if err != nil {
		return Result{}, err
	}
	res.Valid = len(res.Errors) == 0
	if len(res.Errors) > lim.MaxErrors {
		res.Errors = res.Errors[:lim.MaxErrors]
	}
	return res, nil
}

// finding builds a finding the way the reference's _validation_error does:
// message and path cut at 300 code points.
func finding(code, message string, line, column *int, path string) Finding {
	return Finding{Code: code, Message: truncateRunes(message, MaxMessageChars), Line: line, Column: column, Path: truncateRunes(path, MaxMessageChars)}
}

// valueErrorFinding is the reference's finding for a ValueError it catches:
// the exception's text is both code and message.
func valueErrorFinding(msg string) Finding { return finding(msg, msg, nil, nil, "") }

func setTree(res *Result, depth, nodes int) {
	res.Details = Details{Depth: ptr(depth), Nodes: ptr(nodes)}
}

// parsePython reads JSON text as the reference's json.loads.
func parsePython(text string, lim Limits) (any, *Finding) {
	v, _, f := ParseJSON(text, JSONOptions{Build: true, Python: true, MaxDepth: lim.MaxJSONNesting})
	return v, f
}

func validateJSON(ctx context.Context, req Request, lim Limits, res *Result) error {
	doc, f := parsePython(req.Payload, lim)
	payloadOK := f == nil
	if f != nil {
		switch f.Code {
		case CodeJSONSyntax:
			res.Errors = append(res.Errors, finding(CodeJSONParse, strings.TrimPrefix(f.Message, jsonSyntaxPrefix), f.Line, f.Column, ""))
		case CodeIntTooLong:
			return refusal.Domain(ReasonIntTooLong, "%s", f.Message)
		default: // the recursion limit of Python's json
			return refusal.Domain(ReasonDepthLimit, "%s", f.Message)
		}
	} else {
		depth, nodes, reason := boundedTree(doc, lim)
		if reason != "" {
			return domain(reason)
		}
		setTree(res, depth, nodes)
	}
	if req.Schema == nil {
		return nil
	}
	text := *req.Schema
	if len(text) > lim.MaxSchemaBytes {
		return domain(ReasonSchemaTooLarge)
	}
	schema, sf := parsePython(text, lim)
	if sf != nil {
		switch sf.Code {
		case CodeJSONSyntax:
			res.Errors = append(res.Errors, finding(CodeSchemaParse, strings.TrimPrefix(sf.Message, jsonSyntaxPrefix), sf.Line, sf.Column, ""))
		case CodeIntTooLong:
			res.Errors = append(res.Errors, valueErrorFinding(sf.Message))
		default:
			return refusal.Domain(ReasonDepthLimit, "%s", sf.Message)
		}
		return nil
	}
	root, isObj := schema.(*Object)
	switch {
	case !isObj:
		res.Errors = append(res.Errors, valueErrorFinding(CodeSchemaRoot))
		return nil
	case containsKey(schema, "$ref") || containsKey(schema, "$dynamicRef"):
		res.Errors = append(res.Errors, valueErrorFinding(CodeSchemaRef))
		return nil
	}
	run := &schemaRun{ctx: ctx, limit: lim.SchemaWorkUnits, budget: lim.SchemaWorkUnits}
	if msg, err := checkSchema(run, root); err != nil {
		return err
	} else if msg != "" {
		res.Errors = append(res.Errors, finding(CodeSchemaInvalid, msg, nil, nil, ""))
		return nil
	}
	if !payloadOK {
		return nil
	}
	sch, err := compiledSchema(text, root)
	if err != nil {
		return err
	}
	found, err := run.validate(sch, doc, lim.MaxErrors)
	if err != nil {
		var pe *pyError
		if errors.As(err, &pe) && pe.valueError {
			res.Errors = append(res.Errors, valueErrorFinding(pe.msg))
			return nil
		}
		return err
	}
	for _, e := range found {
		path := "/" + strings.Join(e.path, "/")
		if hasSurrogate(path) {
			return refusal.Domain(ReasonSurrogatePath, "an error path holds a lone surrogate, which the reference cannot encode")
		}
		res.Errors = append(res.Errors, finding(CodeJSONSchema, messageText(e.msg), nil, nil, path))
	}
	return nil
}

// jsonSyntaxPrefix is ParseJSON's prefix of syntax messages (json_query's).
const jsonSyntaxPrefix = "JSON syntax error: "

// containsKey is the reference's _schema_contains_ref: key present in any
// object anywhere in v (object values and array items, not keys).
func containsKey(v any, key string) bool {
	switch x := v.(type) {
	case *Object:
		if _, ok := x.Get(key); ok {
			return true
		}
		for _, e := range x.Values {
			if containsKey(e, key) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if containsKey(e, key) {
				return true
			}
		}
	}
	return false
}

// boundedTree counts a parsed document as the reference's _bounded_tree does:
// every dict, list, key and scalar is a node, the root at depth 1 and a dict's
// keys and values one level below it; the walk is depth-first, last child
// first, and the first limit it crosses is the reason.
func boundedTree(v any, lim Limits) (depth, nodes int, reason string) {
	type item struct {
		v any
		d int
	}
	stack := []item{{v, 1}}
	for len(stack) > 0 {
		cur := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		nodes++
		depth = max(depth, cur.d)
		if nodes > lim.MaxNodes {
			return 0, 0, ReasonNodeLimit
		}
		if cur.d > lim.MaxDepth {
			return 0, 0, ReasonDepthLimit
		}
		switch x := cur.v.(type) {
		case *Object:
			for i, k := range x.Keys {
				stack = append(stack, item{k, cur.d + 1}, item{x.Values[i], cur.d + 1})
			}
		case *pyMapping:
			for _, e := range x.entries {
				stack = append(stack, item{e.k, cur.d + 1}, item{e.v, cur.d + 1})
			}
		case []any:
			for _, e := range x {
				stack = append(stack, item{e, cur.d + 1})
			}
		case *pySeq:
			for _, e := range x.items {
				stack = append(stack, item{e, cur.d + 1})
			}
		}
	}
	return depth, nodes, ""
}

// checkSchema returns the message of the first metaschema error, or "".
func checkSchema(run *schemaRun, schema *Object) (string, error) {
	run.formats, run.stopFirst = true, true
	defer func() { run.formats, run.stopFirst = false, false }()
	run.eval(metaschema(), schema, modeCollect, nil)
	switch {
	case run.first != nil:
		msg := messageText(run.first.msg)
		run.exc, run.first = nil, nil
		return msg, nil
	case run.exc != nil:
		return "", runError(run.exc)
	}
	return "", nil
}

// validate collects the first max errors of sch on doc in the reference's
// order.
func (r *schemaRun) validate(sch *snode, doc any, max int) ([]schemaError, error) {
	r.sink = &errorSink{r: r, max: max}
	r.eval(sch, doc, modeCollect, nil)
	if r.exc != nil {
		return nil, runError(r.exc)
	}
	return r.sink.sorted(), r.errOrNil()
}

func (r *schemaRun) errOrNil() error {
	if r.exc != nil {
		return runError(r.exc)
	}
	return nil
}

// runError maps what ended a run to the call's error.
func runError(err error) error {
	var ce *CostError
	var pe *pyError
	var rr *regexRefusal
	switch {
	case errors.As(err, &rr):
		return refusal.Domain(RefusalUnsupportedRegex, "schema pattern %s: %v", pyRepr(rr.pattern), rr.err)
	case errors.As(err, &ce):
		return refusal.Cost(ReasonWorkLimit, "checking the payload against schema_json needs more than %d work units (the declared budget)", ce.Budget)
	case errors.As(err, &pe) && !pe.valueError:
		return refusal.Domain(ReasonSchemaEvaluation, "%s", pe.msg)
	case errors.As(err, &pe):
		return pe
	}
	return err
}

// compiledSchema compiles a checked schema, once per schema text: callers
// validating many payloads against one schema pay for it once. A compiled
// schema is read-only and safe for concurrent use.
func compiledSchema(text string, root *Object) (*snode, error) {
	hash := SHA256Hex(text)
	schemaCache.Lock()
	sch, ok := schemaCache.byHash[hash]
	schemaCache.Unlock()
	if ok {
		return sch, nil
	}
	sch, err := compileUserSchema(root)
	if err != nil {
		return nil, err
	}
	schemaCache.Lock()
	defer schemaCache.Unlock()
	if _, ok := schemaCache.byHash[hash]; !ok {
		if len(schemaCache.order) >= schemaCacheSize {
			delete(schemaCache.byHash, schemaCache.order[0])
			schemaCache.order = schemaCache.order[1:]
		}
		schemaCache.byHash[hash] = sch
		schemaCache.order = append(schemaCache.order, hash)
	}
	return sch, nil
}

var schemaCache = struct {
	sync.Mutex
	byHash map[string]*snode
	order  []string
}{byHash: map[string]*snode{}}

const schemaCacheSize = 128

// compileUserSchema compiles schema_json, refusing what we cannot run as the
// reference would: a subschema that switches to an older draft, a pattern
// that needs backtracking.
func compileUserSchema(root *Object) (*snode, error) {
	c := &schemaCompiler{checkDialect: true}
	n := &snode{obj: root}
	c.fill(n)
	if c.dialectErr {
		return nil, refusal.Domain(ReasonSchemaDialect, "a subschema declares an older JSON Schema draft in $schema; only draft 2020-12 is validated")
	}
	return n, nil
}
