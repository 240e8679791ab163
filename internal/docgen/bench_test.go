package docgen

import (
	"bytes"
	"context"
	"testing"
)

// BenchmarkRender renders the feature sample (about 1 KB, one PDF page) and a
// large document (the sample 100 times, about 100 KB) in every format.
func BenchmarkRender(b *testing.B) {
	small := sample(b)
	large := bytes.Repeat(append(small, '\n'), 100)
	for _, f := range Formats {
		for _, in := range []struct {
			name string
			src  []byte
		}{{"small", small}, {"large", large}} {
			b.Run(string(f)+"/"+in.name, func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(in.src)))
				var n int
				for b.Loop() {
					out, err := Render(context.Background(), f, in.src, "bench")
					if err != nil {
						b.Fatal(err)
					}
					n = len(out)
				}
				b.ReportMetric(float64(n), "out-bytes")
			})
		}
	}
}
