import { beforeEach, describe, expect, it } from 'vitest';
import { seedWorld } from '../../../src/sandbox/data/seed.js';
import { Store } from '../../../src/sandbox/state.js';
import * as S from '../../../src/sandbox/stats.js';
import type { RepoRec } from '../../../src/sandbox/model.js';
import { archive } from '../../../src/sandbox/transitions.js';
import { HttpError } from '../../../src/sandbox/http-error.js';

let store: Store;
let repos: Map<string, RepoRec>;
const open = () => store.issues.filter((i) => repos.has(i.repositoryId) && i.status === 'open');

beforeEach(() => {
  store = new Store(seedWorld({ seed: 9, repos: 10, issues: 600 }), () => Date.parse('2026-07-01T00:00:00Z'));
  repos = new Map(store.repos.filter((r) => r.organizationId === store.orgs[0].id).map((r) => [r.id, r]));
});

describe('stats', () => {
  it('levels come from the score with the dashboard cut-offs', () => {
    expect([95, 90, 89, 70, 69, 40, 39, 10, 9, 0].map(S.levelOf)).toEqual(['critical', 'critical', 'high', 'high', 'medium', 'medium', 'low', 'low', 'info', 'info']);
  });

  it('issuesBySeverity counts the open issues by level, and archiving one lowers it', () => {
    const r = S.issuesBySeverity(S.statsIssues(store, repos, {}));
    expect(r.total).toBe(open().length);
    expect(r.severityCounts.high).toBe(open().filter((i) => i.score >= 70 && i.score < 90).length);
    const target = open().find((i) => i.score >= 70 && i.score < 90)!;
    archive(store, target);
    const after = S.issuesBySeverity(S.statsIssues(store, repos, {}));
    expect(after.total).toBe(r.total - 1);
    expect(after.severityCounts.high).toBe(r.severityCounts.high - 1);
  });

  it('the common filters: severities, vulnClasses, dates, projectId', () => {
    const crit = S.issuesBySeverity(S.statsIssues(store, repos, { severities: ['critical'] }));
    expect(crit.total).toBe(crit.severityCounts.critical);
    const sql = S.issuesByVulnClass(S.statsIssues(store, repos, { vulnClasses: ['sql injection'] }));
    expect(sql.vulnClasses.map((v) => v.vulnClass)).toEqual(['SQL Injection']);
    const q1 = S.statsIssues(store, repos, { startDate: '2026-01-01', endDate: '2026-03-31' });
    expect(q1.length).toBeGreaterThan(0);
    expect(q1.every((i) => i.createdAt >= Date.parse('2026-01-01') && i.createdAt < Date.parse('2026-04-01'))).toBe(true);
    const project = [...repos.values()][0].projectId;
    expect(S.statsIssues(store, repos, { projectId: project }).every((i) => store.repo(i.repositoryId)!.projectId === project)).toBe(true);
    expect(() => S.statsIssues(store, repos, { startDate: '2026-02-30' })).toThrow(HttpError);
    expect(() => S.statsIssues(store, repos, { startDate: '2026-03-02', endDate: '2026-03-01' })).toThrow(/after endDate/);
  });

  it('by repository, author and class add up to the open total', () => {
    const list = S.statsIssues(store, repos, {});
    const total = open().length;
    expect(S.issuesByRepository(list, repos).total).toBe(total);
    expect(S.issuesByVulnClass(list).total).toBe(total);
    const byRepo = S.issuesByRepository(list, repos).repositories;
    expect(byRepo.map((r) => r.total)).toEqual([...byRepo.map((r) => r.total)].sort((a, b) => b - a));
    const authors = S.issuesByAuthor(list);
    expect(authors.reduce((s, a) => s + a.total, 0)).toBe(open().filter((i) => i.codeScanType === 'PrScan').length);
  });

  it('topIssues: highest score first, of the requested status, at most 10 (limit is an extra)', () => {
    const list = S.statsIssues(store, repos, {});
    const top = S.topIssues(list, { type: 'patched' });
    expect(top).toHaveLength(10);
    expect(top.every((t) => t.status === 'patched')).toBe(true);
    expect(top[0].score).toBe(Math.max(...list.filter((i) => i.status === 'patched').map((i) => i.score)));
    expect(S.topIssues(list, { limit: 3 })).toHaveLength(3);
    expect(() => S.topIssues(list, { limit: 0 })).toThrow(/limit/);
  });

  it('summary counts scans and issues, per repository too', () => {
    const s = S.summary(store, repos, {});
    expect(s.issues.open).toBe(open().length);
    expect(s.scans.fullScans + s.scans.prScans).toBe(store.scans.filter((x) => repos.has(x.repositoryId)).length);
    expect(Object.values(s.issuesByScore).reduce((a, b) => a + b, 0)).toBe(open().length);
    const repo = [...repos.values()][0];
    expect(S.summary(store, repos, { repositoryId: repo.id }).issues.open).toBe(open().filter((i) => i.repositoryId === repo.id).length);
  });

  it('securityPosture: 12 buckets by default, the last one counts the open issues now', () => {
    const list = S.statsIssues(store, repos, {});
    const p = S.securityPosture(list, repos, {}, store.now());
    expect(p.series).toHaveLength(12);
    const last = p.series[11];
    // Open is the status open, as in issuesBySeverity (issue 36.6: processing counted here, not there).
    expect(list.some((i) => i.status === 'processing')).toBe(true);
    expect(last.total).toBe(list.filter((i) => i.status === 'open').length);
    expect(last.total).toBe(S.issuesBySeverity(list).total);
    const months = S.securityPosture(list, repos, { timeGranularity: 'month', startDate: '2026-01-01', endDate: '2026-06-30' }, store.now());
    expect(months.series.map((x) => x.date)).toEqual(['2026-01-31', '2026-02-28', '2026-03-31', '2026-04-30', '2026-05-31', '2026-06-30']);
    expect(p.repositoryRiskScores[0].riskScore).toBeGreaterThanOrEqual(p.repositoryRiskScores.at(-1)!.riskScore);
    expect(p.exposure.oldestCriticalAge).toBeGreaterThan(0);
  });

  it('timeSaved counts patches and triaged false positives in the range', () => {
    const list = S.statsIssues(store, repos, {});
    const t = S.timeSaved(list, {});
    expect(t.patchesGenerated).toBe(list.filter((i) => i.patch).length);
    expect(t.minutesSaved).toBe(t.patchesGenerated * 45 + t.falsePositivesTriaged * 15);
    expect(S.timeSaved(list, { startDate: '2030-01-01' }).patchesGenerated).toBe(0);
  });
});
