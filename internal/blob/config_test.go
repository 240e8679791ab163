package blob

import (
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestConfigLocation: --store wins, else the data directory, else no store;
// the data directory is recognised however it is spelled.
func TestConfigLocation(t *testing.T) {
	for _, c := range []struct {
		cfg  Config
		want Location
		ok   bool
	}{
		{Config{Store: "s3://fleet/prod", DataDir: "data"}, Location{Kind: "s3", Bucket: "fleet", Prefix: "prod/"}, true},
		{Config{Store: "file:/srv/shared", DataDir: "data"}, Location{Kind: "file", Dir: "/srv/shared"}, true},
		{Config{DataDir: "./data/"}, Location{Kind: "file", Dir: "data"}, true},
		{Config{}, Location{}, false},
	} {
		got, ok, err := c.cfg.Location()
		if err != nil || ok != c.ok || got != c.want {
			t.Errorf("%+v.Location() = %+v, %v, %v; want %+v, %v", c.cfg, got, ok, err, c.want, c.ok)
		}
	}
	if _, ok, err := (Config{Store: "ftp://x"}).Location(); err == nil || ok {
		t.Errorf("a bad --store: ok %v, err %v; want an error", ok, err)
	}
	wd, _ := os.Getwd()
	c := Config{DataDir: "./data"}
	for dir, want := range map[string]bool{"data": true, filepath.Join(wd, "data"): true, "data/sub": false, "/srv/data": false} {
		if got := c.IsDataDir(Location{Kind: "file", Dir: dir}); got != want {
			t.Errorf("IsDataDir(%s) = %v, want %v", dir, got, want)
		}
	}
	if c.IsDataDir(Location{Kind: "s3", Bucket: "data"}) || (Config{}).IsDataDir(Location{Kind: "file", Dir: "data"}) {
		t.Error("an S3 store, or no data directory, is never the data directory")
	}
}

func TestConfigValidateAndOptions(t *testing.T) {
	for _, c := range []Config{{Store: "nope", Timeout: time.Second}, {Timeout: 0}, {Timeout: -time.Second}} {
		if err := c.Validate(); err == nil {
			t.Errorf("%+v.Validate() = nil, want an error", c)
		}
	}
	if err := (Config{Store: "s3://fleet", Timeout: time.Second}).Validate(); err != nil {
		t.Errorf("a valid config: %v", err)
	}
	// The pause allowed in a transfer is never shorter than the operation's bound.
	for op, io := range map[time.Duration]time.Duration{time.Second: DefaultIOTimeout, time.Minute: time.Minute} {
		if got := (Config{Timeout: op}).Options().Timeouts; got.Op != op || got.IO != io {
			t.Errorf("Timeout %v: Timeouts %+v, want Op %v IO %v", op, got, op, io)
		}
	}
}

// TestConfigOpenMonitored: without a store there is nothing to open; with
// createOnWrite a file: store's directory waits for the first write.
func TestConfigOpenMonitored(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	if m, err := (Config{Timeout: time.Second}).OpenMonitored(log, false); m != nil || err != nil {
		t.Fatalf("no store: %v, %v; want nil, nil", m, err)
	}
	dir := filepath.Join(t.TempDir(), "state")
	m, err := (Config{DataDir: dir, Timeout: time.Second}).OpenMonitored(log, true)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if m.Kind() != "file" || m.Location() != "file:"+dir {
		t.Errorf("kind %s location %s", m.Kind(), m.Location())
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the directory exists before any write: %v", err)
	}
	if _, err := (Config{Store: "s3://fleet", Timeout: time.Second}).OpenMonitored(log, false); err == nil {
		// S3ConfigFromEnv reads the real environment here; without AWS keys it refuses.
		if os.Getenv("AWS_ACCESS_KEY_ID") == "" {
			t.Error("an S3 store without AWS keys opened")
		}
	}
}
