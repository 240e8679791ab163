// Command gen writes units_gen.json, the unit registry of package units, from
// pint's definition files (default_en.txt and the constants_en.txt it imports).
// Run it through `go generate ./internal/units/`.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/precisiond/precisiond/internal/units"
	"github.com/precisiond/precisiond/internal/units/pintdef"
)

func main() {
	src := flag.String("src", "pintdata", "directory holding default_en.txt and constants_en.txt (the pinned copy in internal/units/pintdata)")
	out := flag.String("out", "units_gen.json", "output file")
	flag.Parse()
	if err := run(*src, *out); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(src, out string) error {
	f, err := pintdef.ReadDir(src)
	if err != nil {
		return err
	}
	// Loading the result back proves that the service can read what was written.
	if _, err := units.NewRegistry(f); err != nil {
		return err
	}
	b, err := pintdef.Encode(f)
	if err != nil {
		return err
	}
	return os.WriteFile(out, b, 0o644)
}
