// End-to-end check of precisiond's API tokens with the official TypeScript
// SDK client, over Streamable HTTP (/mcp) and HTTP+SSE (/mcp/sse).
//
//   node auth.mjs http://127.0.0.1:PORT ALICE_TOKEN BOB_TOKEN
//
// The server runs with a tokens file in which alice may call every tool and
// bob only gcd_* (see test/mcpclient_test.go). For each transport: no token
// and a wrong token are refused with HTTP 401 at connect; alice lists every
// tool, calls one, generates a file whose resource link carries a signed
// download path that a plain fetch (no Authorization header, as a browser
// sends) downloads, while a tampered link gets 403; bob lists only gcd_*,
// gets a forbidden tool error outside his scope and sees none of alice's
// files. Exit 0 only when every check passes.

import assert from 'node:assert/strict';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { check, done } from './check.mjs';

const [base, alice, bob] = process.argv.slice(2);
if (!base || !alice || !bob) {
  console.error('usage: node auth.mjs BASE_URL ALICE_TOKEN BOB_TOKEN');
  process.exit(2);
}


const transports = {
  streamable: (init) => new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: init }),
  sse: (init) => new SSEClientTransport(new URL(`${base}/mcp/sse`), { requestInit: init }),
};

function bearer(token) {
  return token ? { headers: { Authorization: `Bearer ${token}` } } : undefined;
}

async function connect(kind, token) {
  const client = new Client({ name: 'precisiond-auth-test', version: '1.0.0' });
  await client.connect(transports[kind](bearer(token)));
  return client;
}

const catalogue = await fetch(`${base}/tools`, bearer(alice));
assert.equal(catalogue.status, 200);
const allTools = (await catalogue.json()).tools.map((t) => t.name);

for (const kind of Object.keys(transports)) {
  await check(`${kind}: no token is refused with 401`, async () => {
    await assert.rejects(connect(kind, ''), (err) => {
      assert.match(String(err.code ?? err.message), /401|Unauthorized/i, String(err));
      return true;
    });
  });
  await check(`${kind}: a wrong token is refused with 401`, async () => {
    await assert.rejects(connect(kind, 'not-a-token'), (err) => {
      assert.match(String(err.code ?? err.message), /401|Unauthorized/i, String(err));
      return true;
    });
  });

  let aliceFile;
  await check(`${kind}: alice lists and calls every tool, downloads a signed link`, async () => {
    const client = await connect(kind, alice);
    try {
      const names = [];
      let cursor;
      do {
        const page = await client.listTools(cursor ? { cursor } : {});
        names.push(...page.tools.map((t) => t.name));
        cursor = page.nextCursor;
      } while (cursor);
      assert.deepEqual(names, allTools);
      const gcd = await client.callTool({ name: 'gcd_lcm', arguments: { a: 12, b: 18 } });
      assert.ok(!gcd.isError, JSON.stringify(gcd));
      assert.equal(gcd.structuredContent.facts.gcd, 6);

      const gen = await client.callTool({ name: 'generate_file', arguments: { content: `# ${kind}\n\nSigned.\n`, filename: `signed ${kind}`, format: 'md' } });
      assert.ok(!gen.isError, JSON.stringify(gen));
      const link = gen.content.find((c) => c.type === 'resource_link');
      assert.ok(link, 'no resource_link');
      const url = link._meta && link._meta['precisiond/download_url'];
      assert.match(url, /^\/downloads\/[^?]+\?exp=\d+&sig=[A-Za-z0-9_-]+$/);
      aliceFile = link.uri;

      // A browser-style download: no Authorization header, no credentials.
      const got = await fetch(base + url, { credentials: 'omit', headers: { Accept: 'text/html,*/*' } });
      assert.equal(got.status, 200);
      assert.match(got.headers.get('content-disposition') ?? '', /^attachment/);
      const body = await got.text();
      const read = await client.readResource({ uri: link.uri });
      assert.equal(body, read.contents[0].text);

      const tampered = url.replace(/sig=(.)/, (_, c) => `sig=${c === 'A' ? 'B' : 'A'}`);
      assert.equal((await fetch(base + tampered)).status, 403);
      const unsigned = url.replace(/\?.*$/, '');
      assert.equal((await fetch(base + unsigned)).status, 401);

      const listed = (await client.listResources()).resources.map((r) => r.uri);
      assert.ok(listed.includes(link.uri), `${link.uri} not in ${listed}`);
    } finally {
      await client.close();
    }
  });

  await check(`${kind}: bob sees only his scope and none of alice's files`, async () => {
    const client = await connect(kind, bob);
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      assert.ok(names.length > 0 && names.every((n) => n.startsWith('gcd_')), String(names));
      const ok = await client.callTool({ name: 'gcd_lcm', arguments: { a: 4, b: 6 } });
      assert.ok(!ok.isError, JSON.stringify(ok));
      const refused = await client.callTool({ name: 'hash_text', arguments: { text: 'x' } });
      assert.ok(refused.isError);
      assert.equal(refused.structuredContent.error_code, 'forbidden');
      const listed = (await client.listResources()).resources.map((r) => r.uri);
      assert.ok(!listed.includes(aliceFile), `bob lists ${aliceFile}`);
      await assert.rejects(client.readResource({ uri: aliceFile }));
    } finally {
      await client.close();
    }
  });
}

done('auth.mjs');
