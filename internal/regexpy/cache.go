package regexpy

import (
	"sync"
	"unsafe"
)

// The cache of compiled patterns. Translating and compiling a pattern (large
// Unicode classes, the loop rewrite) costs far more than matching a short
// text, and models repeat their patterns, as CPython's re module assumes with
// its own cache. A *Regexp is immutable once compiled, so one is shared by
// every call that uses its pattern.
//
// The cache is least-recently-used, bounded by entries and by bytes: the
// estimated memory of the compiled programs and their keys. A pattern whose
// program alone would take more than maxEntryBytes is compiled for its call
// and never cached, so a hostile pattern that is expensive to build cannot
// sit in the cache; everything else leaves it once cacheBytes or cacheEntries
// is exceeded and it is the least recently used.
const (
	cacheEntries  = 512
	cacheBytes    = 16 << 20
	maxEntryBytes = 256 << 10
)

// lru is a least-recently-used map from key to compiled pattern with a byte
// budget; safe for concurrent use.
type lru struct {
	maxEntries           int
	maxBytes, maxEntrySz int64

	mu    sync.Mutex
	m     map[cacheKey]*lruEntry
	head  lruEntry // sentinel: head.next is the most recent entry, head.prev the least
	bytes int64
}

type lruEntry struct {
	key        cacheKey
	re         *Regexp
	size       int64
	prev, next *lruEntry
}

func newLRU(maxEntries int, maxBytes, maxEntry int64) *lru {
	c := &lru{maxEntries: maxEntries, maxBytes: maxBytes, maxEntrySz: maxEntry, m: map[cacheKey]*lruEntry{}}
	c.head.next, c.head.prev = &c.head, &c.head
	return c
}

var cache = newLRU(cacheEntries, cacheBytes, maxEntryBytes)

// cacheKey is the key of a pattern compiled with flags (a struct, so that a
// look-up builds no string).
type cacheKey struct{ pattern, flags string }

func (c *lru) get(key cacheKey) (*Regexp, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[key]
	if !ok {
		return nil, false
	}
	c.unlink(e)
	c.pushFront(e)
	return e.re, true
}

// put stores re under key unless it is too large for the cache; it evicts
// the least recently used entries until both bounds hold.
func (c *lru) put(key cacheKey, re *Regexp) {
	size := re.memSize() + int64(len(key.pattern)+len(key.flags)) + int64(unsafe.Sizeof(lruEntry{}))
	if size > c.maxEntrySz || size > c.maxBytes {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[key]; ok {
		return // compiled twice at once: keep the first
	}
	e := &lruEntry{key: key, re: re, size: size}
	c.m[key] = e
	c.pushFront(e)
	c.bytes += size
	for len(c.m) > c.maxEntries || c.bytes > c.maxBytes {
		old := c.head.prev
		c.unlink(old)
		delete(c.m, old.key)
		c.bytes -= old.size
	}
}

// stats reports the entries and bytes held (tests).
func (c *lru) stats() (entries int, bytes int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m), c.bytes
}

func (c *lru) unlink(e *lruEntry) {
	e.prev.next, e.next.prev = e.next, e.prev
}

func (c *lru) pushFront(e *lruEntry) {
	e.prev, e.next = &c.head, c.head.next
	c.head.next.prev = e
	c.head.next = e
}

// memSize estimates the bytes a compiled pattern holds: its instructions and
// their rune classes, the tables beside them and the translated pattern. It
// is computed once, when the pattern is cached.
func (re *Regexp) memSize() int64 {
	const word = int64(unsafe.Sizeof(uintptr(0)))
	if re.sre != nil {
		// nodes and their slices (classes are shared with the parse tree)
		n := int64(unsafe.Sizeof(Regexp{})) + int64(re.sreNodes)*(int64(unsafe.Sizeof(bnode{}))+8*word)
		for name := range re.names {
			n += int64(len(name)) + 4*word
		}
		return n + int64(len(re.GoPattern)) + int64(len(re.groupCap))*word
	}
	n := int64(unsafe.Sizeof(Regexp{})) + int64(unsafe.Sizeof(*re.prog))
	n += int64(len(re.prog.Inst)) * int64(unsafe.Sizeof(re.prog.Inst[0]))
	// Repeated classes share one rune slice (x{1000} compiles to a thousand
	// instructions over the same class): count each slice once.
	seen := map[*rune]bool{}
	for i := range re.prog.Inst {
		r := re.prog.Inst[i].Rune
		if p := unsafe.SliceData(r); cap(r) > 0 && !seen[p] {
			seen[p] = true
			n += int64(cap(r)) * 4
		}
	}
	n += int64(len(re.groupCap)+len(re.markers)+len(re.loopOf)+len(re.first)) * word
	n += int64(len(re.ascii)) * 16
	for name := range re.names {
		n += int64(len(name)) + 4*word // key, value and map overhead
	}
	return n + int64(len(re.GoPattern))
}
