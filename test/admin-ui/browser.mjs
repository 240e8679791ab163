// The headless Chromium every test here drives: a fresh profile in
// USER_DATA_DIR, the binary in CHROMIUM (default /usr/bin/chromium), nothing
// started in the background.
import { chromium } from 'playwright-core';

// launch opens the browser; options (acceptDownloads, viewport, ...) are added
// to the common ones.
export function launch(options = {}) {
  return chromium.launchPersistentContext(process.env.USER_DATA_DIR, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    ...options,
  });
}

// watchProblems records the page's console errors, uncaught errors and failed
// requests in problems.
export function watchProblems(page, problems) {
  page.on('console', (m) => { if (m.type() === 'error') problems.push('console: ' + m.text()); });
  page.on('pageerror', (e) => problems.push('page error: ' + e.message));
  page.on('requestfailed', (r) => problems.push('request failed: ' + r.url()));
}
