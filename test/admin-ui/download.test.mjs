// Opens precisiond's signed download links in headless Chromium, as a user
// clicking a link would: no Authorization header. Run by
// cmd/precisiond/access_test.go, which starts the real binary with API tokens
// and passes:
//   SIGNED_URL     a fresh signed link (must download, bytes with SHA-256 WANT_SHA256)
//   TAMPERED_URL   the same link with a changed signature (must be 403)
//   EXPIRED_URL    a correctly signed link past its expiry (must be 403)
//   UNSIGNED_URL   the bare /downloads path (must be 401)
//   USER_DATA_DIR  a fresh, empty Chromium profile directory
//   CHROMIUM       the browser binary (default /usr/bin/chromium)
import { launch } from './browser.mjs';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';

const env = process.env;
for (const k of ['SIGNED_URL', 'TAMPERED_URL', 'EXPIRED_URL', 'UNSIGNED_URL', 'WANT_SHA256', 'USER_DATA_DIR']) {
  assert.ok(env[k], 'missing ' + k);
}

const context = await launch({ acceptDownloads: true });
try {
  const page = context.pages()[0] || (await context.newPage());
  const sent = [];
  page.on('request', (r) => sent.push(r.headers()));

  // The signed link: Content-Disposition: attachment, so the browser downloads.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.goto(env.SIGNED_URL).catch(() => {}), // navigation is aborted by the download
  ]);
  const path = await download.path();
  const sum = crypto.createHash('sha256').update(fs.readFileSync(path)).digest('hex');
  assert.equal(sum, env.WANT_SHA256, 'downloaded bytes differ');
  assert.ok(sent.every((h) => !('authorization' in h)), 'the browser sent an Authorization header');
  console.log('downloaded', download.suggestedFilename(), sum);

  for (const [name, url, status] of [['tampered', env.TAMPERED_URL, 403], ['expired', env.EXPIRED_URL, 403], ['unsigned', env.UNSIGNED_URL, 401]]) {
    const resp = await page.goto(url);
    assert.equal(resp.status(), status, `${name} link`);
    console.log(name, 'link refused with', resp.status());
  }
  console.log('SIGNED-LINKS OK');
} finally {
  await context.close();
}
