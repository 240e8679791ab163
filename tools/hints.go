package tools

import "github.com/precisiond/precisiond/contracts"

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
