package intent

import (
	"bytes"
	"regexp/syntax"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Most patterns tried on a segment do not match it: a tool's German
// phrasings on an English item, its phrasing for both GCD and LCM on a
// request for the GCD. Each such try runs a regex. So the loader derives
// from each pattern the literal text any match must contain (requiredLits):
// a few clauses, each a set of strings of which a match contains at least
// one, in a case-folded form (foldKey); a segment whose folded text lacks a
// clause cannot match and the pattern is not run. The analysis is the usual
// one for regex prefilters: the exact strings of small sub-expressions are
// multiplied out through concatenations and joined through alternations;
// anything unbounded (a class, a repetition) ends an exact string and keeps
// what was found so far as a clause. A clause is only ever a condition that
// every match meets (TestRequiredLits checks it on every corpus text), so
// skipping changes nothing that is recognised.

// maxExact bounds the exact strings of a sub-expression, maxClause the
// strings of a clause that is kept, maxClauses the clauses of a pattern.
const (
	maxExact   = 24
	maxClause  = 24
	maxClauses = 3
)

// litInfo is what a sub-expression requires: exact (when not nil) is every
// string it can match; clauses are conditions on any text it matches.
type litInfo struct {
	exact   []string
	clauses [][]string
	// lone are clauses of one literal each (of a concatenation), used
	// only where an alternation's clause would be lost without them: one
	// string "R WOCHENTAG " where the product "R WOCHENTAG IST", "R
	// WOCHENTAG WAR", … of its run is too large to join with the other
	// branches.
	lone [][]string
}

// requiredLits returns the clauses of the regex src (nil: none found or
// src does not parse).
func requiredLits(src string) [][]string {
	re, err := syntax.Parse(src, syntax.Perl)
	if err != nil {
		return nil
	}
	info := litsOf(re.Simplify())
	clauses := info.clauses
	if info.exact != nil {
		clauses = append(clauses, info.exact)
	}
	var kept [][]string
	for _, c := range clauses {
		if len(c) > maxClause || slices.ContainsFunc(c, func(s string) bool { return len(s) < 2 }) {
			continue // too weak or too costly to test
		}
		kept = append(kept, c)
	}
	// The most selective first: longest shortest string.
	slices.SortStableFunc(kept, func(a, b []string) int { return shortest(b) - shortest(a) })
	if len(kept) > maxClauses {
		kept = kept[:maxClauses]
	}
	return kept
}

func shortest(c []string) int {
	n := 1 << 30
	for _, s := range c {
		n = min(n, len(s))
	}
	return n
}

func litsOf(re *syntax.Regexp) litInfo {
	switch re.Op {
	case syntax.OpLiteral:
		var b strings.Builder
		for _, r := range re.Rune {
			b.WriteRune(foldRune(r))
		}
		return litInfo{exact: []string{b.String()}}
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return litInfo{exact: []string{""}}
	case syntax.OpCharClass:
		var set []string
		for i := 0; i+1 < len(re.Rune); i += 2 {
			if re.Rune[i+1]-re.Rune[i] > maxExact {
				return litInfo{}
			}
			for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
				if s := string(foldRune(r)); !slices.Contains(set, s) {
					set = append(set, s)
				}
			}
			if len(set) > maxExact {
				return litInfo{}
			}
		}
		return litInfo{exact: set}
	case syntax.OpCapture:
		return litsOf(re.Sub[0])
	case syntax.OpQuest:
		sub := litsOf(re.Sub[0])
		if sub.exact != nil && len(sub.exact) < maxExact {
			return litInfo{exact: union(sub.exact, []string{""})}
		}
		return litInfo{}
	case syntax.OpPlus:
		sub := litsOf(re.Sub[0])
		return litInfo{clauses: sub.all()}
	case syntax.OpRepeat:
		if re.Min == 0 {
			return litInfo{}
		}
		sub := litsOf(re.Sub[0])
		return litInfo{clauses: sub.all()}
	case syntax.OpConcat:
		// acc.exact is the exact strings of the run of sub-expressions
		// since the last one that broke it; whole says none did.
		acc, whole := litInfo{exact: []string{""}}, true
		for _, s := range re.Sub {
			next := litsOf(s)
			acc.clauses = append(acc.clauses, next.clauses...)
			acc.lone = append(acc.lone, next.lone...)
			if s.Op == syntax.OpLiteral && len(next.exact[0]) >= 3 {
				acc.lone = append(acc.lone, next.exact)
			}
			if acc.exact != nil && next.exact != nil && len(acc.exact)*len(next.exact) <= maxExact {
				acc.exact = product(acc.exact, next.exact)
				continue
			}
			// The run ends here: what it found is a clause.
			whole = false
			if acc.exact != nil {
				acc.clauses = append(acc.clauses, acc.exact)
			}
			acc.exact = next.exact
		}
		if !whole && acc.exact != nil {
			acc.clauses = append(acc.clauses, acc.exact)
			acc.exact = nil
		}
		return acc
	case syntax.OpAlternate:
		var exact []string
		allExact := true
		var clause []string
		subs := make([]litInfo, len(re.Sub))
		for i, s := range re.Sub {
			sub := litsOf(s)
			subs[i] = sub
			if sub.exact == nil {
				allExact = false
			} else {
				exact = union(exact, sub.exact)
			}
			best := sub.best(false)
			if best == nil {
				clause = nil
				allExact = false
				break
			}
			clause = union(clause, best)
		}
		if allExact && len(exact) <= maxExact {
			return litInfo{exact: exact}
		}
		if clause == nil || len(clause) > maxClause {
			// Lost (a branch without a condition, or too many strings):
			// the branches' lone literals may still make one.
			clause = nil
			for i, s := range re.Sub {
				if subs[i].exact == nil && subs[i].clauses == nil && subs[i].lone == nil {
					subs[i] = litsOf(s) // not reached by the loop above
				}
				best := subs[i].best(true)
				if best == nil {
					clause = nil
					break
				}
				clause = union(clause, best)
			}
		}
		if clause == nil {
			return litInfo{}
		}
		return litInfo{clauses: [][]string{clause}}
	}
	return litInfo{}
}

// all is every condition of i: its clauses and its exact strings.
func (i litInfo) all() [][]string {
	if i.exact != nil {
		return append(slices.Clone(i.clauses), i.exact)
	}
	return i.clauses
}

// best is i's most useful condition for a union with others, or nil: one
// whose strings have at least three bytes, then the fewest strings, then
// the longest shortest string. The lone literals are candidates too when
// lone is set.
func (i litInfo) best(lone bool) []string {
	var out []string
	better := func(c []string) bool {
		if (shortest(c) >= 3) != (shortest(out) >= 3) {
			return shortest(c) >= 3
		}
		if len(c) != len(out) {
			return len(c) < len(out)
		}
		return shortest(c) > shortest(out)
	}
	cands := i.all()
	if lone {
		cands = append(slices.Clone(cands), i.lone...)
	}
	for _, c := range cands {
		if slices.Contains(c, "") || len(c) > maxClause {
			continue
		}
		if out == nil || better(c) {
			out = c
		}
	}
	return out
}

func product(a, b []string) []string {
	var out []string
	for _, x := range a {
		for _, y := range b {
			if s := x + y; !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
	}
	return out
}

func union(a, b []string) []string {
	out := slices.Clone(a)
	for _, s := range b {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// foldRune is the rune that stands for r and all its case variants: the
// smallest of them.
func foldRune(r rune) rune {
	if r < utf8.RuneSelf {
		if 'a' <= r && r <= 'z' && r != 'k' && r != 's' {
			return r - 'a' + 'A'
		}
	}
	m := r
	for q := unicode.SimpleFold(r); q != r; q = unicode.SimpleFold(q) {
		m = min(m, q)
	}
	return m
}

// foldKey appends s with every rune replaced by foldRune to buf: a text
// matches a case-insensitive literal only if its foldKey contains the
// literal's.
func foldKey(buf []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			for _, r := range s[i:] {
				buf = utf8.AppendRune(buf, foldRune(r))
			}
			return buf
		}
		if 'a' <= c && c <= 'z' {
			c -= 'a' - 'A' // 'k' and 's' fold to 'K' and 'S' too
		}
		buf = append(buf, c)
	}
	return buf
}

// mayMatch reports whether the segment whose foldKey is key meets every
// clause.
func mayMatch(clauses [][][]byte, key []byte) bool {
	for _, c := range clauses {
		found := false
		for _, lit := range c {
			if bytes.Contains(key, lit) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// pairSet is a 256-bit set of the byte pairs of a text, each pair hashed
// to one bit. Every pair of a substring is a pair of the text, so a literal
// whose pairs are not all in a segment's set is not in the segment: most
// absent literals are told apart by four AND-NOTs instead of a search.
type pairSet [4]uint64

// pairsOf is the pairSet of b.
func pairsOf(b []byte) pairSet {
	var m pairSet
	for i := 0; i+1 < len(b); i++ {
		h := (uint32(b[i])<<8 | uint32(b[i+1])) * 0x9e3779b1 >> 24
		m[h>>6] |= 1 << (h & 63)
	}
	return m
}

// within reports whether every pair of m is in text's set.
func (m *pairSet) within(text *pairSet) bool {
	return m[0]&^text[0]|m[1]&^text[1]|m[2]&^text[2]|m[3]&^text[3] == 0
}

// litPairs is the pairSet of each literal of clauses.
func litPairs(clauses [][][]byte) [][]pairSet {
	out := make([][]pairSet, len(clauses))
	for i, c := range clauses {
		for _, lit := range c {
			out[i] = append(out[i], pairsOf(lit))
		}
	}
	return out
}

// mayMatchPairs is mayMatch(clauses, key), keyPairs the pairSet of key and
// pairs litPairs(clauses): a literal is searched only when its pairs are in
// the key.
func mayMatchPairs(clauses [][][]byte, pairs [][]pairSet, key []byte, keyPairs *pairSet) bool {
	for i, c := range clauses {
		found := false
		for j, lit := range c {
			if pairs[i][j].within(keyPairs) && bytes.Contains(key, lit) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// asBytes is clauses with each string as bytes, for mayMatch.
func asBytes(clauses [][]string) [][][]byte {
	out := make([][][]byte, len(clauses))
	for i, c := range clauses {
		for _, s := range c {
			out[i] = append(out[i], []byte(s))
		}
	}
	return out
}
