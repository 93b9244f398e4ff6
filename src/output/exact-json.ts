/**
 * JSON output that keeps the service's numbers: a number a double does not hold as sent
 * (http/exact-numbers.ts: `1e400`, `1e-400`, `-0`, `12345678901234567890`) is written as the
 * service's own text, not as what JSON.stringify makes of the double (null, 0, 12345678901234567000).
 * Only data with such numbers recorded takes the slower path; everything else is JSON.stringify.
 * Where svc cannot write the service's text (--jq computes with doubles; --columns builds new rows),
 * one warning line per number names the field and the text sent.
 */
import { bareInexact, inexactAt, inexactIn, markInexact, sawInexact, type InexactNumber } from '../http/exact-numbers.js';
import { escapeControls } from '../core/sanitize.js';
import { projectRow } from './field-paths.js';

/**
 * A string no service text is (a random part per process, which the service never sees; node:crypto
 * is not loaded for it: start-up): stands for a number while stringifying.
 */
const MARK = `\u0000svc-number-${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}-`;
const MARKED = new RegExp(`"${JSON.stringify(MARK).slice(1, -1).replace(/\\/g, '\\\\')}(\\d+)"`, 'g');

/**
 * `JSON.stringify(value, null, indent)`, with the numbers recorded for `root` (the parsed answer or
 * item `value` is, or is inside of) written as the service sent them.
 */
export function exactStringify(value: unknown, root: unknown = value, indent?: number): string {
  // `root` for the common case; any recorded number (an answer's root may be a copy: local filters).
  if (inexactIn(root) === undefined && !sawInexact()) return JSON.stringify(value, null, indent);
  const whole = bareInexact(value);
  if (whole) return whole.text;
  const texts: string[] = [];
  const text = JSON.stringify(value, function (this: object, key: string, v: unknown) {
    if (typeof v !== 'number') return v;
    const n = inexactAt(this, key, v);
    if (!n) return v;
    texts.push(n.text);
    return `${MARK}${texts.length - 1}`;
  }, indent);
  return texts.length ? text.replace(MARKED, (_, i: string) => texts[Number(i)]) : text;
}

/** What JSON.stringify writes for the double (null for ±Infinity). */
function doubleText(n: InexactNumber): string {
  return JSON.stringify(n.value);
}

/**
 * One warning (without its `warning: `) per number of `root` that is not written as sent, `how`
 * saying what is written instead (`--jq sees`), or none. The path is the service's keys: escaped (sanitize.ts).
 */
export function inexactWarnings(root: unknown, how: string): string[] {
  const whole = bareInexact(root);
  return (whole ? [whole] : inexactIn(root) ?? []).map((n) => `${escapeControls(n.path)}: the service sent the number ${n.text}, which a double does not hold; ${how} ${doubleText(n)}`);
}

/**
 * The data for a table or CSV: each recorded number replaced by the service's text (a string), on
 * copies of the objects above it; the data itself when it has none.
 */
export function withServiceText(data: unknown, root: unknown = data): unknown {
  if (inexactIn(root) === undefined && !sawInexact()) return data;
  const whole = bareInexact(data);
  if (whole) return whole.text;
  const copy = (v: unknown): unknown => {
    if (v === null || typeof v !== 'object') return v;
    if (Array.isArray(v)) {
      let out: unknown[] | undefined;
      v.forEach((x, i) => {
        const n = typeof x === 'number' ? inexactAt(v, String(i), x) : undefined;
        const y = n ? n.text : copy(x);
        if (y !== x) (out ??= [...v])[i] = y;
      });
      return out ?? v;
    }
    let out: Record<string, unknown> | undefined;
    for (const [k, x] of Object.entries(v)) {
      const n = typeof x === 'number' ? inexactAt(v, k, x) : undefined;
      const y = n ? n.text : copy(x);
      if (y !== x) (out ??= { ...(v as Record<string, unknown>) })[k] = y;
    }
    return out ?? v;
  };
  return copy(data);
}

/** The parent object of a dotted path's last key, or undefined. */
function parentOf(value: unknown, keys: readonly string[]): object | undefined {
  let cur: unknown = value;
  for (const k of keys.slice(0, -1)) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[k];
  }
  return cur !== null && typeof cur === 'object' ? cur : undefined;
}

/** projectRow (--columns), the row's recorded numbers kept for the copy, so JSON writes them as sent. */
export function projectRowExact(row: unknown, columns: readonly string[]): unknown {
  const out = projectRow(row, columns);
  if (!sawInexact() || out === row) return out;
  for (const path of columns) {
    const keys = path.split('.');
    const from = parentOf(row, keys);
    const last = keys[keys.length - 1];
    const n = from && inexactAt(from, last, (from as Record<string, unknown>)[last]);
    const to = n && parentOf(out, keys);
    if (n && to) markInexact(to, last, n);
  }
  return out;
}
