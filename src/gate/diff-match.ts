/**
 * `svc gate --diff`: is an issue in the change? Pure.
 *
 * - `lines` (default): the issue's `startLine..endLine` (endLine missing: startLine alone) meets a line
 *   the change added or modified, or spans a place where it only removed lines (removed after line c:
 *   the issue holds both c and c+1). A file without line information (binary, untracked) counts whole.
 * - `files`: the issue's file was changed at all (added, modified, renamed to, mode changed).
 *
 * Fail closed, the issue is counted and said to be so:
 * - `unlocated`: no file, or (lines) no valid start line;
 * - `unknown`: a file that is neither in the repository at HEAD nor removed by the change: the
 *   service's path does not match the checkout (another root, a prefix), so nothing can be said.
 */
import { fileKeyOf } from './fingerprint.js';
import type { ChangeSet } from './diff-parse.js';
import { GateUsageError } from './policy.js';

export type DiffScope = 'lines' | 'files';
type DiffPlace = 'change' | 'elsewhere' | 'unlocated' | 'unknown';

export interface DiffFilter {
  change: ChangeSet;
  scope: DiffScope;
  /** Files at HEAD (or in the work tree), repository-relative: to tell "untouched" from "unknown". */
  tracked: ReadonlySet<string>;
}

function line(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 ? value : undefined;
}

export function placeOf(issue: Record<string, unknown>, f: DiffFilter): DiffPlace {
  const path = fileKeyOf(issue.affectedFile);
  if (path === '') return 'unlocated';
  const file = f.change.files.get(path);
  if (f.scope === 'files') {
    if (file) return 'change';
    return f.tracked.has(path) || f.change.gone.has(path) ? 'elsewhere' : 'unknown';
  }
  const start = line(issue.startLine);
  if (start === undefined) return 'unlocated';
  if (!file) return f.tracked.has(path) || f.change.gone.has(path) ? 'elsewhere' : 'unknown';
  if (file.whole) return 'change';
  const endRaw = line(issue.endLine);
  const end = endRaw !== undefined && endRaw >= start ? endRaw : start;
  for (const [a, b] of file.added) if (a <= end && start <= b) return 'change';
  for (const c of file.removedAfter) if (start <= c && c + 1 <= end) return 'change';
  return 'elsewhere';
}

/** `--diff-scope`: lines or files. */
export function parseDiffScope(value: string | undefined): DiffScope {
  if (value === undefined) return 'lines';
  const v = value.trim().toLowerCase();
  if (v === 'lines' || v === 'files') return v;
  throw new GateUsageError(`--diff-scope expects lines or files, got '${value}'`);
}
