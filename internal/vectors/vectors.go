// Package vectors reads the JSON vector files that tests replay (oracle
// output, the reference sidecar's answers, public suites): one way to read and
// decode them, failing the test when a file is missing, malformed or empty,
// instead of a copy of the same lines in every package.
package vectors

import (
	"encoding/json"
	"os"
	"testing"
)

// Decode reads the JSON file at path into v (encoding/json rules: unknown
// fields ignored, numbers into `any` as float64) and returns the bytes read,
// for tests that also check the file's exact text.
func Decode(t testing.TB, path string, v any) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return data
}

// Cases reads a vector file of the form {"cases": [...], ...} and returns its
// cases decoded as T. A file with fewer than least cases fails the test, so a
// truncated or emptied file cannot pass as a clean run.
func Cases[T any](t testing.TB, path string, least int) []T {
	t.Helper()
	var file struct {
		Cases []T `json:"cases"`
	}
	Decode(t, path, &file)
	if len(file.Cases) < max(least, 1) {
		t.Fatalf("%s: %d cases, want at least %d", path, len(file.Cases), max(least, 1))
	}
	return file.Cases
}
