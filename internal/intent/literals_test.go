package intent

import (
	"strings"
	"testing"
)

// TestRequiredLits checks the property the literal clauses rest on: a
// pattern that matches a text finds every clause in its folded text (so
// skipping a pattern whose clause is missing changes nothing). The texts are
// every corpus, reference and example text, collapsed, in capitals, and with
// "s" and "k" written as "ſ" and the Kelvin sign, which case-insensitive
// patterns match too. It also checks that the clauses do skip patterns.
func TestRequiredLits(t *testing.T) {
	r, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	texts := corpusTexts(t, r)
	odd := strings.NewReplacer("s", "ſ", "k", "\u212a", "ß", "ẞ")
	total, withLits, matched, skipped := 0, 0, 0, 0
	for _, ts := range r.tools {
		for _, p := range ts.patterns {
			total++
			if len(p.lits) == 0 {
				continue
			}
			withLits++
			for _, text := range texts {
				c := collapse(text)
				for _, s := range []string{text, c, strings.ToUpper(c), odd.Replace(c)} {
					may := mayMatch(p.lits, foldKey(nil, s))
					if may != mayMatch(p.lits, []byte(foldKeyRunes(s))) {
						t.Errorf("%s %s on %q: the ASCII folding differs from the rune by rune one", ts.name, p.id, s)
					}
					if p.re.MatchString(s) {
						matched++
						if !may {
							t.Errorf("%s %s matches %q, which lacks a clause of %q", ts.name, p.id, s, p.lits)
						}
					}
					if !may {
						skipped++
					}
				}
			}
		}
	}
	t.Logf("%d of %d patterns with literal clauses, %d texts: %d matches, %d tries skipped", withLits, total, len(texts), matched, skipped)
	if withLits*2 < total || matched == 0 || skipped == 0 {
		t.Errorf("only %d patterns have clauses (%d matches, %d skipped)", withLits, matched, skipped)
	}
	for _, c := range []struct {
		src  string
		want string
	}{
		{`(?i)^(?:welcher|auf welchen) wochentag (?:ist|war)$`, `[["WELCHER WOCHENTAG IST" "WELCHER WOCHENTAG WAR" "AUF WELCHEN WOCHENTAG IST" "AUF WELCHEN WOCHENTAG WAR"]]`},
		{`(?i)^(?:bitte )?(?:berechne|bestimme) (?:den )?ggt von \d+ und \d+$`, `[["BITTE BERECHNE DEN GGT VON " "BITTE BERECHNE GGT VON " "BITTE BESTIMME DEN GGT VON " "BITTE BESTIMME GGT VON " "BERECHNE DEN GGT VON " "BERECHNE GGT VON " "BESTIMME DEN GGT VON " "BESTIMME GGT VON "] [" UND "]]`},
		{`(?i)^ggt\(\d+\)$`, `[["GGT("]]`},
		{`^\d+$`, `[]`},
	} {
		if got := strings.ReplaceAll(fmtClauses(requiredLits(c.src)), "\u212a", "K"); got != c.want {
			t.Errorf("requiredLits(%s) = %s, want %s", c.src, got, c.want)
		}
	}
}

func fmtClauses(cs [][]string) string {
	var b strings.Builder
	b.WriteString("[")
	for i, c := range cs {
		if i > 0 {
			b.WriteString(" ")
		}
		b.WriteString("[")
		for j, s := range c {
			if j > 0 {
				b.WriteString(" ")
			}
			b.WriteString(`"` + s + `"`)
		}
		b.WriteString("]")
	}
	b.WriteString("]")
	return b.String()
}

// foldKeyRunes is foldKey rune by rune, also for ASCII.
func foldKeyRunes(s string) string {
	var b strings.Builder
	for _, r := range s {
		b.WriteRune(foldRune(r))
	}
	return b.String()
}
