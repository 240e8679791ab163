// Package contracts holds the versioned tool contracts: the model, the JSON
// files embedded in the binary, JSON Schema compilation, default application and
// validation with JSON Pointer error details.
package contracts

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

//go:embed defs/*.json
var defsFS embed.FS

// Contract is one tool's versioned contract. Schema and policy fields are generic
// JSON values (numbers as json.Number) exactly as stored, so that what is hashed is
// what is served.
type Contract struct {
	Tool                string         `json:"tool"`
	ContractID          string         `json:"contract_id"`
	ContractVersion     string         `json:"contract_version"`
	Title               string         `json:"title"`
	Summary             string         `json:"summary"` // one line for GET /v1/catalog (groups.go); not hashed
	Group               string         `json:"group"`   // catalogue group (groups.go); not hashed
	Description         string         `json:"description"`
	Determinism         string         `json:"determinism"`
	SourcePolicy        map[string]any `json:"source_policy"`
	AccessKind          string         `json:"access_kind"`
	Annotations         map[string]any `json:"annotations"`
	NormalizationPolicy map[string]any `json:"normalization_policy"`
	RetryPolicy         map[string]any `json:"retry_policy"`
	CachePolicy         map[string]any `json:"cache_policy"`
	EvidencePolicy      map[string]any `json:"evidence_policy"`
	Limits              map[string]any `json:"limits"`
	InputSchema         map[string]any `json:"inputSchema"`
	OutputSchema        map[string]any `json:"outputSchema"`
	Examples            []Example      `json:"examples"`

	input, output *jsonschema.Schema
	// inCheck and outCheck answer "valid" for the common instance before
	// the library is asked (precheck.go); nil for a schema with a keyword
	// they do not know.
	inCheck, outCheck *precheck
	inputValues       int64           // capacity(InputSchema)
	windowed          map[string]bool // top-level properties whose arrays validate in windows
}

// Example is one documented call with its exact expected facts.
type Example struct {
	Title string         `json:"title"`
	Args  map[string]any `json:"args"`
	Facts map[string]any `json:"facts"`
}

var toolName = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)
var semver = regexp.MustCompile(`^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$`)

var (
	cacheMu sync.Mutex
	cache   = map[string]*Contract{}
)

// Load returns the embedded contract of the named tool, parsed, checked and with
// its schemas compiled. Contracts are immutable and shared: Load returns the same
// pointer on every call.
func Load(name string) (*Contract, error) {
	cacheMu.Lock()
	defer cacheMu.Unlock()
	if c, ok := cache[name]; ok {
		return c, nil
	}
	if !toolName.MatchString(name) {
		return nil, fmt.Errorf("contracts: invalid tool name %q", name)
	}
	data, err := defsFS.ReadFile("defs/" + name + ".json")
	if err != nil {
		return nil, fmt.Errorf("contracts: no contract for %q: %w", name, err)
	}
	c, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("contracts: %s: %w", name, err)
	}
	if c.Tool != name {
		return nil, fmt.Errorf("contracts: file %s.json declares tool %q", name, c.Tool)
	}
	cache[name] = c
	return c, nil
}

// MustLoad is Load for start-up code: it panics on a missing or malformed contract.
func MustLoad(name string) *Contract {
	c, err := Load(name)
	if err != nil {
		panic(err)
	}
	return c
}

// Names lists the tools that have an embedded contract, sorted.
func Names() []string {
	entries, _ := defsFS.ReadDir("defs")
	var names []string
	for _, e := range entries {
		n := e.Name()
		if len(n) > 5 && n[len(n)-5:] == ".json" {
			names = append(names, n[:len(n)-5])
		}
	}
	sort.Strings(names)
	return names
}

// Parse reads a contract document, fills in the constant policies and contract id,
// checks its shape and compiles its schemas.
func Parse(data []byte) (*Contract, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	dec.DisallowUnknownFields()
	var c Contract
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("decoding: %w", err)
	}
	if !toolName.MatchString(c.Tool) {
		return nil, fmt.Errorf("invalid tool name %q", c.Tool)
	}
	if c.ContractID == "" {
		c.ContractID = "precisiond." + c.Tool
	}
	if c.ContractID != "precisiond."+c.Tool {
		return nil, fmt.Errorf("contract_id %q must be precisiond.%s", c.ContractID, c.Tool)
	}
	if !semver.MatchString(c.ContractVersion) {
		return nil, fmt.Errorf("contract_version %q is not semver", c.ContractVersion)
	}
	switch c.Determinism {
	case "input_only", "source_versioned", "library_pinned":
	default:
		return nil, fmt.Errorf("unknown determinism %q", c.Determinism)
	}
	switch c.AccessKind {
	case "read", "write":
	default:
		return nil, fmt.Errorf("unknown access_kind %q", c.AccessKind)
	}
	if c.Title == "" || c.Description == "" {
		return nil, fmt.Errorf("title and description are required")
	}
	if err := checkSummary(&c); err != nil {
		return nil, err
	}
	if s, _ := c.SourcePolicy["kind"].(string); s == "" {
		return nil, fmt.Errorf("source_policy.kind is required")
	}
	if s, _ := c.SourcePolicy["name"].(string); s == "" {
		return nil, fmt.Errorf("source_policy.name is required")
	}
	if c.NormalizationPolicy == nil {
		c.NormalizationPolicy = map[string]any{"apply_schema_defaults": true, "reject_unknown_properties": true}
	}
	if c.RetryPolicy == nil {
		c.RetryPolicy = map[string]any{"max_attempts": json.Number("1"), "argument_mutation": false}
	}
	if c.CachePolicy == nil {
		c.CachePolicy = map[string]any{"mode": "bypass"}
	}
	if c.EvidencePolicy == nil {
		c.EvidencePolicy = map[string]any{}
	}
	if c.Limits == nil {
		c.Limits = map[string]any{}
	}
	if _, ok := c.Limits["max_result_chars"]; !ok {
		c.Limits["max_result_chars"] = json.Number("65536")
	}
	if c.Annotations == nil {
		c.Annotations = map[string]any{}
	}
	defaults := map[string]any{
		"title":           c.Title,
		"readOnlyHint":    c.AccessKind == "read",
		"idempotentHint":  true,
		"destructiveHint": false,
		"openWorldHint":   false,
	}
	for k, v := range defaults {
		if _, ok := c.Annotations[k]; !ok {
			c.Annotations[k] = v
		}
	}
	if err := checkSchemaShape("inputSchema", c.InputSchema); err != nil {
		return nil, err
	}
	if err := checkSchemaShape("outputSchema", c.OutputSchema); err != nil {
		return nil, err
	}
	for _, f := range c.RedactFields() {
		props, _ := c.InputSchema["properties"].(map[string]any)
		if _, ok := props[f]; !ok {
			return nil, fmt.Errorf("evidence_policy redacts unknown field %q", f)
		}
	}
	c.inputValues = capacity(c.InputSchema)
	c.windowed = map[string]bool{}
	if props, ok := c.InputSchema["properties"].(map[string]any); ok && windowable(c.InputSchema["$defs"]) {
		for name, p := range props {
			c.windowed[name] = windowable(p)
		}
	}
	var err error
	if c.input, err = compile(c.Tool+"/input", c.InputSchema); err != nil {
		return nil, fmt.Errorf("inputSchema: %w", err)
	}
	if c.output, err = compile(c.Tool+"/output", c.OutputSchema); err != nil {
		return nil, fmt.Errorf("outputSchema: %w", err)
	}
	c.inCheck, c.outCheck = compilePrecheck(c.InputSchema), compilePrecheck(c.OutputSchema)
	if len(c.Examples) < 2 {
		return nil, fmt.Errorf("at least two examples are required, found %d", len(c.Examples))
	}
	for i, ex := range c.Examples {
		if ex.Title == "" || ex.Args == nil || ex.Facts == nil {
			return nil, fmt.Errorf("example %d needs title, args and facts", i)
		}
		args := c.ApplyDefaults(ex.Args)
		if err := c.ValidateInput(args); err != nil {
			return nil, fmt.Errorf("example %d (%s): args: %v", i, ex.Title, err)
		}
		if err := c.ValidateOutput(ex.Facts); err != nil {
			return nil, fmt.Errorf("example %d (%s): facts: %v", i, ex.Title, err)
		}
	}
	return &c, nil
}

// checkSchemaShape enforces the shape every contract schema has (README, Tools):
// object-rooted, closed, every property documented.
func checkSchemaShape(which string, s map[string]any) error {
	if s == nil {
		return fmt.Errorf("%s is required", which)
	}
	if s["type"] != "object" {
		return fmt.Errorf("%s must have type object", which)
	}
	if s["additionalProperties"] != false {
		return fmt.Errorf("%s must set additionalProperties false", which)
	}
	props, _ := s["properties"].(map[string]any)
	for name, p := range props {
		pm, _ := p.(map[string]any)
		if d, _ := pm["description"].(string); d == "" {
			return fmt.Errorf("%s property %q has no description", which, name)
		}
	}
	return nil
}

func compile(url string, schema map[string]any) (*jsonschema.Schema, error) {
	comp := jsonschema.NewCompiler()
	comp.DefaultDraft(jsonschema.Draft2020)
	comp.UseLoader(refuseLoader{})
	loc := "mem://precisiond/" + url + ".json"
	if err := comp.AddResource(loc, schema); err != nil {
		return nil, err
	}
	return comp.Compile(loc)
}

// refuseLoader makes sure no contract schema ever loads anything from outside.
type refuseLoader struct{}

func (refuseLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("loading %s refused: contract schemas are self-contained", url)
}

// RedactFields lists evidence_policy.redact_input_fields.
func (c *Contract) RedactFields() []string {
	raw, _ := c.EvidencePolicy["redact_input_fields"].([]any)
	out := make([]string, 0, len(raw))
	for _, f := range raw {
		if s, ok := f.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// ApplyDefaults returns a copy of args with the inputSchema's property defaults
// filled in for absent properties (recursively into object properties present).
func (c *Contract) ApplyDefaults(args map[string]any) map[string]any {
	return applyDefaults(c.InputSchema, args)
}

func applyDefaults(schema map[string]any, obj map[string]any) map[string]any {
	out := make(map[string]any, len(obj)+4)
	for k, v := range obj {
		out[k] = v
	}
	props, _ := schema["properties"].(map[string]any)
	for name, p := range props {
		ps, _ := p.(map[string]any)
		if ps == nil {
			continue
		}
		v, present := out[name]
		if !present {
			if d, ok := ps["default"]; ok {
				out[name] = deepCopy(d)
			}
			continue
		}
		if sub, ok := v.(map[string]any); ok && ps["properties"] != nil {
			out[name] = applyDefaults(ps, sub)
		}
	}
	return out
}

func deepCopy(v any) any { return CopyJSON(v, nil) }

// CopyJSON returns a copy of a generic JSON value that shares no map or slice
// with it, every other value (a leaf) replaced by leaf(value); a nil leaf
// keeps the leaves.
func CopyJSON(v any, leaf func(any) any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = CopyJSON(e, leaf)
		}
		return m
	case []any:
		s := make([]any, len(x))
		for i, e := range x {
			s[i] = CopyJSON(e, leaf)
		}
		return s
	}
	if leaf == nil {
		return v
	}
	return leaf(v)
}

// ValidateInput checks normalized arguments against the inputSchema. It returns a
// *ValidationError with the failures (at most MaxDetails), or nil.
//
// Arguments with far more JSON values than the schema's limits allow at all
// (maxItems, closed objects; more than valueSlack over) are refused with one
// detail before the schema is evaluated, so that the cost of an invalid input
// is bounded by what the contract accepts, not by its size. A smaller excess
// gets the schema's own details. Long arrays are first validated window by
// window (validateInWindows), so that an error is never built for each
// element of a long invalid array; their details then come from the first
// failing window. Arguments the contract's precheck finds valid need neither
// (precheck.go).
func (c *Contract) ValidateInput(args map[string]any) error {
	if limit := add(c.inputValues, valueSlack); countValues(args, limit) > limit {
		return tooManyValues(c.inputValues)
	}
	if c.inCheck != nil && c.inCheck.check(args) == valid {
		return nil
	}
	if err := c.validateInWindows(args); err != nil {
		return err
	}
	return validate(c.input, c.InputSchema, args)
}

// ValidateOutput checks facts against the outputSchema. It returns a
// *ValidationError with the failures (at most MaxDetails), or nil. Facts the
// contract's precheck finds valid are answered at once (precheck.go).
func (c *Contract) ValidateOutput(facts map[string]any) error {
	if c.outCheck != nil && c.outCheck.check(facts) == valid {
		return nil
	}
	return validate(c.output, c.OutputSchema, facts)
}

// validate checks v against s (compiled from raw, which hints are read from;
// raw may be nil).
func validate(s *jsonschema.Schema, raw map[string]any, v map[string]any) error {
	err := s.Validate(any(v))
	if err == nil {
		return nil
	}
	ve, ok := err.(*jsonschema.ValidationError)
	if !ok {
		return &ValidationError{Details: []Detail{{Path: "", Keyword: "schema", Message: err.Error()}}}
	}
	return newValidationError(ve, raw, v)
}

// MaxDetails bounds the details of a ValidationError: the first MaxDetails in
// the reference's order are kept, so that a large invalid input cannot make an
// error answer larger than a few kilobytes.
const MaxDetails = 50

func pointer(tokens []string) string {
	var b bytes.Buffer
	for _, t := range tokens {
		b.WriteByte('/')
		for _, r := range t {
			switch r {
			case '~':
				b.WriteString("~0")
			case '/':
				b.WriteString("~1")
			default:
				b.WriteRune(r)
			}
		}
	}
	return b.String()
}

var printer = message.NewPrinter(language.English)

// ValidateAgainst compiles schema (draft 2020-12, nothing loaded from outside) and
// validates v against it. Used by verifiers that hold only a catalogue entry.
func ValidateAgainst(schema map[string]any, v map[string]any) error {
	s, err := compile("verify", schema)
	if err != nil {
		return fmt.Errorf("compiling schema: %w", err)
	}
	return validate(s, schema, v)
}
