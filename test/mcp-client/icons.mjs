// Tool icons with the official TypeScript SDK client (run from Go:
// TestTypeScriptToolIcons in test/icons_test.go).
//
//   node icons.mjs http://127.0.0.1:PORT BINARY PUBLIC_BASE_URL
//
// The server runs with --public-base-url PUBLIC_BASE_URL; this client speaks
// protocol 2025-11-25 (its SDK's latest), the first version with icons. Over
// Streamable HTTP, the HTTP+SSE transport and stdio (`precisiond mcp
// --public-base-url …`), its SDK accepts tools/list (it validates the result
// with its own schema) and every tool names exactly its catalogue group's
// icon, PUBLIC_BASE_URL/icons/<group>.svg, the group as GET /v1/catalog
// lists the tool; that path serves an SVG. The compact surface's four tools
// carry none. Exit 0 only when every check passes.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { check, done } from './check.mjs';

const [base, binary, publicBase] = process.argv.slice(2);
if (!base || !binary || !publicBase) {
  console.error('usage: node icons.mjs BASE_URL BINARY PUBLIC_BASE_URL');
  process.exit(2);
}

const catalog = await (await fetch(`${base}/v1/catalog`)).json();
const groupOf = new Map();
for (const g of catalog.groups) for (const t of g.tools) groupOf.set(t.name, g.name);
assert.ok(groupOf.size > 0, 'empty catalogue');

const stdioDir = fs.mkdtempSync(path.join(os.tmpdir(), 'precisiond-icons-ts-'));
const transports = {
  streamable: () => new StreamableHTTPClientTransport(new URL(`${base}/mcp`)),
  sse: () => new SSEClientTransport(new URL(`${base}/mcp/sse`)),
  stdio: () => new StdioClientTransport({
    command: binary,
    args: ['mcp', '--data-dir', stdioDir, '--log-level', 'warn', '--public-base-url', publicBase],
    env: { ...process.env },
    stderr: 'inherit',
  }),
  compact: () => new StreamableHTTPClientTransport(new URL(`${base}/mcp/compact`)),
};

for (const [kind, make] of Object.entries(transports)) {
  await check(`${kind}: tool icons`, async () => {
    const client = new Client({ name: 'precisiond-icons', version: '1.0.0' });
    await client.connect(make());
    try {
      // One page: 31 tools, 100 to a page.
      const { tools, nextCursor } = await client.listTools();
      assert.equal(nextCursor, undefined, 'a second page');
      assert.ok(tools.length > 0, 'no tools');
      for (const t of tools) {
        if (kind === 'compact') {
          assert.equal(t.icons, undefined, `${t.name}: a compact tool with icons`);
          continue;
        }
        const group = groupOf.get(t.name);
        assert.ok(group, `${t.name} is in no catalogue group`);
        assert.deepEqual(t.icons, [{ src: `${publicBase}/icons/${group}.svg`, mimeType: 'image/svg+xml', sizes: ['any'] }], t.name);
      }
      if (kind !== 'compact') assert.equal(tools.length, groupOf.size, 'tools listed against the catalogue');
    } finally {
      await client.close();
    }
  });
}

await check('icon paths serve SVG', async () => {
  for (const group of new Set(groupOf.values())) {
    const res = await fetch(`${base}/icons/${group}.svg`);
    assert.equal(res.status, 200, group);
    assert.equal(res.headers.get('content-type'), 'image/svg+xml', group);
    assert.match(await res.text(), /<svg[\s>]/, group);
  }
});

fs.rmSync(stdioDir, { recursive: true, force: true });
done('icons.mjs');
