package answercheck

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestHealth: only a 200 whose body says status ok is healthy.
func TestHealth(t *testing.T) {
	for body, want := range map[string]string{`{"status":"ok"}`: "", `{"status":"degraded"}`: "unhealthy", `ok`: "unhealthy", `!503`: "503"} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			if strings.HasPrefix(body, "!") {
				w.WriteHeader(http.StatusServiceUnavailable)
			}
			_, _ = w.Write([]byte(body))
		}))
		err := Health(srv.URL+"/health", false)
		srv.Close()
		if want == "" && err != nil || want != "" && (err == nil || !strings.Contains(err.Error(), want)) {
			t.Errorf("%s: %v, want %q", body, err, want)
		}
	}
}
