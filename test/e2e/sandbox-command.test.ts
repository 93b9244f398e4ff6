/**
 * `svc sandbox` as a user runs it: ready line, export block, clean stop on signals, --state across
 * restarts, `npm run demo`. The sandbox is the real bin where its signals and exit are the point
 * (SIGTERM and SIGINT to the process, the state written as it stops); the calls against it, the
 * usage errors that end it before it serves, and what it prints that main() prints the same way in
 * this process (the human ready line and export block, the dialects) run in-process.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createServer, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { BIN, cleanEnv } from '../helpers/run-svc.js';
import { runCli, testHost, until, type CliResult, type TestHost } from '../helpers/host.js';
import { tempDir } from '../helpers/temp.js';
import { DIALECTS } from '../../src/sandbox/dialects.js';
import { defaultTour } from '../helpers/demo-tour.js';

interface Running { child: ChildProcessWithoutNullStreams; first: string; stdout: () => string; stderr: () => string; exit: Promise<number | null> }
const running: Running[] = [];

/** Start `svc sandbox ...` and wait for its first stdout line. */
function sandbox(args: string[]): Promise<Running> {
  const child = spawn(process.execPath, [BIN, 'sandbox', ...args], { env: cleanEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
  let err = '';
  let out = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => { err += d; });
  const exit = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
  return new Promise((resolvePromise, reject) => {
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      const had = out.includes('\n');
      out += d;
      if (had || !out.includes('\n')) return;
      const r = { child, first: out.slice(0, out.indexOf('\n')), stdout: () => out, stderr: () => err, exit };
      running.push(r);
      resolvePromise(r);
    });
    exit.then((code) => reject(new Error(`sandbox exited ${code} before it was ready: ${err}`)));
  });
}

afterEach(() => {
  for (const r of running.splice(0)) r.child.kill('SIGKILL');
});

/** `svc sandbox ...` through main() in this process, once its first stdout line is there; `host.abort()` stops it. */
async function sandboxInProcess(args: string[]): Promise<{ host: TestHost; first: string; exit: Promise<CliResult> }> {
  const host = testHost();
  const exit = runCli(['sandbox', ...args], { host });
  onTestFinished(async () => { host.abort('SIGTERM'); await exit; });
  let ended = false;
  exit.then(() => { ended = true; }, () => { ended = true; });
  await until(() => ended || host.stdout.includes('\n'), "the sandbox's ready line", 20_000);
  if (ended) throw new Error(`sandbox exited before it was ready: ${host.stderr}`);
  return { host, first: host.stdout.slice(0, host.stdout.indexOf('\n')), exit };
}

const envOf = (info: { baseUrl: string; tokenId: string; tokenSecret: string }) => ({ SVC_BASE_URL: info.baseUrl, SVC_API_TOKEN_ID: info.tokenId, SVC_API_TOKEN_SECRET: info.tokenSecret });

describe('svc sandbox', () => {
  it('-o json: one ready line; the CLI works against it; SIGTERM stops it cleanly with exit 0', async () => {
    const sb = await sandbox(['--port', '0', '-o', 'json', '--repos', '3', '--issues', '40']);
    const info = JSON.parse(sb.first);
    expect(info).toMatchObject({ baseUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/), repositories: 3, issues: 40, loadedFrom: 'seed' });
    expect(info.port).toBeGreaterThan(0);
    const r = await runCli(['issues', 'search', '--page-size', '2', '-o', 'json'], { env: envOf(info) });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).issues).toHaveLength(2);
    sb.child.kill('SIGTERM');
    expect(await sb.exit).toBe(0);
    expect(sb.stderr()).toMatch(/POST \/api\/v1\/issues\/search 200/);
    expect(sb.stderr()).toMatch(/sandbox stopped/);
  });

  // In-process: the text is main()'s; SIGINT to the real process stops it with 0 in '--state' below.
  it('human output: the base URL and a ready-to-paste export line with the sandbox token; SIGINT stops it', async () => {
    const sb = await sandboxInProcess(['--port', '0', '-o', 'table', '--quiet']);
    const out = sb.host.stdout;
    expect(sb.first).toMatch(/^# svc sandbox on http:\/\/127\.0\.0\.1:\d+: seed 42, 12 repositories, 400 issues, in memory$/);
    expect(out).toMatch(/^export SVC_BASE_URL=http:\/\/127\.0\.0\.1:\d+ SVC_API_TOKEN_ID=5a4db0c5-0000-4000-8000-000000000001 SVC_API_TOKEN_SECRET=sandbox-only-secret-not-for-production$/m);
    sb.host.abort('SIGINT');
    expect((await sb.exit).code).toBe(0);
  });

  it('--state: changes survive a restart', async () => {
    const state = join(tempDir('svc-sandbox-e2e-'), 'state.json');
    const one = await sandbox(['--port', '0', '-o', 'json', '--quiet', '--state', state, '--issues', '60']);
    const env = envOf(JSON.parse(one.first));
    const id = JSON.parse((await runCli(['issues', 'search', '--types', 'open', '--page-size', '1', '-o', 'json'], { env })).stdout).issues[0].id;
    expect((await runCli(['issues', 'archive', id], { env })).code).toBe(0);
    one.child.kill('SIGINT');
    expect(await one.exit).toBe(0);
    expect(JSON.parse(readFileSync(state, 'utf8')).format).toBe('svc-sandbox-state');
    // The restart reads what the stopped process wrote: through main() here (a process stopping on
    // SIGTERM is the first test's).
    const two = await sandboxInProcess(['--port', '0', '-o', 'json', '--quiet', '--state', state, '--issues', '5']);
    const info = JSON.parse(two.first);
    expect(info).toMatchObject({ loadedFrom: 'state', issues: 60 });
    const got = await runCli(['issues', 'get', id, '-o', 'json'], { env: envOf(info) });
    expect(JSON.parse(got.stdout).status).toBe('archived');
    two.host.abort('SIGTERM');
    expect((await two.exit).code).toBe(0);
  });

  it('usage errors: a port in use, a bad fail rate, an unusable state file (exit 2, one line)', async () => {
    // A port in use: any listener on 127.0.0.1 holds it (no sandbox process needed for that).
    const holder = createServer();
    await new Promise<void>((r) => holder.listen(0, '127.0.0.1', r));
    onTestFinished(() => new Promise<void>((r) => holder.close(() => r())));
    const port = String((holder.address() as AddressInfo).port);
    const busy = await runCli(['sandbox', '--port', port]);
    expect(busy.code).toBe(2);
    expect(busy.stderr).toMatch(new RegExp(`^svc: error: port ${port} on 127.0.0.1 is already in use; .*--port 0`));
    const rate = await runCli(['sandbox', '--port', '0', '--fail-rate', '2']);
    expect(rate.code).toBe(2);
    expect(rate.stderr).toMatch(/--fail-rate expects a number from 0 to 1/);
    const bad = await runCli(['sandbox', '--port', '0', '--state', resolve(__dirname, '../../package.json')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).toMatch(/not a sandbox state file/);
    const unwritable = await runCli(['sandbox', '--port', '0', '--state', join(tempDir('svc-sb-'), 'no', 'such', 'dir.json')]);
    expect(unwritable.code).toBe(2);
    expect(unwritable.stderr).toMatch(/^svc: error: cannot write the state file .*\(ENOENT\)/);
    expect(unwritable.stderr.trim().split('\n')).toHaveLength(1);
    const dialect = await runCli(['sandbox', '--port', '0', '--dialect', 'wide,redetect']);
    expect(dialect.code).toBe(2);
    expect(dialect.stderr).toMatch(/^svc: error: --dialect: unknown dialect 'wide': the dialects are wide-counts, redetect, sparse-counts, status-words, no-counts; /);
    expect(dialect.stderr.trim().split('\n')).toHaveLength(1);
  });

  // In-process: the ready line and the answers are main()'s; stopping on SIGTERM is the first test's.
  it('--dialect: the ready line names them and the sandbox answers in them; --help says what each does', async () => {
    const sb = await sandboxInProcess(['--port', '0', '-o', 'json', '--quiet', '--repos', '4', '--issues', '60', '--dialect', 'status-words', '--dialect', 'no-counts']);
    const info = JSON.parse(sb.first);
    expect(info.dialects).toEqual(['status-words', 'no-counts']);
    const scans = JSON.parse((await runCli(['scans', 'list', '--all', '-o', 'json'], { env: envOf(info) })).stdout) as Array<{ status: string }>;
    expect(scans.some((x) => x.status === 'done' || x.status === 'succeeded')).toBe(true);
    expect(scans.some((x) => x.status === 'completed')).toBe(false);
    const search = await runCli(['issues', 'search', '--get-counts', '-o', 'json'], { env: envOf(info) });
    expect(JSON.parse(search.stdout).categoryCounts).toBeUndefined();
    sb.host.abort('SIGTERM');
    expect((await sb.exit).code).toBe(0);
    // Wrapped at the terminal's width: compared word by word.
    const help = (await runCli(['sandbox', '--help'])).stdout.replace(/\s+/g, ' ');
    for (const d of DIALECTS) expect(help).toContain(`${d.name} ${d.summary}`.replace(/\s+/g, ' '));
  });
});

describe('npm run demo', () => {
  it('tours the CLI against a sandbox it starts and stops, and exits 0', async () => {
    // The default tour, as demo-dialects.test.ts reads it too (made once per run: demo-tour.ts).
    const r = await defaultTour();
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/That was the real svc against a local stand-in/);
    expect(r.out).toMatch(/\$ svc repos list -o table/);
    expect(r.out).toMatch(/\$ svc issues search .*-o table\nID {2,}/);
    // Triage marks a false positive with its reason; nothing is archived without one (issue 36.7).
    expect(r.out).toMatch(/\$ svc issues mark-false-positive iss_\w+ --reason '[^']{20,}' -o table\nIssue marked as a false positive\./);
    expect(r.out).not.toMatch(/\$ svc issues archive /);
    const [, before, after, fpBefore, fpAfter] = /open (\d+) -> (\d+), false positive (\d+) -> (\d+)/.exec(r.out)!;
    expect(Number(after)).toBe(Number(before) - 1);
    expect(Number(fpAfter)).toBe(Number(fpBefore) + 1);
    expect(r.out).toMatch(/\nscan_\w+ .* completed /);
    // The main job: the gate fails on the repository, then with the baseline only what the scan added counts.
    expect(r.out).toMatch(/\$ svc gate --repository-ids repo_\w+ --fail-on high --json-report [^\n]+\n(?:.*\n)*?svc gate: FAILED/);
    const [, counted, baselined] = /(\d+) new, (\d+) already in the baseline/.exec(r.out)!;
    expect(Number(baselined)).toBeGreaterThan(0);
    expect(Number(counted)).toBeGreaterThan(0);
    expect(r.out.match(/\(exit 1\)/g)).toHaveLength(2);
  }, 60_000);
});
