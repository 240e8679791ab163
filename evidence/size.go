package evidence

// RuneChars is the number of characters r takes inside a canonical JSON
// string, as AppendCanonical writes it (Python's json.dumps with
// ensure_ascii=False): 2 for `"`, `\` and the control characters with a short
// escape (\b \f \n \r \t), 6 for the other control characters (\u00XX), 1
// for everything else. Tools use it to know how large their facts will be
// before they build them.
func RuneChars(r rune) int {
	switch {
	case r == '"' || r == '\\' || r == '\b' || r == '\f' || r == '\n' || r == '\r' || r == '\t':
		return 2
	case r < 0x20:
		return 6
	}
	return 1
}
