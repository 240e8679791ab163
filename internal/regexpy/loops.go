package regexpy

import "regexp/syntax"

// CPython's greedy and lazy repeats stop iterating when an optional iteration
// would start at the position where the previous optional iteration started (its
// "zero-width match protection", last_ptr in _sre). A Pike VM merges threads by
// program counter instead, which gives the same match extents but can lose the
// captures of a final empty iteration: for (a*)+b on "aab" CPython reports group 1
// as "" (a last, empty iteration) where plain RE2 semantics say "aa".
//
// To keep CPython's captures, every repeat whose body can match empty and holds a
// capture group is rewritten before compilation:
//
//	x*      ->  RESET_k (MARK_k x)* RESET_k
//	x+      ->  RESET_k x (MARK_k x)* RESET_k
//	x{m,n}  ->  RESET_k x...x (MARK_k x (MARK_k x ...)?)? RESET_k
//
// RESET_k and MARK_k are empty capture groups the VM interprets: RESET_k clears
// loop k's flag, MARK_k kills the thread when the flag is set (an optional
// iteration already started at this position) and sets it otherwise; consuming a
// character clears every flag. The VM then deduplicates threads by (pc, flags), so
// the empty iteration survives with CPython's priority.

// maxLoops bounds the instrumented loops (one flag bit each) and maxLoopDepth
// their nesting: a thread's flags are a subset of the instrumented loops around
// its instruction, so each instruction has at most 2^maxLoopDepth states per
// position. Further loops keep plain RE2 capture semantics.
const (
	maxLoops     = 48
	maxLoopDepth = 3
)

type loopRewriter struct {
	nextCap  int
	userCaps map[int]bool
	markers  map[int]int // capture index -> assertion kind
	loopOf   map[int]int // capture index -> loop number
	loops    int
}

func nullable(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText,
		syntax.OpEndText, syntax.OpWordBoundary, syntax.OpNoWordBoundary, syntax.OpStar, syntax.OpQuest:
		return true
	case syntax.OpLiteral:
		return len(re.Rune) == 0
	case syntax.OpCapture, syntax.OpPlus:
		return nullable(re.Sub[0])
	case syntax.OpRepeat:
		return re.Min == 0 || nullable(re.Sub[0])
	case syntax.OpConcat:
		for _, s := range re.Sub {
			if !nullable(s) {
				return false
			}
		}
		return true
	case syntax.OpAlternate:
		for _, s := range re.Sub {
			if nullable(s) {
				return true
			}
		}
		return false
	}
	return false
}

func (lr *loopRewriter) hasUserCapture(re *syntax.Regexp) bool {
	if re.Op == syntax.OpCapture && lr.userCaps[re.Cap] {
		return true
	}
	for _, s := range re.Sub {
		if lr.hasUserCapture(s) {
			return true
		}
	}
	return false
}

func (lr *loopRewriter) marker(kind, loop int) *syntax.Regexp {
	lr.nextCap++
	lr.markers[lr.nextCap] = kind
	lr.loopOf[lr.nextCap] = loop
	return &syntax.Regexp{Op: syntax.OpCapture, Cap: lr.nextCap, Sub: []*syntax.Regexp{{Op: syntax.OpEmptyMatch}}}
}

func concat(subs ...*syntax.Regexp) *syntax.Regexp {
	return &syntax.Regexp{Op: syntax.OpConcat, Sub: subs}
}

func isLoop(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpStar, syntax.OpPlus:
		return true
	case syntax.OpRepeat:
		return re.Max != 0
	}
	return false
}

// rewrite instruments loops top-down; depth counts instrumented loops around re.
func (lr *loopRewriter) rewrite(re *syntax.Regexp, depth int) *syntax.Regexp {
	instrument := isLoop(re) && depth < maxLoopDepth && lr.loops < maxLoops &&
		nullable(re.Sub[0]) && lr.hasUserCapture(re.Sub[0])
	k := lr.loops
	if instrument {
		lr.loops++
		depth++
	}
	for i, s := range re.Sub {
		re.Sub[i] = lr.rewrite(s, depth)
	}
	if !instrument {
		return re
	}
	x := re.Sub[0]
	lazy := re.Flags & syntax.NonGreedy
	iter := func() *syntax.Regexp { return concat(lr.marker(assertLoopMark, k), x) }
	out := []*syntax.Regexp{lr.marker(assertLoopReset, k)}
	switch re.Op {
	case syntax.OpStar:
		out = append(out, &syntax.Regexp{Op: syntax.OpStar, Flags: lazy, Sub: []*syntax.Regexp{iter()}})
	case syntax.OpPlus:
		out = append(out, x, &syntax.Regexp{Op: syntax.OpStar, Flags: lazy, Sub: []*syntax.Regexp{iter()}})
	case syntax.OpRepeat:
		for i := 0; i < re.Min; i++ {
			out = append(out, x)
		}
		if re.Max < 0 {
			out = append(out, &syntax.Regexp{Op: syntax.OpStar, Flags: lazy, Sub: []*syntax.Regexp{iter()}})
		} else if re.Max > re.Min {
			var opt *syntax.Regexp
			for i := re.Max - re.Min; i > 0; i-- {
				body := iter()
				if opt != nil {
					body.Sub = append(body.Sub, opt)
				}
				opt = &syntax.Regexp{Op: syntax.OpQuest, Flags: lazy, Sub: []*syntax.Regexp{body}}
			}
			out = append(out, opt)
		}
	}
	// Leaving the loop clears its flag: it can only matter again after a new
	// RESET, so states that differ only in it are merged.
	out = append(out, lr.marker(assertLoopReset, k))
	return concat(out...)
}
