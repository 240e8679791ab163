package evidence

import (
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"unicode/utf8"

	"github.com/precisiond/precisiond/contracts"
)

// Warning is one entry of an envelope's warnings list.
type Warning struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Source names what produced the facts: the contract's source_policy (its
// kind and name, plus the pinned version where the facts depend on one).
type Source struct {
	Kind    string `json:"kind"`
	Name    string `json:"name"`
	Version string `json:"version"`
	AsOf    any    `json:"as_of"`
}

// Envelope is the structured_result of a successful call.
type Envelope struct {
	Status          string         `json:"status"`
	Tool            string         `json:"tool"`
	ContractID      string         `json:"contract_id"`
	ContractVersion string         `json:"contract_version"`
	ContractHash    string         `json:"contract_hash"`
	InputNormalized map[string]any `json:"input_normalized"`
	// facts are the facts as generic JSON, read with Facts.
	facts       map[string]any
	Determinism string    `json:"determinism"`
	Source      Source    `json:"source"`
	Warnings    []Warning `json:"warnings"`
	ResultHash  string    `json:"result_hash"`

	// inputJSON and factsJSON are canonical(InputNormalized) and canonical(Facts()),
	// written once by Build for the result hash and reused by AppendCanonical.
	inputJSON, factsJSON []byte
}

// Facts returns the envelope's facts as generic JSON. Callers must not modify
// them.
func (e *Envelope) Facts() map[string]any { return e.facts }

// SetFacts sets the facts of an envelope rebuilt from its JSON (facts as
// generic JSON); envelopes made by Build have theirs.
func (e *Envelope) SetFacts(facts map[string]any) {
	e.facts, e.factsJSON = facts, nil
}

// MarshalJSON encodes the envelope as canonical JSON (Canonical); json.Marshal
// then escapes <, > and & as it does everywhere (an Encoder with
// SetEscapeHTML(false) keeps the canonical bytes).
func (e *Envelope) MarshalJSON() ([]byte, error) { return e.AppendCanonical(nil) }

// AppendCanonical appends canonical(e.Generic()) to b. An envelope made by Build
// reuses the canonical bytes of its input and facts computed for the result
// hash; callers must not modify an envelope's InputNormalized or Facts after
// Build.
func (e *Envelope) AppendCanonical(b []byte) ([]byte, error) {
	var err error
	// appendRaw appends the cached canonical bytes, or else canonical(v()).
	appendRaw := func(b, cached []byte, v func() map[string]any) []byte {
		if err != nil {
			return b
		}
		if cached != nil {
			return append(b, cached...)
		}
		b, err = AppendCanonical(b, v())
		return b
	}
	// One growth for the whole envelope: the cached parts, the strings and
	// the fixed frame (about 200 bytes of keys and punctuation).
	need := 256 + len(e.factsJSON) + len(e.inputJSON) + len(e.ContractHash) + len(e.ContractID) +
		len(e.ContractVersion) + len(e.Determinism) + len(e.ResultHash) + len(e.Source.Kind) +
		len(e.Source.Name) + len(e.Source.Version) + len(e.Status) + len(e.Tool)
	for _, w := range e.Warnings {
		need += 32 + len(w.Code) + len(w.Message)
	}
	b = slices.Grow(b, need)
	// Keys in code-point order, as canonical JSON sorts them.
	b = append(b, `{"contract_hash":`...)
	b = appendPyString(b, e.ContractHash)
	b = append(b, `,"contract_id":`...)
	b = appendPyString(b, e.ContractID)
	b = append(b, `,"contract_version":`...)
	b = appendPyString(b, e.ContractVersion)
	b = append(b, `,"determinism":`...)
	b = appendPyString(b, e.Determinism)
	b = append(b, `,"facts":`...)
	b = appendRaw(b, e.factsJSON, e.Facts)
	b = append(b, `,"input_normalized":`...)
	b = appendRaw(b, e.inputJSON, func() map[string]any { return e.InputNormalized })
	if err != nil {
		return nil, err
	}
	b = append(b, `,"result_hash":`...)
	b = appendPyString(b, e.ResultHash)
	b = append(b, `,"source":{"as_of":`...)
	if b, err = AppendCanonical(b, e.Source.AsOf); err != nil {
		return nil, err
	}
	b = append(b, `,"kind":`...)
	b = appendPyString(b, e.Source.Kind)
	b = append(b, `,"name":`...)
	b = appendPyString(b, e.Source.Name)
	b = append(b, `,"version":`...)
	b = appendPyString(b, e.Source.Version)
	b = append(b, `},"status":`...)
	b = appendPyString(b, e.Status)
	b = append(b, `,"tool":`...)
	b = appendPyString(b, e.Tool)
	b = append(b, `,"warnings":[`...)
	for i, w := range e.Warnings {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"code":`...)
		b = appendPyString(b, w.Code)
		b = append(b, `,"message":`...)
		b = appendPyString(b, w.Message)
		b = append(b, '}')
	}
	return append(b, "]}"...), nil
}

// InputBytes is the length of canonical(InputNormalized) in an envelope made by
// Build: the part of canonical(e) that echoes the call's arguments.
func (e *Envelope) InputBytes() int { return len(e.inputJSON) }

// InputChars is the number of Unicode code points in canonical(InputNormalized)
// in an envelope made by Build.
func (e *Envelope) InputChars() int { return utf8.RuneCount(e.inputJSON) }

// Generic returns the envelope as generic JSON values, ready for Canonical.
func (e *Envelope) Generic() map[string]any {
	warnings := make([]any, len(e.Warnings))
	for i, w := range e.Warnings {
		warnings[i] = map[string]any{"code": w.Code, "message": w.Message}
	}
	return map[string]any{
		"status":           e.Status,
		"tool":             e.Tool,
		"contract_id":      e.ContractID,
		"contract_version": e.ContractVersion,
		"contract_hash":    e.ContractHash,
		"input_normalized": e.InputNormalized,
		"facts":            e.Facts(),
		"determinism":      e.Determinism,
		"source": map[string]any{
			"kind": e.Source.Kind, "name": e.Source.Name,
			"version": e.Source.Version, "as_of": e.Source.AsOf,
		},
		"warnings":    warnings,
		"result_hash": e.ResultHash,
	}
}

// contractHashKeys are exactly the twelve keys of a catalogue entry hashed into
// contract_hash (README, The evidence envelope): a key outside them, such as
// description or examples, can change without changing the hash.
var contractHashKeys = []string{
	"tool", "contract_id", "contract_version", "determinism", "source_policy",
	"inputSchema", "outputSchema", "normalization_policy", "retry_policy",
	"cache_policy", "evidence_policy", "limits",
}

// ContractHash returns contract_hash of a contract.
func ContractHash(c *contracts.Contract) (string, error) {
	return Hash(map[string]any{
		"tool":                 c.Tool,
		"contract_id":          c.ContractID,
		"contract_version":     c.ContractVersion,
		"determinism":          c.Determinism,
		"source_policy":        c.SourcePolicy,
		"inputSchema":          c.InputSchema,
		"outputSchema":         c.OutputSchema,
		"normalization_policy": c.NormalizationPolicy,
		"retry_policy":         c.RetryPolicy,
		"cache_policy":         c.CachePolicy,
		"evidence_policy":      c.EvidencePolicy,
		"limits":               c.Limits,
	})
}

// EntryContractHash recomputes contract_hash from a catalogue entry (generic JSON),
// taking exactly the twelve hashed keys.
func EntryContractHash(entry map[string]any) (string, error) {
	sub := make(map[string]any, len(contractHashKeys))
	for _, k := range contractHashKeys {
		v, ok := entry[k]
		if !ok {
			return "", fmt.Errorf("catalogue entry has no %q", k)
		}
		sub[k] = v
	}
	return Hash(sub)
}

// ResultHash returns H({contract_hash, input_normalized, facts}).
func ResultHash(contractHash string, inputNormalized, facts map[string]any) (string, error) {
	return Hash(map[string]any{
		"contract_hash":    contractHash,
		"input_normalized": inputNormalized,
		"facts":            facts,
	})
}

// CatalogItem is one element of the list hashed into catalog_hash.
type CatalogItem struct {
	Name         string
	ContractHash string
	Enabled      bool
}

// CatalogHash returns H of the list of {name, contract_hash, enabled} in order.
func CatalogHash(items []CatalogItem) (string, error) {
	list := make([]any, len(items))
	for i, it := range items {
		list[i] = map[string]any{"name": it.Name, "contract_hash": it.ContractHash, "enabled": it.Enabled}
	}
	return Hash(list)
}

// Redact returns a copy of args in which every field named in the contract's
// evidence_policy.redact_input_fields that holds a string is replaced by
// {"sha256": hex, "utf8_bytes": N}.
func Redact(c *contracts.Contract, args map[string]any) map[string]any {
	fields := c.RedactFields()
	if len(fields) == 0 {
		return args
	}
	out := make(map[string]any, len(args))
	for k, v := range args {
		out[k] = v
	}
	for _, f := range fields {
		if s, ok := out[f].(string); ok {
			out[f] = RedactedValue(s)
		}
	}
	return out
}

// RedactedValue is the replacement of a redacted string field.
func RedactedValue(s string) map[string]any {
	return map[string]any{
		"sha256":     HashBytes([]byte(s)),
		"utf8_bytes": json.Number(fmt.Sprint(len(s))),
	}
}

// SourceFor returns the envelope source of a contract: kind and name from its
// source_policy, version from the policy's pinned version or else the Go toolchain
// that built the binary.
func SourceFor(c *contracts.Contract, asOf any) Source {
	kind, _ := c.SourcePolicy["kind"].(string)
	name, _ := c.SourcePolicy["name"].(string)
	version, _ := c.SourcePolicy["version"].(string)
	if version == "" {
		version = runtime.Version()
	}
	return Source{Kind: kind, Name: name, Version: version, AsOf: asOf}
}

// Build assembles the envelope of a successful call. normalized are the arguments
// after defaults (before redaction); facts have passed the outputSchema.
func Build(c *contracts.Contract, contractHash string, normalized, facts map[string]any, warnings []Warning) (*Envelope, error) {
	var asOf any
	if v, ok := facts["as_of"]; ok {
		asOf = v
	}
	input := Redact(c, normalized)
	// canonical({contract_hash, facts, input_normalized}) is written by hand so
	// that the canonical bytes of input and facts can be kept for the response.
	buf := GetBuffer()
	defer PutBuffer(buf)
	b := append((*buf)[:0], `{"contract_hash":`...)
	b = appendPyString(b, contractHash)
	b = append(b, `,"facts":`...)
	fStart := len(b)
	b, err := AppendCanonical(b, facts)
	if err != nil {
		return nil, err
	}
	fEnd := len(b)
	b = append(b, `,"input_normalized":`...)
	iStart := len(b)
	if b, err = AppendCanonical(b, input); err != nil {
		return nil, err
	}
	iEnd := len(b)
	b = append(b, '}')
	*buf = b
	rh := HashBytes(b)
	// One allocation holds both cached encodings.
	cached := append(make([]byte, 0, fEnd-fStart+iEnd-iStart), b[fStart:fEnd]...)
	cached = append(cached, b[iStart:iEnd]...)
	factsJSON, inputJSON := cached[:fEnd-fStart:fEnd-fStart], cached[fEnd-fStart:]
	if warnings == nil {
		warnings = []Warning{}
	}
	return &Envelope{
		Status:          "completed",
		Tool:            c.Tool,
		ContractID:      c.ContractID,
		ContractVersion: c.ContractVersion,
		ContractHash:    contractHash,
		InputNormalized: input,
		facts:           facts,
		Determinism:     c.Determinism,
		Source:          SourceFor(c, asOf),
		Warnings:        warnings,
		ResultHash:      rh,
		inputJSON:       inputJSON,
		factsJSON:       factsJSON,
	}, nil
}

// Verify checks a structured_result (generic JSON) against its catalogue entry the
// way a careful orchestrator does: status, identity fields equal to the entry's,
// contract_hash recomputed from the entry, facts valid against the entry's
// outputSchema, a complete source, a warnings list and result_hash recomputed.
// It returns nil or an error naming the first mismatch.
func Verify(sr map[string]any, entry map[string]any) error {
	if sr["status"] != "completed" {
		return fmt.Errorf("status is %v, not completed", sr["status"])
	}
	for _, k := range []string{"tool", "contract_id", "contract_version", "contract_hash", "determinism"} {
		want := entry[k]
		if k == "tool" {
			want = entry["name"]
		}
		if sr[k] != want || want == nil {
			return fmt.Errorf("%s is %v, catalogue says %v", k, sr[k], want)
		}
	}
	ch, err := EntryContractHash(entry)
	if err != nil {
		return err
	}
	if ch != entry["contract_hash"] {
		return fmt.Errorf("catalogue contract_hash %v does not recompute (%s)", entry["contract_hash"], ch)
	}
	facts, ok := sr["facts"].(map[string]any)
	if !ok {
		return errors.New("facts is not an object")
	}
	input, ok := sr["input_normalized"].(map[string]any)
	if !ok {
		return errors.New("input_normalized is not an object")
	}
	if out, ok := entry["outputSchema"].(map[string]any); ok {
		if err := contracts.ValidateAgainst(out, facts); err != nil {
			return fmt.Errorf("facts fail the outputSchema: %w", err)
		}
	} else {
		return errors.New("catalogue entry has no outputSchema")
	}
	src, ok := sr["source"].(map[string]any)
	if !ok {
		return errors.New("source is not an object")
	}
	for _, k := range []string{"kind", "name", "version"} {
		if s, _ := src[k].(string); s == "" {
			return fmt.Errorf("source.%s is empty", k)
		}
	}
	if _, ok := sr["warnings"].([]any); !ok {
		return errors.New("warnings is not a list")
	}
	rh, err := ResultHash(ch, input, facts)
	if err != nil {
		return err
	}
	if rh != sr["result_hash"] {
		return fmt.Errorf("result_hash %v does not recompute (%s)", sr["result_hash"], rh)
	}
	return nil
}
