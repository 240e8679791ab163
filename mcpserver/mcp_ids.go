package mcpserver

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// The MCP SDK decodes a numeric JSON-RPC id to a float64 and then an int64,
// so 1.5 came back as 1, 1e20 as -9223372036854775808 and 9007199254740993
// as …992: a client could match an answer to the wrong request. Such ids
// are refused before the SDK sees them, with a JSON-RPC error that echoes
// the id's JSON text exactly (issue 34).

// maxExactID is the largest integer magnitude a float64 holds exactly (2^53).
const maxExactID = 1 << 53

// idRoundTrips reports whether a JSON-RPC id (its raw JSON text) comes back
// unchanged: anything but a number, or an integer literal (no fraction, no
// exponent, not -0, no leading zero) of magnitude at most 2^53.
func idRoundTrips(id []byte) bool {
	id = bytes.TrimSpace(id)
	if len(id) == 0 || (id[0] != '-' && (id[0] < '0' || id[0] > '9')) {
		return true // a string, null, or not a valid id at all (the SDK refuses those)
	}
	digits := id
	if digits[0] == '-' {
		digits = digits[1:]
	}
	if len(digits) == 0 || (digits[0] == '0' && len(digits) > 1) || string(id) == "-0" {
		return false
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return false
		}
	}
	v, err := strconv.ParseInt(string(id), 10, 64)
	return err == nil && v <= maxExactID && v >= -maxExactID
}

// unexactID returns the raw id of the first message in body (one JSON-RPC
// message or a batch) whose numeric id would not round-trip, or nil.
func unexactID(body []byte) []byte {
	body = bytes.TrimSpace(body)
	type probe struct {
		ID json.RawMessage `json:"id"`
	}
	var msgs []probe
	switch {
	case len(body) > 0 && body[0] == '{':
		var p probe
		if json.Unmarshal(body, &p) != nil {
			return nil
		}
		msgs = []probe{p}
	case len(body) > 0 && body[0] == '[':
		if json.Unmarshal(body, &msgs) != nil {
			return nil
		}
	}
	for _, m := range msgs {
		if m.ID != nil && !idRoundTrips(m.ID) {
			return bytes.TrimSpace(m.ID)
		}
	}
	return nil
}

// unexactIDMessage is the error message of a refused id.
const unexactIDMessage = "Invalid Request: a numeric id must be an integer of at most 2^53 in magnitude (send a string id instead); this one would not come back unchanged"

// idRefusal is the JSON-RPC error answer to a message with a refused id,
// echoing the id's JSON text.
func idRefusal(id []byte) []byte {
	msg, _ := json.Marshal(unexactIDMessage)
	b := append([]byte(`{"jsonrpc":"2.0","id":`), id...)
	b = append(b, `,"error":{"code":`...)
	b = strconv.AppendInt(b, jsonrpc.CodeInvalidRequest, 10)
	b = append(b, `,"message":`...)
	b = append(b, msg...)
	return append(b, "}}"...)
}

// idGuard refuses a POST whose message id would not round-trip (status is
// the HTTP status of the refusal: 200 on Streamable HTTP, where JSON-RPC
// errors travel in the POST's answer; 400 on the legacy SSE transport,
// whose answers otherwise go on the stream) and passes everything else on
// with its body intact.
func idGuard(next http.Handler, maxBody int64, status int) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			next.ServeHTTP(w, r)
			return
		}
		body, ok := readMCPBody(w, r, maxBody)
		if ok && !refuseUnexactID(w, body, status) {
			r.Body = io.NopCloser(bytes.NewReader(body))
			next.ServeHTTP(w, r)
		}
	})
}

// refuseUnexactID answers body with the refusal of its id if it has one
// that would not round-trip, and reports whether it did.
func refuseUnexactID(w http.ResponseWriter, body []byte, status int) bool {
	id := unexactID(body)
	if id == nil {
		return false
	}
	b := idRefusal(id)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	_, _ = w.Write(b)
	return true
}
