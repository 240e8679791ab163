package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"os"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/internal/surface"
)

// The fast path of stateless Streamable HTTP (/mcp, /mcp/compact).
//
// The go-sdk serves every stateless POST by building a server session, and
// decodes the body about six times over (batch probe, message, params, _meta)
// with a decoder that allocates a fresh 32 KiB buffer each time: ~330 KB and
// ~400 objects per tools/call (bench/RESULTS.md §5). mcpFast answers the
// ordinary single-message POSTs of the hot methods itself — tools/call, ping,
// tools/list (full surface) and notifications/initialized — and hands every
// other request, byte for byte as it came, to the SDK's handler. Results are
// built by the same functions the SDK's tool handlers call (toolResult,
// compactResult, listTools) and encoded the way the SDK encodes them, so the
// bytes on the wire are the SDK's; TestMCPFastPathDifferential compares the
// two paths request by request, with and without API tokens (the handlers
// enforce the token in the request's context, put there by the server's access control, api.accessControl).
//
// A request takes the fast path only when all of these hold; anything else
// goes to the SDK unchanged:
//   - POST, Content-Type application/json, Accept naming JSON and SSE (as the
//     SDK demands), no Last-Event-ID;
//   - Mcp-Protocol-Version absent or one of mcpFastVersions (the versions
//     before 2026-07-28; their single-message POSTs are served alike; the
//     newer protocol's per-request _meta and Mcp-Method headers stay with the
//     SDK);
//   - the body is one JSON object (no batch) of at most 1000 levels, with only
//     the keys jsonrpc ("2.0"), id, method and params, no key twice, no escape
//     in a key;
//   - id absent (notification) or a plain string (printable ASCII, no escapes)
//     or an integer of at most 15 digits, echoed as it came (the SDK echoes
//     the value it decoded, which is the same text for those);
//   - method and params as below, with tool names and cursors plain strings:
//     tools/call {"name", "arguments"?: object}; ping and
//     notifications/initialized with no params or {}; tools/list with no
//     params, {} or {"cursor"}.
//
// MCPGODEBUG (the SDK's compatibility switches) changes the SDK's behaviour in
// ways this path does not follow; when it is set, the fast path is off.
type mcpFast struct {
	sdk     http.Handler
	maxBody int64
	// call answers tools/call, the SDK's tool handler's function (unknown
	// tools included: -32602).
	call func(ctx context.Context, name string, args json.RawMessage) (*mcp.CallToolResult, error)
	// list answers tools/list for a client of protocol version (the
	// request's Mcp-Protocol-Version, defaultProtocol when absent); nil sends
	// tools/list to the SDK.
	list func(ctx context.Context, cursor, version string) (*mcp.ListToolsResult, error)
	off  bool
	// inflight tracks the calls in progress for notifications/cancelled;
	// nil: none.
	inflight *inflight
	// served counts the requests this path answered (tests check which
	// path a request took).
	served atomic.Int64
}

// mcpFastVersions are the Mcp-Protocol-Version values the fast path serves
// (an absent header is 2025-03-26 to the SDK). In all of them a single
// message's answer is the same JSON body.
var mcpFastVersions = []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"}

// fastForSurface is the fast path of the full MCP surface over sdk.
func fastForSurface(sdk http.Handler, s *mcpSurface, maxBody int64) *mcpFast {
	return &mcpFast{
		sdk:     sdk,
		maxBody: maxBody,
		call:    s.toolResult,
		list: func(ctx context.Context, cursor, version string) (*mcp.ListToolsResult, error) {
			return s.listTools(ctx, &mcp.ListToolsRequest{Params: &mcp.ListToolsParams{Cursor: cursor}}, version)
		},
		off: os.Getenv("MCPGODEBUG") != "",
	}
}

// fastForCompact is the fast path of the compact surface over sdk (tools/list
// stays with the SDK, which lists the four tools itself).
func fastForCompact(sdk http.Handler, log *slog.Logger, ts []compactTool, maxBody int64) *mcpFast {
	byName := make(map[string]compactTool, len(ts))
	for _, t := range ts {
		byName[t.tool.Name] = t
	}
	return &mcpFast{
		sdk:     sdk,
		maxBody: maxBody,
		call: func(ctx context.Context, name string, args json.RawMessage) (*mcp.CallToolResult, error) {
			t, ok := byName[name]
			if !ok { // the SDK's answer
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("unknown tool %q", name)}
			}
			return compactResult(ctx, log, t, args)
		},
		off: os.Getenv("MCPGODEBUG") != "",
	}
}

func (f *mcpFast) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if f.off || !fastHeaders(r) {
		idGuard(f.sdk, f.maxBody, http.StatusOK).ServeHTTP(w, r)
		return
	}
	body, ok := readMCPBody(w, r, f.maxBody)
	if !ok {
		return
	}
	if !f.serve(w, r, body) {
		if refuseUnexactID(w, body, http.StatusOK) {
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		f.sdk.ServeHTTP(w, r)
		return
	}
	f.served.Add(1)
}

// fastHeaders checks the request line and headers of a fast-path request.
func fastHeaders(r *http.Request) bool {
	if r.Method != http.MethodPost {
		return false
	}
	if ct := r.Header.Get("Content-Type"); ct != "application/json" {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || mt != "application/json" {
			return false
		}
	}
	if !acceptsJSONAndSSE(r.Header["Accept"]) || len(r.Header["Last-Event-Id"]) > 0 {
		return false
	}
	v := r.Header.Get("Mcp-Protocol-Version")
	if v == "" {
		return true
	}
	for _, ok := range mcpFastVersions {
		if v == ok {
			return true
		}
	}
	return false
}

// acceptsJSONAndSSE applies the SDK's Accept rule (both application/json and
// text/event-stream, wildcards included) without allocating.
func acceptsJSONAndSSE(values []string) bool {
	jsonOK, sseOK := false, false
	for _, v := range values {
		for v != "" {
			var tok string
			tok, v, _ = strings.Cut(v, ",")
			tok, _, _ = strings.Cut(tok, ";")
			tok = strings.TrimSpace(tok)
			switch {
			case strings.EqualFold(tok, "application/json"), strings.EqualFold(tok, "application/*"):
				jsonOK = true
			case strings.EqualFold(tok, "text/event-stream"), strings.EqualFold(tok, "text/*"):
				sseOK = true
			case tok == "*/*":
				jsonOK, sseOK = true, true
			}
		}
	}
	return jsonOK && sseOK
}

// readMCPBody reads the whole body under the same limit the SDK sets; when
// it cannot, it answers as the SDK does to the same failures
// (serveStateless) and returns false.
func readMCPBody(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, bool) {
	body, err := readBodyLimited(w, r, limit)
	if err == nil {
		return body, true
	}
	if mbe, ok := errors.AsType[*http.MaxBytesError](err); ok {
		http.Error(w, fmt.Sprintf("request body exceeds %d bytes", mbe.Limit), http.StatusRequestEntityTooLarge)
	} else {
		http.Error(w, "failed to read body: "+err.Error(), http.StatusBadRequest)
	}
	return nil, false
}

// readBodyLimited is readMCPBody's read. A declared length within the
// limit is read into a buffer of that size (net/http never delivers more
// than Content-Length bytes).
func readBodyLimited(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
	defer r.Body.Close()
	if n := r.ContentLength; n > 0 && (n <= limit || limit <= 0) {
		buf := make([]byte, n)
		if _, err := io.ReadFull(r.Body, buf); err != nil {
			return nil, err
		}
		return buf, nil
	}
	if limit <= 0 {
		return io.ReadAll(r.Body)
	}
	return io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
}

// rpcMessage is one JSON-RPC message as raw fields (nil: absent).
type rpcMessage struct {
	id, method, params []byte
}

// serve answers body if it is a fast-path message and reports whether it
// did; it writes nothing when it returns false.
func (f *mcpFast) serve(w http.ResponseWriter, r *http.Request, body []byte) bool {
	msg, ok := parseRPC(body)
	if !ok {
		return false
	}
	method, ok := surface.PlainString(msg.method)
	if !ok {
		return false
	}
	if msg.id == nil {
		// A notification: accepted with 202 and no body, as the SDK does.
		if method != "notifications/initialized" || !emptyParams(msg.params) {
			return false
		}
		w.WriteHeader(http.StatusAccepted)
		return true
	}
	switch method {
	case "ping":
		if !emptyParams(msg.params) {
			return false
		}
		writeRPC(w, msg.id, struct{}{}, nil)
		return true
	case "tools/list":
		if f.list == nil {
			return false
		}
		cursor, ok := listParams(msg.params)
		if !ok {
			return false
		}
		version := r.Header.Get("Mcp-Protocol-Version")
		if version == "" {
			version = defaultProtocol
		}
		res, err := f.list(r.Context(), cursor, version)
		writeRPC(w, msg.id, res, err)
		return true
	case "tools/call":
		name, args, ok := callParams(msg.params)
		if !ok {
			return false
		}
		ctx := r.Context()
		if f.inflight != nil {
			var end func()
			ctx, end = f.inflight.track(ctx, surface.TokenName(ctx), msg.id)
			defer end()
		}
		res, err := f.call(ctx, name, args)
		writeRPC(w, msg.id, res, err)
		return true
	}
	return false
}

// parseRPC splits a single JSON-RPC message into its raw fields, or reports
// that the body is not one the fast path serves.
func parseRPC(b []byte) (rpcMessage, bool) {
	var m rpcMessage
	if !json.Valid(b) || !depthAtMost(b, 1000) {
		return m, false
	}
	var v [4][]byte
	ok := surface.Members(b, v[:], "jsonrpc", "id", "method", "params")
	version := v[0]
	m.id, m.method, m.params = v[1], v[2], v[3]
	if !ok || string(version) != `"2.0"` || m.method == nil || (m.id != nil && !plainID(m.id)) {
		return m, false
	}
	return m, true
}

// plainID reports whether an id is echoed unchanged by the SDK: a plain
// string, or an integer of at most 15 digits (exact in the float64 the SDK
// decodes it to) other than -0.
func plainID(id []byte) bool {
	if id[0] == '"' {
		_, ok := surface.PlainString(id)
		return ok
	}
	digits := id
	if digits[0] == '-' {
		digits = digits[1:]
	}
	if len(digits) == 0 || len(digits) > 15 || (digits[0] == '0' && len(id) > 1) {
		return false
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// emptyParams: params absent or {}.
func emptyParams(p []byte) bool {
	if p == nil {
		return true
	}
	return surface.EachMember(p, func(_, _ []byte) bool { return false })
}

// listParams reads tools/list params: absent, {} or {"cursor": plain string}.
func listParams(p []byte) (cursor string, ok bool) {
	if p == nil {
		return "", true
	}
	seen := false
	ok = surface.EachMember(p, func(key, val []byte) bool {
		if string(key) != "cursor" || seen {
			return false
		}
		seen = true
		var plain bool
		cursor, plain = surface.PlainString(val)
		return plain
	})
	return cursor, ok
}

// callParams reads tools/call params: {"name": plain non-empty string,
// "arguments"?: object}.
func callParams(p []byte) (name string, args json.RawMessage, ok bool) {
	if p == nil {
		return "", nil, false
	}
	var rawName []byte
	ok = surface.EachMember(p, func(key, val []byte) bool {
		switch string(key) {
		case "name":
			if rawName != nil {
				return false
			}
			rawName = val
		case "arguments":
			if args != nil || val[0] != '{' {
				return false
			}
			args = val
		default:
			return false
		}
		return true
	})
	if !ok || rawName == nil {
		return "", nil, false
	}
	name, ok = surface.PlainString(rawName)
	return name, args, ok && name != ""
}

// depthAtMost reports whether the nesting of objects and arrays in b (valid
// JSON) stays within max levels: the SDK refuses deeper bodies.
func depthAtMost(b []byte, max int) bool {
	depth := 0
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '"':
			i = surface.ValueEnd(b, i) - 1
		case '{', '[':
			if depth++; depth > max {
				return false
			}
		case '}', ']':
			depth--
		}
	}
	return true
}

// writeRPC writes the JSON-RPC response to a call with id: result, or err as
// the error object. Its bytes are the SDK's: the result encoded by
// encoding/json without HTML escaping, an error that is not a *jsonrpc.Error
// as code 0 with its message, and the headers of the SDK's JSON answer.
func writeRPC(w http.ResponseWriter, id []byte, result any, err error) {
	buf := evidence.GetBuffer()
	defer evidence.PutBuffer(buf)
	b := append(append((*buf)[:0], `{"jsonrpc":"2.0","id":`...), id...)
	head := len(b)
	if err == nil {
		b = append(b, `,"result":`...)
		if res, ok := result.(*mcp.CallToolResult); ok && plainToolResult(res) {
			b = appendToolResult(b, res)
		} else if b, err = appendEncoded(b, result); err != nil {
			b = b[:head]
		}
	}
	if err != nil {
		we, ok := errors.AsType[*jsonrpc.Error](err)
		if !ok || we != err {
			// The SDK's toWireError: the message of err, the code of a
			// wrapped *jsonrpc.Error if any.
			code := int64(0)
			if ok {
				code = we.Code
			}
			we = &jsonrpc.Error{Code: code, Message: err.Error()}
		}
		if b, err = appendEncoded(append(b, `,"error":`...), we); err != nil {
			http.Error(w, "internal error", http.StatusInternalServerError)
			return
		}
	}
	b = append(b, '}')
	*buf = b
	h := w.Header()
	h.Set("Cache-Control", "no-cache, no-transform")
	h.Set("Content-Type", "application/json")
	w.Write(b)
}

// appendEncoded appends v as encoding/json writes it without HTML escaping
// (no trailing newline); on failure b is returned as it was.
func appendEncoded(b []byte, v any) ([]byte, error) {
	w := bytes.NewBuffer(b)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return b, err
	}
	out := w.Bytes()
	return out[:len(out)-1], nil // Encode's newline
}

// plainToolResult reports whether res has the shape of every tools/call
// answer except generate_file's: one text block and the canonical JSON as
// structuredContent, and at most the attestation in _meta (attestationMeta).
func plainToolResult(res *mcp.CallToolResult) bool {
	if res.InputRequests != nil || res.RequestState != "" || len(res.Content) != 1 {
		return false
	}
	if res.Meta != nil {
		if _, ok := res.Meta[MetaAttestation].(string); !ok || len(res.Meta) != 1 {
			return false
		}
	}
	if _, ok := res.StructuredContent.(json.RawMessage); !ok {
		return false
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	return ok && tc.Meta == nil && tc.Annotations == nil
}

// appendToolResult writes a plain tools/call result as the SDK does, without
// its three passes of encoding/json over the envelope: CallToolResult's
// MarshalJSON uses json.Marshal, which escapes <, >, &, U+2028 and U+2029 in
// the text block and in the (already compact, canonical) structuredContent.
func appendToolResult(b []byte, res *mcp.CallToolResult) []byte {
	b = append(b, '{')
	if res.Meta != nil {
		// _meta first (CallToolResult's field order), its one key as
		// encoding/json writes a map.
		b = append(appendHTMLString(append(b, `"_meta":{`...), MetaAttestation), ':')
		b = append(appendHTMLString(b, res.Meta[MetaAttestation].(string)), "},"...)
	}
	b = appendHTMLString(append(b, `"content":[{"type":"text","text":`...), res.Content[0].(*mcp.TextContent).Text)
	b = append(b, `}],"structuredContent":`...)
	w := bytes.NewBuffer(b)
	json.HTMLEscape(w, res.StructuredContent.(json.RawMessage))
	b = w.Bytes()
	if res.IsError {
		b = append(b, `,"isError":true`...)
	}
	return append(b, '}')
}

// appendHTMLString writes s as a JSON string exactly as json.Marshal does:
// \" \\ \b \f \n \r \t, other control characters, <, >, &, U+2028 and
// U+2029 as \u00XX / \u20XX, invalid UTF-8 as \ufffd.
func appendHTMLString(b []byte, s string) []byte { return appendJSONString(b, s, &htmlSafe, true) }

// appendJSONString writes s as a JSON string: the ASCII bytes safe marks as
// they are, \" \\ \n \r \t by name, \b and \f by name when named is set, the
// other ASCII bytes as \u00XX, U+2028 and U+2029 as \u2028 and \u2029, each
// byte that is not UTF-8 as \ufffd, every other character as it is.
func appendJSONString(b []byte, s string, safe *[utf8.RuneSelf]bool, named bool) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if safe[c] {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch {
			case c == '"', c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c == '\t':
				b = append(b, '\\', 't')
			case c == '\b' && named:
				b = append(b, '\\', 'b')
			case c == '\f' && named:
				b = append(b, '\\', 'f')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(append(b, s[start:i]...), `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(append(b, s[start:i]...), `\u202`...)
			b = append(b, hex[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	return append(append(b, s[start:]...), '"')
}

// htmlSafe marks the ASCII bytes json.Marshal writes as they are in a
// string: printable, and not ", \, <, > or &.
var htmlSafe = func() (t [utf8.RuneSelf]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()
