/**
 * The pull-request gate judges the pull request's own code (src/commands/gate/head-scan.ts): on a pull
 * request, `svc gate --commit auto --wait` waits for the service's PR scan of the head and counts what
 * that scan found. The sandbox models the service's PR scanning (POST /__sandbox/pull-request: a new
 * head gets a PR scan that runs, then lists its findings), driven with the variables the real runners set.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../../../helpers/sandbox.js';
import { useFakeServer, type FakeRequest } from '../../../helpers/fake-server.js';
import { runCli } from '../../../helpers/host.js';
import { tempDir } from '../../../helpers/temp.js';
import { startFakeComments } from '../../../helpers/fake-comments.js';

let sb: TestSandbox;
// A scan runs 60 s of the sandbox's clock: it finishes when a test moves that clock (sb.advance).
beforeAll(async () => { sb = await startTestSandbox(); });
afterAll(() => sb.close());

/** How many scans list requests the sandbox has handled. */
async function scanPolls(): Promise<number> {
  const counts = await (await fetch(`${sb.url}/__sandbox/requests`)).json() as Record<string, { handled?: number }>;
  return counts['/api/v1/scans/list']?.handled ?? 0;
}

/** svc on a fake clock (its polls do not sleep) while the pushed head's scan runs: it finishes once svc has polled it twice. */
async function gateWhileScanning(args: string[], env: Record<string, string>) {
  const before = await scanPolls();
  let finished = false;
  const running = sb.run(args, { env, clock: 'fake' }).finally(() => { finished = true; });
  while (!finished && (await scanPolls()) < before + 2) await new Promise((r) => setTimeout(r, 10));
  sb.advance(61_000);
  return running;
}

const MERGE = '9e7d0c4b2a1f8e6d5c4b3a291807f6e5d4c3b2a1';
let shas = 0;
const nextSha = () => `${(++shas).toString(16).padStart(8, '0')}c0ffee00c0ffee00c0ffee00c0ffee00`;

/** A repository of the token's organization (host A's: its URL fits GITHUB_SERVER_URL/GITHUB_REPOSITORY) with PR scanning on or off. */
function repository(prScanning: boolean) {
  const repo = sb.state.repos.find((r) => r.organizationId === sb.organizationId && r.source === 'hosta' && r.isPrScanningEnabled === prScanning)!;
  expect(repo, `seed data: a host A repository with PR scanning ${prScanning ? 'on' : 'off'}`).toBeDefined();
  return repo;
}

/** What the git host tells the service of the pull request's new head (its webhook). */
async function push(repositoryId: string, headSha: string, findings: unknown): Promise<{ prScanning: boolean; scanId?: string }> {
  const r = await fetch(`${sb.url}/__sandbox/pull-request`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ repositoryId, headSha, headBranch: 'feature/pay', baseBranch: 'main', findings }) });
  expect(r.status).toBe(200);
  return await r.json() as { prScanning: boolean; scanId?: string };
}

/** A GitHub Actions pull_request job's environment (the variables the runner sets), for the head `sha`. */
function githubPullRequest(repoUrl: string, sha: string): Record<string, string> {
  const dir = tempDir('svc-pr-gate-');
  const event = join(dir, 'event.json');
  writeFileSync(event, JSON.stringify({ action: 'synchronize', number: 42, pull_request: { number: 42, head: { sha, ref: 'feature/pay' }, base: { ref: 'main' } } }));
  const [server, path] = /^(https?:\/\/[^/]+)\/(.*)$/.exec(repoUrl)!.slice(1);
  return {
    CI: 'true', GITHUB_ACTIONS: 'true', GITHUB_EVENT_NAME: 'pull_request', GITHUB_SHA: MERGE, GITHUB_REF: 'refs/pull/42/merge',
    GITHUB_HEAD_REF: 'feature/pay', GITHUB_BASE_REF: 'main', GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: path.replace(/\.git$/, ''),
    GITHUB_EVENT_PATH: event, GITHUB_STEP_SUMMARY: join(dir, 'summary.md'), GITHUB_OUTPUT: join(dir, 'output'), RUNNER_TEMP: dir,
  };
}

const GATE = ['gate', '--repository', 'auto', '--commit', 'auto', '--wait', '--poll-interval', '1', '--fail-on', 'high', '--no-annotations', '-o', 'json'];

describe('svc gate --commit auto --wait on a pull request', () => {
  it('fails once the service\'s scan of the head lists a breaking issue, and passes on a clean scan of the next head', async () => {
    const repo = repository(true);
    const head = nextSha();
    const pushed = await push(repo.id, head, [{ score: 95, affectedFile: 'src/pay/charge.js', startLine: 12, generatedTitle: 'SQL injection in charge()' }]);
    expect(pushed.prScanning).toBe(true);
    const env = githubPullRequest(repo.url, head);
    const failed = await gateWhileScanning(GATE, env);
    expect(failed.code, failed.stderr).toBe(1);
    const v = JSON.parse(failed.stdout);
    expect(v.verified.commit).toEqual({ sha: head, scans: [{ id: pushed.scanId, status: 'completed' }] });
    expect(v.scope.scanId).toBe(pushed.scanId);
    expect(v.breaking.map((i: { affectedFile: string; score: number }) => [i.affectedFile, i.score])).toEqual([['src/pay/charge.js', 95]]);
    // It waited for the scan: the scan ran while the gate polled.
    expect(failed.stderr).toContain(`waiting for scan ${pushed.scanId}`);
    expect(failed.stderr).toContain(`judging scan ${pushed.scanId} (PrScan of that commit, completed)`);

    // The author fixes it: the next head's scan is clean, and that head passes (the old head's finding is not its).
    const fixed = nextSha();
    const clean = await push(repo.id, fixed, []);
    const passed = await gateWhileScanning(GATE, githubPullRequest(repo.url, fixed));
    expect(passed.code, passed.stderr).toBe(0);
    const p = JSON.parse(passed.stdout);
    expect([p.passed, p.counts.total]).toEqual([true, 0]);
    expect(p.verified.commit).toEqual({ sha: fixed, scans: [{ id: clean.scanId, status: 'completed' }] });
  });

  it('a GitLab merge request: the head is CI_MERGE_REQUEST_SOURCE_BRANCH_SHA, not the merged result', async () => {
    const repo = sb.state.repos.find((r) => r.organizationId === sb.organizationId && r.source === 'hostb' && r.isPrScanningEnabled)!;
    expect(repo, 'seed data: a host B repository with PR scanning on').toBeDefined();
    const head = nextSha();
    const pushed = await push(repo.id, head, [{ score: 72 }]);
    const env = {
      CI: 'true', GITLAB_CI: 'true', CI_PIPELINE_SOURCE: 'merge_request_event', CI_PROJECT_URL: repo.url, CI_SERVER_URL: new URL(repo.url).origin,
      CI_COMMIT_SHA: MERGE, CI_MERGE_REQUEST_SOURCE_BRANCH_SHA: head, CI_MERGE_REQUEST_IID: '7',
      CI_MERGE_REQUEST_SOURCE_BRANCH_NAME: 'feature/pay', CI_MERGE_REQUEST_TARGET_BRANCH_NAME: 'main',
    };
    const r = await gateWhileScanning(GATE, env);
    expect(r.code, r.stderr).toBe(1);
    expect(JSON.parse(r.stdout).verified.commit).toEqual({ sha: head, scans: [{ id: pushed.scanId, status: 'completed' }] });
  });

  it('a GitLab merged results pipeline: the merge request note names the head judged, not the merge commit CI_COMMIT_SHA', async () => {
    // The comment's footer is what a later undecided run points to ("an earlier comment of svc's shows
    // the commit it judged"): the merge commit of a merged results pipeline is no commit of the merge request.
    const repo = sb.state.repos.find((r) => r.organizationId === sb.organizationId && r.source === 'hostb' && r.isPrScanningEnabled)!;
    const head = nextSha();
    await push(repo.id, head, [{ score: 95 }]);
    const notes = await startFakeComments('hostb');
    try {
      const env = {
        ...notes.env, CI: 'true', CI_PIPELINE_SOURCE: 'merge_request_event', CI_PROJECT_URL: repo.url, CI_SERVER_URL: new URL(repo.url).origin,
        CI_COMMIT_SHA: MERGE, CI_MERGE_REQUEST_SOURCE_BRANCH_SHA: head,
        CI_MERGE_REQUEST_SOURCE_BRANCH_NAME: 'feature/pay', CI_MERGE_REQUEST_TARGET_BRANCH_NAME: 'main',
      };
      const r = await gateWhileScanning([...GATE, '--comment'], env);
      expect(r.code, r.stderr).toBe(1);
      const [note] = notes.marked();
      expect(note.body).toContain(`svc gate on ${head.slice(0, 12)}`);
      expect(note.body).not.toContain(MERGE.slice(0, 12));
    } finally {
      await notes.close();
    }
  });

  it('PR scanning off for the repository: exit 4 at once, naming svc repos set-pr-scanning (no wait that cannot end)', async () => {
    const repo = repository(false);
    const head = nextSha();
    expect((await push(repo.id, head, 1)).prScanning).toBe(false);
    const r = await sb.run(GATE, { env: githubPullRequest(repo.url, head), clock: 'fake' });
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).toContain(`PR scanning is off for repository '${repo.id}'`);
    expect(r.stderr).toContain(`svc repos set-pr-scanning ${repo.id} --is-pr-scanning-enabled`);
    expect(r.host.sleeps).toEqual([]);
  });

  it('no scan of the head within --wait-timeout: exit 8, no verdict; without --wait while it runs: exit 8 naming --wait', async () => {
    const repo = repository(true);
    const head = nextSha();
    const env = githubPullRequest(repo.url, head);
    const late = await sb.run([...GATE, '--wait-timeout', '30'], { env, clock: 'fake' });
    expect(late.code, late.stderr).toBe(8);
    expect(late.stdout).toBe('');
    expect(late.stderr).toContain(`no finished scan of commit ${head} after 30s (--wait-timeout 30)`);
    expect(late.host.sleeps.reduce((a, b) => a + b, 0)).toBe(30_000);

    const pushed = await push(repo.id, head, 0);
    const running = await sb.run(GATE.filter((a) => a !== '--wait' && a !== '--poll-interval' && a !== '1'), { env });
    expect(running.code, running.stderr).toBe(8);
    expect(running.stderr).toContain(`the scan '${pushed.scanId}' of commit ${head} has not finished`);
    expect(running.stderr).toContain('add --wait to wait for it');
  });
});

describe('svc gate --commit judges every scan of the commit in scope, of the types asked for', () => {
  const fake = useFakeServer();
  const SHA = 'c0ffee0c0ffee0c0ffee0c0ffee0c0ffee0c0ffe';
  const repo = (id: string) => ({ id, name: id, url: `https://github.com/acme/${id}` });
  const scan = (scanId: string, repositoryId: string, o: Record<string, unknown> = {}) => ({ scanId, repositoryId, status: 'completed', finished: true, codeScanType: 'PrScan', scanTargetBranchCommitSha: SHA, ...o });
  const issue = (id: string, repositoryId: string, scanId: string, score: number) => ({ id, status: 'open', score, repositoryId, createdAt: '2026-11-01T00:00:00Z', codeScan: { id: scanId, scanTargetBranchCommitSha: SHA } });
  /** The issue search answered per request: the issues of the scan asked for (all of them when none is), filtered by type as a service does. */
  function service(repos: string[], scans: Array<Record<string, unknown>>, issues: Record<string, Array<Record<string, unknown>>>) {
    fake.stub('/api/v1/repositories/list', { json: repos.map(repo) });
    fake.stub('/api/v1/scans/list', { json: { codeScans: scans, totalCount: scans.length } });
    fake.stub('/api/v1/issues/search', (req: FakeRequest) => {
      const b = req.body as Record<string, unknown>;
      const types = b.codeScanTypes as string[] | undefined;
      const all = Object.entries(issues)
        .filter(([scanId]) => b.scanId === undefined || b.scanId === scanId)
        .filter(([scanId]) => !types || types.includes(String(scans.find((x) => x.scanId === scanId)?.codeScanType)))
        .flatMap(([, list]) => list);
      const page = Number(b.page), size = Number(b.pageSize);
      const items = all.slice((page - 1) * size, page * size);
      return { json: { issues: items, totalCount: all.length, totalCountAllCategories: all.length, categoryCounts: { open: all.length, patched: 0, falsePositive: 0, archived: 0, processing: 0, silenced: 0, closed: 0 }, currentPage: page, pageSize: size } };
    });
  }
  const gate = (args: string[]) => runCli(['gate', '--fail-on', 'high', '--commit', SHA, '--no-annotations', '-o', 'json', ...args], { env: fake.env });

  it('a finished scan of the commit in each of two repositories: both are judged (it passed with exit 0 on the newest one\'s clean findings)', async () => {
    service(['repo_1', 'repo_2'], [scan('scan_a', 'repo_1'), scan('scan_b', 'repo_2')], { scan_a: [issue('iss_a', 'repo_1', 'scan_a', 20)], scan_b: [issue('iss_b', 'repo_2', 'scan_b', 95)] });
    const r = await gate(['--repository-ids', 'repo_1,repo_2']);
    expect(r.code, r.stderr).toBe(1);
    const v = JSON.parse(r.stdout);
    expect(v.verified.commit).toEqual({ sha: SHA, scans: [{ id: 'scan_a', status: 'completed' }, { id: 'scan_b', status: 'completed' }] });
    expect(v.breaking.map((i: { id: string }) => i.id)).toEqual(['iss_b']);
    expect([v.counts.total, v.totalCount]).toEqual([2, 2]);
    expect(v.scope.scanIds).toEqual(['scan_a', 'scan_b']);
    // The summary's Scope line names the scans read, not the repositories' every open issue.
    const table = await runCli(['gate', '--fail-on', 'high', '--commit', SHA, '--no-annotations', '--repository-ids', 'repo_1,repo_2'], { env: fake.env });
    expect(table.stdout).toContain('Scope: open issues, repositories repo_1,repo_2, scans scan_a,scan_b; read 2 of 2 (totalCount).');
  });

  it('two finished scans of the commit that name no repository: both are judged (it judged the newest alone: exit 0, the other\'s critical issue unread)', async () => {
    const bare = (scanId: string) => { const s = scan(scanId, ''); delete (s as Record<string, unknown>).repositoryId; return s; };
    service(['repo_1', 'repo_2'], [bare('scan_a'), bare('scan_b')], { scan_a: [issue('iss_a', 'repo_1', 'scan_a', 20)], scan_b: [issue('iss_b', 'repo_2', 'scan_b', 95)] });
    // The organization's scope (with --repository-ids a scan naming no repository is none of it).
    fake.stub('/api/v1/repositories/list', { json: [] }, { optional: true });
    const r = await gate([]);
    expect(r.code, r.stderr).toBe(1);
    const v = JSON.parse(r.stdout);
    expect(v.verified.commit.scans.map((s: { id: string }) => s.id)).toEqual(['scan_a', 'scan_b']);
    expect(v.breaking.map((i: { id: string }) => i.id)).toEqual(['iss_b']);
    expect(r.stderr).toContain('judging scan scan_b (PrScan of that commit, completed, its repository not shown)');
  });

  it('a service that ignores scanId, answering each scan\'s listing with the same issue: counted once (it was counted twice: exit 1 "2 critical issues > max 1" on one issue, listed twice)', async () => {
    service(['repo_1', 'repo_2'], [scan('scan_a', 'repo_1'), scan('scan_b', 'repo_2')], {});
    const all = [issue('iss_a', 'repo_1', 'scan_a', 95), issue('iss_b', 'repo_2', 'scan_b', 40)];
    fake.stub('/api/v1/issues/search', (req: FakeRequest) => {
      const b = req.body as Record<string, unknown>;
      const page = Number(b.page), size = Number(b.pageSize);
      return { json: { issues: all.slice((page - 1) * size, page * size), totalCount: all.length, totalCountAllCategories: all.length, categoryCounts: { open: all.length, patched: 0, falsePositive: 0, archived: 0, processing: 0, silenced: 0, closed: 0 }, currentPage: page, pageSize: size } };
    });
    const dir = tempDir('svc-gate-twice-');
    const sarif = join(dir, 'gate.sarif');
    const byMax = (args: string[]) => runCli(['gate', '--max-critical', '1', '--commit', SHA, '--no-annotations', '-o', 'json', '--repository-ids', 'repo_1,repo_2', ...args], { env: fake.env });
    const r = await byMax(['--sarif', sarif]);
    expect(r.code, r.stderr).toBe(0);
    const v = JSON.parse(r.stdout);
    expect([v.counts.critical, v.counts.medium, v.counts.total]).toEqual([1, 1, 2]);
    expect(v.issues.map((i: { id: string }) => i.id)).toEqual(['iss_a', 'iss_b']);
    expect(r.stderr).toContain("2 issues were listed under more than one scan of the commit ('iss_a', 'iss_b'): each counted once");
    expect(JSON.parse(readFileSync(sarif, 'utf8')).runs[0].results).toHaveLength(2);
    // A critical issue in either listing still fails it.
    all.push(issue('iss_c', 'repo_2', 'scan_b', 99));
    const failed = await byMax([]);
    expect(failed.code, failed.stderr).toBe(1);
    expect(JSON.parse(failed.stdout).violations).toEqual(['2 critical issues > max 1']);
  });

  it('one repository\'s scan of the commit finished, the other\'s still running: exit 8, not a verdict on the first alone (it passed)', async () => {
    service(['repo_1', 'repo_2'], [scan('scan_a', 'repo_1'), scan('scan_b', 'repo_2', { status: 'running', finished: false })], { scan_a: [], scan_b: [] });
    // No verdict before the listing: the search is never asked.
    fake.stub('/api/v1/issues/search', { json: {} }, { optional: true });
    const r = await gate(['--repository-ids', 'repo_1,repo_2']);
    expect(r.code, r.stderr).toBe(8);
    expect(r.stderr).toContain("the scan 'scan_b' of commit");
  });

  it('--code-scan-types FullScan and only a PrScan of the commit: no scan of it of that type, exit 4 (it judged the PrScan through a FullScan filter: 0 issues, exit 0)', async () => {
    service(['repo_1'], [scan('scan_pr', 'repo_1')], { scan_pr: [issue('iss_1', 'repo_1', 'scan_pr', 95)] });
    const r = await gate(['--repository-ids', 'repo_1', '--code-scan-types', 'FullScan']);
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).toContain(`no scan of commit ${SHA} of type FullScan (--code-scan-types) in scope yet`);
    // A scan that shows no type is judged, its issues listed by its id alone (a type filter could only leave them out).
    service(['repo_1'], [scan('scan_pr', 'repo_1', { codeScanType: undefined })], { scan_pr: [issue('iss_1', 'repo_1', 'scan_pr', 95)] });
    const typeless = await gate(['--repository-ids', 'repo_1', '--code-scan-types', 'FullScan']);
    expect(typeless.code, typeless.stderr).toBe(1);
    expect(JSON.parse(typeless.stdout).breaking.map((i: { id: string }) => i.id)).toEqual(['iss_1']);
  });
});
