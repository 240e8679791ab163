package tools

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/precisiond/precisiond/evidence"
)

// The reference sidecar's answers for decimal_finance, exact_probability and
// gcd_lcm, written by tools/testdata/reference/gen_numbers.py from the
// reference's own request path, are replayed here. Every answer must be
// precisiond's answer too, or be explained by exactly one row of the
// deviation table below; each row is a section of docs/compatibility.md.

// numOutcome is what one service answered: facts (and the legacy text), or an
// error code with the error text.
type numOutcome struct {
	Facts     map[string]any
	Result    *string // legacy text; nil when it is canonical(facts)
	ErrorCode string
	Error     string
}

type numRefCase struct {
	Name   string
	Args   map[string]any
	Ref    numOutcome
	Oracle map[string]any // values computed independently by the generator
}

func loadNumberVectors(t *testing.T, tool string) []numRefCase {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "reference", tool, "vectors.json"))
	if err != nil {
		t.Fatal(err)
	}
	v, err := evidence.ParseJSON(data)
	if err != nil {
		t.Fatal(err)
	}
	doc, _ := v.(map[string]any)
	raw, _ := doc["cases"].([]any)
	var cases []numRefCase
	for i, r := range raw {
		m, _ := r.(map[string]any)
		c := numRefCase{}
		c.Name, _ = m["name"].(string)
		c.Args, _ = m["args"].(map[string]any)
		c.Oracle, _ = m["oracle"].(map[string]any)
		ref, _ := m["reference"].(map[string]any)
		c.Ref.Facts, _ = ref["facts"].(map[string]any)
		if s, ok := ref["result"].(string); ok {
			c.Ref.Result = &s
		}
		c.Ref.ErrorCode, _ = ref["error_code"].(string)
		c.Ref.Error, _ = ref["error"].(string)
		if c.Name == "" || c.Args == nil || (c.Ref.Facts == nil) == (c.Ref.ErrorCode == "") {
			t.Fatalf("%s case %d: malformed", tool, i)
		}
		cases = append(cases, c)
	}
	return cases
}

// numInvoke runs a request through the full execution path.
func numInvoke(reg *Registry, tool string, args map[string]any) (numOutcome, *Error) {
	resp, err := reg.Invoke(context.Background(), Request{Tool: tool, Args: args})
	if err != nil {
		var te *Error
		if !errors.As(err, &te) {
			return numOutcome{ErrorCode: CodeInternal, Error: err.Error()}, nil
		}
		return numOutcome{ErrorCode: te.Code, Error: te.Message}, te
	}
	text := resp.Result
	return numOutcome{Facts: resp.Envelope.Facts, Result: &text}, nil
}

var numReasonCode = regexp.MustCompile(`^[a-z0-9_\[\]]+$`)

// numSameOutcome compares our answer with the reference's: facts byte for byte as
// canonical JSON and the legacy text; for a domain refusal our reason must be
// the reference's error text (a machine code); for a schema refusal the
// keyword and the path must agree (ours "/operands/0", the reference's
// "operands.0"). It returns "" when they agree, else what differs.
func numSameOutcome(tool string, ref numOutcome, got numOutcome, te *Error) string {
	if ref.Facts != nil {
		if got.Facts == nil {
			return "reference answered, we refused: " + got.ErrorCode + " " + got.Error
		}
		a, _ := evidence.Canonical(ref.Facts)
		b, _ := evidence.Canonical(got.Facts)
		if string(a) != string(b) {
			return "facts differ:\n ref " + string(a) + "\n got " + string(b)
		}
		want := string(a)
		if ref.Result != nil {
			want = *ref.Result
		}
		if *got.Result != want {
			return "legacy text differs: ref " + want + ", got " + *got.Result
		}
		return ""
	}
	if got.Facts != nil {
		a, _ := evidence.Canonical(got.Facts)
		return "reference refused (" + ref.Error + "), we answered " + string(a)
	}
	if got.ErrorCode != ref.ErrorCode {
		return "error code " + got.ErrorCode + " (" + got.Error + "), reference " + ref.ErrorCode + " (" + ref.Error + ")"
	}
	switch ref.ErrorCode {
	case CodeExecution:
		text := strings.TrimPrefix(ref.Error, "Error in '"+tool+"': ")
		if !numReasonCode.MatchString(text) {
			return "reference refused without a machine code: " + ref.Error
		}
		if te.Reason != text {
			return "reason " + te.Reason + ", reference " + text
		}
	case CodeInputSchemaInvalid:
		if te.Message != ref.Error {
			return "schema error " + te.Message + ", reference " + ref.Error
		}
	}
	return ""
}

// numDeviation is one deliberate difference from the reference, documented in
// docs/compatibility.md under the tool's section with its id in backticks.
// applies looks only at the case and the reference's answer; want says what
// precisiond answers instead.
type numDeviation struct {
	id      string
	tools   []string
	applies func(c numRefCase) bool
	want    func(c numRefCase, byName map[string]numRefCase) numOutcome
}

// numIsFloatInteger reports whether a JSON number is an integer written as a float
// (2.0, 1e18), which JSON Schema counts as an integer.
func numIsFloatInteger(v any) bool {
	n, ok := v.(interface{ String() string })
	if !ok {
		return false
	}
	s := n.String()
	return strings.ContainsAny(s, ".eE")
}

func numHasFloatInteger(args map[string]any) bool {
	for _, v := range args {
		if numIsFloatInteger(v) {
			return true
		}
	}
	return false
}

func numRefusal(code, reason string) numOutcome { return numOutcome{ErrorCode: code, Error: reason} }

var numDeviations = []numDeviation{
	{
		// JSON Schema counts 2.0 as an integer; the reference's functions then
		// refuse it (scale_out_of_range, n_must_be_integer) or crash (gcd_lcm's
		// tool_result_error). We answer as for the integer, given as the twin case.
		id:    "integral-floats",
		tools: []string{"decimal_finance", "exact_probability", "gcd_lcm"},
		applies: func(c numRefCase) bool {
			return numHasFloatInteger(c.Args) && c.Ref.Facts == nil && c.Ref.ErrorCode != CodeInputSchemaInvalid
		},
		want: func(c numRefCase, byName map[string]numRefCase) numOutcome { return byName[c.Name+"_twin"].Ref },
	},
	{
		// Python raises bare decimal exceptions here; we name them.
		id:    "decimal-exceptions",
		tools: []string{"decimal_finance"},
		applies: func(c numRefCase) bool {
			return strings.HasSuffix(c.Ref.Error, "[<class 'decimal.Overflow'>]") || strings.HasSuffix(c.Ref.Error, "[<class 'decimal.InvalidOperation'>]")
		},
		want: func(c numRefCase, _ map[string]numRefCase) numOutcome {
			if strings.Contains(c.Ref.Error, "Overflow") {
				return numRefusal(CodeExecution, "decimal_overflow")
			}
			return numRefusal(CodeExecution, "zero_power_zero")
		},
	},
	{
		// The reference divides in a 128-digit context and quantizes that:
		// double rounding, and refusals for values beyond 128 digits or 1e999.
		// We round the exact fraction once (the oracle computes it with
		// integers); the other facts are the reference's.
		id:    "correctly-rounded-decimal",
		tools: []string{"exact_probability"},
		applies: func(c numRefCase) bool {
			want, ok := c.Oracle["correctly_rounded_facts"].(map[string]any)
			if !ok {
				return false
			}
			if c.Ref.Facts == nil {
				return strings.Contains(c.Ref.Error, "[<class 'decimal.")
			}
			return c.Ref.Facts["decimal"] != want["decimal"]
		},
		want: func(c numRefCase, _ map[string]numRefCase) numOutcome {
			return numOutcome{Facts: c.Oracle["correctly_rounded_facts"].(map[string]any)}
		},
	},
	{
		// Python's int-to-str limit stops the reference with a bare ValueError.
		id:      "digit-limit-reason",
		tools:   []string{"exact_probability"},
		applies: func(c numRefCase) bool { return strings.Contains(c.Ref.Error, "Exceeds the limit (4300 digits)") },
		want: func(c numRefCase, _ map[string]numRefCase) numOutcome {
			return numRefusal(CodeExecution, "probability_result_digit_limit_exceeded")
		},
	},
}

// numMatchesDeviation compares our answer with what a deviation promises.
func numMatchesDeviation(tool string, want, got numOutcome, te *Error) string {
	if want.Facts != nil || want.ErrorCode != CodeInputSchemaInvalid && want.ErrorCode != CodeExecution {
		return numSameOutcome(tool, want, got, te)
	}
	if got.ErrorCode != want.ErrorCode {
		return "error code " + got.ErrorCode + " (" + got.Error + "), want " + want.ErrorCode
	}
	if want.ErrorCode == CodeExecution && te.Reason != want.Error {
		return "reason " + te.Reason + ", want " + want.Error
	}
	if want.ErrorCode == CodeInputSchemaInvalid && !strings.HasSuffix(te.Message, ":"+want.Error) {
		return "schema error " + te.Message + ", want keyword " + want.Error
	}
	return ""
}

func replayNumberVectors(t *testing.T, tool string) {
	reg := testRegistry(t)
	cases := loadNumberVectors(t, tool)
	byName := map[string]numRefCase{}
	for _, c := range cases {
		byName[c.Name] = c
	}
	used := map[string]int{}
	for _, c := range cases {
		got, te := numInvoke(reg, tool, c.Args)
		var devs []numDeviation
		for _, d := range numDeviations {
			if slices.Contains(d.tools, tool) && d.applies(c) {
				devs = append(devs, d)
			}
		}
		switch len(devs) {
		case 0:
			if diff := numSameOutcome(tool, c.Ref, got, te); diff != "" {
				t.Errorf("%s: %s", c.Name, diff)
			}
		case 1:
			used[devs[0].id]++
			if diff := numMatchesDeviation(tool, devs[0].want(c, byName), got, te); diff != "" {
				t.Errorf("%s (deviation %s): %s", c.Name, devs[0].id, diff)
			}
		default:
			t.Errorf("%s: %d deviations apply", c.Name, len(devs))
		}
	}
	doc, err := os.ReadFile(filepath.Join("..", "docs", "compatibility.md"))
	if err != nil {
		t.Fatal(err)
	}
	section := numDocSection(string(doc), tool)
	for _, d := range numDeviations {
		if !slices.Contains(d.tools, tool) {
			continue
		}
		if used[d.id] == 0 {
			t.Errorf("deviation %s is never needed for %s: drop it from the table and docs/compatibility.md", d.id, tool)
		}
		if !strings.Contains(section, "`"+d.id+"`") {
			t.Errorf("docs/compatibility.md section %s does not list deviation `%s`", tool, d.id)
		}
	}
	t.Logf("%s: %d reference cases, deviations %v", tool, len(cases), used)
}

// numDocSection returns the text of the "## <tool>" section of a Markdown page.
func numDocSection(doc, tool string) string {
	_, rest, ok := strings.Cut(doc, "\n## "+tool+"\n")
	if !ok {
		return ""
	}
	if i := strings.Index(rest, "\n## "); i >= 0 {
		rest = rest[:i]
	}
	return rest
}

func TestDecimalFinanceReference(t *testing.T)   { replayNumberVectors(t, "decimal_finance") }
func TestExactProbabilityReference(t *testing.T) { replayNumberVectors(t, "exact_probability") }
func TestGCDLCMReference(t *testing.T)           { replayNumberVectors(t, "gcd_lcm") }
