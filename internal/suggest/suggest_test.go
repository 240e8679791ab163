package suggest

import (
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// osa is the textbook optimal-string-alignment distance, the full table
// without any cut-off: the reference Distance is checked against.
func osa(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}

func TestDistanceKnownValues(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"", "abc", 3},
		{"kitten", "sitting", 3}, // the classic Levenshtein example
		{"ca", "abc", 3},         // OSA, not unrestricted Damerau (2)
		{"abcd", "acbd", 1},      // one transposition
		{"Europe/Berln", "Europe/Berlin", 1},
		{"mteer", "meter", 1},
		{"µm", "um", 1}, // runes, not bytes
		{"gcd_lmc", "gcd_lcm", 1},
	} {
		if got := Distance(c.a, c.b, 10); got != c.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
		if got := osa(c.a, c.b); got != c.want {
			t.Errorf("osa(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

// The cut-off never changes an answer within the limit, and reports limit+1
// beyond it.
func TestDistanceCutOff(t *testing.T) {
	words := []string{"", "a", "ab", "ba", "abc", "acb", "meter", "metre", "mter", "Europe/Berlin", "europe/berlin",
		"Europe/Brussels", "Berlin", "degF", "F", "farad", "fahrenheit", "zz", "ßtraße", "strasse"}
	for _, a := range words {
		for _, b := range words {
			full := osa(a, b)
			for limit := 0; limit <= 4; limit++ {
				want := min(full, limit+1)
				if got := Distance(a, b, limit); got != want {
					t.Fatalf("Distance(%q, %q, %d) = %d, want %d (full %d)", a, b, limit, got, want, full)
				}
			}
		}
	}
}

func FuzzDistance(f *testing.F) {
	f.Add("kitten", "sitting", 2)
	f.Add("ca", "abc", 3)
	f.Add("Europe/Berln", "Europe/Berlin", 1)
	f.Fuzz(func(t *testing.T, a, b string, limit int) {
		if limit < 0 || limit > 8 || len(a) > 40 || len(b) > 40 {
			return
		}
		a, b = strings.ToValidUTF8(a, "?"), strings.ToValidUTF8(b, "?")
		if got, want := Distance(a, b, limit), min(osa(a, b), limit+1); got != want {
			t.Fatalf("Distance(%q, %q, %d) = %d, want %d", a, b, limit, got, want)
		}
	})
}

func TestLimit(t *testing.T) {
	for n, want := range map[int]int{0: 1, 1: 1, 4: 1, 5: 2, 7: 2, 8: 3, 100: 3} {
		if got := Limit(n); got != want {
			t.Errorf("Limit(%d) = %d, want %d", n, got, want)
		}
	}
}

func TestClosest(t *testing.T) {
	names := []string{"Europe/Berlin", "Europe/Bern", "Europe/Dublin", "America/New_York", "UTC"}
	for _, c := range []struct {
		query string
		n     int
		want  []string
	}{
		{"Europe/Berln", 3, []string{"Europe/Berlin", "Europe/Bern"}},                   // distances 1 and 2
		{"EUROPE/BERLIN", 3, []string{"Europe/Berlin", "Europe/Bern", "Europe/Dublin"}}, // 0, 2, 3
		{"europe/bern", 1, []string{"Europe/Bern"}},
		{"Asia/Tokyo", 3, []string{}},
		{"utc", 3, []string{"UTC"}},
		{"Europe/Berlin", 0, []string{}},
		{strings.Repeat("x", MaxQuery+1), 3, []string{}},
	} {
		if got := Closest(c.query, names, c.n); !reflect.DeepEqual(got, c.want) {
			t.Errorf("Closest(%q, %d) = %q, want %q", c.query, c.n, got, c.want)
		}
	}
}

// Words finds names of which the query is whole words, in the candidates'
// order, never parts of words.
func TestWords(t *testing.T) {
	names := []string{"local_datetime", "from_timezone", "to_timezone", "fold", "locale", "timezone_name", "from_unit"}
	for _, c := range []struct {
		query string
		n     int
		want  []string
	}{
		{"timezone", 3, []string{"from_timezone", "to_timezone", "timezone_name"}},
		{"TimeZone", 1, []string{"from_timezone"}},
		{"from", 3, []string{"from_timezone", "from_unit"}},
		{"datetime", 3, []string{"local_datetime"}},
		{"zone", 3, nil},   // part of a word
		{"time", 3, nil},   // part of a word
		{"locale", 3, nil}, // a name itself
		{"to", 3, []string{"to_timezone"}},
		{"t", 3, nil}, // too short
		{strings.Repeat("x", MaxQuery+1), 3, nil},
	} {
		if got := Words(c.query, names, c.n); !reflect.DeepEqual(got, c.want) {
			t.Errorf("Words(%q, %d) = %q, want %q", c.query, c.n, got, c.want)
		}
	}
}

// Ties go to the smaller tie key, then to the earlier offer; a name offered
// twice keeps its better rank; at most n are kept.
func TestRanker(t *testing.T) {
	r := NewRanker("abc", 2, 1)
	r.Offer("X", "abd", 5) // 1
	r.Offer("Y", "abx", 1) // 1, better tie
	r.Offer("Z", "zzz", 0) // beyond
	r.Offer("W", "abc", 9) // 0
	if got, want := r.Names(), []string{"W", "Y"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("Names = %q, want %q", got, want)
	}
	r = NewRanker("abc", 3, 1)
	r.Offer("A", "abd", 0)
	r.Offer("B", "abx", 0)
	r.Offer("B", "abc", 0) // B again, now exact
	if got, want := r.Names(), []string{"B", "A"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("Names = %q, want %q", got, want)
	}
}

func TestPhrase(t *testing.T) {
	for _, c := range []struct {
		in   []string
		want string
	}{
		{nil, ""},
		{[]string{"degF"}, ` (did you mean "degF"?)`},
		{[]string{"a", "b"}, ` (did you mean "a" or "b"?)`},
		{[]string{"a", "b", "c"}, ` (did you mean "a", "b" or "c"?)`},
	} {
		if got := Phrase(c.in); got != c.want {
			t.Errorf("Phrase(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// A query over MaxQuery runes is refused before any comparison, whatever the
// number of candidates.
func TestLongQueryRanksNothing(t *testing.T) {
	q := strings.Repeat("é", MaxQuery+1)
	if utf8.RuneCountInString(q) <= MaxQuery {
		t.Fatal("query not long enough")
	}
	r := NewRanker(q, 3, 3)
	if d := r.Offer("x", q, 0); d != 4 || len(r.Names()) != 0 {
		t.Fatalf("long query ranked: d=%d names=%q", d, r.Names())
	}
}
