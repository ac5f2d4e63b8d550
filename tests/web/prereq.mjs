// A test file whose prerequisites are missing: outside CI its tests are
// skipped and the reason is printed; under CI (CI set to anything but "",
// "false" or "0", as .ci/run does) a failing test says what is missing,
// because a skip must never pass for a pass there.
import { test } from 'node:test';

export function underCi() {
  const ci = process.env.CI ?? '';
  return ci !== '' && ci !== 'false' && ci !== '0';
}

// reason: false when everything is there, else what is missing.  Returns
// the value for node:test's `skip` option.
export function unmet(reason) {
  if (!reason) return false;
  if (underCi()) {
    test('the prerequisites of this file are there', () => {
      throw new Error(`cannot run under CI: ${reason}`);
    });
  } else {
    console.log(`# skipped: ${reason}`);
  }
  return reason;
}
