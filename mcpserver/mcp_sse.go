package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/precisiond/precisiond/internal/defaults"
	"github.com/precisiond/precisiond/internal/surface"
	"github.com/precisiond/precisiond/tools"
)

// Defaults of the SSE stream limits (Options).
const (
	DefaultMaxSSEStreams  = 100
	DefaultSSEIdleTimeout = 10 * time.Minute
	DefaultSSEMaxLifetime = time.Hour
)

// sseLimits bound the open /mcp/sse streams: how many at once, how long one may
// go without a message from its client, and how long it may live at all.
type sseLimits struct {
	max      int
	idle     time.Duration
	lifetime time.Duration
}

func newSSELimits(o Options) sseLimits {
	l := sseLimits{max: o.MaxSSEStreams, idle: o.SSEIdleTimeout, lifetime: o.SSEMaxLifetime}
	defaults.Positive(&l.max, DefaultMaxSSEStreams)
	defaults.Positive(&l.idle, DefaultSSEIdleTimeout)
	defaults.Positive(&l.lifetime, DefaultSSEMaxLifetime)
	return l
}

// sseStream is one open SSE GET.
type sseStream struct {
	cancel     context.CancelFunc
	rc         *http.ResponseController
	opened     time.Time
	lastActive atomic.Int64 // unix nanoseconds of the last client message's start or end (or the opening)
	inFlight   atomic.Int32 // client messages being handled: the stream is not idle meanwhile
	pending    atomic.Int32 // client requests not answered on the stream yet: not idle either
	closeOnce  sync.Once
	session    string // MCP session id, once the endpoint event named it
	token      string // name of the API token the stream was opened with ("": tokens off)
}

// close ends the stream: its context is canceled (the SDK ends the session) and
// a write blocked on a client that stopped reading is released.
func (st *sseStream) close() {
	st.closeOnce.Do(func() {
		st.cancel()
		_ = st.rc.SetWriteDeadline(time.Now())
	})
}

// sseStreams handles /mcp/sse. A GET opens a stream: at most sse.max at once
// (503 overloaded beyond), closed after sse.idle without a message from its
// client (a message still being handled, and a request whose answer has not
// been written to the stream yet, count as activity) and after sse.lifetime
// in any case; the server's read and write
// deadlines are lifted for it (a stream outlives the timeouts meant for one
// request) and it is registered so that closeMCP can end it. A POST to a
// stream's session counts as activity.
func (m *Endpoints) sseStreams(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet {
			if id := r.URL.Query().Get("sessionid"); id != "" {
				m.mu.Lock()
				st := m.bySession[id]
				if st != nil {
					st.lastActive.Store(time.Now().UnixNano())
					st.inFlight.Add(1)
					defer func() {
						st.lastActive.Store(time.Now().UnixNano())
						st.inFlight.Add(-1)
					}()
				}
				m.mu.Unlock()
				if st != nil && st.token == surface.TokenName(r.Context()) {
					// The answer comes later, on the stream: until it does
					// the session is waiting, not idle.
					if isRequest(r) {
						st.pending.Add(1)
					}
				}
				if st != nil && st.token != surface.TokenName(r.Context()) {
					// A session answers only the token that opened it.
					m.access.Refuse(w, r, surface.NewError(surface.CodeForbidden, "this SSE session belongs to another API token"), surface.TokenName(r.Context()))
					return
				}
			}
			next.ServeHTTP(w, r)
			return
		}
		ctx, cancel := context.WithCancel(r.Context())
		defer cancel()
		st := &sseStream{cancel: cancel, rc: http.NewResponseController(w), opened: time.Now(), token: surface.TokenName(r.Context())}
		st.lastActive.Store(st.opened.UnixNano())
		r = r.WithContext(ctx)
		m.mu.Lock()
		if len(m.streams) >= m.sse.max {
			m.mu.Unlock()
			// The refused client is told to go away, and its connection is
			// closed after the answer: kept alive for the idle timeout,
			// thousands of refused streams would hold as many descriptors
			// and starve /health (issue 34).
			w.Header().Set("Connection", "close")
			surface.WriteError(w, surface.NewError(tools.CodeOverloaded, "too many open SSE streams; retry later or use /mcp (Streamable HTTP)"), false)
			return
		}
		m.streams[r] = st
		m.mu.Unlock()
		defer func() {
			m.mu.Lock()
			delete(m.streams, r)
			if st.session != "" {
				delete(m.bySession, st.session)
			}
			m.mu.Unlock()
		}()
		_ = st.rc.SetReadDeadline(time.Time{})
		_ = st.rc.SetWriteDeadline(time.Time{})
		go m.watchStream(ctx, st)
		next.ServeHTTP(&sseWriter{ResponseWriter: w, onResponse: func() {
			if st.pending.Add(-1) < 0 {
				st.pending.Store(0) // an answer we did not see asked
			}
		}, onEndpoint: func(id string) {
			m.mu.Lock()
			st.session = id
			m.bySession[id] = st
			m.mu.Unlock()
		}}, r)
	})
}

// watchStream closes st once it has been idle or open too long.
func (m *Endpoints) watchStream(ctx context.Context, st *sseStream) {
	t := time.NewTimer(min(m.sse.idle, m.sse.lifetime))
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		now := time.Now()
		idleLeft := m.sse.idle - now.Sub(time.Unix(0, st.lastActive.Load()))
		if st.inFlight.Load() > 0 || st.pending.Load() > 0 {
			idleLeft = m.sse.idle // a message is being handled or awaits its answer: not idle
		}
		lifeLeft := m.sse.lifetime - now.Sub(st.opened)
		if idleLeft <= 0 || lifeLeft <= 0 {
			st.close()
			return
		}
		t.Reset(min(idleLeft, lifeLeft))
	}
}

// sseWriter passes an SSE stream through and reports the session id named by
// its first event (the SDK's "endpoint" event, data "...?sessionid=ID").
type sseWriter struct {
	http.ResponseWriter
	onEndpoint func(id string)
	onResponse func() // a JSON-RPC response event was written
	seen       bool
}

func (w *sseWriter) Write(p []byte) (int, error) {
	if w.seen {
		// The SDK writes one event per call: "event: message\ndata: {...}\n\n".
		if _, data, ok := bytes.Cut(p, []byte("\ndata: ")); ok && bytes.HasPrefix(p, []byte("event: message\n")) {
			if rpcKind(data[:min(len(data), rpcPeekBytes)]) == rpcResponse {
				w.onResponse()
			}
		}
	}
	if !w.seen {
		// The endpoint event is the stream's first; look until it has ended,
		// in case a writer splits it.
		if _, after, ok := bytes.Cut(p, []byte("sessionid=")); ok {
			if end := bytes.IndexAny(after, "&\r\n"); end > 0 {
				w.onEndpoint(string(after[:end]))
				w.seen = true
			}
		}
		if bytes.Contains(p, []byte("\n\n")) {
			w.seen = true
		}
	}
	return w.ResponseWriter.Write(p)
}

// Flush flushes the event to the client.
func (w *sseWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection.
func (w *sseWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// rpcPeekBytes is how much of a JSON-RPC message rpcKind reads: its "id" and
// "method" come first from every client and server we know.
const rpcPeekBytes = 512

// Kinds of JSON-RPC message (rpcKind).
const (
	rpcUnknown = iota
	rpcRequest
	rpcNotification
	rpcResponse
)

// isRequest reports whether the body of r is a JSON-RPC request, from its
// first rpcPeekBytes, which it leaves for the handler to read.
func isRequest(r *http.Request) bool {
	br := bufio.NewReaderSize(r.Body, rpcPeekBytes)
	head, _ := br.Peek(rpcPeekBytes) // fewer at the end of the body or on an error, which the handler meets
	r.Body = struct {
		io.Reader
		io.Closer
	}{br, r.Body}
	return rpcKind(head) == rpcRequest
}

// rpcKind tells a JSON-RPC message's kind from the top-level keys in head,
// its beginning: a request has an id and a method, a notification a method
// only, a response an id only (or a result or an error). A batch, or a
// message whose keys do not show in head, is rpcUnknown.
func rpcKind(head []byte) int {
	dec := json.NewDecoder(bytes.NewReader(head))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return rpcUnknown
	}
	var id, method, answer, cut bool
	for !cut && dec.More() {
		key, err := dec.Token()
		if err != nil {
			cut = true
			break
		}
		switch key {
		case "id":
			id = true
		case "method":
			method = true
		case "result", "error":
			answer = true
		}
		var skip json.RawMessage
		cut = dec.Decode(&skip) != nil // cut off by the peek: what was seen decides, if it can
	}
	switch {
	case id && method:
		return rpcRequest
	case id && (answer || !cut):
		return rpcResponse
	case method && !cut:
		return rpcNotification
	}
	return rpcUnknown
}
