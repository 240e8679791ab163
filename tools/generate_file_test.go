package tools

import (
	"os"
	"testing"

	"github.com/precisiond/precisiond/internal/filestore"
)

// The shared test registry gets a real download store in a temporary directory,
// so generate_file's golden cases and examples run through the real store.
func init() {
	testDeps = func(t testing.TB) Deps {
		dir, err := os.MkdirTemp("", "precisiond-downloads-")
		if err != nil {
			t.Fatal(err)
		}
		st, err := filestore.Open(filestore.Config{Dir: dir})
		if err != nil {
			t.Fatal(err)
		}
		return Deps{Files: st}
	}
}
