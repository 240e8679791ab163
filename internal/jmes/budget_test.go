package jmes

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/precisiond/precisiond/internal/allocs"
)

// search compiles expr, parses doc and evaluates it; it returns the error and
// the bytes allocated by the evaluation alone.
func search(t *testing.T, doc, expr string, lim Limits) (any, uint64, error) {
	t.Helper()
	q, err := Compile(expr)
	if err != nil {
		t.Fatalf("compile %.60q: %v", expr, err)
	}
	d, err := ParseInput(doc)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	var res any
	alloc := allocs.Bytes(func() { res, err = q.Search(context.Background(), d, lim) })
	return res, alloc, err
}

func wantLimit(t *testing.T, name string, err error, reason string) {
	t.Helper()
	var je *Error
	if !errors.As(err, &je) || je.Kind != KindLimit || je.Reason != reason {
		t.Errorf("%s: got %v, want %s/%s", name, err, KindLimit, reason)
	}
}

func pipe(stage string, n int) string {
	return "@" + strings.Repeat(" | "+stage, n)
}

// TestSharedStringBlowUp is the request of issue 13 that killed the process:
// a 100 000-byte string referenced 2^11 times by `[@,@]` piped 11 times. The
// references are charged as bytes, so the evaluation stops at the work budget
// after a few levels and allocates almost nothing.
func TestSharedStringBlowUp(t *testing.T) {
	doc := `"` + strings.Repeat("x", 100_000) + `"`
	_, alloc, err := search(t, doc, pipe("[@,@]", 11), DefaultLimits)
	wantLimit(t, "[@,@] x 11", err, ReasonWorkLimit)
	if alloc > 64<<10 {
		t.Errorf("allocated %d bytes, want < 64 KiB", alloc)
	}
	// The same blow-up under a budget large enough to finish building is
	// refused as a result too large, before any of it is written.
	lim := Limits{MaxSteps: DefaultSteps, MaxWorkBytes: math.MaxInt, MaxResultBytes: 65536}
	_, alloc, err = search(t, doc, pipe("[@,@]", 11), lim)
	wantLimit(t, "[@,@] x 11, unbounded work", err, ReasonResultTooLarge)
	if alloc > 64<<10 {
		t.Errorf("allocated %d bytes, want < 64 KiB", alloc)
	}
}

// TestResultBudgetIsExact: a result of exactly MaxResultBytes canonical
// characters passes, one more is refused; escapes and non-ASCII characters
// are counted as the canonical form writes them.
func TestResultBudgetIsExact(t *testing.T) {
	for _, tc := range []struct {
		doc  string
		size int // canonical characters of the document
	}{
		{`"abc"`, 5},
		{`"é\n\u0001"`, 2 + 1 + 2 + 6},
		{`[1, 2.50, -0, true, null, {"a": "b"}]`, len(`[1,2.5,0,true,null,{"a":"b"}]`)},
		{`{"k": [], "l": {}}`, len(`{"k":[],"l":{}}`)},
	} {
		for _, room := range []int{tc.size, tc.size - 1} {
			lim := Limits{MaxSteps: 1000, MaxResultBytes: room}
			_, _, err := search(t, tc.doc, "@", lim)
			if room == tc.size && err != nil {
				t.Errorf("%s with room %d: %v", tc.doc, room, err)
			}
			if room < tc.size {
				wantLimit(t, tc.doc, err, ReasonResultTooLarge)
			}
		}
	}
}

// TestAmplificationPaths runs every construct that can make a large value out
// of a small one against a small work budget: each must stop with work_limit
// while building, and allocate far less than the value it would have built.
func TestAmplificationPaths(t *testing.T) {
	big := strings.Repeat("y", 20_000)
	strDoc := `"` + big + `"`
	arrDoc := `["` + big + `", "` + big + `", "` + big + `", "` + big + `"]`
	objDoc := `{"a": "` + big + `", "b": "` + big + `", "c": "` + big + `", "d": "` + big + `"}`
	var nums strings.Builder
	nums.WriteString("[0")
	for i := 1; i < 20_000; i++ {
		fmt.Fprintf(&nums, ",%d", i%97)
	}
	nums.WriteString("]")
	numDoc := nums.String()
	lim := Limits{MaxSteps: DefaultSteps, MaxWorkBytes: 200_000, MaxResultBytes: 65536}
	for _, tc := range []struct{ name, doc, expr string }{
		{"multi-select list", strDoc, pipe("[@,@]", 6)},
		{"multi-select hash", strDoc, pipe("{a: @, b: @}", 6)},
		{"projection", arrDoc, "[*].[@, @, @] | [*].[@, @]"},
		{"value projection", objDoc, "*.[@, @, @]"},
		{"filter projection", arrDoc, "[@, @, @] | [] | [?length(@) > `0`]"},
		{"flatten", arrDoc, "[@, @, @] | [] | [@, @] | []"},
		{"slice", arrDoc, "[@, @, @] | [] | [::1]"},
		{"let", strDoc, "let $x = [@, @, @] in [$x, $x, $x]"},
		{"join", arrDoc, "join('', [@, @, @] | [])"},
		{"join of one shared string", strDoc, "join('', [@, @, @, @, @, @, @, @, @, @, @])"},
		{"to_string", strDoc, "to_string([@, @, @, @, @, @, @, @, @, @, @])"},
		{"sort", numDoc, "[sort(@), sort(@), sort(@), sort(@), sort(@), sort(@), sort(@), sort(@)]"},
		{"sort_by", arrDoc, "sort_by([@, @] | [], &length(@))"},
		{"map", arrDoc, "map(&[@, @], @)"},
		{"reverse", arrDoc, "reverse([@, @] | [])"},
		{"reverse string", strDoc, "[reverse(@), reverse(@), reverse(@), reverse(@), reverse(@), reverse(@), reverse(@), reverse(@), reverse(@), reverse(@)]"},
		{"values", objDoc, "[values(@), values(@), values(@)]"},
		{"keys", objDoc, "[keys({a: @, b: @, c: @}), values({a: @, b: @, c: @})]"},
		{"merge", objDoc, "merge({x: @}, {y: @}, {z: @})"},
		{"items", objDoc, "[items(@), items(@), items(@)]"},
		{"from_items", arrDoc, "from_items([['a', @], ['b', @], ['c', @]])"},
		{"group_by", arrDoc, "group_by([@, @] | [], &'k')"},
		{"zip", arrDoc, "zip(@, @, @)"},
		{"to_array", strDoc, "[to_array(@), to_array(@), to_array(@), to_array(@), to_array(@), to_array(@), to_array(@), to_array(@), to_array(@), to_array(@)]"},
		{"upper", strDoc, "[upper(@), upper(@), upper(@)]"},
		{"lower", strDoc, "[lower(@), lower(@), lower(@), lower(@), lower(@), lower(@), lower(@), lower(@), lower(@), lower(@)]"},
		{"pad_left", `""`, "pad_left('', `1000000000`)"},
		{"pad_right", `""`, "pad_right('x', `999999999`, '-')"},
		{"replace", strDoc, "replace(@, '', 'abcdefghij')"},
		{"split", strDoc, "split(@, '')"},
		{"split with count", strDoc, "split(@, '', `15000`)"},
	} {
		_, alloc, err := search(t, tc.doc, tc.expr, lim)
		wantLimit(t, tc.name, err, ReasonWorkLimit)
		// Each refusal comes before the value is built: what was allocated is
		// at most what the budget allows, plus bookkeeping.
		if alloc > 2*uint64(lim.MaxWorkBytes)+256<<10 {
			t.Errorf("%s: allocated %d bytes for a %d-byte budget", tc.name, alloc, lim.MaxWorkBytes)
		}
	}
}

// TestSliceHugeSteps: steps and bounds at the ends of the int range
// (math.MaxInt: 2^63-1 on 64-bit, 2^31-1 on 386, where the parser reads
// indices as int) neither overflow nor loop; they give Python's answers.
func TestSliceHugeSteps(t *testing.T) {
	huge := strconv.Itoa(math.MaxInt)
	for _, tc := range []struct{ expr, want string }{
		{"[::" + huge + "]", "[0]"},
		{"[1::" + huge + "]", "[1]"},
		{"[4::" + huge + "]", "[4]"},
		{"[::-" + huge + "]", "[4]"},
		{"[3::-" + huge + "]", "[3]"},
		{"[-" + huge + ":" + huge + ":2]", "[0,2,4]"},
		{"[" + huge + ":-" + huge + ":-2]", "[4,2,0]"},
	} {
		got, err := eval(t, `[0, 1, 2, 3, 4]`, tc.expr, DefaultLimits)
		if err != nil || got != tc.want {
			t.Errorf("%s: got %s, %v; want %s", tc.expr, got, err, tc.want)
		}
	}
}

// TestLiteralDecodedOnce: a literal inside a projection is converted at
// compile time, not once per element.
func TestLiteralDecodedOnce(t *testing.T) {
	lit := "[" + strings.TrimSuffix(strings.Repeat(`{"k": [1, 2.5, "s"]},`, 150), ",") + "]"
	res, alloc, err := search(t, zeroThenOnes(20_000), "length([*].length(`"+lit+"`))", DefaultLimits)
	if err != nil || res != number("20000") {
		t.Fatalf("got %v, %v", res, err)
	}
	// Decoding the 3 kB literal 20 000 times would allocate hundreds of MB.
	if alloc > 4<<20 {
		t.Errorf("allocated %d bytes", alloc)
	}
}

// TestContextInSizeWalk: measuring a huge shared value checks the context.
func TestContextInSizeWalk(t *testing.T) {
	q, _ := Compile(pipe("[@,@,@,@]", 9) + " | length(@)")
	d, _ := ParseInput(`[1]`)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	lim := Limits{MaxWorkBytes: 0, MaxResultBytes: 0} // unbounded: only the context stops it
	if _, err := q.Search(ctx, d, lim); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
}
