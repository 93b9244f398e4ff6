/**
 * The README's "Until svc is published" recipe, followed word for word in a scratch mirror: its
 * command block runs in bash as written (only the two settings it starts with, SVC_SOURCE and MIRROR,
 * are the test's: a git repository of this checkout's files and a local bare repository standing in
 * for your organization's), `npm ci` included (from npm's cache). Then what it says to do with the
 * result: the GitHub workflow with `uses:` pointed at the mirror runs the action from the mirror's v0
 * (as the runner downloads it); the GitLab upload line runs against a 127.0.0.1 stand-in of the
 * generic package registry and the GitLab job runs from that download, pinned by the hash the recipe
 * printed. Also the Install section's check of a download, and the release script's own rules: the
 * next release moves v0, a version is released once, a dirty checkout is refused.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runProgram } from '../helpers/run-svc.js';
import { startGateSandbox, type GateSandbox } from '../helpers/sandbox-scope.js';
import { tempDir } from '../helpers/temp.js';
import { recorders, runJob, type RunnerOptions } from '../helpers/github-runner.js';

const ROOT = resolve(__dirname, '../..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const SECTION = README.slice(README.indexOf('### Until svc is published'), README.indexOf('### Pinning'));
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/** The recipe's code blocks: [the mirror and release block, the GitLab upload block]. */
function blocks(): string[] {
  const found = [...SECTION.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1].replace(/^ {2}/gm, ''));
  expect(found).toHaveLength(2);
  return found;
}

const sandboxes: GateSandbox[] = [];
afterAll(async () => { await Promise.all(sandboxes.splice(0).map((s) => s.close())); });

/** This checkout's files as a git repository of their own: the source a user clones (their working tree, committed). */
function sourceRepo(dir: string, env: NodeJS.ProcessEnv): string {
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter((f) => f && existsSync(join(ROOT, f)));
  for (const f of files) {
    mkdirSync(dirname(join(dir, f)), { recursive: true });
    copyFileSync(join(ROOT, f), join(dir, f));
  }
  const git = (...a: string[]) => execFileSync('git', a, { cwd: dir, env, encoding: 'utf8' });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'svc');
  return dir;
}

/** A stand-in of GitLab's generic package registry: PUT with a PRIVATE-TOKEN, GET with the job token. */
async function packageRegistry(token: string, jobToken: string) {
  const files = new Map<string, Buffer>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0];
      if (!path.startsWith('/api/v4/projects/your-group%2Fsvc/packages/generic/')) return res.writeHead(404).end('{"message":"404 Not found"}');
      if (req.method === 'PUT' && req.headers['private-token'] === token) {
        files.set(path, Buffer.concat(chunks));
        return res.writeHead(201, { 'content-type': 'application/json' }).end('{"message":"201 Created"}');
      }
      if (req.method === 'GET' && req.headers['job-token'] === jobToken && files.has(path)) return res.writeHead(200).end(files.get(path));
      return res.writeHead(401).end('{"message":"401 Unauthorized"}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, files, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe('the README recipe "Until svc is published", in a scratch mirror', () => {
  it('mirror, release, GitHub uses: the mirror, GitLab runs the pinned download; the next release moves v0', async ({ onTestFinished }) => {
    const dir = tempDir('svc-recipe-');
    const home = join(dir, 'home');
    mkdirSync(home);
    const who = { GIT_AUTHOR_NAME: 'Release Engineer', GIT_AUTHOR_EMAIL: 'release@example.invalid', GIT_COMMITTER_NAME: 'Release Engineer', GIT_COMMITTER_EMAIL: 'release@example.invalid' };
    const env: Record<string, string> = {
      PATH: process.env.PATH!, HOME: home, LANG: 'C.UTF-8', ...who, GIT_CONFIG_NOSYSTEM: '1',
      // npm's own cache (this machine's): `npm ci` installs from it, as on a machine that ran it before.
      npm_config_cache: process.env.npm_config_cache ?? join(homedir(), '.npm'), npm_config_prefer_offline: 'true', npm_config_update_notifier: 'false',
      // A user's own settings, as many have them: no audit request to the registry (the whole tree
      // posted and the answer read) and no funding message after `npm ci`; the install is the same.
      npm_config_audit: 'false', npm_config_fund: 'false',
    };
    const source = sourceRepo(join(dir, 'source'), { ...env });
    const mirror = join(dir, 'mirror.git');
    execFileSync('git', ['init', '-q', '--bare', mirror], { env });

    // The block as written, but its two settings; each line's exit code checked (set -e).
    const [recipe, upload] = blocks();
    const lines = recipe.split('\n').filter((l) => l.trim() !== '');
    expect(lines.slice(0, 2).map((l) => l.split('=')[0])).toEqual(['SVC_SOURCE', 'MIRROR']);
    const script = ['set -e', ...lines.slice(2)].join('\n');
    const r = await runProgram('bash', ['--noprofile', '--norc', '-c', script], { cwd: dir, env: { ...env, SVC_SOURCE: `file://${source}`, MIRROR: `file://${mirror}` }, timeoutMs: 280_000 });
    expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
    const clone = join(dir, 'svc');
    const git = (...a: string[]) => execFileSync('git', a, { cwd: mirror, env, encoding: 'utf8' }).trim();
    expect(git('rev-parse', 'v0^{commit}')).toBe(git('rev-parse', `v${VERSION}^{commit}`));
    expect(git('rev-parse', `v${VERSION}^{commit}^`)).toBe(git('rev-parse', 'main'));
    expect(git('ls-tree', '-r', '--name-only', 'v0').split('\n')).toEqual(expect.arrayContaining(['action.yml', 'bin/svc.js', 'dist/svc.cjs', 'dist/action.cjs', 'node_modules/jq-wasm/dist/build/jq.wasm', 'templates/svc-gate.yml']));
    const sha = /^([0-9a-f]{64}) {2}svc-[\d.]+\.tar\.gz$/m.exec(r.stdout)?.[1];
    expect(sha, r.stdout).toBeDefined();
    // The branch the user is on is untouched.
    expect(execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: clone, env, encoding: 'utf8' })).toBe('');

    // The Install section: a download checked against its .sha256 and run.
    const install = /```sh\n(sha256sum --check [\s\S]*?)```/.exec(README)![1];
    const ran = await runProgram('bash', ['--noprofile', '--norc', '-c', `set -e\n${install}`], { cwd: clone, env });
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toBe(`svc-${VERSION}.tar.gz: OK\n${VERSION}\n`);

    const sb = await startGateSandbox({ scanDurationMs: 200 });
    sandboxes.push(sb);

    // GitHub: the example with `uses:` on the mirror; the runner downloads its v0 (the tag's tree).
    const ghRepo = sb.state.repos.find((x) => x.source === 'hosta' && x.organizationId === sb.organizationId)!;
    const workflow = readFileSync(join(ROOT, 'examples/github-workflow.yml'), 'utf8');
    const pointed = workflow.replace(/uses: svc-cli\/svc@v0/g, 'uses: your-org/svc@v0');
    expect(pointed.match(/uses: your-org\/svc@v0/g)).toHaveLength(2);
    const actionDir = join(dir, 'work', '_actions', 'your-org', 'svc', 'v0');
    mkdirSync(actionDir, { recursive: true });
    execFileSync('bash', ['-c', `git -C "${mirror}" archive v0 | tar -x -C "${actionDir}"`], { env });
    const workspace = join(dir, 'work', 'repo');
    mkdirSync(join(dir, 'work', '_temp'), { recursive: true });
    execFileSync('git', ['init', '-q', '-b', 'main', workspace], { env });
    const rec = recorders(join(dir, 'recorders'));
    const server = new URL(ghRepo.url).origin;
    const opts: RunnerOptions = {
      workspace, runnerTemp: join(dir, 'work', '_temp'), event: 'push', eventPayload: { ref: 'refs/heads/main' }, serverUrl: server, apiUrl: 'http://127.0.0.1:9',
      repository: ghRepo.url.slice(server.length + 1).replace(/\/+$/, ''), repositoryId: '1', sha: 'a'.repeat(40), ref: 'refs/heads/main', actor: 'octocat', runId: 1,
      job: 'svc-gate', workflow: 'svc-gate', home, recorders: rec.dir,
    };
    const job = await runJob(parse(pointed).jobs['svc-gate'], opts, {
      svcAction: 'your-org/svc@v0', actionDir, cacheDir: join(dir, 'cache'),
      secrets: { SVC_API_TOKEN_ID: sb.tokenId, SVC_API_TOKEN_SECRET: sb.tokenSecret }, vars: { SVC_BASE_URL: sb.url },
    });
    expect(job.failed, job.stderr).toBe(false);
    expect(job.steps.record.outputs.verdict).toMatch(/^(passed|failed)$/);
    expect(rec.calls()).toEqual([]);

    // GitLab: the upload line as written (the stand-in's address for gitlab.example.com), then the job.
    const registry = await packageRegistry('glpat-recipe', 'job-token-7');
    onTestFinished(registry.close);
    const up = upload.trim().replace('https://gitlab.example.com', registry.url);
    const put = await runProgram('bash', ['--noprofile', '--norc', '-c', `set -e\n${up}`], { cwd: clone, env: { ...env, GITLAB_TOKEN: 'glpat-recipe' } });
    expect(put.code, put.stderr).toBe(0);
    const releaseUrl = /"(http:\/\/127\.0\.0\.1:\d+\/api\/v4\/[^"]+)"/.exec(up)![1];
    const glRepo = sb.state.repos.find((x) => x.source === 'hostb' && x.organizationId === sb.organizationId)!;
    const project = join(dir, 'project');
    mkdirSync(project);
    const glJob = parse(readFileSync(join(ROOT, 'examples/gitlab-ci.yml'), 'utf8'))['svc-gate-baseline'];
    writeFileSync(join(dir, 'job.sh'), glJob.script.join('\n'));
    const glServer = new URL(glRepo.url).origin;
    // The image's node runs svc: only package managers are recorded.
    const glRec = recorders(join(dir, 'gl-recorders'), { node: false });
    const gl = await runProgram('bash', ['--noprofile', '--norc', '-eo', 'pipefail', join(dir, 'job.sh')], {
      cwd: project,
      env: {
        PATH: [glRec.dir, dirname(process.execPath), '/usr/bin', '/bin'].join(':'), HOME: home, ...glJob.variables,
        SVC_BASE_URL: sb.url, SVC_API_TOKEN_ID: sb.tokenId, SVC_API_TOKEN_SECRET: sb.tokenSecret, SVC_RELEASE_URL: releaseUrl, SVC_RELEASE_SHA256: sha!,
        CI: 'true', GITLAB_CI: 'true', CI_SERVER_URL: glServer, CI_PROJECT_URL: glRepo.url.replace(/\/+$/, ''), CI_API_V4_URL: `${registry.url}/api/v4`, CI_JOB_TOKEN: 'job-token-7',
        CI_PROJECT_DIR: project, CI_PROJECT_ID: '42', CI_PIPELINE_SOURCE: 'push', CI_COMMIT_BRANCH: 'main', CI_DEFAULT_BRANCH: 'main', CI_COMMIT_SHA: 'c'.repeat(40), CI_JOB_NAME: 'svc-gate-baseline',
      },
      timeoutMs: 60_000,
    });
    expect(gl.code, gl.stderr).toBe(0);
    expect(gl.stdout.split('\n')[0]).toBe(VERSION);
    expect(existsSync(join(project, 'svc-report.json'))).toBe(true);
    expect(glRec.calls()).toEqual([]);

    // The next release: a version is released once; a new one moves v0 and leaves the old tag.
    // `npm run release` ran above as the block has it; here its script itself, `node scripts/release.mjs`
    // (npm-scripts.test.ts checks that this is package.json's script): an npm process less each (~0.4 s of CPU).
    const release = () => runProgram(process.execPath, ['scripts/release.mjs'], { cwd: clone, env });
    const again = await release();
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`release: tag v${VERSION} exists already: raise the version in package.json`);
    writeFileSync(join(clone, 'README.md'), `${readFileSync(join(clone, 'README.md'), 'utf8')}\nchanged\n`);
    const dirty = await release();
    expect(dirty.code).toBe(1);
    expect(dirty.stderr).toContain('release: the checkout has uncommitted changes');
    // The version raised as `npm version <next> --no-git-tag-version` raises it (package.json and the
    // lockfile's two copies), without an npm process: the release reads package.json's.
    const next = VERSION.replace(/\d+$/, (n) => String(Number(n) + 1));
    for (const file of ['package.json', 'package-lock.json']) {
      const json = JSON.parse(readFileSync(join(clone, file), 'utf8')) as { version: string; packages?: Record<string, { version?: string }> };
      json.version = next;
      if (json.packages?.['']) json.packages[''].version = next;
      writeFileSync(join(clone, file), `${JSON.stringify(json, null, 2)}\n`);
    }
    execFileSync('git', ['commit', '-q', '-am', `svc ${next}`], { cwd: clone, env });
    const second = await release();
    expect(second.code, second.stderr).toBe(0);
    const local = (...a: string[]) => execFileSync('git', a, { cwd: clone, env, encoding: 'utf8' }).trim();
    expect(local('rev-parse', 'v0^{commit}')).toBe(local('rev-parse', `v${next}^{commit}`));
    expect(local('rev-parse', `v${VERSION}^{commit}`)).toBe(git('rev-parse', `v${VERSION}^{commit}`));
    expect(local('show', `v${next}:package.json`)).toContain(`"version": "${next}"`);
  }, 300_000);
});
