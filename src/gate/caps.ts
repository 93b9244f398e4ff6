/**
 * The platforms' limits, never silently: what the gate keeps when a report or the annotations hold
 * more than the CI will take. It keeps the most severe (by level, then score, then the order it was
 * given) and says how many it left out and why; the caller says so on stderr and in the summary.
 *
 * - host A's code scanning takes at most 25,000 results per SARIF run and 10 MB of gzip-compressed
 *   SARIF per upload (above either the upload is rejected whole);
 * - host A's runner shows at most 10 error, 10 warning and 10 notice annotations per step and 50 per
 *   job: more are dropped without a word, so the gate prints the most severe and one notice of the
 *   rest (what earlier steps printed is counted through the CI's ledger, src/ci/annotation-ledger.ts);
 * - the logging-command CI's agent (the providers table) keeps 10 errors and 10 warnings per step as
 *   issues (LOGISSUE_LIMITS).
 */
import { levelRank, numericScore, type Level } from '../operations/levels.js';
import type { GateVerdict } from './verdict.js';

export const SARIF_LIMITS = Object.freeze({ results: 25_000, gzipBytes: 10 * 1024 * 1024 });
export type SarifLimits = { results: number; gzipBytes: number };

/** The SARIF report within the limits (commands/gate/sarif-cap.ts measures it as it is written). */
export interface SarifCap {
  /** The verdict whose issues the SARIF report lists (the counts stay the verdict's own). */
  verdict: GateVerdict;
  /** Results left out, and why ('' when none). */
  omitted: number;
  reason: string;
  /** Results before capping. */
  total: number;
}

/** One line on what the SARIF report left out: stderr and the summaries. */
export function sarifCapLine(cap: SarifCap | undefined): string[] {
  if (!cap || cap.omitted === 0) return [];
  return [`The SARIF report leaves out ${cap.omitted} of ${cap.total} results (the least severe; it keeps ${cap.total - cap.omitted}): ${cap.reason}.`];
}

/** Host A's runner, per step: errors, warnings and notices (the last notice is the one that names the rest); per job. */
export const ANNOTATION_LIMITS: AnnotationLimits = Object.freeze({ error: 10, warning: 10, notice: 10, job: 50, note: 'notice' });

interface Ranked { level: Level; score?: unknown }

/** Most severe first: level, then score (higher first; no score last). */
export function bySeverity(a: Ranked, b: Ranked): number {
  const byLevel = levelRank(a.level) - levelRank(b.level);
  if (byLevel !== 0) return byLevel;
  return (numericScore(b.score) ?? -1) - (numericScore(a.score) ?? -1);
}

/** The `max` most severe of each group together, each group in its own order; and how many are left out. */
export function keepMostSevere<T extends Ranked>(groups: readonly (readonly T[])[], max: number): { kept: T[][]; omitted: number } {
  const total = groups.reduce((n, g) => n + g.length, 0);
  if (total <= max) return { kept: groups.map((g) => [...g]), omitted: 0 };
  const all: Array<{ item: T; group: number; at: number }> = [];
  groups.forEach((g, group) => g.forEach((item, at) => all.push({ item, group, at })));
  // Array.prototype.sort is stable: equal severity keeps the given order.
  const chosen = all.sort((a, b) => bySeverity(a.item, b.item)).slice(0, Math.max(0, max));
  const keep = groups.map(() => new Set<number>());
  for (const c of chosen) keep[c.group].add(c.at);
  return { kept: groups.map((g, i) => g.filter((_, at) => keep[i].has(at))), omitted: total - chosen.length };
}

/**
 * keepMostSevere for lists that are read, not held (the gate's kept issues may be read back from a
 * file): the same choice, as a mask over the groups one after another (1: kept), or none when
 * every item fits. One pass over the items; only their level and score are kept meanwhile.
 */
export function mostSevereMask(groups: readonly (Iterable<Ranked> & { readonly length: number })[], max: number): { keep?: Uint8Array; omitted: number } {
  const total = groups.reduce((n, g) => n + g.length, 0);
  if (total <= max) return { omitted: 0 };
  const rank = new Uint8Array(total);
  const score = new Float64Array(total);
  let n = 0;
  for (const g of groups) {
    const known = (g as { severities?: () => { rank: Uint8Array; score: Float64Array } | undefined }).severities?.();
    if (known) {
      rank.set(known.rank, n);
      for (let k = 0; k < known.score.length; k++) score[n + k] = Number.isNaN(known.score[k]) ? -1 : known.score[k];
      n += known.score.length;
      continue;
    }
    for (const item of g) {
      rank[n] = levelRank(item.level);
      score[n] = numericScore(item.score) ?? -1;
      n++;
    }
  }
  // As bySeverity, then the order given (what a stable sort of the items keeps).
  const order = Array.from({ length: total }, (_, i) => i).sort((a, b) => rank[a] - rank[b] || score[b] - score[a] || a - b);
  const keep = new Uint8Array(total);
  const chosen = Math.max(0, Math.min(max, total));
  for (let i = 0; i < chosen; i++) keep[order[i]] = 1;
  return { keep, omitted: total - chosen };
}

/** Why results are left out of a SARIF run, as said on stderr, in the summary and in the run's properties. */
export function sarifOmittedReason(limit: 'results' | 'gzipBytes', limits: SarifLimits = SARIF_LIMITS): string {
  return limit === 'results'
    ? `host A's code scanning takes at most ${limits.results.toLocaleString('en-US')} results per SARIF run`
    : `host A's code scanning takes at most ${bytesText(limits.gzipBytes)} of gzip-compressed SARIF per upload`;
}

/** The next number of results to try when the compressed report is `size` bytes over `limit`. */
export function fewerResults(kept: number, size: number, limit: number): number {
  // Proportional, with a margin (the rules and the run's frame do not shrink), and always fewer.
  return Math.max(0, Math.min(kept - 1, Math.floor((kept * limit * 0.95) / size)));
}

function bytesText(n: number): string {
  return n >= 1024 * 1024 && n % (1024 * 1024) === 0 ? `${n / (1024 * 1024)} MB` : `${n.toLocaleString('en-US')} bytes`;
}

export type AnnotationKind = 'error' | 'warning' | 'notice';

/**
 * The `n` most severe of the items added (bySeverity, then the order added), most severe first,
 * holding no more than `n` of them: what the annotations need of tens of thousands of issues.
 */
export function mostSevere<T extends Ranked>(n: number): { add(item: T): void; readonly items: T[] } {
  const items: T[] = [];
  return {
    items,
    add(item) {
      if (n <= 0) return;
      if (items.length >= n && bySeverity(item, items[items.length - 1]) >= 0) return;
      // After every item as severe or more (the order added among equals).
      let at = items.length;
      while (at > 0 && bySeverity(item, items[at - 1]) < 0) at--;
      items.splice(at, 0, item);
      if (items.length > n) items.pop();
    },
  };
}

/** What a CI shows of annotations from log lines: per step of each kind, per job, and which kind the note of the rest is. */
interface AnnotationLimits {
  error: number;
  warning: number;
  notice: number;
  job: number;
  note: 'notice' | 'warning';
}

/**
 * The logging-command CI's agent (the providers table) keeps the first 10 errors and 10 warnings of a
 * step as issues and only counts the rest; it has no notice, so the note of the rest is a warning.
 */
export const LOGISSUE_LIMITS: AnnotationLimits = Object.freeze({ error: 10, warning: 10, notice: 0, job: Number.POSITIVE_INFINITY, note: 'warning' });

/** What earlier runs of the same job and step printed (the CI's annotation ledger). */
export interface AnnotationsUsed {
  job: number;
  step: Record<AnnotationKind, number>;
}
const NOTHING_USED: AnnotationsUsed = { job: 0, step: { error: 0, warning: 0, notice: 0 } };

/**
 * What the runner will show of each kind: the most severe errors, warnings and notices within what is
 * left of the per-step and per-job limits after `used`. When anything is left out, one place of the
 * note's kind is kept for the note of the rest (`note`: false when no place is left for it).
 * `totals`: how many there are of each kind, when the groups hold only the most severe of them
 * (at least ANNOTATION_LIMITS.job each, see mostSevere).
 */
export function capAnnotations<T extends Ranked>(
  groups: Record<AnnotationKind, readonly T[]>,
  limits: AnnotationLimits = ANNOTATION_LIMITS,
  used: AnnotationsUsed = NOTHING_USED,
  totals: Record<AnnotationKind, number> = { error: groups.error.length, warning: groups.warning.length, notice: groups.notice.length },
): { kept: Record<AnnotationKind, T[]>; omitted: number; note: boolean } {
  const top = (items: readonly T[], n: number) => [...items].sort(bySeverity).slice(0, Math.max(0, n));
  const room = {
    error: Math.max(0, limits.error - used.step.error),
    warning: Math.max(0, limits.warning - used.step.warning),
    notice: Math.max(0, limits.notice - used.step.notice),
  };
  let job = Math.max(0, limits.job - used.job);
  const total = totals.error + totals.warning + totals.notice;
  const fits = total <= job && (['error', 'warning', 'notice'] as const).every((k) => totals[k] <= room[k]);
  let note = false;
  if (!fits && room[limits.note] > 0 && job > 0) {
    room[limits.note] -= 1;
    job -= 1;
    note = true;
  }
  const error = top(groups.error, Math.min(room.error, job));
  const warning = top(groups.warning, Math.min(room.warning, job - error.length));
  const notice = top(groups.notice, Math.min(room.notice, job - error.length - warning.length));
  return { kept: { error, warning, notice }, omitted: total - error.length - warning.length - notice.length, note };
}
