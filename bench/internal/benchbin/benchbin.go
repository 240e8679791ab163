// Package benchbin gives the measurement programs under bench/ the precisiond
// binary they measure and a scratch directory to run it in.
package benchbin

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// Prepare makes a temporary directory (its name starts with
// "precisiond-"+name) and returns it with the binary to measure: given when it
// names one, else ./cmd/precisiond (run from the repository root) built into
// the directory. cleanup removes the directory; on error nothing is left.
func Prepare(given, name string) (binary, dir string, cleanup func(), err error) {
	dir, err = os.MkdirTemp("", "precisiond-"+name)
	if err != nil {
		return "", "", nil, err
	}
	cleanup = func() { os.RemoveAll(dir) }
	binary = given
	if binary == "" {
		binary = filepath.Join(dir, "precisiond")
		if out, err := exec.Command("go", "build", "-o", binary, "./cmd/precisiond").CombinedOutput(); err != nil {
			cleanup()
			return "", "", nil, fmt.Errorf("go build: %v\n%s", err, out)
		}
	}
	return binary, dir, cleanup, nil
}
