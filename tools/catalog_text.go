package tools

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/precisiond/precisiond/evidence"
)

// Lines is the catalogue as `precisiond tools` lists it: one line per
// tool in catalogue order, its name padded to the longest and its title,
// " (disabled)" after a disabled one.
func (cat Catalog) Lines() []string {
	width := 0
	for _, t := range cat.Tools {
		width = max(width, len(t["name"].(string)))
	}
	lines := make([]string, 0, len(cat.Tools))
	for _, t := range cat.Tools {
		line := fmt.Sprintf("%-*s  %s", width, t["name"], t["title"])
		if t["enabled"] == false {
			line += " (disabled)"
		}
		lines = append(lines, line)
	}
	return lines
}

// IndentedJSON is v as canonical JSON indented by two spaces (`precisiond
// tools TOOL`).
func IndentedJSON(v any) (string, error) {
	b, err := evidence.Canonical(v)
	if err != nil {
		return "", err
	}
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, b, "", "  "); err != nil {
		return "", err
	}
	return pretty.String(), nil
}
