package tools

import (
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/precisiond/precisiond/contracts"
	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/internal/filestore"
)

// Deps are the services a few tools need from outside the pure-function world
// (only generate_file writes, into its own store). Zero value: no such services.
type Deps struct {
	// Files is generate_file's download store; nil makes generate_file answer
	// store_unavailable (reason not_configured).
	Files *filestore.Store
	// DownloadURL, when not nil, is the absolute link of a stored file that
	// generate_file's legacy text shows (--public-base-url); nil: the
	// relative /downloads/<name>. The facts never depend on it: download_path
	// is always relative, so envelopes stay the same on every host.
	DownloadURL func(name string) string
}

// Builtin lists every tool of the service, in catalogue order. The order is
// explicit and fixed: it is the order of GET /tools, /health and MCP tools/list
// (the reference's order first). The compact catalogue groups tools by their
// contract's "group", not by their place here.
func Builtin(deps Deps) []Tool {
	return []Tool{
		gcdLCM(),
		hashText(),
		base64Codec(),
		romanNumeral(),
		decimalFinance(),
		exactProbability(),
		statisticsCalc(),
		advancedStatistics(),
		calculate(),
		primeFactorize(),
		solveEquation(),
		calendarFacts(),
		dayOfWeek(),
		timeFacts(),
		timezoneConvert(),
		dateDiff(),
		dateAdd(),
		scheduleExpand(),
		businessCalendar(),
		structuredValidate(),
		jsonQuery(),
		regexExtract(),
		subnetCalc(),
		identifierValidate(),
		versionCompare(),
		geodesicTool(),
		textAnalyze(),
		tokenCount(),
		unitConvert(),
		physicalConstant(),
		generateFile(deps.Files, deps.DownloadURL),
	}
}

// Registry is the one catalogue of tools every surface serves, and the owner of
// the call policy (concurrency limit, deadline, observation) every surface
// shares. The tool list and the policy are fixed at construction; the enabled
// state changes atomically, and readers see either the old or the new
// catalogue, never a mix.
type Registry struct {
	tools   []entry
	byName  map[string]int
	state   atomic.Pointer[snapshot]
	mu      sync.Mutex // serialises state changes
	limit   *Limiter
	observe Observer
	timeout time.Duration
	guard   func() error // Options.WriteGuard

	waiting atomic.Int64 // calls waiting on an answer
	running atomic.Int64 // executions that have not stopped yet
	peak    atomic.Int64 // the most executions ever running at once

	onChange []func()

	hooked atomic.Pointer[hooks] // signing and the answer cache (answers.go)
}

// Options is the call policy of a registry. The zero value means no limiter, no
// observer and DefaultTimeout.
type Options struct {
	// Limiter bounds concurrent executions across every surface; nil: unbounded.
	Limiter *Limiter
	// Observer is told the outcome of every call; nil: nobody.
	Observer Observer
	// DefaultTimeout is the deadline of one call (default DefaultTimeout). A
	// caller's earlier context deadline wins.
	DefaultTimeout time.Duration
	// WriteGuard, when set, is asked before a tool whose contract's
	// access_kind is "write" (generate_file) runs, after its input is
	// validated: an error (store_unavailable while the download store is
	// down) answers the call before any work is done, in process or in a
	// worker. Nil: write tools always run.
	WriteGuard func() error
}

// Observer is told the outcome of every call that went through the execution
// path, from any surface: the tool name (empty when the registry has no tool
// of the requested name), "ok" or the error code, and the time the call took
// (queue wait included). It must be cheap and safe for concurrent use (a
// metrics hook).
type Observer func(tool, code string, d time.Duration)

// Limiter returns the registry's limiter, or nil.
func (r *Registry) Limiter() *Limiter { return r.limit }

// Timeout is the deadline of one call.
func (r *Registry) Timeout() time.Duration { return r.timeout }

// InFlight is the number of calls waiting on an answer right now (admitted,
// neither answered nor timed out).
func (r *Registry) InFlight() int { return int(r.waiting.Load()) }

// Running is the number of tool executions that have not stopped yet,
// including those whose caller already got its timeout. Each holds a slot of
// the limiter until it stops.
func (r *Registry) Running() int { return int(r.running.Load()) }

// PeakRunning is the most executions that ever ran at once.
func (r *Registry) PeakRunning() int { return int(r.peak.Load()) }

// started counts an execution starting (+1) or stopping (-1).
func (r *Registry) started(delta int64) {
	n := r.running.Add(delta)
	for p := r.peak.Load(); n > p && !r.peak.CompareAndSwap(p, n); p = r.peak.Load() {
	}
}

type entry struct {
	tool         Tool
	contract     *contracts.Contract
	contractHash string
}

// snapshot is one immutable view of the enabled state.
type snapshot struct {
	disabled    map[string]bool
	catalogHash string
}

// NewRegistry builds a registry from tools in catalogue order with the call
// policy opts. It panics on a duplicate or malformed name, or a contract whose
// hash cannot be computed: these are programming errors found at start-up.
func NewRegistry(list []Tool, opts Options) *Registry {
	if opts.DefaultTimeout <= 0 {
		opts.DefaultTimeout = DefaultTimeout
	}
	r := &Registry{byName: make(map[string]int, len(list)), limit: opts.Limiter, observe: opts.Observer,
		timeout: opts.DefaultTimeout, guard: opts.WriteGuard}
	for _, t := range list {
		c := t.Contract
		if c == nil || !validName(c.Tool) || t.Execute == nil {
			panic(fmt.Sprintf("tools: malformed tool %#v", c))
		}
		if _, dup := r.byName[c.Tool]; dup {
			panic("tools: duplicate tool " + c.Tool)
		}
		h, err := evidence.ContractHash(c)
		if err != nil {
			panic(fmt.Sprintf("tools: hashing contract %s: %v", c.Tool, err))
		}
		r.byName[c.Tool] = len(r.tools)
		r.tools = append(r.tools, entry{tool: t, contract: c, contractHash: h})
	}
	r.state.Store(r.newSnapshot(map[string]bool{}))
	return r
}

func validName(s string) bool {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for _, c := range []byte(s) {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

func (r *Registry) newSnapshot(disabled map[string]bool) *snapshot {
	items := make([]evidence.CatalogItem, len(r.tools))
	for i, e := range r.tools {
		items[i] = evidence.CatalogItem{Name: e.contract.Tool, ContractHash: e.contractHash, Enabled: !disabled[e.contract.Tool]}
	}
	h, err := evidence.CatalogHash(items)
	if err != nil {
		panic(err) // only strings and bools: cannot fail
	}
	return &snapshot{disabled: disabled, catalogHash: h}
}

// Names lists the registered tool names in catalogue order.
func (r *Registry) Names() []string {
	names := make([]string, len(r.tools))
	for i, e := range r.tools {
		names[i] = e.contract.Tool
	}
	return names
}

// Lookup returns the tool and its contract hash, or false for an unknown name.
func (r *Registry) Lookup(name string) (Tool, string, bool) {
	i, ok := r.byName[name]
	if !ok {
		return Tool{}, "", false
	}
	return r.tools[i].tool, r.tools[i].contractHash, true
}

// DeclaresFact reports whether the contract of the tool name declares the
// fact key in its outputSchema (false for an unknown tool): a surface that
// looks for one fact (generate_file's download_path) asks this before it
// reads an envelope's facts, which for a typed tool builds them generically.
func (r *Registry) DeclaresFact(name, key string) bool {
	i, ok := r.byName[name]
	if !ok {
		return false
	}
	props, _ := r.tools[i].contract.OutputSchema["properties"].(map[string]any)
	_, ok = props[key]
	return ok
}

// Enabled reports whether a known tool is enabled.
func (r *Registry) Enabled(name string) bool {
	return !r.state.Load().disabled[name]
}

// Disabled lists the disabled tools, sorted.
func (r *Registry) Disabled() []string {
	s := r.state.Load()
	out := make([]string, 0, len(s.disabled))
	for n := range s.disabled {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// SetEnabled changes one tool's state and returns the previous state. It returns
// false in ok for an unknown tool. Listeners registered with OnChange run after
// the new state is visible.
func (r *Registry) SetEnabled(name string, enabled bool) (previous bool, ok bool) {
	return r.update(name, func(bool) bool { return enabled })
}

// Toggle flips one tool's state atomically: two concurrent toggles both take
// effect. It returns the previous state (the new one is its negation), or false
// in ok for an unknown tool.
func (r *Registry) Toggle(name string) (previous bool, ok bool) {
	return r.update(name, func(cur bool) bool { return !cur })
}

// update sets one tool's state to next(current state) under the state lock.
func (r *Registry) update(name string, next func(enabled bool) bool) (previous bool, ok bool) {
	if _, known := r.byName[name]; !known {
		return false, false
	}
	r.mu.Lock()
	cur := r.state.Load()
	previous = !cur.disabled[name]
	enabled := next(previous)
	if previous != enabled {
		next := make(map[string]bool, len(cur.disabled)+1)
		for k := range cur.disabled {
			next[k] = true
		}
		if enabled {
			delete(next, name)
		} else {
			next[name] = true
		}
		r.state.Store(r.newSnapshot(next))
	}
	listeners := slices.Clone(r.onChange)
	r.mu.Unlock()
	if previous != enabled {
		for _, f := range listeners {
			f()
		}
	}
	return previous, true
}

// SetDisabled replaces the whole disabled set (unknown names are ignored and
// returned), e.g. when the persisted state is loaded at start.
func (r *Registry) SetDisabled(names []string) (unknown []string) {
	next := map[string]bool{}
	for _, n := range names {
		if _, ok := r.byName[n]; ok {
			next[n] = true
		} else {
			unknown = append(unknown, n)
		}
	}
	r.mu.Lock()
	r.state.Store(r.newSnapshot(next))
	listeners := slices.Clone(r.onChange)
	r.mu.Unlock()
	for _, f := range listeners {
		f()
	}
	return unknown
}

// OnChange registers f to run after every change of the enabled state.
func (r *Registry) OnChange(f func()) {
	r.mu.Lock()
	r.onChange = append(r.onChange, f)
	r.mu.Unlock()
}

// Catalog is one consistent view of the catalogue (GET /tools).
type Catalog struct {
	Tools       []map[string]any `json:"tools"`
	CatalogHash string           `json:"catalog_hash"`
}

// Catalog returns the catalogue entries, in order, with their enabled state taken
// from one snapshot.
func (r *Registry) Catalog() Catalog {
	s := r.state.Load()
	out := Catalog{Tools: make([]map[string]any, len(r.tools)), CatalogHash: s.catalogHash}
	for i, e := range r.tools {
		out.Tools[i] = catalogEntry(e, !s.disabled[e.contract.Tool])
	}
	return out
}

// Render re-renders the legacy result text of a call of tool from its
// envelope's input_normalized and facts, without running the tool.
func (r *Registry) Render(tool string, input, facts map[string]any) (string, error) {
	i, ok := r.byName[tool]
	if !ok {
		return "", r.UnknownTool(tool)
	}
	render := r.tools[i].tool.Render
	if render == nil {
		return "", fmt.Errorf("%s cannot re-render its result text", tool)
	}
	return render(input, facts)
}

// Entry returns one tool's catalogue entry, or false.
func (r *Registry) Entry(name string) (map[string]any, bool) {
	i, ok := r.byName[name]
	if !ok {
		return nil, false
	}
	e := r.tools[i]
	return catalogEntry(e, r.Enabled(name)), true
}

// CatalogHash returns the current catalog_hash.
func (r *Registry) CatalogHash() string { return r.state.Load().catalogHash }

func catalogEntry(e entry, enabled bool) map[string]any {
	c := e.contract
	required := []any{}
	if req, ok := c.InputSchema["required"].([]any); ok {
		required = req
	}
	args, _ := c.InputSchema["properties"].(map[string]any)
	if args == nil {
		args = map[string]any{}
	}
	examples := make([]any, len(c.Examples))
	for i, ex := range c.Examples {
		examples[i] = map[string]any{"title": ex.Title, "args": ex.Args, "facts": ex.Facts}
	}
	return map[string]any{
		"name":                 c.Tool,
		"title":                c.Title,
		"description":          c.Description,
		"enabled":              enabled,
		"inputSchema":          c.InputSchema,
		"args":                 args,
		"required_args":        required,
		"access_kind":          c.AccessKind,
		"outputSchema":         c.OutputSchema,
		"contract_id":          c.ContractID,
		"contract_version":     c.ContractVersion,
		"contract_hash":        e.contractHash,
		"determinism":          c.Determinism,
		"source_policy":        c.SourcePolicy,
		"structured_result":    true,
		"normalization_policy": c.NormalizationPolicy,
		"retry_policy":         c.RetryPolicy,
		"cache_policy":         c.CachePolicy,
		"limits":               c.Limits,
		"evidence_policy":      c.EvidencePolicy,
		"annotations":          c.Annotations,
		"examples":             examples,
		"tool":                 c.Tool,
	}
}
