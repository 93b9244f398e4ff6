/**
 * The CI gate: counts the open issues per level and checks them against the thresholds.
 * Pure: no I/O, no environment.
 */
import {
  DEFAULT_CUTOFFS,
  GateUsageError,
  LEVELS,
  isLevel,
  levelAtLeast,
  levelOf,
  levelRank,
  numericScore,
  type Cutoffs,
  type Level,
} from './levels.js';

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

export type CountKey = Level | 'total';
export type Counts = Record<CountKey, number>;
export type MaxThresholds = Partial<Record<CountKey, number>>;

export interface GateOptions {
  /** Fail when any open issue is at this level or above. */
  failOn?: Level;
  /** Fail when more than N open issues are at a level (or in total). */
  max?: MaxThresholds;
  cutoffs?: Cutoffs;
}

export interface GateResult {
  passed: boolean;
  /** Open issues per level, and in total. */
  counts: Counts;
  thresholds: { failOn?: Level; max: MaxThresholds; cutoffs: Cutoffs };
  /** Issues that break the gate, most severe first. */
  breaking: GateIssue[];
  /** Every counted (open) issue, in input order. */
  issues: GateIssue[];
  /** One line per broken threshold, e.g. "3 high issues > max 2". */
  violations: string[];
  /** Issues not counted because their status is not open. */
  ignored: number;
}

const COUNT_KEYS: readonly CountKey[] = [...LEVELS, 'total'];

/** Open issues count; an issue without a status counts too (the search returns open ones by default). */
export function isOpen(issue: IssueInput): boolean {
  const status = issue.status;
  if (status === undefined || status === null || status === '') return true;
  return typeof status === 'string' && status.trim().toLowerCase() === 'open';
}

function plural(n: number, level: CountKey): string {
  const what = level === 'total' ? 'open' : level;
  return `${n} ${what} issue${n === 1 ? '' : 's'}`;
}

function checkOptions(options: GateOptions): void {
  if (options.failOn !== undefined && !isLevel(options.failOn)) {
    throw new GateUsageError(`unknown level "${String(options.failOn)}" (expected one of ${LEVELS.join(', ')})`);
  }
  for (const [key, value] of Object.entries(options.max ?? {})) {
    if (value === undefined) continue;
    if (!(COUNT_KEYS as readonly string[]).includes(key)) {
      throw new GateUsageError(`max: unknown level "${key}" (expected ${COUNT_KEYS.join(', ')})`);
    }
    if (!Number.isInteger(value) || value < 0) {
      throw new GateUsageError(`max: ${key}=${String(value)} must be a whole number, 0 or more`);
    }
  }
}

/** Sort key: most severe level first, then highest score (a missing score ranks first). */
function compareSeverity(a: GateIssue, b: GateIssue): number {
  const byLevel = levelRank(a.level) - levelRank(b.level);
  if (byLevel !== 0) return byLevel;
  return (numericScore(b.score) ?? Infinity) - (numericScore(a.score) ?? Infinity) || 0;
}

/**
 * Evaluates the gate. With neither `failOn` nor `max` it always passes (it only counts).
 * A `failOn` level breaks on every open issue at or above it; a `max` of a level that is
 * exceeded breaks on every open issue of that level; an exceeded `max.total` on every open issue.
 */
export function evaluateGate(issues: readonly IssueInput[], options: GateOptions = {}): GateResult {
  checkOptions(options);
  const cutoffs = options.cutoffs ?? DEFAULT_CUTOFFS;
  const max: MaxThresholds = {};
  for (const key of COUNT_KEYS) {
    const value = options.max?.[key];
    if (value !== undefined) max[key] = value;
  }

  const counted: GateIssue[] = [];
  let ignored = 0;
  for (const issue of issues) {
    if (!isOpen(issue)) {
      ignored++;
      continue;
    }
    counted.push({ ...issue, level: levelOf(issue.score, cutoffs), breaking: false });
  }

  const counts: Counts = { critical: 0, high: 0, medium: 0, low: 0, info: 0, total: counted.length };
  for (const issue of counted) counts[issue.level]++;

  const violations: string[] = [];
  const breaks = new Set<GateIssue>();
  const { failOn } = options;
  if (failOn !== undefined) {
    const hits = counted.filter((i) => levelAtLeast(i.level, failOn));
    if (hits.length > 0) {
      const scope = failOn === 'info' ? 'any level' : `${failOn} or above`;
      violations.push(`${hits.length} issue${hits.length === 1 ? '' : 's'} at ${scope} (fail-on ${failOn})`);
      for (const hit of hits) breaks.add(hit);
    }
  }
  for (const key of COUNT_KEYS) {
    const limit = max[key];
    if (limit === undefined || counts[key] <= limit) continue;
    violations.push(`${plural(counts[key], key)} > max ${limit}`);
    for (const issue of counted) if (key === 'total' || issue.level === key) breaks.add(issue);
  }

  for (const issue of breaks) issue.breaking = true;
  const breaking = counted.filter((i) => i.breaking).sort(compareSeverity);

  const thresholds: GateResult['thresholds'] = { max, cutoffs };
  if (failOn !== undefined) thresholds.failOn = failOn;
  return { passed: violations.length === 0, counts, thresholds, breaking, issues: counted, violations, ignored };
}
