import { describe, expect, it } from 'vitest';
import { count, duration } from '../../../src/terminal/progress.js';

describe('progress numbers', () => {
  it('count groups thousands as toLocaleString("en-US") does', () => {
    for (const n of [0, 7, 999, 1000, 12_345, 100_000, 1_234_567, -1_000, Number.MAX_SAFE_INTEGER]) {
      expect(count(n)).toBe(n.toLocaleString('en-US'));
    }
    expect(count(56_238)).toBe('56,238');
  });

  it('duration', () => {
    expect(duration(45_000)).toBe('45s');
    expect(duration(185_000)).toBe('3m 05s');
  });
});
