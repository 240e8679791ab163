package schedule

import (
	"slices"
	"strconv"
	"strings"
)

// Frequencies, numbered as python-dateutil numbers them (YEARLY 0 ...
// SECONDLY 6): comparisons such as freq < HOURLY carry its meaning.
const (
	yearly = iota
	monthly
	weekly
	daily
	hourly
	minutely
	secondly
)

var freqNames = map[string]int{"YEARLY": yearly, "MONTHLY": monthly, "WEEKLY": weekly, "DAILY": daily, "HOURLY": hourly, "MINUTELY": minutely, "SECONDLY": secondly}

var weekdayNames = map[string]int{"MO": 0, "TU": 1, "WE": 2, "TH": 3, "FR": 4, "SA": 5, "SU": 6}

// maxListLen bounds the values of one BYxxx part.
const maxListLen = 400

// RRule is a parsed RRULE with its DTSTART, normalised as dateutil's rrule
// constructor normalises it (defaults taken from DTSTART, month days split by
// sign, unreachable BYHOUR/BYMINUTE/BYSECOND values of the rule's own
// frequency dropped).
type RRule struct {
	dtstart  Wall
	freq     int
	interval int
	count    int // -1: none
	until    int64
	hasUntil bool
	wkst     int

	bysetpos             []int
	bymonth              []int
	bymonthday, bynmonth []int // positive and negative month days
	byyearday, byweekno  []int
	byweekday            []int // plain weekdays (0 Monday)
	bynweekday           [][2]int
	byhour, byminute     []int
	bysecond             []int
	timeset              []int // seconds of day, freq < HOURLY
	inMonth              [13]bool
	inMday               [32]bool
	inNmday              [32]bool // index -n
	inWday               [7]bool
	inHour               [24]bool
	inMinute, inSecond   [60]bool
	hasMdays             bool
}

// ParseRRule reads an RFC 5545 RRULE value (an optional "RRULE:" prefix
// allowed) whose DTSTART is dtstart. Refusals: invalid_rrule,
// unsupported_rrule_feature.
func ParseRRule(s string, dtstart Wall) (*RRule, error) {
	if len(s) > MaxExpressionLen {
		return nil, refusalf("invalid_rrule", "the rule has %d bytes, more than %d", len(s), MaxExpressionLen)
	}
	for _, r := range s {
		if r < 0x21 || r > 0x7e {
			return nil, refusalf("invalid_rrule", "the rule contains the character %q; an RRULE is printable ASCII without spaces", r)
		}
	}
	if len(s) >= 6 && strings.EqualFold(s[:6], "RRULE:") {
		s = s[6:]
	}
	if s == "" {
		return nil, refusalf("invalid_rrule", "the rule is empty")
	}
	r := &RRule{dtstart: dtstart, interval: 1, count: -1, freq: -1}
	seen := map[string]bool{}
	var byweekdayRaw []string
	var haveByweekday, haveMonthday, haveYearday, haveWeekno bool
	var bymonthdayRaw []int
	for _, part := range strings.Split(s, ";") {
		name, value, ok := strings.Cut(part, "=")
		if !ok || strings.Contains(value, "=") {
			return nil, refusalf("invalid_rrule", "%q is not NAME=VALUE", clip(part))
		}
		name, value = strings.ToUpper(name), strings.ToUpper(value)
		if seen[name] {
			return nil, refusalf("invalid_rrule", "%s is given twice", clip(name))
		}
		seen[name] = true
		var err error
		switch name {
		case "FREQ":
			f, ok := freqNames[value]
			if !ok {
				return nil, refusalf("invalid_rrule", "FREQ must be one of YEARLY MONTHLY WEEKLY DAILY HOURLY MINUTELY SECONDLY")
			}
			r.freq = f
		case "INTERVAL":
			r.interval, err = ruleInt(name, value, 1, 1_000_000)
		case "COUNT":
			r.count, err = ruleInt(name, value, 0, 1_000_000_000)
		case "UNTIL":
			r.until, err = parseUntil(value)
			r.hasUntil = true
		case "WKST":
			w, ok := weekdayNames[value]
			if !ok {
				return nil, refusalf("invalid_rrule", "WKST must be one of MO TU WE TH FR SA SU")
			}
			r.wkst = w
		case "BYSETPOS":
			r.bysetpos, err = ruleList(name, value, -366, 366, true)
		case "BYMONTH":
			r.bymonth, err = ruleList(name, value, 1, 12, false)
		case "BYMONTHDAY":
			bymonthdayRaw, err = ruleList(name, value, -31, 31, true)
			haveMonthday = true
		case "BYYEARDAY":
			r.byyearday, err = ruleList(name, value, -366, 366, true)
			haveYearday = true
		case "BYWEEKNO":
			r.byweekno, err = ruleList(name, value, -53, 53, true)
			haveWeekno = true
		case "BYDAY":
			byweekdayRaw = strings.Split(value, ",")
			haveByweekday = true
		case "BYHOUR":
			r.byhour, err = ruleList(name, value, 0, 23, false)
		case "BYMINUTE":
			r.byminute, err = ruleList(name, value, 0, 59, false)
		case "BYSECOND":
			r.bysecond, err = ruleList(name, value, 0, 59, false)
		case "BYEASTER":
			return nil, refusalf("unsupported_rrule_feature", "BYEASTER is a python-dateutil extension, not part of RFC 5545")
		default:
			return nil, refusalf("invalid_rrule", "unknown rule part %q; RFC 5545 parts are FREQ UNTIL COUNT INTERVAL BYSECOND BYMINUTE BYHOUR BYDAY BYMONTHDAY BYYEARDAY BYWEEKNO BYMONTH BYSETPOS WKST", clip(name))
		}
		if err != nil {
			return nil, err
		}
	}
	if r.freq < 0 {
		return nil, refusalf("invalid_rrule", "FREQ is required")
	}
	if r.hasUntil && r.count >= 0 {
		return nil, refusalf("invalid_rrule", "COUNT and UNTIL must not both be given (RFC 5545)")
	}
	// BYDAY: an ordinal counts only for MONTHLY and YEARLY, as in dateutil.
	var byweekday []int
	if haveByweekday {
		if len(byweekdayRaw) > maxListLen {
			return nil, refusalf("invalid_rrule", "BYDAY has more than %d values", maxListLen)
		}
		for _, v := range byweekdayRaw {
			n, wd, err := parseByday(v)
			if err != nil {
				return nil, err
			}
			maxN := 53
			if r.freq == monthly || (r.freq == yearly && r.bymonth != nil) {
				maxN = 5
			}
			if n > maxN || n < -maxN {
				return nil, refusalf("invalid_rrule", "BYDAY %s: the ordinal must be 1-%d or -1 to -%d here", v, maxN, maxN)
			}
			if n == 0 || r.freq > monthly {
				byweekday = append(byweekday, wd)
			} else {
				r.bynweekday = append(r.bynweekday, [2]int{wd, n})
			}
		}
	}
	// dateutil's defaults from DTSTART
	if !haveWeekno && !haveYearday && !haveMonthday && !haveByweekday {
		switch r.freq {
		case yearly:
			if r.bymonth == nil {
				r.bymonth = []int{dtstart.Month}
			}
			bymonthdayRaw = []int{dtstart.Day}
		case monthly:
			bymonthdayRaw = []int{dtstart.Day}
		case weekly:
			byweekday = []int{weekday(daysFromCivil(dtstart.Year, dtstart.Month, dtstart.Day))}
		}
	}
	r.bymonth = sortedSet(r.bymonth)
	r.byyearday = sortedSet(r.byyearday)
	r.byweekno = sortedSet(r.byweekno)
	for _, d := range bymonthdayRaw {
		if d > 0 {
			r.bymonthday = append(r.bymonthday, d)
			r.inMday[d] = true
		} else {
			r.bynmonth = append(r.bynmonth, d)
			r.inNmday[-d] = true
		}
		r.hasMdays = true
	}
	if len(byweekday) > 0 {
		r.byweekday = sortedSet(byweekday)
	}
	for _, m := range r.bymonth {
		r.inMonth[m] = true
	}
	for _, w := range r.byweekday {
		r.inWday[w] = true
	}
	var err error
	if r.byhour, err = r.timeField(r.byhour, dtstart.Hour, hourly, 24, "BYHOUR"); err != nil {
		return nil, err
	}
	if r.byminute, err = r.timeField(r.byminute, dtstart.Minute, minutely, 60, "BYMINUTE"); err != nil {
		return nil, err
	}
	if r.bysecond, err = r.timeField(r.bysecond, dtstart.Second, secondly, 60, "BYSECOND"); err != nil {
		return nil, err
	}
	for _, h := range r.byhour {
		r.inHour[h] = true
	}
	for _, m := range r.byminute {
		r.inMinute[m] = true
	}
	for _, s := range r.bysecond {
		r.inSecond[s] = true
	}
	if r.freq < hourly {
		for _, h := range r.byhour {
			for _, m := range r.byminute {
				for _, s := range r.bysecond {
					r.timeset = append(r.timeset, h*3600+m*60+s)
				}
			}
		}
		slices.Sort(r.timeset)
	}
	return r, nil
}

// timeField applies dateutil's rule for BYHOUR, BYMINUTE and BYSECOND: absent,
// it is DTSTART's value for coarser frequencies and unrestricted otherwise;
// at the rule's own frequency only values reachable from DTSTART in steps of
// INTERVAL are kept, and none left is an error.
func (r *RRule) timeField(vals []int, start, own, base int, name string) ([]int, error) {
	if vals == nil {
		if r.freq < own {
			return []int{start}, nil
		}
		return nil, nil
	}
	vals = sortedSet(vals)
	if r.freq == own {
		g := gcd(r.interval, base)
		var keep []int
		for _, v := range vals {
			if g == 1 || mod(v-start, g) == 0 {
				keep = append(keep, v)
			}
		}
		if len(keep) == 0 {
			return nil, refusalf("invalid_rrule", "no %s value is reachable from DTSTART in steps of INTERVAL=%d", name, r.interval)
		}
		vals = keep
	}
	return vals, nil
}

func ruleInt(name, v string, lo, hi int) (int, error) {
	if v == "" || len(v) > 10 || strings.TrimLeft(v, "0123456789") != "" {
		return 0, refusalf("invalid_rrule", "%s must be a whole number", name)
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		return 0, refusalf("invalid_rrule", "%s must be %d-%d", name, lo, hi)
	}
	return n, nil
}

func ruleList(name, v string, lo, hi int, signed bool) ([]int, error) {
	parts := strings.Split(v, ",")
	if len(parts) > maxListLen {
		return nil, refusalf("invalid_rrule", "%s has more than %d values", name, maxListLen)
	}
	out := make([]int, 0, len(parts))
	for _, p := range parts {
		neg := false
		q := p
		if signed && q != "" && (q[0] == '+' || q[0] == '-') {
			neg = q[0] == '-'
			q = q[1:]
		}
		if q == "" || len(q) > 4 || strings.TrimLeft(q, "0123456789") != "" {
			return nil, refusalf("invalid_rrule", "%s: %q is not a whole number", name, clip(p))
		}
		n, _ := strconv.Atoi(q)
		if neg {
			n = -n
		}
		if n < lo || n > hi || (signed && n == 0) {
			if signed {
				return nil, refusalf("invalid_rrule", "%s: %s is outside 1 to %d and -1 to -%d", name, p, hi, hi)
			}
			return nil, refusalf("invalid_rrule", "%s: %s is outside %d-%d", name, p, lo, hi)
		}
		out = append(out, n)
	}
	return out, nil
}

func parseByday(v string) (n, wd int, err error) {
	if len(v) < 2 {
		return 0, 0, refusalf("invalid_rrule", "BYDAY: %q is not [+-][n]MO..SU", clip(v))
	}
	w, ok := weekdayNames[v[len(v)-2:]]
	if !ok {
		return 0, 0, refusalf("invalid_rrule", "BYDAY: %q is not [+-][n]MO..SU", clip(v))
	}
	if p := v[:len(v)-2]; p != "" {
		ns, err := ruleList("BYDAY", p, -53, 53, true)
		if err != nil {
			return 0, 0, err
		}
		n = ns[0]
	}
	return n, w, nil
}

// parseUntil reads UNTIL as a local (floating) date-time, YYYYMMDDTHHMMSS, or
// a date, YYYYMMDD, which is its midnight (as dateutil reads it). A UTC
// UNTIL (ending in Z) is refused, as dateutil refuses it with a naive DTSTART.
func parseUntil(v string) (int64, error) {
	bad := func(why string) (int64, error) {
		return 0, refusalf("invalid_rrule", "UNTIL %q %s", clip(v), why)
	}
	if strings.HasSuffix(v, "Z") {
		return bad("is in UTC; start is a local wall time, so UNTIL must be local too (YYYYMMDDTHHMMSS without Z)")
	}
	var digits string
	switch {
	case len(v) == 8:
		digits = v + "000000"
	case len(v) == 15 && v[8] == 'T':
		digits = v[:8] + v[9:]
	default:
		return bad("is not YYYYMMDD or YYYYMMDDTHHMMSS")
	}
	if strings.TrimLeft(digits, "0123456789") != "" {
		return bad("is not YYYYMMDD or YYYYMMDDTHHMMSS")
	}
	at := func(i int) int { n, _ := strconv.Atoi(digits[i : i+2]); return n }
	y, _ := strconv.Atoi(digits[:4])
	w := Wall{y, at(4), at(6), at(8), at(10), at(12)}
	if why := w.check(9999); why != "" {
		return bad(why)
	}
	return w.Seconds(), nil
}

func sortedSet(v []int) []int {
	if v == nil {
		return nil
	}
	v = slices.Clone(v)
	slices.Sort(v)
	return slices.Compact(v)
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func mod(a, b int) int {
	m := a % b
	if m < 0 {
		m += b
	}
	return m
}
