package regexpy

import (
	"context"
	"fmt"
	"regexp/syntax"
)

// The bounded backtracker: on short texts it finds the same matches as the
// Pike VM (search) several times faster, because it follows one thread at a
// time instead of keeping a queue of them and copying capture slots into
// every new thread. It explores the program depth first in priority order —
// Alt's Out before its Arg, as the VM orders threads — from each start
// position in turn, and never visits a (position, instruction) pair twice in
// one search: the first visit was the one with the higher priority, and
// whether a pair leads to a match depends only on the pair (assertions look
// at the position only), so a second visit could only fail again. That keeps
// one search within len(text)+1 times len(prog) visits, as for regexp's own
// backtracker.
//
// It is used (useBacktrack) only where it cannot change an answer:
//   - programs without loop markers (loops.go), whose threads differ by their
//     loop flags as well as by position and instruction;
//   - texts short enough that the visited set stays small, and that no
//     FindAll over them can reach the step budget with either engine: the
//     bound below is at least what the VM could spend over every search of
//     the text, so neither engine ever reports a CostError there, and the
//     results are the same.

// maxBacktrackStates bounds the visited set: (len(text)+1) × len(prog) bits.
const maxBacktrackStates = 256 << 10

// useBacktrack reports whether FindAll may use the backtracker on a text of
// n code points under lim.
func (re *Regexp) useBacktrack(n int, lim Limits) bool {
	if re.loops {
		return false
	}
	nprog := int64(len(re.prog.Inst))
	states := int64(n+1) * nprog
	if states > maxBacktrackStates {
		return false
	}
	if lim.MaxSteps <= 0 {
		return true
	}
	// The most steps the VM can take over all searches of the text: at most
	// n+2 searches, each over at most n+1 positions, each position adding at
	// most every instruction once (with its capture copy charged) and
	// stepping each of them once.
	perPos := nprog * (2 + int64(re.ncap)/32)
	return int64(n+2)*int64(n+1)*perPos <= lim.MaxSteps
}

// Longer texts, whose searches could together exceed the step budget, take
// the backtracker too when the visited set stays within maxBufferedStates
// (findAllBuffered): it finds the matches first, keeping them, and charges
// each search what the VM could at most have spent on it; only when those
// charges stay within the budget — so the VM would have reached no
// CostError either — are the matches handed on, else the VM runs the call
// from the start. The VM's search from start s0 (the first position where
// the skip lets a thread start, which is where the backtracker's first try
// is) holds, at any position, only (instruction, position) pairs that the
// backtracker visits in its search too: threads of a higher priority than
// the match it finds, which the backtracker explores and which fail, or the
// match's own path; lower-priority threads are cut where the match is found.
// So the VM's search ends by the backtracker's last visited position
// maxPos + 1 and takes at most (maxPos - s0 + 2) × perPos steps, perPos as in
// useBacktrack; a search without a match can run to the end of the text:
// (len(text) - s0 + 2) × perPos. FuzzBufferedMatchesVM compares the answers
// (matches and errors) with the VM's under random step budgets.

// maxBufferedStates bounds the visited set of findAllBuffered (1 MiB), and
// maxBufferedSpans the matches it keeps (group spans, 8 MiB); beyond either
// the VM runs.
const (
	maxBufferedStates = 8 << 20
	maxBufferedSpans  = 1 << 20
)

// useBuffered reports whether findAllBuffered may run on a text of n code
// points.
func (re *Regexp) useBuffered(n int) bool {
	return !re.loops && int64(n+1)*int64(len(re.prog.Inst)) <= maxBufferedStates
}

// findAllBuffered is findAll with the backtracker on a longer text (see
// above). It reports done false, having called visit for no match, when the
// VM must run the call instead.
func (re *Regexp) findAllBuffered(ctx context.Context, text []rune, ascii string, lim Limits, visit func(Match) bool) (done bool, err error) {
	m := re.machine(ctx, text, lim)
	m.ascii = ascii
	defer re.release(m)
	n := len(text)
	perPos := int64(len(re.prog.Inst)) * (2 + int64(re.ncap)/32)
	var charged int64
	spans := m.spans[:0]
	defer func() {
		if cap(spans) <= 1<<16 { // a pooled machine keeps a small buffer only
			m.spans = spans[:0]
		}
	}()
	nspan := 2 * len(re.groupCap)
	count, tooMany := 0, false
	pos, mustAdvance := 0, false
	for pos <= n {
		caps, err := m.backtrack(pos, mustAdvance)
		if err != nil {
			// The context ended (the backtracker has no budget): the VM
			// would end with the same error.
			return true, err
		}
		if m.firstTry >= 0 {
			last := n
			if caps != nil {
				last = m.maxPos
			}
			charged += int64(last-m.firstTry+2) * perPos
		}
		if lim.MaxSteps > 0 && charged > lim.MaxSteps {
			return false, nil // the VM might have run out of steps: it decides
		}
		if caps == nil {
			break
		}
		count++
		if lim.MaxMatches > 0 && count > lim.MaxMatches {
			tooMany = true // after the matches before it, as findAll
			break
		}
		if len(spans)+nspan > maxBufferedSpans {
			return false, nil
		}
		for _, c := range re.groupCap {
			s, e := caps[2*c], caps[2*c+1]
			if s < 0 || e < 0 {
				s, e = -1, -1
			}
			spans = append(spans, s, e)
		}
		mustAdvance = caps[0] == caps[1]
		pos = caps[1]
	}
	g := m.groups
	for i := 0; i < len(spans); i += nspan {
		for k := range g {
			g[k] = [2]int{spans[i+2*k], spans[i+2*k+1]}
		}
		if !visit(Match{Groups: g}) {
			return true, nil
		}
	}
	if tooMany {
		return true, &CostError{Msg: fmt.Sprintf("more than %d matches", lim.MaxMatches)}
	}
	return true, nil
}

// btJob is a unit of pending work: explore (pc, pos), or, with restore, put
// the old value pos back into capture slot pc.
type btJob struct {
	pc      uint32
	restore bool
	pos     int
}

// backtrack finds the leftmost-first match starting at or after start, like
// search. The visited set holds a bit per (position, instruction), position
// major, so that the bits of positions from start on — the only ones one
// search can set — are one range to clear; only the part earlier searches
// (of this call or of the pooled machine's previous calls) may have set, up
// to m.dirty, is cleared, so that a search costs what it explores, not the
// rest of the text. It leaves in m.firstTry the first start it tried and in
// m.maxPos the last position it visited (for findAllBuffered).
//
//go:norace
func (m *machine) backtrack(start int, mustAdvance bool) ([]int, error) {
	re := m.re
	n := len(m.text)
	nprog := len(re.prog.Inst)
	words := ((n+1)*nprog + 31) / 32
	if len(m.visited) < words {
		m.visited = make([]uint32, words)
		m.dirty = 0
	}
	if lo := start * nprog / 32; lo < m.dirty {
		clear(m.visited[lo:m.dirty])
		m.dirty = lo
	}
	if m.scratch == nil {
		m.scratch = make([]int, re.ncap)
		m.matchBuf = make([]int, re.ncap)
	}
	m.firstTry, m.maxPos = -1, start
	defer func() {
		// Every bit set is of a position in [start, maxPos].
		m.dirty = max(m.dirty, min(((m.maxPos+1)*nprog+31)/32, len(m.visited)))
	}()
	for s := start; s <= n; s++ {
		if re.anchored && s > 0 {
			break
		}
		if re.first != nil {
			var err error
			if s, err = m.skip(s, start); err != nil {
				return nil, err
			}
			if s >= n {
				break
			}
		}
		if m.firstTry < 0 {
			m.firstTry = s
		}
		if pc := re.startPC; pc != 0 {
			// Every path from the start reaches (startPC, s): visited in this
			// search already, it failed, and so would this try.
			if bit := uint32(s)*uint32(nprog) + pc; m.visited[bit/32]&(1<<(bit%32)) != 0 {
				continue
			}
		}
		if err := m.ctx.Err(); err != nil {
			return nil, err
		}
		if m.try(s, start, mustAdvance) {
			return m.matchBuf, nil
		}
		if m.err != nil {
			return nil, m.err
		}
	}
	return nil, nil
}

// try explores the program from its start at position s; on a match it
// leaves the capture slots in m.matchBuf and returns true.
//
//go:norace
func (m *machine) try(s, start int, mustAdvance bool) bool {
	re := m.re
	text := m.text
	n := len(text)
	nprog := uint32(len(re.prog.Inst))
	capt := m.scratch
	for i := 0; i < len(capt); i++ {
		capt[i] = -1
	}
	capt[0] = s
	jobs := append(m.jobs[:0], btJob{pc: uint32(re.prog.Start), pos: s})
	defer func() { m.jobs = jobs[:0] }()
	for len(jobs) > 0 {
		j := jobs[len(jobs)-1]
		jobs = jobs[:len(jobs)-1]
		if j.restore {
			capt[j.pc] = j.pos
			continue
		}
		pc, pos := j.pc, j.pos
	thread:
		for pc != 0 {
			if pos > m.maxPos {
				m.maxPos = pos
			}
			bit := uint32(pos)*nprog + pc
			if m.visited[bit/32]&(1<<(bit%32)) != 0 {
				break
			}
			m.visited[bit/32] |= 1 << (bit % 32)
			if m.steps++; m.steps >= m.nextCheck {
				m.nextCheck = m.steps + 1<<16
				if m.err = m.ctx.Err(); m.err != nil {
					return false
				}
			}
			inst := &re.prog.Inst[pc]
			switch inst.Op {
			case syntax.InstAlt, syntax.InstAltMatch:
				jobs = append(jobs, btJob{pc: inst.Arg, pos: pos})
				pc = inst.Out
			case syntax.InstNop:
				pc = inst.Out
			case syntax.InstEmptyWidth:
				if !m.emptyOK(syntax.EmptyOp(inst.Arg), pos) {
					break thread
				}
				pc = inst.Out
			case syntax.InstCapture:
				idx := int(inst.Arg >> 1)
				if idx < len(re.markers) && re.markers[idx] != assertNone {
					// An assertion marker (no loop markers here): checked
					// where it opens.
					if inst.Arg&1 == 0 && !m.assert(re.markers[idx], pos) {
						break thread
					}
				} else if int(inst.Arg) < len(capt) {
					jobs = append(jobs, btJob{pc: inst.Arg, restore: true, pos: capt[inst.Arg]})
					capt[inst.Arg] = pos
				}
				pc = inst.Out
			case syntax.InstRune1:
				if pos >= n || text[pos] != inst.Rune[0] {
					break thread
				}
				pos++
				pc = inst.Out
			case syntax.InstRune:
				if pos >= n || !re.matchRune(pc, inst, text[pos]) {
					break thread
				}
				pos++
				pc = inst.Out
			case syntax.InstRuneAny:
				if pos >= n {
					break thread
				}
				pos++
				pc = inst.Out
			case syntax.InstRuneAnyNotNL:
				if pos >= n || text[pos] == '\n' {
					break thread
				}
				pos++
				pc = inst.Out
			case syntax.InstMatch:
				if mustAdvance && pos == start {
					break thread
				}
				copy(m.matchBuf, capt)
				m.matchBuf[1] = pos
				return true
			default: // InstFail
				break thread
			}
		}
	}
	return false
}
