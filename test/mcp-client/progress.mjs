// Progress and cancellation with the official TypeScript SDK client
// (run from Go: TestTypeScriptMCPProgressAndAbort in test/mcpclient_test.go).
//
//   node progress.mjs http://127.0.0.1:PORT
//
// The server runs with one long plan batch in mind: run_plan on
// /mcp/compact with 1000 runs of prime_factorize on a semiprime of two
// ~110-bit primes (each run spends its whole factoring budget), far longer
// than this script's deadlines. The client asks for progress (onprogress):
// notifications/progress arrive per completed run while the call goes on.
// After the first one the call is aborted with an AbortSignal: the promise
// rejects, and the server's precisiond_tool_executions_running gauge
// (GET /metrics), 1 or more while the batch ran, falls to 0: the work
// stopped and its slots are free (no timing is asserted; the gauge is polled
// with a deadline of a minute, far below the batch's length). The time from
// the abort to both is printed for the record, not asserted.
// Exit 0 only when every check passes.

import assert from 'node:assert/strict';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { check, done } from './check.mjs';

const [base] = process.argv.slice(2);
if (!base) {
  console.error('usage: node progress.mjs BASE_URL');
  process.exit(2);
}


// The product of the first primes after 2^110 and after 2^111 + 12345
// (Python, Miller–Rabin): no factoring method within the declared budget
// splits it.
const hard = '3369993333393829974333376885893782309750520452002392838469266516223';
const plan = {
  params: { n: { type: 'string' } },
  steps: [{ id: 'f', tool: 'prime_factorize', args: { n: { $param: 'n' } } }],
};

async function running() {
  const res = await fetch(`${base}/metrics`);
  const text = await res.text();
  const m = text.match(/^precisiond_tool_executions_running (\d+)/m);
  assert.ok(m, 'no precisiond_tool_executions_running in /metrics');
  return Number(m[1]);
}

// untilIdle polls the gauge until it reads 0; it returns when the last poll
// that still read a running execution and the one that read 0 were sent.
async function untilIdle() {
  const deadline = Date.now() + 60_000;
  let busySince = 0;
  for (;;) {
    const sent = performance.now();
    if ((await running()) === 0) return { busySince, idleBy: sent };
    busySince = sent;
    assert.ok(Date.now() < deadline, 'executions still running a minute after the abort');
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function abortAfterProgress(client, name, args) {
  const controller = new AbortController();
  const seen = [];
  let busy = 0;
  let abortedAt = 0;
  const call = client.callTool({ name, arguments: args }, undefined, {
    signal: controller.signal,
    timeout: 600_000,
    onprogress: (p) => {
      seen.push(p);
      if (seen.length === 1) {
        const abort = () => { abortedAt = performance.now(); controller.abort('test abort'); };
        running().then((n) => { busy = n; abort(); }, abort);
      }
    },
  });
  await assert.rejects(call, (err) => /abort/i.test(String(err && (err.name + ' ' + err.message))) || err === 'test abort',
    'the aborted call did not reject with the abort');
  assert.ok(seen.length >= 1, 'onprogress was never called');
  for (let i = 1; i < seen.length; i++) assert.ok(seen[i].progress > seen[i - 1].progress, 'progress did not increase');
  const rejectedAt = performance.now();
  assert.ok(busy >= 1, `no execution was running when the first progress arrived (${busy})`);
  const { busySince, idleBy } = await untilIdle();
  // Reported, not asserted (timings depend on the machine's load): how long
  // the abort took to end the call, and when the running gauge was seen at 0:
  // after the last poll that still read an execution (if any was read after
  // the abort) and before the first that read 0.
  const ms = (t) => (t - abortedAt).toFixed(1);
  const after = busySince ? `after ${ms(busySince)} ms and ` : '';
  console.log(`abort → call rejected ${ms(rejectedAt)} ms; executions_running 0 ${after}by ${ms(idleBy)} ms`);
}

const batch = Array.from({ length: 1000 }, () => ({ n: hard }));

await check('streamable /mcp/compact: onprogress, then an AbortSignal stops the work', async () => {
  const client = new Client({ name: 'precisiond-progress-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp/compact`)));
  try {
    await abortAfterProgress(client, 'run_plan', { plan, params_batch: batch });
  } finally {
    await client.close();
  }
});

done('progress.mjs');
