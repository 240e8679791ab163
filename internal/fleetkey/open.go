package fleetkey

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/precisiond/precisiond/internal/attest"
	"github.com/precisiond/precisiond/internal/blob"
)

// OpenConfig says where a process finds its answer-signing keyring
// (OpenSigning).
type OpenConfig struct {
	SigningConfig // KeyFile, Retention and Issuer; Configured is read from KeyFile
	// DataDir is the data directory; empty: none.
	DataDir string
	// Persist: the process keeps state (serve). Without it (call, mcp: they
	// write nothing until they must) a missing or unusable keyring gives a
	// key of the process's lifetime instead.
	Persist bool
	// Shared is the store the replicas share; nil: none. Only an S3 store
	// holds the keyring; its owner closes it.
	Shared blob.Store
}

// OpenSigning is the signing state of a process: the keyring in the shared
// store when that is S3 (so every replica of a fleet signs with one key;
// while it is down at start, see Fallback), else in a directory store over
// the data directory, or, without a data directory, a key that lives only
// as long as the process. Without Persist a data directory without a
// keyring, or one that cannot be read or written, also gives such a key.
func OpenSigning(cfg OpenConfig, log *slog.Logger) (*Signing, error) {
	sc := cfg.SigningConfig
	if sc.KeyFile != "" {
		k, err := attest.LoadPrivateKeyFile(sc.KeyFile)
		if err != nil {
			return nil, err
		}
		sc.Configured = k
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if cfg.Persist && cfg.Shared != nil && cfg.Shared.Kind() == "s3" {
		fleet := unclosed{cfg.Shared} // the shared store belongs to the caller, which closes it
		sig, err := NewSigning(ctx, fleet, sc)
		if !errors.Is(err, blob.ErrUnavailable) {
			return sig, err
		}
		var local blob.Store
		if cfg.DataDir != "" {
			dir, err := blob.OpenDir(cfg.DataDir)
			if err != nil {
				return nil, fmt.Errorf("signing keyring: %w", err)
			}
			defer dir.Close() // read (or created) once: the fleet's store is the one to refresh from
			local = dir
		}
		return Fallback(ctx, fleet, local, sc, log, err)
	}
	if cfg.DataDir == "" {
		return ephemeral(cfg, log, sc.Configured, slog.LevelWarn, nil)
	}
	if !cfg.Persist {
		if _, err := os.Stat(filepath.Join(cfg.DataDir, filepath.FromSlash(KeyringObject))); errors.Is(err, fs.ErrNotExist) {
			// call and mcp write nothing until they must: without a
			// keyring they sign with a key of their own lifetime.
			return ephemeral(cfg, log, sc.Configured, slog.LevelDebug, nil)
		}
	}
	sig, err := dataDirSigning(ctx, cfg.DataDir, sc)
	if err == nil {
		return sig, nil
	}
	var pe *fs.PathError
	if !cfg.Persist && errors.As(err, &pe) {
		// call and mcp answer where the state directory cannot be created
		// or read too (a damaged keyring still stops them).
		return ephemeral(cfg, log, sc.Configured, slog.LevelWarn, err)
	}
	return nil, err
}

// KeyringStore opens the store that holds the signing keyring as a serving
// process finds it (OpenSigning): the bucket of an S3 store, else the data
// directory (precisiond rotate-key).
func KeyringStore(c blob.Config) (blob.Store, error) {
	loc, ok, err := c.Location()
	if err != nil {
		return nil, err
	}
	if ok && loc.Kind == "s3" {
		return blob.Open(loc, c.Options())
	}
	if c.DataDir == "" {
		return nil, errors.New("no keyring: give --data-dir or --store")
	}
	return blob.OpenDir(c.DataDir)
}

// dataDirSigning is the signing state of the keyring in a directory store
// over dir, which it keeps open until its Close.
func dataDirSigning(ctx context.Context, dir string, sc SigningConfig) (*Signing, error) {
	store, err := blob.OpenDir(dir)
	if err != nil {
		return nil, fmt.Errorf("signing keyring: %w", err)
	}
	sig, err := NewSigning(ctx, store, sc)
	if err != nil {
		store.Close()
		return nil, err
	}
	return sig, nil
}

// unclosed is a store whose Close does nothing: a view of a store its owner
// closes.
type unclosed struct{ blob.Store }

func (unclosed) Close() error { return nil }

// ephemeral signs with the configured key, or else a key generated for the
// life of this process and kept nowhere, said in the log at level (debug
// for call and mcp, whose stderr a caller may read) with why (nil: no
// keyring).
func ephemeral(cfg OpenConfig, log *slog.Logger, configured *attest.Key, level slog.Level, why error) (*Signing, error) {
	k := configured
	if k == nil {
		var err error
		if k, err = attest.GenerateKey(nil); err != nil {
			return nil, err
		}
		if why != nil {
			log.Log(context.Background(), level, "the state directory cannot be used: attestations use an ephemeral key, which lives only as long as this process (give --data-dir a writable directory, or --signing-key)",
				"data_dir", cfg.DataDir, "kid", k.KID(), "err", why.Error())
		} else {
			log.Log(context.Background(), level, "no signing keyring: answers are signed with a key that lives only as long as this process (start serve once on the data directory, or give --signing-key)", "kid", k.KID())
		}
	}
	return Process(k, cfg.Issuer)
}
