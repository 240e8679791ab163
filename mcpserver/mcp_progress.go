package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/precisiond/precisiond/internal/surface"
	"github.com/precisiond/precisiond/tools"
)

// Progress and cancellation of MCP tool calls (docs/mcp.md, "Progress and
// cancellation").
//
// Progress: a tools/call whose params carry _meta.progressToken runs with a
// tools.ProgressFunc in its context that sends notifications/progress on the
// call's session (progressMiddleware). Tools report through
// tools.ReportProgress, which passes on at most one report per 250 ms. On
// stateless Streamable HTTP such a call is answered as an SSE stream (the
// notifications, then the result) by the SDK handler without JSONResponse
// (statelessCalls).
//
// Cancellation: the call's context ends when the client cancels it. On the
// SDK's sessions (legacy SSE, stdio) the SDK cancels the request named by
// notifications/cancelled; a closed stream or connection ends the request's
// context (HTTP) or the session (stdio). On stateless Streamable HTTP every
// request is its own session, so statelessCalls keeps the calls in flight by
// caller and id and cancels the one a notifications/cancelled POST names.
// Registry.Call frees the slot when the work has stopped, and isolated
// workers are killed when the context ends (internal/worker).

// callContextHeader carries, from statelessCalls to callContexts.middleware,
// the key of the HTTP request's context: the SDK runs a stateless request's
// handler under a context of its own that does not end with the request (a
// client's disconnect, a notifications/cancelled). guard deletes the header
// from what clients send.
const callContextHeader = "X-Precisiond-Call-Context"

// callContexts holds the contexts of the stateless POSTs being served, by
// the key statelessCalls gives them.
var callContexts = struct {
	mu   sync.Mutex
	next atomic.Uint64
	m    map[string]context.Context
}{m: map[string]context.Context{}}

// bindCallContext makes the context of a tools/call served by the SDK end
// when the HTTP request's context ends.
func bindCallContext(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		r, ok := req.(*mcp.CallToolRequest)
		if !ok || r.Extra == nil || r.Extra.Header == nil {
			return next(ctx, method, req)
		}
		key := r.Extra.Header.Get(callContextHeader)
		if key == "" {
			return next(ctx, method, req)
		}
		callContexts.mu.Lock()
		httpCtx := callContexts.m[key]
		callContexts.mu.Unlock()
		if httpCtx == nil {
			return next(ctx, method, req)
		}
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		stop := context.AfterFunc(httpCtx, cancel)
		defer stop()
		return next(ctx, method, req)
	}
}

// progressMiddleware installs the progress hook of a tools/call that asks
// for progress. Reports after the call has been answered are dropped.
func progressMiddleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		r, ok := req.(*mcp.CallToolRequest)
		if !ok || method != "tools/call" || r.Params == nil || r.Session == nil {
			return next(ctx, method, req)
		}
		token := r.Params.GetProgressToken()
		if token == nil {
			return next(ctx, method, req)
		}
		var mu sync.Mutex
		open := true
		ctx = tools.WithProgress(ctx, func(done, total float64, message string) {
			mu.Lock()
			defer mu.Unlock()
			if !open {
				return
			}
			_ = r.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
				ProgressToken: token, Progress: done, Total: total, Message: message})
		})
		res, err := next(ctx, method, req)
		mu.Lock()
		open = false
		mu.Unlock()
		return res, err
	}
}

// inflightKey names a stateless call: the caller (API token name, "" without
// tokens) and the request id's canonical JSON text.
type inflightKey struct{ caller, id string }

// inflight is the set of stateless tools/call requests in progress, for
// notifications/cancelled sent in a later POST.
type inflight struct {
	mu    sync.Mutex
	calls map[inflightKey]map[*context.CancelFunc]struct{}
}

func newInflight() *inflight {
	return &inflight{calls: map[inflightKey]map[*context.CancelFunc]struct{}{}}
}

// track returns ctx, cancelled by a notifications/cancelled for (caller,
// id), and the function that ends the tracking (it must be called).
func (f *inflight) track(ctx context.Context, caller string, id []byte) (context.Context, func()) {
	key, ok := idKey(id)
	if !ok {
		return ctx, func() {}
	}
	key.caller = caller
	ctx, cancel := context.WithCancel(ctx)
	p := &cancel
	f.mu.Lock()
	set := f.calls[key]
	if set == nil {
		set = map[*context.CancelFunc]struct{}{}
		f.calls[key] = set
	}
	set[p] = struct{}{}
	f.mu.Unlock()
	return ctx, func() {
		f.mu.Lock()
		delete(set, p)
		if len(set) == 0 {
			delete(f.calls, key)
		}
		f.mu.Unlock()
		cancel()
	}
}

// cancel cancels the calls of caller with request id id and reports how many.
func (f *inflight) cancel(caller string, id []byte) int {
	key, ok := idKey(id)
	if !ok {
		return 0
	}
	key.caller = caller
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for p := range f.calls[key] {
		(*p)()
		n++
	}
	return n
}

// idKey is the canonical text of a JSON-RPC id (a string's value, a number's
// text); ids of other types name no call.
func idKey(id []byte) (inflightKey, bool) {
	id = bytes.TrimSpace(id)
	if len(id) == 0 {
		return inflightKey{}, false
	}
	switch c := id[0]; {
	case c == '"':
		var s string
		if json.Unmarshal(id, &s) != nil {
			return inflightKey{}, false
		}
		return inflightKey{id: "s" + s}, true
	case c == '-' || (c >= '0' && c <= '9'):
		return inflightKey{id: "n" + string(id)}, true
	}
	return inflightKey{}, false
}

// rpcEnvelope is what statelessCalls reads of a single message.
type rpcEnvelope struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		RequestID json.RawMessage `json:"requestId"`
	} `json:"params"`
}

// statelessCalls wraps the SDK's stateless Streamable HTTP handlers: a
// notifications/cancelled cancels the call it names (same caller), a
// tools/call is tracked while in flight, and a message that asks for
// progress goes to stream (no JSONResponse: notifications before the
// result). The body is already in memory (idGuard, mcpFast).
func (f *inflight) statelessCalls(plain, stream http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Body == nil {
			plain.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, "failed to read body: "+err.Error(), http.StatusBadRequest)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		next := plain
		if bytes.Contains(body, []byte(`"progressToken"`)) {
			next = stream
		}
		if msg, ok := singleMessage(body); ok {
			caller := surface.TokenName(r.Context())
			switch {
			case msg.Method == "notifications/cancelled" && msg.ID == nil:
				f.cancel(caller, msg.Params.RequestID)
			case msg.Method == "tools/call" && msg.ID != nil:
				ctx, end := f.track(r.Context(), caller, msg.ID)
				defer end()
				r = r.WithContext(ctx)
			}
		}
		// Every request (batches too) has its context's key, for
		// bindCallContext.
		key := strconv.FormatUint(callContexts.next.Add(1), 36)
		callContexts.mu.Lock()
		callContexts.m[key] = r.Context()
		callContexts.mu.Unlock()
		defer func() {
			callContexts.mu.Lock()
			delete(callContexts.m, key)
			callContexts.mu.Unlock()
		}()
		r.Header.Set(callContextHeader, key)
		next.ServeHTTP(w, r)
	})
}

// singleMessage decodes body if it is one JSON-RPC message (not a batch).
func singleMessage(body []byte) (rpcEnvelope, bool) {
	var msg rpcEnvelope
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 || trimmed[0] != '{' || json.Unmarshal(trimmed, &msg) != nil {
		return rpcEnvelope{}, false
	}
	return msg, true
}
