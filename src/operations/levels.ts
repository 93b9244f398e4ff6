/**
 * The levels of an issue, from most to least severe: the values of the stats' `severities` filter,
 * the keys of the service's severity counts, and the levels `svc gate` counts and fails on; and the
 * level of a 0-100 score. Default cut-offs follow the levels of the service's own dashboard (field
 * notes, "Numbers and values"): critical 90-100, high 70-89, medium 40-69, low 10-39, info below 10.
 */
export const LEVELS = ['critical', 'high', 'medium', 'low', 'info'] as const;
export type Level = (typeof LEVELS)[number];

/** Levels that have a cut-off; `info` is everything below `low`. */
export type CutoffLevel = Exclude<Level, 'info'>;
export const CUTOFF_LEVELS: readonly CutoffLevel[] = ['critical', 'high', 'medium', 'low'];

/** Lowest score of each level (inclusive). */
export type Cutoffs = Readonly<Record<CutoffLevel, number>>;

export const DEFAULT_CUTOFFS: Cutoffs = Object.freeze({ critical: 90, high: 70, medium: 40, low: 10 });

export function isLevel(value: unknown): value is Level {
  return typeof value === 'string' && (LEVELS as readonly string[]).includes(value);
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
