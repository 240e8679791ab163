// Package gobin finds a program that `go install` put in $GOBIN or
// $GOPATH/bin, for tests that start a real server (the S3 gateway, the
// OpenID provider).
package gobin

import (
	"go/build"
	"os"
	"path/filepath"
)

// Find returns the path of the executable name in $GOBIN or in any
// $GOPATH/bin, in that order, or "" when none is there.
func Find(name string) string {
	var dirs []string
	if gobin := os.Getenv("GOBIN"); gobin != "" {
		dirs = append(dirs, gobin)
	}
	for _, gp := range filepath.SplitList(build.Default.GOPATH) {
		dirs = append(dirs, filepath.Join(gp, "bin"))
	}
	for _, d := range dirs {
		p := filepath.Join(d, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p
		}
	}
	return ""
}
