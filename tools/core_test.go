package tools

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// FuzzRomanNumeral: any string either parses to a numeral whose rendering reads
// back to the same value, or is refused with a typed error.
func FuzzRomanNumeral(f *testing.F) {
	for _, s := range []string{"MCMXCIV", "iiii", "", "MMMCMXCIX", "4000", "-1", "IΙ", "mmxxvi"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, ok := fromRoman(s)
		if !ok {
			return
		}
		if n < 1 || n > 3999 || !strings.EqualFold(toRoman(n), s) {
			t.Fatalf("fromRoman(%q) = %d, renders %s", s, n, toRoman(n))
		}
	})
}

// FuzzBase64Decode: decoding never panics; what decodes re-encodes to the input
// (modulo padding and line breaks).
func FuzzBase64Decode(f *testing.F) {
	for _, s := range []string{"aGVsbG8=", "aGVsbG8", "a", "====", "ab\r\ncd", "w7w_Pg", ""} {
		f.Add(s)
	}
	reg := NewRegistry([]Tool{base64Codec()}, Options{})
	f.Fuzz(func(t *testing.T, s string) {
		resp, err := reg.Invoke(context.Background(), Request{Tool: "base64_codec", Args: map[string]any{"text": s, "mode": "decode"}})
		if err != nil {
			if te, ok := err.(*Error); !ok || (te.Code != CodeExecution && te.Code != CodeInputSchemaInvalid) {
				t.Fatalf("untyped error %v", err)
			}
			return
		}
		if resp.Envelope.Facts["result_encoding"] == nil {
			t.Fatal("no result_encoding")
		}
	})
}

func BenchmarkHashText(b *testing.B) {
	reg := NewRegistry([]Tool{hashText()}, Options{})
	for _, size := range []int{16, 1 << 20} {
		args := map[string]any{"text": strings.Repeat("a", size), "algorithm": "sha256"}
		b.Run(itoa(size), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := reg.Invoke(context.Background(), Request{Tool: "hash_text", Args: args}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkGCDLCM(b *testing.B) {
	reg := NewRegistry([]Tool{gcdLCM()}, Options{})
	args := map[string]any{"a": jsonNum("391"), "b": jsonNum("299")}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := reg.Invoke(context.Background(), Request{Tool: "gcd_lcm", Args: args}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestToggleIsAtomic: concurrent toggles all take effect (an even number
// leaves the state as it was, an odd number flips it), and each reports a
// distinct transition.
func TestToggleIsAtomic(t *testing.T) {
	reg := NewRegistry([]Tool{gcdLCM(), hashText()}, Options{})
	var changes atomic.Int64
	reg.OnChange(func() { changes.Add(1) }) // once per change, outside the lock
	for _, n := range []int{64, 65} {
		before := reg.Enabled("gcd_lcm")
		var wg sync.WaitGroup
		var disabledSeen atomic.Int64
		for range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if prev, ok := reg.Toggle("gcd_lcm"); ok && prev {
					disabledSeen.Add(1)
				}
			}()
		}
		wg.Wait()
		if got, want := reg.Enabled("gcd_lcm"), before == (n%2 == 0); got != want {
			t.Errorf("after %d toggles enabled = %v, want %v", n, got, want)
		}
		// Every toggle from enabled is one disable: half of them, rounded
		// towards the starting state.
		want := int64(n / 2)
		if before && n%2 == 1 {
			want++
		}
		if disabledSeen.Load() != want {
			t.Errorf("%d toggles: %d saw the tool enabled, want %d", n, disabledSeen.Load(), want)
		}
	}
	if changes.Load() != 64+65 {
		t.Errorf("%d change notifications for %d toggles", changes.Load(), 64+65)
	}
	if !reg.Enabled("hash_text") {
		t.Error("toggling gcd_lcm changed hash_text")
	}
	if _, ok := reg.Toggle("nope"); ok {
		t.Error("Toggle of an unknown tool reported ok")
	}
}
