/** The test toolkit itself: in-process runs, the fake server's checks, the sandbox wiring, temp dirs. */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import picomatch from 'picomatch';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, testHost } from './host.js';
import { startFakeServer, useFakeServer } from './fake-server.js';
import { useSandbox } from './sandbox.js';
import { tempDir } from './temp.js';
import { IN_PROCESS_PARTS, inProcessInclude } from '../parts.js';

describe('runCli / testHost', () => {
  it('runs main in-process: --version on stdout, exit 0', async () => {
    const r = await runCli(['--version'], { version: '9.8.7' });
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout.trim()).toBe('9.8.7');
  });

  it('a usage error: exit 2 and one line on stderr', async () => {
    const r = await runCli(['issues', 'search', '--bogus-flag']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^svc: error: unknown option '--bogus-flag'/);
  });

  it('config goes to an isolated dir that is removed when the test ends', async () => {
    const host = testHost();
    const r = await runCli(['config', 'set', 'output', 'json'], { host });
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(host.configDir, 'config.json'))).toBe(true);
    expect(host.env.SVC_CONFIG_DIR).toBe(host.configDir);
    dirs.push(host.configDir);
  });
  const dirs: string[] = [];
  it('(the previous test\'s config dir is gone)', () => {
    expect(dirs).toHaveLength(1);
    expect(existsSync(dirs[0])).toBe(false);
  });

  it('env values of undefined remove the variable; stdin is fed', async () => {
    const host = testHost({ env: { HOME: undefined, X: '1' }, stdin: 'hello' });
    expect(host.env.HOME).toBeUndefined();
    expect(host.env.X).toBe('1');
    const chunks: string[] = [];
    for await (const c of host.io.stdin) chunks.push(String(c));
    expect(chunks.join('')).toBe('hello');
  });

  it('tty and columns reach the host; abort() aborts with the signal name', () => {
    const host = testHost({ tty: { stdout: true }, columns: 71 });
    expect(host.io).toMatchObject({ stdoutIsTTY: true, stderrIsTTY: false, stdinIsTTY: false, columns: 71 });
    expect((host.io.stdout as { isTTY?: boolean }).isTTY).toBe(true);
    host.abort('SIGTERM');
    expect(host.signal.aborted).toBe(true);
    expect(host.signal.reason).toBe('SIGTERM');
  });

  it("clock 'fake': sleeps end at once, are recorded and move now()", async () => {
    const host = testHost({ clock: 'fake' });
    await host.sleep(5000);
    expect(host.sleeps).toEqual([5000]);
    expect(host.now()).toBe(5000);
  });
});

describe('the fake server', () => {
  const fake = useFakeServer();

  it('answers stubs in order (the last repeats) and records the requests', async () => {
    fake.stub('/api/v1/orgs/list', [{ status: 503 }, { json: [{ id: 'o1' }] }]);
    const r = await runCli(['orgs', 'list', '-o', 'json'], { env: fake.env, clock: 'fake' });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([{ id: 'o1' }]);
    expect(fake.to('/api/v1/orgs/list').map((q) => q.status)).toEqual([503, 200]);
    expect(fake.requests[0].headers['x-service-api-token-id']).toBe(fake.env.SVC_API_TOKEN_ID);
  });

  it('verify() names a stub never used and a request nobody stubbed', async () => {
    const own = await startFakeServer();
    try {
      own.stub('/api/v1/issues/search', { json: {} });
      const r = await runCli(['orgs', 'list', '--retries', '0'], { env: own.env });
      expect(r.code).not.toBe(0);
      expect(() => own.verify()).toThrow(/stub for \/api\/v1\/issues\/search was never used; request with no stub: POST \/api\/v1\/orgs\/list/);
      own.reset();
      expect(() => own.verify()).not.toThrow();
    } finally {
      await own.close();
    }
  });
});

describe('the fake server with { mock: true }: the same stubs on a MockAgent, no socket', () => {
  const fake = useFakeServer({ mock: true });

  it('answers stubs in order and records the requests, through the dispatcher only', async () => {
    expect(fake.port).toBe(0);
    fake.stub('/api/v1/orgs/list', [{ status: 503 }, { json: [{ id: 'o1' }] }]);
    const r = await runCli(['orgs', 'list', '-o', 'json', '--search-query', 'ac'], { env: fake.env, dispatcher: fake.dispatcher, clock: 'fake' });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([{ id: 'o1' }]);
    expect(fake.to('/api/v1/orgs/list').map((q) => q.status)).toEqual([503, 200]);
    expect(fake.requests[0].body).toEqual({ searchQuery: 'ac' });
    expect(fake.requests[0].headers['x-service-api-token-id']).toBe(fake.env.SVC_API_TOKEN_ID);
    // Without the dispatcher the same env reaches no server: nothing listens for it.
    const off = await runCli(['orgs', 'list', '--retries', '0'], { env: { ...fake.env, SVC_BASE_URL: 'https://127.0.0.1:9' } });
    expect(off.code).toBe(6);
    expect(fake.requests).toHaveLength(2);
  });

  it('refuses a reply that needs a real socket, naming it', async () => {
    fake.stub('/api/v1/orgs/list', { kind: 'hang' });
    const r = await runCli(['orgs', 'list', '--retries', '0'], { env: fake.env, dispatcher: fake.dispatcher });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/needs a real socket|hang/);
  });
});

describe('useFakeServer: stubs made in beforeAll stay, each test sees its own requests', () => {
  const fake = useFakeServer();
  beforeAll(() => { fake.stub('/api/v1/orgs/list', { json: [] }); });
  for (const n of [1, 2]) {
    it(`run ${n}`, async () => {
      expect((await runCli(['orgs', 'list'], { env: fake.env })).code).toBe(0);
      expect(fake.requests).toHaveLength(1);
    });
  }
  it('a test that overrides a stub gets it back afterwards', async () => {
    fake.stub('/api/v1/orgs/list', { status: 404, json: { error: 'gone' } });
    expect((await runCli(['orgs', 'list', '--retries', '0'], { env: fake.env })).code).toBe(4);
  });
  it('(it is back)', async () => {
    expect((await runCli(['orgs', 'list'], { env: fake.env })).code).toBe(0);
  });
});

describe('the sandbox', () => {
  const sb = useSandbox({ issues: 20, repos: 2 });

  it('run() points the CLI at it with its token', async () => {
    const orgs = await sb.runJson(['orgs', 'list']);
    expect(JSON.stringify(orgs)).toContain(sb.organizationId!);
    expect(sb.requests()['/api/v1/orgs/list']).toBeDefined();
  });
});

describe('tempDir', () => {
  const outside = tempDir('svc-helpers-');
  let inside = '';
  it('made in a test: removed when the test ends; made outside: kept until the file ends', () => {
    inside = tempDir('svc-helpers-');
    writeFileSync(join(inside, 'f'), 'x');
    expect(existsSync(outside)).toBe(true);
  });
  it('(checked)', () => {
    expect(existsSync(inside)).toBe(false);
    expect(existsSync(outside)).toBe(true);
  });
});

describe('the in-process project\'s parts (test/parts.ts, SVC_TEST_PART)', () => {
  const ROOT = resolve(__dirname, '../..');
  const testFiles = (dir: string): string[] => readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'fixtures' || e.name === '__snapshots__' ? [] : testFiles(p);
    return e.name.endsWith('.test.ts') ? [p] : [];
  });
  const files = testFiles('test');
  const inPart = (name: string) => files.filter((f) => picomatch(inProcessInclude(name))(f));

  it('unit, e2e and unset pick their folders; every test file is in exactly one part', () => {
    expect(inPart('unit').every((f) => /^test\/(unit|helpers)\//.test(f))).toBe(true);
    expect(inPart('e2e').every((f) => f.startsWith('test/e2e/'))).toBe(true);
    // A test file in a folder no part takes would run in no project: none is.
    const counts = files.map((f) => Object.keys(IN_PROCESS_PARTS).filter((name) => picomatch(inProcessInclude(name))(f)).length);
    expect(files.filter((_, i) => counts[i] !== 1)).toEqual([]);
    expect(files.filter((f) => picomatch(inProcessInclude(undefined))(f))).toEqual(files);
    expect(inPart('unit').length).toBeGreaterThan(50);
    expect(inPart('e2e').length).toBeGreaterThan(20);
  });

  it('another value is an error naming the parts, also a name of Object\'s prototype or an empty value', () => {
    for (const bad of ['bogus', 'toString', '', 'Unit']) expect(() => inProcessInclude(bad)).toThrow(`SVC_TEST_PART=${bad}: give unit or e2e (or leave it unset for every in-process file)`);
  });

  it('npm run test:unit and test:e2e choose their part by SVC_TEST_PART, so a filter after -- narrows them', () => {
    const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts['test:unit']).toBe('SVC_TEST_NO_BUILD=1 SVC_TEST_PART=unit vitest run --project in-process');
    expect(scripts['test:e2e']).toBe('SVC_TEST_PART=e2e vitest run --project in-process');
  });
});
