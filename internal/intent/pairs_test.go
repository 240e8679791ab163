package intent

import (
	"strings"
	"testing"
)

// TestMayMatchPairs checks that the byte-pair filter changes no answer of
// mayMatch: on every corpus, reference and example text (as is, collapsed,
// in capitals, with "ſ", the Kelvin sign and "ẞ") and every pattern with
// clauses, mayMatchPairs says what mayMatch says. It also checks that the
// filter does turn literals away unsearched.
func TestMayMatchPairs(t *testing.T) {
	r, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	odd := strings.NewReplacer("s", "ſ", "k", "\u212a", "ß", "ẞ")
	var keys [][]byte
	for _, text := range corpusTexts(t, r) {
		c := collapse(text)
		for _, s := range []string{text, c, strings.ToUpper(c), odd.Replace(c)} {
			keys = append(keys, foldKey(nil, s))
		}
	}
	tries, filtered := 0, 0
	for _, ts := range r.tools {
		for _, p := range ts.patterns {
			if len(p.lits) == 0 {
				continue
			}
			for _, key := range keys {
				kp := pairsOf(key)
				tries++
				if got, want := mayMatchPairs(p.lits, p.litPairs, key, &kp), mayMatch(p.lits, key); got != want {
					t.Fatalf("%s %s on %q: mayMatchPairs %v, mayMatch %v", ts.name, p.id, key, got, want)
				}
				for i, c := range p.lits {
					for j, lit := range c {
						if !p.litPairs[i][j].within(&kp) {
							filtered++
							if strings.Contains(string(key), string(lit)) {
								t.Fatalf("%q contains %q, but not all its pairs", key, lit)
							}
						}
					}
				}
			}
		}
	}
	t.Logf("%d tries; %d literals turned away by their pairs", tries, filtered)
	if filtered == 0 {
		t.Error("the pair filter turned no literal away")
	}
}
