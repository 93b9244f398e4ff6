/**
 * The gate's policy: the thresholds it decides on (`fail-on`, `max`, `levels`), from the flags
 * (--fail-on, --max-*, --levels) and the policy file (policy-file.ts reads .svc-policy.yml), a flag
 * replacing only the same setting of the file (resolveThresholds). Each value is checked here, once,
 * where it is read: a level name (parseLevel), cut-offs that descend (parseLevels), a whole count
 * (parseMax). The levels themselves and the level of a score are the operation table's
 * (src/operations/levels.ts).
 */
import { UsageError } from '../core/errors.js';
import { CUTOFF_LEVELS, DEFAULT_CUTOFFS, LEVELS, isLevel, type CutoffLevel, type Cutoffs, type Level } from '../operations/levels.js';

/**
 * Bad gate input from the user (a flag value, a setting): exit 2, the message one line, fit to show
 * as is. A UsageError of its own so that the policy file can say on which line its value is.
 */
export class GateUsageError extends UsageError {}

/** What a `max` limits: the open issues of a level, or all of them. */
export type CountKey = Level | 'total';
export const COUNT_KEYS: readonly CountKey[] = [...LEVELS, 'total'];
export type MaxThresholds = Partial<Record<CountKey, number>>;

/** What the gate decides on (tally.ts counts against it). */
export interface Thresholds {
  /** Fail when any open issue is at this level or above. */
  failOn?: Level;
  /** Fail when more than N open issues are at a level (or in total). */
  max?: MaxThresholds;
  cutoffs?: Cutoffs;
}

/** Parses a level name (case-insensitive), e.g. the value of a `--fail-on` flag. */
export function parseLevel(value: string): Level {
  const name = value.trim().toLowerCase();
  if (!isLevel(name)) {
    throw new GateUsageError(`unknown level "${value}" (expected one of ${LEVELS.join(', ')})`);
  }
  return name;
}

/**
 * Parses `critical=90,high=70,medium=40,low=10`, overriding some or all of `base`'s cut-offs.
 * Each value is a number from 0 to 100; after overriding, the cut-offs must strictly descend
 * from critical to low. `info` has no cut-off and is rejected.
 */
export function parseLevels(spec: string, base: Cutoffs = DEFAULT_CUTOFFS, label = 'levels'): Cutoffs {
  const out: Record<CutoffLevel, number> = { ...base };
  const seen = new Set<string>();
  const parts = spec.split(',').map((p) => p.trim());
  if (parts.every((p) => p === '')) {
    throw new GateUsageError(`${label}: empty value (expected e.g. critical=90,high=70,medium=40,low=10)`);
  }
  for (const part of parts) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    if (eq < 0) {
      throw new GateUsageError(`${label}: "${part}" is not LEVEL=SCORE (e.g. high=70)`);
    }
    const name = part.slice(0, eq).trim().toLowerCase();
    const raw = part.slice(eq + 1).trim();
    if (name === 'info') {
      throw new GateUsageError(`${label}: info has no cut-off (it is every score below low)`);
    }
    if (!(CUTOFF_LEVELS as readonly string[]).includes(name)) {
      throw new GateUsageError(
        `${label}: unknown level "${part.slice(0, eq).trim()}" (expected ${CUTOFF_LEVELS.join(', ')})`,
      );
    }
    if (seen.has(name)) throw new GateUsageError(`${label}: ${name} given twice`);
    seen.add(name);
    if (!/^[-+]?(\d+(\.\d*)?|\.\d+)$/.test(raw)) {
      throw new GateUsageError(`${label}: ${name}=${raw} is not a number`);
    }
    const value = Number(raw);
    if (value < 0 || value > 100) {
      throw new GateUsageError(`${label}: ${name}=${raw} is out of range (0 to 100)`);
    }
    out[name as CutoffLevel] = value;
  }
  const pairs: Array<[CutoffLevel, CutoffLevel]> = [
    ['critical', 'high'],
    ['high', 'medium'],
    ['medium', 'low'],
  ];
  for (const [upper, lower] of pairs) {
    if (!(out[upper] > out[lower])) {
      throw new GateUsageError(
        `${label}: cut-offs must descend (critical > high > medium > low), got ${upper}=${out[upper]}, ${lower}=${out[lower]}`,
      );
    }
  }
  return Object.freeze(out);
}


/**
 * The thresholds a run decides on: the policy file's settings, each replaced by the flag of the same
 * setting when given (--fail-on replaces fail-on; --max-high replaces max.high and leaves max.total;
 * --levels overrides the file's cut-offs it names). Without any threshold there is nothing to fail
 * on: a gate that would pass everything is refused.
 */
export function resolveThresholds(flags: { failOn?: Level; max: MaxThresholds; levels?: string }, file?: Thresholds): Thresholds {
  const o: Thresholds = {};
  if (file?.failOn !== undefined) o.failOn = file.failOn;
  if (file?.cutoffs !== undefined) o.cutoffs = file.cutoffs;
  if (flags.failOn !== undefined) o.failOn = flags.failOn;
  const max: MaxThresholds = { ...file?.max, ...flags.max };
  if (Object.keys(max).length > 0) o.max = max;
  if (flags.levels !== undefined) o.cutoffs = parseLevels(flags.levels, o.cutoffs, '--levels');
  if (o.failOn === undefined && o.max === undefined) {
    throw new GateUsageError('no threshold given: a gate without one would pass everything', 'give --fail-on LEVEL or a --max-* limit, e.g. --fail-on high, or set fail-on/max in a policy file (.svc-policy.yml)');
  }
  return o;
}
