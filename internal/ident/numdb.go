package ident

import (
	_ "embed"
	"slices"
	"strings"
	"sync"
)

// isbnData is the ISBN range message in stdnum's numdb text format: each line
// is an indented, comma-separated list of prefix ranges (low-high, equal
// lengths) and optional key="value" properties; a deeper indent lists the
// children of the last range above it.
//
//go:embed isbn.dat
var isbnData string

// prefixRange is one range of a numdb level.
type prefixRange struct {
	low, high string
	children  *[]prefixRange
}

var isbnDB = sync.OnceValue(func() []prefixRange { return parseNumDB(isbnData) })

// parseNumDB reads the numdb text format.
func parseNumDB(data string) []prefixRange {
	var root []prefixRange
	levels := map[int]*[]prefixRange{0: &root}
	last := 0
	for _, line := range strings.Split(data, "\n") {
		if strings.TrimSpace(line) == "" || line[0] == '#' {
			continue
		}
		indent := len(line) - len(strings.TrimLeft(line, " "))
		fields := strings.Fields(line)
		if indent > last {
			parent := *levels[last]
			levels[indent] = parent[len(parent)-1].children
		}
		list := levels[indent]
		children := new([]prefixRange) // shared by every range of the line
		for _, rng := range strings.Split(fields[0], ",") {
			low, high, found := strings.Cut(rng, "-")
			if !found {
				high = low
			}
			*list = append(*list, prefixRange{low: low, high: high, children: children})
		}
		last = indent
	}
	return root
}

// split is numdb's split(): the number cut into the prefixes it matches level
// by level; what matches nothing is the last part.
func split(number string, level []prefixRange) []string {
	if number == "" {
		return nil
	}
	part := number
	var next []prefixRange
	for _, p := range level {
		n := len(p.low)
		if len(part) >= n && p.low <= part[:n] && part[:n] <= p.high {
			if n < len(part) {
				part = part[:n]
				next = nil
			}
			if next == nil {
				next = *p.children // shared, never appended to in place
			} else {
				next = slices.Concat(next, *p.children)
			}
		}
	}
	return append([]string{part}, split(number[len(part):], next)...)
}

// formatISBN is stdnum's isbn.format of a valid compact ISBN: EAN prefix (for
// an ISBN-13), registration group, registrant, publication and check digit,
// joined by hyphens as far as the range message knows them.
func formatISBN(number string) string {
	isbn10 := len(number) == 10
	full := number
	if isbn10 {
		full = "978" + number
	}
	parts := split(full[:len(full)-1], isbnDB())
	var item, prefix, group, publisher string
	if len(parts) > 0 {
		item, parts = parts[len(parts)-1], parts[:len(parts)-1]
	}
	for i, p := range parts {
		switch i {
		case 0:
			prefix = p
		case 1:
			group = p
		case 2:
			publisher = p
		}
	}
	if isbn10 {
		prefix = ""
	}
	var out []string
	for _, p := range []string{prefix, group, publisher, item, full[len(full)-1:]} {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, "-")
}
