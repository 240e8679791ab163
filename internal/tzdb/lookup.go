package tzdb

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/precisiond/precisiond/internal/suggest"
)

// MaxSuggestions bounds the names an UnknownZoneError suggests.
const MaxSuggestions = 3

// UnknownZoneError reports a zone name that Lookup cannot resolve. It matches
// ErrUnknownZone with errors.Is.
type UnknownZoneError struct {
	Name string // as given
	// Why says more than "unknown" when there is more to say (an offset out of
	// range, a GMT±N whose sign is ambiguous), else "".
	Why string
	// Suggestions are up to MaxSuggestions names Lookup resolves that may have
	// been meant, best first.
	Suggestions []string
}

func (e *UnknownZoneError) Error() string {
	s := fmt.Sprintf("%v: %q", ErrUnknownZone, truncate(e.Name))
	if e.Why != "" {
		s += ": " + e.Why
	}
	return s + suggest.Phrase(e.Suggestions)
}

// Unwrap makes errors.Is(err, ErrUnknownZone) hold.
func (e *UnknownZoneError) Unwrap() error { return ErrUnknownZone }

// folded maps every zone id in lower case to the id, built on first use (the
// release has no two ids that differ only in case; a test checks it).
var (
	foldOnce sync.Once
	folded   map[string]string
	cities   []string // lower-case last component of each id, in Names() order
)

func foldedNames() (map[string]string, []string) {
	foldOnce.Do(func() {
		d := mustOpen()
		folded = make(map[string]string, len(d.names))
		cities = make([]string, len(d.names))
		for i, n := range d.names {
			l := strings.ToLower(n)
			folded[l] = n
			cities[i] = l[strings.LastIndexByte(l, '/')+1:]
		}
	})
	return folded, cities
}

// Lookup finds the zone a caller means by name, more forgivingly than Load:
//
//  1. a zone id of the embedded release, exactly as Load reads it;
//  2. a zone id written in another case: "europe/berlin" is Europe/Berlin;
//  3. a fixed UTC offset, east of Greenwich positive as in ISO 8601 and
//     Python's datetime.timezone (not the reversed sign of POSIX TZ strings
//     and of the Etc/GMT±N ids): ±HH:MM, ±HHMM, ±HH or ±H, alone or after
//     "UTC" in any case ("+05:30", "UTC+5:30", "utc-0800", "UTC+5"), with
//     minutes 00..59 and strictly within 24 hours. A zero offset is the zone
//     UTC; any other is a zone named UTC±HHMM, whose abbreviation is that name
//     and which never observes daylight time.
//
// The zone's Name is the canonical spelling: the id as the release writes it,
// or UTC±HHMM (ISO 8601's basic format, which the contracts' zone pattern
// admits, unlike UTC±HH:MM). Path-like names (".", "..") are never resolved.
// Anything else is an *UnknownZoneError with suggestions.
func Lookup(name string) (*Zone, error) {
	if ValidName(name) {
		z, err := Load(name)
		if err == nil || !errors.Is(err, ErrUnknownZone) {
			return z, err
		}
		if id, ok := foldedID(name); ok {
			return Load(id)
		}
	}
	if off, ok, err := parseFixedOffset(name); ok {
		if err != nil {
			return nil, &UnknownZoneError{Name: name, Why: err.Error()}
		}
		return fixedZone(off)
	}
	return nil, unknownZone(name)
}

func foldedID(name string) (string, bool) {
	f, _ := foldedNames()
	id, ok := f[strings.ToLower(name)]
	return id, ok
}

// fixedZone is the zone of a constant offset (seconds east of UTC).
func fixedZone(off int) (*Zone, error) {
	if off == 0 {
		return Load("UTC")
	}
	name := "UTC" + formatHHMM(off)
	return &Zone{name: name, loc: time.FixedZone(name, off)}, nil
}

// formatHHMM writes an offset as ±HHMM (ISO 8601's basic format): the zone
// ids' pattern of the wire-compatible contracts admits no colon, so a name
// Lookup reports can always be sent back.
func formatHHMM(off int) string {
	sign := byte('+')
	if off < 0 {
		sign, off = '-', -off
	}
	return fmt.Sprintf("%c%02d%02d", sign, off/3600, off/60%60)
}

// parseFixedOffset reads the offset forms of Lookup. ok reports whether name
// has such a form at all; err is set when it has one but the numbers are out
// of range.
func parseFixedOffset(name string) (off int, ok bool, err error) {
	s := name
	if len(s) >= 3 && strings.EqualFold(s[:3], "UTC") {
		s = s[3:]
	}
	if len(s) < 2 || (s[0] != '+' && s[0] != '-') {
		return 0, false, nil
	}
	sign, s := s[0], s[1:]
	var hh, mm string
	switch i := strings.IndexByte(s, ':'); {
	case i >= 0:
		hh, mm = s[:i], s[i+1:]
		if len(mm) != 2 {
			return 0, false, nil
		}
	case len(s) == 4:
		hh, mm = s[:2], s[2:]
	default:
		hh, mm = s, "00"
	}
	h, ok1 := atoi(hh)
	m, ok2 := atoi(mm)
	if !ok1 || !ok2 || len(hh) > 2 {
		return 0, false, nil
	}
	if m > 59 || h*60+m >= 24*60 {
		return 0, true, fmt.Errorf("a UTC offset needs minutes 00..59 and must lie strictly within ±24:00")
	}
	off = h*3600 + m*60
	if sign == '-' {
		off = -off
	}
	return off, true, nil
}

// atoi reads one or two ASCII digits.
func atoi(s string) (int, bool) {
	if len(s) == 0 || len(s) > 2 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, true
}

// unknownZone builds the error for a name Lookup cannot resolve, with the
// nearest ids. Two kinds of name get an explanation instead of (or besides)
// the nearest ids: "GMT±N", which is not an id (but GMT+0), gets both of its
// readings, N hours east as people write it and the IANA id Etc/GMT±N, whose
// POSIX sign means N hours west; an abbreviation ("PST", "IST") gets none,
// since the ids nearest in spelling are other zones.
func unknownZone(name string) *UnknownZoneError {
	e := &UnknownZoneError{Name: name}
	if len(name) > 3 && strings.EqualFold(name[:3], "GMT") {
		if off, ok, err := parseFixedOffset(name[3:]); ok && err == nil {
			e.Suggestions = append(e.Suggestions, "UTC"+formatHHMM(off))
			e.Why = fmt.Sprintf("GMT with an offset is not a zone id; as ISO 8601 writes offsets it is UTC%s", formatHHMM(off))
			if id := fmt.Sprintf("Etc/GMT%c%d", name[3], abs(off/3600)); off%3600 == 0 && fileExists(id) {
				e.Suggestions = append(e.Suggestions, id)
				e.Why += fmt.Sprintf(", but the IANA id %s keeps the POSIX sign and is UTC%s", id, formatHHMM(-off))
			}
			return e
		}
	}
	if abbreviation(name) {
		e.Why = "an abbreviation is not a zone id, and many are shared (IST is India, Ireland and Israel); give an IANA id such as America/Los_Angeles, or an offset such as UTC-0800"
		return e
	}
	e.Suggestions = closestZones(name)
	return e
}

// abbreviation reports whether name looks like a zone abbreviation: two to
// five ASCII capitals.
func abbreviation(name string) bool {
	if len(name) < 2 || len(name) > 5 {
		return false
	}
	for i := 0; i < len(name); i++ {
		if name[i] < 'A' || name[i] > 'Z' {
			return false
		}
	}
	return true
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

func fileExists(id string) bool {
	_, ok := mustOpen().files[id]
	return ok
}

// closestZones ranks the zone ids nearest to name, compared in lower case with
// spaces as underscores, both as a whole ("Europe/Berln") and against the last
// component of each id ("Berlin", "new york"); whole-id matches win ties. The
// work is bounded: two comparisons per id (about 600), each cut off at
// suggest.Limit, none for names over suggest.MaxQuery runes.
func closestZones(name string) []string {
	q := strings.ReplaceAll(strings.ToLower(name), " ", "_")
	n := utf8.RuneCountInString(q)
	rank := suggest.NewRanker(q, MaxSuggestions, suggest.Limit(n))
	_, city := foldedNames()
	for i, id := range mustOpen().names {
		l := strings.ToLower(id)
		rank.Offer(id, l, 0)
		if len(city[i]) != len(l) && !strings.Contains(q, "/") {
			rank.Offer(id, city[i], 1)
		}
	}
	return rank.Names()
}
