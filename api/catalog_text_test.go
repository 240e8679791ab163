package api

import (
	"strings"
	"testing"

	"github.com/precisiond/precisiond/internal/blob"
	"github.com/precisiond/precisiond/tools"
)

func TestCatalogBody(t *testing.T) {
	cat := tools.Catalog{Tools: []map[string]any{
		{"name": "gcd_lcm", "title": "GCD and LCM", "enabled": true},
		{"name": "calculate", "title": "Calculator", "enabled": false},
	}, CatalogHash: "h"}
	body := CatalogBody(cat)
	if body["catalog_hash"] != "h" || len(body["tools"].([]any)) != 2 {
		t.Errorf("catalogue body: %v", body)
	}
}

type health blob.Health

func (h *health) Health() blob.Health { return blob.Health(*h) }

func TestReadiness(t *testing.T) {
	h := &health{OK: true}
	loaded := false
	isLoaded := func() bool { return loaded }
	if got := Readiness(false, h, isLoaded)(); got != "" {
		t.Errorf("store not required: %q", got)
	}
	ready := Readiness(true, h, isLoaded)
	if got := ready(); got != "toggles_unknown" {
		t.Errorf("toggles never read: %q", got)
	}
	loaded = true
	if got := ready(); got != "" {
		t.Errorf("ready: %q", got)
	}
	h.OK = false
	if got := ready(); got != tools.CodeStoreUnavailable {
		t.Errorf("store down: %q", got)
	}
	if got := Readiness(true, nil, nil)(); got != "" {
		t.Errorf("no store: %q", got)
	}
	if a, b := ReplicaName(), ReplicaName(); a == b || !strings.Contains(a, "/") {
		t.Errorf("replica names %q %q", a, b)
	}
}
