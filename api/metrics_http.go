package api

import (
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/prometheus/client_golang/prometheus"
)

// httpMetrics are the HTTP-level series, registered on the Metrics registry
// the first time a Server uses them:
//
//	precisiond_http_requests_total{route,code}          counter; route is the chi pattern ("other": no route)
//	precisiond_http_request_duration_seconds{route}     histogram
//	precisiond_access_refusals_total{code,token}        counter; 401/403/429 refusals by error_code and token name
type httpMetrics struct {
	once     sync.Once
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
	refusals *prometheus.CounterVec

	// routes caches the series of each route and status code (a routeKey →
	// *routeSeries), so that a request does not look its labels up again
	// (hashing them, and formatting the code) every time. Its size is bounded
	// as the label values are: route patterns × status codes.
	routes sync.Map
}

// routeKey names the series of one route and status code.
type routeKey struct {
	route string
	code  int
}

// routeSeries are the series one request of a route and status code updates.
type routeSeries struct {
	requests prometheus.Counter
	duration prometheus.Observer
}

// series returns the series of route and code, created on first use exactly
// as WithLabelValues creates them.
func (h *httpMetrics) series(route string, code int) *routeSeries {
	k := routeKey{route, code}
	if v, ok := h.routes.Load(k); ok {
		return v.(*routeSeries)
	}
	v, _ := h.routes.LoadOrStore(k, &routeSeries{
		requests: h.requests.WithLabelValues(route, strconv.Itoa(code)),
		duration: h.duration.WithLabelValues(route),
	})
	return v.(*routeSeries)
}

func (m *Metrics) httpSeries() *httpMetrics {
	h := &m.http
	h.once.Do(func() {
		h.requests = prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "precisiond_http_requests_total",
			Help: "HTTP requests by route pattern and status code (401, 413, 415, 429, MCP transport errors included).",
		}, []string{"route", "code"})
		h.duration = prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "precisiond_http_request_duration_seconds",
			Help:    "Time to answer an HTTP request, by route pattern (SSE streams: their whole life).",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30},
		}, []string{"route"})
		h.refusals = prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "precisiond_access_refusals_total",
			Help: "Requests refused by access control, by error_code (unauthorized, forbidden, rate_limited) and token name (empty: no valid token).",
		}, []string{"code", "token"})
		m.prom.MustRegister(h.requests, h.duration, h.refusals)
	})
	return h
}

// refusal counts one access refusal.
func (m *Metrics) refusal(code, token string) {
	m.httpSeries().refusals.WithLabelValues(code, token).Inc()
}

// httpMetrics counts every request by route pattern and status.
func (s *Server) httpMetrics(next http.Handler) http.Handler {
	if s.opts.Metrics == nil {
		return next
	}
	h := s.opts.Metrics.httpSeries()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec, ok := w.(*statusRecorder)
		if !ok {
			rec = &statusRecorder{ResponseWriter: w}
			w = rec
		}
		next.ServeHTTP(w, r)
		route := routeOf(r)
		code := rec.status
		if code == 0 {
			code = http.StatusOK
		}
		rs := h.series(route, code)
		rs.requests.Inc()
		rs.duration.Observe(time.Since(start).Seconds())
	})
}

// routeOf is the route pattern of a request: the one chi matched, or for a
// request refused before routing (401, 403, 413, 429…) the one it would
// have matched; "other" for no route (bounded label values).
func routeOf(r *http.Request) string {
	rc := chi.RouteContext(r.Context())
	if rc == nil {
		return "other"
	}
	if p := rc.RoutePattern(); p != "" {
		return p
	}
	if mx, ok := rc.Routes.(*chi.Mux); ok {
		if p := mx.Find(chi.NewRouteContext(), r.Method, r.URL.Path); p != "" {
			return p
		}
	}
	return "other"
}
