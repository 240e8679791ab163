// Token benchmark of issue 35 (docs/plans.md, "Loops, glue and output: the
// token count"): the two tasks, each measured three ways against a running
// precisiond:
//
//   (cd bench/tokens && node plans2.mjs http://127.0.0.1:8003)
//
//   direct   tool calls on the full surface (/mcp), every envelope in context;
//   plan     run_plan on /mcp/compact with an output projection;
//   rerun    rerun_plan of the stored plan for the second input.
//
// Each message is measured as the JSON text a client hands its model: a
// call's {name, arguments}, a result's text block. Tokens are counted by the
// service's own token_count tool (o200k_base, POST /v1/invoke), which is
// not part of what is measured. Discovery (tools/list, list_tools,
// describe_tools) is left out: it is measured in "The 20-cities task" and is
// paid once, whatever the path. Every answer is checked against
// plans/testdata/plans2.json (Python's datetime and zoneinfo). Needs no npm
// package.

import fs from 'node:fs';

import { rpcClient } from './rpc.mjs';

const base = process.argv[2];
if (!base) {
  console.error('usage: node plans2.mjs BASE_URL');
  process.exit(2);
}
const oracle = JSON.parse(fs.readFileSync(new URL('../../plans/testdata/plans2.json', import.meta.url)));

const rpc = rpcClient(base);

async function tokens(text) {
  const res = await fetch(`${base}/v1/invoke`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ tool: 'token_count', args: { text, encoding: 'o200k_base' } }),
  });
  const body = await res.json();
  if (res.status !== 200) throw new Error(`token_count: ${JSON.stringify(body)}`);
  return body.structured_result.facts.tokens;
}

function tally() {
  return { messages: 0, bytes: 0, tokens: 0 };
}
async function add(t, text) {
  t.messages++;
  t.bytes += Buffer.byteLength(text, 'utf8');
  t.tokens += await tokens(text);
}
// call sends one tools/call and adds the call and its result text to t.
async function call(t, path, name, args) {
  await add(t, JSON.stringify({ name, arguments: args }));
  const r = await rpc(path, 'tools/call', { name, arguments: args });
  if (r.isError) throw new Error(`${name}: ${r.content[0].text}`);
  await add(t, r.content[0].text);
  return r.structuredContent;
}
function expect(cond, what) {
  if (!cond) throw new Error(`wrong answer: ${what}`);
}

const prompt = await rpc('/mcp/compact', 'prompts/get', { name: 'reusable_plan_guide', arguments: {} });
const guide = prompt.messages[0].content.text;
const plans = guide.split('\nExample ').slice(1).map((part) => {
  const lines = part.slice(part.indexOf('\n{') + 1).split('\n');
  for (let n = 1; n <= lines.length; n++) {
    try {
      return JSON.parse(lines.slice(0, n).join('\n'));
    } catch {
      // not complete yet
    }
  }
  throw new Error('no plan');
});
const [datesPlan, weekPlan] = plans;
const pattern = datesPlan.steps[0].args.pattern;
const rows = [];

// Task 1: the weekday of every date in a 2000-word note.
{
  const direct = tally();
  const m = await call(direct, '/mcp', 'regex_extract', { pattern, text: oracle.note, limit: 1000 });
  const got = [];
  for (const match of m.facts.matches) {
    const r = await call(direct, '/mcp', 'calendar_facts', { date_str: match.match, locale: 'en' });
    got.push({ date: r.facts.date, weekday: r.facts.weekday_name });
  }
  expect(JSON.stringify(got) === JSON.stringify(oracle.dates.map((d) => ({ date: d.date, weekday: d.weekday_name }))), 'direct dates');
  const plan = tally();
  const res = await call(plan, '/mcp/compact', 'run_plan', { plan: datesPlan, params: { text: oracle.note } });
  expect(JSON.stringify(res.runs[0].output) === JSON.stringify(got), 'plan dates');
  const rerun = tally();
  const res2 = await call(rerun, '/mcp/compact', 'rerun_plan', { plan_id: res.plan_id, params: { text: oracle.note2 } });
  expect(JSON.stringify(res2.runs[0].output) === JSON.stringify(oracle.dates2.map((d) => ({ date: d.date, weekday: d.weekday_name }))), 'rerun dates');
  const note = await tokens(oracle.note);
  rows.push({ task: '20 dates in a 2000-word note', direct, plan, rerun, note });
}

// Task 2: 18:00 in Berlin in 20 cities, and the ISO week of that day there.
{
  const direct = tally();
  for (const c of oracle.cities) {
    const conv = await call(direct, '/mcp', 'timezone_convert', { local_datetime: oracle.when, from_timezone: oracle.from_timezone, to_timezone: c.zone });
    const cal = await call(direct, '/mcp', 'calendar_facts', { date_str: conv.facts.target_datetime.slice(0, 10), locale: 'en' });
    expect(conv.facts.target_datetime === c.target_datetime && cal.facts.iso_week === c.iso_week, `direct ${c.zone}`);
  }
  const plan = tally();
  const res = await call(plan, '/mcp/compact', 'run_plan', { plan: weekPlan, params_batch: oracle.cities.map((c) => ({ city: c.zone })) });
  res.runs.forEach((r, i) => expect(r.output.local === oracle.cities[i].target_datetime && r.output.iso_week === oracle.cities[i].iso_week, `plan ${oracle.cities[i].zone}`));
  const rerun = tally();
  const res2 = await call(rerun, '/mcp/compact', 'rerun_plan', { plan_id: res.plan_id, params_batch: oracle.cities2.map((c) => ({ city: c.zone, when: oracle.when2 })) });
  res2.runs.forEach((r, i) => expect(r.output.local === oracle.cities2[i].target_datetime && r.output.iso_week === oracle.cities2[i].iso_week, `rerun ${oracle.cities2[i].zone}`));
  rows.push({ task: '20 cities, 18:00 Berlin time and ISO week', direct, plan, rerun, note: 0 });
}

const pct = (a, b) => `${((100 * a) / b).toFixed(1)} %`;
console.log('| task | path | messages | bytes | o200k tokens | of direct |');
console.log('|---|---|--:|--:|--:|--:|');
for (const r of rows) {
  for (const [name, t] of [['direct (full surface, every envelope)', r.direct], ['run_plan with output', r.plan], ['rerun_plan, second input', r.rerun]]) {
    console.log(`| ${r.task} | ${name} | ${t.messages} | ${t.bytes} | ${t.tokens} | ${pct(t.tokens, r.direct.tokens)} |`);
  }
  if (r.note) {
    console.log(`| ${r.task} | the note itself (sent on every path) | | | ${r.note} | |`);
    console.log(`| ${r.task} | without the note: plan / direct | | | ${r.plan.tokens - r.note} / ${r.direct.tokens - r.note} | ${pct(r.plan.tokens - r.note, r.direct.tokens - r.note)} |`);
  }
}
console.log('all answers equal the oracle (plans/testdata/plans2.json)');
