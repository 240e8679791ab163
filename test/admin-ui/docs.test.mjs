// Drives the start page (/) and the API reference (/docs, Swagger UI) in
// headless Chromium. Run by cmd/precisiond/adminui_test.go, which starts the
// real binary and passes:
//   PRECISIOND_URL   base URL of the server
//   SCREENSHOT       where to save a screenshot of /docs after the call
//   USER_DATA_DIR    a fresh, empty Chromium profile directory
//   CHROMIUM         the browser binary (default /usr/bin/chromium)
import { launch, watchProblems } from './browser.mjs';
import assert from 'node:assert/strict';

const base = process.env.PRECISIOND_URL;
assert.ok(base && process.env.SCREENSHOT && process.env.USER_DATA_DIR, 'missing environment');

const context = await launch({ viewport: { width: 1280, height: 900 } });
const problems = [];
const foreign = [];
try {
  const page = context.pages()[0] || (await context.newPage());
  // A CSP violation is reported to the page as an event (and to the console);
  // the listener is installed by the browser, outside the page's policy.
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || 'inline'} (${e.sourceFile}:${e.lineNumber})`);
    });
  });
  watchProblems(page, problems);
  page.on('request', (r) => { if (!r.url().startsWith(base) && !r.url().startsWith('data:')) foreign.push(r.url()); });

  // The start page: no script at all, links to everything.
  let resp = await page.goto(base + '/');
  assert.equal(resp.status(), 200);
  assert.match(resp.headers()['content-security-policy'] || '', /default-src 'none'/);
  assert.doesNotMatch(resp.headers()['content-security-policy'], /script-src/);
  assert.equal(await page.title(), 'precisiond');
  const links = await page.$$eval('#links a', (as) => as.map((a) => a.getAttribute('href')));
  for (const want of ['/docs', '/tools', '/v1/catalog', '/openapi.json', '/health', '/metrics', '/admin']) {
    assert.ok(links.includes(want), `start page lacks a link to ${want}: ${links}`);
  }
  assert.match(await page.textContent('#mcp'), /\/mcp\b[\s\S]*\/mcp\/sse[\s\S]*\/mcp\/compact[\s\S]*precisiond mcp/);
  // One row per tool of the catalogue the same server serves.
  const catalogue = await (await fetch(base + '/tools')).json();
  assert.ok(catalogue.tools.length >= 23, `catalogue of ${catalogue.tools.length} tools`);
  assert.equal(await page.$$eval('#tools tbody tr', (rows) => rows.length), catalogue.tools.length);
  console.log('start page:', links.join(' '));

  // Follow the link to the API reference.
  [resp] = await Promise.all([page.waitForNavigation(), page.click('#links a[href="/docs"]')]);
  assert.equal(resp.url(), base + '/docs');
  const csp = resp.headers()['content-security-policy'] || '';
  assert.match(csp, /script-src 'self';/);
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
  await page.waitForSelector('.swagger-ui .info .title');
  assert.match(await page.textContent('.swagger-ui .info .title'), /precisiond/);
  console.log('docs title:', (await page.textContent('.swagger-ui .info .title')).trim());

  // Expand POST /v1/invoke, try it out with a gcd_lcm call, execute.
  const op = '#operations-default-invokeV1';
  await page.click(`${op} .opblock-summary`);
  await page.click(`${op} .try-out__btn`);
  // The body is prefilled with the description's example, a gcd_lcm call.
  const request = await page.inputValue(`${op} textarea.body-param__text`);
  assert.deepEqual(JSON.parse(request), { tool: 'gcd_lcm', args: { a: 391, b: 299 } });
  await page.click(`${op} .execute`);
  await page.waitForSelector(`${op} .live-responses-table tr.response .response-col_status`);
  const status = (await page.textContent(`${op} .live-responses-table tr.response .response-col_status`)).trim();
  const shown = await page.textContent(`${op} .live-responses-table tr.response .response-col_description`);
  assert.equal(status, '200', 'status shown on the page');
  assert.match(shown, /LCM\(391, 299\) = 5083/);
  // The page shows the server's real answer: the same result_hash as a direct call.
  const direct = await (await fetch(base + '/v1/invoke', {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: request,
  })).json();
  const hash = direct.structured_result.result_hash;
  assert.match(hash, /^[0-9a-f]{64}$/);
  assert.ok(shown.includes(hash), `the page does not show result_hash ${hash}`);
  console.log('tried gcd_lcm from /docs: HTTP', status, 'result_hash', hash);

  // A mistake shows its hint on the page too.
  await page.fill(`${op} textarea.body-param__text`, '{"tool":"gcd_lmc","args":{}}');
  await page.click(`${op} .execute`);
  await page.waitForFunction((sel) => {
    const el = document.querySelector(sel);
    return el && el.textContent.trim() === '404';
  }, `${op} .live-responses-table tr.response .response-col_status`);
  assert.match(await page.textContent(`${op} .live-responses-table tr.response .response-col_description`), /did you mean/);

  await page.screenshot({ path: process.env.SCREENSHOT, fullPage: false });
  // A 404 answer is logged by Chromium as a failed resource load; nothing else may fail.
  const unexpected = problems.filter((p) => !/status of 404/.test(p));
  assert.deepEqual(unexpected, [], 'browser problems');
  assert.deepEqual(foreign, [], 'requests to other origins');
  console.log('DOCS-UI OK');
} finally {
  await context.close();
}
