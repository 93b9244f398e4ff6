import { describe, expect, it } from 'vitest';
import { seedWorld } from '../../../src/sandbox/data/seed.js';
import { makeId } from '../../../src/sandbox/data/ids.js';
import { expandIssue } from '../../../src/sandbox/data/issue-text.js';
import { Store } from '../../../src/sandbox/state.js';
import { issue as issueSchema, repository as repositorySchema } from '../../../src/operations/records.js';
import { SOURCES } from '../../../src/sandbox/model.js';
import { seedNumber } from '../../../src/sandbox/index.js';

const params = { seed: 42, repos: 12, issues: 500 };

describe('seeded data', () => {
  it('is deterministic: the same seed gives the same world, another seed another', () => {
    expect(JSON.stringify(seedWorld(params))).toBe(JSON.stringify(seedWorld(params)));
    expect(JSON.stringify(seedWorld({ ...params, seed: 43 }))).not.toBe(JSON.stringify(seedWorld(params)));
  });

  it('string seeds are hashed, numeric strings are numbers', () => {
    expect(seedNumber('42')).toBe(42);
    expect(seedNumber('demo')).toBe(seedNumber('demo'));
    expect(seedNumber('demo')).not.toBe(seedNumber('demo2'));
  });

  it('has repositories of every source with their provider object, valid Repository records', () => {
    const w = seedWorld(params);
    expect(new Set(w.repos.map((r) => r.source))).toEqual(new Set(SOURCES));
    for (const r of w.repos) {
      expect(repositorySchema.safeParse(r).success).toBe(true);
      expect(r.hostARepository !== null).toBe(r.source === 'hosta');
      expect(r.hostBRepository !== null).toBe(r.source === 'hostb');
      expect(r.hostC !== null).toBe(r.source === 'hostc');
      expect(r.genericGit !== null).toBe(r.source === 'generic');
    }
    expect(new Set(w.repos.map((r) => r.id)).size).toBe(w.repos.length);
  });

  it('fills every Issue-record field on some issue, and every issue parses as an Issue record', () => {
    const w = seedWorld(params);
    const store = new Store(w);
    const filled = new Set<string>();
    for (const rec of w.issues) {
      const full = expandIssue(w.params.seed, rec, store.repo(rec.repositoryId), store.scan(rec.scanId));
      expect(issueSchema.safeParse(full).success).toBe(true);
      for (const [k, v] of Object.entries(full)) if (v !== null && v !== undefined) filled.add(k);
    }
    expect([...Object.keys(issueSchema.shape)].filter((k) => !filled.has(k))).toEqual([]);
  });

  it('uses plausible ranges and a mix of statuses', () => {
    const w = seedWorld(params);
    // Each issue's scan by id (the first of an id, as find() gave): one pass instead of a search per issue.
    const scans = new Map<string, (typeof w.scans)[number]>();
    for (const s of w.scans) if (!scans.has(s.scanId)) scans.set(s.scanId, s);
    // Every issue checked, the ones out of range listed by what is wrong (one expect per check, not per issue).
    const within = (v: unknown, lo: number, hi: number) => typeof v === 'number' && v >= lo && v <= hi;
    const wrong = (what: string, ok: (i: (typeof w.issues)[number]) => boolean) => w.issues.filter((i) => !ok(i)).map((i) => `${what}: ${JSON.stringify(i)}`);
    expect([
      ...wrong('score 0-100', (i) => within(i.score, 0, 100)),
      ...wrong('severity 0-10', (i) => within(i.severity, 0, 10)),
      ...wrong('confidence 0-100', (i) => within(i.confidence, 0, 100)),
      ...wrong('endLine >= startLine', (i) => typeof i.endLine === 'number' && typeof i.startLine === 'number' && i.endLine >= i.startLine),
      ...wrong("its scan's repository", (i) => scans.get(i.scanId)?.repositoryId === i.repositoryId),
    ]).toEqual([]);
    const statuses = new Set(w.issues.map((i) => i.status));
    for (const s of ['open', 'patched', 'falsePositive', 'archived', 'closed']) expect(statuses).toContain(s);
    expect(new Set(w.issues.map((i) => i.id)).size).toBe(w.issues.length);
  });

  it('has scans, schedules and installations that point at real records', () => {
    const w = seedWorld(params);
    const repoIds = new Set(w.repos.map((r) => r.id));
    expect(w.scans.every((s) => repoIds.has(s.repositoryId) && s.finished)).toBe(true);
    expect(w.scans.some((s) => s.status === 'failed' && s.errorMessage)).toBe(true);
    expect(w.schedules.length).toBeGreaterThan(0);
    expect(w.schedules.every((s) => repoIds.has(s.repoId) && s.codeScans.length > 0)).toBe(true);
    expect(w.installations.find((i) => i.appId === '4711')!.repositories.length).toBeGreaterThan(2);
  });

  // Distinct ids at the bench's size (`npm run bench` seeds 100,000 issues, and times the sandbox at
  // it): an issue's id is makeId of its counter, so 100,000 counters give 100,000 ids; a world of
  // 10,000 shows the seeding gives issue n the counter n. (A world of 100,000 here cost ~2-4 s
  // of CPU for the same two facts.)
  it('ids stay distinct at 100,000 issues, and a world of 10,000 has 10,000 distinct issues', () => {
    for (const seed of [1, 42]) expect(new Set(Array.from({ length: 100_000 }, (_, n) => makeId('issue', seed, n))).size).toBe(100_000);
    const w = seedWorld({ seed: 1, repos: 30, issues: 10_000 });
    expect(w.issues).toHaveLength(10_000);
    expect(new Set(w.issues.map((i) => i.id)).size).toBe(10_000);
    expect(w.issues.map((i) => i.id)).toEqual(Array.from({ length: 10_000 }, (_, n) => makeId('issue', 1, n)));
  });
});
