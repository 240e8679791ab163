package regexpy

import (
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
// search can set — are one range to clear.
//
//go:norace
func (m *machine) backtrack(start int, mustAdvance bool) ([]int, error) {
	re := m.re
	n := len(m.text)
	nprog := len(re.prog.Inst)
	words := ((n+1)*nprog + 31) / 32
	if cap(m.visited) < words {
		m.visited = make([]uint32, words)
	}
	m.visited = m.visited[:words]
	clear(m.visited[start*nprog/32:])
	if m.scratch == nil {
		m.scratch = make([]int, re.ncap)
		m.matchBuf = make([]int, re.ncap)
	}
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
