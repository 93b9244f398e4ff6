/**
 * `svc gate` on what a change adds, in the CI it runs in, against the sandbox: a baseline from the
 * previous run, a policy file with expiry dates, host A's step summary and annotations, host B's
 * reports validated against their schemas, --repository auto.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, testHost } from '../helpers/host.js';
import { busiestRepo, startGateSandbox, type GateSandbox } from '../helpers/sandbox-scope.js';
import { tempDir } from '../helpers/temp.js';
import { codeQualityErrors, sastErrors } from '../unit/gate/reports/hostb-schemas.js';
import { schemaErrors } from '../unit/gate/reports/sarif-schema.js';
import { mdCell } from '../../src/gate/reports/markdown.js';

const sandboxes: GateSandbox[] = [];
afterAll(async () => { await Promise.all(sandboxes.splice(0).map((s) => s.close())); });

async function sandbox(): Promise<GateSandbox> {
  const sb = await startGateSandbox({ scanDurationMs: 300 });
  sandboxes.push(sb);
  return sb;
}

const workDir = () => tempDir('svc-gate-ci-');

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
/** The commit of a finished scan of the repository that found an open issue (the sandbox's own state). */
const scannedCommit = (sb: GateSandbox, repoId: string) => sb.state.scans.find((s) => s.repositoryId === repoId && s.status === 'completed'
  && sb.state.issues.some((i) => i.scanId === s.scanId && i.status === 'open'))?.commitSha;
const openIds = (sb: GateSandbox, repoId: string) => sb.state.issues.filter((i) => i.repositoryId === repoId && i.status === 'open').map((i) => i.id);

describe('svc gate --baseline', () => {
  it.concurrent('passes on the previous run until a scan adds issues, then fails on exactly the added ones', async () => {
    const sb = await sandbox();
    const { repoId, ids } = await busiestRepo(sb);
    const cwd = workDir();
    const scope = ['gate', '--repository-ids', repoId, '--fail-on', 'info', '--page-size', '25'];

    // The previous run (on the main branch): fails on every open issue, writes the reports.
    const first = await sb.run([...scope, '--sarif', 'main.sarif', '--json-report', 'main.json'], { cwd });
    expect(first.code, first.stderr).toBe(1);

    // Nothing new since: passes, with either file as the baseline.
    for (const file of ['main.sarif', 'main.json']) {
      const again = await sb.run([...scope, '--baseline', file], { cwd });
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).toContain('svc gate: PASSED');
      expect(again.stdout).toContain(`0 new, ${ids.length} already in the baseline (not counted; baseline ${file}, ${ids.length} issues).`);
      expect(again.stdout).toContain(`0 open issues counted; ${ids.length} more in scope not counted (below).`);
    }

    // A new scan adds issues: the gate fails on those and only those.
    // svc's waits between polls move the sandbox's clock (a fake clock): the scan's 300 ms pass without waiting them.
    const host = testHost({ env: sb.env, cwd, clock: 'fake' });
    const sleep = host.sleep;
    host.sleep = async (ms, signal) => { sb.advance(ms); await sleep(ms, signal); };
    const scan = await sb.run(['scans', 'start', '--repository-ids', repoId, '--wait', '--poll-interval', '0.1', '-o', 'json'], { host });
    expect(host.sleeps.length, 'svc polled until the scan finished').toBeGreaterThan(1);
    expect(scan.code, scan.stderr).toBe(0);
    const added = openIds(sb, repoId).filter((id) => !ids.includes(id));
    expect(added.length, 'the scan adds issues').toBeGreaterThan(0);
    for (const file of ['main.sarif', 'main.json']) {
      const after = await sb.run([...scope, '--baseline', file, '--sarif', 'pr.sarif', '-o', 'json'], { cwd });
      expect(after.code, after.stderr).toBe(1);
      const v = JSON.parse(after.stdout);
      expect(v.issues.map((i: { id: string }) => i.id).sort()).toEqual([...added].sort());
      expect(v.breaking.map((i: { id: string }) => i.id).sort()).toEqual([...added].sort());
      expect(v.counts.total).toBe(added.length);
      expect(v.baseline).toEqual({ file, new: added.length, unchanged: ids.length });
      expect(v.unchanged.map((i: { id: string }) => i.id).sort()).toEqual([...ids].sort());
      const sarif = JSON.parse(readFileSync(join(cwd, 'pr.sarif'), 'utf8'));
      expect(schemaErrors(sarif)).toEqual([]);
    }
  });

  it.concurrent('a baseline that cannot be read or is not a svc report is exit 2, nothing sent', async () => {
    const sb = await sandbox();
    const cwd = workDir();
    writeFileSync(join(cwd, 'other.json'), '{"runs": [{"tool": {"driver": {"name": "other"}}, "results": []}]}');
    writeFileSync(join(cwd, 'broken.sarif'), '{"runs": [');
    const cases: Array<[string, string]> = [
      ['missing.sarif', "cannot read --baseline 'missing.sarif' (ENOENT)"],
      ['other.json', 'other.json is a SARIF log but not one svc wrote'],
      ['broken.sarif', 'broken.sarif is not JSON'],
    ];
    for (const [file, message] of cases) {
      const r = await sb.run(['gate', '--fail-on', 'high', '--baseline', file], { cwd });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(message);
      expect(r.stdout).toBe('');
    }
  });
});

describe('svc gate with a policy file', () => {
  it.concurrent('an entry silences an issue until its expiry date, then it counts again (and says so)', async () => {
    const sb = await sandbox();
    const { repoId } = await busiestRepo(sb);
    const cwd = workDir();
    const gate = () => sb.run(['gate', '--repository-ids', repoId, '--page-size', '25', '-o', 'json'], { cwd });
    // No threshold anywhere yet: refused.
    expect((await gate()).code).toBe(2);

    // fail-on comes from the file; the one critical issue is accepted until tomorrow.
    const criticals = sb.state.issues.filter((i) => i.repositoryId === repoId && i.status === 'open' && (i.score ?? 100) >= 90);
    expect(criticals.length).toBeGreaterThan(0);
    const policy = (expires: string) => [
      'version: 1', 'fail-on: critical', 'ignore:',
      ...criticals.flatMap((i) => [`  - id: ${i.id}`, '    reason: "accepted risk, see SEC-42"', `    expires: ${expires}`]),
    ].join('\n') + '\n';

    writeFileSync(join(cwd, '.svc-policy.yml'), policy(day(1)));
    const silenced = await gate();
    expect(silenced.code, silenced.stderr).toBe(0);
    expect(silenced.stderr).toContain(`svc gate: read the policy .svc-policy.yml (${criticals.length} ignore entr`);
    const v = JSON.parse(silenced.stdout);
    expect(v.suppressed.map((i: { id: string }) => i.id).sort()).toEqual(criticals.map((i) => i.id).sort());
    expect(v.suppressed[0].suppression).toMatchObject({ reason: 'accepted risk, see SEC-42', expires: day(1), source: '.svc-policy.yml:4' });
    expect(v.counts.critical).toBe(0);

    writeFileSync(join(cwd, '.svc-policy.yml'), policy(day(-1)));
    const expired = await gate();
    expect(expired.code, expired.stderr).toBe(1);
    expect(expired.stderr).toContain(`policy .svc-policy.yml:4: expired ${day(-1)}: ${criticals[0].id} counts again`);
    expect(JSON.parse(expired.stdout).counts.critical).toBe(criticals.length);

    // The same file as the days go by (the CLI's wall clock moved): silenced through the expiry day, not after.
    const expires = day(10);
    writeFileSync(join(cwd, '.svc-policy.yml'), policy(expires));
    for (const [offset, code] of [[9, 0], [10, 0], [11, 1]] as const) {
      const host = testHost({ cwd, env: sb.env });
      host.wallNow = () => Date.now() + offset * 86_400_000;
      const r = await sb.run(['gate', '--repository-ids', repoId, '-o', 'json'], { host });
      expect(r.code, `${offset} days on: ${r.stderr}`).toBe(code);
      expect(r.stderr.includes(`expired ${expires}`)).toBe(offset === 11);
    }

    // A flag replaces only its own setting: --fail-on info fails on the rest too, the entry still holds.
    writeFileSync(join(cwd, '.svc-policy.yml'), policy(day(1)));
    const flagged = await sb.run(['gate', '--repository-ids', repoId, '--fail-on', 'info', '--sarif', 'x.sarif', '-o', 'json'], { cwd });
    expect(flagged.code).toBe(1);
    const fv = JSON.parse(flagged.stdout);
    expect(fv.thresholds.failOn).toBe('info');
    expect(fv.counts.critical).toBe(0);
    const sarif = JSON.parse(readFileSync(join(cwd, 'x.sarif'), 'utf8'));
    const suppressed = sarif.runs[0].results.filter((r: { suppressions?: unknown[] }) => r.suppressions);
    expect(suppressed).toHaveLength(criticals.length);
    expect(suppressed[0].suppressions).toEqual([{ kind: 'external', status: 'accepted', justification: 'accepted risk, see SEC-42' }]);
  });

  it.concurrent('a mistake in the file is exit 2 naming the line', async () => {
    const sb = await sandbox();
    const cwd = workDir();
    writeFileSync(join(cwd, 'p.yml'), 'version: 1\nignore:\n  - id: iss_1\n    reason: r\n    expires: 2027-02-30\n');
    const r = await sb.run(['gate', '--policy', 'p.yml', '--fail-on', 'high'], { cwd });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("policy: p.yml:5: expires must be a date YYYY-MM-DD, got '2027-02-30'");
    expect(r.stdout).toBe('');
  });
});

describe("svc gate on GitHub Actions", () => {
  /** A sandbox's busiest repository, and a job's folder whose step summary an earlier step wrote to. */
  async function jobStep() {
    const sb = await sandbox();
    const { repoId } = await busiestRepo(sb);
    const cwd = workDir();
    const summary = join(cwd, 'step_summary.md');
    writeFileSync(summary, '## Build\n\nAll 112 tests passed.\n');
    return { sb, repoId, cwd, summary, env: { CI: 'true', GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary } };
  }

  it.concurrent('appends the summary to the step summary (earlier content kept) and annotates without flags', async () => {
    const { sb, repoId, cwd, summary, env } = await jobStep();
    const repo = sb.state.repo(repoId)!;
    const r = await sb.run(['gate', '--repository-ids', repoId, '--fail-on', 'high', '--page-size', '25'], { cwd, env });
    expect(r.code, r.stderr).toBe(1);
    const text = readFileSync(summary, 'utf8');
    expect(text.startsWith('## Build\n\nAll 112 tests passed.\n\n### ❌ svc gate failed\n')).toBe(true);
    expect(r.stdout).toMatch(/^::error file=[^\n]+$/m);
    expect(r.stdout).toContain('::group::Issues that break the gate');
    expect(r.stdout).toContain('::endgroup::');
    expect(r.stderr).toContain(`added the gate summary to the step summary ${summary}`);
    expect(repo).toBeTruthy();

    // A second step appends again; --no-ci leaves the file and stdout alone.
    await sb.run(['gate', '--repository-ids', repoId, '--fail-on', 'high'], { cwd, env });
    expect(readFileSync(summary, 'utf8').split('svc gate failed')).toHaveLength(3);
    const off = await sb.run(['gate', '--repository-ids', repoId, '--fail-on', 'high', '--no-ci'], { cwd, env });
    expect(off.stdout).not.toContain('::error');
    expect(readFileSync(summary, 'utf8').split('svc gate failed')).toHaveLength(3);
  });

  it.concurrent('the step summary stays well under host A\'s 1 MiB: 18,000 expired policy entries are summed up, the --markdown file keeps them', async () => {
    const { sb, repoId, cwd, summary, env } = await jobStep();
    const n = 18_000;
    writeFileSync(join(cwd, 'p.yml'), ['version: 1', 'ignore:', ...Array.from({ length: n }, (_, i) => [`  - id: iss_gone_${i}`, '    reason: "accepted once"', `    expires: ${day(-30)}`]).flat(), ''].join('\n'));
    const r = await sb.run(['gate', '--repository-ids', repoId, '--fail-on', 'high', '--policy', 'p.yml', '--json-report', 'gate.json', '--markdown', 'gate.md'], { cwd, env });
    expect(r.code, r.stderr.slice(-2000)).toBe(1);
    // The CI log too: the first 20 named, the rest in one line (it was one line each).
    expect(r.stderr.match(/^warning: policy p\.yml:\d+: expired /gm)).toHaveLength(20);
    expect(r.stderr).toContain(`warning: policy p.yml: ${n - 20} more entries expired and count again (\`svc policy list\` lists them; \`svc policy prune\` removes them)`);
    const text = readFileSync(summary, 'utf8');
    expect(Buffer.byteLength(text)).toBeLessThan(300 * 1024);
    expect(text.startsWith('## Build\n\nAll 112 tests passed.\n\n### ❌ svc gate failed\n')).toBe(true);
    expect(text).toMatch(/^\| \*\*total\*\* \| \d+ \| - \| ✅ \|$/m);
    expect(text).toContain('#### Breaking issues (');
    expect(text.match(/^Policy entry expired /gm)).toHaveLength(20);
    // Escaped as the notes are (the path's underscores).
    expect(text).toContain(`\n${mdCell(`…and ${n - 20} more policy entries expired and count again; all of them: --json-report ${join(cwd, 'gate.json')}.`)}\n`);
    // The files hold every entry.
    expect(JSON.parse(readFileSync(join(cwd, 'gate.json'), 'utf8')).policy.expired).toHaveLength(n);
    expect(readFileSync(join(cwd, 'gate.md'), 'utf8').match(/^Policy entry expired /gm)).toHaveLength(n);
  });

  it.concurrent('a step summary that cannot be written is said; the verdict and its exit code stand', async () => {
    const sb = await sandbox();
    const { repoId } = await busiestRepo(sb);
    const cwd = workDir();
    const env = { CI: 'true', GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: join(cwd, 'no-such-dir', 'summary.md') };
    const r = await sb.run(['gate', '--repository-ids', repoId, '--fail-on', 'high'], { cwd, env });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('warning: cannot append to the step summary');
    expect(r.stdout).toContain('svc gate: FAILED');
  });

  it.concurrent('--repository auto and --commit auto from the runner\'s own variables; an unknown one is exit 4', async () => {
    const sb = await sandbox();
    const repo = sb.state.repos.find((r) => r.source === 'hosta' && r.organizationId === sb.organizationId && scannedCommit(sb, r.id))!;
    const [server, ...path] = repo.url.replace(/^(https?:\/\/[^/]+)\//, '$1 ').split(' ');
    const env = { CI: 'true', GITHUB_ACTIONS: 'true', GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: path.join('/'), GITHUB_SHA: scannedCommit(sb, repo.id)! };
    const r = await sb.run(['gate', '--repository', 'auto', '--commit', 'auto', '--fail-on', 'info', '-o', 'json'], { cwd: workDir(), env });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(`is ${repo.id}`);
    expect(JSON.parse(r.stdout).scope.repositoryIds).toEqual([repo.id]);
    expect(JSON.parse(r.stdout).verified.commit.sha).toBe(env.GITHUB_SHA);
    // A commit no scan of the repository names: exit 4, never a pass on nothing.
    const unscanned = await sb.run(['gate', '--repository', 'auto', '--commit', 'auto', '--fail-on', 'info'], { cwd: workDir(), env: { ...env, GITHUB_SHA: 'a'.repeat(40) } });
    expect(unscanned.code, unscanned.stderr).toBe(4);
    expect(unscanned.stdout).not.toContain('PASSED');

    const unknown = await sb.run(['gate', '--repository', 'auto', '--fail-on', 'info'], { cwd: workDir(), env: { ...env, GITHUB_REPOSITORY: 'nobody/nothing' } });
    expect(unknown.code, unknown.stderr).toBe(4);
    expect(unknown.stderr).toContain(`${server.toLowerCase()}/nobody/nothing: no linked repository has this URL`);
    expect(unknown.stderr).toMatch(/closest linked: https:\/\/\S+ \(repo_/);
    expect(unknown.stdout).not.toContain('PASSED');
    for (const extra of [[], ['--dry-run']]) {
      const outside = await sb.run(['gate', '--repository', 'auto', '--fail-on', 'info', ...extra], { cwd: workDir() });
      expect(outside.code).toBe(2);
      expect(outside.stderr).toContain('--repository auto: no CI job is detected');
      // Only the variable that is really unset is named.
      const half = await sb.run(['gate', '--repository', 'auto', '--commit', 'auto', '--fail-on', 'info', ...extra], { cwd: workDir(), env: { GITHUB_ACTIONS: 'true', GITHUB_SERVER_URL: server, GITHUB_SHA: 'a'.repeat(40) } });
      expect(half.code).toBe(2);
      expect(half.stderr).toContain("--repository auto: GITHUB_REPOSITORY is not set on GitHub Actions");
      expect(half.stderr).not.toContain('GITHUB_SERVER_URL');
    }
    const noSha = await sb.run(['gate', '--repository', 'auto', '--commit', 'auto', '--fail-on', 'info'], { cwd: workDir(), env: { ...env, GITHUB_SHA: undefined } });
    expect(noSha.code).toBe(2);
    expect(noSha.stderr).toContain("--commit auto: GITHUB_SHA is not set on GitHub Actions");
  });

  it.concurrent('a SARIF report spanning several repositories is said on stderr', async () => {
    const sb = await sandbox();
    const r = await sb.run(['gate', '--fail-on', 'critical', '--sarif', 'all.sarif'], { cwd: workDir() });
    expect([0, 1]).toContain(r.code);
    expect(r.stderr).toMatch(/the SARIF report holds issues of \d+ repositories/);
  });
});

describe("svc gate in GitLab CI/CD", () => {
  it.concurrent('writes the SAST and Code Quality reports, which validate, and folds the list in a section', async () => {
    const sb = await sandbox();
    const { repoId, ids } = await busiestRepo(sb);
    const cwd = workDir();
    const env = { CI: 'true', GITLAB_CI: 'true' };
    const r = await sb.run(['gate', '--repository-ids', repoId, '--fail-on', 'high', '--gitlab-sast', 'sast.json', '--code-quality', 'cq.json', '--issue-url', 'https://svc.example/issues/{id}'], { cwd, env });
    expect(r.code, r.stderr).toBe(1);
    const sast = JSON.parse(readFileSync(join(cwd, 'sast.json'), 'utf8'));
    const cq = JSON.parse(readFileSync(join(cwd, 'cq.json'), 'utf8'));
    expect(sastErrors(sast)).toEqual([]);
    expect(codeQualityErrors(cq)).toEqual([]);
    expect(sast.vulnerabilities).toHaveLength(ids.length);
    expect(cq).toHaveLength(ids.length);
    expect(sast.vulnerabilities[0].links[0].url).toMatch(/^https:\/\/svc\.example\/issues\/iss_/);
    expect(r.stdout).toMatch(/\u001b\[0Ksection_start:\d+:svc_gate_breaking\[collapsed=true\]\r\u001b\[0KIssues that break the gate/);
    expect(r.stdout).not.toContain('::error');
    expect(r.stderr).toContain("wrote GitLab's SAST report");
  });

  it.concurrent('a merge request\'s SAST and Code Quality reports list every open issue found, also those the baseline leaves out of the count, so the widget does not show them as fixed; accepted risks stay out', async () => {
    const sb = await sandbox();
    const { repoId, ids } = await busiestRepo(sb);
    const cwd = workDir();
    const env = { CI: 'true', GITLAB_CI: 'true' };
    const scope = ['gate', '--repository-ids', repoId, '--fail-on', 'info'];
    const main = await sb.run([...scope, '--json-report', 'main.json'], { cwd, env });
    expect(main.code, main.stderr).toBe(1);
    // The baseline holds every open issue but the first; the policy accepts the second.
    const base = JSON.parse(readFileSync(join(cwd, 'main.json'), 'utf8'));
    for (const k of ['issues', 'breaking']) base[k] = base[k].filter((i: { id: string }) => i.id !== ids[0]);
    writeFileSync(join(cwd, 'main.json'), JSON.stringify(base));
    writeFileSync(join(cwd, '.svc-policy.yml'), `version: 1\nignore:\n  - id: ${ids[1]}\n    reason: accepted\n    expires: 2999-01-01\n`);
    const mr = await sb.run([...scope, '--baseline', 'main.json', '--gitlab-sast', 'sast.json', '--code-quality', 'cq.json', '-o', 'json'], { cwd, env });
    expect(mr.code, mr.stderr).toBe(1);
    expect(JSON.parse(mr.stdout).counts.total).toBe(1);
    const sast = JSON.parse(readFileSync(join(cwd, 'sast.json'), 'utf8'));
    const cq = JSON.parse(readFileSync(join(cwd, 'cq.json'), 'utf8'));
    expect(sastErrors(sast)).toEqual([]);
    expect(codeQualityErrors(cq)).toEqual([]);
    const listed = sast.vulnerabilities.map((v: { identifiers: Array<{ type: string; value: string }> }) => v.identifiers.find((x) => x.type === 'svc_issue')?.value).sort();
    expect(listed).toEqual(ids.filter((id) => id !== ids[1]).sort());
    expect(cq).toHaveLength(ids.length - 1);
    expect(mr.stderr).toContain(`(${ids.length - 1} vulnerabilities)`);
  });

  it.concurrent('--hostb-sast, the flag\'s earlier name, still writes the same report, with a warning; given with --gitlab-sast it is exit 2', async () => {
    const sb = await sandbox();
    const { repoId } = await busiestRepo(sb);
    const cwd = workDir();
    const env = { CI: 'true', GITLAB_CI: 'true' };
    const args = ['gate', '--repository-ids', repoId, '--fail-on', 'high'];
    const now = await sb.run([...args, '--gitlab-sast', 'new.json'], { cwd, env });
    const old = await sb.run([...args, '--hostb-sast', 'old.json'], { cwd, env });
    expect(old.code, old.stderr).toBe(now.code);
    expect(old.stderr).toContain('warning: --hostb-sast is now --gitlab-sast (the old name is read until the next release)');
    const strip = (f: string) => ({ ...JSON.parse(readFileSync(join(cwd, f), 'utf8')), scan: undefined });
    expect(strip('old.json')).toEqual(strip('new.json'));
    const both = await sb.run([...args, '--gitlab-sast', 'a.json', '--hostb-sast', 'b.json'], { cwd, env });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--gitlab-sast and --hostb-sast (its old name) are both given');
    // Not offered: help and completion show the new name only.
    const help = await sb.run(['gate', '--help'], { cwd });
    expect(help.stdout).toContain('--gitlab-sast <file>');
    expect(help.stdout).not.toContain('--hostb-sast');
  });
});

describe("--repository auto on GitLab CI/CD and Bitbucket Pipelines", () => {
  for (const source of ['hostb', 'hostc'] as const) {
    it.concurrent(`${source}: the runner's variables resolve the repository and the commit`, async () => {
      const sb = await sandbox();
      const repo = sb.state.repos.find((r) => r.source === source && r.organizationId === sb.organizationId && scannedCommit(sb, r.id))!;
      const sha = scannedCommit(sb, repo.id)!;
      const env = source === 'hostb'
        ? { CI: 'true', GITLAB_CI: 'true', CI_PROJECT_URL: repo.url, CI_SERVER_URL: new URL(repo.url).origin, CI_COMMIT_SHA: sha }
        : { CI: 'true', BITBUCKET_BUILD_NUMBER: '7', BITBUCKET_GIT_HTTP_ORIGIN: repo.url.replace(/^https:/, 'http:'), BITBUCKET_COMMIT: sha };
      const r = await sb.run(['gate', '--repository', 'auto', '--commit', 'auto', '--fail-on', 'info', '-o', 'json'], { cwd: workDir(), env });
      expect(r.code, r.stderr).toBe(1);
      expect(JSON.parse(r.stdout).scope.repositoryIds).toEqual([repo.id]);
      expect(JSON.parse(r.stdout).verified.commit.sha).toBe(sha);
      const { [source === 'hostb' ? 'CI_PROJECT_URL' : 'BITBUCKET_GIT_HTTP_ORIGIN']: _gone, ...without } = env;
      const missing = await sb.run(['gate', '--repository', 'auto', '--fail-on', 'info'], { cwd: workDir(), env: without });
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain(source === 'hostb' ? "CI_PROJECT_URL is not set on GitLab CI/CD" : "BITBUCKET_GIT_HTTP_ORIGIN is not set on Bitbucket Pipelines");
    });
  }
});

describe('--repository URL outside CI', () => {
  it.concurrent('every linked repository resolves from the URL repos list prints, whatever its provider', async () => {
    const sb = await sandbox();
    const list = JSON.parse((await sb.run(['repos', 'list', '-o', 'json'])).stdout) as Array<{ id: string; url: string }>;
    const bySource = new Map<string, { id: string; url: string }>();
    for (const r of list) bySource.set(sb.state.repo(r.id)!.source, r);
    expect([...bySource.keys()].sort()).toEqual(expect.arrayContaining(['generic', 'hosta', 'hostb', 'hostc']));
    for (const [, r] of bySource) {
      // As printed, and as people write it: another scheme, host case, .git and a trailing slash.
      const variants = [r.url, r.url.replace(/^https?:\/\/([^/]+)/, (_m, h: string) => `http://${h.toUpperCase()}`).replace(/(\.git)?$/, '.git/')];
      for (const url of variants) {
        const g = await sb.run(['gate', '--repository', url, '--fail-on', 'info', '-o', 'json'], { cwd: workDir() });
        expect([0, 1], `${url}: ${g.stderr}`).toContain(g.code);
        expect(JSON.parse(g.stdout).scope.repositoryIds).toEqual([r.id]);
      }
    }
  });
});

describe('svc help environment', () => {
  it('lists the variables real CI runners set, from the providers table', async () => {
    const r = await runCli(['help', 'environment']);
    for (const name of ['GITHUB_ACTIONS', 'GITHUB_STEP_SUMMARY', 'GITHUB_SERVER_URL', 'GITHUB_SHA', 'GITLAB_CI', 'CI_PROJECT_URL', 'CI_COMMIT_SHA', 'BITBUCKET_BUILD_NUMBER', 'TF_BUILD', 'SVC_NO_CI']) expect(r.stdout).toContain(name);
    expect(r.stdout).not.toMatch(/\bHOST[ABC]_/);  // svc's own SVC_GITHUB_TOKEN... are not invented CI names
  });
});
