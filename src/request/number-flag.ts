/**
 * The one check of a number typed after a flag (`--timeout 30`, `--concurrency 4`, `--max-high 5`,
 * a request field's `--severities-min 2.5`) or in an environment variable (`SVC_TIMEOUT`): a plain
 * decimal number (no `0x10`, no empty value), whole when asked, within the flag's range.
 */
import { UsageError } from '../core/errors.js';

interface NumberRule {
  /** Where the value came from, as the user wrote it: `--timeout`, `SVC_TIMEOUT`. */
  flag: string;
  min?: number;
  max?: number;
  /** `min` itself is not allowed (`--timeout`: more than 0). */
  aboveMin?: boolean;
  whole?: boolean;
  /** What the number counts, for the message (default: a number). */
  unit?: 'seconds' | 'MiB';
  hint?: string;
}

const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

export function parseNumberFlag(raw: unknown, rule: NumberRule): number {
  const text = typeof raw === 'string' ? raw.trim() : '';
  const n = DECIMAL.test(text) ? Number(text) : NaN;
  const ok = Number.isFinite(n)
    && (!rule.whole || Number.isInteger(n))
    && (rule.min === undefined || (rule.aboveMin ? n > rule.min : n >= rule.min))
    && (rule.max === undefined || n <= rule.max);
  if (!ok) throw new UsageError(`${rule.flag} expects ${expected(rule)}, got '${String(raw)}'`, rule.hint);
  return n;
}

/** The same for a flag with a default: `undefined` (not given) is the default. */
export function numberFlag(raw: unknown, rule: NumberRule, dflt: number): number {
  return raw === undefined ? dflt : parseNumberFlag(raw, rule);
}

function expected(r: NumberRule): string {
  const what = r.unit ?? (r.whole ? 'a whole number' : 'a number');
  if (r.min === undefined) return r.whole ? 'an integer' : what;
  if (r.max === undefined) return `${what}, ${r.min} or more`;
  if (r.aboveMin) return `${what}, more than ${r.min} and at most ${r.max}`;
  return `${what} from ${r.min} to ${r.max}`;
}
