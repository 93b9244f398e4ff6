import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seedWorld } from '../../../src/sandbox/data/seed.js';
import { Store } from '../../../src/sandbox/state.js';
import { Persister, readStateFile, restore, snapshot, writeAtomic } from '../../../src/sandbox/persist.js';
import * as T from '../../../src/sandbox/transitions.js';
import { startSandbox } from '../../../src/sandbox/index.js';
import { tempDir } from '../../helpers/temp.js';

const dir = () => tempDir('svc-sandbox-state-');
const view = (s: Store) => JSON.stringify({ orgs: s.orgs, repos: s.repos, scans: s.scans, schedules: s.schedules, installations: s.installations, issues: s.issues, counters: s.counters });

describe('sandbox persistence', () => {
  it('round trip: a changed store restores to the same data, and the file holds only changed issues', () => {
    let now = Date.parse('2026-08-01T00:00:00Z');
    const store = new Store(seedWorld({ seed: 4, repos: 8, issues: 2000 }), () => now);
    const open = store.issues.filter((i) => i.status === 'open');
    T.archive(store, open[0]);
    T.updateSeverity(store, open[1], 1.5);
    const pending = open.slice(2).find((i) => !i.patch && !i.unpatchable)!;
    T.generatePatch(store, pending, 10_000);
    T.startScan(store, store.repos[1], 1000);
    now += 2000;
    store.tick();
    store.removeRepos(new Set([store.repos[2].id]));
    store.orgs.push({ id: store.nextId('org'), name: 'New', role: 'owner', createdAt: store.nowIso(), invitations: [] });
    const file = JSON.parse(JSON.stringify(snapshot(store)));
    expect(file.issues.length).toBeLessThan(20);
    const back = restore(file, () => now);
    expect(view(back)).toBe(view(store));
    expect(back.nextId('issue')).toBe(store.nextId('issue'));
    // The pending patch is still pending after the restore, and appears when due.
    expect(back.issue(pending.id)!.status).toBe('processing');
    now += 10_000;
    back.tick();
    expect(back.issue(pending.id)).toMatchObject({ status: 'patched', patch: { pullRequestStatus: 'DRAFT' } });
  });

  it('writeAtomic leaves no temp file; readStateFile rejects junk with one line', async () => {
    const d = dir();
    const path = join(d, 'state.json');
    await writeAtomic(path, '{"a":1}');
    expect(readFileSync(path, 'utf8')).toBe('{"a":1}');
    expect(readdirSync(d)).toEqual(['state.json']);
    expect(() => readStateFile(path)).toThrow(/not a sandbox state file/);
    writeFileSync(path, '{broken');
    expect(() => readStateFile(path)).toThrow(/not valid JSON/);
    expect(readStateFile(join(d, 'missing.json'))).toBeUndefined();
  });

  it('Persister saves after a change and on flush', async () => {
    const path = join(dir(), 'state.json');
    const store = new Store(seedWorld({ seed: 4, repos: 3, issues: 50 }));
    const p = new Persister(store, path, 10_000);
    T.archive(store, store.issues.find((i) => i.status === 'open')!);
    await p.flush();
    const file = readStateFile(path)!;
    expect(file.issues.map((i) => i.status)).toEqual(['archived']);
  });

  it('startSandbox with statePath: the data survives a restart; seed flags are ignored then', async () => {
    const path = join(dir(), 'state.json');
    const first = await startSandbox({ port: 0, statePath: path, seed: 8, repos: 4, issues: 100 });
    const issue = first.state.issues.find((i) => i.status === 'open')!;
    T.archive(first.state, issue);
    await first.close();
    const second = await startSandbox({ port: 0, statePath: path, seed: 99, repos: 1, issues: 1 });
    try {
      expect(second.loadedFrom).toBe('state');
      expect(second.state.params).toEqual({ seed: 8, repos: 4, issues: 100 });
      expect(second.state.issue(issue.id)!.status).toBe('archived');
    } finally {
      await second.close();
    }
  });
});
