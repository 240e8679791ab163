// Drives the precisiond admin page in headless Chromium. Run by
// cmd/precisiond/adminui_test.go, which starts the real binary and passes:
//   PRECISIOND_URL   base URL of the server
//   ADMIN_TOKEN      the server's admin token
//   SCREENSHOT       where to save a full-page screenshot
//   USER_DATA_DIR    a fresh, empty Chromium profile directory
//   CHROMIUM         the browser binary (default /usr/bin/chromium)
import { launch, watchProblems } from './browser.mjs';
import assert from 'node:assert/strict';

const base = process.env.PRECISIOND_URL;
const token = process.env.ADMIN_TOKEN;
assert.ok(base && token && process.env.SCREENSHOT && process.env.USER_DATA_DIR, 'missing environment');

async function enabledOnServer(name) {
  // The server runs with API tokens, which admit the admin token too.
  const cat = await (await fetch(base + '/tools', { headers: { Authorization: 'Bearer ' + token } })).json();
  const entry = cat.tools.find((t) => t.name === name);
  assert.ok(entry, name + ' not in /tools');
  return entry.enabled;
}

const context = await launch({ viewport: { width: 1280, height: 900 } });
const problems = [];
try {
  const page = context.pages()[0] || (await context.newPage());
  watchProblems(page, problems);

  const resp = await page.goto(base + '/admin');
  assert.equal(resp.status(), 200);
  assert.match(resp.headers()['content-security-policy'] || '', /default-src 'none'/);
  assert.equal(await page.title(), 'precisiond admin');

  // A wrong token is refused, the right one accepted.
  await page.fill('#token', 'not-the-token');
  await page.click('#login-button');
  await page.waitForSelector('#session.bad');
  problems.length = 0; // the refused token's 401 is expected; nothing else may fail
  await page.fill('#token', token);
  await page.click('#login-button');
  await page.waitForSelector('#session.ok');
  console.log('signed in:', await page.textContent('#session'));

  // Disable and re-enable a tool; the server's catalogue must follow.
  const tool = 'gcd_lcm';
  const state = `#tool-${tool} [data-state]`;
  assert.equal(await page.textContent(state), 'enabled');
  await page.click(`[data-toggle="${tool}"]`);
  await page.waitForFunction((sel) => document.querySelector(sel).textContent === 'disabled', state);
  assert.equal(await enabledOnServer(tool), false, 'the page said disabled but /tools disagrees');
  const hashOff = await page.textContent('#catalog-hash');
  await page.click(`[data-toggle="${tool}"]`);
  await page.waitForFunction((sel) => document.querySelector(sel).textContent === 'enabled', state);
  assert.equal(await enabledOnServer(tool), true, 'the page said enabled but /tools disagrees');
  assert.notEqual(await page.textContent('#catalog-hash'), hashOff, 'catalog_hash did not change on the page');
  console.log('toggled', tool, 'off and on');

  // "Try it" for two tools with their prefilled example args: verified badges.
  for (const name of ['gcd_lcm', 'decimal_finance']) {
    await page.click(`#try-${name} summary`);
    const args = await page.inputValue(`[data-args="${name}"]`);
    assert.notEqual(args, '{}', name + ' has no prefilled example');
    await page.click(`[data-run="${name}"]`);
    await page.waitForSelector(`[data-badge="${name}"].verified, [data-badge="${name}"].not-verified`);
    const badge = await page.textContent(`[data-badge="${name}"]`);
    const out = await page.textContent(`[data-output="${name}"]`);
    assert.equal(badge, 'verified', `${name}: badge "${badge}" for output ${out}`);
    assert.match(out, /"result_hash": "[0-9a-f]{64}"/);
    console.log('try it', name, args, '->', badge);
  }
  // A tampered input does not fake a badge: an error response is not verified.
  await page.click('#try-roman_numeral summary');
  await page.fill('[data-args="roman_numeral"]', '{"value":"IIII"}');
  await page.click('[data-run="roman_numeral"]');
  await page.waitForSelector('[data-badge="roman_numeral"].not-verified');

  // Screenshot: the header (signed in, catalog_hash) and gcd_lcm's verified run.
  await page.click('#try-roman_numeral summary');
  await page.click('#try-decimal_finance summary');
  await page.setViewportSize({ width: 1280, height: 1300 });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: process.env.SCREENSHOT, fullPage: false });
  assert.deepEqual(problems, [], 'browser problems');
  console.log('ADMIN-UI OK');
} finally {
  await context.close();
}
