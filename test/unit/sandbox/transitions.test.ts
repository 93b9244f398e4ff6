import { beforeEach, describe, expect, it } from 'vitest';
import { seedWorld } from '../../../src/sandbox/data/seed.js';
import { Store } from '../../../src/sandbox/state.js';
import * as T from '../../../src/sandbox/transitions.js';
import type { IssueRec } from '../../../src/sandbox/model.js';

let now: number;
let store: Store;
const find = (ok: (i: IssueRec) => boolean) => store.issues.find(ok)!;

beforeEach(() => {
  now = Date.parse('2026-08-01T10:00:00Z');
  store = new Store(seedWorld({ seed: 21, repos: 6, issues: 300 }), () => now);
});

describe('issue transitions', () => {
  it('archive -> archived with archivedAt; unarchive -> open; both idempotent', () => {
    const i = find((x) => x.status === 'open');
    T.archive(store, i);
    expect(i).toMatchObject({ status: 'archived', archivedAt: now, updatedAt: now, stateChangeAuthor: T.SANDBOX_ACTOR });
    const v = store.version;
    T.archive(store, i);
    expect(store.version).toBe(v);
    T.unarchive(store, i);
    expect(i).toMatchObject({ status: 'open', archivedAt: null });
    // An archive's reason goes with it.
    T.archive(store, i, 'vendored');
    T.unarchive(store, i);
    expect(i).toMatchObject({ status: 'open', falsePositiveReason: null });
    T.unarchive(store, i);
    expect(i.status).toBe('open');
  });

  it('mark-false-positive and mark-true-positive', () => {
    const i = find((x) => x.status === 'open');
    T.markFalsePositive(store, i, 'test code');
    expect(i).toMatchObject({ status: 'falsePositive', validated: 'DISCONFIRMED', falsePositiveReason: 'test code' });
    T.markTruePositive(store, i);
    expect(i).toMatchObject({ status: 'open', validated: 'CONFIRMED', falsePositiveReason: null });
    const patched = find((x) => x.status === 'patched');
    T.markTruePositive(store, patched);
    expect(patched).toMatchObject({ status: 'patched', validated: 'CONFIRMED' });
    // An archived issue stays archived, its archive's reason kept: the confirmation is recorded.
    const archived = find((x) => x.status === 'open' && x !== i);
    T.archive(store, archived, 'vendored');
    T.markTruePositive(store, archived);
    expect(archived).toMatchObject({ status: 'archived', validated: 'CONFIRMED', falsePositiveReason: 'vendored' });
  });

  it('generate-patch: processing until the delay is over, then patched with a DRAFT patch; approve opens it', () => {
    const i = find((x) => x.status === 'open' && !x.patch && !x.unpatchable);
    T.generatePatch(store, i, 1000);
    expect(i).toMatchObject({ status: 'processing', patch: null });
    expect(() => T.approvePatch(store, i, store.repo(i.repositoryId))).toThrow(/no patch yet/);
    now += 999;
    store.tick();
    expect(i.status).toBe('processing');
    now += 1;
    store.tick();
    expect(i.status).toBe('patched');
    expect(i.patch).toMatchObject({ pullRequestStatus: 'DRAFT', validated: 'UNKNOWN', prLink: null });
    T.approvePatch(store, i, store.repo(i.repositoryId));
    expect(i.patch).toMatchObject({ pullRequestStatus: 'OPEN', validated: 'CONFIRMED', prLink: expect.stringMatching(/\/pull\/\d+$/) });
  });

  it('generate-patch with no delay is immediate; refused for closed, false-positive and unpatchable issues', () => {
    const i = find((x) => x.status === 'open' && !x.patch && !x.unpatchable);
    T.generatePatch(store, i, 0);
    expect(i.status).toBe('patched');
    expect(() => T.generatePatch(store, find((x) => x.status === 'falsePositive'), 0)).toThrow(/falsePositive/);
    const u = find((x) => x.status === 'open' && !x.patch);
    u.unpatchable = true;
    expect(() => T.generatePatch(store, u, 0)).toThrow(/unpatchable/);
  });

  it('update-severity: 0 to 10 only, and it re-sorts', () => {
    const i = find((x) => x.status === 'open');
    const order = store.orderVersion;
    T.updateSeverity(store, i, 2.5);
    expect(i.severity).toBe(2.5);
    expect(store.orderVersion).toBe(order + 1);
    expect(() => T.updateSeverity(store, i, 11)).toThrow(/severity/);
    expect(() => T.updateSeverity(store, i, -1)).toThrow(/severity/);
  });
});

describe('scans', () => {
  it('a started scan runs, then completes after its duration and adds open issues to its repository', () => {
    const repo = store.repos[0];
    const issues = store.issues.length;
    const scan = T.startScan(store, repo, 5000);
    expect(scan).toMatchObject({ status: 'running', finished: false, codeScanType: 'FullScan', repositoryId: repo.id });
    now += 4999;
    store.tick();
    expect(scan.status).toBe('running');
    now += 1;
    store.tick();
    expect(scan).toMatchObject({ status: 'completed', finished: true, codeScanFinished: true });
    const added = store.issues.slice(issues);
    expect(added.length).toBeGreaterThan(0);
    expect(added.every((i) => i.scanId === scan.scanId && i.status === 'open' && i.repositoryId === repo.id && i.createdAt === now)).toBe(true);
    expect(store.scanCounts().get(scan.scanId)!.open).toBe(added.length);
    expect(store.repoCounts().get(repo.id)!.open).toBe(store.issues.filter((i) => i.repositoryId === repo.id && i.status === 'open').length);
    expect(store.schedule(repo.id)?.codeScans ?? [scan.scanId]).toContain(scan.scanId);
  });

  it('removing a repository removes its scans, schedule and issues', () => {
    const repo = store.repos[0];
    store.removeRepos(new Set([repo.id]));
    expect(store.repo(repo.id)).toBeUndefined();
    expect(store.issues.some((i) => i.repositoryId === repo.id)).toBe(false);
    expect(store.scans.some((s) => s.repositoryId === repo.id)).toBe(false);
    expect(store.schedule(repo.id)).toBeUndefined();
  });
});
