package main

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/precisiond/precisiond/internal/access"
	"github.com/precisiond/precisiond/internal/testhttp"
)

// TestFleetSettings: --store, --store-timeout and --public-base-url are
// checked at start with a message naming the setting; good values load, from
// flags or the environment.
func TestFleetSettings(t *testing.T) {
	env := func(kv ...string) func(string) string {
		m := map[string]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return func(k string) string { return m[k] }
	}
	for _, c := range []struct {
		args []string
		want string // "" = valid; else a substring of the error
	}{
		{[]string{"--store", "./data"}, "want file:DIR"},
		{[]string{"--store", "s3://Bad_Bucket/p"}, "not a valid S3 bucket name"},
		{[]string{"--store", "s3://key:secret@bucket/p"}, "credentials do not belong in the URL"},
		{[]string{"--store", "s3://bucket/a//b"}, "prefix"},
		{[]string{"--store-timeout", "0s"}, "store-timeout must be positive"},
		{[]string{"--public-base-url", "precisiond.example.com"}, "absolute http"},
		{[]string{"--public-base-url", "ftp://precisiond.example.com"}, "absolute http"},
		{[]string{"--public-base-url", "https://u:p@precisiond.example.com"}, "no credentials"},
		{[]string{"--public-base-url", "https://precisiond.example.com/?x=1"}, "no credentials, query or fragment"},
		{[]string{"--public-base-url", "https://precisiond.example.com/#top"}, "no credentials, query or fragment"},
		{[]string{"--store", "file:/var/lib/precisiond", "--store-required", "--public-base-url", "https://example.com/precisiond/"}, ""},
		{[]string{"--store", "s3://precisiond-fleet/prod", "--store-timeout", "2s"}, ""},
	} {
		cfg, _, err := loadConfig("serve", c.args, env())
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%v: %v", c.args, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%v: error %v, want one containing %q", c.args, err, c.want)
		case c.want == "" && c.args[0] == "--store" && cfg.Store != c.args[1]:
			t.Errorf("%v: store %q", c.args, cfg.Store)
		}
	}
	cfg, _, err := loadConfig("serve", nil, env("PRECISIOND_STORE", "s3://b-1/x", "PRECISIOND_STORE_REQUIRED", "true",
		"PRECISIOND_STORE_TIMEOUT", "3s", "PRECISIOND_PUBLIC_BASE_URL", "https://h.example/p"))
	if err != nil || cfg.Store != "s3://b-1/x" || !cfg.StoreRequired || cfg.StoreTimeout != 3*time.Second || cfg.PublicBaseURL != "https://h.example/p" {
		t.Errorf("from the environment: %+v %v", cfg, err)
	}
}

// TestReadinessWithTheStoreDown: a replica started while its S3 store does
// not answer (nothing listens at the endpoint: a real refused connection)
// starts, reports the store down in /health, answers pure tools and refuses
// generate_file with store_unavailable; /ready stays 200 unless
// --store-required, where it is 503 toggles_unknown (the toggle state was
// never read).
func TestReadinessWithTheStoreDown(t *testing.T) {
	t.Setenv("AWS_ENDPOINT_URL", "http://"+testhttp.RefusedAddr(t))
	t.Setenv("AWS_ACCESS_KEY_ID", "a")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "b")
	for _, required := range []bool{false, true} {
		base, _ := startMain(t, func(c *Config) {
			c.Store, c.StoreTimeout, c.StoreRequired = "s3://fleet/x", time.Second, required
			c.IsolateTools = nil
		})
		waitFor(t, "/health reports the store down", func() bool {
			st, _ := getJSON(t, base+"/health")["store"].(map[string]any)
			return st["kind"] == "s3" && st["ok"] == false
		})
		if r := testhttp.PostJSON(t, base+"/v1/invoke", []byte(`{"tool":"gcd_lcm","args":{"a":4,"b":6}}`)); r.Status != 200 {
			t.Errorf("required=%v: pure tool %d %s", required, r.Status, r.Body)
		}
		gen := testhttp.PostJSON(t, base+"/v1/invoke", []byte(`{"tool":"generate_file","args":{"content":"x","filename":"x","format":"md"}}`))
		if b := gen.JSON(t); gen.Status != http.StatusServiceUnavailable || b["error_code"] != "store_unavailable" {
			t.Errorf("required=%v: generate_file %d %s", required, gen.Status, gen.Body)
		}
		r := testhttp.Do(t, "GET", base+"/ready", nil, nil)
		switch b := r.JSON(t); {
		case !required && (r.Status != 200 || b["status"] != "ready"):
			t.Errorf("/ready without --store-required: %d %s", r.Status, r.Body)
		case required && (r.Status != http.StatusServiceUnavailable || b["reason"] != "toggles_unknown"):
			t.Errorf("/ready with --store-required: %d %s", r.Status, r.Body)
		}
	}
}

// TestStartWithTokensWhileTheStoreIsDown: with API tokens and no
// --download-signing-key, a replica whose S3 store is down at start still
// starts (the link key and the answer-signing keyring fall back to the data
// directory) and answers pure tools to a token holder.
func TestStartWithTokensWhileTheStoreIsDown(t *testing.T) {
	t.Setenv("AWS_ENDPOINT_URL", "http://"+testhttp.RefusedAddr(t))
	t.Setenv("AWS_ACCESS_KEY_ID", "a")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "b")
	tokens := writeTokensFile(t, `{"tokens":[{"name":"a","sha256":"`+access.Hash("tok")+`"}]}`)
	base, _ := startMain(t, func(c *Config) {
		c.Store, c.StoreTimeout = "s3://fleet/x", time.Second
		c.Access.APITokens = tokens
		c.IsolateTools = nil
	})
	r := testhttp.Do(t, "POST", base+"/v1/invoke", map[string]string{"Authorization": "Bearer tok", "Content-Type": "application/json"},
		[]byte(`{"tool":"gcd_lcm","args":{"a":4,"b":6}}`))
	if r.Status != 200 {
		t.Fatalf("pure tool with a token while the store is down: %d %s", r.Status, r.Body)
	}
	if b := r.JSON(t); b["attestation"] == nil {
		t.Errorf("the answer is not signed: %s", r.Body)
	}
}
