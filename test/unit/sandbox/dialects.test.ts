/**
 * The sandbox's dialects (src/sandbox/dialects.ts): each tells the same data as the default sandbox
 * (same seed), only in its own habit. Each case compares a dialect's answer with the default one.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIALECTS, DIALECT_NAMES, parseDialects } from '../../../src/sandbox/dialects.js';
import { useSandbox } from '../../helpers/sandbox.js';

const plain = useSandbox();
const wide = useSandbox({ dialects: ['wide-counts'] });
const redetect = useSandbox({ dialects: ['redetect'] });
const sparse = useSandbox({ dialects: ['sparse-counts'] });
const words = useSandbox({ dialects: ['status-words'] });
const none = useSandbox({ dialects: ['no-counts'] });
const both = useSandbox({ dialects: ['wide-counts', 'sparse-counts'] });

type Sb = typeof plain;
const search = async (sb: Sb, body: Record<string, unknown>) => {
  const r = await sb.call('/api/v1/issues/search', body);
  expect(r.status, r.text).toBe(200);
  return r.json as { issues: Array<{ id: string; status: string; codeScan: { id: string; scanTargetBranchCommitSha: string | null } }>; totalCount: number; totalCountAllCategories: number; categoryCounts?: Record<string, number> };
};
const scans = async (sb: Sb, body: Record<string, unknown> = {}) => (await sb.call('/api/v1/scans/list', { returnAll: true, ...body })).json.codeScans as Array<Record<string, unknown> & { scanId: string; status: string; repositoryId: string; codeScanType: string; createdAt: string }>;
/** A repository of the default organization with open issues. */
const someRepo = async (sb: Sb) => (await search(sb, { types: ['open'], pageSize: 1 })).issues[0] as unknown as { repositoryId: string };

describe('dialect names', () => {
  it('parses lists and repeats, keeps the order given, drops doubles', () => {
    expect(parseDialects('wide-counts')).toEqual(['wide-counts']);
    expect(parseDialects(['redetect,no-counts', 'redetect', ' status-words '])).toEqual(['redetect', 'no-counts', 'status-words']);
    expect(parseDialects([])).toEqual([]);
  });

  it('an unknown or empty name names the known ones', () => {
    expect(() => parseDialects('wide')).toThrow("unknown dialect 'wide': the dialects are wide-counts, redetect, sparse-counts, status-words, no-counts");
    expect(() => parseDialects('redetect,')).toThrow(/unknown dialect \(an empty name\)/);
    expect(DIALECT_NAMES).toEqual(DIALECTS.map((d) => d.name));
  });

  it('docs/sandbox.md documents each, in a row of its table', () => {
    const doc = readFileSync(resolve(__dirname, '../../../docs/sandbox.md'), 'utf8');
    for (const name of DIALECT_NAMES) expect(doc).toMatch(new RegExp(`\\n\\| \`${name}\` \\| [^\\n]{40,}`));
    expect(doc).toContain(`\`--dialect NAME[,NAME]\` | none | Answer as a plausible real service might where the spec leaves room (below): ${DIALECT_NAMES.map((n) => `\`${n}\``).join(', ')} |`);
  });

  it('startSandbox refuses an unknown one, and says the ones it speaks', async () => {
    const { startSandbox } = await import('../../../src/sandbox/index.js');
    await expect(startSandbox({ port: 0, dialects: ['nope' as never] })).rejects.toThrow(/unknown dialect 'nope'/);
    expect(plain.dialects).toEqual([]);
    expect(both.dialects).toEqual(['wide-counts', 'sparse-counts']);
  });
});

describe('wide-counts', () => {
  it('categoryCounts and totalCountAllCategories count the organization; totalCount and the issues keep the filters', async () => {
    const { repositoryId } = await someRepo(plain);
    const body = { types: ['open'], repositoryIds: [repositoryId], getCounts: true, pageSize: 500 };
    const [p, w, org] = [await search(plain, body), await search(wide, body), await search(plain, { getCounts: true, pageSize: 1 })];
    expect(w.issues.map((i) => i.id)).toEqual(p.issues.map((i) => i.id));
    expect(w.totalCount).toBe(p.totalCount);
    expect(w.categoryCounts).toEqual(org.categoryCounts);
    expect(w.totalCountAllCategories).toBe(org.totalCountAllCategories);
    // The relation svc read into the spec no longer holds: the open count is the organization's.
    expect(w.categoryCounts!.open).toBeGreaterThan(w.totalCount);
    expect(p.categoryCounts!.open).toBe(p.totalCount);
  });
});

describe('redetect', () => {
  it("a search by scan finds the same issues; half of a later full scan's name the repository's first full scan", async () => {
    const all = await scans(plain, { scanType: 'FullScan' });
    const firstOf = new Map<string, { scanId: string; createdAt: string }>();
    for (const s of all.filter((x) => x.status === 'completed')) {
      const had = firstOf.get(s.repositoryId);
      if (!had || s.createdAt < had.createdAt) firstOf.set(s.repositoryId, s);
    }
    let renamed = 0;
    let kept = 0;
    for (const s of all.filter((x) => x.status === 'completed' && firstOf.get(x.repositoryId)!.scanId !== x.scanId)) {
      const body = { scanId: s.scanId, returnAll: true };
      const [p, r] = [await search(plain, body), await search(redetect, body)];
      expect(r.issues.map((i) => i.id)).toEqual(p.issues.map((i) => i.id));
      for (const [k, i] of r.issues.entries()) {
        expect(p.issues[k].codeScan.id).toBe(s.scanId);
        // The commit is still the one of the scan that found it now.
        expect(i.codeScan.scanTargetBranchCommitSha).toBe(p.issues[k].codeScan.scanTargetBranchCommitSha);
        if (i.codeScan.id === s.scanId) kept++;
        else { expect(i.codeScan.id).toBe(firstOf.get(s.repositoryId)!.scanId); renamed++; }
      }
    }
    expect(renamed).toBeGreaterThan(0);
    expect(kept).toBeGreaterThan(0);
  });

  it('issues get says it too; the first scan of a repository keeps its own id on its issues', async () => {
    const first = (await scans(redetect, { scanType: 'FullScan', sortBy: 'createdAt', sortOrder: 'asc' })).find((s) => s.status === 'completed')!;
    const own = await search(redetect, { scanId: first.scanId, returnAll: true });
    expect(own.issues.every((i) => i.codeScan.id === first.scanId)).toBe(true);
    const later = (await search(redetect, { returnAll: true })).issues.find((i) => i.codeScan.id === first.scanId && !own.issues.some((o) => o.id === i.id));
    expect(later, 'an issue of a later scan that names the first one').toBeDefined();
    const got = (await redetect.call('/api/v1/issues/get', { issueId: later!.id })).json;
    expect(got.codeScan.id).toBe(first.scanId);
  });
});

describe('sparse-counts', () => {
  it('leaves the statuses with no issue out of categoryCounts, and the others as they are', async () => {
    const { repositoryId } = await someRepo(plain);
    for (const body of [{ getCounts: true }, { types: ['open'], repositoryIds: [repositoryId], getCounts: true }]) {
      const [p, s] = [await search(plain, body), await search(sparse, body)];
      expect(s.totalCount).toBe(p.totalCount);
      expect(s.categoryCounts).toEqual(Object.fromEntries(Object.entries(p.categoryCounts!).filter(([, n]) => n > 0)));
    }
    // The organization without repositories: no key at all.
    const empty = (await sparse.call('/api/v1/orgs/list', {})).json[2].id;
    const e = await search(sparse, { organizationId: empty, types: ['open'], getCounts: true });
    expect(e).toMatchObject({ totalCount: 0, categoryCounts: {} });
    expect((await search(plain, { organizationId: empty, types: ['open'], getCounts: true })).categoryCounts).toMatchObject({ open: 0 });
  });

  it('with wide-counts: the organization\'s counts, without the zero ones', async () => {
    const org = await search(plain, { getCounts: true, pageSize: 1 });
    const { repositoryId } = await someRepo(plain);
    const b = await search(both, { types: ['open'], repositoryIds: [repositoryId], getCounts: true });
    expect(b.categoryCounts).toEqual(Object.fromEntries(Object.entries(org.categoryCounts!).filter(([, n]) => n > 0)));
  });
});

describe('status-words', () => {
  it('a finished scan is succeeded or done beside finished: true; the others keep their status', async () => {
    const [p, w] = [await scans(plain), await scans(words)];
    expect(w.map((s) => s.scanId)).toEqual(p.map((s) => s.scanId));
    const said = new Set<string>();
    for (const [k, s] of w.entries()) {
      if (p[k].status === 'completed') {
        said.add(s.status);
        expect(s).toMatchObject({ finished: true, codeScanFinished: true });
      } else expect(s.status).toBe(p[k].status);
    }
    expect([...said].sort()).toEqual(['done', 'succeeded']);
    expect(p.some((s) => s.status === 'failed')).toBe(true);
  });
});

describe('no-counts', () => {
  it('getCounts is ignored: no categoryCounts; totalCount and totalCountAllCategories as usual', async () => {
    const body = { types: ['open'], getCounts: true, pageSize: 5 };
    const [p, n] = [await search(plain, body), await search(none, body)];
    expect(p.categoryCounts).toBeDefined();
    expect(n.categoryCounts).toBeUndefined();
    expect({ ...n, categoryCounts: p.categoryCounts }).toEqual(p);
  });
});
