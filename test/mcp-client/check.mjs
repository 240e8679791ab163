// The checks of a client script (auth.mjs, plans2.mjs, progress.mjs): check
// runs one named check and counts it, done prints the tally and exits 1 when
// any check failed.
let failures = 0;
let checks = 0;

export async function check(name, fn) {
  try {
    await fn();
    checks++;
  } catch (err) {
    failures++;
    console.error(`FAIL ${name}: ${err && err.stack ? err.stack : err}`);
  }
}

export function done(script) {
  console.log(`${script}: ${checks} passed, ${failures} failed`);
  process.exit(failures ? 1 : 0);
}
