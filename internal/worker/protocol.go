// Package worker runs tool executions in subprocesses with OS limits
// (`precisiond worker`): a Pool in the server hands each call to a worker
// process over a pipe, kills the process when the call's deadline passes, and
// reports a worker that died of its memory or CPU limit as that call's
// cost_limit_exceeded. Serve is the worker's side.
//
// Protocol: both directions carry frames of a 4-byte big-endian length and that
// many bytes of JSON. The worker first sends a hello; then, one at a time, the
// server sends a request and the worker answers it.
package worker

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/precisiond/precisiond/contracts"
	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/tools"
)

// Frame size limits.
const (
	// DefaultMaxRequestBytes bounds a request frame (normalized arguments).
	DefaultMaxRequestBytes = 64 << 20
	// DefaultMaxResponseBytes bounds a response frame (facts and text).
	DefaultMaxResponseBytes = 32 << 20
)

// ErrFrameTooLarge is returned for a frame whose declared length exceeds the
// reader's limit; nothing of it is allocated.
var ErrFrameTooLarge = errors.New("worker: frame larger than the limit")

// writeFrame writes one frame.
func writeFrame(w io.Writer, payload []byte) error {
	buf := make([]byte, 4+len(payload))
	binary.BigEndian.PutUint32(buf, uint32(len(payload)))
	copy(buf[4:], payload)
	_, err := w.Write(buf)
	return err
}

// readFrame reads one frame of at most max bytes. A stream that ends between
// frames gives io.EOF; one that ends inside a frame io.ErrUnexpectedEOF.
func readFrame(r io.Reader, max int) ([]byte, error) {
	var hdr [4]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return nil, err
	}
	n := binary.BigEndian.Uint32(hdr[:])
	if uint64(n) > uint64(max) {
		return nil, fmt.Errorf("%w: %d bytes, limit %d", ErrFrameTooLarge, n, max)
	}
	buf := make([]byte, n)
	if _, err := io.ReadFull(r, buf); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	return buf, nil
}

// hello is the worker's first frame: the limits it runs under.
type hello struct {
	PID int `json:"pid"`
	// BaselineBytes is the address space the worker used once ready;
	// ASLimitBytes the RLIMIT_AS it set (0: none).
	BaselineBytes int64 `json:"baseline_bytes"`
	ASLimitBytes  int64 `json:"as_limit_bytes"`
}

// request is one call.
type request struct {
	ID   uint64         `json:"id"`
	Tool string         `json:"tool"`
	Args map[string]any `json:"args"`
	// DeadlineUnixMilli is the call's deadline (0: none); the server kills the
	// worker then anyway, this lets a tool that checks its context stop first.
	DeadlineUnixMilli int64 `json:"deadline_unix_ms"`
	// CPUSeconds is the CPU time the call may use before the worker's
	// RLIMIT_CPU soft limit ends it.
	CPUSeconds int64 `json:"cpu_seconds"`
}

// response is the answer to one request.
type response struct {
	ID       uint64             `json:"id"`
	Facts    map[string]any     `json:"facts,omitempty"`
	Text     string             `json:"text"`
	Warnings []evidence.Warning `json:"warnings,omitempty"`
	Error    *wireError         `json:"error,omitempty"`
	// CPUNanos and MaxRSSBytes are the worker's totals after the call (user+
	// system CPU; peak resident set).
	CPUNanos    int64 `json:"cpu_ns"`
	MaxRSSBytes int64 `json:"max_rss_bytes"`
}

// Kinds of wireError.
const (
	kindTool     = "tool"     // a *tools.Error
	kindRefusal  = "refusal"  // a *refusal.Error
	kindInternal = "internal" // anything else: a bug, shown to no client
	kindDeadline = "deadline" // the tool stopped at the call's deadline
)

// wireError carries an error of Execute back to the server as its type.
type wireError struct {
	Kind    string             `json:"kind"`
	Code    string             `json:"code,omitempty"`
	Reason  string             `json:"reason,omitempty"`
	Message string             `json:"message"`
	Costly  bool               `json:"costly,omitempty"`
	Details []contracts.Detail `json:"details,omitempty"`
}

// encodeRequest writes a request with its arguments copied exactly: numbers as
// their literal text (json.Number), so that the worker's tool sees the very
// arguments the server validated.
func encodeRequest(req *request) ([]byte, error) {
	b := fmt.Appendf(nil, `{"id":%d,"tool":`, req.ID)
	b, _ = evidence.AppendCanonical(b, req.Tool)
	b = append(b, `,"args":`...)
	var err error
	if b, err = appendValue(b, req.Args); err != nil {
		return nil, err
	}
	return fmt.Appendf(b, `,"deadline_unix_ms":%d,"cpu_seconds":%d}`, req.DeadlineUnixMilli, req.CPUSeconds), nil
}

// encodeResponse writes a response; facts go in canonical JSON, which is what
// they are hashed as, so the server's envelope is byte-identical to an
// in-process one.
func encodeResponse(resp *response) ([]byte, error) {
	facts := resp.Facts
	resp.Facts = nil
	b, err := json.Marshal(resp)
	resp.Facts = facts
	if err != nil || facts == nil {
		return b, err
	}
	fb, err := evidence.Canonical(facts)
	if err != nil {
		return nil, err
	}
	// Splice "facts" in before the closing brace.
	out := make([]byte, 0, len(b)+len(fb)+10)
	out = append(out, b[:len(b)-1]...)
	out = append(out, `,"facts":`...)
	out = append(out, fb...)
	return append(out, '}'), nil
}

// decodeStrict decodes one JSON object into v: numbers as json.Number,
// unknown fields and trailing data refused.
func decodeStrict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("trailing data after the message")
	}
	return nil
}

// appendValue writes generic JSON arguments as JSON with every number literal
// as written (tools.AppendArgs), or through canonical JSON for a value of
// another type.
func appendValue(b []byte, v any) ([]byte, error) {
	if out, ok := tools.AppendArgs(b, v); ok && validNumbers(v) {
		return out, nil
	}
	return evidence.AppendCanonical(b, v)
}

// validNumbers reports whether every json.Number in v is a JSON number literal
// (a json.Number built by hand could hold anything).
func validNumbers(v any) bool {
	switch x := v.(type) {
	case json.Number:
		return isNumberLiteral(string(x))
	case map[string]any:
		for _, e := range x {
			if !validNumbers(e) {
				return false
			}
		}
	case []any:
		for _, e := range x {
			if !validNumbers(e) {
				return false
			}
		}
	}
	return true
}

// isNumberLiteral reports whether s is a JSON number (RFC 8259 grammar).
func isNumberLiteral(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			n++
		}
		return n
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case digits() == 0:
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}
