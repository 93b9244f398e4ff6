import { describe, expect, it } from 'vitest';
import { numberFlag, parseNumberFlag } from '../../../src/request/number-flag.js';
import { UsageError } from '../../../src/core/errors.js';

const message = (raw: unknown, rule: Parameters<typeof parseNumberFlag>[1]) => {
  try { parseNumberFlag(raw, rule); } catch (e) { expect(e).toBeInstanceOf(UsageError); return (e as Error).message; }
  return 'accepted';
};

describe('the one number-flag check', () => {
  it('accepts plain decimal numbers within the range, spaces around them trimmed', () => {
    expect(parseNumberFlag(' 16 ', { flag: '--concurrency', whole: true, min: 1, max: 16 })).toBe(16);
    expect(parseNumberFlag('0.1', { flag: '--poll-interval', min: 0.1, max: 3600, unit: 'seconds' })).toBe(0.1);
    expect(parseNumberFlag('-2.5', { flag: '--severities-min' })).toBe(-2.5);
    expect(numberFlag(undefined, { flag: '--page-size', whole: true, min: 1, max: 5000 }, 500)).toBe(500);
  });

  it('refuses what Number() would let through: empty, hex, non-numbers', () => {
    for (const raw of ['', '  ', '0x10', 'Infinity', 'abc', '1,5', undefined, true]) {
      expect(message(raw, { flag: '--concurrency', whole: true, min: 1, max: 16 }), String(raw)).toBe(`--concurrency expects a whole number from 1 to 16, got '${String(raw)}'`);
    }
  });

  it('names the range the flag takes', () => {
    expect(message('0', { flag: '--timeout', min: 0, aboveMin: true, max: 3600, unit: 'seconds' })).toBe("--timeout expects seconds, more than 0 and at most 3600, got '0'");
    expect(message('-1', { flag: '--max-high', whole: true, min: 0 })).toBe("--max-high expects a whole number, 0 or more, got '-1'");
    expect(message('1.5', { flag: '--page', whole: true })).toBe("--page expects an integer, got '1.5'");
    expect(message('2', { flag: '--fail-rate', min: 0, max: 1 })).toBe("--fail-rate expects a number from 0 to 1, got '2'");
  });
});
