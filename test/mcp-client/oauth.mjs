// The MCP authorization flow with the official TypeScript SDK client against
// a real OpenID provider (run from Go: TestTypeScriptMCPClientOAuth in
// test/mcpclient_test.go, which starts the zitadel example server and
// precisiond with --oauth-issuer).
//
//   node oauth.mjs BASE_URL ISSUER REDIRECT_URI CLIENT_ID CLIENT_SECRET USERNAME PASSWORD
//
// BASE_URL is precisiond's public base URL (--public-base-url). The client
// uses the SDK's own OAuth support: an OAuthClientProvider on
// StreamableHTTPClientTransport, which runs the authorization code flow with
// PKCE (the SDK's auth()). The client is pre-registered at the provider
// (CLIENT_ID, CLIENT_SECRET: no dynamic registration). This script plays
// the user: it opens the authorization URL the SDK hands to
// redirectToAuthorization, logs in on the provider's login page with fetch
// (as a browser would post the form) and gives the code from the redirect
// to transport.finishAuth.
//
// Every request the SDK makes goes through a recording fetch, and the chain
// is asserted exactly as the MCP authorization spec (2025-11-25,
// "Authorization Flow Steps") describes it:
//   POST /mcp → 401 with WWW-Authenticate: Bearer resource_metadata="…"
//   GET that resource_metadata URL (RFC 9728) → the authorization server
//   GET <issuer>/.well-known/oauth-authorization-server (RFC 8414) → 404,
//   then <issuer>/.well-known/openid-configuration (OpenID Discovery) → 200
//   the user agent at its authorization_endpoint (code, S256 PKCE,
//   resource = the metadata's resource, RFC 8707) → redirect with the code
//   POST token_endpoint (code_verifier, resource) → an access token
//   POST /mcp with Authorization: Bearer → initialize and tools/call answer.
// The token then also serves /mcp/compact and the legacy /mcp/sse (one
// resource covers the server). Without a token, or with a wrong one, the
// same tools/call is refused with 401. Exit 0 only when every check passes.

import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { check, done } from './check.mjs';

const [base, issuer, redirectUri, clientId, clientSecret, username, password] = process.argv.slice(2);
if (!password) {
  console.error('usage: node oauth.mjs BASE_URL ISSUER REDIRECT_URI CLIENT_ID CLIENT_SECRET USERNAME PASSWORD');
  process.exit(2);
}

const mcpURL = `${base}/mcp`;
const prmURL = `${base}/.well-known/oauth-protected-resource/mcp`;
const issuerURL = new URL(issuer);
const rfc8414URL = new URL('/.well-known/oauth-authorization-server', issuerURL).href;
const oidcURL = new URL('/.well-known/openid-configuration', issuerURL).href;

// A tools/call as a client sends it on stateless /mcp.
const gcdCall = {
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'gcd_lcm', arguments: { a: 12, b: 18 } },
};

function postMCP(body, token) {
  const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
  if (token) headers.Authorization = `Bearer ${token}`;
  return fetch(mcpURL, { method: 'POST', headers, body: JSON.stringify(body) });
}

function param(header, name) {
  const m = (header ?? '').match(new RegExp(`${name}="([^"]*)"`));
  return m ? m[1] : undefined;
}

// The log of every request the SDK made: method, URL, status, the
// WWW-Authenticate answer, the Authorization sent, the JSON-RPC method or
// the form body. An entry is logged when the request is sent and its answer
// filled in when it arrives; settled() waits for all of them (an SSE
// session's POST may be answered after the answer it carried has come on
// the stream).
const sent = [];
const pending = [];
function settled() {
  return Promise.allSettled(pending);
}
function recordingFetch(url, init = {}) {
  const p = record(url, init);
  pending.push(p);
  return p;
}
async function record(url, init) {
  const headers = new Headers(init.headers);
  const entry = { method: (init.method ?? 'GET').toUpperCase(), url: String(url), authorization: headers.get('authorization') };
  if (typeof init.body === 'string') {
    try {
      entry.rpc = JSON.parse(init.body).method;
    } catch {
      // not JSON-RPC
    }
  } else if (init.body instanceof URLSearchParams) {
    entry.form = Object.fromEntries(init.body);
  }
  sent.push(entry);
  const res = await fetch(url, init);
  entry.status = res.status;
  entry.challenge = res.headers.get('www-authenticate');
  return res;
}

function chain(entries) {
  return entries.map((e) => `${e.method} ${e.url} ${e.status}`);
}

// The client's side of the flow: what a client keeps between the redirect
// to the authorization server and the code coming back.
class Provider {
  constructor() {
    this.stateValue = randomBytes(16).toString('base64url');
  }
  get redirectUrl() {
    return redirectUri;
  }
  get clientMetadata() {
    return {
      client_name: 'precisiond-oauth-test',
      redirect_uris: [redirectUri],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
    };
  }
  state() {
    return this.stateValue;
  }
  clientInformation() {
    return this.client ?? { client_id: clientId, client_secret: clientSecret };
  }
  saveClientInformation(info) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url) {
    this.authorizationURL = new URL(url);
  }
  saveCodeVerifier(v) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
}

// The user at the provider, with a browser: open the authorization URL,
// follow its redirects to the login page, post the login form, follow the
// redirects until the one to the client's redirect URI, whose query holds
// the code and the state. Cookies are kept as a browser keeps them.
async function userLogsIn(authorizationURL) {
  const cookies = new Map();
  const visit = async (url, init = {}) => {
    const headers = new Headers(init.headers);
    if (cookies.size) headers.set('Cookie', [...cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    const res = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair.indexOf('=');
      cookies.set(pair.slice(0, i).trim(), pair.slice(i + 1));
    }
    return res;
  };
  let url = new URL(authorizationURL);
  let res = await visit(url);
  for (let hops = 0; ; hops++) {
    assert.ok(hops < 10, 'too many redirects before the login page');
    const location = res.headers.get('location');
    if (!location) break;
    url = new URL(location, url);
    res = await visit(url);
  }
  const page = await res.text();
  assert.equal(res.status, 200, `login page ${url}: ${page}`);
  const form = page.match(/<form[^>]*action="([^"]+)"/);
  const id = page.match(/name="id" value="([^"]+)"/);
  assert.ok(form && id, `no login form at ${url}: ${page}`);
  res = await visit(new URL(form[1], url), {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ id: id[1], username, password }),
  });
  for (let hops = 0; ; hops++) {
    assert.ok(hops < 10, 'too many redirects after the login');
    const location = res.headers.get('location');
    assert.ok(location, `the login did not redirect (HTTP ${res.status}): ${await res.text()}`);
    url = new URL(location, url);
    if (url.href.startsWith(redirectUri)) return url.searchParams;
    res = await visit(url);
  }
}

await check('no token: tools/call on /mcp is refused with 401 and a challenge naming the metadata', async () => {
  const res = await postMCP(gcdCall);
  assert.equal(res.status, 401, await res.text());
  const challenge = res.headers.get('www-authenticate');
  assert.match(challenge ?? '', /^Bearer /);
  assert.equal(param(challenge, 'resource_metadata'), prmURL);
  assert.ok(param(challenge, 'scope'), challenge);
});

await check('a wrong token: tools/call is refused with 401 invalid_token', async () => {
  const res = await postMCP(gcdCall, 'not-a-token-the-provider-issued');
  assert.equal(res.status, 401, await res.text());
  const challenge = res.headers.get('www-authenticate');
  assert.equal(param(challenge, 'error'), 'invalid_token', challenge);
  assert.equal(param(challenge, 'resource_metadata'), prmURL);
});

await check('the SDK client without an auth provider cannot connect: 401', async () => {
  const client = new Client({ name: 'precisiond-oauth-test', version: '1.0.0' });
  await assert.rejects(client.connect(new StreamableHTTPClientTransport(new URL(mcpURL))), (err) => {
    assert.match(String(err.code ?? err.message), /401|Unauthorized/i, String(err));
    return true;
  });
});

let accessToken;
let authorized; // the provider holding the token
await check('the SDK follows 401 → resource metadata → provider metadata → authorize → token → tools/call', async () => {
  const provider = new Provider();
  const transport = () => new StreamableHTTPClientTransport(new URL(mcpURL), { authProvider: provider, fetch: recordingFetch });

  // 1. Connecting: the SDK meets the 401, discovers, and hands the
  // authorization URL to the user (redirectToAuthorization).
  const first = new Client({ name: 'precisiond-oauth-test', version: '1.0.0' });
  const t1 = transport();
  await assert.rejects(first.connect(t1), UnauthorizedError);
  await settled();
  assert.deepEqual(chain(sent), [
    `POST ${mcpURL} 401`,
    `GET ${prmURL} 200`,
    `GET ${rfc8414URL} 404`,
    `GET ${oidcURL} 200`,
  ]);
  const [unauth] = sent;
  assert.equal(unauth.rpc, 'initialize');
  assert.equal(unauth.authorization, null);
  assert.equal(param(unauth.challenge, 'resource_metadata'), prmURL);
  const challengeScope = param(unauth.challenge, 'scope');

  // What the SDK read: the metadata names the resource and the provider;
  // the provider's metadata names its endpoints.
  const prm = await (await fetch(prmURL)).json();
  assert.equal(prm.resource, mcpURL);
  assert.deepEqual(prm.authorization_servers, [issuer]);
  const as = await (await fetch(oidcURL)).json();
  assert.equal(as.issuer, issuer);

  // 2. The authorization request: the provider's endpoint, code flow, PKCE
  // S256, the client's redirect URI and state, the challenge's scope and
  // the resource indicator of the metadata.
  const az = provider.authorizationURL;
  assert.ok(az, 'the SDK did not redirect to the authorization server');
  assert.equal(az.origin + az.pathname, as.authorization_endpoint);
  const q = az.searchParams;
  assert.equal(q.get('response_type'), 'code');
  assert.equal(q.get('client_id'), clientId);
  assert.equal(q.get('code_challenge_method'), 'S256');
  assert.equal(q.get('redirect_uri'), redirectUri);
  assert.equal(q.get('state'), provider.stateValue);
  assert.equal(q.get('scope'), challengeScope);
  assert.equal(q.get('resource'), prm.resource);
  assert.equal(q.get('code_challenge'), createHash('sha256').update(provider.verifier).digest('base64url'));

  // 3. The user logs in; the provider redirects back with the code.
  const back = await userLogsIn(az);
  assert.equal(back.get('state'), provider.stateValue);
  const code = back.get('code');
  assert.ok(code, `no code in the redirect: ${back}`);

  // 4. finishAuth: the SDK discovers again (nothing was cached) and
  // exchanges the code at the token endpoint.
  const before = sent.length;
  await t1.finishAuth(code);
  await settled();
  const exchange = sent.slice(before);
  assert.deepEqual(chain(exchange), [
    `GET ${prmURL} 200`,
    `GET ${rfc8414URL} 404`,
    `GET ${oidcURL} 200`,
    `POST ${as.token_endpoint} 200`,
  ]);
  const tokenReq = exchange.at(-1);
  assert.equal(tokenReq.form.grant_type, 'authorization_code');
  assert.equal(tokenReq.form.code, code);
  assert.equal(tokenReq.form.code_verifier, provider.verifier);
  assert.equal(tokenReq.form.redirect_uri, redirectUri);
  assert.equal(tokenReq.form.resource, prm.resource);
  assert.equal(tokenReq.authorization, `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`);
  const tokens = provider.tokens();
  assert.ok(tokens && tokens.access_token, 'no access token saved');
  assert.match(tokens.token_type, /^bearer$/i);
  accessToken = tokens.access_token;
  authorized = provider;

  // 5. A new connection with the token: initialize and tools/call answer,
  // every request to /mcp carries the token and none is refused.
  const at = sent.length;
  const client = new Client({ name: 'precisiond-oauth-test', version: '1.0.0' });
  await client.connect(transport());
  try {
    const res = await client.callTool({ name: 'gcd_lcm', arguments: { a: 12, b: 18 } });
    assert.ok(!res.isError, JSON.stringify(res));
    assert.equal(res.structuredContent.facts.gcd, 6);
    assert.equal(res.structuredContent.facts.lcm, 36);
  } finally {
    await client.close();
  }
  await settled();
  const mcp = sent.slice(at);
  assert.ok(mcp.length > 0);
  for (const e of mcp) {
    assert.equal(e.url, mcpURL, JSON.stringify(e));
    assert.equal(e.authorization, `Bearer ${accessToken}`, JSON.stringify(e));
    assert.ok(e.status !== 401 && e.status !== 403, JSON.stringify(e));
  }
  const rpcs = mcp.filter((e) => e.method === 'POST').map((e) => `${e.rpc} ${e.status}`);
  assert.deepEqual(rpcs.filter((r) => !r.startsWith('notifications/')), ['initialize 200', 'tools/call 200']);
  console.log(`the chain the SDK followed:\n  ${chain(sent).join('\n  ')}`);
});

await check('the token serves /mcp/compact and /mcp/sse too, without a new authorization', async () => {
  assert.ok(authorized, 'no token from the flow');
  const at = sent.length;
  const surfaces = {
    compact: () => new StreamableHTTPClientTransport(new URL(`${base}/mcp/compact`), { authProvider: authorized, fetch: recordingFetch }),
    sse: () => new SSEClientTransport(new URL(`${base}/mcp/sse`), { authProvider: authorized, fetch: recordingFetch }),
  };
  for (const [name, transport] of Object.entries(surfaces)) {
    const client = new Client({ name: 'precisiond-oauth-test', version: '1.0.0' });
    await client.connect(transport());
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      assert.ok(names.length > 0, name);
      if (name === 'sse') {
        const res = await client.callTool({ name: 'gcd_lcm', arguments: { a: 12, b: 18 } });
        assert.ok(!res.isError, JSON.stringify(res));
        assert.equal(res.structuredContent.facts.gcd, 6);
      }
    } finally {
      await client.close();
    }
  }
  await settled();
  const later = sent.slice(at);
  assert.ok(later.length > 0);
  for (const e of later) {
    assert.ok(e.url.startsWith(`${base}/mcp/`), `a request off precisiond: ${JSON.stringify(e)}`);
    assert.equal(e.authorization, `Bearer ${accessToken}`, JSON.stringify(e));
    assert.ok(e.status !== 401 && e.status !== 403, JSON.stringify(e));
  }
  const paths = new Set(later.map((e) => new URL(e.url).pathname));
  assert.ok(paths.has('/mcp/compact') && paths.has('/mcp/sse'), [...paths].join(' '));
  console.log(`with the token, on the other surfaces:\n  ${chain(later).join('\n  ')}`);
});

await check('the same tools/call with the token answers; without it, still 401', async () => {
  assert.ok(accessToken, 'no token from the flow');
  const res = await postMCP(gcdCall, accessToken);
  assert.equal(res.status, 200);
  const text = await res.text();
  // A JSON answer or one SSE event carrying it.
  const body = JSON.parse(text.startsWith('{') ? text : text.match(/^data: (.*)$/m)[1]);
  assert.equal(body.id, 1);
  assert.equal(body.result.structuredContent.facts.gcd, 6);
  assert.equal((await postMCP(gcdCall)).status, 401);
});

done('oauth.mjs');
