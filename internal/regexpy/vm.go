package regexpy

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"regexp/syntax"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
	"unsafe"
)

// Regexp is a compiled Python pattern.
type Regexp struct {
	prog     *syntax.Prog
	groupCap []int          // Python group k -> Go capture index
	names    map[string]int // group name -> Python group number
	markers  []int          // Go capture index -> assertion kind
	loopOf   []int          // Go capture index -> loop number (loop markers)
	loops    bool           // the program has loop markers (see loops.go)
	// first holds the instructions that can consume the first character of a
	// match; nil when a match can be empty or start with any character. The
	// search skips positions none of them accepts.
	first    []*syntax.Inst
	ncap     int  // slots per thread (2 per Go capture)
	anchored bool // every match must start at position 0
	// GoPattern is the translated pattern (for diagnostics and tests).
	GoPattern string
	// machines pools the matching state of finished FindAll calls.
	machines *sync.Pool
	// ascii[pc] is the set of ASCII characters instruction pc (InstRune)
	// accepts, and firstASCII those that can begin a match (see first):
	// computed from MatchRune once, so that the common case needs no search
	// of a large Unicode class.
	ascii      [][2]uint64
	firstASCII [2]uint64
	// firstOnlyASCII: no instruction of first accepts a character beyond
	// ASCII, so firstASCII alone says where a match can begin.
	firstOnlyASCII bool
	// firstByte is the one character that can begin a match when
	// firstOnlyASCII and firstASCII has a single member (a literal such as
	// the E of ^ERROR), else -1: in ASCII text (FindAllText) the search
	// finds it with strings.IndexByte.
	firstByte int
	// startPC is the first instruction every path from the program's start
	// reaches (past captures, no-ops and assertions), or 0; the backtracker
	// skips a start position whose (startPC, position) it has visited.
	startPC uint32
	// sre is the backtracker's node tree (sre.go), for a pattern that
	// needs it; prog is nil then. sreNodes counts its nodes.
	sre         *bnode
	sreNodes    int
	sreAnchored bool
	backtrack   string
}

// asciiSets computes Regexp.ascii and Regexp.firstASCII.
func asciiSets(prog *syntax.Prog, first []*syntax.Inst) ([][2]uint64, [2]uint64) {
	set := func(inst *syntax.Inst) (b [2]uint64) {
		for r := rune(0); r < 128; r++ {
			if inst.MatchRune(r) {
				b[r>>6] |= 1 << (r & 63)
			}
		}
		return b
	}
	// Repeats (x{1000}) compile to many instructions over one class: compute
	// each class once.
	type class struct {
		runes *rune
		n     int
		flags uint32
	}
	done := map[class][2]uint64{}
	sets := make([][2]uint64, len(prog.Inst))
	for pc := range prog.Inst {
		inst := &prog.Inst[pc]
		if inst.Op != syntax.InstRune {
			continue
		}
		k := class{unsafe.SliceData(inst.Rune), len(inst.Rune), inst.Arg}
		b, ok := done[k]
		if !ok {
			b = set(inst)
			done[k] = b
		}
		sets[pc] = b
	}
	var f [2]uint64
	for _, inst := range first {
		b := set(inst)
		f[0] |= b[0]
		f[1] |= b[1]
	}
	return sets, f
}

// matchRune reports whether instruction pc, an InstRune, accepts r.
//
//go:norace
func (re *Regexp) matchRune(pc uint32, inst *syntax.Inst, r rune) bool {
	if uint32(r) < 128 {
		return re.ascii[pc][r>>6]&(1<<(r&63)) != 0
	}
	return inst.MatchRune(r)
}

// Compile translates and compiles a Python pattern. flags holds any of "i", "m",
// "s" (re.IGNORECASE, re.MULTILINE, re.DOTALL). It returns *SyntaxError,
// *UnsupportedError or *TooLargeError.
func Compile(pattern, flags string) (*Regexp, error) {
	key := cacheKey{pattern, flags}
	if re, ok := cache.get(key); ok {
		return re, nil
	}
	re, err := compile(pattern, flags)
	if err == nil {
		cache.put(key, re) // unless it is too large (cache.go)
	}
	return re, err
}

func compile(pattern, flags string) (*Regexp, error) {
	var fl flagSet
	for _, c := range flags {
		switch c {
		case 'i':
			fl.i = true
		case 'm':
			fl.m = true
		case 's':
			fl.s = true
		default:
			return nil, &SyntaxError{Msg: fmt.Sprintf("unknown flag %q (allowed: i, m, s)", c)}
		}
	}
	t, err := translate(pattern, fl)
	if err != nil {
		return nil, err
	}
	goPat := t.out.String()
	re, err := syntax.Parse(goPat, syntax.Perl)
	if err != nil {
		var se *syntax.Error
		if errors.As(err, &se) && (se.Code == syntax.ErrLarge || se.Code == syntax.ErrNestingDepth || se.Code == syntax.ErrInvalidRepeatSize) {
			return nil, &TooLargeError{Msg: string(se.Code)}
		}
		return nil, fmt.Errorf("regexpy: translated pattern rejected (a bug): %w", err)
	}
	if t.backtrack != "" {
		return compileBacktrack(t, re, goPat)
	}
	lr := &loopRewriter{nextCap: t.goCaps, userCaps: map[int]bool{}, markers: map[int]int{}, loopOf: map[int]int{}}
	for _, c := range t.groupCap[1:] {
		lr.userCaps[c] = true
	}
	re = lr.rewrite(re, 0)
	prog, err := syntax.Compile(re.Simplify())
	if err != nil {
		return nil, fmt.Errorf("regexpy: compile: %w", err)
	}
	if len(prog.Inst) > maxInst {
		return nil, &TooLargeError{Msg: fmt.Sprintf("compiled program has %d instructions (limit %d)", len(prog.Inst), maxInst)}
	}
	markers := make([]int, lr.nextCap+1)
	loopOf := make([]int, lr.nextCap+1)
	for c, k := range t.markers {
		markers[c] = k
	}
	for c, k := range lr.markers {
		markers[c] = k
		loopOf[c] = lr.loopOf[c]
	}
	ncap := prog.NumCap
	if ncap < 2*(lr.nextCap+1) {
		ncap = 2 * (lr.nextCap + 1)
	}
	first := firstInsts(prog)
	ascii, firstASCII := asciiSets(prog, first)
	firstOnlyASCII := first != nil
	for _, inst := range first {
		firstOnlyASCII = firstOnlyASCII && onlyASCII(inst)
	}
	firstByte := -1
	if firstOnlyASCII && bits.OnesCount64(firstASCII[0])+bits.OnesCount64(firstASCII[1]) == 1 {
		if firstASCII[0] != 0 {
			firstByte = bits.TrailingZeros64(firstASCII[0])
		} else {
			firstByte = 64 + bits.TrailingZeros64(firstASCII[1])
		}
	}
	return &Regexp{
		prog: prog, groupCap: t.groupCap, names: t.names, markers: markers, loopOf: loopOf, ncap: ncap,
		loops: lr.loops > 0, anchored: prog.StartCond()&syntax.EmptyBeginText != 0, GoPattern: goPat,
		first: first, machines: &sync.Pool{}, ascii: ascii, firstASCII: firstASCII, firstOnlyASCII: firstOnlyASCII, firstByte: firstByte,
		startPC: startPC(prog),
	}, nil
}

// compileBacktrack builds the backtracker's node tree (sre.go) for a
// pattern that needs it.
func compileBacktrack(t *translator, parsed *syntax.Regexp, goPat string) (*Regexp, error) {
	c := &btCompiler{markers: t.markers, markerArg: t.markerArg, pyGroup: map[int]int{}, widths: map[int][2]int64{}}
	for g, idx := range t.groupCap[1:] {
		c.pyGroup[idx] = g + 1
	}
	root, err := c.conv(parsed)
	if err != nil {
		return nil, err
	}
	if c.nodes > maxInst {
		return nil, &TooLargeError{Msg: fmt.Sprintf("pattern has %d nodes (limit %d)", c.nodes, maxInst)}
	}
	anchored := root.op == bEmptyOp && root.emptyOp == syntax.EmptyBeginText ||
		root.op == bConcat && len(root.subs) > 0 && root.subs[0].op == bEmptyOp && root.subs[0].emptyOp == syntax.EmptyBeginText
	return &Regexp{groupCap: t.groupCap, names: t.names, GoPattern: goPat, sre: root, sreNodes: c.nodes,
		sreAnchored: anchored, backtrack: t.backtrack}, nil
}

// Backtracking names the first construct of the pattern that needs the
// backtracking engine (sre.go), or "" when the linear-time VM runs it.
func (re *Regexp) Backtracking() string { return re.backtrack }

// startPC follows the program from its start over instructions with one way
// on (captures, no-ops, assertions) and returns the first other one, or 0
// when that is the start itself.
func startPC(prog *syntax.Prog) uint32 {
	pc := uint32(prog.Start)
	for range prog.Inst { // a straight line visits each instruction once
		switch prog.Inst[pc].Op {
		case syntax.InstCapture, syntax.InstNop, syntax.InstEmptyWidth:
			pc = prog.Inst[pc].Out
		default:
			if pc == uint32(prog.Start) {
				return 0
			}
			return pc
		}
	}
	return 0
}

// onlyASCII reports whether a rune instruction accepts ASCII characters only:
// its ranges end below 128 and it does not fold case (folding reaches beyond
// ASCII: k to U+212A, s to U+017F).
func onlyASCII(inst *syntax.Inst) bool {
	if inst.Op == syntax.InstRune && syntax.Flags(inst.Arg)&syntax.FoldCase != 0 {
		return false
	}
	for _, r := range inst.Rune {
		if r >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// firstInsts follows the empty-width part of the program from its start
// (conservatively treating every assertion as passable) and collects the
// consuming instructions reached, or returns nil when Match or an any-character
// instruction is reached.
func firstInsts(prog *syntax.Prog) []*syntax.Inst {
	seen := make([]bool, len(prog.Inst))
	var out []*syntax.Inst
	stack := []uint32{uint32(prog.Start)}
	for len(stack) > 0 {
		pc := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if pc == 0 || seen[pc] {
			continue
		}
		seen[pc] = true
		inst := &prog.Inst[pc]
		switch inst.Op {
		case syntax.InstAlt, syntax.InstAltMatch:
			stack = append(stack, inst.Out, inst.Arg)
		case syntax.InstNop, syntax.InstCapture, syntax.InstEmptyWidth:
			stack = append(stack, inst.Out)
		case syntax.InstRune, syntax.InstRune1:
			out = append(out, inst)
		case syntax.InstFail:
		default: // Match, RuneAny, RuneAnyNotNL
			return nil
		}
		if len(out) > 64 {
			return nil
		}
	}
	return out
}

// canStart reports whether a match can begin with r.
//
//go:norace
func (re *Regexp) canStart(r rune) bool {
	if uint32(r) < 128 {
		return re.firstASCII[r>>6]&(1<<(r&63)) != 0
	}
	for i := 0; i < len(re.first); i++ { // not range: see clear
		inst := re.first[i]
		if inst.Op == syntax.InstRune1 {
			if r == inst.Rune[0] {
				return true
			}
		} else if inst.MatchRune(r) {
			return true
		}
	}
	return false
}

// maxInst bounds the compiled program (and so the per-position work).
const maxInst = 20000

// NumGroups is the number of Python capture groups.
func (re *Regexp) NumGroups() int { return len(re.groupCap) - 1 }

// GroupNames maps each group name to its Python group number.
func (re *Regexp) GroupNames() map[string]int { return re.names }

// Match is one match: Groups[0] is the whole match; each entry is [start, end) in
// code points, or [-1, -1] for a group that did not take part. Groups is reused
// between matches: it is valid only during the visit callback (copy to keep it).
type Match struct {
	Groups [][2]int
}

// CostError reports that the matching work or match count exceeded its budget.
type CostError struct{ Msg string }

func (e *CostError) Error() string { return e.Msg }

// Limits bound a FindAll call.
type Limits struct {
	MaxSteps   int64 // VM thread steps over the whole call
	MaxMatches int   // matches counted
	// Progress, when set, is called now and then during a scan with the
	// position reached and the text's length (code points), for progress
	// reports; it must be cheap.
	Progress func(pos, n int)
}

// FindAll visits every match of Python's re.finditer over text, in order. visit
// returns false to stop early. It returns ctx.Err() when the context ends and a
// *CostError when a limit is reached.
func (re *Regexp) FindAll(ctx context.Context, text []rune, lim Limits, visit func(Match) bool) error {
	return re.FindAllText(ctx, text, "", lim, visit)
}

// FindAllText is FindAll with the text also as bytes when it is all ASCII:
// ascii is then the same text (ascii[i] == byte(text[i]) for every i), else
// "". It gives the same matches; an ASCII text lets the search find the
// possible starts of a match with strings.IndexByte.
func (re *Regexp) FindAllText(ctx context.Context, text []rune, ascii string, lim Limits, visit func(Match) bool) error {
	if re.sre != nil {
		return re.btFindAll(ctx, text, lim, visit)
	}
	if len(ascii) != len(text) {
		ascii = "" // not the same text: ignored
	}
	// The backtracker gives the same answers, faster (backtrack.go): on
	// short texts directly, on longer ones when the VM could not have run
	// out of steps.
	if re.useBacktrack(len(text), lim) {
		return re.findAll(ctx, text, ascii, lim, visit, true)
	}
	if re.useBuffered(len(text)) {
		if done, err := re.findAllBuffered(ctx, text, ascii, lim, visit); done {
			return err
		}
	}
	return re.findAll(ctx, text, ascii, lim, visit, false)
}

// findAll is FindAllText with the engine chosen: the backtracker or the VM.
func (re *Regexp) findAll(ctx context.Context, text []rune, ascii string, lim Limits, visit func(Match) bool, backtrack bool) error {
	m := re.machine(ctx, text, lim)
	m.ascii = ascii
	defer re.release(m)
	search := m.search
	if backtrack {
		search = m.backtrack
	}
	pos := 0
	mustAdvance := false
	count := 0
	g := m.groups
	for pos <= len(text) {
		caps, err := search(pos, mustAdvance)
		if err != nil {
			return err
		}
		if caps == nil {
			return nil
		}
		count++
		if lim.MaxMatches > 0 && count > lim.MaxMatches {
			return &CostError{Msg: fmt.Sprintf("more than %d matches", lim.MaxMatches)}
		}
		for k, c := range re.groupCap {
			s, e := caps[2*c], caps[2*c+1]
			if s < 0 || e < 0 {
				g[k] = [2]int{-1, -1}
			} else {
				g[k] = [2]int{s, e}
			}
		}
		if !visit(Match{Groups: g}) {
			return nil
		}
		mustAdvance = g[0][0] == g[0][1]
		pos = g[0][1]
	}
	return nil
}

type thread struct {
	cap []int
}

type entry struct {
	pc uint32
	t  *thread
}

// queue is a sparse set of program counters in priority order.
type queue struct {
	sparse []uint32
	dense  []entry
	seen   map[uint64]struct{} // (flags, pc) of visited non-consuming instructions
	live   int                 // entries holding a thread (consuming or Match)
}

func newQueue(n int) *queue {
	return &queue{sparse: make([]uint32, n), dense: make([]entry, 0, n), seen: map[uint64]struct{}{}}
}

//go:norace
func (q *queue) contains(pc uint32) bool {
	j := q.sparse[pc]
	return int(j) < len(q.dense) && q.dense[j].pc == pc
}

//go:norace
func (q *queue) insert(pc uint32) *entry {
	q.sparse[pc] = uint32(len(q.dense))
	q.dense = append(q.dense, entry{pc: pc})
	return &q.dense[len(q.dense)-1]
}

// machine is the state of one FindAll call. Its methods, the VM's inner
// loops, are marked //go:norace: they touch only this per-call state and the
// compiled program, which is immutable once Compile returns (a cached *Regexp
// is shared by calls but never written), so they cannot race, and without
// instrumentation a -race build runs the step budget in about the time of a
// normal one instead of thirty times longer, so the budget, not the call
// deadline, ends a hopeless search in tests as in production. The visit
// callback runs outside them, instrumented.
type machine struct {
	re     *Regexp
	text   []rune
	ascii  string // text as bytes when it is all ASCII, else "" (FindAllText)
	lim    Limits
	ctx    context.Context
	q0, q1 *queue
	pool   []*thread
	steps  int64
	over   bool  // the step budget ran out inside add
	err    error // the context ended inside add
	// nextCheck is the step count at which add next checks the context.
	nextCheck int64
	// scratch and matchBuf are reused by every search of one FindAll call.
	scratch  []int
	matchBuf []int
	groups   [][2]int // the Match handed to visit
	// The backtracker's state (backtrack.go).
	visited []uint32
	jobs    []btJob
	// dirty: the words of visited from dirty on are all zero.
	dirty int
	// firstTry and maxPos describe the last backtrack search: the first
	// start it tried (-1: none) and the last position it visited.
	firstTry, maxPos int
	// spans buffers the matches of findAllBuffered.
	spans []int
}

// machine returns a machine for one FindAll call: a pooled one of this
// pattern when there is one (its queues, threads and buffers are sized for
// the program already), else a new one.
func (re *Regexp) machine(ctx context.Context, text []rune, lim Limits) *machine {
	m, _ := re.machines.Get().(*machine)
	if m == nil {
		m = &machine{re: re, q0: newQueue(len(re.prog.Inst)), q1: newQueue(len(re.prog.Inst)),
			groups: make([][2]int, len(re.groupCap))}
	}
	m.ctx, m.text, m.lim = ctx, text, lim
	m.steps, m.nextCheck, m.over, m.err = 0, 0, false, nil
	return m
}

// release returns m to the pool once its FindAll call is over; it keeps no
// reference to the call's text or context.
func (re *Regexp) release(m *machine) {
	m.ctx, m.text, m.ascii = nil, nil, ""
	re.machines.Put(m)
}

//go:norace
func (m *machine) alloc() *thread {
	if n := len(m.pool); n > 0 {
		t := m.pool[n-1]
		m.pool = m.pool[:n-1]
		return t
	}
	return &thread{cap: make([]int, m.re.ncap)}
}

func isWordU(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r) }

func isWordA(r rune) bool {
	return r == '_' || (r >= '0' && r <= '9') || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')
}

// assert evaluates a zero-width assertion at pos with Python's rules.
//
//go:norace
func (m *machine) assert(kind int, pos int) bool {
	n := len(m.text)
	switch kind {
	case assertDollar:
		return pos == n || (pos == n-1 && m.text[pos] == '\n')
	case assertWordU, assertNonWordU, assertWordA, assertNonWordA:
		if n == 0 {
			return false
		}
		isWord := isWordU
		if kind == assertWordA || kind == assertNonWordA {
			isWord = isWordA
		}
		before := pos > 0 && isWord(m.text[pos-1])
		after := pos < n && isWord(m.text[pos])
		if kind == assertWordU || kind == assertWordA {
			return before != after
		}
		return before == after
	}
	return false
}

//go:norace
func (m *machine) emptyOK(op syntax.EmptyOp, pos int) bool {
	n := len(m.text)
	if op&syntax.EmptyBeginText != 0 && pos != 0 {
		return false
	}
	if op&syntax.EmptyEndText != 0 && pos != n {
		return false
	}
	if op&syntax.EmptyBeginLine != 0 && !(pos == 0 || m.text[pos-1] == '\n') {
		return false
	}
	if op&syntax.EmptyEndLine != 0 && !(pos == n || m.text[pos] == '\n') {
		return false
	}
	if op&syntax.EmptyWordBoundary != 0 && !m.assert(assertWordU, pos) {
		return false
	}
	if op&syntax.EmptyNoWordBoundary != 0 && !m.assert(assertNonWordU, pos) {
		return false
	}
	return true
}

// add follows non-consuming instructions from pc at pos, appending consuming ones
// (and Match) to q in priority order. cap is scratch, restored on return. mask
// holds the loop flags of loops.go; without loop markers it is always 0 and
// threads are merged by pc alone.
//
//go:norace
func (m *machine) add(q *queue, pc uint32, pos int, cap []int, mask uint64) {
	if pc == 0 {
		return
	}
	inst := &m.re.prog.Inst[pc]
	consuming := false
	switch inst.Op {
	case syntax.InstMatch, syntax.InstRune, syntax.InstRune1, syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
		consuming = true
	}
	if m.lim.MaxSteps > 0 && m.steps > m.lim.MaxSteps {
		m.over = true // search reports it; stop exploring
		return
	}
	if m.steps >= m.nextCheck {
		// One position can take many steps (every instruction, once per
		// combination of loop flags): the context is checked in here too.
		m.nextCheck = m.steps + 1<<16
		if m.err = m.ctx.Err(); m.err != nil {
			m.over = true
			return
		}
	}
	if m.re.loops && !consuming {
		key := mask<<16 | uint64(pc)
		if _, seen := q.seen[key]; seen {
			return
		}
		q.seen[key] = struct{}{}
		m.steps++
	} else {
		if q.contains(pc) {
			return
		}
		m.steps++
		e := q.insert(pc)
		if consuming {
			// A new thread copies every capture slot: with many groups that
			// copy, not the step, is the work, and it is charged as such.
			m.steps += int64(len(cap) / 32)
			t := m.alloc()
			//lint:ignore S1001 copy() reports to the race detector even here (see machine)
			for i := 0; i < len(cap); i++ {
				t.cap[i] = cap[i]
			}
			e.t = t
			q.live++
			return
		}
	}
	switch inst.Op {
	case syntax.InstFail:
	case syntax.InstAlt, syntax.InstAltMatch:
		m.add(q, inst.Out, pos, cap, mask)
		m.add(q, inst.Arg, pos, cap, mask)
	case syntax.InstEmptyWidth:
		if m.emptyOK(syntax.EmptyOp(inst.Arg), pos) {
			m.add(q, inst.Out, pos, cap, mask)
		}
	case syntax.InstNop:
		m.add(q, inst.Out, pos, cap, mask)
	case syntax.InstCapture:
		idx := int(inst.Arg >> 1)
		if idx < len(m.re.markers) && m.re.markers[idx] != assertNone {
			kind := m.re.markers[idx]
			if inst.Arg&1 == 0 {
				switch kind {
				case assertLoopMark:
					bit := uint64(1) << m.re.loopOf[idx]
					if mask&bit != 0 {
						return
					}
					mask |= bit
				case assertLoopReset:
					mask &^= uint64(1) << m.re.loopOf[idx]
				default:
					if !m.assert(kind, pos) {
						return
					}
				}
			}
			m.add(q, inst.Out, pos, cap, mask)
			return
		}
		if int(inst.Arg) < len(cap) {
			old := cap[inst.Arg]
			cap[inst.Arg] = pos
			m.add(q, inst.Out, pos, cap, mask)
			cap[inst.Arg] = old
		} else {
			m.add(q, inst.Out, pos, cap, mask)
		}
	}
}

//go:norace
func (m *machine) clear(q *queue) {
	// Index loops, not range: a -race build checks the pointer arithmetic of
	// a range loop (checkptr) even where instrumentation is off.
	for i := 0; i < len(q.dense); i++ {
		if t := q.dense[i].t; t != nil {
			m.pool = append(m.pool, t)
		}
	}
	q.dense = q.dense[:0]
	q.live = 0
	if m.re.loops {
		clear(q.seen)
	}
}

// search finds the leftmost-first match starting at or after start. With
// mustAdvance, an empty match at start is rejected (the VM then takes the next
// alternative, as CPython's search does).
//
//go:norace
func (m *machine) search(start int, mustAdvance bool) ([]int, error) {
	clist, nlist := m.q0, m.q1
	m.clear(clist)
	m.clear(nlist)
	var matched []int
	if m.scratch == nil {
		m.scratch = make([]int, m.re.ncap)
		m.matchBuf = make([]int, m.re.ncap)
	}
	scratch := m.scratch
	n := len(m.text)
	for pos := start; ; pos++ {
		if m.over || (pos-start)&1023 == 0 {
			if m.err != nil {
				return nil, m.err
			}
			if err := m.ctx.Err(); err != nil {
				return nil, err
			}
			if m.lim.Progress != nil {
				m.lim.Progress(pos, n)
			}
			if m.lim.MaxSteps > 0 && m.steps > m.lim.MaxSteps {
				return nil, &CostError{Msg: fmt.Sprintf("matching needs more than %d steps", m.lim.MaxSteps)}
			}
		}
		if matched == nil && m.re.first != nil && clist.live == 0 {
			// No thread alive: skip to the next position where a match can begin.
			m.clear(clist)
			var err error
			if pos, err = m.skip(pos, start); err != nil {
				return nil, err
			}
			if pos >= n {
				break
			}
		}
		if matched == nil && (!m.re.anchored || pos == 0) {
			for i := range scratch {
				scratch[i] = -1
			}
			scratch[0] = pos
			m.add(clist, uint32(m.re.prog.Start), pos, scratch, 0)
		}
		if len(clist.dense) == 0 && (matched != nil || m.re.anchored) {
			break // no thread alive and no new start thread will come
		}
		r := rune(-1)
		if pos < n {
			r = m.text[pos]
		}
		for j := 0; j < len(clist.dense); j++ {
			e := clist.dense[j]
			t := e.t
			if t == nil {
				continue
			}
			m.steps++
			inst := &m.re.prog.Inst[e.pc]
			ok := false
			switch inst.Op {
			case syntax.InstMatch:
				if mustAdvance && pos == start {
					break
				}
				if matched == nil {
					matched = m.matchBuf
				}
				copy(matched, t.cap)
				matched[1] = pos
				// leftmost-first: lower-priority threads are cut off
				for k := j + 1; k < len(clist.dense); k++ {
					if d := clist.dense[k]; d.t != nil {
						m.pool = append(m.pool, d.t)
					}
				}
				clist.dense = clist.dense[:j+1]
			case syntax.InstRune1:
				ok = r == inst.Rune[0]
			case syntax.InstRune:
				ok = r >= 0 && m.re.matchRune(e.pc, inst, r)
			case syntax.InstRuneAny:
				ok = r >= 0
			case syntax.InstRuneAnyNotNL:
				ok = r >= 0 && r != '\n'
			}
			if ok {
				m.add(nlist, inst.Out, pos+1, t.cap, 0)
			}
		}
		m.clear(clist)
		clist, nlist = nlist, clist
		if pos >= n {
			break
		}
	}
	m.clear(clist)
	if m.err != nil {
		return nil, m.err
	}
	if m.over {
		return nil, &CostError{Msg: fmt.Sprintf("matching needs more than %d steps", m.lim.MaxSteps)}
	}
	return matched, nil
}

// skip returns the first position at or after pos where a match can begin
// (len(text) when there is none), checking the context every 1024 positions
// from start.
//
//go:norace
func (m *machine) skip(pos, start int) (int, error) {
	text, n := m.text, len(m.text)
	if m.re.firstByte >= 0 && m.ascii != "" && pos < n {
		// One possible first character in ASCII text: memchr. The context
		// is checked once per skip, as the loops below check it every 1024
		// positions.
		if err := m.ctx.Err(); err != nil {
			return pos, err
		}
		if i := strings.IndexByte(m.ascii[pos:], byte(m.re.firstByte)); i >= 0 {
			return pos + i, nil
		}
		return n, nil
	}
	if m.re.firstOnlyASCII {
		// The test of canStart inline, for the common first sets (a
		// literal, an ASCII class).
		f := &m.re.firstASCII
		for ; pos < n; pos++ {
			if r := text[pos]; uint32(r) < utf8.RuneSelf && f[r>>6]&(1<<(r&63)) != 0 {
				return pos, nil
			}
			if (pos+1-start)&1023 == 0 {
				if err := m.ctx.Err(); err != nil {
					return pos, err
				}
			}
		}
		return pos, nil
	}
	for pos < n && !m.re.canStart(text[pos]) {
		pos++
		if (pos-start)&1023 == 0 {
			if err := m.ctx.Err(); err != nil {
				return pos, err
			}
		}
	}
	return pos, nil
}

// String returns the translated Go pattern.
func (re *Regexp) String() string { return strings.Clone(re.GoPattern) }
