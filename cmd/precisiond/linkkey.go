package main

import (
	"context"
	"log/slog"
	"time"

	"github.com/precisiond/precisiond/internal/blob"
	"github.com/precisiond/precisiond/internal/fleetkey"
)

// openLinkKeys is the link key of cfg (fleetkey.OpenLinks): with an S3
// store shared, the fleet's key kept in it.
func openLinkKeys(cfg Config, shared blob.Store, log *slog.Logger) (*fleetkey.Links, error) {
	lc := fleetkey.LinksConfig{Flag: []byte(cfg.Access.DownloadSigningKey), DataDir: cfg.DataDir, TTL: cfg.DownloadTTL,
		Margin: cfg.Signing.refreshPeriod() + refreshTimeout(cfg), Timeout: cfg.StoreTimeout}
	if shared != nil && shared.Kind() == "s3" {
		lc.Store = shared
	}
	return fleetkey.OpenLinks(lc, log)
}

// refreshTimeout bounds one refresh of the keys from the store.
func refreshTimeout(cfg Config) time.Duration { return max(10*time.Second, cfg.StoreTimeout) }

// refreshLinkKeys is the background step of a running service on an S3
// store (watchEdge).
func (m *Main) refreshLinkKeys() {
	ctx, cancel := context.WithTimeout(context.Background(), refreshTimeout(m.Config))
	defer cancel()
	m.edge.links.RefreshLogged(ctx, m.Log)
}
