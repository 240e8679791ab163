package allocs

import "testing"

var sink []byte

// TestBytesCountsAllocations: a 1 MiB allocation is counted, at least once.
func TestBytesCountsAllocations(t *testing.T) {
	n := Bytes(func() { sink = make([]byte, 1<<20) })
	if n < 1<<20 {
		t.Fatalf("counted %d bytes for a 1 MiB allocation", n)
	}
}
