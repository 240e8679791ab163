package schedule

import "slices"

// yearInfo holds the masks of one year (dateutil's _iterinfo), each 7 days
// longer than the year so that a weekly period may cross into the next.
type yearInfo struct {
	year, month          int // what was built; month only matters for nwdaymask
	yearlen, nextyearlen int
	jan1                 int64 // day count of 1 January
	jan1wd               int
	mmask, mday, nmday   []int8 // month, day of month, negative day of month
	wday                 []int8
	mrange               [13]int // index of the first day of each month; [12] = yearlen
	wnomask              []bool  // nil unless BYWEEKNO
	nwdaymask            []bool  // nil unless ordinal BYDAY
}

func (r *RRule) rebuild(ii *yearInfo, year, month int) {
	if year != ii.year {
		ii.year = year
		ii.yearlen = yearLen(year)
		ii.nextyearlen = yearLen(year + 1)
		ii.jan1 = daysFromCivil(year, 1, 1)
		ii.jan1wd = weekday(ii.jan1)
		n := ii.yearlen + 7
		ii.mmask, ii.mday, ii.nmday, ii.wday = make([]int8, n), make([]int8, n), make([]int8, n), make([]int8, n)
		i := 0
		for m := 1; m <= 12; m++ {
			ii.mrange[m-1] = i
			dim := daysIn(year, m)
			for d := 1; d <= dim; d++ {
				ii.mmask[i], ii.mday[i], ii.nmday[i] = int8(m), int8(d), int8(d-dim-1)
				i++
			}
		}
		ii.mrange[12] = i
		for d := 1; i < n; d++ { // January of the next year
			ii.mmask[i], ii.mday[i], ii.nmday[i] = 1, int8(d), int8(d-32)
			i++
		}
		for i := range n {
			ii.wday[i] = int8((ii.jan1wd + i) % 7)
		}
		ii.wnomask = nil
		if r.byweekno != nil {
			ii.wnomask = r.weeknoMask(ii)
		}
		ii.month = 0 // force the ordinal weekday mask
	}
	if r.bynweekday != nil && month != ii.month {
		ii.nwdaymask = r.nweekdayMask(ii, month)
	}
	ii.month = month
}

// weeknoMask marks the days of the year in the weeks BYWEEKNO names, weeks
// starting on WKST and week 1 being the first with at least four days of the
// year (RFC 5545), with the days of a week 1 of the next year and of the last
// week of the previous year that fall in this year, as dateutil marks them.
func (r *RRule) weeknoMask(ii *yearInfo) []bool {
	mask := make([]bool, ii.yearlen+7)
	wkst := r.wkst
	no1wkst := mod(7-ii.jan1wd+wkst, 7)
	firstwkst := no1wkst
	var wyearlen int
	if no1wkst >= 4 {
		no1wkst = 0
		wyearlen = ii.yearlen + mod(ii.jan1wd-wkst, 7)
	} else {
		wyearlen = ii.yearlen - no1wkst
	}
	numweeks := wyearlen/7 + (wyearlen%7)/4
	markWeek := func(i int) {
		for j := 0; j < 7 && i < len(mask); j++ {
			mask[i] = true
			i++
			if i >= len(ii.wday) || int(ii.wday[i]) == wkst {
				break
			}
		}
	}
	for _, n := range r.byweekno {
		if n < 0 {
			n += numweeks + 1
		}
		if n <= 0 || n > numweeks {
			continue
		}
		i := no1wkst
		if n > 1 {
			i = no1wkst + (n-1)*7
			if no1wkst != firstwkst {
				i -= 7 - firstwkst
			}
		}
		markWeek(i)
	}
	if slices.Contains(r.byweekno, 1) {
		i := no1wkst + numweeks*7
		if no1wkst != firstwkst {
			i -= 7 - firstwkst
		}
		if i < ii.yearlen {
			markWeek(i)
		}
	}
	if no1wkst != 0 {
		var lnumweeks int
		if !slices.Contains(r.byweekno, -1) {
			lyearwd := weekday(daysFromCivil(ii.year-1, 1, 1))
			lno1wkst := mod(7-lyearwd+wkst, 7)
			lyearlen := yearLen(ii.year - 1)
			if lno1wkst >= 4 {
				lnumweeks = 52 + mod(lyearlen+mod(lyearwd-wkst, 7), 7)/4
			} else {
				lnumweeks = 52 + mod(ii.yearlen-no1wkst, 7)/4
			}
		} else {
			lnumweeks = -1
		}
		if slices.Contains(r.byweekno, lnumweeks) {
			for i := 0; i < no1wkst; i++ {
				mask[i] = true
			}
		}
	}
	return mask
}

// nweekdayMask marks the n-th weekdays of ordinal BYDAY values: within each
// BYMONTH month (or the whole year) for YEARLY, within the month for MONTHLY.
func (r *RRule) nweekdayMask(ii *yearInfo, month int) []bool {
	mask := make([]bool, ii.yearlen)
	var ranges [][2]int
	switch {
	case r.freq == yearly && r.bymonth != nil:
		for _, m := range r.bymonth {
			ranges = append(ranges, [2]int{ii.mrange[m-1], ii.mrange[m]})
		}
	case r.freq == yearly:
		ranges = [][2]int{{0, ii.yearlen}}
	case r.freq == monthly:
		ranges = [][2]int{{ii.mrange[month-1], ii.mrange[month]}}
	}
	for _, rg := range ranges {
		first, last := rg[0], rg[1]-1
		for _, wn := range r.bynweekday {
			wd, n := wn[0], wn[1]
			var i int
			if n < 0 {
				i = last + (n+1)*7
				if i < 0 {
					continue // before the year: never within the range
				}
				i -= mod(int(ii.wday[i])-wd, 7)
			} else {
				i = first + (n-1)*7
				if i >= len(ii.wday) {
					continue
				}
				i += mod(7-int(ii.wday[i])+wd, 7)
			}
			if first <= i && i <= last {
				mask[i] = true
			}
		}
	}
	return mask
}

// filtered reports whether day index i of the year is excluded by the BYxxx
// parts (dateutil's day filter).
func (r *RRule) filtered(ii *yearInfo, i int) bool {
	if r.bymonth != nil && !r.inMonth[ii.mmask[i]] {
		return true
	}
	if r.byweekno != nil && !ii.wnomask[i] {
		return true
	}
	if r.byweekday != nil && !r.inWday[ii.wday[i]] {
		return true
	}
	if ii.nwdaymask != nil && !ii.nwdaymask[i] {
		return true
	}
	if r.hasMdays && !r.inMday[ii.mday[i]] && !r.inNmday[-ii.nmday[i]] {
		return true
	}
	if r.byyearday != nil {
		if i < ii.yearlen {
			return !slices.Contains(r.byyearday, i+1) && !slices.Contains(r.byyearday, i-ii.yearlen)
		}
		return !slices.Contains(r.byyearday, i+1-ii.yearlen) && !slices.Contains(r.byyearday, i-ii.yearlen-ii.nextyearlen)
	}
	return false
}

// rruleWalls runs the rule period by period (dateutil's rrule._iter) and
// hands out the occurrences of each period in turn.
type rruleWalls struct {
	r                             *RRule
	ii                            yearInfo
	year, month, day              int
	hour, minute, second, wdaynow int
	timeset                       []int
	count                         int
	start, until, horizon         int64
	pending                       []int64
	done                          bool
	never                         bool
}

func (r *RRule) walls() source {
	s := r.dtstart
	w := &rruleWalls{r: r, year: s.Year, month: s.Month, day: s.Day, hour: s.Hour, minute: s.Minute, second: s.Second,
		count: r.count, start: s.Seconds(), until: r.until, horizon: horizon(s)}
	w.wdaynow = weekday(daysFromCivil(s.Year, s.Month, s.Day))
	w.ii.year = -1 << 30
	r.rebuild(&w.ii, w.year, w.month)
	if r.freq < hourly {
		w.timeset = r.timeset
	} else if (r.byhour != nil && !r.inHour[w.hour]) || (r.freq >= minutely && r.byminute != nil && !r.inMinute[w.minute]) ||
		(r.freq >= secondly && r.bysecond != nil && !r.inSecond[w.second]) {
		w.timeset = nil
	} else {
		w.timeset = r.gettimeset(w.hour, w.minute, w.second)
	}
	w.never = r.setposNeverMatches()
	return w
}

// setposNeverMatches: every BYSETPOS lies beyond the most candidates a period
// can have, so the rule has no occurrence at all (dateutil would search to
// year 9999 to find that out).
func (r *RRule) setposNeverMatches() bool {
	if r.bysetpos == nil {
		return false
	}
	days := map[int]int{yearly: 366, monthly: 31, weekly: 7}[r.freq]
	if days == 0 {
		days = 1
	}
	times := 1
	switch r.freq {
	case hourly:
		times = max(1, len(r.byminute)) * max(1, len(r.bysecond))
	case minutely:
		times = max(1, len(r.bysecond))
	case secondly:
	default:
		times = len(r.timeset)
	}
	for _, p := range r.bysetpos {
		if abs(p) <= days*times {
			return false
		}
	}
	return true
}

func (r *RRule) gettimeset(h, m, s int) []int {
	var ts []int
	switch r.freq {
	case hourly:
		for _, mm := range r.byminute {
			for _, ss := range r.bysecond {
				ts = append(ts, h*3600+mm*60+ss)
			}
		}
		slices.Sort(ts)
	case minutely:
		for _, ss := range r.bysecond {
			ts = append(ts, h*3600+m*60+ss)
		}
		slices.Sort(ts)
	default:
		ts = []int{h*3600 + m*60 + s}
	}
	return ts
}

func (w *rruleWalls) next(b *budget) (int64, bool, error) {
	for len(w.pending) == 0 {
		if w.done || w.never {
			return 0, false, nil
		}
		if err := w.period(b); err != nil {
			return 0, false, err
		}
	}
	v := w.pending[0]
	w.pending = w.pending[1:]
	return v, true, nil
}

// emit takes one candidate of the current period; false ends the rule.
func (w *rruleWalls) emit(res int64) bool {
	if w.r.hasUntil && res > w.until {
		return false
	}
	if res >= w.horizon {
		return false
	}
	if res >= w.start {
		if w.count >= 0 {
			w.count--
			if w.count < 0 {
				return false
			}
		}
		w.pending = append(w.pending, res)
	}
	return true
}

// period computes the occurrences of one period and advances to the next.
func (w *rruleWalls) period(b *budget) error {
	r, ii := w.r, &w.ii
	// the period's first day is past the horizon: the rule has ended
	var first int64
	switch r.freq {
	case yearly:
		first = daysFromCivil(w.year, 1, 1)
	case monthly:
		first = daysFromCivil(w.year, w.month, 1)
	default:
		first = daysFromCivil(w.year, w.month, w.day)
	}
	if first*86400 >= w.horizon {
		w.done = true
		return nil
	}
	var start, end int
	switch r.freq {
	case yearly:
		start, end = 0, ii.yearlen
	case monthly:
		start, end = ii.mrange[w.month-1], ii.mrange[w.month]
	case weekly:
		start = int(daysFromCivil(w.year, w.month, w.day) - ii.jan1)
		end = start
		for j := 0; j < 7; j++ {
			end++
			if int(ii.wday[end]) == r.wkst {
				break
			}
		}
	default:
		start = int(daysFromCivil(w.year, w.month, w.day) - ii.jan1)
		end = start + 1
	}
	if err := b.spend(end - start + 1); err != nil {
		return err
	}
	days := make([]int, 0, end-start)
	filtered := false
	for i := start; i < end; i++ {
		if r.filtered(ii, i) {
			filtered = true
		} else {
			days = append(days, i)
		}
	}
	ts := w.timeset
	if r.bysetpos != nil && len(ts) > 0 {
		n := len(days) * len(ts)
		var pos []int64
		for _, p := range r.bysetpos {
			k := p - 1
			if p < 0 {
				k = n + p
			}
			if k < 0 || k >= n {
				continue
			}
			v := wallAt(ii.jan1+int64(days[k/len(ts)]), ts[k%len(ts)])
			if !slices.Contains(pos, v) {
				pos = append(pos, v)
			}
		}
		slices.Sort(pos)
		for _, v := range pos {
			if !w.emit(v) {
				w.done = true
				return nil
			}
		}
	} else {
		for _, d := range days {
			for _, t := range ts {
				if !w.emit(wallAt(ii.jan1+int64(d), t)) {
					w.done = true
					return nil
				}
			}
		}
	}
	return w.advance(b, filtered)
}

// advance moves to the next period by FREQ and INTERVAL (dateutil's steps,
// including its jump to the day's last step after a filtered day).
func (w *rruleWalls) advance(b *budget, filtered bool) error {
	r := w.r
	interval := r.interval
	fixday := false
	switch r.freq {
	case yearly:
		w.year += interval
		if w.year > 9999 {
			w.done = true
			return nil
		}
		r.rebuild(&w.ii, w.year, w.month)
		return nil
	case monthly:
		w.month += interval
		if w.month > 12 {
			w.year += (w.month - 1) / 12
			w.month = (w.month-1)%12 + 1
			if w.year > 9999 {
				w.done = true
				return nil
			}
		}
		r.rebuild(&w.ii, w.year, w.month)
		return nil
	case weekly:
		if r.wkst > w.wdaynow {
			w.day += -(w.wdaynow + 1 + (6 - r.wkst)) + interval*7
		} else {
			w.day += -(w.wdaynow - r.wkst) + interval*7
		}
		w.wdaynow = r.wkst
		fixday = true
	case daily:
		w.day += interval
		fixday = true
	case hourly:
		if filtered {
			w.hour += ((23 - w.hour) / interval) * interval
		}
		var ndays int
		if r.byhour != nil {
			var ok bool
			var err error
			ndays, w.hour, ok, err = w.modDistance(b, w.hour, r.inHour[:], 24)
			if err != nil {
				return err
			}
			if !ok {
				return refusalf("invalid_rrule", "the rule's BYHOUR values are never reached")
			}
		} else {
			ndays, w.hour = (w.hour+interval)/24, (w.hour+interval)%24
		}
		if ndays != 0 {
			w.day += ndays
			fixday = true
		}
		w.timeset = r.gettimeset(w.hour, w.minute, w.second)
	case minutely:
		if filtered {
			w.minute += ((1439 - (w.hour*60 + w.minute)) / interval) * interval
		}
		valid := false
		rep := 1440 / gcd(interval, 1440)
		for j := 0; j < rep; j++ {
			if err := b.spend(1); err != nil {
				return err
			}
			var nhours int
			if r.byminute != nil {
				var ok bool
				var err error
				nhours, w.minute, ok, err = w.modDistance(b, w.minute, r.inMinute[:], 60)
				if err != nil {
					return err
				}
				if !ok {
					return refusalf("invalid_rrule", "the rule's BYMINUTE values are never reached")
				}
			} else {
				nhours, w.minute = (w.minute+interval)/60, (w.minute+interval)%60
			}
			div := (w.hour + nhours) / 24
			w.hour = (w.hour + nhours) % 24
			if div != 0 {
				w.day += div
				fixday = true
			}
			if r.byhour == nil || r.inHour[w.hour] {
				valid = true
				break
			}
		}
		if !valid {
			return refusalf("invalid_rrule", "INTERVAL and BYHOUR leave the rule empty")
		}
		w.timeset = r.gettimeset(w.hour, w.minute, w.second)
	case secondly:
		if filtered {
			w.second += ((86399 - (w.hour*3600 + w.minute*60 + w.second)) / interval) * interval
		}
		valid := false
		rep := 86400 / gcd(interval, 86400)
		for j := 0; j < rep; j++ {
			if err := b.spend(1); err != nil {
				return err
			}
			var nminutes int
			if r.bysecond != nil {
				var ok bool
				var err error
				nminutes, w.second, ok, err = w.modDistance(b, w.second, r.inSecond[:], 60)
				if err != nil {
					return err
				}
				if !ok {
					return refusalf("invalid_rrule", "the rule's BYSECOND values are never reached")
				}
			} else {
				nminutes, w.second = (w.second+interval)/60, (w.second+interval)%60
			}
			div := (w.minute + nminutes) / 60
			w.minute = (w.minute + nminutes) % 60
			if div != 0 {
				w.hour += div
				d := w.hour / 24
				w.hour %= 24
				if d != 0 {
					w.day += d
					fixday = true
				}
			}
			if (r.byhour == nil || r.inHour[w.hour]) && (r.byminute == nil || r.inMinute[w.minute]) && (r.bysecond == nil || r.inSecond[w.second]) {
				valid = true
				break
			}
		}
		if !valid {
			return refusalf("invalid_rrule", "INTERVAL, BYHOUR and BYMINUTE leave the rule empty")
		}
		w.timeset = r.gettimeset(w.hour, w.minute, w.second)
	}
	if fixday && w.day > 28 {
		dim := daysIn(w.year, w.month)
		if w.day > dim {
			for w.day > dim {
				w.day -= dim
				w.month++
				if w.month == 13 {
					w.month = 1
					w.year++
					if w.year > 9999 {
						w.done = true
						return nil
					}
				}
				dim = daysIn(w.year, w.month)
			}
			r.rebuild(&w.ii, w.year, w.month)
		}
	}
	return nil
}

// modDistance steps value by INTERVAL modulo base until it lands on a value
// of set: the carries into the next unit, the value, and whether one was
// found within base steps (dateutil's __mod_distance).
func (w *rruleWalls) modDistance(b *budget, value int, set []bool, base int) (int, int, bool, error) {
	acc := 0
	if err := b.spend(base); err != nil {
		return 0, 0, false, err
	}
	for i := range base {
		value += w.r.interval
		acc += value / base
		value %= base
		if set[value] {
			b.left += base - i - 1 // charge the steps taken, not the most
			return acc, value, true, nil
		}
	}
	return 0, 0, false, nil
}
