/**
 * The 8 stats operations, computed from the current issues and scans on every call. Levels come
 * from the 0-100 score with the dashboard's cut-offs (critical >= 90, high >= 70, medium >= 40,
 * low >= 10, else info): the spec names the severity count object "IssuesByScore". Counts are of
 * open issues unless the operation says otherwise, so archiving an issue lowers them.
 *
 * "Open" is one thing in every operation here: the status `open`, as the search's `types=open`, the
 * summary's `issues.open` and svc's gate read it. The spec does not say what the stats count as
 * open (an inference): `processing` is not open, so the posture series' last point, the totals of
 * issues-by-severity, -by-repository and -by-vuln-class and the summary's open count agree.
 */
import type { IssueRec, RepoRec } from './model.js';
import type { Store } from './state.js';
import { badRequest } from './http-error.js';
import { DAY_MS } from './data/time.js';

import type { Level } from '../operations/levels.js';

type LevelCounts = Record<Level, number>;

export function levelOf(score: number): Level {
  return score >= 90 ? 'critical' : score >= 70 ? 'high' : score >= 40 ? 'medium' : score >= 10 ? 'low' : 'info';
}

function zeroLevels(): LevelCounts {
  return { critical: 0, high: 0, medium: 0, low: 0, info: 0 };
}

export interface StatsRequest {
  projectId?: string;
  startDate?: string;
  endDate?: string;
  severities?: Level[];
  vulnClasses?: string[];
  timeGranularity?: 'day' | 'week' | 'month';
  type?: 'open' | 'patched';
  limit?: unknown;
}

/** `YYYY-MM-DD` -> ms at 00:00 UTC; 400 for a date that does not exist. */
function parseDay(value: string, field: string): number {
  const ms = Date.parse(`${value}T00:00:00.000Z`);
  if (!Number.isFinite(ms) || new Date(ms).toISOString().slice(0, 10) !== value) throw badRequest(`invalid field '${field}': no such date '${value}'`);
  return ms;
}

interface Range { start: number; end: number }

function range(req: StatsRequest): Range {
  const start = req.startDate ? parseDay(req.startDate, 'startDate') : -Infinity;
  const end = req.endDate ? parseDay(req.endDate, 'endDate') + DAY_MS - 1 : Infinity;
  if (start > end) throw badRequest(`invalid field 'startDate': ${req.startDate} is after endDate ${req.endDate}`);
  return { start, end };
}

/** Issues of the given repositories matching the common stats filters (any status). */
export function statsIssues(store: Store, repos: Map<string, RepoRec>, req: StatsRequest): IssueRec[] {
  const { start, end } = range(req);
  const levels = req.severities?.length ? new Set(req.severities) : undefined;
  const classes = req.vulnClasses?.length ? new Set(req.vulnClasses.map((c) => c.toLowerCase())) : undefined;
  return store.issues.filter((i) => {
    const repo = repos.get(i.repositoryId);
    if (!repo) return false;
    if (req.projectId && repo.projectId !== req.projectId) return false;
    if (i.createdAt < start || i.createdAt > end) return false;
    if (levels && !levels.has(levelOf(i.score))) return false;
    if (classes && !classes.has(i.vulnClass.toLowerCase())) return false;
    return true;
  });
}

const open = (list: IssueRec[]) => list.filter((i) => i.status === 'open');

function tally<K extends string>(list: IssueRec[], key: (i: IssueRec) => K): Map<K, LevelCounts & { total: number }> {
  const out = new Map<K, LevelCounts & { total: number }>();
  for (const i of list) {
    const k = key(i);
    let c = out.get(k);
    if (!c) out.set(k, (c = { ...zeroLevels(), total: 0 }));
    c[levelOf(i.score)]++;
    c.total++;
  }
  return out;
}

const byTotal = <T extends { total: number }>(name: (x: T) => string) => (a: T, b: T) => b.total - a.total || name(a).localeCompare(name(b));

export function issuesBySeverity(list: IssueRec[]) {
  const counts = zeroLevels();
  const live = open(list);
  for (const i of live) counts[levelOf(i.score)]++;
  return { severityCounts: counts, total: live.length };
}

export function issuesByRepository(list: IssueRec[], repos: Map<string, RepoRec>) {
  const t = tally(open(list), (i) => i.repositoryId);
  const rows = [...t].map(([id, c]) => ({ repositoryId: id, repositoryName: repos.get(id)?.name ?? id, ...c }))
    .sort(byTotal((r) => r.repositoryName));
  return { repositories: rows, total: rows.reduce((s, r) => s + r.total, 0) };
}

/** Open issues found by PR scans, by the author of the pull request. */
export function issuesByAuthor(list: IssueRec[]) {
  const t = tally(open(list).filter((i) => i.codeScanType === 'PrScan'), (i) => i.prAuthor);
  return [...t].map(([prAuthor, c]) => ({ prAuthor, ...c })).sort(byTotal((r) => r.prAuthor));
}

export function issuesByVulnClass(list: IssueRec[]) {
  const live = open(list);
  const cwes = new Map(live.map((i) => [i.vulnClass, i.cwes]));
  const rows = [...tally(live, (i) => i.vulnClass)].map(([vulnClass, c]) => ({ vulnClass, cwes: cwes.get(vulnClass) ?? [], ...c }))
    .sort(byTotal((r) => r.vulnClass));
  return { vulnClasses: rows, total: live.length };
}

/** The highest-scoring issues of one status (default open), ties by id; `limit` (1-100, default 10) is a sandbox extra. */
export function topIssues(list: IssueRec[], req: StatsRequest) {
  const type = req.type ?? 'open';
  const limit = req.limit === undefined ? 10 : Number(req.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw badRequest(`invalid field 'limit': must be an integer from 1 to 100`);
  return list.filter((i) => i.status === type)
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
    .slice(0, limit)
    .map((i) => ({ id: i.id, title: i.generatedTitle, vulnClass: i.vulnClass, score: i.score, cwes: i.cwes, status: i.status }));
}

/** Patches generated and false positives triaged in the range, and the time that saved (45 and 15 minutes each). */
export function timeSaved(list: IssueRec[], req: StatsRequest) {
  const { start, end } = range(req);
  const inRange = (ms: number) => ms >= start && ms <= end;
  const patches = list.filter((i) => i.patch && inRange(Date.parse(i.patch.createdAt))).length;
  const triaged = list.filter((i) => i.status === 'falsePositive' && inRange(i.updatedAt)).length;
  const minutes = patches * 45 + triaged * 15;
  return {
    patchesGenerated: patches, falsePositivesTriaged: triaged, minutesPerPatch: 45, minutesPerTriage: 15,
    minutesSaved: minutes, hoursSaved: Math.round((minutes / 60) * 10) / 10,
  };
}

const GRANULARITY_MS = { day: DAY_MS, week: 7 * DAY_MS } as const;
const MAX_POINTS = 1000;

/**
 * Was the issue open at time t? Created by then, and either open now or changed since (it was open
 * until it was settled). Open is the status `open` alone (see the top of this file): at t = now the
 * series counts exactly what issues-by-severity counts.
 */
function openAt(i: IssueRec, t: number): boolean {
  if (i.createdAt > t) return false;
  return i.status === 'open' || i.updatedAt > t;
}

/**
 * Posture over time (shape not shown by the spec; field notes give repositoryRiskScores and
 * exposure): `series` counts the issues open at the end of each bucket, by level.
 */
export function securityPosture(list: IssueRec[], repos: Map<string, RepoRec>, req: StatsRequest, now: number) {
  const granularity = req.timeGranularity ?? 'week';
  const end = req.endDate ? parseDay(req.endDate, 'endDate') + DAY_MS - 1 : now;
  const buckets: number[] = [];
  const start = req.startDate ? parseDay(req.startDate, 'startDate') : undefined;
  if (start !== undefined && start > end) throw badRequest(`invalid field 'startDate': ${req.startDate} is after endDate ${req.endDate}`);
  for (let t = end, k = 0; start === undefined ? k < 12 : t >= start; k++) {
    if (k >= MAX_POINTS) throw badRequest(`the date range has more than ${MAX_POINTS} ${granularity}s; narrow it or use a larger timeGranularity`);
    buckets.unshift(t);
    t = granularity === 'month' ? lastMonth(t) : t - GRANULARITY_MS[granularity];
  }
  // The posture series is over all dates: the date range picks the buckets, not the issues.
  const series = buckets.map((t) => {
    const c = zeroLevels();
    let total = 0;
    for (const i of list) if (openAt(i, t)) { c[levelOf(i.score)]++; total++; }
    return { date: new Date(t).toISOString().slice(0, 10), ...c, total };
  });
  const live = open(list);
  const perRepo = tally(live, (i) => i.repositoryId);
  const repositoryRiskScores = [...perRepo].map(([id, c]) => ({
    id, name: repos.get(id)?.name ?? id,
    // Weighted open issues, squashed to 0-100 (sandbox formula: the spec shows none).
    riskScore: Math.round(100 * (1 - Math.exp(-(c.critical * 10 + c.high * 5 + c.medium * 2 + c.low) / 150))),
    criticalIssues: c.critical, highIssues: c.high, mediumIssues: c.medium, lowIssues: c.low,
  })).sort((a, b) => b.riskScore - a.riskScore || a.name.localeCompare(b.name));
  const oldest = (level: Level) => {
    let first = Infinity;
    for (const i of live) if (levelOf(i.score) === level && i.createdAt < first) first = i.createdAt;
    return first === Infinity ? null : Math.max(0, Math.floor((now - first) / DAY_MS));
  };
  return {
    timeGranularity: granularity,
    series,
    repositoryRiskScores,
    exposure: { oldestCriticalAge: oldest('critical'), oldestHighAge: oldest('high'), oldestMediumAge: oldest('medium'), oldestLowAge: oldest('low') },
  };
}

function lastMonth(t: number): number {
  const d = new Date(t);
  // The last moment of the previous month.
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) - 1;
}

/** Scans and issues of the organization, or of one repository or scan. */
export function summary(store: Store, repos: Map<string, RepoRec>, req: { repositoryId?: string; scanId?: string }) {
  const scans = store.scans.filter((s) => repos.has(s.repositoryId)
    && (!req.repositoryId || s.repositoryId === req.repositoryId) && (!req.scanId || s.scanId === req.scanId));
  const issues = { open: 0, patched: 0, falsePositive: 0, archived: 0, processing: 0 };
  const issuesByScore = zeroLevels();
  for (const i of store.issues) {
    if (!repos.has(i.repositoryId)) continue;
    if (req.repositoryId && i.repositoryId !== req.repositoryId) continue;
    if (req.scanId && i.scanId !== req.scanId) continue;
    if (i.status in issues) issues[i.status as keyof typeof issues]++;
    if (i.status === 'open') issuesByScore[levelOf(i.score)]++;
  }
  return {
    scans: {
      fullScans: scans.filter((s) => s.codeScanType === 'FullScan').length,
      prScans: scans.filter((s) => s.codeScanType === 'PrScan').length,
      runningScans: scans.filter((s) => s.status === 'running').length,
      failedScans: scans.filter((s) => s.status === 'failed').length,
    },
    issues,
    issuesByScore,
  };
}
