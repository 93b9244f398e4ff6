/**
 * The CI files in examples/ run as their CI would run them, against the sandbox: each shell step
 * (host A: every `run:` step; host B: before_script and script) goes to bash, with `svc` on PATH,
 * the credentials as the secret store would pass them and the CI's own variables set as that CI
 * sets them (their real names: GITHUB_*, GITLAB_CI, CI_*). So the examples cannot go stale.
 *
 * What is not run: the install step (`npm install --global "$SVC_CLI_PACKAGE"`: the test puts the
 * built svc on PATH as that install does, with no registry), and the steps that use the CI's own
 * actions (checkout, cache, SARIF upload). Their part is played by the test: one workspace folder
 * for all runs stands in for the cache that carries svc-baseline.json from the default branch.
 */
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { BIN, cleanEnv, runProgram } from '../helpers/run-svc.js';
import { startGateSandbox, type GateSandbox } from '../helpers/sandbox-scope.js';
import { tempDir } from '../helpers/temp.js';
import { codeQualityErrors, sastErrors } from '../unit/gate/reports/hostb-schemas.js';
import { schemaErrors } from '../unit/gate/reports/sarif-schema.js';

const EXAMPLES = resolve(__dirname, '../../examples');
const INSTALL = 'npm install --global "$SVC_CLI_PACKAGE"';

const sandboxes: GateSandbox[] = [];
afterAll(async () => { await Promise.all(sandboxes.splice(0).map((s) => s.close())); });

interface Run { code: number | null; stdout: string; stderr: string }

/** A workspace with `svc` on a bin folder of its own, as the install step leaves it. */
function workspace(): { dir: string; path: string } {
  const dir = tempDir('svc-example-');
  mkdirSync(join(dir, '.bin'));
  symlinkSync(BIN, join(dir, '.bin', 'svc'));
  return { dir, path: [join(dir, '.bin'), dirname(process.execPath), process.env.PATH].join(':') };
}

function bash(script: string, cwd: string, env: Record<string, string>): Promise<Run> {
  const file = join(cwd, `.step-${Math.random().toString(36).slice(2)}.sh`);
  writeFileSync(file, script);
  // host A runs `shell: bash` as `bash --noprofile --norc -eo pipefail {0}`; host B's runner sets -eo pipefail too.
  return runProgram('bash', ['--noprofile', '--norc', '-eo', 'pipefail', file], { cwd, env: cleanEnv(env), timeoutMs: 60_000 });
}

/** `${{ secrets.X }}` / `${{ vars.X }}` from the given store; anything else in `${{ }}` is refused. */
function expand(value: string, store: Record<string, string>): string {
  return value.replace(/\$\{\{\s*(?:secrets|vars)\.(\w+)\s*\}\}/g, (_m, name: string) => {
    if (!(name in store)) throw new Error(`the example reads ${name}, which the test does not set`);
    return store[name];
  });
}

/** Host A: the job's env and its `run:` steps, in order (the install step left out, see above). */
function hostASteps(): { env: Record<string, string>; steps: string[] } {
  const doc = parse(readFileSync(join(EXAMPLES, 'hosta-workflow.yml'), 'utf8'));
  const job = doc.jobs['svc-gate'];
  const runs = (job.steps as Array<{ name?: string; run?: string; uses?: string }>).filter((s) => s.run !== undefined);
  expect(runs.map((s) => s.name)).toContain('Install svc');
  expect(runs.find((s) => s.name === 'Install svc')!.run!.trim()).toBe(INSTALL);
  return { env: job.env, steps: runs.filter((s) => s.name !== 'Install svc').map((s) => s.run!) };
}

/** Host B: the job's before_script and script lines (the install line left out). */
function hostBScript(): { lines: string[]; variables: Record<string, string> } {
  const job = parse(readFileSync(join(EXAMPLES, 'hostb-ci.yml'), 'utf8'))['svc-gate'];
  const before = job.before_script as string[];
  expect(before).toContain(INSTALL);
  return { lines: [...before.filter((l) => l !== INSTALL), ...(job.script as string[])], variables: job.variables ?? {} };
}

async function sandbox(): Promise<GateSandbox> {
  const sb = await startGateSandbox({ scanDurationMs: 200 });
  sandboxes.push(sb);
  return sb;
}

/** The repository of a provider in the token's organization with the most open issues. */
function repoOf(sb: GateSandbox, source: string) {
  const open = (id: string) => sb.state.issues.filter((i) => i.repositoryId === id && i.status === 'open').length;
  const repos = sb.state.repos.filter((r) => r.source === source && r.organizationId === sb.organizationId).sort((a, b) => open(b.id) - open(a.id));
  expect(repos.length, `seed data: a ${source} repository`).toBeGreaterThan(0);
  expect(open(repos[0].id), `seed data: open issues in ${repos[0].id}`).toBeGreaterThan(0);
  return repos[0];
}

const openIds = (sb: GateSandbox, repoId: string) => sb.state.issues.filter((i) => i.repositoryId === repoId && i.status === 'open').map((i) => i.id).sort();
const highOrAbove = (sb: GateSandbox, ids: string[]) => sb.state.issues.filter((i) => ids.includes(i.id) && (i.score ?? 100) >= 70).length;

async function scanAdds(sb: GateSandbox, repoId: string, before: string[]): Promise<string[]> {
  const r = await sb.run(['scans', 'start', '--repository-ids', repoId, '--wait', '--poll-interval', '0.1']);
  expect(r.code, r.stderr).toBe(0);
  const added = openIds(sb, repoId).filter((id) => !before.includes(id));
  expect(added.length, 'the scan adds issues').toBeGreaterThan(0);
  return added;
}

describe('examples/hosta-workflow.yml', () => {
  it('checks the code out before the gate and the SARIF upload', () => {
    const steps = parse(readFileSync(join(EXAMPLES, 'hosta-workflow.yml'), 'utf8')).jobs['svc-gate'].steps as Array<{ uses?: string; run?: string }>;
    const at = (p: (s: { uses?: string; run?: string }) => boolean) => steps.findIndex(p);
    const checkout = at((s) => /\/checkout@/.test(s.uses ?? ''));
    expect(checkout).toBe(0);
    expect(checkout).toBeLessThan(at((s) => /svc gate/.test(s.run ?? '')));
    expect(at((s) => /upload-sarif/.test(s.uses ?? ''))).toBeGreaterThan(at((s) => /svc gate/.test(s.run ?? '')));
  });

  it.concurrent('default branch records the baseline; a pull request passes on it, then fails on exactly what a scan adds', async () => {
    const sb = await sandbox();
    const repo = repoOf(sb, 'hosta');
    const { env: jobEnv, steps } = hostASteps();
    const { dir, path } = workspace();
    const store = { SVC_BASE_URL: sb.url, SVC_API_TOKEN_ID: sb.tokenId, SVC_API_TOKEN_SECRET: sb.tokenSecret, SVC_CLI_PACKAGE: 'unused: svc is on PATH' };
    const server = new URL(repo.url).origin;
    const summary = join(dir, 'step_summary.md');
    const runner = (event: string): Record<string, string> => ({
      ...Object.fromEntries(Object.entries(jobEnv).map(([k, v]) => [k, expand(String(v), store)])),
      PATH: path, CI: 'true', GITHUB_ACTIONS: 'true', GITHUB_EVENT_NAME: event, GITHUB_WORKSPACE: dir,
      GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repo.url.slice(server.length + 1), GITHUB_SHA: 'a'.repeat(40),
      GITHUB_STEP_SUMMARY: summary,
    });
    const job = async (event: string) => {
      const out: Run = { code: 0, stdout: '', stderr: '' };
      for (const step of steps) {
        const r = await bash(step, dir, runner(event));
        Object.assign(out, { code: r.code, stdout: out.stdout + r.stdout, stderr: out.stderr + r.stderr });
        if (r.code !== 0) break;
      }
      return out;
    };

    // The default branch: a verdict (here: failed on old issues) is recorded, the step passes.
    writeFileSync(summary, '## Build\n\nok\n');
    const before = openIds(sb, repo.id);
    const main = await job('push');
    expect(main.code, main.stderr).toBe(0);
    expect(main.stderr).toContain(`repository ${repo.url.replace(/\/+$/, '')} is ${repo.id}`);
    const recorded = JSON.parse(readFileSync(join(dir, 'svc-baseline.json'), 'utf8'));
    expect(recorded.issues.map((i: { id: string }) => i.id).sort()).toEqual(before);
    expect(schemaErrors(JSON.parse(readFileSync(join(dir, 'svc.sarif'), 'utf8')))).toEqual([]);
    expect(readFileSync(summary, 'utf8')).toMatch(/^## Build\n\nok\n\n### (✅|❌) svc gate/);

    // A pull request with nothing new: passes.
    const clean = await job('pull_request');
    expect(clean.code, clean.stderr).toBe(0);
    expect(clean.stdout).toContain(`0 new, ${before.length} already in the baseline`);

    // A scan adds issues: the pull request counts those, and only those; annotations without flags.
    const added = await scanAdds(sb, repo.id, before);
    const pr = await job('pull_request');
    const report = JSON.parse(readFileSync(join(dir, 'svc-report.json'), 'utf8'));
    expect(report.issues.map((i: { id: string }) => i.id).sort()).toEqual([...added].sort());
    expect(report.baseline).toMatchObject({ new: added.length, unchanged: before.length });
    const breaking = highOrAbove(sb, added);
    expect(pr.code, pr.stderr).toBe(breaking > 0 ? 1 : 0);
    if (breaking > 0) expect(pr.stdout.match(/^::error /gm)).toHaveLength(breaking);
    expect(readFileSync(summary, 'utf8').startsWith('## Build\n\nok\n\n')).toBe(true);
    expect(readFileSync(summary, 'utf8').match(/svc gate (passed|failed)/g)).toHaveLength(3);
    expect(`${main.stdout}${main.stderr}${pr.stdout}${pr.stderr}`).not.toContain(sb.tokenSecret);
  });
});

describe('examples/hostb-ci.yml', () => {
  it.concurrent('default branch, then a merge request: the SAST and Code Quality reports validate and hold what the scan added', async () => {
    const sb = await sandbox();
    const repo = repoOf(sb, 'hostb');
    const { lines, variables } = hostBScript();
    const { dir, path } = workspace();
    const store = { SVC_BASE_URL: sb.url, SVC_API_TOKEN_ID: sb.tokenId, SVC_API_TOKEN_SECRET: sb.tokenSecret, SVC_CLI_PACKAGE: 'unused' };
    const env = (mr: boolean): Record<string, string> => ({
      ...variables, ...store, PATH: path, CI: 'true', GITLAB_CI: 'true', CI_PROJECT_URL: repo.url.replace(/\/+$/, ''),
      CI_PROJECT_DIR: dir, CI_COMMIT_SHA: 'b'.repeat(40), CI_DEFAULT_BRANCH: 'main',
      ...(mr ? { CI_PIPELINE_SOURCE: 'merge_request_event', CI_MERGE_REQUEST_IID: '7' } : { CI_PIPELINE_SOURCE: 'push', CI_COMMIT_BRANCH: 'main' }),
    });
    const job = (mr: boolean) => bash(lines.join('\n'), dir, env(mr));

    const before = openIds(sb, repo.id);
    const main = await job(false);
    expect(main.code, main.stderr).toBe(0);
    expect(existsSync(join(dir, 'svc-baseline.json'))).toBe(true);
    const added = await scanAdds(sb, repo.id, before);
    const mr = await job(true);
    expect(mr.code, mr.stderr).toBe(highOrAbove(sb, added) > 0 ? 1 : 0);
    const sast = JSON.parse(readFileSync(join(dir, 'svc-sast.json'), 'utf8'));
    const quality = JSON.parse(readFileSync(join(dir, 'svc-code-quality.json'), 'utf8'));
    expect(sastErrors(sast)).toEqual([]);
    expect(codeQualityErrors(quality)).toEqual([]);
    expect(sast.vulnerabilities.map((v: { identifiers: Array<{ type: string; value: string }> }) => v.identifiers.find((i) => i.type === 'svc_issue')!.value).sort()).toEqual([...added].sort());
    expect(quality).toHaveLength(added.length);
    expect(mr.stdout).not.toContain('::error');
  });
});
