// Package tzdb is precisiond's time-zone database: a pinned IANA release, embedded
// in the binary as zoneinfo.zip (built by update.sh from a pinned Debian tzdata
// package) and read with time.LoadLocationFromTZData. It never consults the host:
// not /usr/share/zoneinfo, not $TZ, not $ZONEINFO, not time.LoadLocation.
//
// On top of Go's locations it adds what Python's zoneinfo (PEP 495) offers and
// Go's time package does not: the fold of an instant's wall time, and the
// resolution of a wall time into zero (gap), one or two (ambiguous) instants.
package tzdb

import (
	"archive/zip"
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"
)

//go:embed zoneinfo.zip
var zoneinfoZip []byte

// MaxNameLen is the longest zone name accepted.
const MaxNameLen = 128

// namePattern is the contract's pattern for IANA zone ids.
var namePattern = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9._+-]*(?:/[A-Za-z0-9._+-]+)*$`)

// ErrUnknownZone is returned by Load for a name that is not a zone of the embedded
// release (including path-like names such as "Europe/../../etc/passwd").
var ErrUnknownZone = errors.New("unknown time zone")

type db struct {
	version string
	source  string
	files   map[string]*zip.File
	names   []string
}

var (
	loadOnce sync.Once
	theDB    *db
	loadErr  error
	locs     sync.Map // name -> *Zone
)

func open() (*db, error) {
	loadOnce.Do(func() {
		zr, err := zip.NewReader(bytes.NewReader(zoneinfoZip), int64(len(zoneinfoZip)))
		if err != nil {
			loadErr = fmt.Errorf("tzdb: embedded zoneinfo.zip: %w", err)
			return
		}
		d := &db{files: make(map[string]*zip.File, len(zr.File))}
		for _, f := range zr.File {
			switch f.Name {
			case "+VERSION", "+SOURCE":
				b, err := readAll(f)
				if err != nil {
					loadErr = err
					return
				}
				if f.Name == "+VERSION" {
					d.version = string(b)
				} else {
					d.source = string(b)
				}
			default:
				d.files[f.Name] = f
				d.names = append(d.names, f.Name)
			}
		}
		sort.Strings(d.names)
		if d.version == "" {
			loadErr = errors.New("tzdb: embedded zoneinfo.zip has no +VERSION entry")
			return
		}
		theDB = d
	})
	return theDB, loadErr
}

func readAll(f *zip.File) ([]byte, error) {
	rc, err := f.Open()
	if err != nil {
		return nil, fmt.Errorf("tzdb: %s: %w", f.Name, err)
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, 1<<20))
	if err != nil {
		return nil, fmt.Errorf("tzdb: %s: %w", f.Name, err)
	}
	return b, nil
}

func mustOpen() *db {
	d, err := open()
	if err != nil {
		panic(err) // the embedded file is part of the build; a failure is a build bug
	}
	return d
}

// Version is the IANA release of the embedded data, e.g. "2026f".
func Version() string { return mustOpen().version }

// Source names the package the embedded data was built from.
func Source() string { return mustOpen().source }

// Names lists every zone id of the embedded release, sorted.
func Names() []string { return append([]string(nil), mustOpen().names...) }

// ValidName reports whether name has the syntax of a zone id (the contract's
// pattern, at most MaxNameLen bytes, no "." or ".." component). A valid name
// need not exist.
func ValidName(name string) bool {
	if len(name) == 0 || len(name) > MaxNameLen || !namePattern.MatchString(name) {
		return false
	}
	for _, part := range strings.Split(name, "/") {
		if part == "." || part == ".." {
			return false
		}
	}
	return true
}

// Zone is one time zone of the embedded release.
type Zone struct {
	name string
	loc  *time.Location
}

// Load returns the zone called name. It returns ErrUnknownZone (wrapped) for a
// name that is malformed or not in the embedded release; nothing outside the
// embedded data is ever read.
func Load(name string) (*Zone, error) {
	if !ValidName(name) {
		return nil, fmt.Errorf("%w: %q", ErrUnknownZone, truncate(name))
	}
	if z, ok := locs.Load(name); ok {
		return z.(*Zone), nil
	}
	d, err := open()
	if err != nil {
		return nil, err
	}
	f, ok := d.files[name]
	if !ok {
		return nil, fmt.Errorf("%w: %q", ErrUnknownZone, name)
	}
	data, err := readAll(f)
	if err != nil {
		return nil, err
	}
	loc, err := time.LoadLocationFromTZData(name, data)
	if err != nil {
		return nil, fmt.Errorf("tzdb: %s: %w", name, err)
	}
	z, _ := locs.LoadOrStore(name, &Zone{name: name, loc: loc})
	return z.(*Zone), nil
}

func truncate(s string) string {
	if len(s) > 64 {
		return s[:64] + "…"
	}
	return s
}

// Name is the zone id.
func (z *Zone) Name() string { return z.name }

// Offset describes the local time type in effect at an instant.
type Offset struct {
	Seconds int    // UTC offset, east positive
	Abbrev  string // tzname(), e.g. "CEST" or "-03"
	IsDST   bool   // bool(dst())
}

// At returns the offset in effect at the Unix instant u and the PEP 495 fold of
// the resulting wall time: 1 when the same wall time occurred earlier with the
// offset in effect before the last transition (the second pass through a
// repeated hour), else 0.
func (z *Zone) At(u int64) (Offset, int) {
	t := time.Unix(u, 0).In(z.loc)
	abbr, off := t.Zone()
	o := Offset{Seconds: off, Abbrev: abbr, IsDST: t.IsDST()}
	start, _ := t.ZoneBounds()
	if start.IsZero() {
		return o, 0
	}
	s := start.Unix()
	_, prev := time.Unix(s-1, 0).In(z.loc).Zone()
	if int64(prev-off) > u-s {
		return o, 1
	}
	return o, 0
}

// Kind classifies a wall time of a zone.
type Kind int

const (
	// Unique wall times occur exactly once.
	Unique Kind = iota
	// Ambiguous wall times occur twice (a clock set back): fold 0 is the earlier.
	Ambiguous
	// Gap wall times never occur (a clock set forward).
	Gap
)

// Resolution is the answer of Resolve.
type Resolution struct {
	Kind Kind
	// Instants are the Unix instants for fold 0 and fold 1; equal when Unique,
	// unset for a Gap.
	Instants [2]int64
}

// Resolve maps a wall time, given as seconds since 1970-01-01T00:00:00 of the
// local clock (as if it were UTC), to the instants at which this zone's clock
// showed it.
//
// An instant u shows the wall time w exactly when u + offset(u) = w, and every
// such u lies within a day of w. So the candidates are w - o for each offset o
// in effect within two days of w, and a candidate counts only if the zone's
// offset at it is o: the answer is checked, never inferred from period bounds.
// The offsets are collected by walking the zone's periods backward with the
// start bound of time.Time.ZoneBounds. Its end bound is not used: for instants
// served by the TZif footer's POSIX TZ rule (after the last explicit
// transition, about 2037), Go reports the end of every year as start of year +
// 365 days, which in a leap year lies before 31 December (golang/go#81583), and
// trusting it refused every wall time from 31 December to 2 January of leap
// years from 2040 on as a gap.
func (z *Zone) Resolve(wall int64) Resolution {
	const window = 2 * 86400 // wider than any offset or offset change
	var offs []int
	t := wall + window
	for i := 0; i < 64; i++ {
		tt := time.Unix(t, 0).In(z.loc)
		_, off := tt.Zone()
		if !containsInt(offs, off) {
			offs = append(offs, off)
		}
		start, _ := tt.ZoneBounds()
		if start.IsZero() || start.Unix() <= wall-window || start.Unix() > t {
			break
		}
		t = start.Unix() - 1
	}
	var cands []int64
	for _, off := range offs {
		u := wall - int64(off)
		if _, got := time.Unix(u, 0).In(z.loc).Zone(); got == off {
			cands = append(cands, u)
		}
	}
	sort.Slice(cands, func(i, j int) bool { return cands[i] < cands[j] })
	switch len(cands) {
	case 0:
		return Resolution{Kind: Gap}
	case 1:
		return Resolution{Kind: Unique, Instants: [2]int64{cands[0], cands[0]}}
	default:
		return Resolution{Kind: Ambiguous, Instants: [2]int64{cands[0], cands[len(cands)-1]}}
	}
}

func containsInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
