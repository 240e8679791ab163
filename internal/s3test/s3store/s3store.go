// Package s3store opens blob stores on the Versity Gateway that internal/s3test
// starts: the step every S3 test outside internal/blob repeats (internal/blob's
// own tests cannot import it, as it imports blob).
package s3store

import (
	"testing"

	"github.com/precisiond/precisiond/internal/blob"
	"github.com/precisiond/precisiond/internal/s3test"
)

// Opener returns a function that opens a new client of srv's bucket (its own
// connections, as another replica's would be), closed when the test ends.
func Opener(t testing.TB, srv *s3test.Server) func() blob.Store {
	t.Helper()
	loc, err := blob.ParseLocation(srv.Location())
	if err != nil {
		t.Fatal(err)
	}
	return func() blob.Store {
		s, err := blob.Open(loc, blob.Options{Getenv: srv.Getenv})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = s.Close() })
		return s
	}
}
