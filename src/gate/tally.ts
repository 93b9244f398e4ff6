/**
 * The CI gate's count: the issues per level (every issue given: the listing asks for open ones, and
 * one of another status the service answered anyway is counted, fail closed, commands/gate/count.ts), checked against the thresholds (policy.ts, where
 * they are read and checked) into the gate's result. Pure: no I/O, no environment.
 */
import { COUNT_KEYS, type CountKey, type MaxThresholds, type Thresholds } from './policy.js';
import { DEFAULT_CUTOFFS, LEVELS, levelAtLeast, levelOf, levelRank, numericScore, type Cutoffs, type Level } from '../operations/levels.js';

/**
 * An Issue record as the issue search returns it (spec, "Issue record"). Parsed leniently:
 * only `id` is required and unknown fields are kept.
 */
export interface IssueInput {
  id: string;
  repositoryId?: string;
  repositoryName?: string;
  status?: string;
  generatedTitle?: string;
  generatedDescription?: string;
  language?: string;
  vulnClass?: string;
  vulnCategory?: string;
  cwes?: string[];
  severity?: number;
  confidence?: number;
  score?: number;
  affectedFile?: string;
  startLine?: number;
  endLine?: number;
  startColumn?: number;
  endColumn?: number;
  [field: string]: unknown;
}

/** An issue the gate counted, with its level and whether it breaks the gate. */
export type GateIssue = IssueInput & { level: Level; breaking: boolean };

/**
 * A list of kept issues, read in order: an array, or issues kept out of memory and read back one at
 * a time on each pass (the gate's spill file, src/commands/gate/spill.ts). Readers iterate it; they
 * never index it or hold it whole.
 */
export interface IssueList extends Iterable<GateIssue> {
  readonly length: number;
  /**
   * The items whose places the mask keeps (`keep[from + place] === 1`), in order, without reading
   * the others (where the list can; else the reader filters as it reads).
   */
  pick?(keep: Uint8Array, from: number): IssueList;
  /**
   * Each item's level (its rank, levelRank) and score (numericScore; NaN when none), in order,
   * where the list has them without reading its items (else undefined).
   */
  severities?(): { rank: Uint8Array; score: Float64Array } | undefined;
}

/**
 * Where a tally keeps the issues it keeps: in memory (arrayStore, the default) or elsewhere. Each
 * issue comes with its level set and `breaking` false; `finish` gives them back with `breaking` set
 * for the levels that break, and those that break most severe first (compareSeverity, stable).
 */
export interface IssueStore {
  push(issue: GateIssue): void;
  finish(breaks: ReadonlySet<Level>): { issues: IssueList; breaking: IssueList };
}

type Counts = Record<CountKey, number>;

export interface GateResult<L extends IssueList = IssueList> {
  passed: boolean;
  /** Open issues per level, and in total. */
  counts: Counts;
  thresholds: { failOn?: Level; max: MaxThresholds; cutoffs: Cutoffs };
  /** Issues that break the gate, most severe first. */
  breaking: L;
  /** Every counted (open) issue, in input order (with a tally's keep 'breaking': only those at a level a threshold looks at). */
  issues: L;
  /** One line per broken threshold, e.g. "3 high issues > max 2". */
  violations: string[];
  /**
   * Listed issues not counted: of a repository, organization or project outside the scope (set by
   * the gate's count, commands/gate/count.ts; each one stops a PASS).
   */
  ignored: number;
}

function plural(n: number, level: CountKey): string {
  const what = level === 'total' ? 'open' : level;
  return `${n} ${what} issue${n === 1 ? '' : 's'}`;
}

/** The first `n` issues of a list (read no further). */
export function firstOf(list: IssueList, n: number): GateIssue[] {
  const out: GateIssue[] = [];
  if (n <= 0) return out;
  for (const issue of list) {
    out.push(issue);
    if (out.length >= n) break;
  }
  return out;
}

/** Sort key: most severe level first, then highest score (a missing score ranks first). */
function compareSeverity(a: GateIssue, b: GateIssue): number {
  const byLevel = levelRank(a.level) - levelRank(b.level);
  if (byLevel !== 0) return byLevel;
  return severityScore(b) - severityScore(a) || 0;
}

/** The score the breaking list is sorted by: higher first, a missing score before every other. */
function severityScore(issue: IssueInput): number {
  return numericScore(issue.score) ?? Infinity;
}

/** Kept issues in memory: the default store. */
export function arrayStore(): IssueStore {
  const kept: GateIssue[] = [];
  return {
    push(issue) { kept.push(issue); },
    finish(breaks) {
      for (const issue of kept) issue.breaking = breaks.has(issue.level);
      return { issues: kept, breaking: kept.filter((i) => i.breaking).sort(compareSeverity) };
    },
  };
}

/** Which counted issues a tally keeps: every one (reports list them all) or only those that may break. */
type KeepPolicy = 'all' | 'breaking';

interface TallyOptions extends Thresholds {
  /** Default 'all'. With 'breaking', only issues at a level some threshold looks at are kept. */
  keep?: KeepPolicy;
  /**
   * Slims an issue before it is kept (e.g. drops code segments), to bound memory. Its result is the
   * tally's to extend (it sets `level` and `breaking` on it): a new object, or the issue itself when
   * the caller owns it. Without it, the tally keeps a copy.
   */
  slim?: (issue: IssueInput) => IssueInput;
  /** Where kept issues go (default: an array, arrayStore). */
  store?: IssueStore;
}

/** Counts issues one at a time (no list of every issue needed), then decides. */
export interface GateTally<L extends IssueList = IssueList> {
  add(issue: IssueInput): void;
  /** Number of issues given to add(). */
  readonly seen: number;
  result(): GateResult<L>;
}

/** Levels whose issues can break the gate under these options. */
function levelsThatMayBreak(failOn: Level | undefined, max: MaxThresholds): Set<Level> {
  const out = new Set<Level>();
  for (const level of LEVELS) {
    if (max.total !== undefined || max[level] !== undefined) out.add(level);
    if (failOn !== undefined && levelAtLeast(level, failOn)) out.add(level);
  }
  return out;
}

/** Without a store the issues are kept in arrays. */
export function createTally(options?: TallyOptions & { store?: undefined }): GateTally<GateIssue[]>;
export function createTally(options: TallyOptions): GateTally;
export function createTally(options: TallyOptions = {}): GateTally {
  const cutoffs = options.cutoffs ?? DEFAULT_CUTOFFS;
  const max: MaxThresholds = {};
  for (const key of COUNT_KEYS) {
    const value = options.max?.[key];
    if (value !== undefined) max[key] = value;
  }
  const { failOn } = options;
  const mayBreak = levelsThatMayBreak(failOn, max);
  const keepAll = (options.keep ?? 'all') === 'all';
  const counts: Counts = { critical: 0, high: 0, medium: 0, low: 0, info: 0, total: 0 };
  const kept = options.store ?? arrayStore();
  let seen = 0;

  return {
    get seen() { return seen; },
    add(issue) {
      seen++;
      const level = levelOf(issue.score, cutoffs);
      counts[level]++;
      counts.total++;
      if (keepAll || mayBreak.has(level)) {
        if (options.slim) {
          // The slim step's object is the tally's to extend (see TallyOptions.slim): no second copy.
          const g = options.slim(issue) as GateIssue;
          g.level = level;
          g.breaking = false;
          kept.push(g);
        } else {
          kept.push({ ...issue, level, breaking: false });
        }
      }
    },
    result() {
      const violations: string[] = [];
      const breaks = new Set<Level>();
      if (failOn !== undefined) {
        let hits = 0;
        for (const level of LEVELS) if (levelAtLeast(level, failOn)) hits += counts[level];
        if (hits > 0) {
          const scope = failOn === 'info' ? 'any level' : `${failOn} or above`;
          violations.push(`${hits} issue${hits === 1 ? '' : 's'} at ${scope} (fail-on ${failOn})`);
          for (const level of LEVELS) if (levelAtLeast(level, failOn)) breaks.add(level);
        }
      }
      for (const key of COUNT_KEYS) {
        const limit = max[key];
        if (limit === undefined || counts[key] <= limit) continue;
        violations.push(`${plural(counts[key], key)} > max ${limit}`);
        if (key === 'total') for (const level of LEVELS) breaks.add(level);
        else breaks.add(key);
      }
      const { issues, breaking } = kept.finish(breaks);
      const thresholds: GateResult['thresholds'] = { max, cutoffs };
      if (failOn !== undefined) thresholds.failOn = failOn;
      return { passed: violations.length === 0, counts: { ...counts }, thresholds, breaking, issues, violations, ignored: 0 };
    },
  };
}

/**
 * Evaluates the gate. With neither `failOn` nor `max` it always passes (it only counts).
 * A `failOn` level breaks on every open issue at or above it; a `max` of a level that is
 * exceeded breaks on every open issue of that level; an exceeded `max.total` on every open issue.
 */
export function evaluateGate(issues: readonly IssueInput[], options: Thresholds = {}): GateResult<GateIssue[]> {
  const tally = createTally({ ...options, keep: 'all' });
  for (const issue of issues) tally.add(issue);
  return tally.result();
}
