package api

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/precisiond/precisiond/internal/surface"
	"github.com/precisiond/precisiond/internal/testhttp"
	"github.com/precisiond/precisiond/tools"
)

// sleeperBody is a sleeper call padded with spaces to exactly n bytes.
func sleeperBody(t *testing.T, ms, n int) string {
	t.Helper()
	b := `{"tool":"sleeper","args":{"ms":` + itoa(ms) + `}}`
	if len(b) > n {
		t.Fatalf("body of %d bytes does not fit %d", len(b), n)
	}
	return b + strings.Repeat(" ", n-len(b))
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestBodyBudget: request bodies are admitted only while their bytes fit the
// budget. A declared body over --max-body-bytes is refused before it is read;
// a body that does not fit waits for the queue wait and gets 503 overloaded
// (reason body_budget); a small body is admitted even while a large one waits;
// released bytes admit the next request.
func TestBodyBudget(t *testing.T) {
	reg := tools.NewRegistry([]tools.Tool{newSleeper(t)}, tools.Options{DefaultTimeout: time.Minute})
	srv := New(reg, Options{MaxBodyBytes: 1000, BodyBudget: 1000, QueueWait: 30 * time.Millisecond})
	ts := httptest.NewServer(srv)
	defer ts.Close()

	// Declared too large: refused before reading.
	req := httptest.NewRequest(http.MethodPost, "/invoke", strings.NewReader("{}"))
	req.ContentLength = 5000
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, req)
	if rec.Code != http.StatusRequestEntityTooLarge || !strings.Contains(rec.Body.String(), surface.CodePayloadTooLarge) {
		t.Fatalf("declared 5000 bytes: %d %s", rec.Code, rec.Body)
	}

	// 600 bytes held by a call that runs until its client goes away.
	ctx, cancel := context.WithCancel(context.Background())
	held := make(chan struct{})
	go func() {
		defer close(held)
		r, _ := http.NewRequestWithContext(ctx, http.MethodPost, ts.URL+"/invoke", strings.NewReader(sleeperBody(t, 60000, 600)))
		r.Header.Set("Content-Type", "application/json")
		if resp, err := http.DefaultClient.Do(r); err == nil {
			resp.Body.Close()
		}
	}()
	for srv.bodies.inFlight() != 600 {
		time.Sleep(time.Millisecond)
	}
	// 500 bytes do not fit: refused after the queue wait.
	r := testhttp.PostJSON(t, ts.URL+"/invoke", []byte(sleeperBody(t, 0, 500)))
	body := r.JSON(t)
	if r.Status != http.StatusServiceUnavailable || body["error_code"] != tools.CodeOverloaded || body["reason"] != "body_budget" || r.Header.Get("Retry-After") == "" {
		t.Fatalf("500 bytes over a full budget: %d %v", r.Status, body)
	}
	// 300 bytes fit beside the 600, even while a 500-byte request waits.
	srv.opts.QueueWait = time.Minute
	var wg sync.WaitGroup
	wg.Add(1)
	var waited testhttp.Response
	go func() {
		defer wg.Done()
		waited = testhttp.PostJSON(t, ts.URL+"/invoke", []byte(sleeperBody(t, 0, 500)))
	}()
	for srv.bodies.waiting() == 0 {
		time.Sleep(time.Millisecond)
	}
	if r := testhttp.PostJSON(t, ts.URL+"/invoke", []byte(sleeperBody(t, 0, 300))); r.Status != http.StatusOK {
		t.Fatalf("300 bytes beside 600 with a waiter: %d %s", r.Status, r.Body)
	}
	// The held call ends: the waiting request is admitted and answered.
	cancel()
	<-held
	wg.Wait()
	if waited.Status != http.StatusOK {
		t.Fatalf("the waiting request after the release: %d %s", waited.Status, waited.Body)
	}
	if srv.bodies.inFlight() != 0 {
		t.Fatalf("%d body bytes still counted", srv.bodies.inFlight())
	}
}

// TestToolNameNeverLogged: an overlong tool name is refused before it is
// logged or echoed.
func TestToolNameNeverLogged(t *testing.T) {
	ts, _, logs := newTestServer(t, nil)
	name := strings.Repeat("q", 10000)
	status, body, _ := post(t, ts.URL+"/v1/invoke", "application/json", `{"tool":"`+name+`"}`)
	if status != 400 || body["error_code"] != surface.CodeInvalidRequest || body["tool"] != "" {
		t.Fatalf("got %d %v", status, body)
	}
	if strings.Contains(logs.String(), strings.Repeat("q", 65)) || strings.Contains(fmt.Sprint(body), strings.Repeat("q", 65)) {
		t.Fatal("the tool name was logged or echoed")
	}
}

// TestDetailsBounded: a schema-invalid call lists at most 50 details.
func TestDetailsBounded(t *testing.T) {
	ts, _, _ := newAdminServer(t, "", nil)
	items := strings.Repeat(`{},`, 4999) + `{}`
	status, body, _ := post(t, ts.URL+"/v1/invoke", "application/json", `{"tool":"statistics_calc","args":{"data":[`+items+`]}}`)
	details, _ := body["details"].([]any)
	if status != 400 || body["error_code"] != tools.CodeInputSchemaInvalid || len(details) != 50 {
		t.Fatalf("got %d %v with %d details", status, body["error_code"], len(details))
	}
}
