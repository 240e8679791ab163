package intent

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"strings"

	"github.com/precisiond/precisiond/evidence"
)

// Render writes the deterministic answer sentence of one intent from the
// facts of its call, in the intent's language: the first answer template of
// the tool whose "when" conditions hold, its {placeholders} filled from facts
// ({name}, {name.sub}, {name.0}) and, for {args.name}, from the intent's
// arguments; {name|upper} writes the value in capitals. A placeholder without a fact is an error: the answer never says
// anything the facts do not.
func (r *Rules) Render(in Intent, facts map[string]any) (string, error) {
	t := r.byName[in.Tool]
	if t == nil {
		return "", fmt.Errorf("intent: no intent contract for %s", in.Tool)
	}
	for _, a := range t.answers {
		if !holds(a.When, in.Args, facts) {
			continue
		}
		tpl := a.EN
		if in.Lang == "de" {
			tpl = a.DE
		}
		return fill(tpl, in.Args, facts)
	}
	return "", fmt.Errorf("intent: no answer template of %s applies", in.Tool)
}

// Answer joins the sentences of several intents: one alone, or a numbered
// list in their order.
func Answer(sentences []string) string {
	if len(sentences) == 1 {
		return sentences[0]
	}
	var b strings.Builder
	for i, s := range sentences {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "%d. %s", i+1, s)
	}
	return b.String()
}

func holds(when map[string]json.RawMessage, args, facts map[string]any) bool {
	for path, want := range when {
		got, ok := lookup(path, args, facts)
		if !ok {
			return false
		}
		gb, err := json.Marshal(got)
		if err != nil || !jsonEqual(gb, want) {
			return false
		}
	}
	return true
}

func jsonEqual(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	xb, _ := json.Marshal(x)
	yb, _ := json.Marshal(y)
	return bytes.Equal(xb, yb)
}

// lookup resolves "args.x" in args and any other dotted path in facts.
func lookup(path string, args, facts map[string]any) (any, bool) {
	var cur any = facts
	if rest, ok := strings.CutPrefix(path, "args."); ok {
		cur, path = args, rest
	}
	for part := range strings.SplitSeq(path, ".") {
		switch x := cur.(type) {
		case map[string]any:
			v, ok := x[part]
			if !ok {
				return nil, false
			}
			cur = v
		case []any:
			i := atoi(part)
			if i < 0 || i >= len(x) {
				return nil, false
			}
			cur = x[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

func fill(tpl string, args, facts map[string]any) (string, error) {
	var b strings.Builder
	for {
		i := strings.IndexByte(tpl, '{')
		if i < 0 {
			b.WriteString(tpl)
			return b.String(), nil
		}
		j := strings.IndexByte(tpl[i:], '}')
		if j < 0 {
			return "", fmt.Errorf("intent: unclosed placeholder in %q", tpl)
		}
		b.WriteString(tpl[:i])
		path, filter, _ := strings.Cut(tpl[i+1:i+j], "|")
		v, ok := lookup(path, args, facts)
		if !ok {
			return "", fmt.Errorf("intent: the facts have no %s", path)
		}
		s, err := text(v)
		if err != nil {
			return "", fmt.Errorf("intent: %s: %w", path, err)
		}
		switch filter {
		case "":
		case "upper":
			s = strings.ToUpper(s)
		default:
			return "", fmt.Errorf("intent: unknown filter %q", filter)
		}
		b.WriteString(s)
		tpl = tpl[i+j+1:]
	}
}

// text writes one fact value: strings as they are, numbers exactly, lists
// joined by ", ", objects as canonical JSON, null as null.
func text(v any) (string, error) {
	switch x := v.(type) {
	case nil:
		return "null", nil
	case string:
		return x, nil
	case json.Number:
		return string(x), nil
	case bool:
		if x {
			return "true", nil
		}
		return "false", nil
	case int:
		return fmt.Sprint(x), nil
	case int64:
		return fmt.Sprint(x), nil
	case *big.Int:
		return x.String(), nil
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			s, err := text(e)
			if err != nil {
				return "", err
			}
			parts[i] = s
		}
		return strings.Join(parts, ", "), nil
	case map[string]any:
		b, err := evidence.Canonical(x)
		return string(b), err
	}
	return "", fmt.Errorf("a value of type %T has no text", v)
}
