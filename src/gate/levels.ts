/**
 * The gate's level flags: --fail-on LEVEL and --levels cut-offs. The levels and the level of a score
 * are the operation table's (src/operations/levels.ts), re-exported here for the gate.
 */
import {
  CUTOFF_LEVELS, DEFAULT_CUTOFFS, LEVELS, isLevel, type CutoffLevel, type Cutoffs, type Level,
} from '../operations/levels.js';

export { DEFAULT_CUTOFFS, LEVELS, isLevel, levelAtLeast, levelOf, levelRank, numericScore, type Cutoffs, type Level } from '../operations/levels.js';

/** Bad gate input from the user (a flag value): the message is one line, fit to show as is. */
export class GateUsageError extends Error {
  override readonly name = 'GateUsageError';
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
