package tools

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
)

type romanInput struct {
	Value json.RawMessage `json:"value"`
}

type romanFacts struct {
	Arabic    int    `json:"arabic"`
	Roman     string `json:"roman"`
	Direction string `json:"direction"`
}

var romanTable = []struct {
	value  int
	symbol string
}{
	{1000, "M"}, {900, "CM"}, {500, "D"}, {400, "CD"}, {100, "C"}, {90, "XC"},
	{50, "L"}, {40, "XL"}, {10, "X"}, {9, "IX"}, {5, "V"}, {4, "IV"}, {1, "I"},
}

func toRoman(n int) string {
	var b strings.Builder
	for _, e := range romanTable {
		for n >= e.value {
			b.WriteString(e.symbol)
			n -= e.value
		}
	}
	return b.String()
}

// fromRoman parses a canonical numeral: it reads greedily by the table and then
// insists that rendering the value gives the same text back.
func fromRoman(s string) (int, bool) {
	up := strings.ToUpper(s)
	n, rest := 0, up
	for _, e := range romanTable {
		for strings.HasPrefix(rest, e.symbol) {
			n += e.value
			rest = rest[len(e.symbol):]
		}
	}
	if rest != "" || n < 1 || n > 3999 || toRoman(n) != up {
		return 0, false
	}
	return n, true
}

func romanNumeral() Tool {
	return Define(Def[romanInput, romanFacts]{
		Name: "roman_numeral",
		Run: func(_ context.Context, in romanInput) (romanFacts, []Warning, error) {
			var text string
			if err := json.Unmarshal(in.Value, &text); err != nil {
				text = string(in.Value) // an integer literal
			}
			text = strings.TrimSpace(text)
			if text != "" && strings.Trim(text, "0123456789-+") == "" {
				n, err := strconv.Atoi(text)
				if err != nil || n < 1 || n > 3999 {
					return romanFacts{}, nil, Fail("out_of_range", "%s is outside 1-3999, the range of standard Roman numerals", text)
				}
				return romanFacts{Arabic: n, Roman: toRoman(n), Direction: "to_roman"}, nil, nil
			}
			n, ok := fromRoman(text)
			if !ok {
				return romanFacts{}, nil, Fail("invalid_roman_numeral", "%q is not a canonical Roman numeral for 1-3999", text)
			}
			return romanFacts{Arabic: n, Roman: toRoman(n), Direction: "from_roman"}, nil, nil
		},
		Legacy: func(in romanInput, out romanFacts) string {
			if out.Direction == "to_roman" {
				return strconv.Itoa(out.Arabic) + " = " + out.Roman
			}
			return out.Roman + " = " + strconv.Itoa(out.Arabic)
		},
	})
}
