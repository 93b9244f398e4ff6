/**
 * `svc gate --commit SHA` decides only when the service shows a finished scan of that commit
 * (src/commands/gate/commit-scan.ts). It used to pass with exit 0 whenever no issue named the
 * commit: a sha one hex digit off a real scan's, a merge commit no scan carries, a commit the
 * service had not scanned yet ("N open issues were left out by --new-since/--commit").
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../../../helpers/sandbox.js';
import { useFakeServer } from '../../../helpers/fake-server.js';
import { runCli } from '../../../helpers/host.js';
import { tempDir } from '../../../helpers/temp.js';
import { archive } from '../../../../src/sandbox/transitions.js';
import type { ScanRec } from '../../../../src/sandbox/model.js';

const sandboxes: TestSandbox[] = [];
afterAll(async () => { await Promise.all(sandboxes.splice(0).map((s) => s.close())); });
async function sandbox(): Promise<TestSandbox> {
  const sb = await startTestSandbox();
  sandboxes.push(sb);
  return sb;
}

/** A completed scan of the token's organization with open issues, the most of them. */
function scanWithOpenIssues(sb: TestSandbox): { scan: ScanRec; open: string[] } {
  const org = sb.organizationId!;
  const best = sb.state.scans
    .filter((s) => s.status === 'completed' && sb.state.repo(s.repositoryId)?.organizationId === org)
    .map((scan) => ({ scan, open: sb.state.issues.filter((i) => i.scanId === scan.scanId && i.status === 'open').map((i) => i.id) }))
    .sort((a, b) => b.open.length - a.open.length || (a.scan.scanId < b.scan.scanId ? -1 : 1))[0];
  expect(best.open.length, 'seed data: a scan with open issues').toBeGreaterThan(1);
  return best;
}

/** The sha with its last hex digit changed: a typo of a real commit. */
const offByOne = (sha: string) => sha.slice(0, -1) + (sha.endsWith('0') ? '1' : '0');

describe('--commit names a commit no scan of the scope carries', () => {
  it('one hex digit off a real scan\'s sha: exit 4 naming it, no verdict (it passed with exit 0)', async () => {
    const sb = await sandbox();
    const { scan } = scanWithOpenIssues(sb);
    const dir = tempDir('svc-gate-commit-');
    const typo = offByOne(scan.commitSha);
    const r = await sb.run(['gate', '-R', scan.repositoryId, '--fail-on', 'info', '--commit', typo, '--json-report', join(dir, 'r.json'), '--markdown', join(dir, 'r.md')]);
    expect(r.code, r.stderr).toBe(4);
    expect(r.stdout).not.toContain('PASSED');
    // The sandbox's scans list names each scan's commit (the field svc infers: head-scan.ts), and none is this one.
    expect(r.stderr).toContain(`no scan of commit ${typo} in scope yet (scans list names the commit of each scan, and none is this one)`);
    expect(r.stderr).toContain('the service has not scanned it yet, or --commit names the wrong commit');
    expect(JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8'))).toMatchObject({ passed: false, decided: false, exitCode: 4 });
    expect(readFileSync(join(dir, 'r.md'), 'utf8')).toContain('could not decide');

    // The real sha decides: its open issues are counted, and the scan that found them is named.
    const real = await sb.run(['gate', '-R', scan.repositoryId, '--fail-on', 'info', '--commit', scan.commitSha, '-o', 'json']);
    expect(real.code, real.stderr).toBe(1);
    const v = JSON.parse(real.stdout);
    expect(v.counts.total).toBeGreaterThan(0);
    expect(v.verified.commit).toEqual({ sha: scan.commitSha, scans: [{ id: scan.scanId, status: 'completed' }] });
    // An abbreviation of it too.
    const short = await sb.run(['gate', '-R', scan.repositoryId, '--fail-on', 'info', '--commit', scan.commitSha.slice(0, 7)]);
    expect(short.code, short.stderr).toBe(1);
    expect(short.stdout).toContain(`scanned by ${scan.scanId} (completed)`);
  });

  it('a commit whose issues are no longer open still shows it was scanned: passes, naming the scan', async () => {
    const sb = await sandbox();
    const { scan, open } = scanWithOpenIssues(sb);
    // Every issue of the scan triaged away: none is open, so the gate's own listing names no scan of it.
    for (const id of open) archive(sb.state, sb.state.issues.find((i) => i.id === id)!);
    const r = await sb.run(['gate', '-R', scan.repositoryId, '--fail-on', 'info', '--commit', scan.commitSha, '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const v = JSON.parse(r.stdout);
    expect(v.passed).toBe(true);
    expect(v.counts.total).toBe(0);
    expect(v.verified.commit).toEqual({ sha: scan.commitSha, scans: [{ id: scan.scanId, status: 'completed' }] });
  });

  it('the CI job runs before the service has scanned the commit: exit 8 while a scan runs, then a verdict', async () => {
    const sb = await sandbox();
    const repo = sb.state.repos.find((r) => r.organizationId === sb.organizationId)!;
    const started = await sb.runJson<{ scanId: string }>(['scans', 'start', '--repository-ids', repo.id]);
    const scan = sb.state.scans.find((s) => s.scanId === started.scanId)!;
    const before = await sb.run(['gate', '-R', repo.id, '--fail-on', 'info', '--commit', scan.commitSha]);
    expect(before.code, before.stderr).toBe(8);
    expect(before.stdout).not.toContain('PASSED');
    // scans list names the running scan's commit: it is the scan of this commit, not yet finished.
    expect(before.stderr).toContain(`the scan '${scan.scanId}' of commit ${scan.commitSha} has not finished (status running)`);

    sb.advance(120_000);  // the scan finishes and adds its issues
    const after = await sb.run(['gate', '-R', repo.id, '--fail-on', 'info', '--commit', scan.commitSha, '-o', 'json']);
    expect(after.code, after.stderr).toBe(1);
    const v = JSON.parse(after.stdout);
    const added = sb.state.issues.filter((i) => i.scanId === scan.scanId && i.status === 'open').map((i) => i.id).sort();
    expect(added.length).toBeGreaterThan(0);
    expect(v.issues.map((i: { id: string }) => i.id).sort()).toEqual(added);
    expect(v.verified.commit.scans).toEqual([{ id: scan.scanId, status: 'completed' }]);

    // Nothing running any more: an unknown commit is exit 4, not 8.
    const typo = await sb.run(['gate', '-R', repo.id, '--fail-on', 'info', '--commit', offByOne(scan.commitSha)]);
    expect(typo.code, typo.stderr).toBe(4);
  });
});

describe('the scan an issue of the commit names must have finished', () => {
  const fake = useFakeServer();
  const SHA = 'c0ffee0c0ffee0c0ffee0c0ffee0c0ffee0c0ffe';
  const issue = (o: Record<string, unknown> = {}) => ({ id: 'iss_1', status: 'open', score: 20, repositoryId: 'repo_1', createdAt: '2026-11-01T00:00:00Z', codeScan: { id: 'scan_1', scanTargetBranchCommitSha: SHA }, ...o });
  const listing = (issues: unknown[]) => ({ json: { issues, totalCount: issues.length, totalCountAllCategories: issues.length, currentPage: 1, pageSize: 500 } });
  const scanItem = (o: Record<string, unknown>) => ({ json: { codeScans: [{ scanId: 'scan_1', repositoryId: 'repo_1', ...o }], totalCount: 1 } });
  const gate = () => runCli(['gate', '--repository-ids', 'repo_1', '--fail-on', 'critical', '--commit', SHA], { env: fake.env });

  function stub(issues: unknown[], scans?: unknown) {
    fake.stub('/api/v1/repositories/list', { json: [{ id: 'repo_1' }] });
    fake.stub('/api/v1/issues/search', listing(issues));
    if (scans !== undefined) fake.stub('/api/v1/scans/list', scans as never);
  }

  it('queued or running: exit 8', async () => {
    stub([issue()], scanItem({ status: 'running', finished: false }));
    const r = await gate();
    expect(r.code, r.stderr).toBe(8);
    expect(r.stderr).toContain(`the scan 'scan_1' of commit ${SHA} has not finished (status running)`);
    // This service's scan items name no commit: the issue's scan is looked up by its id.
    expect(fake.to('/api/v1/scans/list').map((q) => q.body.scanId)).toContain('scan_1');
  });

  it('running, with a breaking issue of the commit read: the FAIL stands (exit 1), said (it was exit 8)', async () => {
    stub([issue(), issue({ id: 'iss_2', score: 95 })], scanItem({ status: 'running', finished: false }));
    const r = await gate();
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(`the scan 'scan_1' of commit ${SHA} has not finished (status running): the FAIL stands on the issues it has listed so far`);
    expect(r.stdout).toContain('FAILED');
  });

  it('failed: exit 1 with its message', async () => {
    stub([issue()], scanItem({ status: 'failed', errorMessage: 'clone failed' }));
    const r = await gate();
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(`the scan of commit ${SHA} failed ('scan_1': clone failed)`);
  });

  it('one repository\'s scan failed beside another repository\'s completed one: exit 1 naming it (it passed with exit 0, "scanned by scan_1 (failed)"); a retry that completed in the same repository: the verdict', async () => {
    const scans: Record<string, Record<string, unknown>> = {
      scan_1: { scanId: 'scan_1', repositoryId: 'repo_1', status: 'failed', errorMessage: 'clone failed' },
      scan_2: { scanId: 'scan_2', repositoryId: 'repo_2', status: 'completed', finished: true },
    };
    fake.stub('/api/v1/repositories/list', { json: [{ id: 'repo_1' }, { id: 'repo_2' }] });
    fake.stub('/api/v1/issues/search', listing([issue(), issue({ id: 'iss_2', repositoryId: 'repo_2', codeScan: { id: 'scan_2', scanTargetBranchCommitSha: SHA } })]));
    // The newest scans name no commit (head-scan.ts finds none); each scan looked up by its id.
    fake.stub('/api/v1/scans/list', (req: { body: Record<string, unknown> }) => (req.body.scanId === undefined
      ? { json: { codeScans: Object.values(scans), totalCount: 2 } }
      : { json: { codeScans: [scans[String(req.body.scanId)]], totalCount: 1 } }));
    const both = ['gate', '--repository-ids', 'repo_1,repo_2', '--fail-on', 'critical', '--commit', SHA];
    const r = await runCli(both, { env: fake.env });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).not.toContain('PASSED');
    expect(r.stderr).toContain(`the scan of commit ${SHA} in repository repo_1 (another repository's scan of it finished) failed ('scan_1': clone failed)`);
    // scan_2 a retry in repo_1 that completed: repo_1's findings are complete.
    scans.scan_2.repositoryId = 'repo_1';
    const retried = await runCli(both, { env: fake.env });
    expect(retried.code, retried.stderr).toBe(0);
    expect(retried.stdout).toContain('scanned by scan_1 (failed), scan_2 (completed)');
  });

  it('an issue the commit\'s scan found again names the scan that first found it: counted, as the service lists the scan\'s findings (it passed, left out)', async () => {
    const OLD = 'aaaaaaa0aaaaaaa0aaaaaaa0aaaaaaa0aaaaaaa0';
    // iss_1 (critical) first found by scan_0 of an older commit; scan_1 of SHA found it again and iss_2.
    const redetected = issue({ score: 95, codeScan: { id: 'scan_0', scanTargetBranchCommitSha: OLD } });
    const found = issue({ id: 'iss_2' });
    fake.stub('/api/v1/repositories/list', { json: [{ id: 'repo_1' }] });
    fake.stub('/api/v1/issues/search', (req: { body: Record<string, unknown> }) => listing(req.body.scanId === 'scan_1' ? [redetected, found] : [redetected, found]));
    // The field notes' scan items: no commit.
    fake.stub('/api/v1/scans/list', (req: { body: Record<string, unknown> }) => ({ json: { codeScans: [{ scanId: String(req.body.scanId ?? 'scan_1'), repositoryId: 'repo_1', status: 'completed', finished: true }], totalCount: 1 } }));
    const r = await runCli(['gate', '--repository-ids', 'repo_1', '--fail-on', 'critical', '--commit', SHA, '-o', 'json'], { env: fake.env });
    expect(r.code, r.stderr).toBe(1);
    const v = JSON.parse(r.stdout);
    expect(v.breaking.map((i: { id: string }) => i.id)).toEqual(['iss_1']);
    expect(v.verified.commit).toEqual({ sha: SHA, scans: [{ id: 'scan_1', status: 'completed' }] });
    expect(v.scope.scanId).toBe('scan_1');
    // Listed by the scan's id, after the scope's listing that named it.
    expect([...new Set(fake.to('/api/v1/issues/search').map((q) => q.body.scanId))]).toEqual([undefined, 'scan_1']);
    expect(r.stderr).toContain("item 'iss_1' of scan 'scan_0', not the one asked for ('scan_1')");
  });

  it('completed: the verdict (passes below the threshold), naming the scan', async () => {
    stub([issue()], scanItem({ status: 'completed', finished: true }));
    const r = await gate();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`commit ${SHA}, scanned by scan_1 (completed)`);
  });

  it('a scans list answer whose totalCount exceeds the records it holds is exit 7 (page 2 could hold the scan running: it passed)', async () => {
    stub([issue()], { json: { codeScans: [{ scanId: 'scan_1', repositoryId: 'repo_1', status: 'completed', finished: true }], totalCount: 2 } });
    const r = await gate();
    expect([r.code, r.stdout], r.stderr).toEqual([7, '']);
    expect(r.stderr).toContain("scans list: the answer is incomplete: it gives totalCount 2 for scan 'scan_1' but holds 1 record");
  });

  it('the scan of the commit is of a repository outside the organization\'s list (it carries no organizationId): exit 7', async () => {
    // The newest scans of the scope name no commit (head-scan.ts finds none); the issue's scan, looked up by id, is of another repository.
    stub([issue()], [{ json: { codeScans: [], totalCount: 0 } }, scanItem({ status: 'completed', finished: true, repositoryId: 'repo_zzz' })]);
    const r = await gate();
    expect([r.code, r.stdout], r.stderr).toEqual([7, '']);
    expect(r.stderr).toContain("scans list gives scan 'scan_1' of repository 'repo_zzz', which is not a repository of the token's organization");

  });

  it('no open issue names the commit; the other statuses\' answer gives the 5-key categoryCounts (no silenced, no closed): the archived issue\'s scan decides (it was exit 7)', async () => {
    const fiveKeys = { open: 0, patched: 0, falsePositive: 0, archived: 1, processing: 0 };
    fake.stub('/api/v1/repositories/list', { json: [{ id: 'repo_1' }] });
    fake.stub('/api/v1/issues/search', [
      listing([]),
      { json: { issues: [issue({ status: 'archived' })], totalCount: 1, totalCountAllCategories: 1, categoryCounts: fiveKeys, currentPage: 1, pageSize: 500 } },
    ]);
    fake.stub('/api/v1/scans/list', scanItem({ status: 'completed', finished: true }));
    const r = await gate();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`commit ${SHA}, scanned by scan_1 (completed)`);
    expect(fake.to('/api/v1/issues/search')[1].body.types).toEqual(expect.arrayContaining(['silenced', 'closed']));

    // A count it gives that is not a whole number is a doubt that hides nothing here (the issue names
    // the commit, the scan decides): said, and decided.
    fake.stub('/api/v1/issues/search', [
      listing([]),
      { json: { issues: [issue({ status: 'archived' })], totalCount: 1, totalCountAllCategories: 1, categoryCounts: { ...fiveKeys, archived: -1 }, currentPage: 1, pageSize: 500 } },
    ]);
    const bad = await gate();
    expect(bad.code, bad.stderr).toBe(0);
    expect(bad.stderr).toContain('categoryCounts.archived is -1, not a whole number');
  });

  it('a scan scans list does not know, or an issue of the commit naming no scan: exit 7', async () => {
    stub([issue()], { json: { codeScans: [], totalCount: 0 } });
    const unknown = await gate();
    expect(unknown.code, unknown.stderr).toBe(7);
    expect(unknown.stderr).toContain("issues name scan 'scan_1'");

    stub([issue({ codeScan: { scanTargetBranchCommitSha: SHA } })]);
    const unnamed = await gate();
    expect(unnamed.code, unnamed.stderr).toBe(7);
    expect(unnamed.stderr).toContain(`1 issue names commit ${SHA} but not the scan that found it`);
  });

  it('a breaking issue of the commit read in scope is a FAIL (exit 1) even when its scan cannot be checked (it was exit 7)', async () => {
    // Whether the scan has finished can only hide issues it has yet to list: the FAIL read stands.
    stub([issue({ score: 95 })], { json: { codeScans: [], totalCount: 0 } });
    const unknown = await gate();
    expect(unknown.code, unknown.stderr).toBe(1);
    expect(unknown.stdout).toContain('FAILED');
    expect(unknown.stderr).toContain("issues name scan 'scan_1'");
    expect(unknown.stderr).toContain('gate failed: 1 issue at critical or above');

    stub([issue({ score: 95, codeScan: { scanTargetBranchCommitSha: SHA } })]);
    const unnamed = await gate();
    expect(unnamed.code, unnamed.stderr).toBe(1);
    expect(unnamed.stderr).toContain(`1 issue names commit ${SHA} but not the scan that found it`);
  });
});

describe('--commit auto in a pull request build judges the head the CI built, not its merge commit', () => {
  /** A scan with open issues of a repository of `source`, and the repository. */
  function scanOf(sb: TestSandbox, source: 'hosta' | 'hostb') {
    const org = sb.organizationId!;
    const repos = new Set(sb.state.repos.filter((r) => r.source === source && r.organizationId === org).map((r) => r.id));
    const scan = sb.state.scans.find((s) => repos.has(s.repositoryId) && s.status === 'completed'
      && sb.state.issues.some((i) => i.scanId === s.scanId && i.status === 'open'))!;
    expect(scan, `seed data: a ${source} scan with open issues`).toBeDefined();
    return { scan, repo: sb.state.repo(scan.repositoryId)! };
  }
  const MERGE = '9e7d0c4b2a1f8e6d5c4b3a291807f6e5d4c3b2a1';

  it("host A pull_request: pull_request.head.sha of the event file (GITHUB_SHA, the merge commit, passed with exit 0)", async () => {
    const sb = await sandbox();
    const { scan, repo } = scanOf(sb, 'hosta');
    const dir = tempDir('svc-gate-commit-auto-');
    const event = join(dir, 'event.json');
    writeFileSync(event, JSON.stringify({ action: 'synchronize', number: 12, pull_request: { number: 12, head: { sha: scan.commitSha, ref: 'feature' }, base: { ref: 'main' } } }));
    const [server, path] = /^(https?:\/\/[^/]+)\/(.*)$/.exec(repo.url)!.slice(1);
    const env = {
      CI: 'true', GITHUB_ACTIONS: 'true', GITHUB_EVENT_NAME: 'pull_request', GITHUB_SHA: MERGE, GITHUB_REF: 'refs/pull/12/merge',
      GITHUB_HEAD_REF: 'feature', GITHUB_BASE_REF: 'main', GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: path.replace(/\.git$/, ''),
      GITHUB_EVENT_PATH: event, GITHUB_STEP_SUMMARY: join(dir, 'summary.md'), GITHUB_OUTPUT: join(dir, 'output'),
    };
    const r = await sb.run(['gate', '--repository', 'auto', '--fail-on', 'info', '--commit', 'auto', '--no-annotations', '-o', 'json'], { env });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(`--commit auto is ${scan.commitSha} (pull_request.head.sha of the event file (GITHUB_EVENT_PATH))`);
    expect(JSON.parse(r.stdout).verified.commit).toEqual({ sha: scan.commitSha, scans: [{ id: scan.scanId, status: 'completed' }] });

    // The same job on a push of that commit: GITHUB_SHA.
    const push = await sb.run(['gate', '--repository', 'auto', '--fail-on', 'info', '--commit', 'auto', '--no-annotations'], { env: { ...env, GITHUB_EVENT_NAME: 'push', GITHUB_REF: 'refs/heads/main', GITHUB_SHA: scan.commitSha } });
    expect(push.code, push.stderr).toBe(1);
    // A broken event file: exit 2 before anything is sent, never the merge commit.
    writeFileSync(event, '{"pull_request": ');
    const broken = await sb.run(['gate', '--repository', 'auto', '--fail-on', 'info', '--commit', 'auto'], { env });
    expect(broken.code, broken.stderr).toBe(2);
    expect(broken.stderr).toContain('is not JSON');
    expect(broken.stdout).toBe('');
  });

  it('host B merged results pipeline: CI_MERGE_REQUEST_SOURCE_BRANCH_SHA (CI_COMMIT_SHA, the merge commit, passed with exit 0)', async () => {
    const sb = await sandbox();
    const { scan, repo } = scanOf(sb, 'hostb');
    const env = {
      CI: 'true', GITLAB_CI: 'true', CI_PIPELINE_SOURCE: 'merge_request_event', CI_PROJECT_URL: repo.url, CI_SERVER_URL: new URL(repo.url).origin,
      CI_COMMIT_SHA: MERGE, CI_MERGE_REQUEST_SOURCE_BRANCH_SHA: scan.commitSha, CI_MERGE_REQUEST_IID: '7',
    };
    const r = await sb.run(['gate', '--repository', 'auto', '--fail-on', 'info', '--commit', 'auto', '-o', 'json'], { env });
    expect(r.code, r.stderr).toBe(1);
    expect(JSON.parse(r.stdout).verified.commit.sha).toBe(scan.commitSha);
  });
});
