package tools

import "github.com/precisiond/precisiond/contracts"

// KeywordDidYouMean is the keyword of a did-you-mean detail: Path is the
// argument (a JSON Pointer such as "/from_unit"), Message one value that was
// probably meant. An error carries one such detail per suggestion, best first,
// after the same suggestions in its message.
const KeywordDidYouMean = "did_you_mean"

// withHints adds did-you-mean details for the argument at path to e and
// returns it.
func withHints(e *Error, path string, names ...string) *Error {
	for _, n := range names {
		e.Details = append(e.Details, contracts.Detail{Path: path, Keyword: KeywordDidYouMean, Message: n})
	}
	return e
}
