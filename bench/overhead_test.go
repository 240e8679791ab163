package bench

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/go-chi/chi/v5"

	"github.com/precisiond/precisiond/api"
)

// BenchmarkRequestOverhead is one request to a route that only answers 204,
// through the service's middleware (request id, access line, recoverer, route
// metrics, Host guard, body admission) and through a bare chi router: the
// difference is what every request pays besides its own handler.
func BenchmarkRequestOverhead(b *testing.B) {
	noop := func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) }
	srv := newServiceHandler(b).(*api.Server)
	srv.Router().Post("/bench/noop", noop)
	bare := chi.NewRouter()
	bare.Post("/bench/noop", noop)
	for _, v := range []struct {
		name string
		h    http.Handler
	}{{"service", srv}, {"chi", bare}} {
		b.Run(v.name, func(b *testing.B) {
			b.ReportAllocs()
			defer reportCPU(b)()
			for b.Loop() {
				rec := httptest.NewRecorder()
				req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1/bench/noop", http.NoBody)
				v.h.ServeHTTP(rec, req)
				if rec.Code != http.StatusNoContent {
					b.Fatalf("status %d: %s", rec.Code, rec.Body.String())
				}
			}
		})
	}
}
