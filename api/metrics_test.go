package api

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"

	"github.com/precisiond/precisiond/internal/testhttp"
	"github.com/precisiond/precisiond/tools"
)

// metricValue gathers one sample: counter, gauge or histogram count.
func metricValue(t *testing.T, m *Metrics, name string, labels map[string]string) float64 {
	t.Helper()
	families, err := m.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		if f.GetName() != name {
			continue
		}
	next:
		for _, s := range f.GetMetric() {
			have := map[string]string{}
			for _, l := range s.GetLabel() {
				have[l.GetName()] = l.GetValue()
			}
			for k, v := range labels {
				if have[k] != v {
					continue next
				}
			}
			switch f.GetType() {
			case dto.MetricType_COUNTER:
				return s.GetCounter().GetValue()
			case dto.MetricType_GAUGE:
				return s.GetGauge().GetValue()
			case dto.MetricType_HISTOGRAM:
				return float64(s.GetHistogram().GetSampleCount())
			}
		}
	}
	return -1
}

func TestMetricsCountEveryOutcome(t *testing.T) {
	metrics := NewMetrics(MetricsOptions{Version: "v9.9.9", StoreUsage: func() (int, int64, error) { return 3, 4096, nil }})
	reg := tools.NewRegistry(append(tools.Builtin(tools.Deps{}), newSleeper(t)), tools.Options{
		Observer:       metrics.Observe,
		Limiter:        tools.NewLimiter(1, 10*time.Millisecond, metrics.OnReject),
		DefaultTimeout: 2 * time.Minute,
	})
	metrics.Attach(reg)
	srv := New(reg, Options{Metrics: metrics})

	callCtx := func(ctx context.Context, body string) {
		t.Helper()
		rec := httptest.NewRecorder()
		req, _ := http.NewRequestWithContext(ctx, "POST", "/invoke", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		srv.ServeHTTP(rec, req)
	}
	call := func(body string) { t.Helper(); callCtx(context.Background(), body) }
	call(`{"tool":"gcd_lcm","args":{"a":4,"b":6}}`)
	call(`{"tool":"gcd_lcm","args":{"a":4,"b":6}}`)
	call(`{"tool":"gcd_lcm","args":{"a":"x"}}`)
	call(`{"tool":"no_such_tool_42","args":{}}`)
	reg.SetEnabled("hash_text", false)
	call(`{"tool":"hash_text","args":{"text":"a"}}`)

	// A slow call holds the only slot until its client goes away: in-flight
	// is 1 and a second call is refused and counted as an overload rejection.
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { callCtx(ctx, `{"tool":"sleeper","args":{"ms":60000}}`); close(done) }()
	for reg.Limiter().InFlight() == 0 {
		time.Sleep(time.Millisecond)
	}
	if got := metricValue(t, metrics, "precisiond_tool_calls_in_flight", nil); got != 1 {
		t.Errorf("in flight = %v, want 1", got)
	}
	call(`{"tool":"sleeper","args":{"ms":1}}`)
	cancel()
	<-done

	for _, c := range []struct {
		name   string
		labels map[string]string
		want   float64
	}{
		{"precisiond_tool_calls_total", map[string]string{"tool": "gcd_lcm", "outcome": "ok"}, 2},
		{"precisiond_tool_calls_total", map[string]string{"tool": "gcd_lcm", "outcome": tools.CodeInputSchemaInvalid}, 1},
		{"precisiond_tool_calls_total", map[string]string{"tool": unknownToolLabel, "outcome": tools.CodeUnknownTool}, 1},
		{"precisiond_tool_calls_total", map[string]string{"tool": "hash_text", "outcome": tools.CodeToolDisabled}, 1},
		{"precisiond_tool_calls_total", map[string]string{"tool": "sleeper", "outcome": tools.CodeTimeout}, 1},
		{"precisiond_tool_calls_total", map[string]string{"tool": "sleeper", "outcome": tools.CodeOverloaded}, 1},
		{"precisiond_tool_calls_total", map[string]string{"tool": "calculate", "outcome": "ok"}, 0},
		{"precisiond_tool_call_duration_seconds", map[string]string{"tool": "gcd_lcm"}, 3},
		{"precisiond_tool_call_duration_seconds", map[string]string{"tool": "sleeper"}, 2},
		{"precisiond_overload_rejections_total", nil, 1},
		{"precisiond_tool_calls_in_flight", nil, 0},
		{"precisiond_tool_call_slots", nil, 1},
		{"precisiond_tools_disabled", nil, 1},
		{"precisiond_download_store_bytes", nil, 4096},
		{"precisiond_download_store_files", nil, 3},
		{"precisiond_build_info", map[string]string{"version": "v9.9.9"}, 1},
	} {
		if got := metricValue(t, metrics, c.name, c.labels); got != c.want {
			t.Errorf("%s%v = %v, want %v", c.name, c.labels, got, c.want)
		}
	}
	// The caller-chosen unknown name never becomes a label.
	rec := httptest.NewRecorder()
	req, _ := http.NewRequest("GET", "/metrics", nil)
	srv.ServeHTTP(rec, req)
	text := rec.Body.String()
	if rec.Code != 200 || !strings.Contains(text, "precisiond_tool_calls_total{outcome=\"ok\",tool=\"gcd_lcm\"} 2") {
		t.Fatalf("exposition (%d) lacks the gcd_lcm counter:\n%.2000s", rec.Code, text)
	}
	if strings.Contains(text, "no_such_tool_42") {
		t.Fatal("an unknown tool name became a label value")
	}
}

// TestMetricsRoute: without Metrics the route is absent.
func TestMetricsRoute(t *testing.T) {
	ts, _, _ := newAdminServer(t, "", nil)
	if st := testhttp.Do(t, http.MethodGet, ts.URL+"/metrics", nil, nil).Status; st != 404 {
		t.Fatalf("/metrics without Metrics: %d", st)
	}
}

// TestHTTPSeriesCachedPerRouteAndCode checks that the cached series of a
// route and status code count every request, from concurrent requests too,
// and that another code of the same route is a series of its own.
func TestHTTPSeriesCachedPerRouteAndCode(t *testing.T) {
	m := NewMetrics(MetricsOptions{})
	h := m.httpSeries()
	const workers, each = 8, 50
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range each {
				rs := h.series("/invoke", http.StatusOK)
				rs.requests.Inc()
				rs.duration.Observe(0.001)
			}
		}()
	}
	wg.Wait()
	h.series("/invoke", http.StatusBadRequest).requests.Inc()
	first, again := h.series("/invoke", http.StatusOK), h.series("/invoke", http.StatusOK)
	if first != again {
		t.Error("the series of one route and code are not reused")
	}
	if n := metricValue(t, m, "precisiond_http_requests_total", map[string]string{"route": "/invoke", "code": "200"}); n != workers*each {
		t.Errorf(`precisiond_http_requests_total{route="/invoke",code="200"} = %v, want %d`, n, workers*each)
	}
	if n := metricValue(t, m, "precisiond_http_requests_total", map[string]string{"route": "/invoke", "code": "400"}); n != 1 {
		t.Errorf(`precisiond_http_requests_total{route="/invoke",code="400"} = %v, want 1`, n)
	}
	if n := metricValue(t, m, "precisiond_http_request_duration_seconds", map[string]string{"route": "/invoke"}); n != workers*each {
		t.Errorf(`precisiond_http_request_duration_seconds{route="/invoke"} count = %v, want %d`, n, workers*each)
	}
}
