package regexpy

import (
	"context"
	"fmt"
	"regexp/syntax"
	"sort"
	"unicode"
)

// The backtracking engine: patterns that use look-around, backreferences,
// atomic groups, possessive quantifiers or conditionals (Regexp.Backtracking)
// run here, with the semantics of CPython 3.11's sre (Modules/_sre/sre_lib.h):
//   - greedy and lazy repeats try their iterations depth first; an optional
//     iteration is not tried at the position where the previous optional
//     iteration started (sre's last_ptr, "zero-width match protection");
//   - look-ahead and look-behind are atomic, and a positive one keeps the
//     captures its body set; a look-behind body (fixed width, checked at
//     compile time as CPython does) is matched forward from that many
//     characters back;
//   - an atomic group (?>X) keeps the first way X matches; a possessive
//     repeat X*+ takes each iteration's first match, stopping at the first
//     iteration that fails or matches empty (POSSESSIVE_REPEAT);
//   - a backreference to a group that has not matched fails; under (?i) it
//     compares simple lower case (ASCII only under (?a));
//   - a conditional (?(g)yes|no) takes yes when group g has matched.
//
// The work is bounded deterministically: every node visited, every
// character a single-character repeat takes or gives back or a
// backreference compares, and every 16 capture slots saved around a
// look-around, atomic group or possessive repeat is one step,
// charged against Limits.MaxSteps over the whole FindAll call; and the
// depth of the backtracking stack (nested visits, each a few Go stack
// frames) is bounded by maxBacktrackDepth, so that its memory stays within
// backtrackStackBytes. Either bound gives a *CostError, the same for every
// machine. As the VM's, the inner functions are //go:norace (they touch
// only the call's own state and the immutable compiled tree), so that a
// -race build meets the step budget before the call's deadline too.

// backtrackStackBytes bounds the Go stack the backtracker may use, and
// backtrackFrameBytes is what one nested visit is allowed: a visit and its
// continuation take 340-670 bytes of stack (measured: 100 000 nested
// iterations of (?:ab)* grew the goroutine's stack to 64 MiB), and Go
// doubles a stack that grows, so at 1 KiB a visit the stack in use stays
// under 44 MiB and the stack allocated within 64 MiB.
const (
	backtrackStackBytes = 64 << 20
	backtrackFrameBytes = 1 << 10
	maxBacktrackDepth   = backtrackStackBytes / backtrackFrameBytes
)

type bop uint8

const (
	bEmpty bop = iota
	bFail
	bLit        // runes (fold: Unicode simple folding)
	bClass      // ranges
	bAny        // any character
	bAnyNotNL   // any but \n
	bEmptyOp    // emptyOp at the position
	bAssert     // a marker assertion (kind: $, \b, \B)
	bCapture    // group
	bConcat     // subs
	bAlt        // subs, in priority order
	bRepeat     // min, max (-1: no bound), greedy, subs[0]
	bPossessive // min, max, subs[0]
	bLook       // kind: look-ahead/behind, positive/negative; width
	bAtomic     // subs[0]
	bBackref    // group, kind
	bCond       // group; subs[0] yes, subs[1] no
)

type bnode struct {
	op       bop
	kind     int
	subs     []*bnode
	runes    []rune // bLit; bClass: ranges lo-hi pairs
	fold     bool
	ascii    [2]uint64 // bClass: ASCII members
	min, max int
	greedy   bool
	simple   bool // bRepeat, bPossessive: the body is one character wide
	group    int
	width    int
	emptyOp  syntax.EmptyOp
}

// btCompiler turns the parsed translated pattern into a node tree.
type btCompiler struct {
	markers   map[int]int // Go capture index -> marker kind
	markerArg map[int]int
	pyGroup   map[int]int // Go capture index -> Python group
	widths    map[int][2]int64
	nodes     int
}

func (c *btCompiler) node(op bop) *bnode {
	c.nodes++
	return &bnode{op: op}
}

func (c *btCompiler) conv(re *syntax.Regexp) (*bnode, error) {
	var n *bnode
	switch re.Op {
	case syntax.OpNoMatch:
		n = c.node(bFail)
	case syntax.OpEmptyMatch:
		n = c.node(bEmpty)
	case syntax.OpLiteral:
		n = c.node(bLit)
		n.runes = re.Rune
		n.fold = re.Flags&syntax.FoldCase != 0
	case syntax.OpCharClass:
		n = c.node(bClass)
		n.runes = re.Rune
		for r := rune(0); r < 128; r++ {
			if classHas(n.runes, r) {
				n.ascii[r>>6] |= 1 << (r & 63)
			}
		}
	case syntax.OpAnyCharNotNL:
		n = c.node(bAnyNotNL)
	case syntax.OpAnyChar:
		n = c.node(bAny)
	case syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		n = c.node(bEmptyOp)
		n.emptyOp = map[syntax.Op]syntax.EmptyOp{
			syntax.OpBeginLine: syntax.EmptyBeginLine, syntax.OpEndLine: syntax.EmptyEndLine,
			syntax.OpBeginText: syntax.EmptyBeginText, syntax.OpEndText: syntax.EmptyEndText,
			syntax.OpWordBoundary: syntax.EmptyWordBoundary, syntax.OpNoWordBoundary: syntax.EmptyNoWordBoundary,
		}[re.Op]
	case syntax.OpCapture:
		return c.capture(re)
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		body, err := c.conv(re.Sub[0])
		if err != nil {
			return nil, err
		}
		n = c.node(bRepeat)
		n.min, n.max = repeatBounds(re)
		n.greedy = re.Flags&syntax.NonGreedy == 0
		n.subs = []*bnode{body}
		n.simple = oneWide(body)
	case syntax.OpConcat, syntax.OpAlternate:
		n = c.node(bConcat)
		if re.Op == syntax.OpAlternate {
			n.op = bAlt
		}
		for _, s := range re.Sub {
			sn, err := c.conv(s)
			if err != nil {
				return nil, err
			}
			n.subs = append(n.subs, sn)
		}
	default:
		return nil, fmt.Errorf("regexpy: backtracker: unexpected %v (a bug)", re.Op)
	}
	return n, nil
}

func repeatBounds(re *syntax.Regexp) (int, int) {
	switch re.Op {
	case syntax.OpStar:
		return 0, -1
	case syntax.OpPlus:
		return 1, -1
	case syntax.OpQuest:
		return 0, 1
	}
	return re.Min, re.Max
}

func oneWide(n *bnode) bool {
	switch n.op {
	case bClass, bAny, bAnyNotNL:
		return true
	case bLit:
		return len(n.runes) == 1
	}
	return false
}

func (c *btCompiler) capture(re *syntax.Regexp) (*bnode, error) {
	idx := re.Cap
	kind := c.markers[idx]
	if kind == assertNone {
		body, err := c.conv(re.Sub[0])
		if err != nil {
			return nil, err
		}
		n := c.node(bCapture)
		n.group = c.pyGroup[idx]
		n.subs = []*bnode{body}
		lo, hi := c.width(body)
		c.widths[n.group] = [2]int64{lo, hi}
		return n, nil
	}
	switch kind {
	case assertDollar, assertWordU, assertNonWordU, assertWordA, assertNonWordA:
		n := c.node(bAssert)
		n.kind = kind
		return n, nil
	case assertBackref, assertBackrefI, assertBackrefIA:
		n := c.node(bBackref)
		n.kind = kind
		n.group = c.markerArg[idx]
		return n, nil
	case assertCond:
		// (?(g)yes|no) was written ((yes)|(no)); Parse keeps the two
		// marker groups as they are.
		alt := re.Sub[0]
		if alt.Op != syntax.OpAlternate || len(alt.Sub) != 2 {
			return nil, fmt.Errorf("regexpy: backtracker: conditional parsed as %v (a bug)", alt.Op)
		}
		n := c.node(bCond)
		n.group = c.markerArg[idx]
		for _, s := range alt.Sub {
			if s.Op != syntax.OpCapture {
				return nil, fmt.Errorf("regexpy: backtracker: conditional branch parsed as %v (a bug)", s.Op)
			}
			b, err := c.conv(s.Sub[0])
			if err != nil {
				return nil, err
			}
			n.subs = append(n.subs, b)
		}
		return n, nil
	case assertPossessive:
		sub := re.Sub[0]
		switch sub.Op {
		case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
			body, err := c.conv(sub.Sub[0])
			if err != nil {
				return nil, err
			}
			n := c.node(bPossessive)
			n.min, n.max = repeatBounds(sub)
			n.subs = []*bnode{body}
			n.simple = oneWide(body)
			return n, nil
		}
		// Parse folded the repeat away (x{1}): the item alone, kept as
		// its first match.
		kind = assertAtomic
	}
	body, err := c.conv(re.Sub[0])
	if err != nil {
		return nil, err
	}
	switch kind {
	case assertAtomic:
		n := c.node(bAtomic)
		n.subs = []*bnode{body}
		return n, nil
	case assertLookahead, assertNegLookahead, assertLookbehind, assertNegLookbehind:
		n := c.node(bLook)
		n.kind = kind
		n.subs = []*bnode{body}
		if kind == assertLookbehind || kind == assertNegLookbehind {
			lo, hi := c.width(body)
			if lo != hi {
				return nil, &SyntaxError{Msg: "look-behind requires fixed-width pattern"}
			}
			n.width = int(lo)
		}
		return n, nil
	}
	return nil, fmt.Errorf("regexpy: backtracker: marker kind %d (a bug)", kind)
}

// width is CPython's SubPattern.getwidth: the least and most characters a
// node can match (capped at MAXREPEAT).
func (c *btCompiler) width(n *bnode) (int64, int64) {
	capw := func(lo, hi int64) (int64, int64) {
		return min(lo, pyMaxRepeat-1), min(hi, pyMaxRepeat)
	}
	switch n.op {
	case bLit:
		return int64(len(n.runes)), int64(len(n.runes))
	case bClass, bAny, bAnyNotNL:
		return 1, 1
	case bCapture, bAtomic:
		return c.width(n.subs[0])
	case bConcat:
		var lo, hi int64
		for _, s := range n.subs {
			l, h := c.width(s)
			lo, hi = capw(lo+l, hi+h)
		}
		return lo, hi
	case bAlt, bCond:
		lo, hi := int64(pyMaxRepeat-1), int64(0)
		for _, s := range n.subs {
			l, h := c.width(s)
			lo, hi = min(lo, l), max(hi, h)
		}
		return lo, hi
	case bRepeat, bPossessive:
		l, h := c.width(n.subs[0])
		mx := int64(n.max)
		if n.max < 0 {
			mx = pyMaxRepeat
		}
		if h > 0 && mx > pyMaxRepeat/h {
			return capw(l*int64(n.min), pyMaxRepeat)
		}
		return capw(l*int64(n.min), h*mx)
	case bBackref:
		w := c.widths[n.group]
		return w[0], w[1]
	}
	return 0, 0 // assertions, look-around, empty
}

//go:norace
func classHas(ranges []rune, r rune) bool {
	i := sort.Search(len(ranges)/2, func(i int) bool { return ranges[2*i+1] >= r })
	return i < len(ranges)/2 && ranges[2*i] <= r
}

// foldEq reports whether b is in a's simple case folding orbit.
//
//go:norace
func foldEq(a, b rune) bool {
	if a == b {
		return true
	}
	for f := unicode.SimpleFold(a); f != a; f = unicode.SimpleFold(f) {
		if f == b {
			return true
		}
	}
	return false
}

// oneMatches reports whether a one-character node accepts r.
//
//go:norace
func (n *bnode) oneMatches(r rune) bool {
	switch n.op {
	case bClass:
		if uint32(r) < 128 {
			return n.ascii[r>>6]&(1<<(r&63)) != 0
		}
		return classHas(n.runes, r)
	case bAny:
		return true
	case bAnyNotNL:
		return r != '\n'
	case bLit:
		return r == n.runes[0] || (n.fold && foldEq(n.runes[0], r))
	}
	return false
}

// btMachine is the state of one backtracking FindAll call.
type btMachine struct {
	m         *machine // text and assertions
	caps      []int    // 2 slots per Python group; group 0 unused
	steps     int64
	maxSteps  int64
	nextCheck int64
	depth     int
	err       error
}

func (b *btMachine) fail(err error) bool {
	if b.err == nil {
		b.err = err
	}
	return false
}

// step charges k steps; false once a bound is reached.
//
//go:norace
func (b *btMachine) step(k int64) bool {
	b.steps += k
	if b.maxSteps > 0 && b.steps > b.maxSteps {
		return b.fail(&CostError{Msg: fmt.Sprintf("matching needs more than %d steps", b.maxSteps)})
	}
	if b.steps >= b.nextCheck {
		b.nextCheck = b.steps + 1<<14
		if err := b.m.ctx.Err(); err != nil {
			return b.fail(err)
		}
	}
	return true
}

//go:norace
func (b *btMachine) snapshot() []int {
	// A copy costs a step per 16 slots, as a VM thread's capture copy, so
	// that many groups cost the budget what they cost in time.
	b.step(int64(len(b.caps) / 16))
	return append([]int(nil), b.caps...)
}

//go:norace
func (b *btMachine) restore(s []int) { copy(b.caps, s) }

// once matches n at i and returns the end of its first match.
//
//go:norace
func (b *btMachine) once(n *bnode, i int) (int, bool) {
	end := -1
	ok := b.match(n, i, func(e int) bool { end = e; return true })
	return end, ok
}

// match matches n at i and then k from where n ended, backtracking into n
// while k fails.
//
//go:norace
func (b *btMachine) match(n *bnode, i int, k func(int) bool) bool {
	if b.err != nil || !b.step(1) {
		return false
	}
	if b.depth++; b.depth > maxBacktrackDepth {
		b.depth--
		return b.fail(&CostError{Msg: fmt.Sprintf("backtracking needs more than %d MiB of stack (%d nested steps)", backtrackStackBytes>>20, maxBacktrackDepth)})
	}
	ok := b.match1(n, i, k)
	b.depth--
	return ok
}

//go:norace
func (b *btMachine) match1(n *bnode, i int, k func(int) bool) bool {
	text := b.m.text
	caps := b.caps
	switch n.op {
	case bEmpty:
		return k(i)
	case bLit:
		if i+len(n.runes) > len(text) {
			return false
		}
		for j, r := range n.runes {
			if c := text[i+j]; c != r && !(n.fold && foldEq(r, c)) {
				return false
			}
		}
		return k(i + len(n.runes))
	case bClass, bAny, bAnyNotNL:
		if i < len(text) && n.oneMatches(text[i]) {
			return k(i + 1)
		}
		return false
	case bEmptyOp:
		return b.m.emptyOK(n.emptyOp, i) && k(i)
	case bAssert:
		return b.m.assert(n.kind, i) && k(i)
	case bCapture:
		g := n.group
		s0, e0 := caps[2*g], caps[2*g+1]
		caps[2*g] = i // CPython's MARK at the opening
		if b.match(n.subs[0], i, func(e int) bool {
			old := caps[2*g+1]
			caps[2*g+1] = e
			if k(e) {
				return true
			}
			caps[2*g+1] = old
			return false
		}) {
			return true
		}
		caps[2*g], caps[2*g+1] = s0, e0
		return false
	case bConcat:
		return b.seq(n.subs, i, k)
	case bAlt:
		for _, s := range n.subs {
			if b.match(s, i, k) {
				return true
			}
			if b.err != nil {
				return false
			}
		}
		return false
	case bRepeat:
		if n.simple {
			return b.repeatOne(n, i, k)
		}
		return b.until(n, &repState{count: -1, lastPtr: -1}, i, k)
	case bPossessive:
		return b.possessive(n, i, k)
	case bAtomic:
		save := b.snapshot()
		end, ok := b.once(n.subs[0], i)
		if !ok {
			return false
		}
		if k(end) {
			return true
		}
		b.restore(save)
		return false
	case bLook:
		j := i
		if n.kind == assertLookbehind || n.kind == assertNegLookbehind {
			j = i - n.width
			if j < 0 {
				return n.kind == assertNegLookbehind && k(i)
			}
		}
		save := b.snapshot()
		_, ok := b.once(n.subs[0], j)
		if b.err != nil {
			return false
		}
		if n.kind == assertNegLookahead || n.kind == assertNegLookbehind {
			b.restore(save)
			return !ok && k(i)
		}
		if !ok {
			return false
		}
		if k(i) {
			return true
		}
		b.restore(save)
		return false
	case bBackref:
		s, e := caps[2*n.group], caps[2*n.group+1]
		if s < 0 || e < 0 || e < s || i+(e-s) > len(text) {
			return false
		}
		if !b.step(int64(e - s)) {
			return false
		}
		for j := 0; j < e-s; j++ {
			x, y := text[s+j], text[i+j]
			switch n.kind {
			case assertBackref:
				if x != y {
					return false
				}
			case assertBackrefI:
				if x != y && unicode.ToLower(x) != unicode.ToLower(y) {
					return false
				}
			default:
				if x != y && asciiLower(x) != asciiLower(y) {
					return false
				}
			}
		}
		return k(i + e - s)
	case bCond:
		if s, e := caps[2*n.group], caps[2*n.group+1]; s >= 0 && e >= 0 && e >= s {
			return b.match(n.subs[0], i, k)
		}
		return b.match(n.subs[1], i, k)
	}
	return false // bFail
}

func asciiLower(r rune) rune {
	if r >= 'A' && r <= 'Z' {
		return r + 'a' - 'A'
	}
	return r
}

//go:norace
func (b *btMachine) seq(subs []*bnode, i int, k func(int) bool) bool {
	switch len(subs) {
	case 0:
		return k(i)
	case 1:
		return b.match(subs[0], i, k)
	}
	return b.match(subs[0], i, func(e int) bool { return b.seq(subs[1:], e, k) })
}

// repeatOne is sre's REPEAT_ONE and MIN_REPEAT_ONE: a repeat of a
// one-character item, without recursion per character.
//
//go:norace
func (b *btMachine) repeatOne(n *bnode, i int, k func(int) bool) bool {
	text := b.m.text
	body := n.subs[0]
	limit := len(text) - i
	if n.max >= 0 && n.max < limit {
		limit = n.max
	}
	if n.greedy {
		c := 0
		for c < limit && body.oneMatches(text[i+c]) {
			c++
		}
		if !b.step(int64(c)) || c < n.min {
			return false
		}
		for ; c >= n.min; c-- {
			if k(i + c) {
				return true
			}
			if b.err != nil || !b.step(1) {
				return false
			}
		}
		return false
	}
	c := 0
	for c < n.min {
		if c >= limit || !body.oneMatches(text[i+c]) {
			return false
		}
		c++
	}
	if !b.step(int64(c)) {
		return false
	}
	for {
		if k(i + c) {
			return true
		}
		if b.err != nil || !b.step(1) {
			return false
		}
		if c >= limit || !body.oneMatches(text[i+c]) {
			return false
		}
		c++
	}
}

// repState is one execution of a general repeat (sre's SRE_REPEAT).
type repState struct {
	count   int // iterations done
	lastPtr int // where the last optional iteration started
}

// until is sre's MAX_UNTIL / MIN_UNTIL: called at the start and after each
// iteration.
//
//go:norace
func (b *btMachine) until(n *bnode, r *repState, i int, k func(int) bool) bool {
	count := r.count + 1
	next := func(e int) bool { return b.until(n, r, e, k) }
	iterate := func() bool {
		r.count = count
		save := r.lastPtr
		r.lastPtr = i
		if b.match(n.subs[0], i, next) {
			return true
		}
		r.lastPtr = save
		r.count = count - 1
		return false
	}
	if count < n.min {
		r.count = count
		if b.match(n.subs[0], i, next) {
			return true
		}
		r.count = count - 1
		return false
	}
	more := (n.max < 0 || count < n.max) && i != r.lastPtr
	if n.greedy {
		if more && iterate() {
			return true
		}
		return b.err == nil && k(i)
	}
	if k(i) {
		return true
	}
	return more && b.err == nil && iterate()
}

// possessive is sre's POSSESSIVE_REPEAT: each iteration keeps its first
// match; no iteration is given back.
//
//go:norace
func (b *btMachine) possessive(n *bnode, i int, k func(int) bool) bool {
	save := b.snapshot()
	body := n.subs[0]
	pos, c := i, 0
	for ; c < n.min; c++ {
		e, ok := b.once(body, pos)
		if !ok {
			b.restore(save)
			return false
		}
		pos = e
	}
	for prev := -1; (n.max < 0 || c < n.max) && pos != prev; c++ {
		prev = pos
		e, ok := b.once(body, pos)
		if !ok {
			break
		}
		pos = e
	}
	if b.err != nil {
		return false
	}
	if k(pos) {
		return true
	}
	b.restore(save)
	return false
}

// btFindAll is FindAll for a backtracking pattern: Python's finditer, each
// search trying every start position from the previous match's end.
func (re *Regexp) btFindAll(ctx context.Context, text []rune, lim Limits, visit func(Match) bool) error {
	b := &btMachine{m: &machine{ctx: ctx, text: text}, caps: make([]int, 2*len(re.groupCap)), maxSteps: lim.MaxSteps}
	groups := make([][2]int, len(re.groupCap))
	pos, mustAdvance, count := 0, false, 0
	n := len(text)
	for pos <= n {
		found := false
		for s := pos; s <= n && !found; s++ {
			if re.sreAnchored && s > 0 {
				break
			}
			for i := range b.caps {
				b.caps[i] = -1
			}
			end := -1
			found = b.match(re.sre, s, func(e int) bool {
				if mustAdvance && s == pos && e == s {
					return false // sre's must_advance at the first start
				}
				end = e
				return true
			})
			if b.err != nil {
				return b.err
			}
			if found {
				b.caps[0], b.caps[1] = s, end
			}
		}
		if !found {
			return nil
		}
		count++
		if lim.MaxMatches > 0 && count > lim.MaxMatches {
			return &CostError{Msg: fmt.Sprintf("more than %d matches", lim.MaxMatches)}
		}
		for g := range groups {
			s, e := b.caps[2*g], b.caps[2*g+1]
			if s < 0 || e < 0 || e < s {
				s, e = -1, -1
			}
			groups[g] = [2]int{s, e}
		}
		if !visit(Match{Groups: groups}) {
			return nil
		}
		mustAdvance = groups[0][0] == groups[0][1]
		pos = groups[0][1]
	}
	return nil
}
