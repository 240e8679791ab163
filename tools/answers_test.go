package tools

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/precisiond/precisiond/evidence"
)

// recordingAttester signs with a fixed text naming the envelope's
// result_hash, or fails.
type recordingAttester struct {
	fail  bool
	calls atomic.Int64
}

func (a *recordingAttester) SignResult(env *evidence.Envelope) (string, error) {
	a.calls.Add(1)
	if a.fail {
		return "", errors.New("no key")
	}
	return "signed:" + env.ResultHash, nil
}

func (a *recordingAttester) SignPlanRun(planID, runHash string) (string, error) {
	return "run:" + runHash, nil
}

// TestAttesterHook: without an attester an answer carries no attestation;
// with one, every successful answer carries what it signed over that very
// envelope and errors are not signed; a failing attester makes the call an
// internal error rather than an unsigned answer; SetAttester(nil) stops
// signing.
func TestAttesterHook(t *testing.T) {
	reg := NewRegistry(Builtin(Deps{}), Options{DefaultTimeout: goldenDeadline})
	ctx := context.Background()
	call := func() (*Response, error) { return reg.Call(ctx, "gcd_lcm", []byte(`{"a":4,"b":6}`), "") }
	resp, err := call()
	if err != nil || resp.Attestation != "" {
		t.Fatalf("unsigned registry: %v %q", err, resp.Attestation)
	}
	a := &recordingAttester{}
	reg.SetAttester(a)
	resp, err = call()
	if err != nil || resp.Attestation != "signed:"+resp.Envelope.ResultHash {
		t.Fatalf("signed registry: %v %q", err, resp.Attestation)
	}
	if _, err := reg.Call(ctx, "gcd_lcm", []byte(`{"a":"x"}`), ""); err == nil || a.calls.Load() != 1 {
		t.Fatalf("a refused call: %v, %d signatures", err, a.calls.Load())
	}
	if reg.Attester() != a {
		t.Fatal("Attester() is not the one set")
	}
	reg.SetAttester(&recordingAttester{fail: true})
	if _, err := call(); Outcome(err) != CodeInternal {
		t.Fatalf("failing attester: %v (outcome %s), want internal_error", err, Outcome(err))
	}
	reg.SetAttester(nil)
	if resp, err := call(); err != nil || resp.Attestation != "" || reg.Attester() != nil {
		t.Fatalf("after SetAttester(nil): %v %q", err, resp.Attestation)
	}
}
