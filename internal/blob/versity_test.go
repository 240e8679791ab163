package blob

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/precisiond/precisiond/internal/s3test"
	"github.com/precisiond/precisiond/internal/testhttp"
)

// The S3 tests run against a real S3 server, Versity Gateway, started per test
// by internal/s3test (which skips without the binary on a developer machine
// and fails under CI=true).

const (
	versityAccess = s3test.Access
	versitySecret = s3test.Secret
	versityBucket = s3test.Bucket
)

// versity is one running Versity Gateway with an empty bucket.
type versity struct{ *s3test.Server }

func startVersity(t *testing.T) versity { return versity{s3test.Start(t)} }

func (v versity) pause(t *testing.T)  { v.Pause(t) }
func (v versity) resume(t *testing.T) { v.Resume(t) }
func (v versity) stop()               { v.Stop() }
func (v versity) env() map[string]string {
	return v.Env()
}

// location is a fresh, empty prefix in the bucket.
func (v versity) location() Location {
	loc, err := ParseLocation(v.Location())
	if err != nil || !strings.HasPrefix(loc.Prefix, "t-") {
		panic("s3test location " + v.Location() + " does not parse")
	}
	return loc
}

// open opens the store at loc through the same path the service takes (Open
// with the AWS variables).
func (v versity) open(t *testing.T, loc Location, tm Timeouts) Store {
	t.Helper()
	s, err := Open(loc, Options{Getenv: v.Getenv, Timeouts: tm})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// closedAddr is a loopback address where nothing listens.
func closedAddr(t *testing.T) string { return testhttp.RefusedAddr(t) }

// shortTimeouts keep the unavailable tests brief; what they assert is the
// error's kind, not how long it took.
var shortTimeouts = Timeouts{Op: time.Second, Dial: time.Second, IO: 2 * time.Second}

// testCtx bounds a test's store calls so a regression shows as a failure, not a
// hung test binary.
func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

func itoa(i int) string { return strconv.Itoa(i) }
