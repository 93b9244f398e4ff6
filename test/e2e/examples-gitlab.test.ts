/**
 * The GitLab files svc ships run as GitLab would run them, against the sandbox: examples/gitlab-ci.yml
 * and templates/svc-gate.yml (the CI/CD component, its `spec: inputs` interpolated) validate against
 * the CI schema subset (../shared/schemas), the component's jobs are the example's, then each job's
 * script runs as the runner runs it (one bash, -eo pipefail, the job's and the CI/CD variables, what
 * GitLab's runner sets): svc downloaded from the release (a 127.0.0.1 server stands in for it),
 * checked against its pinned SHA-256, unpacked and run with the image's Node, npm never called.
 * A wrong or missing pin fails the job loudly before svc runs.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { runProgram } from '../helpers/run-svc.js';
import { mostOpenRepo as repoOf, startGateSandbox, type GateSandbox } from '../helpers/sandbox-scope.js';
import { tempDir } from '../helpers/temp.js';
import { codeQualityErrors, sastErrors } from '../unit/gate/reports/hostb-schemas.js';
import { pullRequestCheckout } from '../helpers/git-repo.js';
import { releaseTree } from '../helpers/release-tree.js';
import { recorders } from '../helpers/github-runner.js';
import { SCHEMAS, schemaCheck } from '../helpers/schemas.js';
import { SHARED_REQUIRED } from '../helpers/spec.js';

const ROOT = resolve(__dirname, '../..');
type Job = { image: string; stage: string; rules: Array<{ if: string }>; variables: Record<string, unknown>; script: string[]; artifacts: { when?: string; paths: string[]; reports: Record<string, string> } };

// Each file parsed once (read again by most tests and each world: ~15 ms of CPU a parse); every
// caller gets a copy of its own.
let parsedExample: Record<string, Job> | undefined;
const example = (): Record<string, Job> => structuredClone(parsedExample ??= parse(readFileSync(join(ROOT, 'examples/gitlab-ci.yml'), 'utf8')));
let parsedComponent: unknown[] | undefined;

/**
 * templates/svc-gate.yml: the `spec: inputs` header, and its jobs with `$[[ inputs.x ]]` replaced in
 * every key and string value (as GitLab interpolates: after the YAML is read, so a quote in a value
 * stays a quote).
 */
export function component(given: Record<string, string>): { inputs: Record<string, { default?: string; options?: string[]; description?: string }>; jobs: Record<string, Job> } {
  const [header, body] = structuredClone(parsedComponent ??= parseAllDocuments(readFileSync(join(ROOT, 'templates/svc-gate.yml'), 'utf8')).map((d) => d.toJS()));
  const inputs = header.spec.inputs as Record<string, { default?: string; options?: string[]; description?: string }>;
  const fill = (text: string) => text.replace(/\$\[\[\s*inputs\.([\w-]+)\s*\]\]/g, (_m, n: string) => {
    if (!(n in inputs)) throw new Error(`the component reads inputs.${n}, which its spec does not declare`);
    const value = given[n] ?? inputs[n].default;
    if (value === undefined) throw new Error(`inputs.${n} has no default and is not given`);
    if (inputs[n].options && !inputs[n].options!.includes(value)) throw new Error(`inputs.${n}: ${value} is not one of its options`);
    return value;
  });
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return fill(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [fill(k), walk(x)]));
    return v;
  };
  return { inputs, jobs: walk(body) as Record<string, Job> };
}

describe('the GitLab files', () => {
  it.skipIf(!SCHEMAS && !SHARED_REQUIRED)('validate against the CI schema subset (../shared/schemas), each job', () => {
    expect(SCHEMAS, 'the schemas beside the clone (../shared/schemas) are missing: CI must have them').toBeDefined();
    for (const [name, job] of Object.entries(example())) expect(schemaCheck('host-b-ci-subset.json', { [name]: job }), name).toEqual([]);
    for (const [name, job] of Object.entries(component({}).jobs)) expect(schemaCheck('host-b-ci-subset.json', { [name]: job }), name).toEqual([]);
    expect(schemaCheck('host-b-ci-subset.json', { job: { script: [], imagee: 'x' } })).not.toEqual([]);
  });

  it('the component is the example: the same jobs with the inputs\' defaults; every input has a description and a default', () => {
    const { inputs, jobs } = component({});
    expect(jobs).toEqual(example());
    for (const [name, spec] of Object.entries(inputs)) {
      expect(spec, name).toHaveProperty('default');
      expect(spec.description, name).toBeTruthy();
    }
    // With an input given as its default: the same jobs. The jobs run below are these (one run serves both files).
    expect(component({ 'fail-on': 'high' }).jobs).toEqual(example());
    expect(component({ 'fail-on': 'critical' }).jobs['svc-gate'].variables.SVC_FAIL_ON).toBe('critical');
    expect(Object.keys(component({ 'job-name': 'security' }).jobs)).toEqual(['security', 'security-baseline']);
    expect(component({ 'job-name': 'security' }).jobs.security.variables.SVC_BASELINE_JOB).toBe('security-baseline');
    expect(() => component({ 'fail-on': 'severe' })).toThrow(/not one of its options/);
  });

  it('merge requests get GIT_DEPTH "0", --diff auto and --comment; the default branch writes no JUnit and lists only what it writes; a pinned Node major; no package manager', () => {
    const { 'svc-gate': mr, 'svc-gate-baseline': main } = example();
    expect(mr.rules).toEqual([{ if: '$CI_PIPELINE_SOURCE == "merge_request_event"' }]);
    expect(main.rules).toEqual([{ if: '$CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH' }]);
    expect(mr.variables.GIT_DEPTH).toBe('0');
    expect(mr.script.join('\n')).toMatch(/svc gate [^\n]*--diff auto --comment/);
    expect(mr.artifacts.reports).toEqual({ sast: 'svc-sast.json', codequality: 'svc-code-quality.json', junit: 'svc-junit.xml' });
    expect(main.artifacts.reports).toEqual({ sast: 'svc-sast.json', codequality: 'svc-code-quality.json' });
    expect(main.script.join('\n')).not.toContain('--junit');
    for (const job of [mr, main]) {
      expect(job.image).toMatch(/^node:\d+$/);
      expect(job.artifacts.paths).toEqual(['svc-report.json']);
      for (const [k, v] of Object.entries(job.variables)) expect(typeof v, k).toBe('string');
    }
    for (const [name, job] of [...Object.entries(example()), ...Object.entries(component({}).jobs)]) {
      expect(JSON.stringify(job), name).not.toMatch(/\bnpm\b|\bnpx\b|\byarn\b|svc-cli|SVC_CLI_PACKAGE/);
    }
    expect(readFileSync(join(ROOT, 'templates/svc-gate.yml'), 'utf8')).not.toMatch(/svc-cli|SVC_CLI_PACKAGE|package:/);
  });
});

/** A stand-in of the release's download (127.0.0.1) and of GitLab's job artifacts API. */
async function servers(archive: string, jobToken: string) {
  const asked: string[] = [];
  const state: { baseline?: string; download: Buffer } = { download: readFileSync(archive) };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    asked.push(`${req.method} ${req.url}`);
    if (req.url === '/releases/svc.tar.gz') return res.writeHead(200, { 'content-type': 'application/gzip' }).end(state.download);
    const ok = req.method === 'GET' && req.url === '/api/v4/projects/42/jobs/artifacts/main/raw/svc-report.json?job=svc-gate-baseline'
      && req.headers['job-token'] === jobToken && state.baseline !== undefined;
    res.writeHead(ok ? 200 : 404, { 'content-type': ok ? 'application/octet-stream' : 'application/json' });
    res.end(ok ? state.baseline : '{"message":"404 Not found"}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, asked, state, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const sandboxes: GateSandbox[] = [];
afterAll(async () => { await Promise.all(sandboxes.splice(0).map((s) => s.close())); });


/** A project's world: the merge request's checkout, the runner's variables, a job runner. */
async function world(sb: GateSandbox, jobs: Record<string, Job>, o: { onClose: (f: () => Promise<void>) => void }) {
  const repo = repoOf(sb, 'hostb');
  const release = await releaseTree();
  const net = await servers(release.archive, 'job-token-0042');
  o.onClose(net.close);
  const dir = tempDir('svc-gitlab-');
  const project = join(dir, 'builds', 'group', 'project');
  const { base, head } = await pullRequestCheckout(project, dir);
  // The image's node is svc's: only package managers are recorded.
  const rec = recorders(join(dir, 'recorders'), { node: false });
  const server = new URL(repo.url).origin;
  const settings: Record<string, string> = {
    SVC_BASE_URL: sb.url, SVC_API_TOKEN_ID: sb.tokenId, SVC_API_TOKEN_SECRET: sb.tokenSecret,
    SVC_RELEASE_URL: `${net.url}/releases/svc.tar.gz`, SVC_RELEASE_SHA256: release.sha256,
  };
  const run = (name: string, mr: boolean, change: { settings?: Record<string, string | undefined>; fork?: boolean } = {}) => {
    const job = jobs[name];
    const vars: Record<string, string> = { ...(job.variables as Record<string, string>) };
    const env: Record<string, string> = {
      // The image's PATH (node on it) behind the recorders; HOME and TMPDIR of the job.
      PATH: [rec.dir, dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(':'), HOME: dir, TMPDIR: join(dir, 'tmp'),
      // Variables the job defines, then the CI/CD variables of the settings (these win, as in GitLab).
      ...vars, ...settings,
      // What GitLab's runner sets (its predefined variables).
      CI: 'true', GITLAB_CI: 'true', CI_SERVER: 'yes', CI_PROJECT_URL: repo.url.replace(/\/+$/, ''), CI_SERVER_URL: server,
      CI_API_V4_URL: `${net.url}/api/v4`, CI_JOB_TOKEN: 'job-token-0042', CI_PROJECT_DIR: project, CI_PROJECT_ID: '42', CI_PROJECT_PATH: repo.url.slice(server.length + 1),
      // A merge request pipeline's CI_COMMIT_SHA is the source branch's head (its merged results
      // pipelines set CI_MERGE_REQUEST_SOURCE_BRANCH_SHA too); the default branch's, its last commit.
      CI_COMMIT_SHA: mr ? head : base, CI_DEFAULT_BRANCH: 'main', CI_JOB_NAME: name, CI_PIPELINE_ID: '1', CI_BUILDS_DIR: join(dir, 'builds'),
      ...(mr
        ? { CI_PIPELINE_SOURCE: 'merge_request_event', CI_MERGE_REQUEST_IID: '7', CI_MERGE_REQUEST_PROJECT_ID: '42', CI_MERGE_REQUEST_SOURCE_PROJECT_ID: change.fork ? '99' : '42', CI_MERGE_REQUEST_TARGET_BRANCH_NAME: 'main', CI_MERGE_REQUEST_DIFF_BASE_SHA: base, CI_COMMIT_REF_NAME: 'feature' }
        : { CI_PIPELINE_SOURCE: 'push', CI_COMMIT_BRANCH: 'main', CI_COMMIT_REF_NAME: 'main' }),
    };
    for (const [k, v] of Object.entries(change.settings ?? {})) if (v === undefined) delete env[k]; else env[k] = v;
    mkdirSync(join(dir, 'tmp'), { recursive: true });
    const file = join(dir, `job-${Math.random().toString(36).slice(2)}.sh`);
    writeFileSync(file, job.script.join('\n'));
    // GitLab's runner runs before_script and script as one bash script with -eo pipefail.
    return runProgram('bash', ['--noprofile', '--norc', '-eo', 'pipefail', file], { cwd: project, env, timeoutMs: 90_000 });
  };
  return { repo, project, net, rec, run, head };
}

/**
 * The jobs as the component gives them with `fail-on: high`: the example's jobs, key for key and
 * string for string (the test above), so a run of these is a run of examples/gitlab-ci.yml's too.
 * (The two files' jobs were each run here: the same scripts with the same variables, twice.)
 */
describe('templates/svc-gate.yml and examples/gitlab-ci.yml (the same jobs)', () => {
  const jobs = () => component({ 'fail-on': 'high' }).jobs;

  it.concurrent('default branch, then a merge request: svc from the pinned download (no npm), the baseline from the job artifacts API, --commit auto judges the scan of the head: its issue on the change counts, SAST and Code Quality list all it found; no baseline: a warning and every issue of the change counts', async ({ onTestFinished }) => {
    const sb = await startGateSandbox({ scanDurationMs: 200 });
    sandboxes.push(sb);
    const w = await world(sb, jobs(), { onClose: (f) => onTestFinished(f) });

    const main = await w.run('svc-gate-baseline', false);
    expect(main.code, main.stderr).toBe(0);
    expect(main.stdout).toContain(`${JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version}\n`);
    // Everything its artifacts list is there (it writes no JUnit: its job shows no failed tests).
    for (const p of [...jobs()['svc-gate-baseline'].artifacts.paths, ...Object.values(jobs()['svc-gate-baseline'].artifacts.reports)]) expect(existsSync(join(w.project, p)), p).toBe(true);
    expect(existsSync(join(w.project, 'svc-junit.xml'))).toBe(false);
    // Kept as that job's artifact; the merge request's job starts without it.
    w.net.state.baseline = readFileSync(join(w.project, 'svc-report.json'), 'utf8');
    for (const f of ['svc-report.json', 'svc-sast.json', 'svc-code-quality.json']) rmSync(join(w.project, f));

    // The service scans this project's merge requests (PR scanning on): GitLab tells it of the
    // merge request's head, and its scan of that commit finds an issue on the line the merge request
    // adds and one in a file it does not touch (README.md, there since main).
    const on = await sb.run(['repos', 'set-pr-scanning', w.repo.id, '--is-pr-scanning-enabled']);
    expect(on.code, on.stderr).toBe(0);
    const told = await fetch(`${sb.url}/__sandbox/pull-request`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({
      repositoryId: w.repo.id, headSha: w.head, headBranch: 'feature', baseBranch: 'main',
      findings: [{ score: 95, affectedFile: 'src/feature.ts', startLine: 1, generatedTitle: 'SQL injection in feature()' }, { score: 96, affectedFile: 'README.md', startLine: 1 }],
    }) });
    const prScan = (await told.json() as { scanId: string }).scanId;
    // The scan takes 200 ms here (the sandbox's scanDurationMs): done by the time the job asks;
    // --wait's polling of a running scan is test/unit/commands/gate/head-scan.test.ts's.
    const mr = await w.run('svc-gate', true);
    const found = sb.state.issues.filter((i) => i.scanId === prScan);
    expect(found).toHaveLength(2);
    const onChange = found.find((i) => i.affectedFile === 'src/feature.ts')!.id;
    const added = found.map((i) => i.id);
    expect(mr.stderr).toContain(`--commit auto is ${w.head}`);
    expect(mr.stderr).toMatch(new RegExp(`judging scan ${prScan} \\(PrScan of that commit, completed\\)`));
    expect(w.net.asked.filter((a) => a.includes('/artifacts/'))).toEqual(['GET /api/v4/projects/42/jobs/artifacts/main/raw/svc-report.json?job=svc-gate-baseline']);
    expect(mr.stderr).not.toContain('WARNING');
    // Counted: the issue on the merge request's line, and only it (README.md's is elsewhere).
    const report = JSON.parse(readFileSync(join(w.project, 'svc-report.json'), 'utf8'));
    expect(report.issues.map((i: { id: string }) => i.id)).toEqual([onChange]);
    expect(report.verified.commit).toEqual({ sha: w.head, scans: [{ id: prScan, status: 'completed' }] });
    expect(mr.code, mr.stderr).toBe(1);
    // --diff auto on the merge request's base commit; --comment without SVC_GITLAB_TOKEN: a warning, the verdict stands.
    expect(mr.stderr).toMatch(/svc gate: --diff [0-9a-f]{40}: 1 file changed since/);
    expect(mr.stderr).toMatch(/--comment: could not post the comment .*no token: set SVC_GITLAB_TOKEN/);
    for (const p of [...jobs()['svc-gate'].artifacts.paths, ...Object.values(jobs()['svc-gate'].artifacts.reports)]) expect(existsSync(join(w.project, p)), p).toBe(true);
    const sast = JSON.parse(readFileSync(join(w.project, 'svc-sast.json'), 'utf8'));
    const quality = JSON.parse(readFileSync(join(w.project, 'svc-code-quality.json'), 'utf8'));
    expect(sastErrors(sast)).toEqual([]);
    expect(codeQualityErrors(quality)).toEqual([]);
    // SAST and Code Quality list every open issue the scan found, counted or not: GitLab's widgets
    // compare them with the target branch's, where an issue missing would read as fixed.
    expect(sast.vulnerabilities.map((v: { identifiers: Array<{ type: string; value: string }> }) => v.identifiers.find((i) => i.type === 'svc_issue')!.value).sort()).toEqual([...added].sort());
    expect(quality).toHaveLength(added.length);
    expect(mr.stdout).toMatch(/section_start:\d+:svc_gate_breaking|svc gate: PASSED/);
    expect(mr.stdout).not.toContain('::error');

    // No baseline to read (expired, never recorded, a token that may not read it): said loudly,
    // and every open issue of the head's scan on the change counts.
    w.net.state.baseline = undefined;
    const bare = await w.run('svc-gate', true);
    expect(bare.stderr).toContain('svc-gate: WARNING: no baseline: could not read svc-report.json of job svc-gate-baseline on main');
    expect(bare.code, bare.stderr).toBe(1);
    expect(JSON.parse(readFileSync(join(w.project, 'svc-report.json'), 'utf8')).issues.map((i: { id: string }) => i.id)).toEqual([onChange]);
    expect(JSON.parse(readFileSync(join(w.project, 'svc-sast.json'), 'utf8')).vulnerabilities).toHaveLength(added.length);
    expect(w.rec.calls()).toEqual([]);
    expect(`${main.stdout}${main.stderr}${mr.stdout}${mr.stderr}`).not.toContain(sb.tokenSecret);
  }, 240_000);

  it.concurrent('the pin: unset, malformed, a download that differs or fails: the job fails (exit 2) saying so, before svc runs; a fork\'s merge request without the variables: skipped with a notice', async ({ onTestFinished }) => {
    const sb = await startGateSandbox({ scanDurationMs: 200 });
    sandboxes.push(sb);
    const w = await world(sb, jobs(), { onClose: (f) => onTestFinished(f) });
    let requests = 0;
    sb.onLine = () => { requests += 1; };
    const cases: Array<[Record<string, string | undefined>, RegExp]> = [
      [{ SVC_RELEASE_URL: undefined }, /svc-gate: ERROR: SVC_RELEASE_URL is not set \(or not a URL\)/],
      [{ SVC_RELEASE_URL: '$SVC_RELEASE_URL' }, /svc-gate: ERROR: SVC_RELEASE_URL is not set \(or not a URL\)/],
      [{ SVC_RELEASE_SHA256: undefined }, /svc-gate: ERROR: SVC_RELEASE_SHA256 is not set \(or not 64 hexadecimal digits\)/],
      [{ SVC_RELEASE_SHA256: 'ABC' }, /svc-gate: ERROR: SVC_RELEASE_SHA256 is not set/],
      [{ SVC_RELEASE_SHA256: createHash('sha256').update('another file').digest('hex') }, /svc-gate: ERROR: the file at http:\/\/127\.0\.0\.1:\d+\/releases\/svc\.tar\.gz does not have the SHA-256 SVC_RELEASE_SHA256 pins \([0-9a-f]{64}\): not run/],
      [{ SVC_RELEASE_URL: `${w.net.url}/releases/gone.tar.gz` }, /svc-gate: ERROR: could not download svc from http:\/\/127\.0\.0\.1:\d+\/releases\/gone\.tar\.gz/],
    ];
    for (const [settings, said] of cases) {
      for (const name of ['svc-gate', 'svc-gate-baseline']) {
        const r = await w.run(name, name === 'svc-gate', { settings });
        expect(r.code, `${name} ${JSON.stringify(settings)}: ${r.stderr}`).toBe(2);
        expect(r.stderr).toMatch(said);
      }
    }
    // A download changed on the server (the same URL): refused too.
    const original = w.net.state.download;
    w.net.state.download = Buffer.concat([original, Buffer.from('x')]);
    const changed = await w.run('svc-gate-baseline', false);
    expect(changed.code).toBe(2);
    expect(changed.stderr).toMatch(/does not have the SHA-256 SVC_RELEASE_SHA256 pins/);
    expect(requests, 'svc never ran').toBe(0);
    w.net.state.download = original;

    // A fork's merge request runs without this project's variables: a notice, the job passes.
    const fork = await w.run('svc-gate', true, { fork: true, settings: { SVC_API_TOKEN_ID: undefined, SVC_API_TOKEN_SECRET: undefined, SVC_RELEASE_URL: undefined, SVC_RELEASE_SHA256: undefined, SVC_BASE_URL: undefined } });
    expect(fork.code, fork.stderr).toBe(0);
    expect(fork.stdout).toContain('svc-gate: SKIPPED: this merge request comes from a fork');
    // The same merge request from this project without the token: not skipped (svc says exit 3).
    const own = await w.run('svc-gate', true, { settings: { SVC_API_TOKEN_ID: undefined, SVC_API_TOKEN_SECRET: undefined } });
    expect(own.code, own.stderr).toBe(3);
    expect(w.rec.calls()).toEqual([]);
  }, 120_000);
});
