package contracts

import (
	"embed"
	"io/fs"
)

// The intent contracts (contracts/intents/<tool>.json and _common.json, see
// docs/intents.md) are data beside the tool contracts. They are embedded here
// because this is their directory's package; internal/intent interprets them.
// They are not part of any tool contract, so no contract hash covers them.
//
//go:embed intents/*.json
var intentsFS embed.FS

// IntentFiles returns the embedded intent contract files, named
// intents/<name>.json.
func IntentFiles() fs.FS { return intentsFS }
