package api

import "github.com/precisiond/precisiond/internal/surface"

// addIntentOpenAPI describes POST /v1/intents and POST /v1/answer
// (docs/intents.md).
func addIntentOpenAPI(schemas, paths map[string]any) {
	item := map[string]any{"type": []any{"integer", "null"}, "minimum": 0, "description": "0-based item of a numbered list; null for prose"}
	intent := surface.Closed(surface.Object(props{
		"tool": strSchema("the tool to call"),
		"args": map[string]any{"type": "object", "description": "the exact arguments the user wrote, canonical; they validate against the tool's input schema"},
		"item": item,
		"span": map[string]any{"type": "array", "items": map[string]any{"type": "integer", "minimum": 0}, "minItems": 2, "maxItems": 2, "description": "[start, end) in code points of text"},
		"lang": map[string]any{"type": "string", "enum": []any{"de", "en"}, "description": "language of the phrasing"},
	}, "tool", "args", "item", "span", "lang"))
	decline := surface.Closed(surface.Object(props{
		"item":   item,
		"reason": map[string]any{"type": "string", "description": "ambiguous, relative_date, invalid_value, code_request, mention_not_request, missing_argument, multiple_intents_in_prose, unrecognized, numbering_not_contiguous"},
		"tool":   strSchema("the tool the candidate was for, when that is one tool"),
	}, "item", "reason"))
	version := props{
		"recognizer_version": strSchema("version of the rule set"),
		"recognizer_hash":    map[string]any{"type": "string", "pattern": "^[0-9a-f]{64}$", "description": "SHA-256 over every rule file: the same hash gives the same answer"},
	}
	result := props{"intents": map[string]any{"type": "array", "items": ref("Intent")}, "covered": map[string]any{"type": "boolean", "description": "true only when every part of the text is a recognised intent"},
		"declined": map[string]any{"type": "array", "items": ref("Decline")}}
	for k, v := range version {
		result[k] = v
	}
	answer := props{"answer": strSchema("the deterministic reply, in the request's language, written from the facts only"),
		"covered": map[string]any{"const": true}, "intents": map[string]any{"type": "array", "items": ref("Intent")},
		"results": map[string]any{"type": "array", "items": ref("InvokeResponse"), "description": "one /invoke response per intent, in order"}}
	for k, v := range version {
		answer[k] = v
	}
	notCovered := props{"error": strSchema("message"), "error_code": map[string]any{"const": surface.CodeNotCovered}, "tool": strSchema("empty")}
	for k, v := range result {
		notCovered[k] = v
	}
	schemas["IntentRequest"] = surface.Closed(surface.Object(props{
		"text":  map[string]any{"type": "string", "maxLength": 16384, "description": "the user's request (at most 16384 UTF-8 bytes)"},
		"tools": map[string]any{"type": []any{"array", "null"}, "items": strSchema("a tool name"), "description": "allowlist; absent or null: every tool served"},
	}, "text"))
	schemas["Intent"] = intent
	schemas["Decline"] = decline
	schemas["IntentResult"] = surface.Closed(surface.Object(result, "intents", "covered", "declined", "recognizer_version", "recognizer_hash"))
	schemas["AnswerResult"] = surface.Closed(surface.Object(answer, "answer", "covered", "intents", "results", "recognizer_version", "recognizer_hash"))
	schemas["NotCovered"] = surface.Closed(surface.Object(notCovered, "error", "error_code", "covered", "intents", "declined", "recognizer_version", "recognizer_hash"))
	example := map[string]any{"text": "Berechne den GGT von 391 und 299."}
	body := jsonBody(ref("IntentRequest"))
	body["content"].(map[string]any)["application/json"].(map[string]any)["example"] = example
	paths["/v1/intents"] = map[string]any{"post": op("intents", "Recognise the exact tool calls a user's request asks for (deterministic, fail-closed; docs/intents.md).",
		body, responsesOf(map[string]any{"200": jsonResp("the intents, what was declined and whether the request is covered", ref("IntentResult"))}, "400", "404", "413", "415"))}
	paths["/v1/answer"] = map[string]any{"post": op("answer", "Answer a covered request without a model: each intent through /v1/invoke's path, and the deterministic reply.",
		body, responsesOf(map[string]any{"200": jsonResp("the answer and one envelope per intent", ref("AnswerResult")),
			"422": jsonResp("not_covered (with the intents and declines found), or a tool-level error", map[string]any{"oneOf": []any{ref("NotCovered"), ref("Error")}})},
			"400", "403", "404", "413", "415", "500", "503", "504"))}
}
