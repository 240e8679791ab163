package fleetkey

import (
	"strings"
	"testing"
	"time"

	"github.com/precisiond/precisiond/internal/attest"
	"github.com/precisiond/precisiond/internal/blob"
)

func TestSettings(t *testing.T) {
	d := DefaultSettings()
	if err := d.Validate(); err != nil || d.KeyRetention != attest.DefaultRetention {
		t.Fatalf("defaults: %+v, %v", d, err)
	}
	if d.RefreshPeriod() != DefaultRefresh || (Settings{KeyringRefresh: time.Second}).RefreshPeriod() != time.Second {
		t.Error("RefreshPeriod: the default, or the set period")
	}
	if sc := d.Signing(); sc.Issuer != DefaultIssuer || sc.Retention != d.KeyRetention {
		t.Errorf("default signing config %+v", sc)
	}
	if sc := (Settings{KeyFile: "k.pem", Issuer: "https://a.example"}).Signing(); sc.Issuer != "https://a.example" || sc.KeyFile != "k.pem" {
		t.Errorf("signing config %+v", sc)
	}
	for _, s := range []Settings{{KeyRetention: -1}, {AnswerCacheBytes: -1}, {AnswerCacheStoreBytes: -1}, {Issuer: strings.Repeat("i", attest.MaxIssuerBytes+1)}} {
		if err := s.Validate(); err == nil {
			t.Errorf("%+v: no error", s)
		}
	}
}

// TestKeyringStore: rotate-key finds the keyring where a serving process
// keeps it: the data directory unless the store is S3, even when --store
// names another directory.
func TestKeyringStore(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []blob.Config{{DataDir: dir, Timeout: time.Second}, {Store: "file:" + t.TempDir(), DataDir: dir, Timeout: time.Second}} {
		s, err := KeyringStore(c)
		if err != nil {
			t.Fatal(err)
		}
		if d, ok := s.(*blob.DirStore); !ok || d.Dir() != dir {
			t.Errorf("%+v: store %s, want the data directory %s", c, s.Location(), dir)
		}
		s.Close()
	}
	if _, err := KeyringStore(blob.Config{Store: "file:" + dir, Timeout: time.Second}); err == nil || !strings.Contains(err.Error(), "--data-dir") {
		t.Errorf("no data directory and no S3 store: %v", err)
	}
}
