/**
 * The gate verifies its scope before any verdict (issue 10): an unknown scan, repository,
 * organization, project or rule is exit 4 naming the id (it used to pass: a search for an id that
 * does not exist finds no issue); a scan still queued or running is exit 8 unless --wait waits for
 * it; a failed scan is exit 1 with its message; a scope that exists with no open issue passes and
 * says so. Reports say "could not decide" on every such path, and no SARIF file is written.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useSandbox } from '../../../helpers/sandbox.js';
import { startFakeServer, type FakeServer } from '../../../helpers/fake-server.js';
import { runCli, testHost, type TestHostOptions } from '../../../helpers/host.js';
import { tempDir } from '../../../helpers/temp.js';
import type { ScanRec } from '../../../../src/sandbox/model.js';

const sb = useSandbox();
let dir: string;
beforeAll(() => { dir = tempDir('svc-gate-scope-'); });

const gate = (args: string[], env: Record<string, string> = sb.env, o: TestHostOptions = {}) => runCli(['gate', ...args], { ...o, env });

/** A host on a fake clock whose sleeps also move the sandbox's clock (a scan finishes while svc waits). */
function sandboxClockHost() {
  const host = testHost({ env: sb.env, clock: 'fake' });
  const sleep = host.sleep;
  host.sleep = async (ms, signal) => { sb.advance(ms); await sleep(ms, signal); };
  return host;
}

/** Exit `code`, one stderr line naming `id`, nothing on stdout (no PASSED, no verdict). */
function noVerdict(r: Awaited<ReturnType<typeof gate>>, code: number, says: RegExp): void {
  expect(r.code, r.stderr).toBe(code);
  expect(r.stdout).toBe('');
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  expect(r.stderr).toMatch(says);
}

function orgScans(): ScanRec[] {
  const org = sb.organizationId!;
  return sb.state.scans.filter((s) => sb.state.repo(s.repositoryId)?.organizationId === org);
}

describe('unknown ids in the scope: exit 4, never PASSED', () => {
  it('--scan-id scan_doesnotexist --fail-on info (passed with exit 0 before)', async () => {
    noVerdict(await gate(['--scan-id', 'scan_doesnotexist', '--fail-on', 'info']), 4, /scan 'scan_doesnotexist' not found/);
  });

  it('--repository-ids repo_typo (passed with exit 0 before), every unknown id named', async () => {
    noVerdict(await gate(['--repository-ids', 'repo_typo', '--fail-on', 'info']), 4, /repository 'repo_typo' not found/);
    const real = sb.state.repos.find((r) => r.organizationId === sb.organizationId)!.id;
    noVerdict(await gate(['--repository-ids', `${real},repo_a,repo_b`, '--fail-on', 'info']), 4, /repositories 'repo_a', 'repo_b' not found/);
  });

  it('an organization, a project and a rule that do not exist', async () => {
    noVerdict(await gate(['--organization-id', 'org_nope', '--fail-on', 'info']), 4, /organization 'org_nope' not found/);
    noVerdict(await gate(['--fail-on', 'info'], { ...sb.env, SVC_ORGANIZATION_ID: 'org_nope' }), 4, /organization 'org_nope' not found/);
    noVerdict(await gate(['--project-id', 'proj_nope', '--fail-on', 'info']), 4, /project 'proj_nope' not found/);
    noVerdict(await gate(['--rule-id', 'rule_nope', '--fail-on', 'info']), 4, /rule 'rule_nope' has found no issue of any status/);
  });

  it('an organization given as empty (an unset CI variable): exit 2, never "the token\'s default" (it passed with exit 0)', async () => {
    for (const [args, env, says] of [
      [['--max-total', '1000'], { ...sb.env, SVC_ORGANIZATION_ID: '' }, /SVC_ORGANIZATION_ID is set but empty/],
      [['--max-total', '1000', '--org', ''], sb.env, /--org got an empty value/],
      [['--max-total', '1000'], { ...sb.env, SVC_PROFILE: '' }, /SVC_PROFILE is set but empty/],
    ] as const) {
      const r = await gate([...args], env);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(says);
      expect(r.stderr).toContain('an unset CI variable expands to ""');
    }
  });

  it('a scan of a repository that --repository-ids does not name: the scope holds nothing', async () => {
    const scan = orgScans().find((s) => s.status === 'completed')!;
    const other = sb.state.repos.find((r) => r.organizationId === sb.organizationId && r.id !== scan.repositoryId)!.id;
    noVerdict(await gate(['--scan-id', scan.scanId, '--repository-ids', other, '--fail-on', 'info']), 4, new RegExp(`scan '${scan.scanId}' is of repository '${scan.repositoryId}'`));
  });

  it('every report says the gate could not decide; no SARIF file', async () => {
    const f = (n: string) => join(dir, n);
    const r = await gate(['--scan-id', 'scan_typo', '--fail-on', 'info', '--sarif', f('a.sarif'), '--junit', f('a.xml'), '--markdown', f('a.md'), '--json-report', f('a.json')]);
    expect(r.code).toBe(4);
    expect(existsSync(f('a.sarif'))).toBe(false);
    expect(readFileSync(f('a.xml'), 'utf8')).toContain('errors="1"');
    expect(readFileSync(f('a.md'), 'utf8')).toContain('could not decide');
    expect(JSON.parse(readFileSync(f('a.json'), 'utf8'))).toMatchObject({ passed: false, decided: false, exitCode: 4 });
  });
});

describe('ids are checked by listing them, not by a 404 from the search', () => {
  // A service whose search answers "no issues" for any scope, as a lenient server would.
  let server: FakeServer;
  let env: Record<string, string>;
  beforeAll(async () => {
    server = await startFakeServer({ fallback: { status: 500, json: { error: 'not expected' } } });
    stubLenient();
    env = server.env;
  });
  afterAll(async () => { await server.close(); });
  function stubLenient(): void {
    server.stub('/api/v1/issues/search', { json: { issues: [], totalCount: 0, totalCountAllCategories: 0, currentPage: 1, pageSize: 500 } });
    server.stub('/api/v1/orgs/list', { json: [{ id: 'org_1', name: 'one' }] });
    server.stub('/api/v1/repositories/list', { json: [{ id: 'repo_1', projectId: 'proj_1', name: 'r' }] });
    server.stub('/api/v1/scans/list', (req) => {
      const scanId = (req.body as { scanId?: string }).scanId;
      const known = scanId === 'scan_1' ? [{ scanId, repositoryId: 'repo_1', status: 'completed' }] : [];
      return { json: { codeScans: known, totalCount: known.length } };
    });
  }

  it('unknown ids are exit 4; known ones with no open issue pass and say "0 open issues in scope"', async () => {
    noVerdict(await gate(['--org', 'org_2', '--fail-on', 'info'], env), 4, /organization 'org_2' not found/);
    noVerdict(await gate(['--org', 'org_1', '--repository-ids', 'repo_2', '--fail-on', 'info'], env), 4, /repository 'repo_2' not found in organization 'org_1'/);
    noVerdict(await gate(['--org', 'org_1', '--project-id', 'proj_2', '--fail-on', 'info'], env), 4, /project 'proj_2' not found/);
    noVerdict(await gate(['--org', 'org_1', '--scan-id', 'scan_2', '--fail-on', 'info'], env), 4, /scan 'scan_2' not found/);
    noVerdict(await gate(['--org', 'org_1', '--rule-id', 'rule_2', '--fail-on', 'info'], env), 4, /rule 'rule_2'/);
    const ok = await gate(['--org', 'org_1', '--repository-ids', 'repo_1', '--project-id', 'proj_1', '--scan-id', 'scan_1', '--fail-on', 'info'], env);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/^svc gate: PASSED.*\n0 open issues in scope\./);
    expect(ok.stdout).toContain('Verified to exist: organization org_1, repository repo_1, project proj_1, scan scan_1 (completed).');
    const json = await gate(['--org', 'org_1', '--scan-id', 'scan_1', '--fail-on', 'info', '-o', 'json'], env);
    expect(JSON.parse(json.stdout)).toMatchObject({ passed: true, counts: { total: 0 }, verified: { organization: 'org_1', scan: { id: 'scan_1', status: 'completed' } } });
  });

  it('an organization list it cannot read is exit 7, never "found"', async () => {
    server.stub('/api/v1/orgs/list', { json: { organizations: 'nope' } });
    try {
      noVerdict(await gate(['--org', 'org_1', '--fail-on', 'info'], env), 7, /gate: orgs list: the answer is an object, not the list the spec documents for orgs list/);
    } finally {
      stubLenient();
    }
  });

  it('the lookups go out at once; an unknown organization is still the failure reported when a repository is unknown too', async () => {
    // The organization's answer comes late: the repository lookup is sent before it has arrived.
    server.stub('/api/v1/orgs/list', { json: [{ id: 'org_1', name: 'one' }], delayMs: 300 });
    let orgAnswered: boolean | undefined;
    server.stub('/api/v1/repositories/list', () => {
      orgAnswered = server.to('/api/v1/orgs/list').at(-1)?.status !== undefined;
      return { json: [{ id: 'repo_1', projectId: 'proj_1', name: 'r' }] };
    });
    try {
      const ok = await gate(['--org', 'org_1', '--repository-ids', 'repo_1', '--fail-on', 'info'], env);
      expect(ok.code, ok.stderr).toBe(0);
      expect(orgAnswered).toBe(false);
      server.stub('/api/v1/orgs/list', { json: [{ id: 'org_1', name: 'one' }], delayMs: 300 });
      noVerdict(await gate(['--org', 'org_2', '--repository-ids', 'repo_2', '--fail-on', 'info'], env), 4, /organization 'org_2' not found/);
    } finally {
      stubLenient();
    }
  });

  it('a scan listed twice is exit 7 in either order (the first record used to win: completed passed, running was 8)', async () => {
    const done = { scanId: 'scan_1', repositoryId: 'repo_1', status: 'completed', finished: true };
    const running = { scanId: 'scan_1', repositoryId: 'repo_1', status: 'running', finished: false };
    try {
      for (const codeScans of [[done, running], [running, done], [done, done]]) {
        server.stub('/api/v1/scans/list', { json: { codeScans, totalCount: codeScans.length } });
        noVerdict(await gate(['--org', 'org_1', '--scan-id', 'scan_1', '--fail-on', 'high'], env), 7, /scan 'scan_1' is listed 2 times/);
      }
    } finally {
      stubLenient();
    }
  });

  it('a scans list answer for one scan id whose totalCount exceeds the records read (or is over 1) is exit 7 (page 2 could hold the scan running: it passed)', async () => {
    const done = { scanId: 'scan_1', repositoryId: 'repo_1', status: 'completed', finished: true };
    try {
      server.stub('/api/v1/scans/list', { json: { codeScans: [done], totalCount: 2 } });
      noVerdict(await gate(['--org', 'org_1', '--scan-id', 'scan_1', '--fail-on', 'high'], env), 7, /scans list: the answer is incomplete: it gives totalCount 2 for scan 'scan_1' but holds 1 record, so the scan's state cannot be told/);
      server.stub('/api/v1/scans/list', { json: { codeScans: [done], totalCount: 40 } });
      noVerdict(await gate(['--org', 'org_1', '--scan-id', 'scan_1', '--fail-on', 'high'], env), 7, /it gives totalCount 40 for scan 'scan_1' but holds 1 record/);
      // --wait: a poll whose answer is incomplete ends the wait with exit 7, never the record it holds.
      server.stub('/api/v1/scans/list', [
        { json: { codeScans: [{ ...done, status: 'running', finished: false }], totalCount: 1 } },
        { json: { codeScans: [done], totalCount: 2 } },
      ]);
      const waited = await runCli(['gate', '--org', 'org_1', '--scan-id', 'scan_1', '--fail-on', 'high', '--wait', '--poll-interval', '1'], { host: testHost({ env, clock: 'fake' }) });
      expect([waited.code, waited.stdout], waited.stderr).toEqual([7, '']);
      expect(waited.stderr).toMatch(/the answer is incomplete: it gives totalCount 2 for scan 'scan_1'/);
      // totalCount 1, or none: decided as before.
      server.stub('/api/v1/scans/list', { json: { codeScans: [done] } });
      expect((await gate(['--org', 'org_1', '--scan-id', 'scan_1', '--fail-on', 'high'], env)).code).toBe(0);
    } finally {
      stubLenient();
    }
  });

  it('a scan of another organization in the answer is no PASS (exit 7); one of another scan id only beside it is no doubt, but it makes "not found" unsaid', async () => {
    try {
      server.stub('/api/v1/scans/list', { json: { codeScans: [{ scanId: 'scan_1', status: 'completed', finished: true, organizationId: 'org_b', repositoryId: 'repo_1' }], totalCount: 1 } });
      noVerdict(await gate(['--org', 'org_1', '--scan-id', 'scan_1', '--fail-on', 'low'], env), 7, /gate: no PASS: page 1 holds an item of organization 'org_b', not the one asked for \('org_1'\)/);
      // Another scan beside it, the answer whole (totalCount 2, 2 records): the service ignored the
      // filter; the scan's one record is read, with a warning (it was exit 7).
      server.stub('/api/v1/scans/list', { json: { codeScans: [{ scanId: 'scan_9', status: 'completed', organizationId: 'org_1' }, { scanId: 'scan_1', status: 'completed', organizationId: 'org_1' }], totalCount: 2 } });
      const beside = await gate(['--org', 'org_1', '--scan-id', 'scan_1', '--fail-on', 'low'], env);
      expect(beside.stderr).toContain("the answer holds 1 other scan beside 'scan_1' (the scanId filter seems ignored)");
      expect(beside.stderr).not.toContain('totalCount 2');
      // Only other scans: the service ignored the scanId filter, so it did not say the scan does not exist (7, not 4).
      server.stub('/api/v1/scans/list', { json: { codeScans: [{ scanId: 'scan_9', status: 'completed', organizationId: 'org_1' }] } });
      noVerdict(await gate(['--org', 'org_1', '--scan-id', 'scan_1', '--fail-on', 'low'], env), 7, /it answers 1 other scan but not 'scan_1': the service ignored the scanId filter/);
      // --wait: the record the wait ends on is checked too.
      server.stub('/api/v1/scans/list', [
        { json: { codeScans: [{ scanId: 'scan_1', status: 'running', finished: false, organizationId: 'org_1' }], totalCount: 1 } },
        { json: { codeScans: [{ scanId: 'scan_1', status: 'completed', finished: true, organizationId: 'org_b' }], totalCount: 1 } },
      ]);
      const waited = await runCli(['gate', '--org', 'org_1', '--scan-id', 'scan_1', '--fail-on', 'low', '--wait', '--poll-interval', '1'], { host: testHost({ env, clock: 'fake' }) });
      expect([waited.code, waited.stdout]).toEqual([7, '']);
      expect(waited.stderr).toMatch(/scan scan_1: completed[\s\S]*no PASS: page 1 holds an item of organization 'org_b', not the one asked for/);
      // Of the organization asked for: passes.
      server.stub('/api/v1/scans/list', { json: { codeScans: [{ scanId: 'scan_1', status: 'completed', finished: true, organizationId: 'org_1', repositoryId: 'repo_1' }], totalCount: 1 } });
      const ok = await gate(['--org', 'org_1', '--scan-id', 'scan_1', '--fail-on', 'low'], env);
      expect(ok.code, ok.stderr).toBe(0);
    } finally {
      stubLenient();
    }
  });

  it('--repository auto: a repository resolve-by-url gives whose listed URL names another repository is exit 7 (it gated repo_b for o/a)', async () => {
    // Host A's runner building o/a; the service resolves it to repo_b, listed as o/b.
    const runner = { ...env, GITHUB_ACTIONS: 'true', GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'o/a' };
    // Exit 7, nothing on stdout; stderr: the note of what the URL resolved to, then the one error line.
    const contradicted = (r: Awaited<ReturnType<typeof gate>>, says: RegExp) => {
      expect([r.code, r.stdout], r.stderr).toEqual([7, '']);
      const lines = r.stderr.trim().split('\n');
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatch(/^svc gate: repository https:\/\/github.com\/o\/a is repo_b$/);
      expect(lines[1]).toMatch(says);
    };
    const listed = (url: Record<string, unknown>) => server.stub('/api/v1/repositories/list', { json: [{ id: 'repo_a', name: 'a', repositoryUrl: 'https://github.com/o/a' }, { id: 'repo_b', name: 'b', ...url }] });
    server.stub('/api/v1/repositories/resolve-by-url', { json: { repositoryId: 'repo_b' } });
    try {
      listed({ repositoryUrl: 'https://github.com/o/b' });
      contradicted(await gate(['--repository', 'auto', '--fail-on', 'high', '--no-annotations'], runner),
        /resolve-by-url gives 'repo_b' for https:\/\/github.com\/o\/a, but repositories list gives 'repo_b' the URL 'https:\/\/github.com\/o\/b'/);
      // Also when the URL is given, and when one of the record's URLs (url, host C's) names another repository.
      contradicted(await gate(['--repository', 'https://github.com/o/a', '--fail-on', 'high'], env), /contradict each other/);
      listed({ url: 'https://hostc.example/o/b', hostC: { repositoryUrl: 'https://HOSTC.example/o/b.git' } });
      contradicted(await gate(['--repository', 'auto', '--fail-on', 'high', '--no-annotations'], runner), /the URL 'https:\/\/hostc.example\/o\/b', so the gate would judge another repository;/);
      // The same repository written otherwise (host case, .git, a trailing slash, ssh, the path's case), or no URL listed: it passes.
      for (const url of [{ repositoryUrl: 'https://GitHub.com/o/a.git/' }, { url: 'git@github.com:O/A.git' }, {}, { repositoryUrl: '' }]) {
        listed(url);
        const ok = await gate(['--repository', 'auto', '--fail-on', 'high', '--no-annotations'], runner);
        expect(ok.code, `${JSON.stringify(url)}: ${ok.stderr}`).toBe(0);
        expect(ok.stdout).toContain('Verified to exist: repository repo_b');
      }
    } finally {
      stubLenient();
    }
  });

  it('a record listed only by an SSH URL, the URL given with a port and a relative root: no contradiction (it was exit 7); another project\'s SSH URL still is', async () => {
    const given = 'https://gitlab.corp.example:8443/gitlab/Group/Sub/Proj';
    // Host B's runner on a self-managed server under a relative root, on port 8443.
    const runner = { ...env, GITLAB_CI: 'true', CI_SERVER_URL: 'https://gitlab.corp.example:8443/gitlab', CI_PROJECT_URL: given };
    const listed = (url: string) => server.stub('/api/v1/repositories/list', { json: [{ id: 'repo_b', name: 'proj', url }] });
    server.stub('/api/v1/repositories/resolve-by-url', { json: { repositoryId: 'repo_b' } });
    try {
      // The SSH URL with the root in its path, and without it (a relative root the SSH path leaves out).
      for (const url of ['git@gitlab.corp.example:gitlab/group/sub/proj.git', 'ssh://git@gitlab.corp.example:2222/group/sub/proj.git']) {
        listed(url);
        const ok = await gate(['--repository', 'auto', '--fail-on', 'high', '--no-annotations'], runner);
        expect(ok.code, `${url}: ${ok.stderr}`).toBe(0);
        expect(ok.stdout).toContain('Verified to exist: repository repo_b');
      }
      for (const url of ['git@gitlab.corp.example:gitlab/group/sub/other.git', 'git@elsewhere.example:gitlab/group/sub/proj.git']) {
        listed(url);
        const bad = await gate(['--repository', 'auto', '--fail-on', 'high', '--no-annotations'], runner);
        expect([bad.code, bad.stdout], `${url}: ${bad.stderr}`).toEqual([7, '']);
        expect(bad.stderr).toContain('contradict each other');
      }
    } finally {
      stubLenient();
    }
  });

  it('filters that name nothing to look up are said to be unverified when they leave nothing', async () => {
    const r = await gate(['--org', 'org_1', '--vulnerability-classes', 'SQL Injektion', '--fail-on', 'info'], env);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Note: --vulnerability-classes filter the scope and cannot be verified');
  });
});

/**
 * The second round (rt2 #3): scans and issues carry no organizationId (the spec's Issue record, the
 * field notes' scan item), so the scope check of that field never fired. Their repositoryId is
 * checked against the organization's (or the project's) repositories, listed once per gate.
 */
describe('a scan or an issue of a repository outside the scope is not counted, and no PASS (exit 7; it passed: no organizationId to compare)', () => {
  let server: FakeServer;
  beforeAll(async () => { server = await startFakeServer({ fallback: { status: 500, json: { error: 'not expected' } } }); });
  afterAll(async () => { await server.close(); });
  const issue = (id: string, repositoryId: string, score = 95) => ({ id, repositoryId, status: 'open', score, createdAt: '2026-11-20T10:00:00Z', codeScan: { id: 'scan_x' } });
  const listing = (issues: unknown[]) => ({ json: { issues, totalCount: issues.length, totalCountAllCategories: issues.length, currentPage: 1, pageSize: 500 } });
  const lists = () => server.requests.filter((r) => r.path === '/api/v1/repositories/list').length;
  function stub(scanRepo: string, issues: unknown[]): void {
    server.stub('/api/v1/orgs/list', { json: [{ id: 'org_a', name: 'A' }, { id: 'org_b', name: 'B' }] });
    server.stub('/api/v1/repositories/list', { json: [{ id: 'repo_a', name: 'a', projectId: 'prj_a' }, { id: 'repo_b', name: 'b', projectId: 'prj_b' }] });
    server.stub('/api/v1/scans/list', { json: { codeScans: [{ scanId: 'scan_x', repositoryId: scanRepo, status: 'completed', finished: true }], totalCount: 1 } });
    server.stub('/api/v1/issues/search', listing(issues));
  }

  it('--organization-id org_a --scan-id scan_x: a scan of repo_zzz, which org_a does not list: no PASS (exit 7); its issues are not counted', async () => {
    stub('repo_zzz', [issue('iss_1', 'repo_zzz', 95)]);
    server.requests.length = 0;
    const r = await gate(['--organization-id', 'org_a', '--scan-id', 'scan_x', '--fail-on', 'high'], server.env);
    expect([r.code, r.stdout], r.stderr).toEqual([7, '']);
    expect(r.stderr).toMatch(/gate: no PASS: scans list gives scan 'scan_x' of repository 'repo_zzz', which is not a repository of organization 'org_a' \(repositories list gives 2\), so the gate would judge a scan outside its scope/);
    // Its issue of repo_zzz (score 95) is a doubt of the same kind: not counted, so no FAIL either.
    expect(r.stderr).toMatch(/so the gate would judge a scan outside its scope \(and 1 more\)/);
    // (The one page's total is its length: page 2 is asked for too.)
    expect(server.requests.map((r) => r.path.replace('/api/v1/', ''))).toEqual(['orgs/list', 'repositories/list', 'scans/list', 'issues/search', 'issues/search']);
  });

  it('org-wide: an issue of repo_zzz (no organizationId) is exit 7; of org_a\'s repositories it decides, with one repositories list per gate', async () => {
    stub('repo_a', [issue('iss_1', 'repo_a', 20), issue('iss_2', 'repo_zzz', 20)]);
    noVerdict(await gate(['--organization-id', 'org_a', '--fail-on', 'high'], server.env), 7,
      /gate: no PASS: page 1 holds issue 'iss_2' of repository 'repo_zzz', which is not a repository of organization 'org_a' \(repositories list gives 2\): the service ignored the scope asked for/);
    // --scan-id of org_a's repository, the issues of another: the same.
    noVerdict(await gate(['--organization-id', 'org_a', '--scan-id', 'scan_x', '--fail-on', 'high'], server.env), 7, /issue 'iss_2' of repository 'repo_zzz'/);
    // Every issue of a listed repository: decided (the issues are below high), over several pages with one list call.
    stub('repo_a', [issue('iss_1', 'repo_a', 20), issue('iss_3', 'repo_b', 20)]);
    server.stub('/api/v1/issues/search', (req) => {
      const page = (req.body as { page: number }).page;
      const all = [issue('iss_1', 'repo_a', 20), issue('iss_3', 'repo_b', 20)];
      return { json: { issues: all.slice(page - 1, page), totalCount: 2, totalCountAllCategories: 2, categoryCounts: { open: 2, patched: 0, falsePositive: 0, archived: 0, processing: 0, silenced: 0, closed: 0 }, currentPage: page, pageSize: 1 } };
    });
    server.requests.length = 0;
    const ok = await gate(['--organization-id', 'org_a', '--fail-on', 'high', '--page-size', '1'], server.env);
    expect(ok.code, ok.stderr).toBe(0);
    expect(lists()).toBe(1);
  });

  it('--project-id prj_a (the list shows prj_a = {repo_a}): an issue of repo_zzz, or of org_a\'s repo_b, is exit 7', async () => {
    for (const other of ['repo_zzz', 'repo_b']) {
      stub('repo_a', [issue('iss_1', 'repo_a', 20), issue('iss_2', other, 20)]);
      noVerdict(await gate(['--organization-id', 'org_a', '--project-id', 'prj_a', '--fail-on', 'high'], server.env), 7,
        new RegExp(`page 1 holds issue 'iss_2' of repository '${other}', which is not a repository of project 'prj_a' \\(repositories list gives 1\\)`));
    }
    stub('repo_b', [issue('iss_1', 'repo_a', 20)]);
    noVerdict(await gate(['--organization-id', 'org_a', '--project-id', 'prj_a', '--scan-id', 'scan_x', '--fail-on', 'high'], server.env), 7, /scan 'scan_x' of repository 'repo_b', which is not a repository of project 'prj_a'/);
    stub('repo_a', [issue('iss_1', 'repo_a', 20)]);
    expect((await gate(['--organization-id', 'org_a', '--project-id', 'prj_a', '--scan-id', 'scan_x', '--fail-on', 'high'], server.env)).code).toBe(0);
  });
});

describe('a scan that has not finished is not a pass', () => {
  it('queued or running: exit 8 with no verdict (a running scan used to be counted as it stood)', async () => {
    const [running, queued] = orgScans().filter((s) => s.status === 'completed').slice(0, 2);
    for (const [scan, status] of [[running, 'running'], [queued, 'queued']] as const) Object.assign(scan, { status, finished: false, codeScanFinished: false });
    try {
      noVerdict(await gate(['--scan-id', running.scanId, '--fail-on', 'critical']), 8, new RegExp(`scan '${running.scanId}' has not finished \\(status running\\).*add --wait`));
      noVerdict(await gate(['--scan-id', queued.scanId, '--max-total', '1000']), 8, /has not finished \(status queued\)/);
    } finally {
      for (const scan of [running, queued]) Object.assign(scan, { status: 'completed', finished: true, codeScanFinished: true });
    }
  });

  it('--wait waits (same polling as scans start --wait) and then decides on the finished scan', async () => {
    const repo = sb.state.repos.find((r) => r.organizationId === sb.organizationId)!.id;
    const started = await sb.call('/api/v1/scans/start', { repositoryIds: [repo] });
    const scanId = started.json.scanId as string;
    const r = await runCli(['gate', '--scan-id', scanId, '--max-total', '1000', '--wait', '--poll-interval', '20', '-o', 'json'], { host: sandboxClockHost() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(new RegExp(`scan ${scanId}: running[\\s\\S]*scan ${scanId}: completed`));
    const v = JSON.parse(r.stdout);
    expect(v.verified.scan).toEqual({ id: scanId, status: 'completed', repositoryId: repo });
    expect(v.counts.total).toBeGreaterThanOrEqual(1); // the sandbox's scan adds 1 to 3 open issues
  });

  it('--wait-timeout passing before the scan finishes is exit 8 (still pending), not a pass', async () => {
    const repo = sb.state.repos.find((r) => r.organizationId === sb.organizationId)!.id;
    const scanId = (await sb.call('/api/v1/scans/start', { repositoryIds: [repo] })).json.scanId as string;
    const r = await gate(['--scan-id', scanId, '--fail-on', 'info', '--wait', '--poll-interval', '5', '--wait-timeout', '30'], sb.env, { clock: 'fake' });
    expect(r.code, r.stderr).toBe(8);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/timed out waiting for scan/);
    sb.advance(120_000);
  });

  it('a failed scan: exit 1 with its error message', async () => {
    const failed = orgScans().find((s) => s.status === 'failed')!;
    noVerdict(await gate(['--scan-id', failed.scanId, '--max-total', '1000']), 1, new RegExp(`scan '${failed.scanId}' failed: ${failed.errorMessage}`));
  });

  it('--wait without --scan-id, or --poll-interval without --wait: exit 2', async () => {
    noVerdict(await gate(['--fail-on', 'high', '--wait']), 2, /--wait waits for the scan of --scan-id/);
    noVerdict(await gate(['--fail-on', 'high', '--scan-id', 's', '--poll-interval', '3']), 2, /--poll-interval only applies with --wait/);
  });
});
