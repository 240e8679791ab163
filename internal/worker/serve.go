package worker

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"time"

	"github.com/precisiond/precisiond/internal/refusal"
	"github.com/precisiond/precisiond/tools"
)

// ExitCPULimit is a worker's exit status when a call used up its CPU time.
const ExitCPULimit = 86

// workerNice is the CPU niceness of a worker (the server runs at 0).
const workerNice = 10

// DefaultLifetimeCPUSeconds is the hard RLIMIT_CPU of a worker: the CPU time one
// worker process may use in all (the pool retires workers well before it).
const DefaultLifetimeCPUSeconds = 3600

// Limits are the OS limits a worker sets on itself before it reads a request.
type Limits struct {
	// MemoryBytes is the address space the worker may add to its start-up
	// footprint: RLIMIT_AS is set to that footprint plus MemoryBytes, and the
	// Go heap's soft limit to three quarters of it. 0 sets no memory limit.
	MemoryBytes int64
	// LifetimeCPUSeconds is the hard RLIMIT_CPU (default
	// DefaultLifetimeCPUSeconds); each call also gets a soft limit.
	LifetimeCPUSeconds int64
}

// Serve is the worker: it applies lim to its own process, says hello, then
// answers requests from in on out, one at a time, running the named tool's
// Execute on the arguments as given (the server has normalized and validated
// them and validates the facts). It returns nil when in ends.
//
// It must run in a process of its own: the limits are process-wide, and a call
// that exceeds them ends the process, which the server reports as that call's
// cost_limit_exceeded.
func Serve(in io.Reader, out io.Writer, list []tools.Tool, lim Limits) error {
	byName := make(map[string]tools.Tool, len(list))
	for _, t := range list {
		byName[t.Contract.Tool] = t
	}
	h := hello{PID: os.Getpid()}
	preferOOMKill()
	lowerPriority()
	exitOnCPULimit()
	if lim.LifetimeCPUSeconds <= 0 {
		lim.LifetimeCPUSeconds = DefaultLifetimeCPUSeconds
	}
	if err := limitCPU(lim.LifetimeCPUSeconds, lim.LifetimeCPUSeconds); err != nil {
		return fmt.Errorf("worker: RLIMIT_CPU: %w", err)
	}
	if lim.MemoryBytes > 0 {
		base, err := addressSpace()
		if err != nil {
			return fmt.Errorf("worker: reading the address space size: %w", err)
		}
		h.BaselineBytes, h.ASLimitBytes = base, base+lim.MemoryBytes
		debug.SetMemoryLimit(lim.MemoryBytes * 3 / 4)
		if err := limitAddressSpace(h.ASLimitBytes); err != nil {
			return fmt.Errorf("worker: RLIMIT_AS: %w", err)
		}
	}
	return serveLoop(in, out, byName, &h)
}

// serveLoop says hello, then answers requests until in ends.
func serveLoop(in io.Reader, out io.Writer, byName map[string]tools.Tool, h *hello) error {
	w := bufio.NewWriterSize(out, 64<<10)
	send := func(b []byte, err error) error {
		if err != nil {
			return err
		}
		if err := writeFrame(w, b); err != nil {
			return err
		}
		return w.Flush()
	}
	if err := send(encodeHello(h)); err != nil {
		return err
	}
	r := bufio.NewReaderSize(in, 64<<10)
	for {
		frame, err := readFrame(r, DefaultMaxRequestBytes)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("worker: reading a request: %w", err)
		}
		var req request
		if err := decodeStrict(frame, &req); err != nil {
			return fmt.Errorf("worker: malformed request: %w", err)
		}
		resp := call(byName, &req)
		resp.ID = req.ID
		cpu, rss := usage()
		resp.CPUNanos, resp.MaxRSSBytes = int64(cpu), rss
		if err := send(encodeResponse(resp)); err != nil {
			return fmt.Errorf("worker: writing a response: %w", err)
		}
	}
}

func encodeHello(h *hello) ([]byte, error) {
	return fmt.Appendf(nil, `{"pid":%d,"baseline_bytes":%d,"as_limit_bytes":%d}`, h.PID, h.BaselineBytes, h.ASLimitBytes), nil
}

// call runs one request under its CPU budget and deadline.
func call(byName map[string]tools.Tool, req *request) (resp *response) {
	t, ok := byName[req.Tool]
	if !ok {
		return &response{Error: &wireError{Kind: kindInternal, Message: fmt.Sprintf("worker has no tool %q", req.Tool)}}
	}
	if req.CPUSeconds > 0 {
		used, _ := usage()
		budget := used + time.Duration(req.CPUSeconds)*time.Second
		_ = limitCPU(int64((budget+time.Second-1)/time.Second), 0) // whole seconds, rounded up
	}
	ctx := context.Background()
	if req.DeadlineUnixMilli > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, time.UnixMilli(req.DeadlineUnixMilli))
		defer cancel()
	}
	defer func() {
		if p := recover(); p != nil {
			resp = &response{Error: &wireError{Kind: kindInternal, Message: fmt.Sprintf("panic: %v\n%s", p, debug.Stack())}}
		}
	}()
	args := req.Args
	if args == nil {
		args = map[string]any{}
	}
	out, err := t.Execute(ctx, args)
	if err != nil {
		return &response{Error: toWire(err)}
	}
	return &response{Facts: out.Facts, Text: out.Text, Warnings: out.Warnings}
}

// toWire keeps an error's type across the pipe.
func toWire(err error) *wireError {
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return &wireError{Kind: kindDeadline, Message: err.Error()}
	}
	var te *tools.Error
	if errors.As(err, &te) {
		return &wireError{Kind: kindTool, Code: te.Code, Reason: te.Reason, Message: te.Message, Details: te.Details}
	}
	var re *refusal.Error
	if errors.As(err, &re) {
		return &wireError{Kind: kindRefusal, Reason: re.Reason, Message: re.Message, Costly: re.Costly}
	}
	return &wireError{Kind: kindInternal, Message: err.Error()}
}

// fromWire turns a wireError back into the error Execute returned.
func fromWire(tool string, w *wireError) error {
	switch w.Kind {
	case kindTool:
		return &tools.Error{Code: w.Code, Reason: w.Reason, Message: w.Message, Details: w.Details}
	case kindRefusal:
		return &refusal.Error{Reason: w.Reason, Message: w.Message, Costly: w.Costly}
	}
	return &tools.InternalError{Tool: tool, Err: fmt.Errorf("in a worker: %s", w.Message)}
}
