package mcpserver

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/internal/surface"
	"github.com/precisiond/precisiond/tools"
)

// The compact MCP surface (/mcp/compact, `precisiond mcp --surface
// compact`): four tools instead of one per precisiond tool, so that a client
// pays a few kilobytes of its model's context for tools/list instead of the
// whole catalogue, and one plan with parameters replaces many calls.

// CompactInstructions are sent to clients of the compact surface in the
// initialize result.
const CompactInstructions = `precisiond answers exact questions (arithmetic, equations, dates and time zones, money, probabilities, units, hashes, subnets, structured data) with deterministic code and hashed evidence.
This is its compact surface: list_tools (a one-line catalogue), describe_tools (full contracts of up to 5 tools), run_plan (one declarative plan of tool calls with parameters, run for one or up to 1000 parameter sets) and rerun_plan (the same plan by plan_id with new parameters).
Discover, describe, then write ONE plan with parameters and replay it for every input instead of calling tools one by one. Quote facts as returned and cite run_hash / result_hash. The prompt reusable_plan_guide has the details.`

// ReusablePlanGuide is the text of the reusable_plan_guide prompt.
const ReusablePlanGuide = `You have precisiond's compact surface: exact, deterministic tools behind four calls. Use it like this:

1. Discover: call list_tools. It returns every enabled tool in one line, grouped (numbers, time, units, data, text, files). Pick the tools your task needs; never compute in your head what a tool computes exactly.
2. Describe: call describe_tools with those tools (1 to 5 names). Read each inputSchema (argument names, types, formats, defaults), factsSchema (what a call returns) and the worked example.
3. Plan once: write ONE plan for the whole family of inputs. Steps run in order: {"id", "tool", "args"}. In args, a value that varies is {"$param": "NAME"}, declared in "params" as {"type": "string"|"integer"|"number"|"boolean"|"array"|"object", "default"?: value}; a value from an earlier step is {"$ref": "STEP_ID/facts/JSON/POINTER"} (a JSON Pointer into that step's facts, as its factsSchema names them); a literal object that would look like a placeholder is {"$literal": VALUE}.
4. Run it: call run_plan with the plan and "params_batch": one object per input (up to 1000), e.g. 20 cities in one call. The plan is type-checked against the contracts first; an invalid plan is refused with details naming the step and the JSON path: fix it and send it again.
5. Replay: run_plan returns plan_id. For more inputs later, call rerun_plan with plan_id and new params or params_batch; do not send the plan again.
6. Read the answer: each run has status, the step envelopes (structured_result with facts and result_hash) and run_hash; for a plan with "output", only output, status and run_hash. A failed run (status "failed") carries the failing step's error (error_code, reason, details); the other runs are unaffected. Base your answer only on facts, quote them verbatim and cite run_hash, so anyone can check the run with "precisiond verify".

Loops, glue and a small answer, without code:
- Glue: any argument value may be {"$jmes": "EXPRESSION"}, JMESPath over {"params": {...}, "steps": {"ID": {"facts": {...}}}} (earlier steps only). Besides the standard functions (join, to_string, to_number, length, ...) there are split, pad_left, pad_right, replace, trim, lower, upper and substr(s, start, length?) (code points). Example: the date of an ISO date-time is substr(steps.conv.facts.target_datetime, ` + "`0`, `10`" + `).
- Loop: a step with "foreach": {"$ref": ...} or {"$jmes": ...} giving an array (at most 1000) runs its tool once per element. In its args, {"$item": "/match"} is a member of the element ("" the element itself); in $jmes the element is named item (or "as": "NAME"). Its facts for later steps are {"items": [facts...], "count": n}. A failing element stops the run, unless "on_error": "collect" (then facts.errors lists them).
- Small answer: "output": {"$jmes": "..."} makes each run answer only that projection and run_hash; the envelopes stay stored (GET /v1/runs/{run_hash}; "include": "steps" returns them at once).

Example 1 (weekday of every date in a note), one run_plan call with "params": {"text": NOTE}:
{"params": {"text": {"type": "string"}},
 "steps": [{"id": "m", "tool": "regex_extract", "args": {"pattern": "\\b\\d{4}-\\d{2}-\\d{2}\\b", "text": {"$param": "text"}, "limit": 1000}},
           {"id": "days", "tool": "calendar_facts", "foreach": {"$ref": "m/facts/matches"}, "args": {"date_str": {"$item": "/match"}, "locale": "en"}}],
 "output": {"$jmes": "steps.days.facts.items[*].{date: date, weekday: weekday_name}"}}

Example 2 (18:00 in Berlin, in a city, and the ISO week of that day there), run for 20 cities with "params_batch": [{"city": "Asia/Tokyo"}, ...]:
{"params": {"when": {"type": "string", "default": "2026-12-24T18:00:00"}, "city": {"type": "string"}},
 "steps": [{"id": "conv", "tool": "timezone_convert", "args": {"local_datetime": {"$param": "when"}, "from_timezone": "Europe/Berlin", "to_timezone": {"$param": "city"}}},
           {"id": "cal", "tool": "calendar_facts", "args": {"date_str": {"$jmes": "substr(steps.conv.facts.target_datetime, ` + "`0`, `10`" + `)"}, "locale": "en"}}],
 "output": {"$jmes": "{local: steps.conv.facts.target_datetime, iso_week: steps.cal.facts.iso_week}"}}

Example 3 (weekday in several cities of a New York wall time, with every envelope):
{"params": {"city": {"type": "string"}, "when": {"type": "string", "default": "2026-03-27T21:30:00"}},
 "steps": [{"id": "conv", "tool": "timezone_convert", "args": {"local_datetime": {"$param": "when"}, "from_timezone": "America/New_York", "to_timezone": {"$param": "city"}}},
           {"id": "day", "tool": "time_facts", "args": {"instant": {"$ref": "conv/facts/utc_instant"}, "timezone_name": {"$param": "city"}, "locale": "en"}}]}
with "params_batch": [{"city": "Asia/Tokyo"}, {"city": "Europe/Paris"}, ...].`

// compactTool is one tool of the compact surface: its MCP description and
// a plain function from the decoded arguments to the canonical JSON of the
// result, or an error. The SDK adapter (compactHandler) serves it; another
// JSON-RPC transport can call the same functions.
type compactTool struct {
	tool *mcp.Tool
	call func(ctx context.Context, args map[string]any) ([]byte, *surface.Error)
}

// compactTools are the four tools over ops.
func compactTools(ops surface.PlanOps) []compactTool {
	params, batch, include := surface.PlanSchema("params"), surface.PlanSchema("params_batch"), surface.PlanSchema("include")
	canonical := func(v any, aerr *surface.Error) ([]byte, *surface.Error) {
		if aerr != nil {
			return nil, aerr
		}
		b, err := evidence.Canonical(v)
		if err != nil {
			return nil, surface.NewError(tools.CodeInternal, "internal error")
		}
		return b, nil
	}
	return []compactTool{
		{
			tool: compactMCPTool("list_tools", "List tools (compact)",
				"Step 1: the compact catalogue of precisiond's exact tools: every enabled tool in one line, grouped (numbers, time, units, data, text, files), with catalog_hash. Then describe_tools the ones you need.",
				closedObject(map[string]any{}), surface.PlanSchema("catalog")),
			call: func(_ context.Context, args map[string]any) ([]byte, *surface.Error) {
				if aerr := surface.OnlyKeys(args); aerr != nil {
					return nil, aerr
				}
				return canonical(ops.Catalog(), nil)
			},
		},
		{
			tool: compactMCPTool("describe_tools", "Describe tools",
				"Step 2: what you need to call 1 to 5 tools right the first time: description, inputSchema, factsSchema (the facts a call returns; $ref pointers follow it), contract_hash and a worked example.",
				surface.PlanSchema("describe_request"), surface.PlanSchema("describe_result")),
			call: func(_ context.Context, args map[string]any) ([]byte, *surface.Error) {
				return canonical(ops.Describe(args))
			},
		},
		{
			tool: compactMCPTool("run_plan", "Run a plan",
				`Step 3: type-check, register and run a plan: steps [{id, tool, args}] in order (see the plan schema). Give params (one run) or params_batch (up to 1000 runs: one plan, many inputs). Returns plan_id and, per run, params, status, run_hash and the plan's output (or, without output, the step envelopes).`,
				closedObject(map[string]any{"plan": surface.PlanSchema("plan"), "params": params, "params_batch": batch, "include": include}, "plan"),
				surface.PlanSchema("run_result")),
			call: func(ctx context.Context, args map[string]any) ([]byte, *surface.Error) {
				b, aerr := ops.RunNew(ctx, args)
				return b, aerr
			},
		},
		{
			tool: compactMCPTool("rerun_plan", "Rerun a plan",
				"Step 4: run a plan registered by run_plan again by its plan_id with new params or params_batch (up to 1000 runs). Unknown plan_id: error unknown_plan (send the plan with run_plan).",
				closedObject(map[string]any{"plan_id": surface.PlanSchema("plan_id"), "params": params, "params_batch": batch, "include": include}, "plan_id"),
				surface.PlanSchema("run_result")),
			call: func(ctx context.Context, args map[string]any) ([]byte, *surface.Error) {
				id, _ := args["plan_id"].(string)
				if id == "" {
					return nil, surface.NewError(surface.CodeInvalidRequest, `"plan_id" must be a plan_id string`)
				}
				rest := make(map[string]any, len(args))
				for k, v := range args {
					if k != "plan_id" {
						rest[k] = v
					}
				}
				b, aerr := ops.Rerun(ctx, id, rest)
				return b, aerr
			},
		},
	}
}

// compactMCPTool describes one compact tool. Its outputSchema admits the
// result or, for an isError result, the error body (clients validate both).
func compactMCPTool(name, title, description string, in, out map[string]any) *mcp.Tool {
	inJSON, err := evidence.Canonical(in)
	if err != nil {
		panic(err) // schemas from schema/plans.json: found by every test
	}
	outJSON, err := evidence.Canonical(map[string]any{"type": "object", "anyOf": []any{out, surface.PlanSchema("error_brief")}})
	if err != nil {
		panic(err)
	}
	f := false
	return &mcp.Tool{
		Name:         name,
		Title:        title,
		Description:  description,
		InputSchema:  json.RawMessage(inJSON),
		OutputSchema: json.RawMessage(outJSON),
		// Every hint is given: run_plan and rerun_plan register a plan (by
		// its hash: the same plan twice is one plan) and destroy nothing. The
		// display name is Title (it comes before annotations.title), which
		// keeps tools/list within 8 KiB.
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: name == "list_tools" || name == "describe_tools",
			IdempotentHint: true, DestructiveHint: &f, OpenWorldHint: &f},
	}
}

// closedObject is the JSON Schema of an object with these properties and no
// others.
func closedObject(props map[string]any, required ...string) map[string]any {
	return surface.Closed(surface.Object(props, required...))
}

// newCompactServer builds the compact MCP server over ops; its tools are
// returned too, for the fast path (mcp_fast.go).
func newCompactServer(ops surface.PlanOps, opts Options) (*mcp.Server, []compactTool) {
	opts = opts.withDefaults()
	s := mcp.NewServer(&mcp.Implementation{Name: "precisiond", Title: "precisiond — compact surface (discover, describe, plan, replay)", Version: opts.Version, Icons: serverIcons},
		&mcp.ServerOptions{
			Instructions: CompactInstructions,
			Logger:       slog.New(minLevel{opts.Logger.Handler(), slog.LevelWarn}),
			PageSize:     opts.PageSize,
			Capabilities: &mcp.ServerCapabilities{},
			// The four tools and the prompt are the same for every caller
			// for the life of the process.
			SetCacheable: func(_ context.Context, _ mcp.Request, c *mcp.Cacheable) {
				*c = mcp.Cacheable{TTLMs: int(staticListTTL / time.Millisecond), CacheScope: "public"}
			},
		})
	s.AddReceivingMiddleware(iconsByVersion)
	ts := compactTools(ops)
	for _, t := range ts {
		s.AddTool(t.tool, compactHandler(opts.Logger, t))
	}
	s.AddPrompt(&mcp.Prompt{
		Name:        "reusable_plan_guide",
		Title:       "How to answer many exact questions with one reusable plan",
		Description: "Discover with list_tools, describe_tools, write one plan with parameters, run it for a batch with run_plan, replay it with rerun_plan.",
		Arguments:   []*mcp.PromptArgument{{Name: "task", Description: "Optional: the task; appended to the guide."}},
	}, func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		return guidePrompt(ReusablePlanGuide, "How to answer many exact questions with one reusable plan", req), nil
	})
	s.AddReceivingMiddleware(bindCallContext, progressMiddleware)
	return s, ts
}

// compactHandler adapts a compact tool to the SDK: arguments decoded with
// exact numbers, the result's canonical JSON as structuredContent and as
// text, an error as an isError result with the error body.
func compactHandler(log *slog.Logger, t compactTool) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return compactResult(withMCPRequestID(ctx, req), log, t, req.Params.Arguments)
	}
}

// compactResult is a compact tool's tools/call answer, for the SDK handler
// (compactHandler) and the fast path (mcp_fast.go) alike; ctx carries the
// request id.
func compactResult(ctx context.Context, log *slog.Logger, t compactTool, args json.RawMessage) (*mcp.CallToolResult, error) {
	start := time.Now()
	b, aerr := compactCall(ctx, t, args)
	if aerr != nil {
		logMCPCall(log, ctx, "mcp_compact", t.tool.Name, aerr.Code, start)
		noteScopeDenial(ctx, aerr)
		return errorResult(surface.ErrorBody(aerr))
	}
	logMCPCall(log, ctx, "mcp_compact", t.tool.Name, nil, start)
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: string(b)}},
		StructuredContent: json.RawMessage(b),
	}, nil
}

// compactCall decodes raw arguments (absent: {}) and calls the tool.
func compactCall(ctx context.Context, t compactTool, raw json.RawMessage) ([]byte, *surface.Error) {
	args := map[string]any{}
	if s := strings.TrimSpace(string(raw)); s != "" && s != "null" {
		obj, aerr := surface.JSONObject(raw, "arguments")
		if aerr != nil {
			return nil, aerr
		}
		args = obj
	}
	return t.call(ctx, args)
}
