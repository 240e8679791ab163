package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/precisiond/precisiond/internal/defaults"
	"github.com/precisiond/precisiond/internal/surface"
	"github.com/precisiond/precisiond/tools"
)

// ServeStdio serves the registry over MCP on one stream pair (newline-
// delimited JSON-RPC, `precisiond mcp`) until in ends or ctx is done: the
// full surface, or the compact one when opts.Surface is SurfaceCompact.
// Nothing but protocol messages is written to out; logs go to opts.Logger.
//
// The framing is this package's own rather than the SDK's stdio transport, for
// two guarantees: every request read before in ends is answered before
// ServeStdio returns (the SDK cancels requests in flight at EOF), and a line
// that is not a JSON-RPC message is answered with a JSON-RPC error (-32700 parse
// error, or -32600 invalid request for valid JSON that is not a message, a batch
// or a line longer than opts.MaxBodyBytes) while the session goes on.
func ServeStdio(ctx context.Context, reg *tools.Registry, opts Options, in io.Reader, out io.Writer) error {
	opts = opts.withDefaults()
	var server *mcp.Server
	drain := reg.Timeout()
	switch opts.Surface {
	case "", SurfaceFull:
		server = newMCPSurface(reg, opts).server
	case SurfaceCompact:
		if opts.Plans == nil {
			return errors.New("the compact MCP surface needs a plan service (Options.Plans)")
		}
		server, _ = newCompactServer(surface.PlanOps{Reg: reg, Svc: opts.Plans, Log: opts.Logger}, opts)
		drain = max(drain, opts.Plans.Options().Timeout)
	default:
		return fmt.Errorf("unknown MCP surface %q (full or compact)", opts.Surface)
	}
	conn := newStdioConn(in, out, int(opts.MaxBodyBytes), drain+5*time.Second)
	err := server.Run(ctx, stdioTransport{conn})
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, io.EOF) {
		return nil
	}
	return err
}

type stdioTransport struct{ c *stdioConn }

func (t stdioTransport) Connect(context.Context) (mcp.Connection, error) { return t.c, nil }

// stdioConn is an mcp.Connection over newline-delimited JSON-RPC.
type stdioConn struct {
	out   io.Writer
	drain time.Duration // longest wait at EOF for the answers still owed

	writeMu sync.Mutex
	lines   chan readItem // from the reader goroutine, in order
	closed  chan struct{}
	once    sync.Once

	mu       sync.Mutex
	pending  map[jsonrpc.ID]bool // requests handed to the server and not yet answered
	answered chan struct{}       // a pending request was answered (capacity 1)
}

type readItem struct {
	msg jsonrpc.Message
	err error // io.EOF or the read error that ended the input
}

func newStdioConn(in io.Reader, out io.Writer, maxLine int, drain time.Duration) *stdioConn {
	defaults.Positive(&maxLine, 1<<20)
	c := &stdioConn{
		out: out, drain: drain,
		lines:    make(chan readItem),
		closed:   make(chan struct{}),
		pending:  map[jsonrpc.ID]bool{},
		answered: make(chan struct{}, 1),
	}
	go c.readLoop(bufio.NewReaderSize(in, 64<<10), maxLine)
	return c
}

// readLoop reads lines, answers the malformed ones itself and passes messages on.
// It never holds more than maxLine bytes of one line.
func (c *stdioConn) readLoop(r *bufio.Reader, maxLine int) {
	for {
		line, tooLong, err := readLine(r, maxLine)
		if tooLong {
			c.writeError(jsonrpc.ID{}, jsonrpc.CodeInvalidRequest, fmt.Sprintf("Invalid Request: line longer than %d bytes", maxLine))
		} else if line = bytes.TrimSpace(line); len(line) > 0 {
			if msg, ok := c.decode(line); ok && !c.send(readItem{msg: msg}) {
				return
			}
		}
		if err != nil {
			c.send(readItem{err: err})
			return
		}
	}
}

// readLine returns the next line without its newline; tooLong reports a line of
// more than max bytes, whose content is discarded as it is read.
func readLine(r *bufio.Reader, max int) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > max+1 { // +1: the newline itself
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return line, tooLong, err
	}
}

// decode turns one line into a message, or answers it with a JSON-RPC error.
func (c *stdioConn) decode(line []byte) (jsonrpc.Message, bool) {
	msg, err := jsonrpc.DecodeMessage(line)
	if err == nil {
		if id := unexactID(line); id != nil {
			_ = c.writeLine(idRefusal(id)) // mcpserver/mcp_ids.go
			return nil, false
		}
		return msg, true
	}
	if !json.Valid(line) {
		c.writeError(jsonrpc.ID{}, jsonrpc.CodeParseError, "Parse error: the line is not valid JSON")
		return nil, false
	}
	var probe struct {
		ID any `json:"id"`
	}
	id := jsonrpc.ID{}
	if line[0] == '{' && json.Unmarshal(line, &probe) == nil {
		if v, err := jsonrpc.MakeID(probe.ID); err == nil {
			id = v
		}
	}
	msgText := "Invalid Request: not a JSON-RPC 2.0 message"
	if line[0] == '[' {
		msgText = "Invalid Request: batches are not supported"
	}
	c.writeError(id, jsonrpc.CodeInvalidRequest, msgText)
	return nil, false
}

func (c *stdioConn) send(it readItem) bool {
	select {
	case c.lines <- it:
		return true
	case <-c.closed:
		return false
	}
}

// Read returns the next message. At the end of the input it waits until every
// request already passed on has been answered (at most the drain time), so that
// the server does not cancel them, then reports io.EOF.
//
// A request whose id is that of a request still in progress is answered
// here with -32600 and never reaches the server: the SDK would drop it
// silently (issue 34: 200 calls reusing one id got 31 answers).
func (c *stdioConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	var it readItem
	for {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-c.closed:
			return nil, io.EOF
		case it = <-c.lines:
		}
		if it.err != nil {
			break
		}
		req, ok := it.msg.(*jsonrpc.Request)
		if !ok || !req.ID.IsValid() {
			return it.msg, nil
		}
		c.mu.Lock()
		dup := c.pending[req.ID]
		c.pending[req.ID] = true
		c.mu.Unlock()
		if !dup {
			return it.msg, nil
		}
		c.writeError(req.ID, jsonrpc.CodeInvalidRequest, "Invalid Request: this id is already used by a request in progress; use a new id for each request")
	}
	deadline := time.NewTimer(c.drain)
	defer deadline.Stop()
	for {
		c.mu.Lock()
		n := len(c.pending)
		c.mu.Unlock()
		if n == 0 {
			break
		}
		select {
		case <-c.answered:
		case <-deadline.C:
			return nil, it.err
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-c.closed:
			return nil, it.err
		}
	}
	return nil, it.err
}

// Write writes one message as a line.
func (c *stdioConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("encoding a JSON-RPC message: %w", err)
	}
	if err := c.writeLine(data); err != nil {
		return err
	}
	if resp, ok := msg.(*jsonrpc.Response); ok {
		c.mu.Lock()
		delete(c.pending, resp.ID)
		c.mu.Unlock()
		select {
		case c.answered <- struct{}{}:
		default:
		}
	}
	return nil
}

func (c *stdioConn) writeLine(data []byte) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	_, err := c.out.Write(append(data, '\n'))
	return err
}

// writeError answers a line the server never sees. Without a usable id the
// answer carries "id": null, as JSON-RPC 2.0 requires (the SDK's encoder would
// leave the member out).
func (c *stdioConn) writeError(id jsonrpc.ID, code int64, message string) {
	if !id.IsValid() {
		msg, _ := json.Marshal(message)
		_ = c.writeLine(fmt.Appendf(nil, `{"jsonrpc":"2.0","id":null,"error":{"code":%d,"message":%s}}`, code, msg))
		return
	}
	data, err := jsonrpc.EncodeMessage(&jsonrpc.Response{ID: id, Error: &jsonrpc.Error{Code: code, Message: message}})
	if err != nil {
		return
	}
	_ = c.writeLine(data)
}

// Close stops reading; the streams themselves belong to the caller.
func (c *stdioConn) Close() error {
	c.once.Do(func() { close(c.closed) })
	return nil
}

// SessionID is empty: a stream pair is one session.
func (c *stdioConn) SessionID() string { return "" }
