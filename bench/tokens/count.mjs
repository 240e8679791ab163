// Counts what the 20-cities task of docs/plans.md costs a model's context on
// the full MCP surface (/mcp) and on the compact one (/mcp/compact), against
// a running precisiond:
//
//   (cd bench/tokens && npm ci && node count.mjs http://127.0.0.1:8003)
//
// Each message is measured as the JSON text a client hands its model: for
// tools/list the "tools" array, for a call the {name, arguments} object, for
// a result its text content block (the canonical JSON of the envelope or the
// run). Tokens are counted two ways: bytes/4 (a common rule of thumb) and a
// real BPE count with the o200k_base encoding (GPT-4o family) from the
// gpt-tokenizer package, which ships its ranks and needs no network. Other
// models' tokenizers give other numbers; the ratios are what carry over.
//
// The answers are checked too: every weekday must equal Python's zoneinfo
// (plans/testdata/cities.json).

import fs from 'node:fs';

import { rpcClient } from './rpc.mjs';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';

const base = process.argv[2];
if (!base) {
  console.error('usage: node count.mjs BASE_URL');
  process.exit(2);
}
const oracle = JSON.parse(fs.readFileSync(new URL('../../plans/testdata/cities.json', import.meta.url)));

const rpc = rpcClient(base);

// Special-token text (token_count's description names "<|endoftext|>") is
// counted as the ordinary text it is in a tool listing.
function measure(text) {
  const bytes = Buffer.byteLength(text, 'utf8');
  return { bytes, approx: Math.round(bytes / 4), bpe: encode(text, { disallowedSpecial: new Set() }).length };
}
const rows = [];
function row(path, step, text) {
  const m = measure(text);
  rows.push({ path, step, ...m });
  return m;
}
async function call(path, name, args) {
  row(path === '/mcp' ? 'full' : 'compact', `call ${name}`, JSON.stringify({ name, arguments: args }));
  const result = await rpc(path, 'tools/call', { name, arguments: args });
  if (result.isError) throw new Error(`${name}: ${result.content[0].text}`);
  return result;
}

// Full surface: every tool described, then 2 calls per city.
const fullList = await rpc('/mcp', 'tools/list', {});
row('full', 'tools/list (name, description, inputSchema, outputSchema, ...)', JSON.stringify(fullList.tools));
row('full', 'tools/list without outputSchema', JSON.stringify(fullList.tools.map(({ outputSchema, ...t }) => t)));
const when = oracle.when;
let fullCalls = { bytes: 0, approx: 0, bpe: 0 };
const add = (a, b) => { a.bytes += b.bytes; a.approx += b.approx; a.bpe += b.bpe; };
for (const c of oracle.cities) {
  for (const [name, args] of [['timezone_convert', { local_datetime: when, from_timezone: oracle.from_timezone, to_timezone: c.zone }]]) {
    add(fullCalls, measure(JSON.stringify({ name, arguments: args })));
    const r = await rpc('/mcp', 'tools/call', { name, arguments: args });
    add(fullCalls, measure(r.content[0].text));
    const utc = r.structuredContent.facts.utc_instant;
    const args2 = { instant: utc, timezone_name: c.zone, locale: 'en' };
    add(fullCalls, measure(JSON.stringify({ name: 'time_facts', arguments: args2 })));
    const r2 = await rpc('/mcp', 'tools/call', { name: 'time_facts', arguments: args2 });
    add(fullCalls, measure(r2.content[0].text));
    if (r2.structuredContent.facts.weekday_name !== c.weekday_name) throw new Error(`${c.zone}: ${r2.structuredContent.facts.weekday_name}`);
  }
}
rows.push({ path: 'full', step: '40 calls and their 40 results', ...fullCalls });

// Compact surface: discover, describe, one plan for all 20 cities.
const compactList = await rpc('/mcp/compact', 'tools/list', {});
row('compact', 'tools/list (4 tools)', JSON.stringify(compactList.tools));
const cat = await call('/mcp/compact', 'list_tools', {});
row('compact', 'list_tools result', cat.content[0].text);
const desc = await call('/mcp/compact', 'describe_tools', { tools: ['timezone_convert', 'time_facts'] });
row('compact', 'describe_tools result', desc.content[0].text);
const plan = {
  description: 'Weekday in a city of a wall time in New York',
  params: { when: { type: 'string', default: when }, city: { type: 'string' } },
  steps: [
    { id: 'conv', tool: 'timezone_convert', args: { local_datetime: { $param: 'when' }, from_timezone: oracle.from_timezone, to_timezone: { $param: 'city' } } },
    { id: 'day', tool: 'time_facts', args: { instant: { $ref: 'conv/facts/utc_instant' }, timezone_name: { $param: 'city' }, locale: 'en' } },
  ],
};
const run = await call('/mcp/compact', 'run_plan', { plan, params_batch: oracle.cities.map((c) => ({ city: c.zone })) });
row('compact', 'run_plan result (20 runs, 40 envelopes)', run.content[0].text);
run.structuredContent.runs.forEach((r, i) => {
  const got = r.steps[1].structured_result.facts.weekday_name;
  if (r.status !== 'completed' || got !== oracle.cities[i].weekday_name) throw new Error(`${oracle.cities[i].zone}: ${got}`);
});
const rerun = await call('/mcp/compact', 'rerun_plan', { plan_id: run.structuredContent.plan_id, params_batch: oracle.cities.slice(0, 5).map((c) => ({ city: c.zone })) });
row('compact', 'rerun_plan result (5 more cities)', rerun.content[0].text);

console.log('| path | step | bytes | bytes/4 | o200k_base tokens |');
console.log('|---|---|--:|--:|--:|');
for (const r of rows) console.log(`| ${r.path} | ${r.step} | ${r.bytes} | ${r.approx} | ${r.bpe} |`);
console.log('\nevery weekday equals plans/testdata/cities.json (Python zoneinfo)');
