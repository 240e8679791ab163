package schedule

import (
	"math/bits"
	"regexp"
	"strings"
)

// Cron is a parsed five-field cron expression.
type Cron struct {
	minute, hour, dom, month, dow uint64 // bit i set: value i matches (dow: 0 = Sunday)
	// domStar, dowStar: the field starts with '*' (Vixie's DOM_STAR and
	// DOW_STAR). Only when neither does is a day matched by either field.
	domStar, dowStar bool
}

var cronMacros = map[string]string{
	"@yearly":   "0 0 1 1 *",
	"@annually": "0 0 1 1 *",
	"@monthly":  "0 0 1 * *",
	"@weekly":   "0 0 * * 0",
	"@daily":    "0 0 * * *",
	"@midnight": "0 0 * * *",
	"@hourly":   "0 * * * *",
}

type cronField struct {
	name     string
	lo, hi   int // accepted values (day of week: 0-7)
	names    []string
	namesOff int // value of names[0]
}

var cronFields = [5]cronField{
	{name: "minute", lo: 0, hi: 59},
	{name: "hour", lo: 0, hi: 23},
	{name: "day-of-month", lo: 1, hi: 31},
	{name: "month", lo: 1, hi: 12, names: []string{"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"}, namesOff: 1},
	{name: "day-of-week", lo: 0, hi: 7, names: []string{"sun", "mon", "tue", "wed", "thu", "fri", "sat"}},
}

// quartzElem matches the elements of Quartz, Jenkins and croniter extensions:
// ?, L, LW, L-n, nL, nW, x#n, H, H(a-b)/n.
var quartzElem = regexp.MustCompile(`(?i)^(\?|l|lw|l-\d+|\d*l|\d+w|[a-z0-9]+#\d+|h(\(\d+-\d+\))?(/\d+)?)$`)

// ParseCron reads a five-field cron expression (minute hour day-of-month month
// day-of-week) or a macro. Refusals: invalid_cron, unsupported_cron_feature.
func ParseCron(expr string) (*Cron, error) {
	if len(expr) > MaxExpressionLen {
		return nil, refusalf("invalid_cron", "the expression has %d bytes, more than %d", len(expr), MaxExpressionLen)
	}
	for _, r := range expr {
		if r != ' ' && r != '\t' && (r < 0x21 || r > 0x7e) {
			return nil, refusalf("invalid_cron", "the expression contains the character %q; cron fields are printable ASCII separated by spaces or tabs", r)
		}
	}
	s := strings.TrimSpace(expr)
	if strings.HasPrefix(s, "@") {
		m, ok := cronMacros[strings.ToLower(s)]
		if !ok {
			return nil, refusalf("unsupported_cron_feature", "%q is not a schedule macro; the macros are @yearly @annually @monthly @weekly @daily @midnight @hourly", clip(s))
		}
		s = m
	}
	fields := strings.Fields(s)
	switch len(fields) {
	case 5:
	case 6, 7:
		return nil, refusalf("unsupported_cron_feature", "%d fields: seconds and years fields (Quartz) are not supported; give five fields: minute hour day-of-month month day-of-week", len(fields))
	default:
		return nil, refusalf("invalid_cron", "%d fields; a cron expression has five: minute hour day-of-month month day-of-week", len(fields))
	}
	c := &Cron{}
	sets := [5]*uint64{&c.minute, &c.hour, &c.dom, &c.month, &c.dow}
	for i, f := range fields {
		set, err := parseCronField(f, cronFields[i])
		if err != nil {
			return nil, err
		}
		*sets[i] = set
	}
	if c.dow&(1<<7) != 0 {
		c.dow = c.dow&^(1<<7) | 1
	}
	c.domStar = fields[2][0] == '*'
	c.dowStar = fields[4][0] == '*'
	return c, nil
}

func parseCronField(s string, f cronField) (uint64, error) {
	var set uint64
	for _, e := range strings.Split(s, ",") {
		lo, hi, step, err := parseCronElem(e, f)
		if err != nil {
			if quartzElem.MatchString(e) {
				return 0, refusalf("unsupported_cron_feature", "%s field: %q is a Quartz/Jenkins extension (? L W # H), not Vixie cron", f.name, clip(e))
			}
			return 0, err
		}
		for v := lo; v <= hi; v += step {
			set |= 1 << uint(v)
		}
	}
	return set, nil
}

func parseCronElem(e string, f cronField) (lo, hi, step int, err error) {
	bad := func(why string) (int, int, int, error) {
		return 0, 0, 0, refusalf("invalid_cron", "%s field: %q %s", f.name, clip(e), why)
	}
	if e == "" {
		return bad("is empty (a stray comma)")
	}
	rng, stepText, hasStep := strings.Cut(e, "/")
	step = 1
	if hasStep {
		n, ok := cronNumber(stepText)
		if !ok || n < 1 {
			return bad("has no valid step (a positive whole number after /)")
		}
		if n > f.hi-f.lo+1 {
			return bad("has a step larger than the field's range")
		}
		step = n
	}
	if rng == "*" {
		return f.lo, min(f.hi, cronMax(f)), step, nil
	}
	a, b, isRange := strings.Cut(rng, "-")
	lo, ok := cronValue(a, f)
	if !ok {
		return bad("is not a value, range or step of the field")
	}
	if !isRange {
		if hasStep {
			return bad("uses a step on a single value; Vixie cron reads a step only after * or a range (write 5-59/15)")
		}
		return lo, lo, 1, nil
	}
	hi, ok = cronValue(b, f)
	if !ok {
		return bad("is not a value, range or step of the field")
	}
	if lo > hi {
		return bad("is a range whose start is after its end")
	}
	return lo, hi, step, nil
}

// cronMax is the largest value '*' stands for: 6 (Saturday) for the day of
// week, whose 7 is a second name of Sunday.
func cronMax(f cronField) int {
	if f.name == "day-of-week" {
		return 6
	}
	return f.hi
}

func cronValue(s string, f cronField) (int, bool) {
	if n, ok := cronNumber(s); ok {
		return n, n >= f.lo && n <= f.hi
	}
	for i, name := range f.names {
		if strings.EqualFold(s, name) {
			return i + f.namesOff, true
		}
	}
	return 0, false
}

func cronNumber(s string) (int, bool) {
	if s == "" || len(s) > 4 {
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

func (c *Cron) dayMatches(days int64) bool {
	y, m, d := civilFromDays(days)
	_ = y
	if c.month&(1<<uint(m)) == 0 {
		return false
	}
	domOK := c.dom&(1<<uint(d)) != 0
	wd := (weekday(days) + 1) % 7 // cron: 0 = Sunday
	dowOK := c.dow&(1<<uint(wd)) != 0
	if c.domStar || c.dowStar {
		return domOK && dowOK
	}
	return domOK || dowOK
}

// cronWalls yields the minutes matching a Cron strictly after start.
type cronWalls struct {
	c        *Cron
	day      int64 // current day
	tod      int   // last yielded second of day on day, or -1
	horizon  int64
	finished bool
}

func (c *Cron) walls(start Wall) source {
	s := start.Seconds()
	return &cronWalls{c: c, day: s / 86400, tod: int(s % 86400), horizon: horizon(start)}
}

// nextTime is the first matching minute of the day at or after the second of
// day from, or -1.
func (c *Cron) nextTime(from int) int {
	for h := from / 3600; h < 24; h++ {
		if c.hour&(1<<uint(h)) == 0 {
			continue
		}
		minFrom := 0
		if h == from/3600 {
			minFrom = (from%3600 + 59) / 60
		}
		if minFrom > 59 {
			continue
		}
		if m := c.minute >> uint(minFrom); m != 0 {
			return h*3600 + (minFrom+bits.TrailingZeros64(m))*60
		}
	}
	return -1
}

func (w *cronWalls) next(b *budget) (int64, bool, error) {
	if w.finished {
		return 0, false, nil
	}
	from := w.tod + 1
	for {
		if err := b.spend(1); err != nil {
			return 0, false, err
		}
		if w.day*86400 >= w.horizon {
			w.finished = true
			return 0, false, nil
		}
		if y, m, _ := civilFromDays(w.day); w.c.month&(1<<uint(m)) == 0 {
			w.day = daysFromCivil(y, m, 1) + int64(daysIn(y, m)) // the 1st of the next month
			from = 0
			continue
		}
		if from < 86400 && w.c.dayMatches(w.day) {
			if t := w.c.nextTime(from); t >= 0 {
				w.tod = t
				s := w.day*86400 + int64(t)
				if s >= w.horizon {
					w.finished = true
					return 0, false, nil
				}
				return s, true, nil
			}
		}
		w.day++
		from = 0
	}
}
