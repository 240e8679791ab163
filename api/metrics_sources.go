package api

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/precisiond/precisiond/internal/answercache"
	"github.com/precisiond/precisiond/internal/filestore"
	"github.com/precisiond/precisiond/internal/fleetkey"
	"github.com/precisiond/precisiond/internal/worker"
)

// ObserveSigningKeyring exports where the keys that sign this replica's
// answers come from (fleetkey.Signing's Key).
func (m *Metrics) ObserveSigningKeyring(key *fleetkey.Key) {
	m.observeKeySource("precisiond_signing_keyring", "1 for where the keys this replica signs with and publishes come from now, 0 for the others: store (the keyring every replica on the store shares), fallback (the shared store was down at start: a key only this replica publishes, until the store answers), key_file (the store was down at start: the --signing-key key, the fleet's, the fleet keyring not read yet), process (no data directory: a key of this process's lifetime).", key)
}

// ObserveLinkKey exports where the key of this replica's signed download
// links comes from (fleetkey.Links' Key).
func (m *Metrics) ObserveLinkKey(key *fleetkey.Key) {
	m.observeKeySource("precisiond_download_link_key", "1 for where the key that signs this replica's download links comes from now, 0 for the others: store (the S3 store's key, shared by every replica on it), fallback (the S3 store was down at start: this replica's data directory key, which only it accepts, until the store answers), flag (--download-signing-key), data_dir (no S3 store: the data directory's key).", key)
}

// observeKeySource exports where key comes from, as one series of the
// gauge name per source (label source), 1 for the one in use and 0 for the
// others:
//
//	precisiond_signing_keyring{source="store|fallback|key_file|process"}  gauge
//	precisiond_download_link_key{source="store|fallback|flag|data_dir"}   gauge
func (m *Metrics) observeKeySource(name, help string, key *fleetkey.Key) {
	reg := m.prom
	for _, src := range key.Sources() {
		reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: name, Help: help, ConstLabels: prometheus.Labels{"source": src},
		}, func() float64 {
			if key.Source() == src {
				return 1
			}
			return 0
		}))
	}
}

// ObserveAnswerCache exports the answer cache's counters, per tier
// ("memory", and "store" with a store tier):
//
//	precisiond_answer_cache_total{tier,result="hit|miss|refused"}  counter
//	precisiond_answer_cache_total{tier="store",result="error"}     counter
//	precisiond_answer_cache_bytes{tier}                            gauge
func (m *Metrics) ObserveAnswerCache(c *answercache.Cache) {
	reg := m.prom
	const help = "Lookups in the verified answer cache per tier: hit (served after re-verification), miss, refused (a stored entry failed re-verification and was dropped), error (the store failed; the call ran)."
	const bytesHelp = "Bytes held by the verified answer cache per tier (memory: --answer-cache is the cap; store: at the last trim, --answer-cache-store is the cap)."
	for _, r := range []string{"hit", "miss", "refused"} {
		reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "precisiond_answer_cache_total", Help: help, ConstLabels: prometheus.Labels{"tier": "memory", "result": r},
		}, func() float64 { return float64(c.Stats().Count(r)) }))
	}
	reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "precisiond_answer_cache_bytes", Help: bytesHelp, ConstLabels: prometheus.Labels{"tier": "memory"},
	}, func() float64 { return float64(c.Stats().Bytes) }))
	if _, ok := c.StoreStats(); !ok {
		return
	}
	for _, r := range []string{"hit", "miss", "refused", "error"} {
		reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "precisiond_answer_cache_total", Help: help, ConstLabels: prometheus.Labels{"tier": "store", "result": r},
		}, func() float64 { s, _ := c.StoreStats(); return float64(s.Count(r)) }))
	}
	reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "precisiond_answer_cache_bytes", Help: bytesHelp, ConstLabels: prometheus.Labels{"tier": "store"},
	}, func() float64 { s, _ := c.StoreStats(); return float64(s.Bytes) }))
}

// ObserveWorkers adds the pool's and the store's hygiene counters to
// /metrics.
func (m *Metrics) ObserveWorkers(pool *worker.Pool, store *filestore.Store) {
	if m == nil {
		return
	}
	if store != nil {
		m.prom.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "precisiond_download_store_temp_files_removed_total",
			Help: "Temporary files of killed writers removed from the download store (at start, after a worker died, by the janitor).",
		}, func() float64 { return float64(store.TempFilesRemoved()) }))
	}
	if pool == nil {
		return
	}
	counter := func(name, help string, f func(worker.Stats) int64) prometheus.Collector {
		return prometheus.NewCounterFunc(prometheus.CounterOpts{Name: name, Help: help}, func() float64 { return float64(f(pool.Stats())) })
	}
	m.prom.MustRegister(
		counter("precisiond_worker_spawns_total", "Worker subprocesses started.", func(s worker.Stats) int64 { return s.Spawned }),
		counter("precisiond_worker_deadline_kills_total", "Workers killed because their call's deadline passed.", func(s worker.Stats) int64 { return s.Killed }),
		counter("precisiond_worker_memory_limit_total", "Workers that died of their memory limit (the call got cost_limit_exceeded).", func(s worker.Stats) int64 { return s.MemoryLimit }),
		counter("precisiond_worker_cpu_limit_total", "Workers that died of their CPU limit (the call got cost_limit_exceeded).", func(s worker.Stats) int64 { return s.CPULimit }),
		counter("precisiond_worker_crashes_total", "Workers that died otherwise (internal_error).", func(s worker.Stats) int64 { return s.Crashed }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "precisiond_workers_busy", Help: "Worker subprocesses running a call right now."},
			func() float64 { return float64(pool.Busy()) }),
	)
}
