/**
 * The gate against every dialect of the sandbox (issue 33.6; src/sandbox/dialects.ts): a plausible
 * real service's answer must reach a result. On the same data the gate reaches the verdict it
 * reaches on the default sandbox (exit code and counts), or says exactly why it cannot and what
 * setting resolves it: with `wide-counts` a PASS cannot be proven from counts that count more than
 * the scope (exit 7 naming categoryCounts and `--counts wide`), and with `--counts wide` it is the
 * default verdict again; a proven FAIL stands whatever the counts say.
 *
 * The scopes are chosen where a dialect shows: a repository (its counts are not the organization's),
 * a later full scan of a repository (half its issues name the first scan in redetect; its status
 * word in status-words), a commit of such a scan, an organization without issues (no open key in
 * sparse-counts); each with a threshold that fails and one that passes.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { DIALECT_NAMES, type Dialect } from '../../src/sandbox/dialects.js';
import { useSandbox, type TestSandbox } from '../helpers/sandbox.js';

const DATA = { seed: 23, repos: 8, issues: 240 };
const reference = useSandbox(DATA);
const sandboxes = Object.fromEntries(DIALECT_NAMES.map((d) => [d, useSandbox({ ...DATA, dialects: [d] })])) as Record<Dialect, TestSandbox>;

interface Case { name: string; args: string[] }
const CASE_NAMES = [
  'the organization, failing', 'a repository, failing', 'a repository, passing', 'a later full scan, failing', 'a later full scan, passing',
  "that scan's commit, failing", "that scan's commit, passing", 'an organization without issues',
];
interface Outcome { code: number; stderr: string; counts?: Record<string, number>; totalCount?: number }

/** The scopes, from the sandbox's own state (the same seed: the same ids in every dialect). */
function cases(sb: TestSandbox): Case[] {
  const s = sb.state;
  const org = sb.organizationId!;
  const mine = (repoId: string) => s.repo(repoId)?.organizationId === org;
  const open = s.issues.filter((i) => i.status === 'open' && mine(i.repositoryId));
  const perRepo = new Map<string, number>();
  for (const i of open) perRepo.set(i.repositoryId, (perRepo.get(i.repositoryId) ?? 0) + 1);
  const repo = [...perRepo].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0][0];
  // A completed full scan that is not its repository's first, with open issues of both halves (redetect).
  const firsts = new Map<string, string>();
  for (const x of [...s.scans].filter((y) => y.codeScanType === 'FullScan' && y.status === 'completed').sort((a, b) => (a.createdAt < b.createdAt ? -1 : 1))) {
    if (!firsts.has(x.repositoryId)) firsts.set(x.repositoryId, x.scanId);
  }
  const scan = s.scans.find((x) => x.codeScanType === 'FullScan' && x.status === 'completed' && mine(x.repositoryId) && firsts.get(x.repositoryId) !== x.scanId
    && open.some((i) => i.scanId === x.scanId && i.n % 2 === 0) && open.some((i) => i.scanId === x.scanId && i.n % 2 === 1));
  expect(scan, 'seed data: a later full scan with open issues').toBeDefined();
  const empty = s.orgs.find((o) => !s.repos.some((r) => r.organizationId === o.id));
  expect(empty, 'seed data: an organization without repositories').toBeDefined();
  const fail = ['--fail-on', 'info'];
  const pass = ['--max-total', '100000'];
  const all: Case[] = [
    { name: 'the organization, failing', args: ['--fail-on', 'high'] },
    { name: 'a repository, failing', args: ['--repository-ids', repo, '--fail-on', 'high'] },
    { name: 'a repository, passing', args: ['--repository-ids', repo, ...pass] },
    { name: 'a later full scan, failing', args: ['--scan-id', scan!.scanId, ...fail] },
    { name: 'a later full scan, passing', args: ['--scan-id', scan!.scanId, ...pass] },
    { name: "that scan's commit, failing", args: ['--repository-ids', scan!.repositoryId, '--commit', scan!.commitSha, ...fail] },
    { name: "that scan's commit, passing", args: ['--repository-ids', scan!.repositoryId, '--commit', scan!.commitSha, ...pass] },
    { name: 'an organization without issues', args: ['--org', empty!.id, '--fail-on', 'high'] },
  ];
  expect(all.map((c) => c.name)).toEqual(CASE_NAMES);
  return all;
}

async function gate(sb: TestSandbox, args: string[]): Promise<Outcome> {
  const r = await sb.run(['gate', ...args, '-o', 'json']);
  const out: Outcome = { code: r.code, stderr: r.stderr };
  if (r.code === 0 || r.code === 1) {
    const v = JSON.parse(r.stdout);
    Object.assign(out, { counts: v.counts, totalCount: v.totalCount });
  }
  return out;
}

/** Whether the case's search is narrower than the organization (then wide counts count more than it). */
const narrowed = (c: Case) => c.args.some((a) => ['--repository-ids', '--scan-id', '--project-id'].includes(a));

let scopes: Case[];
const expected = new Map<string, Outcome>();
beforeAll(async () => {
  scopes = cases(reference);
  for (const c of scopes) expected.set(c.name, await gate(reference, c.args));
  // The reference: each scope has the verdict its name says, on the default sandbox.
  for (const c of scopes) expect(expected.get(c.name)!.code, `${c.name}: ${expected.get(c.name)!.stderr}`).toBe(/failing/.test(c.name) ? 1 : 0);
}, 60_000);

describe.each(DIALECT_NAMES)('the gate against the sandbox dialect %s', (dialect) => {
  it.each(CASE_NAMES)('%s: the default verdict, or exactly why not and the setting that resolves it', async (name) => {
    const c = scopes.find((x) => x.name === name)!;
    const want = expected.get(c.name)!;
    const sb = sandboxes[dialect];
    const got = await gate(sb, c.args);
    const what = `${dialect}, ${c.name} (svc gate ${c.args.join(' ')}): exit ${got.code}: ${got.stderr.trim().split('\n').slice(-1)[0] ?? ''}`;
    if (dialect === 'wide-counts' && want.code === 0 && narrowed(c)) {
      // Counts over the organization say more open issues exist than the scope's listing: no PASS
      // from them, and the message names both and the setting.
      expect(got.code, what).toBe(7);
      expect(got.stderr, what).toMatch(/categoryCounts/);
      expect(got.stderr, what).toMatch(/--counts wide/);
      const told = await gate(sb, [...c.args, '--counts', 'wide']);
      expect({ code: told.code, counts: told.counts, totalCount: told.totalCount }, `${what}; with --counts wide: ${told.stderr}`).toEqual({ code: 0, counts: want.counts, totalCount: want.totalCount });
      return;
    }
    expect({ code: got.code, counts: got.counts, totalCount: got.totalCount }, what).toEqual({ code: want.code, counts: want.counts, totalCount: want.totalCount });
  });
});
