package intent

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// corpusFile is one file of the test corpus (testdata/reference/cases.json,
// testdata/corpus/*.json): texts with the intents they must give, and texts
// that must give none.
type corpusFile struct {
	Generator map[string]string `json:"generator"` // the script and the Python that wrote it
	Positive  []positiveCase    `json:"positive"`
	Negative  []negativeCase    `json:"negative"`
}

type positiveCase struct {
	Source         string         `json:"source"`
	Text           string         `json:"text"`
	Intents        []wantIntent   `json:"intents"`
	Covered        bool           `json:"covered"`
	AnswerContains []string       `json:"answer_contains"`
	Note           string         `json:"note"`
	Tools          []string       `json:"tools"`
	Extra          map[string]any `json:"extra"`
}

type wantIntent struct {
	Tool string         `json:"tool"`
	Args map[string]any `json:"args"`
	Item *int           `json:"item"`
}

type negativeCase struct {
	Source string   `json:"source"`
	Text   string   `json:"text"`
	Reason string   `json:"reason"`
	Kind   string   `json:"kind"`
	Tools  []string `json:"tools"`
}

func readCorpus(t testing.TB, path string) corpusFile {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var c corpusFile
	if err := strictJSON(b, &c); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return c
}

func itemKey(p *int) string {
	if p == nil {
		return "prose"
	}
	return fmt.Sprint(*p)
}

// score recognizes one positive case: precise is false when any intent found
// is not one the case states (tool, item and args exactly); found counts the
// stated intents found.
func score(t *testing.T, r *Rules, c positiveCase) (found int, precise bool, res *Result) {
	t.Helper()
	res, err := r.Recognize(c.Text, c.Tools)
	if err != nil {
		t.Fatalf("%q: %v", c.Text, err)
	}
	want := map[string]string{}
	for _, w := range c.Intents {
		want[itemKey(w.Item)] = w.Tool + " " + canon(t, w.Args)
	}
	precise = true
	for _, in := range res.Intents {
		got := in.Tool + " " + canon(t, in.Args)
		if want[itemKey(in.Item)] != got {
			precise = false
			t.Errorf("FALSE POSITIVE %q item %s: got %s, want %q", c.Text, itemKey(in.Item), got, want[itemKey(in.Item)])
			continue
		}
		found++
	}
	return found, precise, res
}

// TestReferenceCases runs every case of the reference's own recogniser tests
// (testdata/reference, see SOURCE there): each positive gives exactly its
// intents and coverage, each negative none, with the stated reason.
func TestReferenceCases(t *testing.T) {
	r := mustLoad(t)
	c := readCorpus(t, "testdata/reference/cases.json")
	for _, p := range c.Positive {
		found, _, res := score(t, r, p)
		if found != len(p.Intents) || res.Covered != p.Covered {
			t.Errorf("%q: got %s, want %d intents, covered %v", p.Text, show(res), len(p.Intents), p.Covered)
		}
	}
	for _, n := range c.Negative {
		checkDecline(t, r, n.Text, n.Reason)
	}
}

// TestCorpus is the precision test over the whole corpus: no positive case
// gives an intent it does not state, and no negative case gives any intent.
// It logs the recall per tool (published in docs/intents.md).
func TestCorpus(t *testing.T) {
	r := mustLoad(t)
	files, _ := filepath.Glob("testdata/corpus/*.json")
	files = append(files, "testdata/reference/cases.json")
	stated, found := map[string]int{}, map[string]int{}
	positives := map[string]int{}
	negatives := 0
	for _, f := range files {
		c := readCorpus(t, f)
		for _, p := range c.Positive {
			n, _, res := score(t, r, p)
			for _, w := range p.Intents {
				stated[w.Tool]++
			}
			if len(p.Intents) > 0 {
				positives[p.Intents[0].Tool]++
			}
			for _, in := range res.Intents {
				found[in.Tool]++
			}
			if n == len(p.Intents) && res.Covered != p.Covered {
				t.Errorf("%q: covered %v, want %v", p.Text, res.Covered, p.Covered)
			}
		}
		for _, n := range c.Negative {
			negatives++
			res, err := r.Recognize(n.Text, n.Tools)
			if err != nil {
				t.Fatalf("%q: %v", n.Text, err)
			}
			if len(res.Intents) != 0 || res.Covered {
				t.Errorf("FALSE POSITIVE on a negative %q: %s", n.Text, show(res.Intents))
			}
			if n.Reason != "" && !slices.ContainsFunc(res.Decline, func(d Decline) bool { return d.Reason == n.Reason }) {
				t.Errorf("%q: declined %s, want reason %s", n.Text, show(res.Decline), n.Reason)
			}
		}
	}
	var names []string
	for k := range stated {
		names = append(names, k)
	}
	sort.Strings(names)
	var b strings.Builder
	totalS, totalF := 0, 0
	for _, k := range names {
		totalS += stated[k]
		totalF += found[k]
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %.1f %% |\n", k, positives[k], stated[k], found[k], 100*float64(found[k])/float64(stated[k]))
	}
	fmt.Fprintf(&b, "| all | | %d | %d | %.1f %% |\nnegatives: %d\n", totalS, totalF, 100*float64(totalF)/float64(totalS), negatives)
	t.Log("\n" + b.String())
	if os.Getenv("INTENT_RECALL_OUT") != "" {
		_ = os.WriteFile(os.Getenv("INTENT_RECALL_OUT"), []byte(b.String()), 0o644)
	}
}
