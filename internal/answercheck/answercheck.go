// Package answercheck verifies a saved answer of the service offline, as
// `precisiond verify` does: the envelope's hashes against a catalogue, the
// legacy text re-rendered by this binary's tools, and the attestation.
package answercheck

import (
	"crypto/tls"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/internal/attest"
	"github.com/precisiond/precisiond/tools"
)

// SavedAnswer is an answer read back for verification (precisiond verify):
// an /invoke response, a bare structured_result, or an MCP tools/call
// result, whose attestation is in its _meta.
type SavedAnswer struct {
	// Doc is the whole document.
	Doc map[string]any
	// Envelope is its structured_result (Doc itself for a bare one).
	Envelope map[string]any
	// Attestation is the JWS that came with it; nil without one.
	Attestation any
}

// ParseSavedAnswer reads a saved answer; the error says the input is not a
// JSON object.
func ParseSavedAnswer(in []byte) (SavedAnswer, error) {
	v, err := evidence.ParseJSON(in)
	doc, ok := v.(map[string]any)
	if err != nil || !ok {
		return SavedAnswer{}, fmt.Errorf("not a JSON object")
	}
	a := SavedAnswer{Doc: doc, Envelope: doc, Attestation: doc["attestation"]}
	if inner, ok := doc["structured_result"].(map[string]any); ok {
		a.Envelope = inner
	} else if inner, ok := doc["structuredContent"].(map[string]any); ok {
		a.Envelope = inner
		meta, _ := doc["_meta"].(map[string]any)
		a.Attestation = meta[attest.MCPMetaKey]
	}
	return a, nil
}

// IsPlanRun reports whether the answer is a plan run ({"plan_id", "runs"}),
// which plans.VerifyRun checks.
func (a SavedAnswer) IsPlanRun() bool {
	_, ok := a.Doc["runs"]
	return ok
}

// Tool is the tool the envelope names.
func (a SavedAnswer) Tool() string {
	tool, _ := a.Envelope["tool"].(string)
	return tool
}

// AnswerCheck is what VerifyAnswer checked.
type AnswerCheck struct {
	Tool, ContractHash, ResultHash string
	// TextChecked: the legacy result text was re-rendered and matched; false
	// when the answer had none.
	TextChecked bool
	// SignedBy names the key that signed (attest.Checker.Result); empty
	// without a checker.
	SignedBy string
}

// Report is `precisiond verify`'s OK line of c.
func (c AnswerCheck) Report() string {
	checked := "no result text"
	if c.TextChecked {
		checked = "result text re-rendered"
	}
	return fmt.Sprintf("OK: %s contract_hash %s result_hash %s (%s)%s", c.Tool, c.ContractHash, c.ResultHash, checked, c.SignedBy)
}

// VerifyAnswer rechecks a saved answer offline: the contract_hash against
// the catalogue entry of its tool, the result_hash, the facts against the
// output schema (evidence.Verify), the legacy result text, which local (the
// registry of this binary, built only when there is a text) must re-render
// identically from input_normalized and facts, and with sig (not nil) the
// attestation. The error names the first check that failed.
func VerifyAnswer(a SavedAnswer, catalog []any, local func() (*tools.Registry, error), sig *attest.Checker) (AnswerCheck, error) {
	tool := a.Tool()
	var entry map[string]any
	for _, t := range catalog {
		if m, ok := t.(map[string]any); ok && m["name"] == tool {
			entry = m
		}
	}
	if entry == nil {
		return AnswerCheck{}, fmt.Errorf("tool %q is not in the catalogue", tool)
	}
	sr := a.Envelope
	if err := evidence.Verify(sr, entry); err != nil {
		return AnswerCheck{}, err
	}
	c := AnswerCheck{Tool: tool, ContractHash: fmt.Sprint(sr["contract_hash"]), ResultHash: fmt.Sprint(sr["result_hash"])}
	if _, has := a.Doc["result"]; has {
		if err := checkResultText(a.Doc, sr, tool, local); err != nil {
			return AnswerCheck{}, err
		}
		c.TextChecked = true
	}
	if sig != nil {
		var err error
		if c.SignedBy, err = sig.Result(a.Attestation, sr); err != nil {
			return AnswerCheck{}, err
		}
	}
	return c, nil
}

// checkResultText re-renders the legacy result text of a response from its
// envelope with this binary's tool and compares. The envelope's hashes are
// already verified, so input_normalized and facts are what the tool answered.
func checkResultText(doc, sr map[string]any, tool string, local func() (*tools.Registry, error)) error {
	text, ok := doc["result"].(string)
	if !ok {
		return fmt.Errorf("result is not a string")
	}
	if t, ok := doc["tool"]; ok && t != tool {
		return fmt.Errorf("tool %v differs from the envelope's %q", t, tool)
	}
	reg, err := local()
	if err != nil {
		return err
	}
	if _, hash, known := reg.Lookup(tool); !known || hash != sr["contract_hash"] {
		return fmt.Errorf("the result text cannot be checked: this binary does not have contract %v of %s (verify with the binary that answered)", sr["contract_hash"], tool)
	}
	input, _ := sr["input_normalized"].(map[string]any)
	facts, _ := sr["facts"].(map[string]any)
	want, err := reg.Render(tool, input, facts)
	if err != nil {
		return fmt.Errorf("re-rendering the result text of %s: %v", tool, err)
	}
	if text != want && !signedLinkOnly(text, want, facts) {
		return fmt.Errorf("result text differs from what the facts say:\n  result: %s\n  facts:  %s", text, want)
	}
	return nil
}

// signedLinkOnly reports whether text is want with a download link's
// signature (?exp=UNIX&sig=MAC) after the link it ends with: with API tokens
// on, the service prints the signed link in the result text, so that it
// opens in a browser. The signature itself is not checked here (only the
// service holds its key); everything else must match.
func signedLinkOnly(text, want string, facts map[string]any) bool {
	dp, _ := facts["download_path"].(string)
	rest, ok := strings.CutPrefix(text, want)
	if dp == "" || !ok || !strings.HasSuffix(want, dp) {
		return false
	}
	exp, sig, ok := strings.Cut(strings.TrimPrefix(rest, "?exp="), "&sig=")
	if !ok || !strings.HasPrefix(rest, "?exp=") || exp == "" || len(sig) != 43 {
		return false
	}
	for _, c := range exp {
		if c < '0' || c > '9' {
			return false
		}
	}
	for _, c := range sig { // base64url of an HMAC-SHA256, unpadded
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// LoadCatalog is the list of catalogue entries to verify against: a saved
// GET /tools response in file, else the one of the server at baseURL
// (bearer, when not empty, is an API token for it), else own's catalogue,
// each entry round-tripped through JSON so that it is generic like a
// fetched one.
func LoadCatalog(file, baseURL, bearer string, own func() (*tools.Registry, error)) ([]any, error) {
	var data []byte
	switch {
	case file != "":
		b, err := os.ReadFile(file)
		if err != nil {
			return nil, err
		}
		data = b
	case baseURL != "":
		b, err := Fetch(strings.TrimSuffix(baseURL, "/")+"/tools", bearer, false)
		if err != nil {
			return nil, err
		}
		data = b
	default:
		reg, err := own()
		if err != nil {
			return nil, err
		}
		out := []any{}
		for _, t := range reg.Catalog().Tools {
			b, _ := evidence.Canonical(t)
			g, _ := evidence.ParseJSON(b)
			out = append(out, g)
		}
		return out, nil
	}
	v, err := evidence.ParseJSON(data)
	if err != nil {
		return nil, fmt.Errorf("catalogue is not JSON: %v", err)
	}
	m, _ := v.(map[string]any)
	list, ok := m["tools"].([]any)
	if !ok {
		return nil, fmt.Errorf("catalogue has no tools list")
	}
	return list, nil
}

// FetchTimeout bounds one request of Fetch (a variable so that a test on a
// loaded machine can give it longer).
var FetchTimeout = 5 * time.Second

// Fetch is the client commands' GET of url (FetchTimeout, at most 64 MiB of body)
// with an optional bearer token; a status other than 200 is an error that
// comes with the body. skipVerify accepts any server certificate: only for
// `precisiond health`, which probes its own container's server on an
// address its certificate need not name, and reads nothing but the status.
func Fetch(url, bearer string, skipVerify bool) ([]byte, error) {
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	if bearer != "" {
		req.Header.Set("Authorization", "Bearer "+bearer)
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	if skipVerify {
		tr.TLSClientConfig = &tls.Config{InsecureSkipVerify: true} // see above
	}
	resp, err := (&http.Client{Timeout: FetchTimeout, Transport: tr}).Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return b, fmt.Errorf("%s answered %s", url, resp.Status)
	}
	return b, nil
}

// Health is `precisiond health`'s probe of a server's /health at url: nil
// when it answers status ok. skipVerify: see Fetch.
func Health(url string, skipVerify bool) error {
	b, err := Fetch(url, "", skipVerify)
	if err != nil {
		return err
	}
	v, err := evidence.ParseJSON(b)
	if m, _ := v.(map[string]any); err != nil || m["status"] != "ok" {
		return fmt.Errorf("unhealthy: %s", b)
	}
	return nil
}

// LoadKeySet reads the key set that --jwks names: a file, or a URL; a URL
// without a path is a server's base URL, whose key set is at
// attest.JWKSPath. The key set is public: no token is sent.
func LoadKeySet(arg string) (*attest.KeySet, error) {
	var data []byte
	var err error
	if strings.HasPrefix(arg, "http://") || strings.HasPrefix(arg, "https://") {
		u, perr := url.Parse(arg)
		if perr != nil {
			return nil, fmt.Errorf("--jwks %q: %v", arg, perr)
		}
		if strings.Trim(u.Path, "/") == "" {
			u.Path = attest.JWKSPath
		}
		data, err = Fetch(u.String(), "", false)
	} else {
		data, err = os.ReadFile(arg)
	}
	if err != nil {
		return nil, fmt.Errorf("--jwks: %w", err)
	}
	keys, err := attest.ParseJWKS(data)
	if err != nil {
		return nil, fmt.Errorf("--jwks %s: %w", arg, err)
	}
	return keys, nil
}
