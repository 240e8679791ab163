package api

import (
	"encoding/json"
	"errors"

	"github.com/precisiond/precisiond/contracts"
	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/tools"
)

// invalidTextError maps an *evidence.TextError from parsing an /invoke body (invalid
// UTF-8 or a lone surrogate escape) to its answer: input_schema_invalid when the
// bad text is inside "args" and the rest of the body is clean (the arguments are
// the tool's input), invalid_request when it is anywhere else. It returns nil when
// err is not a TextError.
func invalidTextError(body []byte, err error) *apiError {
	var te *evidence.TextError
	if !errors.As(err, &te) {
		return nil
	}
	whole := newError(CodeInvalidRequest, "request body is not valid JSON text: "+te.Error())
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
	var tool string
	if raw, ok := top["tool"]; ok && json.Unmarshal(raw, &tool) != nil {
		return whole
	}
	return argsTextError(tool, te)
}

// argsTextError is the input_schema_invalid answer for arguments that carry text
// without an exact Unicode value.
func argsTextError(tool string, te *evidence.TextError) *apiError {
	msg := "arguments contain " + te.Error()
	return &apiError{Code: tools.CodeInputSchemaInvalid, Reason: te.Reason, Message: msg, Tool: tool,
		Details: []contracts.Detail{{Path: "", Keyword: "encoding", Message: msg}}}
}
