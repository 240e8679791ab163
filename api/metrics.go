package api

import (
	"net/http"
	"runtime"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/precisiond/precisiond/tools"
)

// MetricsOptions configure NewMetrics.
type MetricsOptions struct {
	Version string
	// StoreUsage reports the download store's size (filestore.Store.Usage); nil
	// leaves the store gauges out.
	StoreUsage func() (files int, bytes int64, err error)
	// Store, when not nil, is the shared store's state: the gauge
	// precisiond_store_up{kind} is 1 while it answers, 0 while it is down.
	Store StoreHealth
}

// Metrics is the Prometheus surface (GET /metrics), on its own registry rather
// than the process-global default so that tests and embedders stay isolated.
//
//	precisiond_tool_calls_total{tool,outcome}          counter; outcome "ok" or the error_code
//	precisiond_tool_call_duration_seconds{tool}        histogram of Invoke time (queue wait included)
//	precisiond_tool_calls_in_flight                    gauge: calls waiting on an answer
//	precisiond_tool_executions_running                 gauge: executions not stopped yet (each holds a slot)
//	precisiond_tool_executions_peak                    gauge: the most executions ever running at once
//	precisiond_tool_call_slots                         gauge: size of the execution pool
//	precisiond_overload_rejections_total               counter: calls refused with overloaded
//	precisiond_download_store_bytes / _files           gauges over the download store
//	precisiond_tools_disabled                          gauge: tools disabled by an admin
//	precisiond_build_info{version,goversion}           always 1
//
// plus the standard go_* and process_* collectors.
type Metrics struct {
	prom       *prometheus.Registry
	calls      *prometheus.CounterVec
	duration   *prometheus.HistogramVec
	rejections prometheus.Counter
	http       httpMetrics // api/metrics_http.go
}

// unknownToolLabel replaces caller-chosen names of unknown tools, which must not
// become label values (unbounded cardinality).
const unknownToolLabel = "_unknown"

// NewMetrics builds the collectors. Install Observe as the registry's
// Options.Observer and OnReject as its Limiter's onReject hook, then Attach the
// registry.
func NewMetrics(opts MetricsOptions) *Metrics {
	m := &Metrics{prom: prometheus.NewRegistry()}
	m.calls = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "precisiond_tool_calls_total",
		Help: "Tool calls through the execution path (REST, MCP, CLI), by tool and outcome (ok or the error_code).",
	}, []string{"tool", "outcome"})
	m.duration = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "precisiond_tool_call_duration_seconds",
		Help:    "Time a tool call spent in the execution path, queue wait included.",
		Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30},
	}, []string{"tool"})
	m.rejections = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "precisiond_overload_rejections_total",
		Help: "Calls refused with overloaded because no execution slot freed up within the queue wait.",
	})
	build := prometheus.NewGauge(prometheus.GaugeOpts{
		Name:        "precisiond_build_info",
		Help:        "Build information; always 1.",
		ConstLabels: prometheus.Labels{"version": opts.Version, "goversion": runtime.Version()},
	})
	build.Set(1)
	m.prom.MustRegister(m.calls, m.duration, m.rejections, build,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	if opts.StoreUsage != nil {
		m.prom.MustRegister(
			prometheus.NewGaugeFunc(prometheus.GaugeOpts{
				Name: "precisiond_download_store_bytes",
				Help: "Bytes held by the download store (generate_file).",
			}, func() float64 { _, b, _ := opts.StoreUsage(); return float64(b) }),
			prometheus.NewGaugeFunc(prometheus.GaugeOpts{
				Name: "precisiond_download_store_files",
				Help: "Files held by the download store (generate_file).",
			}, func() float64 { n, _, _ := opts.StoreUsage(); return float64(n) }),
		)
	}
	if opts.Store != nil {
		m.prom.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name:        "precisiond_store_up",
			Help:        "1 while the shared store (downloads, toggles, plans) answered its last check or operation, 0 while it is down.",
			ConstLabels: prometheus.Labels{"kind": opts.Store.Health().Kind},
		}, func() float64 {
			if opts.Store.Health().OK {
				return 1
			}
			return 0
		}))
	}
	return m
}

// Attach adds the gauges that read reg (slots, calls in flight, executions
// running and their peak, disabled tools)
// and creates every tool's series, so that rate() works before its first call.
// Call it once, with the registry whose Options hold m's hooks.
func (m *Metrics) Attach(reg *tools.Registry) {
	inFlight := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "precisiond_tool_calls_in_flight",
		Help: "Tool calls waiting on an answer right now.",
	}, func() float64 { return float64(reg.InFlight()) })
	running := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "precisiond_tool_executions_running",
		Help: "Tool executions that have not stopped yet, including those whose caller already got its timeout; each holds an execution slot.",
	}, func() float64 { return float64(reg.Running()) })
	peak := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "precisiond_tool_executions_peak",
		Help: "The most tool executions that ever ran at once since the process started.",
	}, func() float64 { return float64(reg.PeakRunning()) })
	slots := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "precisiond_tool_call_slots",
		Help: "Size of the execution pool (--max-concurrency).",
	}, func() float64 {
		if l := reg.Limiter(); l != nil {
			return float64(l.Capacity())
		}
		return 0
	})
	disabled := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "precisiond_tools_disabled",
		Help: "Tools currently disabled by an administrator.",
	}, func() float64 { return float64(len(reg.Disabled())) })
	m.prom.MustRegister(inFlight, running, peak, slots, disabled)
	for _, name := range reg.Names() {
		m.calls.WithLabelValues(name, "ok")
		m.duration.WithLabelValues(name)
	}
}

// Observe records one call; it is a tools.Observer.
func (m *Metrics) Observe(tool, code string, d time.Duration) {
	if tool == "" {
		tool = unknownToolLabel
	}
	m.calls.WithLabelValues(tool, code).Inc()
	m.duration.WithLabelValues(tool).Observe(d.Seconds())
}

// OnReject counts one overload rejection; it is the Limiter's onReject hook.
func (m *Metrics) OnReject() { m.rejections.Inc() }

// Handler serves the metrics in the Prometheus exposition format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.prom, promhttp.HandlerOpts{Registry: m.prom})
}

// Registry exposes the Prometheus registry (tests gather from it).
func (m *Metrics) Registry() *prometheus.Registry { return m.prom }
