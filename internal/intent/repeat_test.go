package intent

import (
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// TestRepeatedItems checks the per-request de-duplication (by comparing
// texts up to 64 items, by a map beyond): each item of a list with repeated
// items gives what the item gives alone, at its own item number, with
// arguments of its own.
func TestRepeatedItems(t *testing.T) {
	r, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	items := []string{"Berechne den GGT von 391 und 299.", "Which weekday was 2026-07-29?", "Rechne 72 km/h exakt in m/s um.",
		"Welcher Wochentag ist morgen?", "Berechne den GGT von 391 und 299.", "Was ist der GGT?"}
	for _, n := range []int{6, 30, 70} {
		var b strings.Builder
		for i := range n {
			b.WriteString(strconv.Itoa(i+1) + ". " + items[i%len(items)] + "\n")
		}
		res, err := r.Recognize(b.String(), nil)
		if err != nil {
			t.Fatal(err)
		}
		gotIntents, gotDeclines := 0, 0
		for i := range n {
			alone, err := r.Recognize(items[i%len(items)], nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, in := range res.Intents {
				if *in.Item == i {
					gotIntents++
					if len(alone.Intents) != 1 || in.Tool != alone.Intents[0].Tool || !reflect.DeepEqual(in.Args, alone.Intents[0].Args) {
						t.Errorf("n=%d item %d: %+v, alone %+v", n, i, in, alone.Intents)
					}
				}
			}
			for _, d := range res.Decline {
				if *d.Item == i {
					gotDeclines++
					if len(alone.Decline) != 1 || d.Reason != alone.Decline[0].Reason || d.Tool != alone.Decline[0].Tool {
						t.Errorf("n=%d item %d: %+v, alone %+v", n, i, d, alone.Decline)
					}
				}
			}
		}
		if gotIntents+gotDeclines != n || gotIntents < n/2 {
			t.Errorf("n=%d: %d intents and %d declines", n, gotIntents, gotDeclines)
		}
		res.Intents[0].Args["a"] = "changed"
		for _, in := range res.Intents[1:] {
			if in.Args["a"] == "changed" {
				t.Fatalf("n=%d: item %d shares its arguments with item 0", n, *in.Item)
			}
		}
	}
}

// TestFirstUnreadableArgument: of two arguments that cannot be read, the
// first in the text names the reason, on every call (the arguments were
// once read in map order, so the reason varied between calls).
func TestFirstUnreadableArgument(t *testing.T) {
	r, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for range 50 {
		res, err := r.Recognize("Convert 2,500 Km to mileſ.", nil) // 2,500 is ambiguous, "mileſ" no unit
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Decline) != 1 || res.Decline[0].Reason != ReasonAmbiguous {
			t.Fatalf("declined %+v, want one ambiguous", res.Decline)
		}
	}
}
