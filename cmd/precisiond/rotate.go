package main

import (
	"context"
	"fmt"
	"time"

	"github.com/precisiond/precisiond/internal/cli"
	"github.com/precisiond/precisiond/internal/fleetkey"
)

var cmdRotateKeySpec = &command{
	Command: cli.Command{
		Name:     "rotate-key",
		Summary:  "make a new generated key sign the answers; running replicas follow",
		Synopsis: "[--data-dir DIR | --store s3://BUCKET/PREFIX]",
		About: `Rotate the answer-signing key that the service generated and keeps in the
store (the data directory, or the bucket with --store s3://...): a new key
becomes the current key, and the old one stays published in
/.well-known/jwks.json for --key-retention. Running replicas re-read the
keyring every 30 seconds: they publish the new key and sign with it from
then on, without a restart. Prints the new kid and the old kid with the
last instant it stays published. A key given with --signing-key is not
rotated here: replace the file on every replica instead (docs/attestation.md).
`,
		Exit:     "0 rotated, 1 the keyring could not be rotated, 2 usage error",
		Examples: []string{"precisiond rotate-key --data-dir /var/lib/precisiond", "precisiond rotate-key --store s3://precisiond/prod --key-retention 2160h"},
		Settings: []string{"data-dir", "store", "store-timeout", "key-retention", "log-level"},
	},
	run: cmdRotateKey,
}

// cmdRotateKey is `precisiond rotate-key`.
func cmdRotateKey(c *command, args []string, e *cli.Env) int {
	cfg, _, code, ok := c.start(args, e, 0, nil)
	if !ok {
		return code
	}
	store, err := fleetkey.KeyringStore(storeConfig(*cfg))
	if err != nil {
		fmt.Fprintf(e.Stderr, "precisiond rotate-key: %v\n", err)
		return 1
	}
	defer store.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	ring, err := fleetkey.Rotate(ctx, store, cfg.Signing.KeyRetention, time.Now)
	if err != nil {
		fmt.Fprintf(e.Stderr, "precisiond rotate-key: %v\n", err)
		return 1
	}
	old := ring.Retained()[0]
	fmt.Fprintf(e.Stdout, "signing kid %s (was %s, published until %s)\n", ring.Current().KID, old.KID,
		old.NotAfter.UTC().Format(time.RFC3339))
	return 0
}
