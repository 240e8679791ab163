package tiktoken

import "context"

// Byte-pair merging of one pre-token, as tiktoken does it: start from single
// bytes and repeatedly merge the adjacent pair whose concatenation has the
// lowest rank (the leftmost of equal ranks) until no pair is a token. Short
// pieces use the direct quadratic scan; longer ones a heap of candidate pairs
// over a linked list of parts, O(n log n), so a 1 MiB piece without spaces
// costs no more than its size says. Both give the same tokens (FuzzMerge).

// smallPiece is the longest piece merged by the quadratic scan.
const smallPiece = 64

// mergeBuf is the heap merge's memory, reused across the pieces of one call.
type mergeBuf struct {
	next, prev []int32
	heap       pairHeap
	// ctx, when set, stops a long merge once it is done; the tokens are then
	// wrong, and the caller must answer ctx.Err() instead.
	ctx context.Context
}

func (k *ranks) appendPiece(dst []int32, p string, buf *mergeBuf) []int32 {
	if r := k.rank(p); r >= 0 {
		return append(dst, r)
	}
	if len(p) <= smallPiece {
		return k.mergeSmall(dst, p)
	}
	return k.mergeHeap(dst, p, buf)
}

func (k *ranks) pairRank(p string, starts []int, i int) int32 {
	if i+2 >= len(starts) {
		return -1
	}
	return k.rank(p[starts[i]:starts[i+2]])
}

func (k *ranks) mergeSmall(dst []int32, p string) []int32 {
	var sb [smallPiece + 1]int
	var rb [smallPiece]int32
	starts := sb[:len(p)+1]
	for i := range starts {
		starts[i] = i
	}
	rk := rb[:len(p)-1]
	for i := range rk {
		rk[i] = k.pairRank(p, starts, i)
	}
	for len(rk) > 0 {
		best := -1
		for i, r := range rk {
			if r >= 0 && (best < 0 || r < rk[best]) {
				best = i
			}
		}
		if best < 0 {
			break
		}
		starts = append(starts[:best+1], starts[best+2:]...)
		rk = append(rk[:best], rk[best+1:]...)
		if best < len(rk) {
			rk[best] = k.pairRank(p, starts, best)
		}
		if best > 0 {
			rk[best-1] = k.pairRank(p, starts, best-1)
		}
	}
	for i := 0; i+1 < len(starts); i++ {
		dst = append(dst, k.rank(p[starts[i]:starts[i+1]]))
	}
	return dst
}

type pair struct{ rank, start, end int32 }

func (a pair) less(b pair) bool { return a.rank < b.rank || a.rank == b.rank && a.start < b.start }

type pairHeap []pair

func (h *pairHeap) push(x pair) {
	*h = append(*h, x)
	s := *h
	for i := len(s) - 1; i > 0; {
		up := (i - 1) / 2
		if !s[i].less(s[up]) {
			break
		}
		s[i], s[up] = s[up], s[i]
		i = up
	}
}

func (h *pairHeap) pop() pair {
	s := *h
	top := s[0]
	n := len(s) - 1
	s[0] = s[n]
	s = s[:n]
	for i := 0; ; {
		l, m := 2*i+1, i
		if l < n && s[l].less(s[m]) {
			m = l
		}
		if l+1 < n && s[l+1].less(s[m]) {
			m = l + 1
		}
		if m == i {
			break
		}
		s[i], s[m] = s[m], s[i]
		i = m
	}
	*h = s
	return top
}

func (k *ranks) mergeHeap(dst []int32, p string, buf *mergeBuf) []int32 {
	n := int32(len(p))
	if buf == nil {
		buf = &mergeBuf{}
	}
	// next[i]: where the part starting at i ends; prev[i]: where the part
	// before it starts, -2 once the part starting at i has merged into it.
	next, prev := grow(buf.next, int(n+1)), grow(buf.prev, int(n+1))
	buf.next, buf.prev = next, prev
	for i := range n {
		next[i], prev[i] = i+1, i-1
	}
	next[n] = n
	if cap(buf.heap) < int(n) {
		buf.heap = make(pairHeap, 0, n+n/4) // n-1 pairs at first, fewer as they merge
	}
	h := buf.heap[:0]
	defer func() { buf.heap = h[:0] }()
	for i := int32(0); i+1 < n; i++ {
		if r := k.rank(p[i : i+2]); r >= 0 {
			h.push(pair{r, i, i + 2})
		}
	}
	for pops := 1; len(h) > 0; pops++ {
		if pops&0xffff == 0 && buf.ctx != nil && buf.ctx.Err() != nil {
			break
		}
		q := h.pop()
		m := next[q.start]
		if prev[q.start] == -2 || m >= n || next[m] != q.end {
			continue // stale: one of its parts has merged since
		}
		prev[m] = -2
		next[q.start] = q.end
		if q.end < n {
			prev[q.end] = q.start
			if r := k.rank(p[q.start:next[q.end]]); r >= 0 {
				h.push(pair{r, q.start, next[q.end]})
			}
		}
		if q.start > 0 {
			l := prev[q.start]
			if r := k.rank(p[l:q.end]); r >= 0 {
				h.push(pair{r, l, q.end})
			}
		}
	}
	for i := int32(0); i < n; i = next[i] {
		dst = append(dst, k.rank(p[i:next[i]]))
	}
	return dst
}

func grow(s []int32, n int) []int32 {
	if cap(s) < n {
		return make([]int32, n)
	}
	return s[:n]
}
