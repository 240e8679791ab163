package fleetkey

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/precisiond/precisiond/internal/attest"
)

// TestOpenSigning: where a process's signing keys come from — a keyring in
// the data directory for a persisting process, a key of the process's
// lifetime (and nothing written) for one that does not persist or has no
// data directory, the --signing-key key when given.
func TestOpenSigning(t *testing.T) {
	keyring := func(dir string) string { return filepath.Join(dir, filepath.FromSlash(KeyringObject)) }
	open := func(t *testing.T, cfg OpenConfig) *Signing {
		t.Helper()
		cfg.Issuer = "iss"
		log, _ := jsonLog()
		sig, err := OpenSigning(cfg, log)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = sig.Close() })
		return sig
	}

	t.Run("no data dir", func(t *testing.T) {
		sig := open(t, OpenConfig{Persist: true})
		if got, want := sig.Source(), SourceProcess; got != want {
			t.Errorf("source: got %s, want %s", got, want)
		}
	})
	t.Run("not persisting, no keyring", func(t *testing.T) {
		dir := t.TempDir()
		sig := open(t, OpenConfig{DataDir: dir})
		if got, want := sig.Source(), SourceProcess; got != want {
			t.Errorf("source: got %s, want %s", got, want)
		}
		if _, err := os.Stat(keyring(dir)); !os.IsNotExist(err) {
			t.Errorf("a keyring was written: %v", err)
		}
	})
	t.Run("not persisting, unusable directory", func(t *testing.T) {
		file := filepath.Join(t.TempDir(), "file")
		if err := os.WriteFile(file, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		// A data directory below a plain file can be neither read nor
		// created.
		sig := open(t, OpenConfig{DataDir: filepath.Join(file, "x")})
		if got, want := sig.Source(), SourceProcess; got != want {
			t.Errorf("source: got %s, want %s", got, want)
		}
	})
	t.Run("persisting", func(t *testing.T) {
		dir := t.TempDir()
		first := open(t, OpenConfig{DataDir: dir, Persist: true})
		if got, want := first.Source(), SourceStore; got != want {
			t.Errorf("source: got %s, want %s", got, want)
		}
		if _, err := os.Stat(keyring(dir)); err != nil {
			t.Fatalf("no keyring written: %v", err)
		}
		// A process that does not persist signs with the keyring it finds.
		again := open(t, OpenConfig{DataDir: dir})
		if got, want := again.Signer().KID(), first.Signer().KID(); got != want {
			t.Errorf("kid of the second process: got %s, want %s", got, want)
		}
	})
	t.Run("key file", func(t *testing.T) {
		k, err := attest.GenerateKey(nil)
		if err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(t.TempDir(), "key.pem")
		if err := os.WriteFile(file, k.MarshalPEM(), 0o600); err != nil {
			t.Fatal(err)
		}
		sig := open(t, OpenConfig{SigningConfig: SigningConfig{KeyFile: file}})
		if got, want := sig.Signer().KID(), k.KID(); got != want {
			t.Errorf("kid: got %s, want %s", got, want)
		}
	})
	t.Run("bad key file", func(t *testing.T) {
		log, _ := jsonLog()
		if _, err := OpenSigning(OpenConfig{SigningConfig: SigningConfig{KeyFile: filepath.Join(t.TempDir(), "missing.pem")}}, log); err == nil {
			t.Error("a missing key file was accepted")
		}
	})
}
