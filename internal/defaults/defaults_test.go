package defaults

import (
	"testing"
	"time"
)

func TestPositive(t *testing.T) {
	for _, c := range []struct {
		in, want time.Duration
	}{
		{0, time.Second},
		{-1, time.Second},
		{time.Millisecond, time.Millisecond},
	} {
		v := c.in
		Positive(&v, time.Second)
		if v != c.want {
			t.Errorf("Positive(%v, 1s) = %v, want %v", c.in, v, c.want)
		}
	}
	n := int64(-5)
	Positive(&n, 7)
	if n != 7 {
		t.Errorf("Positive(-5, 7) = %d, want 7", n)
	}
	k := 3
	Positive(&k, 7)
	if k != 3 {
		t.Errorf("Positive(3, 7) = %d, want 3", k)
	}
}
