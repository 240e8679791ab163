package intent

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/precisiond/precisiond/contracts"
)

// MaxTextBytes bounds the text of one request (16 KiB), so that recognition
// costs at most a fixed multiple of it.
const MaxTextBytes = 16 << 10

// Intent is one recognised tool call.
type Intent struct {
	Tool string         `json:"tool"`
	Args map[string]any `json:"args"`
	// Item is the 0-based item of a numbered list, nil for prose.
	Item *int `json:"item"`
	// Span is [start, end) in code points of the text.
	Span [2]int `json:"span"`
	// Lang is the language of the phrasing: de or en.
	Lang string `json:"lang"`
}

// Decline is a candidate that was not taken.
type Decline struct {
	Item   *int   `json:"item"`
	Reason string `json:"reason"`
	// Tool is the tool the candidate was for, "" when that is not one tool.
	Tool string `json:"tool,omitempty"`
}

// Result is what Recognize finds.
type Result struct {
	Intents []Intent  `json:"intents"`
	Covered bool      `json:"covered"`
	Decline []Decline `json:"declined"`
	Version string    `json:"recognizer_version"`
	Hash    string    `json:"recognizer_hash"`
}

// Errors of Recognize. Both are input errors (invalid_request).
var (
	ErrTooLarge = fmt.Errorf("intent: text exceeds %d bytes", MaxTextBytes)
	ErrNotUTF8  = errors.New("intent: text is not valid UTF-8")
)

// UnknownToolError is an allowlist entry without an intent contract.
type UnknownToolError struct{ Tool string }

func (e *UnknownToolError) Error() string {
	return fmt.Sprintf("intent: tool %q has no intent contract", e.Tool)
}

// maxDeclineScan is the longest segment (bytes, white space collapsed) that a
// tool's own decline regexes search to name the reason of a miss; a longer
// one that matches no phrasing is declined as unrecognized without them. The
// reason is advice to the caller; no intent depends on it, and the bound keeps
// a long text that merely names a tool cheap.
const maxDeclineScan = 512

// maxLitScan is the longest segment (bytes) whose patterns are first
// checked for their literal clauses (literals.go).
const maxLitScan = 256

// segment is one part of the request: the whole prose, or one numbered item.
type segment struct {
	item       *int
	start, end int // byte offsets into the text
}

// marker is a numbered-list marker: the item's number and the byte offsets
// of the line's start and of the item text after "N. " or "N) ".
type marker struct{ n, line, text int }

// markers finds the lines that start (after blanks) with 1-4 digits, "." or
// ")" and a blank, in one pass over text.
func markers(text string) []marker {
	var out []marker
	if strings.Count(text, "\n") > 0 {
		out = make([]marker, 0, strings.Count(text, "\n")+1) // at most one a line
	}
	for line := 0; line < len(text); {
		i := line
		for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
			i++
		}
		d := i
		for i < len(text) && i-d < 5 && text[i] >= '0' && text[i] <= '9' {
			i++
		}
		if n := i - d; n >= 1 && n <= 4 && i+1 < len(text) && (text[i] == '.' || text[i] == ')') && (text[i+1] == ' ' || text[i+1] == '\t') {
			j := i + 1
			for j < len(text) && (text[j] == ' ' || text[j] == '\t') {
				j++
			}
			out = append(out, marker{n: atoi(text[d:i]), line: line, text: j})
		}
		nl := strings.IndexByte(text[i:], '\n')
		if nl < 0 {
			break
		}
		line = i + nl + 1
	}
	return out
}

// segments splits text into numbered items or one prose segment. prefix
// reports text before the first item; ok is false for numbering that does not
// run 1, 2, 3, …
func segments(text string) (segs []segment, prefix, ok bool) {
	marks := markers(text)
	if len(marks) == 0 {
		s, e := trimmed(text, 0, len(text))
		if s == e {
			return nil, false, true
		}
		return []segment{{start: s, end: e}}, false, true
	}
	for i, m := range marks {
		if m.n != i+1 {
			return nil, false, false
		}
	}
	if s, e := trimmed(text, 0, marks[0].line); s != e {
		prefix = true
	}
	segs = make([]segment, 0, len(marks))
	items := make([]int, len(marks)) // one allocation for the items' numbers
	for i, m := range marks {
		end := len(text)
		if i+1 < len(marks) {
			end = marks[i+1].line
		}
		s, e := trimmed(text, m.text, end)
		items[i] = i
		segs = append(segs, segment{item: &items[i], start: s, end: e})
	}
	return segs, prefix, true
}

func trimmed(text string, s, e int) (int, int) {
	for s < e && isSpace(text[s]) {
		s++
	}
	for e > s && isSpace(text[e-1]) {
		e--
	}
	return s, e
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// Recognize finds the intents of text among the tools of allow (nil: every
// tool with an intent contract). It returns ErrTooLarge, ErrNotUTF8 or an
// *UnknownToolError; otherwise the result, which is a pure function of the
// text, the allowlist and the rule set.
func (r *Rules) Recognize(text string, allow []string) (*Result, error) {
	if len(text) > MaxTextBytes {
		return nil, ErrTooLarge
	}
	if !utf8.ValidString(text) {
		return nil, ErrNotUTF8
	}
	allowed := make([]bool, len(r.tools))
	if allow == nil {
		for i := range allowed {
			allowed[i] = true
		}
	} else {
		for _, name := range allow {
			i := slices.IndexFunc(r.tools, func(t *toolSet) bool { return t.name == name })
			if i < 0 {
				return nil, &UnknownToolError{Tool: name}
			}
			allowed[i] = true
		}
	}
	segs, prefix, ok := segments(text)
	res := &Result{Intents: make([]Intent, 0, len(segs)), Decline: []Decline{}, Version: r.version, Hash: r.hash}
	if !ok {
		res.Decline = append(res.Decline, Decline{Reason: ReasonNumbering})
		return res, nil
	}
	covered := len(segs) > 0 && !prefix
	at, runes := 0, 0 // code points of text[:at]
	count := func(to int) int {
		runes += utf8.RuneCountInString(text[at:to])
		at = to
		return runes
	}
	// A list often repeats an item; analyse is a pure function of the
	// segment's text (and the allowlist), so each distinct text is analysed
	// once per request.
	type outcome struct {
		in int // index of the intent in res.Intents, or -1
		d  *Decline
	}
	// Up to maxScan items, an earlier equal item is found by comparing
	// texts (lengths first), beyond by a map.
	const maxScan = 64
	var seen map[string]outcome
	var outcomes []outcome
	switch {
	case len(segs) > maxScan:
		seen = make(map[string]outcome, len(segs))
	case len(segs) > 1:
		outcomes = make([]outcome, 0, len(segs))
	}
	earlier := func(k int, st string) (outcome, bool) {
		if seen != nil {
			o, ok := seen[st]
			return o, ok
		}
		for j := range outcomes[:min(k, len(outcomes))] {
			if sj := segs[j]; sj.end-sj.start == len(st) && text[sj.start:sj.end] == st {
				return outcomes[j], true
			}
		}
		return outcome{}, false
	}
	for k, sg := range segs {
		st := text[sg.start:sg.end]
		var in Intent
		isIntent := false
		var d *Decline
		o, ok := earlier(k, st)
		if outcomes != nil {
			outcomes = append(outcomes, o) // a repeat's entry is never read
		}
		if ok {
			// A repeated item: its own copy of the first one's outcome.
			if o.in >= 0 {
				in, isIntent = res.Intents[o.in], true
				in.Args = contracts.CopyJSON(in.Args, nil).(map[string]any)
			}
			if o.d != nil {
				c := *o.d
				d = &c
			}
		} else {
			in, isIntent, d = r.analyse(st, allowed)
			// A repeat copies these and sets its own Item and Span.
			o := outcome{in: -1, d: d}
			if isIntent {
				o.in = len(res.Intents)
			}
			switch {
			case seen != nil:
				seen[st] = o
			case outcomes != nil:
				outcomes[k] = o
			}
		}
		if !isIntent {
			covered = false
			if d != nil {
				c := *d
				c.Item = sg.item
				res.Decline = append(res.Decline, c)
			}
			continue
		}
		in.Item = sg.item
		start := count(sg.start)
		in.Span = [2]int{start, count(sg.end)}
		res.Intents = append(res.Intents, in)
	}
	res.Covered = covered
	return res, nil
}

// candidate is a tool whose pattern matched a whole segment.
type candidate struct {
	p    *compiled
	m    []int
	text string
}

// analyse recognises one segment: an intent, or a decline (nil when the
// segment names no tool at all).
func (r *Rules) analyse(seg string, allowed []bool) (Intent, bool, *Decline) {
	norm := collapse(seg)
	// Only the tools whose trigger words occur are tried: a phrasing of a
	// tool always contains one of them, and the word scan costs far less
	// than running every pattern.
	var wordBuf [24]string
	ws := r.segmentWords(wordBuf[:0], norm)
	var hitBuf [8]wordHit
	hits := r.wordHits(ws, hitBuf[:0])
	var domainBuf [4]string
	var toolBuf [4]*toolSet
	domains, triggered := r.triggered(ws, hits, allowed, domainBuf[:0], toolBuf[:0])
	var candBuf [2]candidate
	cands := candBuf[:0]
	// The foldKeys of norm and seg and their pairSets, made when first
	// needed.
	var normBuf, segBuf [maxLitScan]byte
	var normKey, segKey []byte
	var normPairs, segPairs pairSet
	for _, t := range triggered {
		for _, p := range t.patterns {
			if anyAllowed(p.unlessIdx, allowed) {
				continue
			}
			text := norm
			if p.raw {
				text = seg
			}
			// The clauses pay on a short segment (a list item), where
			// finding a few literals costs less than a regex; on a long one
			// each absent literal is a scan of the whole text, and most
			// patterns tried there are cut short by their regex anyway.
			if len(p.lits) > 0 && len(text) <= maxLitScan {
				var key []byte
				var pairs *pairSet
				switch {
				case !p.raw:
					if normKey == nil {
						normKey = foldKey(normBuf[:0], norm)
						normPairs = pairsOf(normKey)
					}
					key, pairs = normKey, &normPairs
				default:
					if segKey == nil {
						segKey = foldKey(segBuf[:0], seg)
						segPairs = pairsOf(segKey)
					}
					key, pairs = segKey, &segPairs
				}
				if !mayMatchPairs(p.lits, p.litPairs, key, pairs) {
					continue // no match can lack the pattern's literals
				}
			}
			if m := p.match(text); m != nil {
				cands = append(cands, candidate{p: p, m: m, text: text})
				break
			}
		}
	}
	var intent Intent // the first of intents
	intents := 0
	var decline *Decline
	for _, c := range cands {
		ins, iws, ihits := norm, ws, hits
		if len(c.p.payloads) > 0 {
			ins = instruction(c)
			iws = words(ins)
			ihits = r.wordHits(iws, nil)
		} else if c.p.raw {
			ins = c.text
		}
		if reason := r.declineFor(ins, iws, ihits, c.p.tool); reason != "" {
			return Intent{}, false, &Decline{Reason: reason, Tool: c.p.tool}
		}
		in, reason := r.extract(c)
		if reason != "" {
			decline = &Decline{Reason: reason, Tool: c.p.tool}
			continue
		}
		if intents == 0 {
			intent = in
		}
		intents++
	}
	switch {
	case intents == 1 && decline == nil:
		return intent, true, nil
	case intents > 1:
		return Intent{}, false, &Decline{Reason: ReasonAmbiguous}
	case decline != nil:
		return Intent{}, false, decline
	}
	// No phrasing matched: say why, if the segment is about a tool at all.
	tools := triggered
	if len(domains) == 0 {
		return Intent{}, false, nil
	}
	tool := ""
	if len(tools) == 1 {
		tool = tools[0].name
	}
	if reason := r.declineFor(norm, ws, hits, tool); reason != "" {
		return Intent{}, false, &Decline{Reason: reason, Tool: tool}
	}
	if len(domains) > 1 {
		return Intent{}, false, &Decline{Reason: ReasonMultipleInProse}
	}
	for _, t := range tools {
		if reason := r.declineFor(norm, ws, hits, t.name); reason != "" {
			return Intent{}, false, &Decline{Reason: reason, Tool: t.name}
		}
		if len(norm) > maxDeclineScan {
			continue
		}
		for i := range t.declines {
			if t.declines[i].matches(norm, ws) {
				d := t.declines[i]
				return Intent{}, false, &Decline{Reason: d.reason, Tool: t.name}
			}
		}
	}
	return Intent{}, false, &Decline{Reason: ReasonUnrecognized, Tool: tool}
}

// anyAllowed reports whether one of the tools (indexes) is allowed.
func anyAllowed(tools []int, allowed []bool) bool {
	for _, i := range tools {
		if allowed[i] {
			return true
		}
	}
	return false
}

// instruction is the matched text without its payload groups: the words of
// the request itself, which decline rules read.
func instruction(c candidate) string {
	if len(c.p.payloads) == 0 {
		return c.text
	}
	var b strings.Builder
	at := 0
	for _, g := range c.p.payloads {
		s, e := c.m[2*g], c.m[2*g+1]
		if s < at {
			continue
		}
		if s >= 0 {
			b.WriteString(c.text[at:s])
			b.WriteString(" ")
			at = e
		}
	}
	b.WriteString(c.text[at:])
	return b.String()
}

// declineFor returns the reason of the first common decline rule that applies
// to tool ("" for any tool) and matches s, whose words are ws with hits
// (wordHits).
func (r *Rules) declineFor(s string, ws []string, hits []wordHit, tool string) string {
	for i := range r.declines {
		d := &r.declines[i]
		if len(d.tools) > 0 && !slices.Contains(d.tools, tool) {
			continue
		}
		var found bool
		switch {
		case d.re != nil:
			found = d.re.MatchString(s)
		case i < 64:
			found = d.words.inHits(ws, hits, 1<<i)
		default:
			found = d.words.in(ws)
		}
		if found {
			return d.reason
		}
	}
	return ""
}

// wordHit is a word of a segment (its index in the words) that starts a
// trigger or a phrase of a common decline rule.
type wordHit struct {
	at   int
	info *wordInfo
}

// toolTriggers are the triggers of one tool (index) that start with a word.
type toolTriggers struct {
	tool     int
	triggers [][]string
}

// wordInfo is what a word may start: triggers of tools, and
// phrases of the first 64 common decline rules (bit i: rule i).
type wordInfo struct {
	tools    []toolTriggers
	declines uint64
}

// wordHits appends to hits the words of ws that start a trigger or a
// decline phrase: one map lookup a word, for both.
func (r *Rules) wordHits(ws []string, hits []wordHit) []wordHit {
	for i, w := range ws {
		if info := r.wordIndex[w]; info != nil {
			hits = append(hits, wordHit{at: i, info: info})
		}
	}
	return hits
}

// inHits is in for the rule of bit, looking only at the words of hits.
func (p phrases) inHits(ws []string, hits []wordHit, bit uint64) bool {
	for _, h := range hits {
		if h.info.declines&bit == 0 {
			continue
		}
		for _, ph := range p[ws[h.at]] {
			if len(ws)-h.at >= len(ph) && slices.Equal(ws[h.at:h.at+len(ph)], ph) {
				return true
			}
		}
	}
	return false
}

// triggered returns the domains whose trigger words occur in words ws (with
// hits), and their tools in the order their triggers occur, appended to
// domains and tools.
func (r *Rules) triggered(ws []string, hits []wordHit, allowed []bool, domains []string, tools []*toolSet) ([]string, []*toolSet) {
	for _, h := range hits {
		i := h.at
		for _, tt := range h.info.tools {
			ti := tt.tool
			t := r.tools[ti]
			if !allowed[ti] || slices.Contains(tools, t) {
				continue
			}
			for _, tr := range tt.triggers { // those of t that start with w
				if len(ws)-i >= len(tr) && slices.Equal(ws[i:i+len(tr)], tr) {
					tools = append(tools, t)
					if !slices.Contains(domains, t.domain) {
						domains = append(domains, t.domain)
					}
					break
				}
			}
		}
	}
	return domains, tools
}

// extract builds and validates the arguments of a candidate.
// The reason is "" for an intent.
func (r *Rules) extract(c candidate) (Intent, string) {
	t := c.p.set
	args, reason := r.arguments(c)
	if args == nil {
		return Intent{}, reason
	}
	// The schema decides (its precheck answers the common valid case without
	// the schema library: contracts/precheck.go).
	if err := t.contract.ValidateInput(args); err != nil {
		return Intent{}, ReasonInvalidValue
	}
	return Intent{Tool: c.p.tool, Args: args, Lang: c.p.lang}, ""
}

// arguments converts the sub-matches of a candidate to its
// arguments, not yet checked against the schema; nil and the reason when a
// value cannot be read.
func (r *Rules) arguments(c candidate) (map[string]any, string) {
	args := make(map[string]any, len(c.p.argv))
	for i := range c.p.argv {
		spec := &c.p.argv[i]
		name, a := spec.name, &spec.rule
		switch {
		case a.Const != nil:
			args[name] = contracts.CopyJSON(spec.constant, nil)
			continue
		case a.Lang:
			args[name] = c.p.langValue
			continue
		case len(a.Groups) > 0:
			list := make([]any, len(a.Groups))
			for i, g := range spec.groups {
				if c.m[2*g] < 0 {
					return nil, ReasonMissingArgument
				}
				v, err := value(a.Type, c.text[c.m[2*g]:c.m[2*g+1]])
				if err != nil {
					return nil, reasonOf(err)
				}
				list[i] = v
			}
			args[name] = list
			continue
		}
		g := spec.group
		s, e := c.m[2*g], c.m[2*g+1]
		if s < 0 {
			if a.Optional {
				continue
			}
			return nil, ReasonMissingArgument
		}
		text := c.text[s:e]
		if a.Map != "" {
			var buf [64]byte
			v, ok := spec.values[string(lowerKey(buf[:0], text))]
			if !ok {
				return nil, ReasonInvalidValue
			}
			args[name] = v
			continue
		}
		if a.Type == "zone" {
			var buf [64]byte
			if z, ok := r.maps["zones"][string(lowerKey(buf[:0], text))]; ok {
				text = z
			}
		}
		v, err := value(a.Type, text)
		if err != nil {
			return nil, reasonOf(err)
		}
		args[name] = v
	}
	return args, ""
}

func reasonOf(err error) string {
	var ve *valueError
	if errors.As(err, &ve) {
		return ve.reason
	}
	return ReasonInvalidValue
}

// ArgsJSON is the intent's arguments as JSON text (numbers exact).
func (in Intent) ArgsJSON() ([]byte, error) { return json.Marshal(in.Args) }
