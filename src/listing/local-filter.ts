/**
 * A row's local filters (`issues search --min-score/--level/--created-after`): the flags checked
 * before anything is sent (exit 2), then each item of each page tested here. The level of a score
 * and the date values are the gate's own (src/gate/policy.ts, src/gate/since.ts), so a search shows
 * what the gate would count: no score counts as critical; an unreadable createdAt is kept, as the
 * gate's --new-since keeps it.
 */
import type { LocalFilters } from '../operations/types.js';
import { GateUsageError, parseLevel } from '../gate/policy.js';
import { isoInstant } from '../gate/date-time.js';
import { parseSince } from '../gate/since.js';
import { parseNumberFlag } from '../request/number-flag.js';
import { getPath } from '../output/field-paths.js';
import { UsageError } from '../core/errors.js';
import { levelAtLeast, levelOf, numericScore } from '../operations/levels.js';

export interface ItemFilter {
  /** The flags as given, e.g. `--level high --created-after 7d`. */
  text: string;
  unfilteredCounts: string[];
  keep(item: unknown): boolean;
}

/** Commander's attribute name of `--min-score <n>`: `minScore`. */
const attribute = (flags: string) => flags.split(' ')[0].slice(2).replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

const usage = <T>(fn: () => T, prefix = ''): T => {
  try {
    return fn();
  } catch (err) {
    if (err instanceof GateUsageError) throw new UsageError(prefix + err.message);
    throw err;
  }
};

/** The filters given (undefined when none), their values checked: a bad one is exit 2 here. */
export function parseLocalFilters(spec: LocalFilters, opts: Record<string, unknown>, nowMs: number): ItemFilter | undefined {
  const tests: Array<(item: unknown) => boolean> = [];
  const given: string[] = [];
  for (const f of spec.filters) {
    const raw = opts[attribute(f.flags)];
    if (raw === undefined) continue;
    const flag = f.flags.split(' ')[0];
    given.push(`${flag} ${String(raw)}`);
    if (f.test === 'min-score') {
      const min = parseNumberFlag(raw, { flag, min: 0, max: 100 });
      tests.push((item) => {
        const n = numericScore(getPath(item, f.path));
        return n !== undefined && n >= min;
      });
    } else if (f.test === 'level') {
      const level = usage(() => parseLevel(String(raw)), `${flag}: `);
      tests.push((item) => levelAtLeast(levelOf(getPath(item, f.path)), level));
    } else {
      const after = usage(() => parseSince(String(raw), nowMs, flag));
      tests.push((item) => {
        const t = isoInstant(getPath(item, f.path));
        return t === undefined || t > after;
      });
    }
  }
  if (tests.length === 0) return undefined;
  return {
    text: given.join(' '),
    unfilteredCounts: spec.unfilteredCounts,
    keep: (item) => tests.every((t) => t(item)),
  };
}

/**
 * One page filtered: its items cut to those kept, and the counts of unfiltered items left out (they
 * would read as the count of what is shown). Returns the new answer and how many items it had.
 */
export function filterPage(data: unknown, items: string, filter: ItemFilter): { data: unknown; before: number; after: number } {
  const list = getPath(data, items);
  if (!Array.isArray(list) || data === null || typeof data !== 'object' || Array.isArray(data)) return { data, before: 0, after: 0 };
  const kept = list.filter((i) => filter.keep(i));
  const out: Record<string, unknown> = { ...(data as Record<string, unknown>), [items]: kept };
  for (const k of filter.unfilteredCounts) delete out[k];
  return { data: out, before: list.length, after: kept.length };
}
