/**
 * Helpers for gate tests against the sandbox: levels by the documented cut-offs, the busiest
 * repository's open issues (from the sandbox's state), a scope that has every level, and a hook on
 * each answered request.
 */
import { expect } from 'vitest';
import type { IssueRec } from '../../src/sandbox/model.js';
import { archive } from '../../src/sandbox/transitions.js';
import type { SandboxOptions } from '../../src/sandbox/index.js';
import { startTestSandbox, type TestSandbox } from './sandbox.js';

import { LEVELS, type Level } from '../../src/operations/levels.js';

export { LEVELS, type Level };
export type LevelCounts = Record<Level, number>;

/** The cut-offs the README documents (critical >= 90, high >= 70, medium >= 40, low >= 10). */
export function levelOf(score: number | undefined | null): Level {
  if (score === undefined || score === null) return 'critical';
  return score >= 90 ? 'critical' : score >= 70 ? 'high' : score >= 40 ? 'medium' : score >= 10 ? 'low' : 'info';
}

export function countLevels(scores: Array<number | undefined>): LevelCounts & { total: number } {
  const c = { critical: 0, high: 0, medium: 0, low: 0, info: 0, total: scores.length };
  for (const s of scores) c[levelOf(s)]++;
  return c;
}

/** Issues at `level` or above. */
export function atOrAbove(counts: LevelCounts, level: Level): number {
  return LEVELS.slice(0, LEVELS.indexOf(level) + 1).reduce((n, l) => n + counts[l], 0);
}

export interface GateSandbox extends TestSandbox {
  /** Called with each request-log line (`POST /api/v1/issues/search 200 3 ms`); replace it per test. */
  onLine: ((line: string) => void) | undefined;
}

/** A test sandbox whose request log can be watched (to act between the pages of a listing). */
export async function startGateSandbox(o: SandboxOptions = {}): Promise<GateSandbox> {
  const holder: { onLine?: (line: string) => void } = {};
  const sb = await startTestSandbox({ seed: 23, repos: 8, issues: 240, ...o, log: (line) => holder.onLine?.(line) });
  return Object.defineProperty(sb, 'onLine', { get: () => holder.onLine, set: (fn) => { holder.onLine = fn; } }) as GateSandbox;
}

/**
 * The repository of the token's organization with the most open issues; unless told otherwise it must
 * have every level. Its open issues and their levels are the sandbox's own state (the ground truth the
 * gate's counts are compared with), not a listing through svc.
 */
export async function busiestRepo(sb: TestSandbox, o: { everyLevel?: boolean } = {}): Promise<{ repoId: string; ids: string[]; counts: LevelCounts & { total: number } }> {
  const org = sb.organizationId!;
  const perRepo = new Map<string, number>();
  for (const i of sb.state.issues) {
    if (i.status === 'open' && sb.state.repo(i.repositoryId)?.organizationId === org) perRepo.set(i.repositoryId, (perRepo.get(i.repositoryId) ?? 0) + 1);
  }
  const repoId = [...perRepo].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0][0];
  const open = sb.state.issues.filter((i) => i.repositoryId === repoId && i.status === 'open');
  const counts = countLevels(open.map((i) => i.score));
  if (o.everyLevel !== false) for (const l of LEVELS) expect(counts[l], `seed data: ${repoId} needs an open ${l} issue`).toBeGreaterThan(0);
  return { repoId, ids: open.map((i) => i.id), counts };
}

/** Archive (in the sandbox's state, as the service would) the open issues of a repository that match. */
export function archiveWhere(sb: TestSandbox, repoId: string, match: (i: IssueRec) => boolean): number {
  const hit = sb.state.issues.filter((i) => i.repositoryId === repoId && i.status === 'open' && match(i));
  for (const i of hit) archive(sb.state, i);
  return hit.length;
}

/** The repository of a provider (`source`) in the token's organization with the most open issues. */
export function mostOpenRepo(sb: TestSandbox, source: string) {
  const open = (id: string) => sb.state.issues.filter((i) => i.repositoryId === id && i.status === 'open').length;
  const repos = sb.state.repos.filter((r) => r.source === source && r.organizationId === sb.organizationId).sort((a, b) => open(b.id) - open(a.id));
  expect(repos.length, `seed data: a ${source} repository`).toBeGreaterThan(0);
  return repos[0];
}

/** The ids of a repository's open issues (the sandbox's state), sorted. */
export const openIssueIds = (sb: TestSandbox, repoId: string) => sb.state.issues.filter((i) => i.repositoryId === repoId && i.status === 'open').map((i) => i.id).sort();

/** How many of these issues are high or above (an issue without a score counts as critical). */
export const highOrAboveOf = (sb: TestSandbox, ids: string[]) => sb.state.issues.filter((i) => ids.includes(i.id) && (i.score ?? 100) >= 70).length;
