package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestGeneratedFileIsCurrent checks that mont_unrolled.go is exactly what the
// generator writes, so `go generate ./internal/primes/` leaves the tree
// unchanged and nobody edits the generated file by hand.
func TestGeneratedFileIsCurrent(t *testing.T) {
	want, err := generate()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join("..", output))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s differs from the generator's output; run go generate ./internal/primes/", output)
	}
}
