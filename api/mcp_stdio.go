package api

import (
	"context"
	"errors"
	"io"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/precisiond/precisiond/tools"
)

// ServeMCPStdio serves the registry over MCP on one stream pair (newline-
// delimited JSON-RPC, `precisiond mcp`) until in ends or ctx is done. Nothing
// but protocol messages is written to out; logs go to opts.Logger. A line longer
// than opts.MaxBodyBytes ends the session, as an oversized body is refused over
// HTTP.
func ServeMCPStdio(ctx context.Context, reg *tools.Registry, opts MCPOptions, in io.Reader, out io.Writer) error {
	s := newMCPSurface(reg, opts)
	err := s.server.Run(ctx, &mcp.IOTransport{
		Reader:        io.NopCloser(in),
		Writer:        nopWriteCloser{out},
		MaxLineLength: int(s.opts.MaxBodyBytes),
	})
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, io.EOF) {
		return nil
	}
	return err
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
