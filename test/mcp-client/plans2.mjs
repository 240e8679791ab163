// The two tasks of issue 35 (docs/plans.md, "Loops, glue and output") with
// the official TypeScript SDK client on /mcp/compact:
//
//   node plans2.mjs http://127.0.0.1:PORT
//
// The plans are the worked examples of the reusable_plan_guide prompt, as a
// model reads them. Task 1: the weekday of every date in a 2000-word note,
// one run_plan call. Task 2: 18:00 in Berlin in a city and the ISO week of
// that day there, run for Tokyo, then for 20 cities in one params_batch
// rerun. Every answer is checked against plans/testdata/plans2.json
// (Python's datetime and zoneinfo); the answers hold only the projections,
// and the stored record of a run (GET /v1/runs/{run_hash}) holds its
// envelopes. Exit 0 only when every check passes.

import assert from 'node:assert/strict';
import fs from 'node:fs';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { check, done } from './check.mjs';

const base = process.argv[2];
if (!base) {
  console.error('usage: node plans2.mjs BASE_URL');
  process.exit(2);
}
const oracle = JSON.parse(fs.readFileSync(new URL('../../plans/testdata/plans2.json', import.meta.url)));


// guidePlans returns the plans of the prompt's "Example N" paragraphs: the
// JSON value that starts on the line after each heading.
export function guidePlans(text) {
  return text.split('\nExample ').slice(1).map((part) => {
    const lines = part.slice(part.indexOf('\n{') + 1).split('\n');
    for (let n = 1; n <= lines.length; n++) {
      try {
        return JSON.parse(lines.slice(0, n).join('\n'));
      } catch {
        // not complete yet
      }
    }
    throw new Error(`no plan in example ${part.slice(0, 20)}`);
  });
}

const client = new Client({ name: 'precisiond-plans2-test', version: '1.0.0' });
await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp/compact`)));
const prompt = await client.getPrompt({ name: 'reusable_plan_guide', arguments: {} });
const [datesPlan, weekPlan] = guidePlans(prompt.messages[0].content.text);

await check('task 1: every date of a 2000-word note, one run_plan', async () => {
  assert.equal(oracle.note.split(' ').length, 2000);
  const res = await client.callTool({ name: 'run_plan', arguments: { plan: datesPlan, params: { text: oracle.note } } });
  assert.notEqual(res.isError, true, JSON.stringify(res.content));
  const run = res.structuredContent.runs[0];
  assert.equal(run.status, 'completed');
  assert.equal(run.steps, undefined, 'a projected run answered its steps');
  assert.deepEqual(run.output, oracle.dates.map((d) => ({ date: d.date, weekday: d.weekday_name })));
  const rec = await (await fetch(`${base}/v1/runs/${run.run_hash}`)).json();
  assert.equal(rec.plan_id, res.structuredContent.plan_id);
  assert.deepEqual(rec.runs[0].output, run.output);
  assert.equal(rec.runs[0].steps[1].items.length, 20);
});

await check('task 2: Tokyo, then 20 cities in one params_batch rerun', async () => {
  const first = await client.callTool({ name: 'run_plan', arguments: { plan: weekPlan, params: { city: 'Asia/Tokyo' } } });
  assert.notEqual(first.isError, true, JSON.stringify(first.content));
  assert.deepEqual(first.structuredContent.runs[0].output, { local: '2026-12-25T02:00:00+09:00', iso_week: 52 });
  const res = await client.callTool({ name: 'rerun_plan', arguments: { plan_id: first.structuredContent.plan_id, params_batch: oracle.cities.map((c) => ({ city: c.zone })) } });
  assert.notEqual(res.isError, true, JSON.stringify(res.content));
  assert.equal(res.structuredContent.runs.length, 20);
  res.structuredContent.runs.forEach((run, i) => {
    const c = oracle.cities[i];
    assert.equal(run.status, 'completed', c.zone);
    assert.deepEqual(run.output, { local: c.target_datetime, iso_week: c.iso_week }, c.zone);
  });
});

await client.close();
done('plans2.mjs');
