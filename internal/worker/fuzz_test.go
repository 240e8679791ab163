package worker

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"testing"

	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/tools"
)

func frameOf(s string) []byte {
	b := binary.BigEndian.AppendUint32(nil, uint32(len(s)))
	return append(b, s...)
}

// safeTools are the test tools that return at once (fuzzing runs them).
func safeTools() map[string]tools.Tool {
	m := map[string]tools.Tool{}
	for _, t := range testTools() {
		if n := t.Contract.Tool; n == "echo" || n == "pid" {
			m[n] = t
		}
	}
	return m
}

// FuzzWorkerInput drives the worker's side with arbitrary input: it never
// panics or hangs, every frame it writes is a hello or a response the server can
// decode, and it answers exactly the well-formed requests before the first bad
// frame.
func FuzzWorkerInput(f *testing.F) {
	f.Add(frameOf(`{"id":1,"tool":"echo","args":{"a":1.50,"b":"x"},"deadline_unix_ms":0,"cpu_seconds":0}`))
	f.Add(frameOf(`{"id":2,"tool":"nope","args":{}}`))
	f.Add(append(frameOf(`{"id":3,"tool":"pid","args":null}`), frameOf(`{"id":4,"tool":"echo","args":{"x":[1,{"y":null}]}}`)...))
	f.Add(frameOf(`{"id":1,"tool":"echo","args":{},"extra":1}`))
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, '{'})
	f.Add([]byte{0, 0, 0, 5, '{', '}'})
	f.Add(frameOf(`{"id":-1,"tool":"echo"}`))
	byName := safeTools()
	f.Fuzz(func(t *testing.T, input []byte) {
		var out bytes.Buffer
		err := serveLoop(bytes.NewReader(input), &out, byName, &hello{PID: 1})
		r := bytes.NewReader(out.Bytes())
		hb, herr := readFrame(r, DefaultMaxResponseBytes)
		var h hello
		if herr != nil || decodeStrict(hb, &h) != nil || h.PID != 1 {
			t.Fatalf("no hello first: %v %q", herr, hb)
		}
		answers := 0
		for {
			b, rerr := readFrame(r, DefaultMaxResponseBytes)
			if errors.Is(rerr, io.EOF) {
				break
			}
			if rerr != nil {
				t.Fatalf("worker wrote a broken frame: %v", rerr)
			}
			resp, derr := decodeResponse(b)
			if derr != nil {
				t.Fatalf("worker wrote an undecodable answer %q: %v", b, derr)
			}
			if _, oerr := resp.output("x"); oerr == nil && resp.Facts == nil {
				t.Fatalf("success without facts: %q", b)
			}
			answers++
		}
		// Count the well-formed requests the input starts with.
		in := bytes.NewReader(input)
		wellFormed := 0
		for {
			b, rerr := readFrame(in, DefaultMaxRequestBytes)
			if rerr != nil {
				break
			}
			var req request
			if decodeStrict(b, &req) != nil {
				break
			}
			wellFormed++
		}
		if answers != wellFormed {
			t.Fatalf("%d answers for %d well-formed requests (serve: %v)", answers, wellFormed, err)
		}
	})
}

// FuzzServerDecode drives the server's side with arbitrary worker output: frame
// reading and answer decoding never panic and never allocate past the limit, and
// what decodes gives an Output or a typed error.
func FuzzServerDecode(f *testing.F) {
	ok, _ := encodeResponse(&response{ID: 1, Facts: map[string]any{"n": json.Number("1.0")}, Text: "t"})
	f.Add(frameOf(string(ok)))
	f.Add(frameOf(`{"id":1,"error":{"kind":"tool","code":"cost_limit_exceeded","reason":"r","message":"m"}}`))
	f.Add(frameOf(`{"id":1,"error":{"kind":"refusal","reason":"r","message":"m","costly":true}}`))
	f.Add(frameOf(`{"id":1,"error":{"kind":"??","message":"m"}}`))
	f.Add(frameOf(`{"id":1,"facts":[1],"text":""}`))
	f.Add([]byte{0x7f, 0xff, 0xff, 0xff})
	f.Add(frameOf(`{"pid":1,"baseline_bytes":2,"as_limit_bytes":3}`))
	f.Fuzz(func(t *testing.T, input []byte) {
		b, err := readFrame(bytes.NewReader(input), 1<<16)
		if err != nil {
			if len(input) >= 4 && binary.BigEndian.Uint32(input) > 1<<16 && !errors.Is(err, ErrFrameTooLarge) {
				t.Fatalf("oversized frame not refused: %v", err)
			}
			return
		}
		var h hello
		_ = decodeStrict(b, &h)
		resp, err := decodeResponse(b)
		if err != nil {
			return
		}
		out, err := resp.output("x")
		if err == nil {
			if _, cerr := evidence.Canonical(out.Facts); cerr != nil {
				// Facts from a worker are canonical JSON: whatever decodes must
				// re-encode (the envelope hashes them).
				t.Fatalf("decoded facts cannot be hashed: %v", cerr)
			}
			return
		}
		var te *tools.Error
		var ie *tools.InternalError
		if !errors.As(err, &te) && !errors.As(err, &ie) && resp.Error.Kind != kindRefusal {
			t.Fatalf("untyped error %T %v", err, err)
		}
	})
}

// FuzzArgsRoundTrip: arguments the server encodes decode in the worker to the
// same values (canonically), with number literals unchanged.
func FuzzArgsRoundTrip(f *testing.F) {
	f.Add(`{"a":1.50,"b":[true,null,"x\u2028"],"c":{"d":-0,"e":1e400}}`)
	f.Add(`{"😀":"\ud83d\ude00","n":123456789012345678901234567890}`)
	f.Fuzz(func(t *testing.T, doc string) {
		v, err := evidence.ParseJSON([]byte(doc))
		args, ok := v.(map[string]any)
		if err != nil || !ok {
			return
		}
		b, err := encodeRequest(&request{ID: 7, Tool: "echo", Args: args})
		if err != nil {
			t.Fatalf("encode: %v", err)
		}
		var req request
		if err := decodeStrict(b, &req); err != nil {
			t.Fatalf("decode %s: %v", b, err)
		}
		if !sameLiterals(args, req.Args) {
			t.Fatalf("args changed: %v -> %v", args, req.Args)
		}
	})
}

// sameLiterals compares generic values, numbers by their literal text.
func sameLiterals(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, e := range x {
			if !sameLiterals(e, y[k]) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !sameLiterals(x[i], y[i]) {
				return false
			}
		}
		return true
	}
	return a == b
}
