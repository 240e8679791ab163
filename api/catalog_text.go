package api

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"

	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/internal/blob"
	"github.com/precisiond/precisiond/tools"
)

// ToolList is the catalogue as `precisiond tools` lists it: one line per
// tool in catalogue order, its name padded to the longest and its title,
// " (disabled)" after a disabled one.
func ToolList(cat tools.Catalog) []string {
	width := 0
	for _, t := range cat.Tools {
		width = max(width, len(t["name"].(string)))
	}
	lines := make([]string, 0, len(cat.Tools))
	for _, t := range cat.Tools {
		line := fmt.Sprintf("%-*s  %s", width, t["name"], t["title"])
		if t["enabled"] == false {
			line += " (disabled)"
		}
		lines = append(lines, line)
	}
	return lines
}

// CatalogBody is GET /tools's document of cat.
func CatalogBody(cat tools.Catalog) map[string]any {
	list := make([]any, len(cat.Tools))
	for i, t := range cat.Tools {
		list[i] = t
	}
	return map[string]any{"tools": list, "catalog_hash": cat.CatalogHash}
}

// IndentedJSON is v as canonical JSON indented by two spaces (`precisiond
// tools TOOL`).
func IndentedJSON(v any) (string, error) {
	b, err := evidence.Canonical(v)
	if err != nil {
		return "", err
	}
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, b, "", "  "); err != nil {
		return "", err
	}
	return pretty.String(), nil
}

// Readiness is the question of Options.Ready. Only when the store is
// required (--store-required) does it matter: then a replica is not ready
// while the store is down (store_unavailable), nor while it has never read
// the toggle state (toggles_unknown: started during an outage, it would
// serve tools an admin disabled). Otherwise a replica stays ready through a
// store outage, because its pure tools still answer. loaded (nil: no toggle
// state) and store (nil: none) are observed at every question.
func Readiness(storeRequired bool, store StoreHealth, loaded func() bool) func() string {
	return func() string {
		switch {
		case !storeRequired:
			return ""
		case loaded != nil && !loaded():
			return "toggles_unknown"
		case store != nil && !store.Health().OK:
			return tools.CodeStoreUnavailable
		}
		return ""
	}
}

var _ StoreHealth = (*blob.Monitor)(nil)

// ReplicaName names this process in audit lines and /health
// (Options.Replica): the host name (a pod's name in Kubernetes) and a
// random id per start, so that two processes on one host differ.
func ReplicaName() string {
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "unknown-host"
	}
	var b [4]byte
	_, _ = rand.Read(b[:])
	return host + "/" + hex.EncodeToString(b[:])
}
