/**
 * `--new-since` and `--commit`: narrow the gate to the issues a change adds.
 * `--new-since` takes a date (2026-11-01, midnight UTC), a date-time with a zone
 * (2026-11-01T12:00:00Z) or a duration back from now (90m, 12h, 7d, 2w).
 */
import { GateUsageError } from './policy.js';
import { NO_ZONE_SPREAD_MS, isoInstant, withoutZone } from './date-time.js';

const UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/**
 * The instant (ms since epoch) a `--new-since` value names; one in the future is refused (it would
 * leave every issue out). `flag`: the flag named in messages (`issues search --created-after` takes
 * the same values).
 */
export function parseSince(value: string, nowMs: number, flag = '--new-since'): number {
  const t = sinceInstant(value, nowMs, flag);
  if (t > nowMs) throw new GateUsageError(`${flag} '${value}' is in the future: every issue would be left out`);
  return t;
}

function sinceInstant(value: string, nowMs: number, flag: string): number {
  const v = value.trim();
  const dur = /^(\d+)\s*([mhdw])$/i.exec(v);
  if (dur) {
    const n = Number(dur[1]);
    if (n <= 0) throw new GateUsageError(`${flag}: '${value}' is not a positive duration`);
    return nowMs - n * UNITS[dur[2].toLowerCase()];
  }
  const date = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  if (date) {
    const t = Date.UTC(Number(date[1]), Number(date[2]) - 1, Number(date[3]));
    if (new Date(t).toISOString().slice(0, 10) !== v) throw new GateUsageError(`${flag}: '${value}' is not a calendar date`);
    return t;
  }
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i.test(v)) {
    const t = Date.parse(v);
    if (Number.isFinite(t)) return t;
  }
  throw new GateUsageError(`${flag} expects a date (2026-11-01), a date-time with a zone (2026-11-01T12:00:00Z) or a duration (90m, 12h, 7d, 2w), got '${value}'`);
}

/** Shortest abbreviated sha that names one commit here (git's default abbreviation). */
const MIN_SHA = 7;

/** A commit sha (or an abbreviation of 7 or more hex digits), lower case. */
export function parseCommit(value: string): string {
  const v = value.trim().toLowerCase();
  if (!/^[0-9a-f]{7,64}$/.test(v)) throw new GateUsageError(`--commit expects a commit sha (${MIN_SHA} to 64 hex digits), got '${value}'`);
  return v;
}

/**
 * The same commit: full shas equal, or one an abbreviation (7 or more hex digits) of the other,
 * in either direction (the service may report an abbreviated sha, the runner a full one).
 */
export function sameCommit(a: string, b: string): boolean {
  return a.length >= MIN_SHA && b.length >= MIN_SHA && (a.startsWith(b) || b.startsWith(a));
}

/** createdAt as ms (an ISO 8601 date-time; without a zone, read as UTC), or undefined when missing or unreadable. */
export function createdAtOf(issue: Record<string, unknown>): number | undefined {
  return isoInstant(issue.createdAt);
}

/**
 * Whether --new-since must count the issue as new: its createdAt is after `since`, cannot be read,
 * or has no zone and is after `since` in some zone (read as UTC it is at most 12 h before it:
 * `uncertainNew`). Fail closed: an issue that may be new counts.
 */
export function mayBeNew(issue: Record<string, unknown>, since: number): boolean {
  const created = createdAtOf(issue);
  return created === undefined || created > since || uncertainNew(issue, since);
}

/** createdAt without a zone, at or before `since` read as UTC, after it in a zone west of UTC. */
export function uncertainNew(issue: Record<string, unknown>, since: number): boolean {
  const created = createdAtOf(issue);
  return created !== undefined && created <= since && withoutZone(issue.createdAt) && created + NO_ZONE_SPREAD_MS.after > since;
}

/**
 * The commit of the scan that found the issue (`codeScan.scanTargetBranchCommitSha`), lower case;
 * undefined ("no commit": it counts) when missing, not hex, or shorter than an abbreviation.
 */
export function commitOf(issue: Record<string, unknown>): string | undefined {
  const scan = issue.codeScan;
  if (scan === null || typeof scan !== 'object') return undefined;
  const sha = (scan as { scanTargetBranchCommitSha?: unknown }).scanTargetBranchCommitSha;
  if (typeof sha !== 'string') return undefined;
  const v = sha.trim().toLowerCase();
  return /^[0-9a-f]{7,64}$/.test(v) ? v : undefined;
}

/** The id of the scan that found the issue (`codeScan.id`), or undefined when missing or empty. */
export function scanIdOf(issue: Record<string, unknown>): string | undefined {
  const scan = issue.codeScan;
  if (scan === null || typeof scan !== 'object') return undefined;
  const id = (scan as { id?: unknown }).id;
  if (typeof id === 'number' && Number.isFinite(id)) return String(id);
  return typeof id === 'string' && id.trim() !== '' ? id.trim() : undefined;
}
