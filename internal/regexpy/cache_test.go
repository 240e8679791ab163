package regexpy

import (
	"fmt"
	"strings"
	"sync"
	"testing"
)

// sized is a compiled pattern whose memSize is about n bytes (a program of
// one instruction and a class of runes), for tests of the bounds.
func sized(t *testing.T, n int) *Regexp {
	t.Helper()
	re, err := compile("a", "")
	if err != nil {
		t.Fatal(err)
	}
	cp := *re
	prog := *re.prog
	prog.Inst = append(prog.Inst[:0:0], prog.Inst...)
	prog.Inst[0].Rune = make([]rune, 0, n/4)
	cp.prog = &prog
	return &cp
}

func TestLRUOrder(t *testing.T) {
	c := newLRU(3, 1<<30, 1<<30)
	re := sized(t, 0)
	for _, k := range []string{"a", "b", "c"} {
		c.put(cacheKey{pattern: k}, re)
	}
	if _, ok := c.get(cacheKey{pattern: "a"}); !ok { // a is now the most recent
		t.Fatal("a missing")
	}
	c.put(cacheKey{pattern: "d"}, re) // evicts b, the least recently used
	for k, want := range map[string]bool{"a": true, "b": false, "c": true, "d": true} {
		if _, ok := c.get(cacheKey{pattern: k}); ok != want {
			t.Errorf("%s cached: %v, want %v", k, ok, want)
		}
	}
	if n, _ := c.stats(); n != 3 {
		t.Errorf("%d entries, want 3", n)
	}
}

func TestLRUByteBound(t *testing.T) {
	const budget = 100_000
	c := newLRU(1000, budget, 30_000)
	big := sized(t, 40_000)
	c.put(cacheKey{pattern: "big"}, big)
	if _, ok := c.get(cacheKey{pattern: "big"}); ok {
		t.Error("an entry over the per-entry bound was cached")
	}
	for i := 0; i < 50; i++ {
		c.put(cacheKey{pattern: fmt.Sprint(i)}, sized(t, 20_000))
		if _, b := c.stats(); b > budget {
			t.Fatalf("after %d puts the cache holds %d bytes, budget %d", i+1, b, budget)
		}
	}
	n, b := c.stats()
	if n < 3 || n > 5 || b < 60_000 {
		t.Errorf("%d entries of %d bytes: the budget is not used as it should be", n, b)
	}
	// The most recent survive.
	if _, ok := c.get(cacheKey{pattern: "49"}); !ok {
		t.Error("the last entry was evicted")
	}
	if _, ok := c.get(cacheKey{pattern: "0"}); ok {
		t.Error("the first entry is still cached")
	}
}

// TestCacheBoundsCompile: through Compile, a pattern whose program is too
// large is never cached, an expensive one that is cached leaves the cache
// once enough other patterns have been used, and the cache never holds more
// than its bounds.
func TestCacheBoundsCompile(t *testing.T) {
	huge := `\w{1000}\d{1000}\s{1000}[a-z]{1000}[0-9]{1000}x{1000}y{1000}` // 7002 instructions
	a, err := Compile(huge, "")
	if err != nil {
		t.Fatal(err)
	}
	if a.memSize() <= maxEntryBytes {
		t.Fatalf("%s takes %d bytes, not more than maxEntryBytes: pick a larger test pattern", huge, a.memSize())
	}
	if b, _ := Compile(huge, ""); b == a {
		t.Error("a pattern over maxEntryBytes was cached")
	}

	expensive := `\w{50}(?P<x>[\w.]+)@\d{20}`
	e1, err := Compile(expensive, "i")
	if err != nil {
		t.Fatal(err)
	}
	if e2, _ := Compile(expensive, "i"); e2 != e1 {
		t.Fatal("a pattern within the bounds was not cached")
	}
	if e3, _ := Compile(expensive, ""); e3 == e1 {
		t.Fatal("flags are not part of the key")
	}
	for i := 0; i < cacheEntries; i++ {
		if _, err := Compile(fmt.Sprintf("x%dy", i), ""); err != nil {
			t.Fatal(err)
		}
		if n, b := cache.stats(); n > cacheEntries || b > cacheBytes {
			t.Fatalf("cache holds %d entries, %d bytes", n, b)
		}
	}
	if e4, _ := Compile(expensive, "i"); e4 == e1 {
		t.Error("the expensive pattern is still cached after cacheEntries other patterns")
	}
}

// TestCacheConcurrent: many goroutines compiling and matching an overlapping
// set of patterns get correct matches (run with -race).
func TestCacheConcurrent(t *testing.T) {
	c := cache
	defer func() { cache = c }()
	cache = newLRU(8, 1<<20, 1<<20) // small, so that entries come and go
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				k := (g + i) % 20
				want := strings.Repeat("z", k+1)
				ms, err := findAll(t, fmt.Sprintf("(z{%d})", k+1), "", "ab"+want+"cd", Limits{})
				if err != nil || len(ms) != 1 || ms[0].Groups[1] != [2]int{2, 3 + k} {
					errs <- fmt.Errorf("pattern z{%d}: %v %v", k+1, ms, err)
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n, _ := cache.stats(); n > 8 {
		t.Errorf("%d entries in a cache of 8", n)
	}
}
