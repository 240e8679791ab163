package tzdb

import "testing"

// Resolve and At agree: every instant a wall time resolves to shows that wall
// time, the second of two instants has fold 1, and a gap has no instant within
// a day that shows the wall time.
func FuzzResolve(f *testing.F) {
	f.Add(uint16(0), int64(1792895400))   // around 2026-10-25
	f.Add(uint16(100), int64(1774751400)) // around 2026-03-29
	f.Add(uint16(400), int64(-2208988800))
	f.Add(uint16(597), int64(4102444799))
	f.Add(uint16(433), int64(2240568000)) // Europe/Berlin, 2040-12-31T12:00:00 wall: footer rule, leap year (golang/go#81583)
	names := Names()
	f.Fuzz(func(t *testing.T, idx uint16, wall int64) {
		z, err := Load(names[int(idx)%len(names)])
		if err != nil {
			t.Fatal(err)
		}
		wall = wall % (7 * 1e9) // keep within a few centuries of 1970 either side
		r := z.Resolve(wall)
		switch r.Kind {
		case Unique, Ambiguous:
			for i, u := range r.Instants {
				o, fold := z.At(u)
				if u+int64(o.Seconds) != wall {
					t.Fatalf("%s: wall %d resolved to %d (fold %d) which shows %d", z.Name(), wall, u, i, u+int64(o.Seconds))
				}
				if r.Kind == Ambiguous && i == 1 && fold != 1 {
					t.Fatalf("%s: second occurrence of %d has fold %d", z.Name(), wall, fold)
				}
			}
			if r.Kind == Ambiguous && r.Instants[0] >= r.Instants[1] {
				t.Fatalf("%s: ambiguous instants out of order %v", z.Name(), r.Instants)
			}
		case Gap:
			for d := int64(-26 * 3600); d <= 26*3600; d += 900 {
				u := wall - d
				if o, _ := z.At(u); u+int64(o.Seconds) == wall {
					t.Fatalf("%s: wall %d called a gap but %d shows it", z.Name(), wall, u)
				}
			}
		}
	})
}
