import { describe, expect, it } from 'vitest';
import { BASE_DELAY_MS, MAX_DELAY_MS, MAX_RETRY_AFTER_MS, isRetryable, parseRetryAfter, retryDelayMs } from '../../../src/http/retry.js';
import { ConnectionError, ResponseError, TimeoutError, statusError } from '../../../src/http/api-errors.js';
import { UsageError } from '../../../src/core/errors.js';

const refused = new ConnectionError('refused', true);
const reset = new ConnectionError('reset', false);
const untrusted = new ConnectionError('tls', true, undefined, true);
const connectTimeout = new TimeoutError('t', 'connect');
const headersTimeout = new TimeoutError('t', 'headers');
const bodyTimeout = new TimeoutError('t', 'body');
const status = (n: number) => statusError(n, 'x', '');

describe('isRetryable', () => {
  it('retries a read on every transient failure', () => {
    for (const e of [refused, reset, connectTimeout, headersTimeout, bodyTimeout, status(408), status(429), status(500), status(502), status(503), status(504)]) {
      expect(isRetryable(e, true), e.message).toBe(true);
    }
  });

  it('retries a mutation only when it provably never reached the server, or on 429', () => {
    expect(isRetryable(refused, false)).toBe(true);
    expect(isRetryable(connectTimeout, false)).toBe(true);
    expect(isRetryable(status(429), false)).toBe(true);
    for (const e of [reset, headersTimeout, bodyTimeout, status(408), status(500), status(503)]) {
      expect(isRetryable(e, false), e.message).toBe(false);
    }
  });

  it('never retries what cannot get better', () => {
    for (const safe of [true, false]) {
      for (const e of [untrusted, status(400), status(401), status(403), status(404), status(422), new ResponseError('not json', 200), new UsageError('bad'), new Error('bug')]) {
        expect(isRetryable(e, safe), `${e.message} safe=${safe}`).toBe(false);
      }
    }
  });
});

describe('retryDelayMs', () => {
  it('doubles from 0.5 s with jitter in the upper half, capped', () => {
    expect(retryDelayMs(0, () => 0)).toBe(BASE_DELAY_MS / 2);
    expect(retryDelayMs(0, () => 1)).toBe(BASE_DELAY_MS);
    expect(retryDelayMs(1, () => 1)).toBe(BASE_DELAY_MS * 2);
    expect(retryDelayMs(2, () => 0.5)).toBe(Math.round(BASE_DELAY_MS * 4 * 0.75));
    expect(retryDelayMs(30, () => 1)).toBe(MAX_DELAY_MS);
    for (let a = 0; a < 12; a++) {
      const d = retryDelayMs(a, Math.random);
      expect(d).toBeGreaterThanOrEqual(Math.min(BASE_DELAY_MS * 2 ** a, MAX_DELAY_MS) / 2);
      expect(d).toBeLessThanOrEqual(MAX_DELAY_MS);
    }
  });

  it("uses the server's Retry-After, capped at 60 s", () => {
    expect(retryDelayMs(0, () => 1, 0)).toBe(0);
    expect(retryDelayMs(3, () => 1, 1500)).toBe(1500);
    expect(retryDelayMs(0, () => 1, 3_600_000)).toBe(MAX_RETRY_AFTER_MS);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');
  it('reads seconds', () => {
    expect(parseRetryAfter('0', now)).toBe(0);
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter(' 120 ', now)).toBe(120_000);
    expect(parseRetryAfter(['2', '9'], now)).toBe(2000);
  });
  it('reads HTTP dates', () => {
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Tue, 31 Dec 2024 23:00:00 GMT', now)).toBe(0);
  });
  it('ignores what it cannot read', () => {
    for (const v of [undefined, '', 'soon', '-1', '5 minutes', '1e3', 'NaN']) expect(parseRetryAfter(v, now), String(v)).toBeUndefined();
  });
});
