package tools

import (
	"runtime"
	"sync"
	"testing"
	"time"
)

// awaitIdle waits until n executors of p wait for work.
func awaitIdle(t *testing.T, p *executorPool, n int) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); p.waiting() != n; runtime.Gosched() {
		if time.Now().After(deadline) {
			t.Fatalf("%d executors wait, want %d", p.waiting(), n)
		}
	}
}

// TestExecutorsReuseAWaitingOne: work given while an executor waits runs on
// it; no other goroutine is started.
func TestExecutorsReuseAWaitingOne(t *testing.T) {
	p := &executorPool{maxIdle: 4}
	ran := 0
	for i := 0; i < 50; i++ {
		done := make(chan struct{})
		p.do(func() { ran++; close(done) })
		<-done
		awaitIdle(t, p, 1)
	}
	if got := p.spawned.Load(); ran != 50 || got != 1 {
		t.Errorf("ran %d, started %d executors; want 50 and 1", ran, got)
	}
}

// TestExecutorsNeverMakeWorkWait: work that can only finish when all of it
// runs at once finishes (a busy executor is never waited for), and of the
// executors afterwards maxIdle wait, the others ended.
func TestExecutorsNeverMakeWorkWait(t *testing.T) {
	p := &executorPool{maxIdle: 8}
	const n = 100
	var all, done sync.WaitGroup
	all.Add(n)
	done.Add(n)
	for i := 0; i < n; i++ {
		p.do(func() {
			all.Done()
			all.Wait() // every piece of work is running
			done.Done()
		})
	}
	done.Wait()
	awaitIdle(t, p, 8)
	if got := p.spawned.Load(); got != n {
		t.Errorf("started %d executors for %d pieces of work running at once", got, n)
	}
	// The waiting ones take the next work; the ninth piece needs a new one.
	var next sync.WaitGroup
	next.Add(9)
	release := make(chan struct{})
	for i := 0; i < 9; i++ {
		p.do(func() { next.Done(); <-release })
	}
	next.Wait()
	close(release)
	if got := p.spawned.Load(); got != n+1 {
		t.Errorf("started %d executors in all, want %d", got, n+1)
	}
	awaitIdle(t, p, 8)
}
