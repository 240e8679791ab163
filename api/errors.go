package api

import (
	"github.com/precisiond/precisiond/internal/surface"
	"github.com/precisiond/precisiond/tools"
)

// unknownTool is the error of a route naming a tool the registry does not
// have, with the nearest names as hints.
func (s *Server) unknownTool(name string) *surface.Error {
	te := s.reg.UnknownTool(name)
	return &surface.Error{Code: te.Code, Message: te.Message, Tool: name, Details: te.Details}
}

// ResponseBody is the wire-compatible /invoke success body, with the
// top-level "attestation" beside structured_result when the answer is signed
// (an orchestrator written for the reference ignores it).
func ResponseBody(resp *tools.Response) map[string]any {
	body := map[string]any{
		"result":            resp.Result,
		"tool":              resp.Tool,
		"structured_result": resp.Envelope.Generic(),
	}
	if resp.Attestation != "" {
		body["attestation"] = resp.Attestation
	}
	return body
}
