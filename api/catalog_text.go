package api

import (
	"crypto/rand"
	"encoding/hex"
	"os"

	"github.com/precisiond/precisiond/internal/blob"
	"github.com/precisiond/precisiond/tools"
)

// CatalogBody is GET /tools's document of cat.
func CatalogBody(cat tools.Catalog) map[string]any {
	list := make([]any, len(cat.Tools))
	for i, t := range cat.Tools {
		list[i] = t
	}
	return map[string]any{"tools": list, "catalog_hash": cat.CatalogHash}
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
