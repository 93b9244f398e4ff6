/**
 * The counts a listing's pages repeat beside its total (issues search: `totalCountAllCategories`,
 * `categoryCounts`; the row's `pagination.counts`). They describe the whole listing, so every page
 * of one listing must give the same ones as page 1: a count that changes (an issue archived and
 * another created leave `totalCount` as it was, but not these) says the listing changed while it
 * was read, and an item may have moved past the page boundary unseen (all-pages.ts: exit 7).
 *
 * Cheap per page: a few property reads (categoryCounts has one key per status), no copy kept but
 * page 1's values.
 */
import { answerValue } from '../core/sanitize.js';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The first place where `b` differs from `a`: its path and both values (undefined: missing). */
interface CountChange {
  path: string;
  before: unknown;
  after: unknown;
}

function difference(a: unknown, b: unknown, path: string): CountChange | undefined {
  if (isObject(a) && isObject(b)) {
    for (const k of Object.keys(a)) {
      const d = difference(a[k], b[k], `${path}.${k}`);
      if (d) return d;
    }
    for (const k of Object.keys(b)) if (!(k in a)) return { path: `${path}.${k}`, before: undefined, after: b[k] };
    return undefined;
  }
  // A missing count and null are alike (neither says anything); any other change is one.
  const none = (v: unknown) => v === undefined || v === null;
  if (none(a) && none(b)) return undefined;
  return Object.is(a, b) ? undefined : { path, before: a, after: b };
}

/** Page 1's values of `fields` (references into its data: the page's own objects, never changed). */
export function pageCounts(data: unknown, fields: readonly string[]): unknown[] {
  return fields.map((f) => (isObject(data) ? data[f] : undefined));
}

/** How this page's counts differ from page 1's (`first`, from pageCounts), or undefined when they agree. */
export function countChange(first: readonly unknown[], data: unknown, fields: readonly string[]): CountChange | undefined {
  for (let i = 0; i < fields.length; i++) {
    const d = difference(first[i], isObject(data) ? data[fields[i]] : undefined, fields[i]);
    if (d) return d;
  }
  return undefined;
}

/** A count as a message shows it. */
export function shownCount(v: unknown): string {
  if (v === undefined) return 'missing';
  return answerValue(v).slice(0, 80);
}
