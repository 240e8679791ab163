package jmes

import (
	"strings"
	"unicode/utf8"

	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/internal/structured"
)

// Byte budgets. Values may share subtrees (`[@, @]` holds two references to
// one value), so counting values or allocations says nothing about how large
// a result is once written out: 2^k references to one 100 kB string are a
// handful of small arrays in memory and 2^k·100 kB of JSON. The evaluator
// therefore charges every value it builds at its canonical JSON size —
// a shared value counts in full each time it is referenced — against
// Limits.MaxWorkBytes, and refuses the final result when its canonical size
// passes Limits.MaxResultBytes. Sizes are computed by a walk that stops as
// soon as the remaining budget is passed, so measuring never costs more than
// the budget it protects.
//
// Small values take more memory than their JSON (an array slot holding the
// number 1 is 16 bytes, its JSON 2), so each part of a built value is charged
// the larger of its canonical size and the memory it takes: the work budget
// bounds both the JSON the evaluation stands for and the memory it holds.

// Memory, in bytes, of the parts of built values (64-bit Go).
const (
	elemBytes   = 16 // an array slot (an interface value)
	boxBytes    = 16 // a string or slice header boxed into an interface
	sliceBytes  = 24 // a slice header
	memberBytes = 64 // an object member: key, value and its index entry
)

// Reasons carried by KindLimit errors.
const (
	ReasonWorkLimit      = "work_limit"       // MaxSteps or MaxWorkBytes spent
	ReasonResultTooLarge = "result_too_large" // the result exceeds MaxResultBytes
)

func limitError(reason, format string, args ...any) *Error {
	e := errorf(KindLimit, format, args...)
	e.Reason = reason
	return e
}

// charge accounts for n bytes of built values.
func (in *interp) charge(n int) error {
	in.spent += n
	if in.lim.MaxWorkBytes > 0 && in.spent > in.lim.MaxWorkBytes {
		return limitError(ReasonWorkLimit, "evaluation builds more than %d bytes of intermediate values", in.lim.MaxWorkBytes)
	}
	return nil
}

// room is what is left of the work budget (a large number when unbounded).
func (in *interp) room() int {
	if in.lim.MaxWorkBytes <= 0 {
		return int(^uint(0) >> 2)
	}
	return max(in.lim.MaxWorkBytes-in.spent, 0)
}

// chargePart charges v as part of a value being built: its canonical size
// plus punct characters of punctuation, or mem bytes of memory if that is
// more. It measures v no further than the budget allows.
func (in *interp) chargePart(v any, punct, mem int) error {
	n, err := in.size(v, in.room()+1)
	if err != nil {
		return err
	}
	return in.charge(max(n+punct, mem))
}

// chargeElem charges one element appended to an array being built (its
// size and a comma, at least an array slot).
func (in *interp) chargeElem(v any) error { return in.chargePart(v, 1, elemBytes) }

// chargeElems charges an array of the given elements before it is built.
func (in *interp) chargeElems(elems []any) error {
	if err := in.charge(2 + sliceBytes); err != nil {
		return err
	}
	for _, e := range elems {
		if err := in.chargeElem(e); err != nil {
			return err
		}
	}
	return nil
}

// chargeMember charges one member set on an object being built (key,
// colon, value and a comma, at least a member's memory).
func (in *interp) chargeMember(key string, v any) error {
	return in.chargePart(v, stringChars(key, in.room()+1)+2, memberBytes)
}

// chargeString charges a string of n bytes about to be built.
func (in *interp) chargeString(n int) error { return in.charge(n + boxBytes) }

// size returns the canonical JSON size of v in characters (what
// evidence.Canonical writes: strings escaped as Python's json.dumps with
// ensure_ascii=False, integers as digits, floats in repr form), or a value
// above limit as soon as it passes limit. Every 4096 nodes it charges a step
// and checks the context, so a walk over a large shared value is work too.
func (in *interp) size(v any, limit int) (int, error) {
	s := sizer{in: in, limit: limit}
	s.walk(v)
	return s.n, s.err
}

type sizer struct {
	in    *interp
	limit int
	n     int
	nodes int
	err   error
}

func (s *sizer) walk(v any) {
	if s.n > s.limit || s.err != nil {
		return
	}
	if s.nodes++; s.nodes&4095 == 0 {
		if s.err = s.in.step(); s.err == nil {
			s.err = s.in.ctx.Err()
		}
		if s.err != nil {
			return
		}
	}
	switch x := v.(type) {
	case nil:
		s.n += 4
	case bool:
		if x {
			s.n += 4
		} else {
			s.n += 5
		}
	case number:
		s.n += numberChars(x)
	case string:
		s.n += stringChars(x, s.limit-s.n)
	case []any:
		s.n += 2 + max(len(x)-1, 0)
		for _, e := range x {
			if s.walk(e); s.n > s.limit || s.err != nil {
				return
			}
		}
	case *structured.Object:
		s.n += 2 + max(x.Len()-1, 0)
		for i, k := range x.Keys {
			s.n += stringChars(k, s.limit-s.n) + 1
			if s.walk(x.Values[i]); s.n > s.limit || s.err != nil {
				return
			}
		}
	default:
		s.n += 4 // an expref is refused before it is written
	}
}

// numberChars is the length of a number as the facts write it: integers as
// digits ("-0" as "0"), floats in Python repr form.
func numberChars(n number) int {
	if n.IsInt() {
		if n == "-0" {
			return 1
		}
		return len(n)
	}
	f, _ := float(n)
	return len(FormatFloat(f))
}

// stringChars is the canonical length of the JSON string s, quotes included;
// it stops counting once the length passes limit.
func stringChars(s string, limit int) int {
	if len(s)+2 <= limit && !strings.ContainsFunc(s, needsEscape) {
		return utf8.RuneCountInString(s) + 2
	}
	n := 2
	for _, r := range s {
		if n += evidence.RuneChars(r); n > limit {
			return n
		}
	}
	return n
}

func needsEscape(r rune) bool { return r < 0x20 || r == '"' || r == '\\' }
