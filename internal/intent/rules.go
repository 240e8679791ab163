// Package intent is the typed intent layer (issue 33, docs/intents.md): it
// reads a user's request and returns the exact tool calls the user asked for,
// or declines with a reason. The rules are data, contracts/intents/<tool>.json
// and _common.json; this package interprets them. Recognition is deterministic
// and linear in the text: every pattern is Go regexp (RE2) and the text is
// bounded (MaxTextBytes).
package intent

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"regexp"
	"slices"
	"strings"

	"github.com/precisiond/precisiond/contracts"
)

// commonFile is the file of rules shared by every tool.
const commonFile = "_common.json"

// fileFormat is the version of the data format this package reads; a file
// that declares another is refused.
const fileFormat = 1

// commonRules is _common.json.
type commonRules struct {
	Format   int                          `json:"format"`
	Version  string                       `json:"version"`
	Macros   map[string]string            `json:"macros"`
	Maps     map[string]map[string]string `json:"maps"`
	Declines []declineRule                `json:"declines"`
}

// toolRules is contracts/intents/<tool>.json.
type toolRules struct {
	Format      int                          `json:"format"`
	Tool        string                       `json:"tool"`
	Description string                       `json:"description"`
	Domain      string                       `json:"domain"`
	Triggers    []string                     `json:"triggers"`
	Maps        map[string]map[string]string `json:"maps"`
	Patterns    []patternRule                `json:"patterns"`
	Declines    []declineRule                `json:"declines"`
	Answers     []answerRule                 `json:"answers"`
	Examples    Examples                     `json:"examples"`
}

// patternRule is one accepted phrasing.
type patternRule struct {
	ID     string             `json:"id"`
	Lang   string             `json:"lang"`
	Regex  string             `json:"regex"`
	Raw    bool               `json:"raw"`
	Unless []string           `json:"unless"`
	Args   map[string]argRule `json:"args"`
}

// argRule says where one argument comes from.
type argRule struct {
	Const    json.RawMessage `json:"const"`
	Group    string          `json:"group"`
	Groups   []string        `json:"groups"`
	Type     string          `json:"type"`
	Map      string          `json:"map"`
	Lang     bool            `json:"lang"`
	Optional bool            `json:"optional"`
}

// declineRule is a phrasing that is not an intent, with its reason: a regex
// searched in the text, or words (each a word or a phrase of words, in any
// case) of which one occurs.
type declineRule struct {
	Reason string   `json:"reason"`
	Regex  string   `json:"regex"`
	Words  []string `json:"words"`
	Tools  []string `json:"tools"`
}

// answerRule is one template of the deterministic answer.
type answerRule struct {
	When map[string]json.RawMessage `json:"when"`
	EN   string                     `json:"en"`
	DE   string                     `json:"de"`
}

// Examples are the cases a contract states; each runs as a test.
type Examples struct {
	Accept  []Example `json:"accept"`
	Decline []Example `json:"decline"`
}

// Example is one stated case: Text with the exact Args (accept) or the
// Reason it is declined for ("" when nothing is reported).
type Example struct {
	Text   string         `json:"text"`
	Args   map[string]any `json:"args,omitempty"`
	Reason string         `json:"reason,omitempty"`
}

// Reasons a candidate is declined for (Decline.Reason).
const (
	ReasonAmbiguous        = "ambiguous"
	ReasonRelativeDate     = "relative_date"
	ReasonInvalidValue     = "invalid_value"
	ReasonCodeRequest      = "code_request"
	ReasonMention          = "mention_not_request"
	ReasonMissingArgument  = "missing_argument"
	ReasonMultipleInProse  = "multiple_intents_in_prose"
	ReasonUnrecognized     = "unrecognized"
	ReasonNumbering        = "numbering_not_contiguous"
	ReasonToolNotAvailable = "tool_not_available"
)

var knownReasons = []string{ReasonAmbiguous, ReasonRelativeDate, ReasonInvalidValue, ReasonCodeRequest,
	ReasonMention, ReasonMissingArgument, ReasonMultipleInProse, ReasonUnrecognized, ReasonNumbering,
	ReasonToolNotAvailable}

var argTypes = []string{"integer", "number", "decimal", "date", "datetime", "instant", "zone", "string",
	"lower", "upper", "payload", "integers", "numbers", "decimals", "point_number"}

// compiled is one pattern ready to run.
type compiled struct {
	set  *toolSet // the tool's rules
	tool string
	id   string
	lang string
	// langValue is lang as an argument value, boxed once (a "lang"
	// argument costs no allocation).
	langValue any
	raw       bool
	unless    []string
	// unlessIdx: the tools of unless, as indexes of Rules.tools.
	unlessIdx []int
	re        *regexp.Regexp
	pre       *regexp.Regexp // nil, or a cheaper regex that matches whenever re does (prefilter.go)
	// lits: clauses of literal text every match contains (literals.go).
	lits [][][]byte
	// litPairs: the pairSet of each literal of lits.
	litPairs [][]pairSet
	// fast: the map groups whose lookup makes pre's match re's (prefilter.go,
	// match); nil when pre's match must be confirmed by re.
	fast     map[int]map[string]string
	args     map[string]argRule
	argv     []argSpec // args in name order, ready to run
	payloads []int     // sub-match indexes of payload groups (excluded from decline checks)
}

// at is the first sub-match index of the argument, -1 without a group.
func (a argSpec) at() int {
	switch {
	case a.rule.Group != "":
		return a.group
	case len(a.groups) > 0:
		return slices.Min(a.groups)
	}
	return -1
}

// argSpec is one argument of a pattern with its sub-match indexes.
type argSpec struct {
	name     string
	rule     argRule
	group    int   // sub-match index of rule.Group
	groups   []int // of rule.Groups
	constant any   // rule.Const, decoded
	// values is rule.Map's map (the tool's own, else the shared one) with
	// each value boxed once, so that reading a mapped argument allocates
	// nothing.
	values map[string]any
}

type compiledDecline struct {
	reason string
	tools  []string
	re     *regexp.Regexp // nil: words
	words  phrases
}

// phrases is a set of word sequences, indexed by their first word.
type phrases map[string][][]string

func newPhrases(list []string) (phrases, error) {
	p := phrases{}
	for _, s := range list {
		w := words(s)
		if len(w) == 0 {
			return nil, fmt.Errorf("%q has no word", s)
		}
		p[w[0]] = append(p[w[0]], w)
	}
	return p, nil
}

// in reports whether one of the phrases occurs in ws.
func (p phrases) in(ws []string) bool {
	for i, w := range ws {
		for _, ph := range p[w] {
			if len(ws)-i >= len(ph) && slices.Equal(ws[i:i+len(ph)], ph) {
				return true
			}
		}
	}
	return false
}

// toolSet is one tool's compiled rules.
type toolSet struct {
	name     string
	domain   string
	triggers [][]string // each a sequence of lower-case words
	patterns []*compiled
	declines []compiledDecline
	answers  []answerRule
	maps     map[string]map[string]string
	examples Examples
	contract *contracts.Contract
}

// Rules is a loaded, compiled rule set. It is immutable and safe for
// concurrent use.
type Rules struct {
	version  string
	hash     string
	tools    []*toolSet
	byName   map[string]*toolSet
	declines []compiledDecline
	maps     map[string]map[string]string
	// wordIndex maps the first word of each trigger and of each phrase of
	// a common decline rule to what it may start.
	wordIndex map[string]*wordInfo
	// vocab is every word of a trigger or of a decline phrase (common or a
	// tool's), each mapped to itself; maxVocab is the longest (bytes).
	vocab    map[string]string
	maxVocab int
}

// Version is the rule set's declared version (_common.json "version").
func (r *Rules) Version() string { return r.version }

// Hash is the SHA-256 over every rule file, name and bytes, in name order: the
// same hash means the same answers.
func (r *Rules) Hash() string { return r.hash }

// Tools lists the tools that have an intent contract, in file name order.
func (r *Rules) Tools() []string {
	out := make([]string, len(r.tools))
	for i, t := range r.tools {
		out[i] = t.name
	}
	return out
}

// Examples returns the examples a tool's contract states.
func (r *Rules) Examples(tool string) Examples {
	if t := r.byName[tool]; t != nil {
		return t.examples
	}
	return Examples{}
}

// Load reads and compiles the embedded rule set (contracts/intents).
func Load() (*Rules, error) { return LoadFS(contracts.IntentFiles(), "intents") }

// LoadFS reads and compiles the rule files in dir of fsys: _common.json and
// one <tool>.json per tool, whose tool must have a contract. Any malformed
// file, unknown field, bad regex or unknown macro, type, map or reason is an
// error naming the file.
func LoadFS(fsys fs.FS, dir string) (*Rules, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, fmt.Errorf("intent: %w", err)
	}
	sum := sha256.New()
	var common commonRules
	var files []string
	raw := map[string][]byte{}
	for _, e := range entries {
		n := e.Name()
		if !strings.HasSuffix(n, ".json") {
			continue
		}
		b, err := fs.ReadFile(fsys, dir+"/"+n)
		if err != nil {
			return nil, fmt.Errorf("intent: %w", err)
		}
		raw[n] = b
		files = append(files, n)
	}
	slices.Sort(files)
	for _, n := range files {
		sum.Write([]byte(n))
		sum.Write([]byte{0})
		sum.Write(raw[n])
		sum.Write([]byte{0})
	}
	cb, ok := raw[commonFile]
	if !ok {
		return nil, fmt.Errorf("intent: %s/%s is missing", dir, commonFile)
	}
	if err := strictJSON(cb, &common); err != nil {
		return nil, fmt.Errorf("intent: %s: %w", commonFile, err)
	}
	if common.Format != fileFormat || common.Version == "" {
		return nil, fmt.Errorf("intent: %s: want format %d and a version", commonFile, fileFormat)
	}
	r := &Rules{version: common.Version, hash: hex.EncodeToString(sum.Sum(nil)), byName: map[string]*toolSet{},
		maps: common.Maps, wordIndex: map[string]*wordInfo{}}
	info := func(w string) *wordInfo {
		if r.wordIndex[w] == nil {
			r.wordIndex[w] = &wordInfo{}
		}
		return r.wordIndex[w]
	}
	sharedValues := map[string]map[string]any{} // boxed shared maps, made when first used
	if r.declines, err = compileDeclines(common.Declines, common.Macros, common.Maps); err != nil {
		return nil, fmt.Errorf("intent: %s: %w", commonFile, err)
	}
	for i, d := range r.declines[:min(64, len(r.declines))] {
		for w := range d.words {
			info(w).declines |= 1 << i
		}
	}
	for _, n := range files {
		if n == commonFile {
			continue
		}
		t, err := compileTool(raw[n], common, r.maps, sharedValues)
		if err != nil {
			return nil, fmt.Errorf("intent: %s: %w", n, err)
		}
		if t.name+".json" != n {
			return nil, fmt.Errorf("intent: %s declares tool %q", n, t.name)
		}
		for _, w := range t.triggers {
			wi := info(w[0])
			if n := len(wi.tools); n == 0 || wi.tools[n-1].tool != len(r.tools) {
				wi.tools = append(wi.tools, toolTriggers{tool: len(r.tools)})
			}
			last := &wi.tools[len(wi.tools)-1]
			last.triggers = append(last.triggers, w)
		}
		r.byName[t.name] = t
		r.tools = append(r.tools, t)
	}
	for _, t := range r.tools {
		for _, p := range t.patterns {
			for _, u := range p.unless {
				if r.byName[u] == nil {
					return nil, fmt.Errorf("intent: %s.json: pattern %s: unless names %q, which has no intent file", t.name, p.id, u)
				}
				p.unlessIdx = append(p.unlessIdx, slices.Index(r.tools, r.byName[u]))
			}
		}
	}
	r.vocab = map[string]string{}
	addWords := func(ws []string) {
		for _, w := range ws {
			r.vocab[w] = w
			r.maxVocab = max(r.maxVocab, len(w))
		}
	}
	addPhrases := func(ds []compiledDecline) {
		for _, d := range ds {
			for _, list := range d.words {
				for _, ph := range list {
					addWords(ph)
				}
			}
		}
	}
	addPhrases(r.declines)
	for _, t := range r.tools {
		for _, tr := range t.triggers {
			addWords(tr)
		}
		addPhrases(t.declines)
	}
	for _, d := range r.declines {
		for _, u := range d.tools {
			if r.byName[u] == nil {
				return nil, fmt.Errorf("intent: %s: decline %s names tool %q, which has no intent file", commonFile, d.reason, u)
			}
		}
	}
	return r, nil
}

func strictJSON(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return fmt.Errorf("trailing data after the JSON object")
	}
	return nil
}

var macroRef = regexp.MustCompile(`\{(?:map:)?([a-z_]+)\}`)

// expand replaces {name} by the macro's regex and {map:name} by an
// alternation of the keys of map name (longest first), each in a
// non-capturing group. Regex repetition counts such as {2} or {1,3} are left
// alone.
func expand(s string, macros map[string]string, maps ...map[string]map[string]string) (string, error) {
	var bad string
	out := macroRef.ReplaceAllStringFunc(s, func(m string) string {
		if name, ok := strings.CutPrefix(m[1:len(m)-1], "map:"); ok {
			for _, ms := range maps {
				if keys := ms[name]; keys != nil {
					return "(?:" + alternation(keys) + ")"
				}
			}
			bad = "map:" + name
			return m
		}
		name := m[1 : len(m)-1]
		v, ok := macros[name]
		if !ok {
			bad = name
			return m
		}
		if strings.Contains(v, "{map:") {
			// A macro may name a map (the zone macro names the zone map),
			// never another macro.
			mv, err := expand(v, nil, maps...)
			if err != nil {
				bad = name + ": " + err.Error()
				return m
			}
			v = mv
		}
		return "(?:" + v + ")"
	})
	if bad != "" {
		return "", fmt.Errorf("unknown macro {%s}", bad)
	}
	return out, nil
}

// alternation is the regex that matches exactly the keys of m, longest
// first so that a longer key wins over its prefix.
func alternation(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		if len(a) != len(b) {
			return len(b) - len(a)
		}
		return strings.Compare(a, b)
	})
	for i, k := range keys {
		keys[i] = regexp.QuoteMeta(k)
	}
	return strings.Join(keys, "|")
}

func compileDeclines(list []declineRule, macros map[string]string, maps ...map[string]map[string]string) ([]compiledDecline, error) {
	var out []compiledDecline
	for i, d := range list {
		if !slices.Contains(knownReasons, d.Reason) {
			return nil, fmt.Errorf("decline %d: unknown reason %q", i, d.Reason)
		}
		if (d.Regex == "") == (len(d.Words) == 0) {
			return nil, fmt.Errorf("decline %d: give regex or words", i)
		}
		cd := compiledDecline{reason: d.Reason, tools: d.Tools}
		if d.Regex == "" {
			ws, err := newPhrases(d.Words)
			if err != nil {
				return nil, fmt.Errorf("decline %d: %w", i, err)
			}
			cd.words = ws
			out = append(out, cd)
			continue
		}
		src, err := expand(d.Regex, macros, maps...)
		if err != nil {
			return nil, fmt.Errorf("decline %d: %w", i, err)
		}
		if cd.re, err = regexp.Compile("(?i)" + src); err != nil {
			return nil, fmt.Errorf("decline %d: %w", i, err)
		}
		out = append(out, cd)
	}
	return out, nil
}

// matches reports whether the rule matches text s, whose words are ws.
func (d *compiledDecline) matches(s string, ws []string) bool {
	if d.re != nil {
		return d.re.MatchString(s)
	}
	return d.words.in(ws)
}

func compileTool(b []byte, common commonRules, shared map[string]map[string]string, sharedValues map[string]map[string]any) (*toolSet, error) {
	var f toolRules
	if err := strictJSON(b, &f); err != nil {
		return nil, err
	}
	if f.Format != fileFormat {
		return nil, fmt.Errorf("want format %d", fileFormat)
	}
	c, err := contracts.Load(f.Tool)
	if err != nil {
		return nil, err
	}
	t := &toolSet{name: f.Tool, domain: f.Domain, answers: f.Answers, maps: f.Maps, examples: f.Examples, contract: c}
	if t.domain == "" {
		t.domain = f.Tool
	}
	for _, tr := range f.Triggers {
		w := words(tr)
		if len(w) == 0 {
			return nil, fmt.Errorf("trigger %q has no word", tr)
		}
		t.triggers = append(t.triggers, w)
	}
	props, _ := c.InputSchema["properties"].(map[string]any)
	localValues := map[string]map[string]any{}
	// valuesOf is the map an argument's "map" names, its values boxed.
	valuesOf := func(name string) map[string]any {
		m, cache := f.Maps[name], localValues
		if m == nil {
			m, cache = shared[name], sharedValues
		}
		if m == nil {
			return nil
		}
		if v, ok := cache[name]; ok {
			return v
		}
		v := make(map[string]any, len(m))
		for k, s := range m {
			v[k] = s
		}
		cache[name] = v
		return v
	}
	for i, p := range f.Patterns {
		if p.Lang != "de" && p.Lang != "en" {
			return nil, fmt.Errorf("pattern %d (%s): lang must be de or en", i, p.ID)
		}
		src, err := expand(p.Regex, common.Macros, f.Maps, shared)
		if err != nil {
			return nil, fmt.Errorf("pattern %s: %w", p.ID, err)
		}
		flags, pre, post := "(?i)", common.Macros["pre"], genericPost(p.Raw, common.Macros["post"])
		if p.Raw {
			flags = "(?is)"
		}
		full := flags + "^(?:" + pre + ")(?:" + src + ")(?:" + post + ")$"
		re, err := regexp.Compile(full)
		if err != nil {
			return nil, fmt.Errorf("pattern %s: %w", p.ID, err)
		}
		cp := &compiled{set: t, tool: f.Tool, id: p.ID, lang: p.Lang, langValue: p.Lang, raw: p.Raw, unless: p.Unless, re: re,
			args: p.Args, lits: asBytes(requiredLits(full))}
		cp.litPairs = litPairs(cp.lits)
		if n := instsOf(full); n > maxInsts {
			var g generics
			gsrc, err := expand(p.Regex, common.Macros, g.genericMaps(f.Maps), g.genericMaps(shared))
			if err != nil {
				return nil, fmt.Errorf("pattern %s: %w", p.ID, err)
			}
			cp.pre = prefilter(n, flags+"^(?:"+pre+")(?:"+gsrc+")(?:"+post+")$", &g)
			cp.fast = fastGroups(cp, p.Regex, common.Macros, f.Maps, shared)
		}
		groups := re.SubexpNames()
		for name, a := range p.Args {
			if _, ok := props[name]; !ok {
				return nil, fmt.Errorf("pattern %s: %s is not an argument of %s", p.ID, name, f.Tool)
			}
			if err := checkArg(a, groups, f.Maps, shared); err != nil {
				return nil, fmt.Errorf("pattern %s: argument %s: %w", p.ID, name, err)
			}
			spec := argSpec{name: name, rule: a, group: re.SubexpIndex(a.Group)}
			if a.Map != "" {
				spec.values = valuesOf(a.Map)
			}
			for _, g := range a.Groups {
				spec.groups = append(spec.groups, re.SubexpIndex(g))
			}
			if a.Const != nil {
				if err := strictJSON(a.Const, &spec.constant); err != nil {
					return nil, fmt.Errorf("pattern %s: argument %s: %w", p.ID, name, err)
				}
			}
			cp.argv = append(cp.argv, spec)
			if a.Type == "payload" {
				cp.payloads = append(cp.payloads, re.SubexpIndex(a.Group))
			}
		}
		// In the order the pattern reads them (arguments without a group
		// first, by name), so that of two unreadable arguments the first
		// in the text names the reason, on every call.
		slices.SortFunc(cp.argv, func(a, b argSpec) int {
			if a.at() != b.at() {
				return a.at() - b.at()
			}
			return strings.Compare(a.name, b.name)
		})
		t.patterns = append(t.patterns, cp)
	}
	if t.declines, err = compileDeclines(f.Declines, common.Macros, f.Maps, shared); err != nil {
		return nil, err
	}
	if len(f.Answers) == 0 {
		return nil, fmt.Errorf("no answer template")
	}
	for i, a := range f.Answers {
		if a.EN == "" || a.DE == "" {
			return nil, fmt.Errorf("answer %d needs both en and de", i)
		}
	}
	return t, nil
}

// genericPost is the suffix a pattern is wrapped in: the post macro, or for a
// raw pattern trailing white space.
func genericPost(raw bool, post string) string {
	if raw {
		return `\s*`
	}
	return post
}

func checkArg(a argRule, groups []string, local, shared map[string]map[string]string) error {
	sources := 0
	if a.Const != nil {
		sources++
	}
	if a.Group != "" {
		sources++
	}
	if len(a.Groups) > 0 {
		sources++
	}
	if a.Lang {
		sources++
	}
	if sources != 1 {
		return fmt.Errorf("give exactly one of const, group, groups and lang")
	}
	if len(a.Groups) > 0 {
		for _, g := range a.Groups {
			if !slices.Contains(groups, g) {
				return fmt.Errorf("the regex has no group %q", g)
			}
		}
		if !slices.Contains(argTypes, a.Type) || a.Map != "" || a.Optional {
			return fmt.Errorf("groups take a type (not a map, not optional)")
		}
		return nil
	}
	if a.Group != "" {
		if !slices.Contains(groups, a.Group) {
			return fmt.Errorf("the regex has no group %q", a.Group)
		}
		switch {
		case a.Map != "":
			if local[a.Map] == nil && shared[a.Map] == nil {
				return fmt.Errorf("no map %q", a.Map)
			}
			if a.Type != "" && a.Type != "string" {
				return fmt.Errorf("a map gives strings; drop type %q", a.Type)
			}
		case !slices.Contains(argTypes, a.Type):
			return fmt.Errorf("unknown type %q", a.Type)
		}
	} else if a.Map != "" || a.Type != "" || a.Optional {
		return fmt.Errorf("map, type and optional belong to a group")
	}
	return nil
}
