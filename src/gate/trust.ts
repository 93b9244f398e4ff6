/**
 * The values of an issue the verdict depends on, checked before it is counted. The one rule for a
 * value outside what the spec and the field notes define (docs/security.md, "What the gate does
 * not trust"): the answer is not trusted and there is no verdict, exit 7 naming the issue, the field
 * and the value. Never counted as something else, never dropped, never "info".
 *
 * - `score`: a number from 0 to 100 (field notes, "Numbers and values"). A score the issue does not
 *   carry is not out of spec: the issue counts as critical (operations/levels.ts), as before.
 * - `status`: checked against the request's `types` by the listing (listing/answer-checks.ts): in an
 *   open-only search anything but exactly `open` (a look-alike, an invisible character, a non-string)
 *   is an answer outside the scope asked for. An issue without one counts as open.
 * - `createdAt`, when `--new-since` reads it: an ISO 8601 date-time (a date-time without a zone is UTC,
 *   whatever the runner's TZ); anything else, a bare number included, is not a date. An issue without
 *   one counts as new (sieve.ts).
 * Pure: no I/O.
 */
import { answerValue } from '../core/sanitize.js';

/** An issue value outside the spec: the message names the issue, the field and the value. */
export class UntrustedValueError extends Error {
  override readonly name = 'UntrustedValueError';
}

const shown = (v: unknown): string => answerValue(typeof v === 'string' ? v.slice(0, 80) : v);

function untrusted(issue: Record<string, unknown>, field: string, value: unknown, expected: string): UntrustedValueError {
  return new UntrustedValueError(`issue ${shown(String(issue.id))} has ${field} ${shown(value)}, not ${expected}`);
}

/** Throws when a value the verdict reads is outside the spec. `dates`: `--new-since` reads createdAt. */
export function checkIssueValues(issue: Record<string, unknown>, dates: boolean): void {
  const score = issue.score;
  if (score !== undefined && !(typeof score === 'number' && score >= 0 && score <= 100)) {
    throw untrusted(issue, 'score', score, 'a number from 0 to 100');
  }
  if (dates && issue.createdAt !== undefined && isoInstant(issue.createdAt) === undefined) {
    throw untrusted(issue, 'createdAt', issue.createdAt, 'an ISO 8601 date-time');
  }
}

const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?([Zz]|[+-]\d{2}(?::?\d{2})?)?$/;

/**
 * An ISO 8601 date-time as ms since the epoch, or undefined when it is not one (a bare number, a
 * date alone, a day that does not exist). Without a zone it is UTC: the runner's TZ never moves it.
 */
export function isoInstant(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const m = ISO_DATE_TIME.exec(value.trim());
  if (!m) return undefined;
  const [y, mo, d, h, mi, s] = [1, 2, 3, 4, 5, 6].map((k) => Number(m[k] ?? 0));
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 24 || mi > 59 || s > 60) return undefined;
  const ms = m[7] ? Number(`0.${m[7]}`) * 1000 : 0;
  let t = Date.UTC(y, mo - 1, d, h, mi, Math.min(s, 59), ms);
  const day = new Date(Date.UTC(y, mo - 1, d));
  if (day.getUTCFullYear() !== y || day.getUTCMonth() !== mo - 1 || day.getUTCDate() !== d) return undefined;
  if (h === 24 && (mi !== 0 || s !== 0 || ms !== 0)) return undefined;
  const zone = m[8];
  if (zone && zone !== 'Z' && zone !== 'z') {
    const zm = /^([+-])(\d{2}):?(\d{2})?$/.exec(zone)!;
    const off = (Number(zm[2]) * 60 + Number(zm[3] ?? 0)) * 60_000;
    if (Number(zm[2]) > 23 || Number(zm[3] ?? 0) > 59) return undefined;
    t -= zm[1] === '+' ? off : -off;
  }
  return Number.isFinite(t) ? t : undefined;
}
