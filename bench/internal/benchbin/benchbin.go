// Package benchbin gives the measurement programs under bench/ the precisiond
// binary they measure.
package benchbin

import (
	"fmt"
	"os/exec"
	"path/filepath"
)

// Binary returns given when it names a binary, else builds ./cmd/precisiond
// (run from the repository root) into dir and returns its path.
func Binary(given, dir string) (string, error) {
	if given != "" {
		return given, nil
	}
	binary := filepath.Join(dir, "precisiond")
	if out, err := exec.Command("go", "build", "-o", binary, "./cmd/precisiond").CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build: %v\n%s", err, out)
	}
	return binary, nil
}
