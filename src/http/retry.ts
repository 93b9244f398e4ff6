/**
 * Retry policy: pure functions, unit-tested. Reads (safe operations) retry on network errors,
 * timeouts, 408, 429 and 5xx; mutations only when the request provably never left (connection
 * refused, DNS failure, connect timeout) or on 429 (the service refused it before doing anything).
 * Never after a timeout once the request was sent: it may have taken effect.
 */
import { ApiError, ConnectionError, RateLimitedError, TimeoutError } from './api-errors.js';

export const BASE_DELAY_MS = 500;
export const MAX_DELAY_MS = 8_000;
export const MAX_RETRY_AFTER_MS = 60_000;

export function isRetryable(err: unknown, safe: boolean): boolean {
  if (err instanceof RateLimitedError) return true;
  if (err instanceof ConnectionError) return !err.permanent && (safe || err.neverSent);
  // A connect timeout means no byte of the request left this machine.
  if (err instanceof TimeoutError && err.phase === 'connect') return true;
  if (!safe) return false;
  if (err instanceof TimeoutError) return true;
  if (err instanceof ApiError && err.status !== undefined) return err.status === 408 || err.status >= 500;
  return false;
}

/** Delay before retry number `attempt` (0-based): exponential with jitter, or the server's Retry-After. */
export function retryDelayMs(attempt: number, random: () => number, retryAfterMs?: number): number {
  if (retryAfterMs !== undefined && retryAfterMs >= 0) return Math.min(retryAfterMs, MAX_RETRY_AFTER_MS);
  const ceiling = Math.min(BASE_DELAY_MS * 2 ** attempt, MAX_DELAY_MS);
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/** `Retry-After` as seconds or an HTTP date, in milliseconds from `now`; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now: number): number | undefined {
  const v = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!v) return undefined;
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  // An HTTP date has a month name and a time of day; Date.parse alone accepts too much ("5", "-1").
  if (!/[A-Za-z]{3}/.test(v) || !/\d{1,2}:\d{2}:\d{2}/.test(v)) return undefined;
  const date = Date.parse(v);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
