package tools

import (
	"github.com/precisiond/precisiond/contracts"
	"github.com/precisiond/precisiond/internal/suggest"
)

// KeywordDidYouMean is the keyword of a did-you-mean detail: Path is the
// argument (a JSON Pointer such as "/from_unit"), Message one value that was
// probably meant. An error carries one such detail per suggestion, best first,
// after the same suggestions in its message (contracts.KeywordDidYouMean:
// schema errors and unknown tools carry them too).
const KeywordDidYouMean = contracts.KeywordDidYouMean

// withHints adds did-you-mean details for the argument at path to e and
// returns it.
func withHints(e *Error, path string, names ...string) *Error {
	e.Details = append(e.Details, contracts.DidYouMean(path, names...)...)
	return e
}

// maxHintedValue bounds the arguments ArgHints are asked about, in bytes; a
// longer one is no misspelling.
const maxHintedValue = 256

// withArgHints returns the schema failure details of a call of t with args,
// each failing top-level string argument that has an ArgHints function
// followed by its did-you-mean details (and the hints named in its message),
// once per argument. Details that already carry hints are left as they are.
func withArgHints(t Tool, args map[string]any, details []contracts.Detail) []contracts.Detail {
	hints := t.ArgHints
	if len(hints) == 0 {
		return details
	}
	out := make([]contracts.Detail, 0, len(details)+1)
	done := map[string]bool{}
	for i, d := range details {
		out = append(out, d)
		if d.Keyword == KeywordDidYouMean || done[d.Path] || len(d.Path) < 2 {
			continue
		}
		if i+1 < len(details) && details[i+1].Keyword == KeywordDidYouMean && details[i+1].Path == d.Path {
			continue
		}
		arg := d.Path[1:]
		hint, ok := hints[arg]
		value, isString := args[arg].(string)
		if !ok || !isString || len(value) > maxHintedValue {
			continue
		}
		done[d.Path] = true
		names := hint(value)
		if len(names) == 0 {
			continue
		}
		out[len(out)-1].Message += suggest.Phrase(names)
		out = append(out, contracts.DidYouMean(d.Path, names...)...)
	}
	return out
}
