package api

import (
	"testing"

	"github.com/precisiond/precisiond/internal/answercache"
	"github.com/precisiond/precisiond/internal/attest"
	"github.com/precisiond/precisiond/internal/fleetkey"
)

// TestObserveSources: the key source gauges have one series per source, 1
// for the one in use, and the answer cache's memory tier is counted.
func TestObserveSources(t *testing.T) {
	m := NewMetrics(MetricsOptions{})
	k, err := attest.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	sig, err := fleetkey.Process(k, "iss")
	if err != nil {
		t.Fatal(err)
	}
	m.ObserveSigningKeyring(&sig.Key)
	if got, want := seriesOf(t, m, "precisiond_signing_keyring"), len(sig.Key.Sources()); got != want {
		t.Errorf("keyring series: got %d, want %d", got, want)
	}
	families, err := m.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	ones := 0
	for _, f := range families {
		if f.GetName() != "precisiond_signing_keyring" {
			continue
		}
		for _, s := range f.GetMetric() {
			if s.GetGauge().GetValue() == 1 {
				ones++
				if got := s.GetLabel()[0].GetValue(); got != sig.Key.Source() {
					t.Errorf("source in use: got %s, want %s", got, sig.Key.Source())
				}
			}
		}
	}
	if ones != 1 {
		t.Errorf("%d sources in use, want 1", ones)
	}
	m.ObserveAnswerCache(answercache.New(1<<20, sig.KeySet, sig.Now))
	if got, want := seriesOf(t, m, "precisiond_answer_cache_total"), 3; got != want {
		t.Errorf("answer cache counters without a store tier: got %d, want %d", got, want)
	}
	m.ObserveWorkers(nil, nil) // nothing to observe
	var none *Metrics
	none.ObserveWorkers(nil, nil)
}

// seriesOf counts the series of the metric name in m.
func seriesOf(t *testing.T, m *Metrics, name string) int {
	t.Helper()
	families, err := m.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		if f.GetName() == name {
			return len(f.GetMetric())
		}
	}
	return 0
}
