import { afterEach, describe, expect, it } from 'vitest';
import { shellAvailable } from '../../helpers/shells.js';
import { ptyAvailable } from '../../helpers/pty.js';

describe('a missing shell skips its tests locally and fails them in CI', () => {
  const saved = process.env.CI;
  afterEach(() => {
    if (saved === undefined) delete process.env.CI;
    else process.env.CI = saved;
  });

  it('without CI: reported as unavailable (the tests skip)', () => {
    delete process.env.CI;
    expect(shellAvailable('no-such-shell-svc-test')).toBe(false);
    expect(shellAvailable('sh')).toBe(true);
  });

  it('with CI set: an error (the tests fail)', () => {
    process.env.CI = 'true';
    expect(() => shellAvailable('no-such-shell-svc-test')).toThrow(/not installed, but CI is set/);
    expect(typeof ptyAvailable()).toBe('boolean');
  });
});
