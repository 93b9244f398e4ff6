import { beforeAll, describe, expect, it } from 'vitest';
import { seedWorld } from '../../../src/sandbox/data/seed.js';
import { Store } from '../../../src/sandbox/state.js';
import { searchIssues, type SearchRequest } from '../../../src/sandbox/search.js';
import type { IssueRec, RepoRec } from '../../../src/sandbox/model.js';
import { archive, updateSeverity } from '../../../src/sandbox/transitions.js';

let store: Store;
let repos: Map<string, RepoRec>;
const run = (req: SearchRequest) => searchIssues(store, repos, req);
const all = () => store.issues.filter((i) => repos.has(i.repositoryId));

beforeAll(() => {
  store = new Store(seedWorld({ seed: 5, repos: 10, issues: 800 }));
  repos = new Map(store.repos.filter((r) => r.organizationId === store.orgs[0].id).map((r) => [r.id, r]));
});

describe('issue search', () => {
  it('defaults: page 1, 10 a page, score descending, every status, only the organization\'s issues', () => {
    const r = run({});
    expect(r).toMatchObject({ currentPage: 1, pageSize: 10, totalCount: all().length, totalCountAllCategories: all().length });
    expect(r.issues).toHaveLength(10);
    expect(all().length).toBeLessThan(store.issues.length);
    const scores = r.issues.map((i) => i.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(r.categoryCounts).toBeUndefined();
  });

  it('sorts stably with ties broken by id, in both orders, for every key', () => {
    for (const sortBy of ['score', 'severity', 'createdAt'] as const) {
      for (const sortOrder of ['asc', 'desc'] as const) {
        const got = run({ sortBy, sortOrder, returnAll: true }).issues;
        const want = [...all()].sort((a, b) => (a[sortBy] - b[sortBy]) * (sortOrder === 'asc' ? 1 : -1) || a.id.localeCompare(b.id));
        expect(got.map((i) => i.id)).toEqual(want.map((i) => i.id));
      }
    }
  });

  it('pages without overlap or gaps, and past the end is empty', () => {
    const size = 37;
    const total = all().length;
    const seen: string[] = [];
    for (let page = 1; page <= Math.ceil(total / size); page++) {
      const r = run({ page, pageSize: size });
      expect(r.currentPage).toBe(page);
      seen.push(...r.issues.map((i) => i.id));
    }
    expect(seen).toEqual(run({ returnAll: true }).issues.map((i) => i.id));
    expect(new Set(seen).size).toBe(total);
    expect(run({ page: 1000, pageSize: size }).issues).toEqual([]);
  });

  it('every filter narrows to exactly the matching issues', () => {
    const sample = all()[3];
    const repo = store.repo(sample.repositoryId)!;
    const cases: Array<[SearchRequest, (i: IssueRec) => boolean]> = [
      [{ types: ['open', 'patched'] }, (i) => i.status === 'open' || i.status === 'patched'],
      [{ severities: { min: 4, max: 7 } }, (i) => i.severity >= 4 && i.severity <= 7],
      [{ languages: ['python'] }, (i) => i.language === 'Python'],
      [{ vulnerabilityClasses: ['SQL Injection', 'cwe-79'] }, (i) => i.vulnClass === 'SQL Injection' || i.cwes.includes('CWE-79')],
      [{ repositoryIds: [repo.id] }, (i) => i.repositoryId === repo.id],
      [{ projectId: repo.projectId }, (i) => store.repo(i.repositoryId)!.projectId === repo.projectId],
      [{ scanId: sample.scanId }, (i) => i.scanId === sample.scanId],
      [{ codeScanTypes: ['PrScan'] }, (i) => i.codeScanType === 'PrScan'],
      [{ ruleId: 'rule_no-raw-sql' }, (i) => i.ruleId === 'rule_no-raw-sql'],
      [{ searchQuery: sample.affectedFile.toUpperCase() }, (i) => i.affectedFile.includes(sample.affectedFile) || i.generatedTitle.includes(sample.affectedFile)],
      [{ searchQuery: 'injection' }, (i) => /injection/i.test(i.generatedTitle) || /injection/i.test(i.vulnClass) || /injection/i.test(i.affectedFile)],
      [{ searchQuery: sample.id }, (i) => i.id === sample.id],
    ];
    for (const [req, want] of cases) {
      const expected = all().filter(want).map((i) => i.id).sort();
      expect(expected.length, JSON.stringify(req)).toBeGreaterThan(0);
      expect(run({ ...req, returnAll: true }).issues.map((i) => i.id).sort(), JSON.stringify(req)).toEqual(expected);
    }
  });

  it('categoryCounts and totalCountAllCategories ignore the status filter; totalCount does not', () => {
    const r = run({ types: ['open'], languages: ['TypeScript'], getCounts: true });
    const ts = all().filter((i) => i.language === 'TypeScript');
    expect(r.totalCountAllCategories).toBe(ts.length);
    expect(r.totalCount).toBe(ts.filter((i) => i.status === 'open').length);
    expect(r.categoryCounts!.open).toBe(r.totalCount);
    expect(r.categoryCounts!.archived).toBe(ts.filter((i) => i.status === 'archived').length);
    expect(Object.keys(r.categoryCounts!)).toEqual(expect.arrayContaining(['open', 'patched', 'falsePositive', 'archived', 'processing', 'silenced', 'closed']));
  });

  it('reflects state changes: an archived issue moves category', () => {
    const before = run({ getCounts: true }).categoryCounts!;
    const target = all().find((i) => i.status === 'open')!;
    archive(store, target);
    const after = run({ getCounts: true }).categoryCounts!;
    expect(after.open).toBe(before.open - 1);
    expect(after.archived).toBe(before.archived + 1);
    expect(run({ types: ['archived'], returnAll: true }).issues).toContain(target);
  });

  it('cuts further pages of a search from its matches instead of filtering every issue again', () => {
    const own = new Store(seedWorld({ seed: 9, repos: 3, issues: 600 }));
    const ownRepos = new Map(own.repos.filter((r) => r.organizationId === own.orgs[0].id).map((r) => [r.id, r]));
    // Count every read of the field the filter looks at.
    let reads = 0;
    for (const i of own.issues) {
      let v = i.severity;
      Object.defineProperty(i, 'severity', { get: () => { reads++; return v; }, set: (x: number) => { v = x; }, enumerable: true, configurable: true });
    }
    const req = { severities: { min: 5 }, sortBy: 'createdAt' as const, sortOrder: 'asc' as const, pageSize: 50 };
    const first = searchIssues(own, ownRepos, { ...req, page: 1 });
    expect(reads).toBeGreaterThanOrEqual(own.issues.length / 2);
    reads = 0;
    const pages = [first];
    for (let page = 2; page <= Math.ceil(first.totalCount / 50) + 1; page++) pages.push(searchIssues(own, ownRepos, { ...req, page }));
    expect(reads).toBe(0);
    const ids = pages.flatMap((p) => p.issues.map((i) => i.id));
    expect(ids).toHaveLength(first.totalCount);
    expect(new Set(ids).size).toBe(first.totalCount);
    expect(pages.at(-1)!.issues).toEqual([]);
    // The same filter named in another order is the same search.
    searchIssues(own, ownRepos, { sortOrder: 'asc', pageSize: 50, sortBy: 'createdAt', severities: { min: 5 }, page: 3 });
    expect(reads).toBe(0);
  });

  it('drops the kept matches when anything changes: a severity update moves an issue in and out of a filter', () => {
    const own = new Store(seedWorld({ seed: 11, repos: 3, issues: 300 }));
    const ownRepos = new Map(own.repos.filter((r) => r.organizationId === own.orgs[0].id).map((r) => [r.id, r]));
    const req = { severities: { min: 9 }, returnAll: true };
    const before = searchIssues(own, ownRepos, req).issues;
    const low = own.issues.find((i) => ownRepos.has(i.repositoryId) && i.severity < 9)!;
    updateSeverity(own, low, 10);
    const after = searchIssues(own, ownRepos, req).issues;
    expect(after).toContain(low);
    expect(after).toHaveLength(before.length + 1);
    archive(own, low);
    expect(searchIssues(own, ownRepos, { ...req, types: ['open'] }).issues).not.toContain(low);
  });
});
