/**
 * A listing that changes while it is read (the red team's race, D2): after page 1 is served, iss_1 is
 * archived and a new issue is created, so `totalCount` stays 7 while iss_3 (score 95) moves from
 * page 2 to page 1 and is never read. Pages 2+ say so only in `totalCountAllCategories` (8, was 7)
 * and `categoryCounts.archived` (1, was 0): the gate and `issues search --all` must end with exit 7,
 * never "PASSED ... read 7 of 7" nor a listing presented as complete.
 */
import { describe, expect, it } from 'vitest';
import { useFakeServer, type FakeRequest } from '../../helpers/fake-server.js';
import { runCli } from '../../helpers/host.js';

const fake = useFakeServer();
const N = 7;

function issue(i: number, over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: `iss_${i}`, repositoryId: 'repo_a', status: 'open', generatedTitle: `t${i}`, vulnClass: 'SQL Injection', score: i === 3 ? 95 : 20,
    affectedFile: 'a.js', startLine: i + 1, createdAt: `2026-11-20T10:00:0${i}Z`, ...over,
  };
}

/** The race; `counts: false`: a service that reports no counts beside the total (not detectable). */
function racing(o: { counts: boolean; change?: boolean }) {
  return (req: FakeRequest) => {
    const body = req.body as { page: number; pageSize: number };
    const before = Array.from({ length: N }, (_, i) => issue(i));
    const changed = o.change !== false && body.page > 1;
    const list = changed ? [...before.filter((x) => x.id !== 'iss_1'), issue(99, { id: 'iss_new', createdAt: '2026-11-26T00:00:00Z' })] : before;
    const items = list.slice((body.page - 1) * body.pageSize, body.page * body.pageSize);
    const counts = { totalCountAllCategories: changed ? N + 1 : N, categoryCounts: { open: N, patched: 0, falsePositive: 0, archived: changed ? 1 : 0, processing: 0, silenced: 0, closed: 0 } };
    return { json: { issues: items, totalCount: list.length, ...(o.counts ? counts : {}), currentPage: body.page, pageSize: body.pageSize } };
  };
}

const read = () => fake.to('/api/v1/issues/search').flatMap((r) => [r.body.page]);

describe('a listing that changed while it was read is not complete (exit 7)', () => {
  it('gate --fail-on high --page-size 3 --concurrency 1: exit 7 naming the count that moved, no PASSED (it passed, reading 7 of 7)', async () => {
    fake.stub('/api/v1/issues/search', racing({ counts: true }));
    const r = await runCli(['gate', '--fail-on', 'high', '--page-size', '3', '--concurrency', '1'], { env: fake.env });
    expect(r.code, r.stderr).toBe(7);
    expect(r.stdout).not.toMatch(/PASSED/);
    expect(r.stderr).toMatch(/gate: the listing changed while it was read \(totalCountAllCategories was 7 on page 1, 8 on page 2\), so an item may have been missed/);
    expect(read()).toEqual([1, 2]);
  });

  it('the same with more pages in flight, and for a count of one status only', async () => {
    fake.stub('/api/v1/issues/search', (req) => {
      const reply = racing({ counts: true })(req);
      if (req.body.page > 1) (reply.json as Record<string, unknown>).totalCountAllCategories = N;
      return reply;
    });
    const r = await runCli(['gate', '--fail-on', 'high', '--page-size', '3'], { env: fake.env });
    expect(r.code, r.stderr).toBe(7);
    expect(r.stderr).toMatch(/categoryCounts.archived was 0 on page 1, 1 on page 2/);
  });

  it('issues search --all: exit 7, and the items already written are not presented as the whole listing', async () => {
    fake.stub('/api/v1/issues/search', racing({ counts: true }));
    const r = await runCli(['issues', 'search', '--all', '--page-size', '3', '--concurrency', '1', '-o', 'ndjson'], { env: fake.env });
    expect(r.code, r.stderr).toBe(7);
    expect(r.stderr).toMatch(/issues search --all: the listing changed while it was read \(totalCountAllCategories was 7 on page 1, 8 on page 2\).*the listing is incomplete/);
    expect(r.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l).id)).toEqual(['iss_0', 'iss_1', 'iss_2']);
  });

  it('a listing that did not change passes, counts and all (the check costs no request)', async () => {
    fake.stub('/api/v1/issues/search', racing({ counts: true, change: false }));
    const r = await runCli(['gate', '--fail-on', 'high', '--page-size', '3', '--concurrency', '1'], { env: fake.env });
    expect(r.code).toBe(1); // iss_3 is read: score 95 breaks --fail-on high
    expect(r.stdout).toMatch(/iss_3/);
    expect(read()).toEqual([1, 2, 3]);
  });

  it('a gate listing of several pages whose answers carry no counts beside the total cannot see the race: read on, no PASS (exit 7)', async () => {
    fake.stub('/api/v1/issues/search', racing({ counts: false }));
    const r = await runCli(['gate', '--fail-on', 'high', '--page-size', '3', '--concurrency', '1'], { env: fake.env });
    expect(r.code, r.stderr).toBe(7);
    expect(r.stdout).not.toMatch(/PASSED/);
    expect(r.stderr).toMatch(/gate: no PASS: .*the service reported no totalCountAllCategories nor categoryCounts beside totalCount \(asked for with getCounts\), so a change while the 3 pages are read could not be seen/);
    expect(read()).toEqual([1, 2, 3]);
  });

  it('several pages without counts and a breaking issue read: the FAIL stands (exit 1)', async () => {
    fake.stub('/api/v1/issues/search', racing({ counts: false, change: false }));
    const r = await runCli(['gate', '--fail-on', 'high', '--page-size', '3', '--concurrency', '1'], { env: fake.env });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/FAILED/);
    expect(r.stdout).toMatch(/iss_3/);
    expect(r.stdout).toMatch(/Doubts about the service's answers/);
  });

  it('one page needs no counts: nothing can move past a page boundary', async () => {
    fake.stub('/api/v1/issues/search', racing({ counts: false, change: false }));
    const r = await runCli(['gate', '--fail-on', 'critical', '--page-size', '10'], { env: fake.env });
    expect(r.code, r.stderr).toBe(1); // decided: iss_3 (score 95) is critical
    expect(r.stdout).toMatch(/iss_3/);
  });

  it('issues search --all is not the gate: without counts it reads on (the limit docs/security.md states)', async () => {
    fake.stub('/api/v1/issues/search', racing({ counts: false }));
    const r = await runCli(['issues', 'search', '--all', '--page-size', '3', '--concurrency', '1', '-o', 'ndjson'], { env: fake.env });
    expect(r.code, r.stderr).toBe(0);
  });
});

/**
 * The second round (rt2 #1): the spec's search answer carries `categoryCounts` only when `getCounts`
 * asks for them (as the sandbox does). After page 1, iss_1 goes open -> patched and a processing issue
 * becomes open: totalCount stays 7 and totalCountAllCategories 8; only categoryCounts moves.
 */
describe('the gate asks for the counts it compares (getCounts: true)', () => {
  function swapping(req: FakeRequest) {
    const body = req.body as { page: number; pageSize: number; getCounts?: boolean };
    const all = [...Array.from({ length: N }, (_, i) => issue(i)), issue(50, { id: 'iss_proc', status: 'processing', createdAt: '2026-11-26T00:00:00Z' })];
    const changed = body.page > 1;
    const now = changed ? all.map((x) => (x.id === 'iss_1' ? { ...x, status: 'patched' } : x.id === 'iss_proc' ? { ...x, status: 'open' } : x)) : all;
    const open = now.filter((x) => x.status === 'open');
    const cc: Record<string, number> = { open: 0, patched: 0, falsePositive: 0, archived: 0, processing: 0, silenced: 0, closed: 0 };
    for (const x of now) cc[String(x.status)]++;
    const items = open.slice((body.page - 1) * body.pageSize, body.page * body.pageSize);
    return { json: { issues: items, totalCount: open.length, totalCountAllCategories: now.length, ...(body.getCounts === true ? { categoryCounts: cc } : {}), currentPage: body.page, pageSize: body.pageSize } };
  }

  it('gate --fail-on high --page-size 3: every page asks getCounts, and the status swap is exit 7 (it passed: only categoryCounts moves)', async () => {
    fake.stub('/api/v1/issues/search', swapping);
    const r = await runCli(['gate', '--fail-on', 'high', '--page-size', '3', '--concurrency', '1'], { env: fake.env });
    expect(r.code, r.stderr).toBe(7);
    expect(r.stdout).not.toMatch(/PASSED/);
    expect(r.stderr).toMatch(/categoryCounts.open was 7 on page 1|categoryCounts.patched was 0 on page 1/);
    expect(fake.to('/api/v1/issues/search').map((x) => x.body.getCounts)).toEqual([true, true]);
  });

  it('--dry-run shows getCounts in the body the gate sends', async () => {
    const r = await runCli(['gate', '--fail-on', 'high', '--dry-run'], { env: fake.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout + r.stderr).toMatch(/"getCounts": true/);
  });
});
