// End-to-end check of precisiond's MCP surfaces with the official TypeScript
// SDK client, over Streamable HTTP (/mcp), HTTP+SSE (/mcp/sse) and stdio
// (`precisiond mcp`).
//
//   node run.mjs http://127.0.0.1:PORT /path/to/precisiond
//
// For every transport: initialize, list all tools (following cursors), call
// every tool's first example and compare the result with /invoke's byte for
// byte, a bad-argument call (isError, input_schema_invalid), an unknown tool
// (JSON-RPC -32602), generate_file's resource link read back as a resource,
// and the precision_guide prompt. Then the compact surface (/mcp/compact and
// `precisiond mcp --surface compact`): four tools, discover → describe → plan
// → batch rerun. The client validates every structuredContent against the
// tool's outputSchema with its own validator (ajv), so a schema it cannot
// compile or a result it rejects fails the run. Exit 0 only when every check
// passes.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';

const [base, binary] = process.argv.slice(2);
if (!base || !binary) {
  console.error('usage: node run.mjs BASE_URL PRECISIOND_BINARY');
  process.exit(2);
}

let failures = 0;
let checks = 0;
function check(name, fn) {
  return Promise.resolve()
    .then(fn)
    .then(() => { checks++; })
    .catch((err) => {
      failures++;
      console.error(`FAIL ${name}: ${err && err.stack ? err.stack : err}`);
    });
}

async function getText(url, init) {
  const res = await fetch(url, init);
  const text = await res.text();
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}: ${text}`);
  return text;
}

// rawEnvelope cuts the canonical structured_result out of an /invoke body. The
// body is canonical JSON (sorted keys, no spaces), so it ends with
// ,"structured_result":{...},"tool":"<name>"}.
function rawEnvelope(body, tool) {
  const start = body.indexOf('"structured_result":');
  const end = body.lastIndexOf(`,"tool":${JSON.stringify(tool)}}`);
  assert.ok(start >= 0 && end > start, `unexpected /invoke body: ${body.slice(0, 200)}`);
  return body.slice(start + '"structured_result":'.length, end);
}

const catalogue = JSON.parse(await getText(`${base}/tools`)).tools;
assert.ok(catalogue.length > 0, 'empty catalogue');

// /invoke answers for the first example of every tool, raw.
const invoked = new Map();
for (const entry of catalogue) {
  const ex = entry.examples[0];
  const body = await getText(`${base}/invoke`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ tool: entry.name, args: ex.args }),
  });
  invoked.set(entry.name, body);
}

const stdioDir = fs.mkdtempSync(path.join(os.tmpdir(), 'precisiond-mcp-ts-'));
const transports = {
  streamable: () => new StreamableHTTPClientTransport(new URL(`${base}/mcp`)),
  sse: () => new SSEClientTransport(new URL(`${base}/mcp/sse`)),
  stdio: () => new StdioClientTransport({
    command: binary,
    args: ['mcp', '--data-dir', stdioDir, '--log-level', 'warn'],
    env: { ...process.env },
    stderr: 'inherit',
  }),
};

// connect opens a client over one transport, or counts a failure and
// returns null.
async function connect(kind, make) {
  const client = new Client({ name: 'precisiond-ts-e2e', version: '1.0.0' });
  try {
    await client.connect(make());
    return client;
  } catch (err) {
    failures++;
    console.error(`FAIL ${kind}: connect: ${err && err.stack ? err.stack : err}`);
    return null;
  }
}

for (const [kind, make] of Object.entries(transports)) {
  const client = await connect(kind, make);
  if (!client) continue;

  await check(`${kind}: initialize`, () => {
    const info = client.getServerVersion();
    assert.equal(info.name, 'precisiond');
    assert.match(client.getInstructions() ?? '', /result_hash/);
    const caps = client.getServerCapabilities();
    assert.ok(caps.tools && caps.resources && caps.prompts, JSON.stringify(caps));
  });

  let listed = [];
  await check(`${kind}: tools/list`, async () => {
    let cursor;
    let pages = 0;
    do {
      const page = await client.listTools(cursor ? { cursor } : {});
      listed.push(...page.tools);
      cursor = page.nextCursor;
      assert.ok(++pages <= 100, 'too many pages');
    } while (cursor);
    assert.deepEqual(listed.map((t) => t.name), catalogue.map((t) => t.name), 'tools/list order differs from the catalogue');
    for (const [i, tool] of listed.entries()) {
      const entry = catalogue[i];
      assert.deepEqual(tool.inputSchema, entry.inputSchema, `${tool.name}: inputSchema`);
      assert.equal(tool.title, entry.title, `${tool.name}: title`);
      assert.equal(tool.description, entry.description, `${tool.name}: description`);
      assert.equal(tool.outputSchema.type, 'object', `${tool.name}: outputSchema type`);
      assert.equal(tool.annotations.readOnlyHint, entry.annotations.readOnlyHint, `${tool.name}: readOnlyHint`);
    }
  });
  if (listed.length < catalogue.length) {
    // listTools with cursors may have failed midway: the client caches output
    // validators from its last listTools, so list once more from the top.
    await client.listTools().catch(() => {});
  }

  for (const entry of catalogue) {
    await check(`${kind}: call ${entry.name}`, async () => {
      const ex = entry.examples[0];
      const res = await client.callTool({ name: entry.name, arguments: ex.args });
      assert.notEqual(res.isError, true, `isError: ${JSON.stringify(res.content)}`);
      const want = rawEnvelope(invoked.get(entry.name), entry.name);
      assert.equal(res.content[0].type, 'text');
      assert.equal(res.content[0].text, want, 'text block differs from /invoke structured_result');
      const wantEnv = JSON.parse(want);
      assert.deepEqual(res.structuredContent.facts, wantEnv.facts, 'structuredContent.facts differ from /invoke');
      assert.deepEqual(res.structuredContent.facts, ex.facts, 'facts differ from the documented example');
      assert.equal(res.structuredContent.result_hash, wantEnv.result_hash);
      assert.equal(res.structuredContent.contract_hash, entry.contract_hash);
      if (entry.name === 'generate_file') {
        const link = res.content.find((c) => c.type === 'resource_link');
        assert.ok(link, 'generate_file result has no resource_link');
        assert.equal(link.uri, `precisiond://downloads/${res.structuredContent.facts.filename}`);
        const resources = [];
        let cursor;
        do {
          const page = await client.listResources(cursor ? { cursor } : {});
          resources.push(...page.resources);
          cursor = page.nextCursor;
        } while (cursor);
        assert.ok(resources.some((r) => r.uri === link.uri), `resources/list lacks ${link.uri}`);
        const read = await client.readResource({ uri: link.uri });
        const content = read.contents[0];
        const bytes = 'blob' in content && content.blob !== undefined
          ? Buffer.from(content.blob, 'base64')
          : Buffer.from(content.text, 'utf8');
        const served = Buffer.from(await (await fetch(`${base}${res.structuredContent.facts.download_path}`)).arrayBuffer());
        assert.ok(bytes.equals(served), 'resource bytes differ from /downloads');
        assert.equal(bytes.length, Number(res.structuredContent.facts.bytes));
      }
    });
  }

  await check(`${kind}: bad arguments`, async () => {
    const res = await client.callTool({ name: 'gcd_lcm', arguments: { a: 'x', b: 1 } });
    assert.equal(res.isError, true);
    assert.equal(res.structuredContent.error_code, 'input_schema_invalid');
    assert.match(res.content[0].text, /input_schema_invalid/);
  });

  await check(`${kind}: unknown tool`, async () => {
    await assert.rejects(
      client.callTool({ name: 'no_such_tool', arguments: {} }),
      (err) => err instanceof McpError && err.code === -32602,
    );
  });

  await check(`${kind}: prompt`, async () => {
    const p = await client.getPrompt({ name: 'precision_guide', arguments: {} });
    assert.match(p.messages[0].content.text, /result_hash/);
  });

  await check(`${kind}: contract resource`, async () => {
    const read = await client.readResource({ uri: 'precisiond://contracts/gcd_lcm' });
    const entry = JSON.parse(read.contents[0].text);
    assert.equal(entry.contract_hash, catalogue.find((t) => t.name === 'gcd_lcm').contract_hash);
  });

  await client.close();
}

// The compact surface (/mcp/compact over Streamable HTTP, and `precisiond mcp
// --surface compact` over stdio): exactly four tools, a tools/list of at most
// 8 KiB, and a model's path through it: discover → describe → plan (one run)
// → batch rerun by plan_id, each result validated by the client against the
// tool's outputSchema and checked against REST.
const compactPlan = {
  description: 'Weekday in a city of a wall time in New York',
  params: { when: { type: 'string', default: '2026-03-27T21:30:00' }, city: { type: 'string' } },
  steps: [
    { id: 'conv', tool: 'timezone_convert', args: { local_datetime: { $param: 'when' }, from_timezone: 'America/New_York', to_timezone: { $param: 'city' } } },
    { id: 'day', tool: 'time_facts', args: { instant: { $ref: 'conv/facts/utc_instant' }, timezone_name: { $param: 'city' }, locale: 'en' } },
  ],
};
// Weekdays of 2026-03-27T21:30 New York time, from Python's zoneinfo
// (plans/testdata/cities.json).
const compactCities = { 'Asia/Tokyo': 'Saturday', 'Pacific/Honolulu': 'Friday', 'Europe/London': 'Saturday', 'America/Sao_Paulo': 'Friday' };

const compactRaw = await getText(`${base}/mcp/compact`, {
  method: 'POST',
  headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
});
await check('compact: tools/list at most 8 KiB', () => {
  const bytes = Buffer.byteLength(compactRaw, 'utf8');
  assert.ok(bytes <= 8192, `compact tools/list is ${bytes} bytes`);
});

const compactTransports = {
  'compact streamable': () => new StreamableHTTPClientTransport(new URL(`${base}/mcp/compact`)),
  'compact stdio': () => new StdioClientTransport({
    command: binary,
    args: ['mcp', '--surface', 'compact', '--data-dir', stdioDir, '--log-level', 'warn'],
    env: { ...process.env },
    stderr: 'inherit',
  }),
};
for (const [kind, make] of Object.entries(compactTransports)) {
  const client = await connect(kind, make);
  if (!client) continue;
  let planId;
  await check(`${kind}: four tools`, async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), ['describe_tools', 'list_tools', 'rerun_plan', 'run_plan']);
    for (const t of tools) {
      assert.equal(t.inputSchema.type, 'object', `${t.name}: inputSchema`);
      assert.equal(t.outputSchema.type, 'object', `${t.name}: outputSchema`);
    }
    assert.match(client.getInstructions() ?? '', /run_plan/);
  });
  await check(`${kind}: discover`, async () => {
    const res = await client.callTool({ name: 'list_tools', arguments: {} });
    assert.notEqual(res.isError, true);
    const names = res.structuredContent.groups.flatMap((g) => g.tools.map((t) => t.name));
    assert.deepEqual([...names].sort(), catalogue.map((t) => t.name).sort());
    for (const g of res.structuredContent.groups) for (const t of g.tools) assert.ok(t.summary.length <= 100, t.name);
  });
  await check(`${kind}: describe`, async () => {
    const res = await client.callTool({ name: 'describe_tools', arguments: { tools: ['timezone_convert', 'time_facts'] } });
    assert.notEqual(res.isError, true);
    for (const d of res.structuredContent.tools) {
      const entry = catalogue.find((t) => t.name === d.name);
      assert.equal(d.contract_hash, entry.contract_hash);
      assert.deepEqual(d.inputSchema, entry.inputSchema);
      assert.deepEqual(d.factsSchema, entry.outputSchema);
    }
  });
  await check(`${kind}: plan`, async () => {
    const res = await client.callTool({ name: 'run_plan', arguments: { plan: compactPlan, params: { city: 'Asia/Tokyo' } } });
    assert.notEqual(res.isError, true, JSON.stringify(res.content));
    planId = res.structuredContent.plan_id;
    assert.match(planId, /^[0-9a-f]{64}$/);
    const run = res.structuredContent.runs[0];
    assert.equal(run.status, 'completed');
    assert.equal(run.steps[1].structured_result.facts.weekday_name, 'Saturday');
  });
  await check(`${kind}: batch rerun`, async () => {
    const cities = Object.keys(compactCities);
    const res = await client.callTool({ name: 'rerun_plan', arguments: { plan_id: planId, params_batch: cities.map((city) => ({ city })) } });
    assert.notEqual(res.isError, true, JSON.stringify(res.content));
    assert.equal(res.structuredContent.runs.length, cities.length);
    res.structuredContent.runs.forEach((run, i) => {
      assert.equal(run.status, 'completed');
      assert.equal(run.params.city, cities[i]);
      assert.equal(run.params.when, '2026-03-27T21:30:00', 'default not applied');
      assert.equal(run.steps[1].structured_result.facts.weekday_name, compactCities[cities[i]], cities[i]);
      assert.match(run.run_hash, /^[0-9a-f]{64}$/);
    });
    if (kind === 'compact streamable') {
      // The same rerun over REST answers the same bytes.
      const rest = await getText(`${base}/v1/plans/${planId}/run`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ params_batch: cities.map((city) => ({ city })) }),
      });
      assert.equal(res.content[0].text, rest, 'rerun_plan text differs from REST');
    }
  });
  await check(`${kind}: invalid plan`, async () => {
    const res = await client.callTool({ name: 'run_plan', arguments: { plan: { steps: [{ id: 'd', tool: 'day_of_week', args: { date_str: { $ref: 'nowhere/facts/date' } } }] } } });
    assert.equal(res.isError, true);
    assert.equal(res.structuredContent.error_code, 'invalid_plan');
    assert.equal(res.structuredContent.details[0].path, '/steps/0/args/date_str');
    assert.match(res.structuredContent.error, /nowhere/);
  });
  await check(`${kind}: prompt`, async () => {
    const p = await client.getPrompt({ name: 'reusable_plan_guide', arguments: {} });
    assert.match(p.messages[0].content.text, /params_batch/);
  });
  await client.close();
}

fs.rmSync(stdioDir, { recursive: true, force: true });
console.log(`${checks} checks passed, ${failures} failed (${catalogue.length} tools, transports: ${[...Object.keys(transports), ...Object.keys(compactTransports)].join(', ')})`);
process.exit(failures === 0 ? 0 : 1);
