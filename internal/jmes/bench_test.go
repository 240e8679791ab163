package jmes

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

func BenchmarkQuery(b *testing.B) {
	var large strings.Builder
	large.WriteString(`{"people": [`)
	for i := 0; i < 5000; i++ {
		if i > 0 {
			large.WriteByte(',')
		}
		fmt.Fprintf(&large, `{"name": "p%d", "age": %d, "score": %d.5, "tags": ["a", "b"]}`, i, i%90, i)
	}
	large.WriteString(`]}`)
	cases := []struct{ name, doc, expr string }{
		{"small_dotted", `{"a": {"b": [{"c": 1}, {"c": 2}]}}`, "a.b[0].c"},
		{"small_filter", `{"people": [{"name": "Ann", "age": 31}, {"name": "Bo", "age": 25}]}`, "people[?age > `30`].name"},
		{"large_filter", large.String(), "people[?age > `60`].name | length(@)"},
		{"large_sort_by", large.String(), "sort_by(people, &score)[-1].name"},
	}
	for _, c := range cases {
		b.Run(fmt.Sprintf("%s_%dB", c.name, len(c.doc)), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(c.doc)))
			for b.Loop() {
				q, err := Compile(c.expr)
				if err != nil {
					b.Fatal(err)
				}
				d, err := ParseInput(c.doc)
				if err != nil {
					b.Fatal(err)
				}
				res, err := q.Search(context.Background(), d, DefaultLimits)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := ToGeneric(res); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
