/**
 * Gate levels on the service's 0-100 `score` scale.
 *
 * Default cut-offs follow the levels of the service's own dashboard (field notes, "Numbers and
 * values"): critical 90-100, high 70-89, medium 40-69, low 10-39, info below 10.
 */
import { LEVELS, type Level } from '../operations/levels.js';

export { LEVELS, type Level };

/** Levels that have a cut-off; `info` is everything below `low`. */
export type CutoffLevel = Exclude<Level, 'info'>;
const CUTOFF_LEVELS: readonly CutoffLevel[] = ['critical', 'high', 'medium', 'low'];

/** Lowest score of each level (inclusive). */
export type Cutoffs = Readonly<Record<CutoffLevel, number>>;

export const DEFAULT_CUTOFFS: Cutoffs = Object.freeze({ critical: 90, high: 70, medium: 40, low: 10 });

/** Bad gate input from the user (a flag value): the message is one line, fit to show as is. */
export class GateUsageError extends Error {
  override readonly name = 'GateUsageError';
}

export function isLevel(value: unknown): value is Level {
  return typeof value === 'string' && (LEVELS as readonly string[]).includes(value);
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
export function parseLevels(spec: string, base: Cutoffs = DEFAULT_CUTOFFS): Cutoffs {
  const out: Record<CutoffLevel, number> = { ...base };
  const seen = new Set<string>();
  const parts = spec.split(',').map((p) => p.trim());
  if (parts.every((p) => p === '')) {
    throw new GateUsageError('levels: empty value (expected e.g. critical=90,high=70,medium=40,low=10)');
  }
  for (const part of parts) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    if (eq < 0) {
      throw new GateUsageError(`levels: "${part}" is not LEVEL=SCORE (e.g. high=70)`);
    }
    const name = part.slice(0, eq).trim().toLowerCase();
    const raw = part.slice(eq + 1).trim();
    if (name === 'info') {
      throw new GateUsageError('levels: info has no cut-off (it is every score below low)');
    }
    if (!(CUTOFF_LEVELS as readonly string[]).includes(name)) {
      throw new GateUsageError(
        `levels: unknown level "${part.slice(0, eq).trim()}" (expected ${CUTOFF_LEVELS.join(', ')})`,
      );
    }
    if (seen.has(name)) throw new GateUsageError(`levels: ${name} given twice`);
    seen.add(name);
    if (!/^[-+]?(\d+(\.\d*)?|\.\d+)$/.test(raw)) {
      throw new GateUsageError(`levels: ${name}=${raw} is not a number`);
    }
    const value = Number(raw);
    if (value < 0 || value > 100) {
      throw new GateUsageError(`levels: ${name}=${raw} is out of range (0 to 100)`);
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
        `levels: cut-offs must descend (critical > high > medium > low), got ${upper}=${out[upper]}, ${lower}=${out[lower]}`,
      );
    }
  }
  return Object.freeze(out);
}

/** The score as a finite number, or undefined when missing or not numeric. Numeric strings count. */
export function numericScore(score: unknown): number | undefined {
  if (typeof score === 'number') return Number.isFinite(score) ? score : undefined;
  if (typeof score === 'string' && score.trim() !== '') {
    const n = Number(score);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

/**
 * The level of a score. A missing or non-numeric score is treated as `critical`: the gate fails
 * closed rather than letting an issue it cannot rank slip through. Scores above 100 are critical,
 * negative scores info.
 */
export function levelOf(score: unknown, cutoffs: Cutoffs = DEFAULT_CUTOFFS): Level {
  const n = numericScore(score);
  if (n === undefined) return 'critical';
  for (const level of CUTOFF_LEVELS) {
    if (n >= cutoffs[level]) return level;
  }
  return 'info';
}

/** Rank of a level: 0 for critical, 4 for info. */
export function levelRank(level: Level): number {
  return LEVELS.indexOf(level);
}

/** True when `a` is as severe as `b` or more. */
export function levelAtLeast(a: Level, b: Level): boolean {
  return levelRank(a) <= levelRank(b);
}
