// Package schedule expands recurrence rules — five-field cron expressions with
// Vixie/cronie semantics and RFC 5545 RRULE values with python-dateutil's
// semantics — into naive local wall times, and places each wall time in a time
// zone of the embedded tzdb the way Python's zoneinfo does (PEP 495 folds).
//
// Work is bounded deterministically: wall times are searched within a horizon of
// HorizonYears from the start, and every day, period and search step counts
// against a step budget (MaxSteps); a rule that would need more is refused with
// a cost refusal, never left to spin.
package schedule

import (
	"fmt"
	"math"
	"sort"

	"github.com/precisiond/precisiond/internal/refusal"
	"github.com/precisiond/precisiond/internal/tzdb"
)

const (
	// HorizonYears bounds the search: only wall times before start + 400
	// years (same month, day and time) are occurrences. 400 years are one
	// whole Gregorian cycle, so the horizon of 29 February exists.
	HorizonYears = 400
	// MinStartYear and MaxStartYear keep every instant within years
	// 0001-9999 (an offset moves it by less than a day from its wall time,
	// and wall times lie before start + HorizonYears), the range of Python's
	// datetime and of the contract's four-digit years.
	MinStartYear = 2
	MaxStartYear = 9999 - HorizonYears - 1
	// MaxSteps is the step budget of one expansion: days examined, rule
	// periods and search iterations together.
	MaxSteps = 4_000_000
	// MaxCount is the most occurrences one expansion lists.
	MaxCount = 1000
	// MaxExpressionLen bounds an expression, in bytes.
	MaxExpressionLen = 1024
	// offsetWindow is how far before an instant the offsets that could
	// place a later wall time before it are looked for: wider than any UTC
	// offset of the tz database (all are within ±16 hours).
	offsetWindow = 2 * 86400
)

func refusalf(reason, format string, args ...any) *refusal.Error {
	return refusal.Domain(reason, format, args...)
}

// budget counts steps against MaxSteps.
type budget struct{ left int }

func (b *budget) spend(n int) error {
	b.left -= n
	if b.left < 0 {
		return refusal.Cost("schedule_budget_exceeded", "the rule needs more than %d search steps to list its occurrences within %d years; narrow it (a lower frequency, fewer BYxxx values) or lower count", MaxSteps, HorizonYears)
	}
	return nil
}

// source yields a rule's naive wall times in increasing order; ok is false
// when the rule has no more within the horizon.
type source interface {
	next(b *budget) (w int64, ok bool, err error)
}

// Options are the arguments of Expand besides the rule.
type Options struct {
	Start       Wall
	Zone        *tzdb.Zone
	Count       int    // 1..MaxCount
	Until       *Wall  // inclusive, on wall time
	Nonexistent string // "shift_forward" or "skip"
	Ambiguous   string // "earlier", "later" or "both"
}

// Occurrence is one instant of the schedule.
type Occurrence struct {
	Unix   int64 // the instant
	Offset int   // the zone's UTC offset at it, seconds east
}

// Result is what Expand lists.
type Result struct {
	Occurrences []Occurrence
	// Exhausted: the rule has no further wall time (within the horizon and
	// until) and fewer than Count occurrences are listed.
	Exhausted bool
}

// Syntaxes are the rule languages Expand reads.
var Syntaxes = []string{"cron", "rrule"}

// Expand lists the first opt.Count instants, in time order and each once, of
// the wall times of the rule expression (syntax "cron" or "rrule") placed in
// opt.Zone. Refusals are *refusal.Error with the reasons invalid_cron,
// unsupported_cron_feature, invalid_rrule, unsupported_rrule_feature,
// invalid_argument or (a cost refusal) schedule_budget_exceeded.
func Expand(syntax, expression string, opt Options) (Result, error) {
	if opt.Count < 1 || opt.Count > MaxCount {
		return Result{}, refusalf("invalid_argument", "count must be 1-%d", MaxCount)
	}
	var src source
	switch syntax {
	case "cron":
		c, err := ParseCron(expression)
		if err != nil {
			return Result{}, err
		}
		src = c.walls(opt.Start)
	case "rrule":
		r, err := ParseRRule(expression, opt.Start)
		if err != nil {
			return Result{}, err
		}
		src = r.walls()
	default:
		return Result{}, refusalf("invalid_argument", "syntax must be cron or rrule")
	}
	return expand(src, opt)
}

func horizon(start Wall) int64 {
	h := start
	h.Year += HorizonYears
	return h.Seconds()
}

func expand(src source, opt Options) (Result, error) {
	b := &budget{left: MaxSteps}
	var until int64
	if opt.Until != nil {
		until = opt.Until.Seconds()
	}
	var insts []Occurrence
	ended := false
	var kth int64 // the count-th instant maxOff was found for
	maxOff, known := 0, false
	for {
		w, ok, err := src.next(b)
		if err != nil {
			return Result{}, err
		}
		if !ok {
			ended = true
			break
		}
		if opt.Until != nil && w > until {
			break
		}
		if len(insts) >= opt.Count {
			// The wall time w places at w - o for an offset o in effect at
			// the instant; once w - o is past the count-th instant for every
			// offset in effect shortly before it, no later wall time can
			// place before it either.
			if k := insts[opt.Count-1].Unix; k != kth || !known {
				kth, maxOff, known = k, maxOffsetBefore(opt.Zone, k), true
			}
			if w-int64(maxOff) > kth {
				break
			}
		}
		if err := b.spend(1); err != nil {
			return Result{}, err
		}
		added := place(opt.Zone, w, opt.Nonexistent, opt.Ambiguous)
		if len(added) == 0 {
			continue
		}
		insts = mergeSorted(insts, added)
		if len(insts) > opt.Count+2 {
			insts = insts[:opt.Count]
		}
	}
	if len(insts) > opt.Count {
		insts = insts[:opt.Count]
	}
	return Result{Occurrences: insts, Exhausted: ended && len(insts) < opt.Count}, nil
}

// maxOffsetBefore is the largest UTC offset of z in the offsetWindow before
// the instant u (sampled every 15 minutes, finer than any period of the tz
// database).
func maxOffsetBefore(z *tzdb.Zone, u int64) int {
	m := math.MinInt
	for t := u - offsetWindow; t <= u; t += 900 {
		if o, _ := z.At(t); o.Seconds > m {
			m = o.Seconds
		}
	}
	return m
}

// mergeSorted inserts the (at most two, ascending) instants of one wall time
// into the sorted list, dropping equal instants.
func mergeSorted(list []Occurrence, add []Occurrence) []Occurrence {
	for _, o := range add {
		i := sort.Search(len(list), func(i int) bool { return list[i].Unix >= o.Unix })
		if i < len(list) && list[i].Unix == o.Unix {
			continue
		}
		list = append(list, Occurrence{})
		copy(list[i+1:], list[i:])
		list[i] = o
	}
	return list
}

// place turns the wall time w into instants of z: a unique wall time is one
// instant; a wall time in a fold is the earlier (fold 0), the later (fold 1)
// or both; a wall time in a gap is skipped or, for shift_forward, placed as
// zoneinfo places it with fold 0: with the offset in effect before the gap, so
// that it reads as the wall time moved forward by the gap's length.
func place(z *tzdb.Zone, w int64, nonexistent, ambiguous string) []Occurrence {
	r := z.Resolve(w)
	at := func(u int64) Occurrence {
		o, _ := z.At(u)
		return Occurrence{Unix: u, Offset: o.Seconds}
	}
	switch r.Kind {
	case tzdb.Unique:
		return []Occurrence{at(r.Instants[0])}
	case tzdb.Ambiguous:
		switch ambiguous {
		case "later":
			return []Occurrence{at(r.Instants[1])}
		case "both":
			return []Occurrence{at(r.Instants[0]), at(r.Instants[1])}
		}
		return []Occurrence{at(r.Instants[0])}
	}
	if nonexistent == "skip" {
		return nil
	}
	return []Occurrence{at(w - int64(offsetBefore(z, w)))}
}

// offsetBefore is the UTC offset in effect just before the transition that
// makes the wall time w a gap. With before < after the offsets around the
// transition, the instant w - before lies after it (offset after) and w -
// after before it (offset before): o -> offset at w - o swaps the two, so two
// rounds from any offset in effect near w give both, and before is the
// smaller.
func offsetBefore(z *tzdb.Zone, w int64) int {
	f := func(o int) int {
		x, _ := z.At(w - int64(o))
		return x.Seconds
	}
	x0, _ := z.At(w)
	x1 := f(x0.Seconds)
	x2 := f(x1)
	return min(x1, x2)
}

// FormatOffset writes an offset as ±HH:MM (seconds of a local-mean-time
// offset dropped, as the time tools write utc_offset).
func FormatOffset(sec int) string {
	sign := '+'
	if sec < 0 {
		sign, sec = '-', -sec
	}
	return fmt.Sprintf("%c%02d:%02d", sign, sec/3600, sec%3600/60)
}

// FormatISOOffset writes an offset as Python's isoformat() does: ±HH:MM, with
// :SS when the offset has seconds.
func FormatISOOffset(sec int) string {
	s := FormatOffset(sec)
	if a := abs(sec) % 60; a != 0 {
		s += fmt.Sprintf(":%02d", a)
	}
	return s
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
