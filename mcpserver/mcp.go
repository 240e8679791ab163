// Package mcpserver is the MCP surface of the tool registry (docs/mcp.md):
// every tool over Streamable HTTP (/mcp), the 2024-11-05 HTTP+SSE transport
// (/mcp/sse) and stdio, and the compact surface of four plan tools
// (/mcp/compact), on the go-sdk, with a framing of its own for the hot
// stateless POSTs (mcp_fast.go). Package api mounts it (Mount) and lends it
// the server's access control (Access); it never imports api.
package mcpserver

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"path"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/precisiond/precisiond/contracts"
	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/internal/access"
	"github.com/precisiond/precisiond/internal/attest"
	"github.com/precisiond/precisiond/internal/defaults"
	"github.com/precisiond/precisiond/internal/filestore"
	"github.com/precisiond/precisiond/internal/surface"
	"github.com/precisiond/precisiond/plans"
	"github.com/precisiond/precisiond/tools"
)

// Options configure the MCP surface (docs/mcp.md). Zero values mean the
// documented defaults.
type Options struct {
	// Logger receives one line per tool call and the SDK's warnings; nil discards.
	Logger *slog.Logger
	// Files is generate_file's download store, served as MCP resources; nil:
	// resources/list is empty and reads answer "resource not found".
	Files *filestore.Store
	// DownloadURL, when not nil, is the absolute download link of a stored
	// file (--public-base-url), named in resource descriptions and the
	// resource links of generate_file results; nil: /downloads/<name>.
	DownloadURL func(name string) string
	// PublicBaseURL is the absolute URL clients reach the service at
	// (--public-base-url). With it, tools/list names each tool's group icon
	// (<base>/icons/<group>.svg) to clients of protocol 2025-11-25 or later
	// (the compact surface's tools have none: mcpserver/icons.go); empty (or
	// invalid): no tool icons, as an icon needs an absolute URL.
	PublicBaseURL string
	// PageSize bounds tools/list and resources/list pages (default 100).
	PageSize int
	// Version is reported as serverInfo.version.
	Version string
	// MaxBodyBytes limits one HTTP request body (/mcp, /mcp/sse) or one stdio
	// line; default 1 MiB, as REST.
	MaxBodyBytes int64
	// AllowedHosts are extra Host names (besides loopback) the HTTP transports
	// accept, in Host and Origin headers: "name" (any port) or "name:port";
	// "*" turns the check off (only behind a proxy that checks hosts itself).
	AllowedHosts []string
	// MaxSSEStreams bounds the /mcp/sse streams open at once; more get 503
	// overloaded (default DefaultMaxSSEStreams).
	MaxSSEStreams int
	// SSEIdleTimeout closes a /mcp/sse stream whose client sent no message for
	// this long (default DefaultSSEIdleTimeout).
	SSEIdleTimeout time.Duration
	// SSEMaxLifetime closes any /mcp/sse stream after this long; clients
	// reconnect (default DefaultSSEMaxLifetime).
	SSEMaxLifetime time.Duration
	// ListChangedInterval is the least time between two list_changed
	// notifications of one kind; changes in between are coalesced into one
	// (default DefaultListChangedInterval).
	ListChangedInterval time.Duration
	// Surface selects what ServeStdio serves: SurfaceFull (the default,
	// every tool) or SurfaceCompact (mcpserver/mcp_compact.go; needs Plans). Over
	// HTTP both are mounted, at /mcp and /mcp/compact.
	Surface string
	// Plans runs the compact surface's plans over stdio; over HTTP the
	// server's Options.Plans does (nil there: /mcp/compact is not mounted).
	Plans *plans.Service

	// SDKOnly turns the fast path of /mcp and /mcp/compact (mcp_fast.go)
	// off: the go-sdk's handlers serve every request. The answers are the
	// same bytes (tests compare the two paths), only slower.
	SDKOnly bool
}

// The MCP surfaces.
const (
	SurfaceFull    = "full"    // every enabled tool (/mcp)
	SurfaceCompact = "compact" // list_tools, describe_tools, run_plan, rerun_plan (/mcp/compact)
)

// DefaultPageSize is the page size of tools/list and resources/list.
const DefaultPageSize = 100

// URI schemes of the MCP resources.
const (
	// DownloadURIPrefix + file name is a generated file (generate_file).
	DownloadURIPrefix = "precisiond://downloads/"
	// ContractURIPrefix + tool name is that tool's catalogue entry (GET /tools/{name}).
	ContractURIPrefix = "precisiond://contracts/"
)

// Instructions are sent to clients in the initialize result.
const Instructions = `precisiond answers exact questions (arithmetic, equations, dates and time zones, money, probabilities, units, hashes, subnets, structured data) with deterministic code. Prefer these tools to mental arithmetic whenever exactness matters.
Every tool has a versioned contract: its inputSchema documents each argument, its description the exact semantics, and the resource precisiond://contracts/<tool> holds the whole contract with worked examples.
Pass every argument explicitly (do not rely on defaults you have not read), numbers as JSON numbers or the decimal strings the schema asks for.
A successful result is an evidence envelope: facts plus contract_hash and result_hash (SHA-256 over canonical JSON). Quote the facts as returned and cite result_hash so the answer can be re-verified.
An error result (isError) carries error_code and reason: fix the arguments for input_schema_invalid, tool_execution_error, tool_result_error or wrong_arguments; do not retry unchanged.
Use the prompt precision_guide for the full guidance.`

// precisionGuide is the text of the precision_guide prompt.
const precisionGuide = `You have access to precisiond, a service of exact, deterministic tools. Use it like this:

1. Discover: list the tools (tools/list). Each tool's description says exactly what it computes, in which units, and where its limits are. Pick the tool whose contract matches the question; do not approximate in your head what a tool can compute exactly.
2. Read the contract: the inputSchema names every argument with its type, pattern, range and default; the resource precisiond://contracts/<tool> has the full contract including worked examples with their exact facts. Calendar, time-zone and money tools are strict about formats (YYYY-MM-DD, IANA zone names, canonical decimal strings).
3. Call with explicit values: pass every argument you rely on explicitly, even when it has a default (locale, rounding, scale, operation). Send big integers and decimals exactly as the schema asks; never round them first.
4. Read the result: structuredContent is the evidence envelope {status, tool, contract_id, contract_version, contract_hash, input_normalized, facts, determinism, source, warnings, result_hash}. Base the answer only on facts; mention any warnings.
5. Cite: quote the facts you use verbatim and cite the result_hash (and tool name), so that anyone can recompute it with "precisiond verify".
6. On an error result (isError true) read error_code and reason: input_schema_invalid means the arguments break the schema (details name the JSON Pointer path; a detail with keyword did_you_mean names a value that was probably meant); tool_execution_error, tool_result_error, wrong_arguments and cost_limit_exceeded mean the input is outside the tool's domain or limits. Correct the input or explain the refusal; never invent a result.
7. Files: generate_file returns a resource link (precisiond://downloads/<name>); read it with resources/read or download it from /downloads/<name>.`

// mcpSurface is the state behind one mcp.Server: the registry and the
// pre-built MCP tool descriptions in catalogue order.
type mcpSurface struct {
	reg    *tools.Registry
	opts   Options
	log    *slog.Logger
	server *mcp.Server
	tools  []*mcp.Tool // catalogue order
	index  map[string]int
	// iconTools are tools with their group's icon, for clients of protocol
	// iconsSince or later; nil without a public base URL.
	iconTools []*mcp.Tool

	downloads *mcp.ResourceTemplate

	// access, when the tools need a token (Mount), is the server's access
	// control, which the handlers enforce on the caller in the context
	// (surface.Principal): its scope on tools/list and tools/call, its own
	// files on resources. nil: tokens off, or stdio.
	access Access

	// Coalesced list_changed notifications (see coalescer).
	resourcesChanged, toolsChanged *coalescer
}

// withDefaults fills in the documented defaults of zero options.
func (opts Options) withDefaults() Options {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	defaults.Positive(&opts.PageSize, DefaultPageSize)
	defaults.Positive(&opts.MaxBodyBytes, 1<<20)
	if opts.Version == "" {
		opts.Version = "dev"
	}
	defaults.Positive(&opts.ListChangedInterval, DefaultListChangedInterval)
	return opts
}

// iconBase is the public base URL the tools' icons are named under, "" when
// there is none or it is not valid (the configuration refused it already).
func (opts Options) iconBase() string {
	if opts.PublicBaseURL == "" {
		return ""
	}
	b, err := surface.PublicBase(opts.PublicBaseURL)
	if err != nil {
		return ""
	}
	return b
}

// newMCPSurface builds the one MCP server of a registry: every tool with its
// contract's inputSchema, an outputSchema describing the evidence envelope, title
// and annotations; calls run through Registry.Call. tools/list pages through the
// enabled tools in catalogue order; a change of the enabled state sends
// notifications/tools/list_changed to every connected session. Generated files
// are resources, and the prompt precision_guide tells a model how to use the tools.
func newMCPSurface(reg *tools.Registry, opts Options) *mcpSurface {
	opts = opts.withDefaults()
	m := &mcpSurface{reg: reg, opts: opts, log: opts.Logger, index: map[string]int{}}
	m.resourcesChanged = newCoalescer(opts.ListChangedInterval, func() {
		// Re-registering the (identical) template makes the SDK send
		// notifications/resources/list_changed to connected sessions.
		m.server.AddResourceTemplate(m.downloads, m.readDownload)
	})
	m.toolsChanged = newCoalescer(opts.ListChangedInterval, m.reRegisterTools)
	m.server = mcp.NewServer(&mcp.Implementation{Name: "precisiond", Title: "precisiond — exact answers with evidence", Version: opts.Version, Icons: serverIcons},
		&mcp.ServerOptions{
			Instructions: Instructions,
			Logger:       slog.New(minLevel{opts.Logger.Handler(), slog.LevelWarn}),
			PageSize:     opts.PageSize,
			// No "logging" capability: this server sends no log messages.
			Capabilities: &mcp.ServerCapabilities{},
			SetCacheable: m.setCacheable,
		})
	base := opts.iconBase()
	for _, name := range reg.Names() {
		t, _, _ := reg.Lookup(name)
		mt, err := mcpTool(t.Contract, reg)
		if err != nil {
			panic(fmt.Sprintf("mcpserver: MCP description of %s: %v", name, err)) // contracts are checked at start-up
		}
		m.index[name] = len(m.tools)
		m.tools = append(m.tools, mt)
		if base != "" {
			it := *mt
			it.Icons = groupIcons(base, t.Contract.Group)
			m.iconTools = append(m.iconTools, &it)
		}
		// Every tool stays registered with the SDK, enabled or not: a call to a
		// disabled tool must answer tool_disabled (from Registry.Call, at the
		// same instant as REST), not "unknown tool". tools/list filters.
		m.server.AddTool(mt, m.callTool)
	}
	m.downloads = &mcp.ResourceTemplate{
		Name:        "generated_file",
		Title:       "File made by generate_file",
		Description: "A file generated by generate_file, by its content-addressed name (<12 hex of sha256>_<name>.<ext>); kept for the download TTL.",
		URITemplate: DownloadURIPrefix + "{name}",
	}
	m.server.AddResourceTemplate(m.downloads, m.readDownload)
	m.server.AddResourceTemplate(&mcp.ResourceTemplate{
		Name:        "contract",
		Title:       "Tool contract",
		Description: "The catalogue entry of one tool (as GET /tools/{name}): schemas, limits, policies, contract_hash and worked examples.",
		URITemplate: ContractURIPrefix + "{tool}",
		MIMEType:    "application/json",
	}, m.readContract)
	m.server.AddPrompt(&mcp.Prompt{
		Name:        "precision_guide",
		Title:       "How to use precisiond's exact tools",
		Description: "Guidance for a model: discover the tools, read the contract, call with explicit values, cite result_hash.",
		Arguments: []*mcp.PromptArgument{{
			Name:        "task",
			Description: "Optional: the question to answer with the tools; appended to the guide.",
		}},
	}, m.getPrompt)
	m.server.AddReceivingMiddleware(bindCallContext, progressMiddleware, m.middleware, iconsByVersion) // the first is the outermost
	reg.OnChange(m.enabledChanged)
	return m
}

// enabledChanged makes every connected session get (coalesced)
// notifications/tools/list_changed. The state itself is read from the registry
// on every list and call, so it is visible before the notification.
func (m *mcpSurface) enabledChanged() { m.toolsChanged.trigger() }

// reRegisterTools re-registers every tool (an identical replacement), which makes
// the SDK send notifications/tools/list_changed to every connected session.
func (m *mcpSurface) reRegisterTools() {
	for _, t := range m.tools {
		m.server.AddTool(t, m.callTool)
	}
}

// middleware serves tools/list and resources/list itself: the SDK lists features
// sorted by name, but tools/list must follow the catalogue order and show only
// enabled tools, and resources/list must reflect the download store at this
// moment.
func (m *mcpSurface) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch r := req.(type) {
		case *mcp.ListToolsRequest:
			if method == "tools/list" {
				return m.listTools(ctx, r, sessionProtocol(r.Session))
			}
		case *mcp.ListResourcesRequest:
			if method == "resources/list" {
				return m.listResources(ctx, r)
			}
		case *mcp.CallToolRequest:
			// The SDK refuses a name it does not know before callTool runs;
			// callTool answers it with the registry's hints.
			if method == "tools/call" {
				res, err := m.callTool(ctx, r)
				if err != nil {
					return nil, err
				}
				return res, nil
			}
		}
		return next(ctx, method, req)
	}
}

// pageCursor encodes the position after which the next page starts. Cursors are
// opaque to clients; a stale one (a name that no longer exists) is refused.
func pageCursor(after string) string {
	return base64.RawURLEncoding.EncodeToString([]byte("after:" + after))
}

func parseCursor(c string) (string, error) {
	b, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil || !strings.HasPrefix(string(b), "after:") {
		return "", &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "invalid cursor"}
	}
	return strings.TrimPrefix(string(b), "after:"), nil
}

// caller is the API token a request runs under when the surface enforces
// tokens, else nil.
func (m *mcpSurface) caller(ctx context.Context) *access.Token {
	if m.access == nil {
		return nil
	}
	return surface.Principal(ctx)
}

// listTools is a page of the enabled tools in catalogue order; a caller's
// token sees those of the page in its scope. A client of protocol version
// (as negotiated) iconsSince or later gets the tools' icons, when there are.
func (m *mcpSurface) listTools(ctx context.Context, req *mcp.ListToolsRequest, version string) (*mcp.ListToolsResult, error) {
	all := m.tools
	if m.iconTools != nil && iconsFor(version) {
		all = m.iconTools
	}
	start := 0
	if req.Params != nil && req.Params.Cursor != "" {
		after, err := parseCursor(req.Params.Cursor)
		if err != nil {
			return nil, err
		}
		i, ok := m.index[after]
		if !ok {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "invalid cursor"}
		}
		start = i + 1
	}
	res := &mcp.ListToolsResult{Tools: []*mcp.Tool{}}
	for i := start; i < len(all); i++ {
		if !m.reg.Enabled(all[i].Name) {
			continue
		}
		if len(res.Tools) == m.opts.PageSize {
			res.NextCursor = pageCursor(res.Tools[len(res.Tools)-1].Name)
			break
		}
		res.Tools = append(res.Tools, all[i])
	}
	if t := m.caller(ctx); t != nil {
		res.Tools = slices.DeleteFunc(res.Tools, func(tool *mcp.Tool) bool { return !t.Allows(tool.Name) })
	}
	res.Cacheable = mcp.Cacheable{TTLMs: int(toolsListTTL / time.Millisecond), CacheScope: m.cacheScope()}
	return res, nil
}

// The cache hints of MCP results (ttlMs, cacheScope; docs/mcp.md).
const (
	// toolsListTTL: the tool list changes only when a tool is switched on or
	// off (notifications/tools/list_changed tells sessions at once).
	toolsListTTL = time.Minute
	// staticListTTL: prompts, resource templates and the compact surface's
	// four tools are fixed for the life of the process.
	staticListTTL = time.Hour
)

// cacheScope is "private" when the surface answers each token with its own
// view (API tokens or OAuth: the tools in its scope, its own files), else
// "public".
func (m *mcpSurface) cacheScope() string {
	if m.access != nil {
		return "private"
	}
	return "public"
}

// setCacheable settles the cache hints of the results the SDK builds
// (prompts/list, resources/templates/list, resources/read): never an empty
// cacheScope. tools/list and resources/list set theirs (listTools,
// listResources).
func (m *mcpSurface) setCacheable(_ context.Context, req mcp.Request, c *mcp.Cacheable) {
	switch req.(type) {
	case *mcp.ListPromptsRequest, *mcp.ListResourceTemplatesRequest:
		*c = mcp.Cacheable{TTLMs: int(staticListTTL / time.Millisecond), CacheScope: "public"}
	case *mcp.ReadResourceRequest:
		// A download is its owner's; a contract changes with the build.
		*c = mcp.Cacheable{CacheScope: m.cacheScope()}
	}
}

func (m *mcpSurface) listResources(ctx context.Context, req *mcp.ListResourcesRequest) (*mcp.ListResourcesResult, error) {
	// The store changes with every generated file: stale at once.
	res := &mcp.ListResourcesResult{Resources: []*mcp.Resource{}, Cacheable: mcp.Cacheable{CacheScope: m.cacheScope()}}
	if m.opts.Files == nil {
		return res, nil
	}
	after := ""
	if req.Params != nil && req.Params.Cursor != "" {
		a, err := parseCursor(req.Params.Cursor)
		if err != nil {
			return nil, err
		}
		after = a
	}
	entries, err := m.opts.Files.List(ctx) // newest first
	if err != nil {
		return nil, m.storeError(ctx, "listing the download store", err)
	}
	// Page in name order, so that a cursor stays meaningful while files come
	// and go (the store's newest-first order shifts with every new file).
	names := make([]filestore.Entry, 0, len(entries))
	for _, e := range entries {
		if e.Name > after {
			names = append(names, e)
		}
	}
	sortEntries(names)
	for _, e := range names {
		if len(res.Resources) == m.opts.PageSize {
			res.NextCursor = pageCursor(res.Resources[len(res.Resources)-1].Name)
			break
		}
		res.Resources = append(res.Resources, m.downloadResource(e.Name, e.Size))
	}
	if t := m.caller(ctx); t != nil {
		res.Resources = slices.DeleteFunc(res.Resources, func(r *mcp.Resource) bool { return !m.access.Owns(r.Name, t.Name) })
	}
	return res, nil
}

// storeError is the JSON-RPC error of a resources request the download store
// could not answer: internal error -32603 whose message starts with
// store_unavailable and whose data is the REST error body; other failures
// are a plain internal error, logged.
func (m *mcpSurface) storeError(ctx context.Context, what string, err error) error {
	var ue *filestore.UnavailableError
	if !errors.As(err, &ue) {
		m.log.Error(what, "err", err.Error())
		return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "internal error"}
	}
	m.log.Warn(what, "err", err.Error())
	reason := tools.ReasonStoreRefused
	if ue.NotAnswering() {
		reason = tools.ReasonStoreNotAnswering
	}
	te := tools.StoreUnavailable(reason, "the download store is unavailable (%s); try again shortly", ue.Cause())
	_, body := surface.ErrorResponse(ctx, m.log, "generate_file", te)
	data, _ := evidence.Canonical(body)
	return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: te.Code + ": " + te.Message, Data: data}
}

func sortEntries(es []filestore.Entry) {
	sort.Slice(es, func(i, j int) bool { return es[i].Name < es[j].Name })
}

// downloadLink is where a stored file downloads: the absolute link when a
// public base URL is configured, else the route's path.
func (m *mcpSurface) downloadLink(name string) string {
	if m.opts.DownloadURL != nil {
		return m.opts.DownloadURL(name)
	}
	return "/downloads/" + name
}

// downloadResource describes one stored file.
func (m *mcpSurface) downloadResource(name string, size int64) *mcp.Resource {
	return &mcp.Resource{
		URI:         DownloadURIPrefix + name,
		Name:        name,
		Description: "generated by generate_file; also at " + m.downloadLink(name),
		MIMEType:    filestore.MediaType(strings.TrimPrefix(path.Ext(name), ".")),
		Size:        size,
	}
}

// textMedia lists the stored formats read back as text (the rest as base64 blobs).
var textMedia = map[string]bool{"html": true, "md": true, "txt": true, "csv": true}

func (m *mcpSurface) readDownload(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	name, ok := strings.CutPrefix(uri, DownloadURIPrefix)
	if t := m.caller(ctx); t != nil && ok && !m.access.Owns(name, t.Name) {
		m.access.CountRefusal(ctx, surface.CodeForbidden, t.Name, uri, "")
		return nil, mcp.ResourceNotFoundError(uri)
	}
	if !ok || m.opts.Files == nil || !filestore.NamePattern.MatchString(name) {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	data, _, err := m.opts.Files.ReadFile(ctx, name)
	if errors.Is(err, filestore.ErrNotFound) {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	if err != nil {
		return nil, m.storeError(ctx, "reading a generated file", err)
	}
	ext := strings.TrimPrefix(path.Ext(name), ".")
	rc := &mcp.ResourceContents{URI: uri, MIMEType: filestore.MediaType(ext)}
	if textMedia[ext] {
		rc.Text = string(data)
	} else {
		rc.Blob = data // base64 on the wire
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{rc}}, nil
}

func (m *mcpSurface) readContract(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	name, _ := strings.CutPrefix(uri, ContractURIPrefix)
	entry, ok := m.reg.Entry(name)
	if !ok {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	b, err := evidence.Canonical(entry)
	if err != nil {
		return nil, err
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "application/json", Text: string(b)}}}, nil
}

func (m *mcpSurface) getPrompt(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	return guidePrompt(precisionGuide, "How to use precisiond's exact tools", req), nil
}

// guidePrompt is a guide prompt's answer: the guide as one user message, the
// optional "task" argument appended.
func guidePrompt(guide, description string, req *mcp.GetPromptRequest) *mcp.GetPromptResult {
	text := guide
	if task := strings.TrimSpace(req.Params.Arguments["task"]); task != "" {
		text += "\n\nTask: " + task
	}
	return &mcp.GetPromptResult{
		Description: description,
		Messages:    []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: text}}},
	}
}

// callTool is the SDK's tools/call handler.
func (m *mcpSurface) callTool(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return m.toolResult(withMCPRequestID(ctx, req), req.Params.Name, req.Params.Arguments)
}

// toolResult is a tools/call's answer, for the SDK (callTool) and the
// in-house stateless POST (mcp_fast.go) alike; ctx carries the request id
// and, with API tokens, the caller. A tool outside the caller's scope is a
// forbidden tool error; an unknown tool is invalid params with the
// registry's hints. Calls run through Registry.Call, the one execution path:
// arguments decoded with numbers kept exact (json.Number), the envelope
// returned as the canonical bytes, so structuredContent carries exactly the
// numbers /invoke does (100.0 stays a float, big integers keep every digit).
func (m *mcpSurface) toolResult(ctx context.Context, name string, args json.RawMessage) (*mcp.CallToolResult, error) {
	if m.caller(ctx) != nil {
		if aerr := m.access.AuthorizeTool(ctx, name); aerr != nil {
			noteScopeDenial(ctx, aerr)
			return errorResult(surface.ErrorBody(aerr))
		}
	}
	if _, known := m.index[name]; !known {
		return nil, m.unknownTool(ctx, name)
	}
	start := time.Now()
	resp, err := m.reg.Call(ctx, name, args, "")
	if err != nil {
		var te *tools.Error
		if errors.As(err, &te) {
			switch {
			case te.Code == tools.CodeUnknownTool:
				return nil, m.unknownTool(ctx, name)
			case te.Reason == tools.ReasonArgsNotJSON:
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "arguments are not valid JSON: " + te.Message}
			case te.Code == tools.CodeInvalidRequest:
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: te.Message}
			}
		}
		_, body := surface.ErrorResponse(ctx, m.log, name, err)
		m.logCall(ctx, name, body["error_code"], start)
		return errorResult(body)
	}
	b := resp.EnvelopeJSON
	res := &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: string(b)}},
		StructuredContent: json.RawMessage(b),
		Meta:              attestationMeta(resp.Attestation),
	}
	// Only a tool that can name a file is asked for its facts (a typed
	// tool's would be built generically for nothing).
	if m.reg.DeclaresFact(name, surface.FactDownloadPath) {
		if link := m.fileLink(resp.Envelope.Facts()); link != nil {
			if t := m.caller(ctx); t != nil {
				// The file is the caller's; its link carries the signed path.
				m.access.NoteOwner(link.Name, t.Name)
				if p := m.access.SignedPath(link.Name); p != "" {
					link.Meta = mcp.Meta{"precisiond/download_url": p}
				}
			}
			res.Content = append(res.Content, link)
			// The store has a new file, or an old one with a renewed lifetime.
			m.resourcesChanged.trigger()
		}
	}
	m.logCall(ctx, name, nil, start)
	return res, nil
}

// MetaAttestation is the _meta key of a tool result that carries the
// answer's attestation.
const MetaAttestation = attest.MCPMetaKey

// attestationMeta is the _meta of a signed answer; nil when it is not signed.
func attestationMeta(jws string) mcp.Meta {
	if jws == "" {
		return nil
	}
	return mcp.Meta{MetaAttestation: jws}
}

// unknownTool is the answer to a call of a tool the registry does not have:
// JSON-RPC invalid params, as MCP asks, whose message and data (the REST
// error body) carry the nearest tool names.
func (m *mcpSurface) unknownTool(ctx context.Context, name string) error {
	te := m.reg.UnknownTool(name)
	_, body := surface.ErrorResponse(ctx, m.log, name, te)
	data, _ := evidence.Canonical(body)
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: te.Message, Data: data}
}

// errorResult is a tool-level error: isError with the REST error body as text
// and as structuredContent.
func errorResult(body map[string]any) (*mcp.CallToolResult, error) {
	b, err := evidence.Canonical(body)
	if err != nil {
		return nil, err
	}
	return &mcp.CallToolResult{
		IsError:           true,
		Content:           []mcp.Content{&mcp.TextContent{Text: string(b)}},
		StructuredContent: json.RawMessage(b),
	}, nil
}

// fileLink points at the file a generate_file call stored, when facts name one.
func (m *mcpSurface) fileLink(facts map[string]any) *mcp.ResourceLink {
	dp, _ := facts[surface.FactDownloadPath].(string)
	name, ok := strings.CutPrefix(dp, "/downloads/")
	if !ok || !filestore.NamePattern.MatchString(name) {
		return nil
	}
	r := m.downloadResource(name, 0)
	link := &mcp.ResourceLink{URI: r.URI, Name: name, Description: r.Description, MIMEType: r.MIMEType}
	if n, ok := facts["bytes"].(json.Number); ok {
		if v, err := n.Int64(); err == nil {
			link.Size = &v
		}
	}
	return link
}

// withMCPRequestID puts the router's request id, passed in a header, into
// the context of an MCP tool call.
func withMCPRequestID(ctx context.Context, req *mcp.CallToolRequest) context.Context {
	if req.Extra != nil && req.Extra.Header != nil {
		if id := req.Extra.Header.Get(mcpRequestIDHeader); id != "" {
			ctx = surface.WithRequestID(ctx, id)
		}
	}
	return ctx
}

func (m *mcpSurface) logCall(ctx context.Context, tool string, code any, start time.Time) {
	logMCPCall(m.log, ctx, "mcp", tool, code, start)
}

// logMCPCall writes the one log line of an MCP tool call.
func logMCPCall(log *slog.Logger, ctx context.Context, surf, tool string, code any, start time.Time) {
	if !log.Enabled(ctx, slog.LevelInfo) {
		return
	}
	attrs := []slog.Attr{slog.String("request_id", surface.RequestID(ctx)), slog.String("surface", surf),
		slog.String("tool", tool), slog.Float64("duration_ms", surface.DurationMS(time.Since(start)))}
	if code != nil {
		attrs = append(attrs, slog.Any("error_code", code))
	}
	log.LogAttrs(ctx, slog.LevelInfo, "mcp tool call", attrs...)
}

// mcpTool describes one tool for MCP from its contract.
func mcpTool(c *contracts.Contract, reg *tools.Registry) (*mcp.Tool, error) {
	in, err := evidence.Canonical(c.InputSchema)
	if err != nil {
		return nil, err
	}
	_, hash, _ := reg.Lookup(c.Tool)
	out, err := evidence.Canonical(EnvelopeSchema(c, hash))
	if err != nil {
		return nil, err
	}
	return &mcp.Tool{
		Name:         c.Tool,
		Title:        c.Title,
		Description:  c.Description,
		InputSchema:  json.RawMessage(in),
		OutputSchema: json.RawMessage(out),
		Annotations:  toolAnnotations(c),
		Meta: mcp.Meta{
			"precisiond/contract_id":      c.ContractID,
			"precisiond/contract_version": c.ContractVersion,
			"precisiond/contract_hash":    hash,
			"precisiond/contract_uri":     ContractURIPrefix + c.Tool,
		},
	}, nil
}

func toolAnnotations(c *contracts.Contract) *mcp.ToolAnnotations {
	a := &mcp.ToolAnnotations{Title: c.Title}
	b := func(k string) (bool, bool) { v, ok := c.Annotations[k].(bool); return v, ok }
	if v, ok := b("readOnlyHint"); ok {
		a.ReadOnlyHint = v
	}
	if v, ok := b("idempotentHint"); ok {
		a.IdempotentHint = v
	}
	if v, ok := b("destructiveHint"); ok {
		a.DestructiveHint = &v
	}
	if v, ok := b("openWorldHint"); ok {
		a.OpenWorldHint = &v
	}
	if s, ok := c.Annotations["title"].(string); ok && s != "" {
		a.Title = s
	}
	return a
}

// EnvelopeSchema is the MCP outputSchema of a tool: an object that is either the
// evidence envelope of a successful call (the contract's outputSchema inline as
// its facts) or, for an isError result, the error body (README, Errors). The error
// alternative is there because clients (the TypeScript SDK among them) validate
// every structuredContent they receive, error results included. hash is the
// contract's contract_hash.
func EnvelopeSchema(c *contracts.Contract, hash string) map[string]any {
	const factsAt = "#/anyOf/0/properties/facts"
	facts := surface.RebaseRefs(c.OutputSchema, factsAt).(map[string]any)
	delete(facts, "$schema")
	return map[string]any{
		"type":        "object",
		"description": "structuredContent: the evidence envelope of a successful call, or the error body of an isError result.",
		"anyOf":       []any{surface.EnvelopeSchema(c, hash, facts, factsAt), surface.ErrorSchema()},
	}
}

// minLevel drops records below a level (the SDK logs every connection at info,
// and stateless HTTP makes one per request).
type minLevel struct {
	slog.Handler
	min slog.Level
}

func (h minLevel) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= h.min && h.Handler.Enabled(ctx, l)
}
func (h minLevel) WithAttrs(a []slog.Attr) slog.Handler {
	return minLevel{h.Handler.WithAttrs(a), h.min}
}
func (h minLevel) WithGroup(n string) slog.Handler { return minLevel{h.Handler.WithGroup(n), h.min} }

// mcpRequestIDHeader carries the router's request id into the MCP handlers (the
// SDK hands handlers the HTTP request's header, not its context).
const mcpRequestIDHeader = "X-Request-Id"
