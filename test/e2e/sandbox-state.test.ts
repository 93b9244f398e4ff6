/** State changes made through the CLI (in-process) are seen by the next commands, as on the real service. */
import { afterAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

// Each test has a sandbox of its own, so they can run at the same time.
const started: TestSandbox[] = [];
async function fresh(): Promise<TestSandbox> {
  const sb = await startTestSandbox({ seed: 11 });
  started.push(sb);
  return sb;
}
const openIssue = (sb: TestSandbox) => sb.state.issues.find((i) => i.status === 'open' && !i.patch && !i.unpatchable && sb.state.repo(i.repositoryId)!.organizationId === sb.organizationId)!;

afterAll(async () => {
  await Promise.all(started.map((sb) => sb.close()));
});

describe.concurrent('sandbox state through the CLI', () => {
  it('archive: the issue leaves the open counts of stats and search, and unarchive brings it back', async () => {
    const sb = await fresh();
    const id = openIssue(sb).id;
    const before = await sb.runJson(['stats', 'summary']);
    const openBefore = (await sb.runJson(['issues', 'search', '--types', 'open', '--page-size', '1'])).totalCount;
    expect((await sb.run(['issues', 'archive', id])).code).toBe(0);
    const after = await sb.runJson(['stats', 'summary']);
    expect(after.issues.open).toBe(before.issues.open - 1);
    expect(after.issues.archived).toBe(before.issues.archived + 1);
    expect((await sb.runJson(['issues', 'search', '--types', 'open', '--page-size', '1'])).totalCount).toBe(openBefore - 1);
    const archived = await sb.runJson(['issues', 'search', '--types', 'archived', '--search-query', id]);
    expect(archived.issues.map((i: any) => i.id)).toEqual([id]);
    expect(archived.issues[0].archivedAt).toEqual(expect.any(String));
    expect((await sb.run(['issues', 'unarchive', id])).code).toBe(0);
    expect((await sb.runJson(['issues', 'get', id])).status).toBe('open');
  });

  it('a repository setter changes the record that repos list returns', async () => {
    const sb = await fresh();
    const repo = sb.state.repos.find((r) => r.organizationId === sb.organizationId && r.source === 'hostc')!;
    expect((await sb.run(['repos', 'set-pr-title-template', repo.id, '--pr-title-template', 'Fix {title} now'])).code).toBe(0);
    expect((await sb.run(['repos', 'set-pr-scan-summaries-enabled', repo.id, '--no-is-enabled'])).code).toBe(0);
    const listed = (await sb.runJson(['repos', 'list'])).find((r: any) => r.id === repo.id);
    expect(listed).toMatchObject({ prTitleTemplate: 'Fix {title} now', isPrScanSummaryEnabled: false, isPrScanCleanSummaryEnabled: false });
  });

  it('upsert-schedule creates a schedule that get-schedule returns, and changes it', async () => {
    const sb = await fresh();
    const repo = sb.state.repos.find((r) => r.organizationId === sb.organizationId && !sb.state.schedule(r.id))!;
    expect((await sb.run(['scans', 'get-schedule', repo.id])).code).toBe(4);
    expect((await sb.run(['scans', 'upsert-schedule', repo.id, '--execution-criteria-crontab', '15 2 * * 1-5', '--timezone', 'Asia/Tokyo', '--no-is-enabled'])).code).toBe(0);
    expect(await sb.runJson(['scans', 'get-schedule', repo.id])).toMatchObject({ repoId: repo.id, executionCriteriaCrontab: '15 2 * * 1-5', timezone: 'Asia/Tokyo', isEnabled: false });
    expect((await sb.run(['scans', 'upsert-schedule', repo.id, '--is-enabled'])).code).toBe(0);
    expect(await sb.runJson(['scans', 'get-schedule', repo.id])).toMatchObject({ executionCriteriaCrontab: '15 2 * * 1-5', isEnabled: true });
  });

  it('scans start: the scan is running, then completed with new issues once its time is up', async () => {
    const sb = await fresh();
    const repo = sb.state.repos.find((r) => r.organizationId === sb.organizationId)!;
    const { scanId } = await sb.runJson(['scans', 'start', '--repository-ids', repo.id]);
    const running = await sb.runJson(['scans', 'list', '--scan-id', scanId]);
    expect(running).toMatchObject({ totalCount: 1, codeScans: [{ scanId, status: 'running', finished: false, repositoryId: repo.id, codeScanType: 'FullScan' }] });
    expect((await sb.runJson(['stats', 'summary'])).scans.runningScans).toBe(1);
    sb.advance(61_000);
    const done = await sb.runJson(['scans', 'list', '--repository-ids', repo.id, '--sort-by', 'createdAt', '--sort-order', 'desc', '--page-size', '1']);
    expect(done.codeScans[0]).toMatchObject({ scanId, status: 'completed', finished: true });
    expect(done.codeScans[0].issueCounts.open).toBeGreaterThan(0);
    const found = await sb.runJson(['issues', 'search', '--scan-id', scanId]);
    expect(found.totalCount).toBe(done.codeScans[0].issueCounts.open);
  });

  it('generate-patch: processing, then patched with a patch; approve-patch opens its pull request', async () => {
    const sb = await fresh();
    const id = openIssue(sb).id;
    expect((await sb.run(['issues', 'generate-patch', id])).code).toBe(0);
    expect(await sb.runJson(['issues', 'get', id])).toMatchObject({ status: 'processing', patch: null });
    const early = await sb.run(['issues', 'approve-patch', id]);
    expect(early.code).toBe(5);
    expect(early.stderr).toMatch(/no patch yet/);
    sb.advance(61_000);
    const patched = await sb.runJson(['issues', 'get', id]);
    expect(patched.status).toBe('patched');
    expect(patched.patch).toMatchObject({ pullRequestStatus: 'DRAFT', gitDiff: expect.stringContaining(patched.affectedFile) });
    expect(await sb.runJson(['issues', 'approve-patch', id])).toMatchObject({ ok: true, pullRequestStatus: 'OPEN' });
    expect((await sb.runJson(['issues', 'get', id])).patch.prLink).toMatch(/\/pull\/\d+$/);
  });

  it('triage: false positive, then true positive; severity changes are seen by search', async () => {
    const sb = await fresh();
    const id = openIssue(sb).id;
    await sb.runJson(['issues', 'mark-false-positive', id]);
    expect(await sb.runJson(['issues', 'get', id])).toMatchObject({ status: 'falsePositive', validated: 'DISCONFIRMED' });
    await sb.runJson(['issues', 'mark-true-positive', id]);
    expect(await sb.runJson(['issues', 'get', id])).toMatchObject({ status: 'open', validated: 'CONFIRMED' });
    await sb.runJson(['issues', 'update-severity', id, '--severity', '0.1']);
    const low = await sb.runJson(['issues', 'search', '--severities-max', '0.1', '--sort-by', 'severity']);
    expect(low.issues.map((i: any) => i.id)).toContain(id);
  });

  it('orgs create, repos create-standalone and repos delete are seen by the listings', async () => {
    const sb = await fresh();
    const org = await sb.runJson(['orgs', 'create', '--name', 'Scratch org']);
    expect((await sb.runJson(['orgs', 'list'])).map((o: any) => o.name)).toContain('Scratch org');
    const { id } = await sb.runJson(['repos', 'create-standalone', '--org', org.id, '-f', 'name=lab']);
    expect((await sb.runJson(['repos', 'list', '--org', org.id])).map((r: any) => r.id)).toEqual([id]);
    expect((await sb.run(['repos', 'delete', id, '--org', org.id, '--yes'])).code).toBe(0);
    expect(await sb.runJson(['repos', 'list', '--org', org.id])).toEqual([]);
  });
});
