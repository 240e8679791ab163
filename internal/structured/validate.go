package structured

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// Limits of structured_validate (SPEC §7.1).
type Limits struct {
	MaxPayloadBytes int
	MaxSchemaBytes  int
	MaxDepth        int
	MaxNodes        int
	MaxRows         int
	MaxColumns      int
	MaxFieldChars   int
	MaxErrors       int
}

// DefaultLimits are the wire-compatible limits.
var DefaultLimits = Limits{
	MaxPayloadBytes: 65536, MaxSchemaBytes: 32768, MaxDepth: 64, MaxNodes: 10000,
	MaxRows: 1000, MaxColumns: 100, MaxFieldChars: 8192, MaxErrors: 50,
}

// Codes for numbers a schema validator cannot handle cheaply.
const CodeNumberRange = "number_out_of_range"

// MaxMessageChars bounds finding messages.
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

// Details are the document's size: depth and nodes (JSON, YAML, XML) or rows
// and columns (CSV). Zero when the payload did not parse.
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

// Argument errors: the call itself is wrong, not the payload.
var (
	ErrDialectRequired = errors.New("csv_dialect is required when format_name is csv")
	ErrSchemaNotJSON   = errors.New("schema_json applies to JSON payloads only")
	ErrUnknownFormat   = errors.New("format_name must be json, yaml, xml or csv")
	ErrUnknownDialect  = errors.New("csv_dialect must be comma, semicolon, tab or pipe")
)

// SHA256Hex is the lowercase hex SHA-256 of s's UTF-8 bytes.
func SHA256Hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// Validate checks a payload. Limits, syntax errors, refused constructs and
// schema violations are findings in Result (valid:false); the returned error is
// one of the Err* argument errors above or ctx.Err().
func Validate(ctx context.Context, req Request, lim Limits) (Result, error) {
	res := Result{Format: req.Format, PayloadHash: SHA256Hex(req.Payload), Errors: []Finding{}, Warnings: []Warning{}}
	var delim rune
	switch req.Format {
	case "json", "yaml", "xml":
	case "csv":
		if req.Dialect == nil {
			return Result{}, ErrDialectRequired
		}
		d, ok := Dialects[*req.Dialect]
		if !ok {
			return Result{}, ErrUnknownDialect
		}
		delim = d
	default:
		return Result{}, ErrUnknownFormat
	}
	if req.Schema != nil {
		if req.Format != "json" {
			return Result{}, ErrSchemaNotJSON
		}
		res.SchemaHash = ptr(SHA256Hex(*req.Schema))
	}
	zero := 0
	if req.Format == "csv" {
		res.Details = Details{Rows: &zero, Columns: &zero}
	} else {
		res.Details = Details{Depth: &zero, Nodes: &zero}
	}
	add := func(f *Finding) {
		if len(res.Errors) < lim.MaxErrors {
			if len(f.Message) > MaxMessageChars {
				f.Message = truncateRunes(f.Message, MaxMessageChars)
			}
			res.Errors = append(res.Errors, *f)
		}
	}
	if len(req.Payload) > lim.MaxPayloadBytes {
		add(&Finding{Code: CodePayloadTooLarge, Message: fmt.Sprintf("payload is %d UTF-8 bytes; the limit is %d", len(req.Payload), lim.MaxPayloadBytes)})
		if req.Schema != nil && len(*req.Schema) > lim.MaxSchemaBytes {
			add(schemaTooLarge(*req.Schema, lim))
		}
		return res, nil
	}
	switch req.Format {
	case "json":
		if err := validateJSONPayload(ctx, req, lim, &res, add); err != nil {
			return Result{}, err
		}
	case "yaml", "xml":
		var st Stats
		var f *Finding
		var err error
		if req.Format == "yaml" {
			st, f, err = validateYAML(ctx, req.Payload, lim)
		} else {
			st, f, err = validateXML(ctx, req.Payload, lim)
		}
		if err != nil {
			return Result{}, err
		}
		if f != nil {
			add(f)
		} else {
			res.Details = Details{Depth: ptr(st.Depth), Nodes: ptr(st.Nodes)}
		}
	case "csv":
		st, f, err := validateCSV(ctx, req.Payload, delim, lim)
		if err != nil {
			return Result{}, err
		}
		if f != nil {
			add(f)
		} else {
			res.Details = Details{Rows: ptr(st.Rows), Columns: ptr(st.Columns)}
			if st.FormulaFields > 0 {
				res.Warnings = append(res.Warnings, Warning{Code: "csv_formula_prefix", Count: st.FormulaFields})
			}
		}
	}
	res.Valid = len(res.Errors) == 0
	return res, nil
}

func truncateRunes(s string, n int) string {
	i := 0
	for pos := range s {
		if i == n {
			return s[:pos]
		}
		i++
	}
	return s
}

func schemaTooLarge(s string, lim Limits) *Finding {
	return &Finding{Code: CodeSchemaTooLarge, Message: fmt.Sprintf("schema_json is %d UTF-8 bytes; the limit is %d", len(s), lim.MaxSchemaBytes)}
}

func validateJSONPayload(ctx context.Context, req Request, lim Limits, res *Result, add func(*Finding)) error {
	build := req.Schema != nil
	doc, st, f := ParseJSON(req.Payload, JSONOptions{MaxDepth: lim.MaxDepth, MaxNodes: lim.MaxNodes, Build: build})
	if f != nil {
		add(f)
	} else {
		res.Details = Details{Depth: ptr(st.Depth), Nodes: ptr(st.Nodes)}
	}
	if req.Schema == nil {
		return nil
	}
	sch, sf := compileCached(*req.Schema, *res.SchemaHash, lim)
	if sf != nil {
		add(sf)
		return nil
	}
	if f != nil {
		return nil
	}
	if nf := checkNumbers(doc, ""); nf != nil {
		add(nf)
		return nil
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	verr, perr := validateGuarded(sch, toGeneric(doc))
	if perr != nil {
		return perr
	}
	if verr == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(verr, &ve) {
		add(&Finding{Code: CodeSchemaViolation, Message: "the payload does not satisfy the schema"})
		return nil
	}
	for _, leaf := range leaves(ve, nil) {
		add(&Finding{Code: CodeSchemaViolation, Message: violationMessage(leaf.ErrorKind), Path: ptr(pointerOf(leaf.InstanceLocation))})
	}
	return nil
}

// leaves collects the most specific errors of a validation error tree, in
// order.
func leaves(e *jsonschema.ValidationError, out []*jsonschema.ValidationError) []*jsonschema.ValidationError {
	if len(e.Causes) == 0 {
		return append(out, e)
	}
	for _, c := range e.Causes {
		out = leaves(c, out)
	}
	return out
}

func pointerOf(loc []string) string {
	var b strings.Builder
	for _, t := range loc {
		b.WriteByte('/')
		b.WriteString(EscapePointer(t))
	}
	return b.String()
}

// violationMessage describes a failed keyword without quoting the payload or
// the schema's values (both are redacted inputs).
func violationMessage(k jsonschema.ErrorKind) string {
	switch x := k.(type) {
	case *kind.Type:
		return "type: got " + x.Got + ", want " + strings.Join(x.Want, " or ")
	case *kind.Required:
		return "required: " + strconv.Itoa(len(x.Missing)) + " required propert" + plural(len(x.Missing), "y", "ies") + " missing"
	case *kind.AdditionalProperties:
		return "additionalProperties: " + strconv.Itoa(len(x.Properties)) + " propert" + plural(len(x.Properties), "y", "ies") + " not allowed"
	case *kind.Enum:
		return "enum: value is not one of the allowed values"
	case *kind.Const:
		return "const: value is not the required constant"
	case *kind.MinLength:
		return fmt.Sprintf("minLength: length %d is less than %d", x.Got, x.Want)
	case *kind.MaxLength:
		return fmt.Sprintf("maxLength: length %d is greater than %d", x.Got, x.Want)
	case *kind.MinItems:
		return fmt.Sprintf("minItems: %d items, at least %d required", x.Got, x.Want)
	case *kind.MaxItems:
		return fmt.Sprintf("maxItems: %d items, at most %d allowed", x.Got, x.Want)
	case *kind.MinProperties:
		return fmt.Sprintf("minProperties: %d properties, at least %d required", x.Got, x.Want)
	case *kind.MaxProperties:
		return fmt.Sprintf("maxProperties: %d properties, at most %d allowed", x.Got, x.Want)
	case *kind.FalseSchema:
		return "false schema: no value is allowed here"
	}
	kw := k.KeywordPath()
	if len(kw) == 0 {
		return "value does not satisfy the schema"
	}
	return kw[len(kw)-1] + ": value does not satisfy this keyword"
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// refKeywords are refused anywhere in a schema: they are the only way a schema
// reaches another document, and we resolve nothing.
var refKeywords = map[string]bool{"$ref": true, "$dynamicRef": true, "$recursiveRef": true}

const draft2020 = "https://json-schema.org/draft/2020-12/schema"

// CompileSchema parses and compiles a JSON Schema 2020-12 document once.
// Findings: schema_too_large, schema_syntax, schema_ref_refused (any $ref,
// $dynamicRef or $recursiveRef key, at any depth), number_out_of_range,
// schema_invalid (not a 2020-12 schema, another $schema, a bad regex).
func CompileSchema(text string, lim Limits) (*jsonschema.Schema, *Finding) {
	if len(text) > lim.MaxSchemaBytes {
		return nil, schemaTooLarge(text, lim)
	}
	doc, _, f := ParseJSON(text, JSONOptions{MaxDepth: lim.MaxDepth, MaxNodes: lim.MaxNodes, Build: true})
	if f != nil {
		f.Code = CodeSchemaSyntax
		f.Message = "schema_json: " + f.Message
		f.Path = nil
		return nil, f
	}
	if p, ok := findRef(doc, ""); ok {
		return nil, &Finding{Code: CodeSchemaRefRefused, Message: "schema_json: $ref, $dynamicRef and $recursiveRef are refused (nothing is resolved)", Path: ptr(p)}
	}
	if nf := checkNumbers(doc, ""); nf != nil {
		nf.Message = "schema_json: " + nf.Message
		return nil, nf
	}
	if o, ok := doc.(*Object); ok {
		if s, ok := o.Get("$schema"); ok && s != draft2020 {
			return nil, &Finding{Code: CodeSchemaInvalid, Message: "schema_json: only JSON Schema draft 2020-12 is supported ($schema must be absent or " + draft2020 + ")", Path: ptr("/$schema")}
		}
	} else if _, ok := doc.(bool); !ok {
		return nil, &Finding{Code: CodeSchemaInvalid, Message: "schema_json: a schema is an object or a boolean"}
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(refuseLoader{})
	const loc = "urn:precisiond:schema_json"
	if err := c.AddResource(loc, toGeneric(doc)); err != nil {
		return nil, &Finding{Code: CodeSchemaInvalid, Message: "schema_json is not a valid JSON Schema 2020-12 document"}
	}
	sch, err := compileGuarded(c, loc)
	if err != nil {
		return nil, &Finding{Code: CodeSchemaInvalid, Message: "schema_json is not a valid JSON Schema 2020-12 document"}
	}
	return sch, nil
}

func compileGuarded(c *jsonschema.Compiler, loc string) (s *jsonschema.Schema, err error) {
	defer func() {
		if r := recover(); r != nil {
			s, err = nil, fmt.Errorf("schema compiler failed")
		}
	}()
	return c.Compile(loc)
}

// schemaCache keeps recently compiled schemas by the SHA-256 of their text, so
// that callers validating many payloads against one schema compile it once. A
// compiled schema is read-only and safe for concurrent use; the cache changes no
// answer, only the time to it.
var schemaCache = struct {
	sync.Mutex
	byHash map[string]*jsonschema.Schema
	order  []string
}{byHash: map[string]*jsonschema.Schema{}}

const schemaCacheSize = 128

func compileCached(text, hash string, lim Limits) (*jsonschema.Schema, *Finding) {
	if lim != DefaultLimits {
		return CompileSchema(text, lim)
	}
	schemaCache.Lock()
	sch, ok := schemaCache.byHash[hash]
	schemaCache.Unlock()
	if ok {
		return sch, nil
	}
	sch, f := CompileSchema(text, lim)
	if f != nil {
		return nil, f
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

// validateGuarded runs the schema validator; a panic in it is a bug reported as
// an error (internal), never a crash.
func validateGuarded(sch *jsonschema.Schema, v any) (verr, perr error) {
	defer func() {
		if r := recover(); r != nil {
			verr, perr = nil, fmt.Errorf("schema validator failed: %v", r)
		}
	}()
	return sch.Validate(v), nil
}

type refuseLoader struct{}

func (refuseLoader) Load(url string) (any, error) {
	return nil, errors.New("loading schemas is disabled")
}

func findRef(v any, path string) (string, bool) {
	switch x := v.(type) {
	case *Object:
		for i, k := range x.Keys {
			p := path + "/" + EscapePointer(k)
			if refKeywords[k] {
				return p, true
			}
			if r, ok := findRef(x.Values[i], p); ok {
				return r, true
			}
		}
	case []any:
		for i, e := range x {
			if r, ok := findRef(e, path+"/"+strconv.Itoa(i)); ok {
				return r, true
			}
		}
	}
	return "", false
}

// checkNumbers refuses numbers that would make a schema validator's exact
// arithmetic expensive: exponents beyond ±400, integers over 4300 digits.
func checkNumbers(v any, path string) *Finding {
	switch x := v.(type) {
	case Number:
		s := string(x)
		bad := false
		if i := strings.IndexAny(s, "eE"); i >= 0 {
			e, err := strconv.Atoi(s[i+1:])
			bad = err != nil || e > 400 || e < -400
		} else if x.IsInt() {
			bad = len(strings.TrimPrefix(s, "-")) > 4300
		}
		if bad {
			return &Finding{Code: CodeNumberRange, Message: "a number has an exponent beyond ±400 or more than 4300 digits", Path: ptr(path)}
		}
	case *Object:
		for i, k := range x.Keys {
			if f := checkNumbers(x.Values[i], path+"/"+EscapePointer(k)); f != nil {
				return f
			}
		}
	case []any:
		for i, e := range x {
			if f := checkNumbers(e, path+"/"+strconv.Itoa(i)); f != nil {
				return f
			}
		}
	}
	return nil
}

// toGeneric converts the ordered model to the plain values jsonschema reads.
func toGeneric(v any) any {
	switch x := v.(type) {
	case Number:
		return json.Number(x)
	case *Object:
		m := make(map[string]any, x.Len())
		for i, k := range x.Keys {
			m[k] = toGeneric(x.Values[i])
		}
		return m
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = toGeneric(e)
		}
		return out
	}
	return v
}
