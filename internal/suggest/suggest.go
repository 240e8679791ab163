// Package suggest finds the valid names closest to a misspelt one, for
// did-you-mean hints in error messages. The work is bounded: queries longer
// than MaxQuery runes get no suggestions, and each comparison stops as soon as
// the distance exceeds the limit, so a lookup costs at most
// O(candidates · MaxQuery · (2·limit+1)) rune steps.
package suggest

import (
	"sort"
	"strings"
	"unicode/utf8"
)

// MaxQuery is the longest query, in runes, that gets suggestions.
const MaxQuery = 64

// Limit is the largest edit distance worth suggesting for a query of n runes:
// 1 up to 4 runes, 2 up to 7, 3 beyond. A looser limit suggests names that
// share little with the query.
func Limit(n int) int {
	switch {
	case n <= 4:
		return 1
	case n <= 7:
		return 2
	}
	return 3
}

// Distance is the optimal string alignment distance between a and b, counted
// in runes: insertions, deletions, substitutions and transpositions of two
// adjacent runes cost 1 each. It returns limit+1 as soon as the distance is
// known to exceed limit.
func Distance(a, b string, limit int) int {
	var rows [3][]int
	return distance([]rune(a), []rune(b), limit, &rows)
}

// distance is Distance on runes; rows is scratch space, grown as needed.
func distance(ra, rb []rune, limit int, rows *[3][]int) int {
	if d := len(ra) - len(rb); d > limit || -d > limit {
		return limit + 1
	}
	for k := range rows {
		if cap(rows[k]) < len(rb)+1 {
			rows[k] = make([]int, len(rb)+1)
		}
		rows[k] = rows[k][:len(rb)+1]
	}
	// Three rows of the dynamic programme: two back (for transpositions), one
	// back and the current one. Stopping when a whole row exceeds the limit is
	// sound: a cell two rows down is at most a cell one row down plus one.
	prev2, prev, cur := rows[0], rows[1], rows[2]
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		best := cur[0]
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = v
			best = min(best, v)
		}
		if best > limit {
			return limit + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	if prev[len(rb)] > limit {
		return limit + 1
	}
	return prev[len(rb)]
}

// Match is one candidate with its distance from the query.
type Match struct {
	Name     string
	Distance int
}

// Ranker collects the best candidates for one query: the n nearest within the
// limit, nearest first, ties in the order they were offered.
type Ranker struct {
	query []rune
	key   []rune // scratch
	rows  [3][]int
	limit int
	n     int
	seq   int
	best  []ranked
}

type ranked struct {
	Match
	tie int // secondary key: smaller is better
	seq int
}

// NewRanker starts a ranking of up to n names within limit of query. A query
// longer than MaxQuery runes, or n < 1, ranks nothing.
func NewRanker(query string, n, limit int) *Ranker {
	if n < 1 || utf8.RuneCountInString(query) > MaxQuery {
		n = 0
	}
	return &Ranker{query: []rune(query), limit: limit, n: n}
}

// Offer compares key with the query and keeps name when it ranks among the
// best; tie breaks equal distances (smaller wins), then the order of offers.
// It reports the distance (limit+1 when beyond the limit).
func (r *Ranker) Offer(name, key string, tie int) int {
	d, ok := r.Near(key)
	if ok {
		r.Keep(name, d, tie)
	}
	return d
}

// Near is the distance of key from the query and whether it is within the
// limit (limit+1, false beyond it, or when the ranker ranks nothing).
func (r *Ranker) Near(key string) (int, bool) { return r.NearJoined("", key) }

// NearJoined is Near(prefix + key) without building the string.
func (r *Ranker) NearJoined(prefix, key string) (int, bool) {
	if r.n == 0 {
		return r.limit + 1, false
	}
	if d := utf8.RuneCountInString(prefix) + utf8.RuneCountInString(key) - len(r.query); d > r.limit || -d > r.limit {
		return r.limit + 1, false
	}
	r.key = r.key[:0]
	for _, c := range prefix {
		r.key = append(r.key, c)
	}
	for _, c := range key {
		r.key = append(r.key, c)
	}
	d := distance(r.query, r.key, r.limit, &r.rows)
	return d, d <= r.limit
}

// Competes reports whether a name at distance d could still be kept: fewer
// than n are kept, or the worst kept one is no nearer. Use it to skip work
// (a tie-breaker, a string) for names that cannot rank.
func (r *Ranker) Competes(d int) bool {
	return r.n > 0 && d <= r.limit && (len(r.best) < r.n || d <= r.best[len(r.best)-1].Distance)
}

// Keep ranks name at distance d (from Near) with tie-breaker tie. A name kept
// twice keeps its better rank.
func (r *Ranker) Keep(name string, d, tie int) {
	if r.n == 0 || d > r.limit {
		return
	}
	r.seq++
	for i := range r.best {
		if r.best[i].Name == name {
			if d < r.best[i].Distance || (d == r.best[i].Distance && tie < r.best[i].tie) {
				r.best[i].Distance, r.best[i].tie = d, tie
				r.sort()
			}
			return
		}
	}
	r.best = append(r.best, ranked{Match{name, d}, tie, r.seq})
	r.sort()
	if len(r.best) > r.n {
		r.best = r.best[:r.n]
	}
}

func (r *Ranker) sort() {
	sort.SliceStable(r.best, func(i, j int) bool {
		a, b := r.best[i], r.best[j]
		if a.Distance != b.Distance {
			return a.Distance < b.Distance
		}
		if a.tie != b.tie {
			return a.tie < b.tie
		}
		return a.seq < b.seq
	})
}

// Names are the ranked names, best first.
func (r *Ranker) Names() []string {
	out := make([]string, len(r.best))
	for i, m := range r.best {
		out[i] = m.Name
	}
	return out
}

// Closest returns up to n of candidates nearest to query (compared without
// regard to case), within Limit of the query's length, best first.
func Closest(query string, candidates []string, n int) []string {
	q := strings.ToLower(query)
	r := NewRanker(q, n, Limit(utf8.RuneCountInString(q)))
	for _, c := range candidates {
		r.Offer(c, strings.ToLower(c), 0)
	}
	return r.Names()
}

// Words returns up to n of candidates of which query is one or more whole
// words (compared without regard to case; words are separated by '_'), in the
// candidates' order: "timezone" → "timezone_name", "from" → "from_unit" and
// "from_timezone". It finds the longer names an edit distance misses; a query
// of fewer than 2 or more than MaxQuery runes, or one that is a candidate,
// matches nothing.
func Words(query string, candidates []string, n int) []string {
	q := strings.ToLower(query)
	if k := utf8.RuneCountInString(q); k < 2 || k > MaxQuery {
		return nil
	}
	var out []string
	for _, c := range candidates {
		if len(out) == n {
			break
		}
		l := strings.ToLower(c)
		if l == q {
			return nil
		}
		if strings.HasPrefix(l, q+"_") || strings.HasSuffix(l, "_"+q) || strings.Contains(l, "_"+q+"_") {
			out = append(out, c)
		}
	}
	return out
}

// Phrase renders names as a did-you-mean clause: ` (did you mean "a", "b" or
// "c"?)`, or "" when there are none.
func Phrase(names []string) string {
	if len(names) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(" (did you mean ")
	for i, n := range names {
		switch {
		case i == 0:
		case i == len(names)-1:
			b.WriteString(" or ")
		default:
			b.WriteString(", ")
		}
		b.WriteString(`"` + n + `"`)
	}
	b.WriteString("?)")
	return b.String()
}
