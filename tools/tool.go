package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/big"

	"github.com/precisiond/precisiond/contracts"
	"github.com/precisiond/precisiond/evidence"
)

// Tool is one registered capability: a contract (data) plus functions of the
// normalized, schema-valid arguments. It is a value: a wrapper (isolation in a
// worker process, a test's fake) copies it and replaces the one function it
// changes, so everything else a tool declares reaches every surface unchanged.
// Describing a tool has no side effects.
type Tool struct {
	// Contract is the tool's contract; the registry never mutates it.
	Contract *contracts.Contract
	// Execute runs the tool on normalized arguments (schema defaults applied,
	// input validated, Canonicalize applied). It returns the facts, the legacy
	// `result` text and warnings.
	Execute func(ctx context.Context, args map[string]any) (Output, error)
	// Render, when set, re-renders the legacy result text of a call from its
	// envelope's input_normalized and facts without running the tool (the
	// text is a pure function of both). Nil: the text cannot be re-rendered.
	Render func(input, facts map[string]any) (string, error)
	// Canonicalize, when set, rewrites validated arguments in place to the
	// one spelling of what they name before they run and are hashed as
	// input_normalized (Def.Canonical). It runs in the calling process, before
	// a call is sent to a worker.
	Canonicalize func(args map[string]any)
	// ArgHints names, by argument, the values probably meant when a string
	// argument fails the input schema (Def.ArgHints). Nil: none.
	ArgHints map[string]func(value string) []string
	// IsolateWhen, when set, limits process isolation (Isolated) to the calls
	// whose normalized arguments satisfy it; the others run in process. A
	// tool whose cheap calls are provably bounded in process keeps them fast.
	// Nil: every call of an isolated tool runs in a worker.
	IsolateWhen func(args map[string]any) bool
}

// Name is the tool's name (its contract's).
func (t Tool) Name() string { return t.Contract.Tool }

// Output is what a tool produced for one call, before the envelope is built.
type Output struct {
	Facts    map[string]any // generic JSON
	Text     string         // legacy `result` text
	Warnings []evidence.Warning
}

// Warning is one entry of an envelope's warnings list.
type Warning = evidence.Warning

// Func is the typed body of a tool: a pure function of its decoded input.
type Func[In, Out any] func(ctx context.Context, in In) (Out, []Warning, error)

// Def describes a typed tool for Define.
type Def[In, Out any] struct {
	// Name is the tool name; its contract is contracts/defs/<Name>.json.
	Name string
	// Run computes the facts.
	Run Func[In, Out]
	// Legacy renders the legacy `result` text. Nil means canonical(facts), as the
	// reference does for its structured tools.
	Legacy func(in In, out Out) string
	// ArgHints names, by argument, the values probably meant when a string
	// argument fails the input schema (did-you-mean hints for a form the
	// schema refuses, e.g. the zone "+05:30" for "UTC+0530"). Nil: none.
	ArgHints map[string]func(value string) []string
	// Canonical, when set, rewrites validated arguments in place to the one
	// spelling of what they name (a zone id in another case becomes the id);
	// the envelope's input_normalized is the rewritten arguments. It must leave
	// every spelling the reference sidecar answers as it is, and any value it
	// cannot resolve, for Run to refuse.
	Canonical func(args map[string]any)
	// IsolateWhen, when set, limits process isolation to the calls whose
	// normalized arguments satisfy it (Tool.IsolateWhen).
	IsolateWhen func(args map[string]any) bool
}

// Define turns a typed function into a Tool. Input is decoded strictly from the
// normalized arguments (unknown fields rejected, numbers kept as json.Number until
// decoded into the field's type); facts are the JSON encoding of Out. Use
// evidence.Float for float fields so that they keep Python's float form, and
// pointers for nullable fields. It panics when the contract cannot be loaded, so
// a broken contract is found at start-up, not at call time.
func Define[In, Out any](d Def[In, Out]) Tool {
	c := contracts.MustLoad(d.Name)
	t := &definedTool[In, Out]{def: d, contract: c}
	return Tool{Contract: c, Execute: t.Execute, Render: t.Render, Canonicalize: d.Canonical,
		ArgHints: d.ArgHints, IsolateWhen: d.IsolateWhen}
}

// definedTool holds what the functions of a Define'd Tool share.
type definedTool[In, Out any] struct {
	def      Def[In, Out]
	contract *contracts.Contract
}

func (t *definedTool[In, Out]) Execute(ctx context.Context, args map[string]any) (Output, error) {
	in, err := decodeInput[In](args)
	if err != nil {
		// The schema accepted these arguments, so a decoding failure means the
		// Go type and the schema disagree: a bug, not bad input.
		return Output{}, fmt.Errorf("%s: decoding validated arguments: %w", t.def.Name, err)
	}
	out, warnings, err := t.def.Run(ctx, in)
	if err != nil {
		return Output{}, err
	}
	if warnings == nil {
		warnings = []Warning{}
	}
	facts, err := evidence.ToGeneric(out)
	if err != nil {
		return Output{}, fmt.Errorf("%s: encoding facts: %w", t.def.Name, err)
	}
	obj, ok := facts.(map[string]any)
	if !ok {
		return Output{}, fmt.Errorf("%s: facts are %T, not an object", t.def.Name, facts)
	}
	text, err := t.legacy(in, out, obj)
	if err != nil {
		return Output{}, err
	}
	return Output{Facts: obj, Text: text, Warnings: warnings}, nil
}

// legacy renders the legacy result text: Def.Legacy, or canonical(facts).
func (t *definedTool[In, Out]) legacy(in In, out Out, facts map[string]any) (string, error) {
	if t.def.Legacy != nil {
		return t.def.Legacy(in, out), nil
	}
	b, err := evidence.Canonical(facts)
	if err != nil {
		return "", fmt.Errorf("%s: canonical facts: %w", t.def.Name, err)
	}
	return string(b), nil
}

// Render re-renders the legacy result text of a call from its envelope's
// input_normalized and facts, without running the tool: the text is a pure
// function of both. Fields the evidence policy redacts are decoded as their
// zero value; no Legacy function reads them (TestRenderMatchesExecute checks
// every example).
func (t *definedTool[In, Out]) Render(input, facts map[string]any) (string, error) {
	args := make(map[string]any, len(input))
	for k, v := range input {
		args[k] = v
	}
	for _, f := range t.contract.RedactFields() {
		delete(args, f)
	}
	in, err := decodeInput[In](args)
	if err != nil {
		return "", fmt.Errorf("input_normalized does not decode as %s's input: %w", t.def.Name, err)
	}
	out, err := decodeStrict[Out](facts)
	if err != nil {
		return "", fmt.Errorf("facts do not decode as %s's facts: %w", t.def.Name, err)
	}
	return t.legacy(in, out, facts)
}

// decodeInput decodes normalized arguments into In. JSON Schema calls 2.0 an
// integer; Go's decoders do not: a failure is retried with integral floats
// written as integers.
func decodeInput[In any](args map[string]any) (In, error) {
	in, err := decodeStrict[In](args)
	if err != nil {
		if in2, err2 := decodeStrict[In](integralFloatsAsInts(args).(map[string]any)); err2 == nil {
			return in2, nil
		}
	}
	return in, err
}

func decodeStrict[In any](args map[string]any) (In, error) {
	var in In
	buf := evidence.GetBuffer()
	defer evidence.PutBuffer(buf)
	raw, ok := appendArgs((*buf)[:0], args)
	if !ok {
		// A value the fast writer does not know (not from a JSON decoder).
		var err error
		if raw, err = json.Marshal(args); err != nil {
			return in, err
		}
	} else {
		*buf = raw
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	dec.DisallowUnknownFields()
	err := dec.Decode(&in)
	return in, err
}

// appendArgs writes generic JSON arguments (what a JSON decoder with UseNumber
// produces) as JSON for the strict typed decoder, without json.Marshal's
// reflection and key sorting: numbers are copied as written, strings escaped as
// canonical JSON does (valid JSON). It reports false for any other value type.
func appendArgs(b []byte, v any) ([]byte, bool) {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...), true
	case bool:
		if x {
			return append(b, "true"...), true
		}
		return append(b, "false"...), true
	case json.Number:
		if x == "" {
			return b, false
		}
		return append(b, x...), true
	case string:
		return evidence.AppendString(b, x), true
	case map[string]any:
		b = append(b, '{')
		first := true
		for k, e := range x {
			if !first {
				b = append(b, ',')
			}
			first = false
			b = append(evidence.AppendString(b, k), ':')
			var ok bool
			if b, ok = appendArgs(b, e); !ok {
				return b, false
			}
		}
		return append(b, '}'), true
	case []any:
		b = append(b, '[')
		for i, e := range x {
			if i > 0 {
				b = append(b, ',')
			}
			var ok bool
			if b, ok = appendArgs(b, e); !ok {
				return b, false
			}
		}
		return append(b, ']'), true
	}
	return b, false
}

// integralFloatsAsInts rewrites float literals with an integral value (2.0, 1e3)
// as integer literals. Exponents are already bounded by evidence.CheckNumbers.
func integralFloatsAsInts(v any) any {
	return contracts.CopyJSON(v, func(leaf any) any {
		if x, ok := leaf.(json.Number); ok && evidence.IsFloatLiteral(string(x)) {
			if r, ok := new(big.Rat).SetString(string(x)); ok && r.IsInt() {
				return json.Number(r.Num().String())
			}
		}
		return leaf
	})
}
