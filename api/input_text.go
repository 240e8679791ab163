package api

import (
	"encoding/json"
	"errors"

	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/internal/surface"
)

// invalidTextError maps an *evidence.TextError found in an /invoke body (invalid
// UTF-8 or a lone surrogate escape) to its answer: nil when the bad text is only
// inside "args" (the arguments are the tool's input, and Registry.Call refuses them
// with input_schema_invalid), invalid_request when it is anywhere else.
func invalidTextError(body []byte, err error) *surface.Error {
	var te *evidence.TextError
	if !errors.As(err, &te) {
		return surface.NewError(surface.CodeInvalidRequest, "request body is not valid JSON text: "+err.Error())
	}
	whole := surface.NewError(surface.CodeInvalidRequest, "request body is not valid JSON text: "+te.Error())
	var top map[string]json.RawMessage
	if json.Unmarshal(body, &top) != nil {
		return whole
	}
	args, ok := top["args"]
	if !ok || evidence.CheckText(args) == nil {
		return whole
	}
	for k, raw := range top {
		if k != "args" && evidence.CheckText(raw) != nil {
			return whole
		}
	}
	return nil
}
