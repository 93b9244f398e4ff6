/**
 * Hostile servers and networks (issue 12, classes 1, 2, 3, 10, 12, 13): where the token goes, what
 * is printed of URLs, how much of a response is held, which header values leave, interim answers,
 * and answers of the wrong shape. Every server is a loopback server on 127.0.0.1.
 */
import dns from 'node:dns';
import { syncBuiltinESMExports } from 'node:module';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { envFor, rawServer, response, run, tempDir, TOKEN_SECRET, type RawServer } from './harness.js';

let srv: RawServer;
beforeAll(async () => { srv = await rawServer(); });
afterAll(async () => { await srv.close(); });
afterEach(() => { srv.requests.length = 0; });

const ORGS = '/api/v1/orgs/list';

describe('class 1: plain http only to an address actually on this machine', () => {
  const realLookup = dns.lookup;
  afterEach(() => { dns.lookup = realLookup; syncBuiltinESMExports(); });
  /** Makes `name` resolve to `address`, as a hostile resolver (or /etc/hosts entry) would. */
  const resolveAs = (name: string, address: string) => {
    dns.lookup = ((host: string, opts: unknown, cb?: unknown) => {
      const callback = (typeof opts === 'function' ? opts : cb) as (e: Error | null, a: unknown, f?: number) => void;
      if (host !== name) return (realLookup as (...a: unknown[]) => void)(host, opts, cb);
      const all = typeof opts === 'object' && opts !== null && (opts as { all?: boolean }).all;
      process.nextTick(() => (all ? callback(null, [{ address, family: 4 }]) : callback(null, address, 4)));
    }) as typeof dns.lookup;
    syncBuiltinESMExports();
  };

  it('a *.localhost name that resolves elsewhere gets no connection and no token (exit 2)', async () => {
    resolveAs('svc-hostile.localhost', '192.0.2.10');
    const r = await run(['orgs', 'list', '--timeout', '2', '--retries', '0'], { env: envFor(`http://svc-hostile.localhost:${srv.port}`) });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/refusing to send API tokens over plain http:\/\/ to svc-hostile\.localhost.*192\.0\.2\.10, not a loopback address/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('localhost resolved by svc to loopback, and literal loopback addresses, are used', async () => {
    resolveAs('svc-hostile.localhost', '127.0.0.1');
    srv.handle(ORGS, (_r, s) => { s.end(response(200, '[{"id":"org_1","name":"A"}]')); });
    for (const base of [`http://svc-hostile.localhost:${srv.port}`, `http://127.0.0.1:${srv.port}`]) {
      const r = await run(['orgs', 'list', '-o', 'json'], { env: envFor(base) });
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual([{ id: 'org_1', name: 'A' }]);
    }
  });

  it('a host name that merely looks local is refused before any lookup', async () => {
    const r = await run(['orgs', 'list'], { env: envFor(`http://127.0.0.1.nip.example:${srv.port}`) });
    expect(r.code).toBe(2);
    expect(srv.requests).toHaveLength(0);
  });

  it('a plain-http proxy must be a literal loopback address', async () => {
    const r = await run(['orgs', 'list'], { env: envFor(`http://127.0.0.1:${srv.port}`, { HTTP_PROXY: 'http://proxy.localhost:3128' }) });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/through the proxy/);
  });
});

describe('class 2: a URL\'s user name and password are never printed', () => {
  const PASSWORD = 'pa/ss#w?rd-7781';
  const everything = (r: { stdout: string; stderr: string }) => r.stdout + r.stderr;

  it.each([
    ['a password holding / # ?', `http://user:${PASSWORD}@127.0.0.1:3128`],
    ['an unparseable port', `http://user:${PASSWORD}@proxy:port`],
    ['no scheme', `user:${PASSWORD}@127.0.0.1:3128`],
  ])('a proxy URL that does not parse (%s): exit 2, the URL shown without its userinfo', async (_what, proxy) => {
    const r = await run(['orgs', 'list'], { env: envFor(`https://api.example.test`, { HTTPS_PROXY: proxy }) });
    expect(r.code).toBe(2);
    expect(everything(r)).not.toContain('pa/ss');
    expect(everything(r)).not.toContain('w?rd');
    expect(everything(r)).not.toContain('user:');
  });

  it('--verbose, --dry-run and auth status through a proxy with a password show none of it', async () => {
    const proxy = `http://user:secretpw-4410@127.0.0.1:${srv.port}`;
    srv.handle(ORGS, (_r, s) => { s.end(response(200, '[]')); });
    const env = envFor(`http://127.0.0.1:${srv.port}`, { HTTP_PROXY: proxy, NO_PROXY: '' });
    for (const argv of [['orgs', 'list', '--verbose'], ['orgs', 'list', '--dry-run'], ['auth', 'status'], ['issues', 'get', 'iss_1', '--verbose']]) {
      const r = await run(argv, { env });
      expect(everything(r), argv.join(' ')).not.toContain('secretpw-4410');
    }
  });

  it('a redirect\'s Location with userinfo is shown without it', async () => {
    srv.handle(ORGS, (_r, s) => { s.end(response(302, '', 'location: https://admin:hunter2-pw@elsewhere.example/login\r\n')); });
    const r = await run(['orgs', 'list'], { env: envFor(srv.url) });
    expect(r.code).toBe(7);
    expect(r.stderr).toContain('elsewhere.example/login');
    expect(r.stderr).not.toContain('hunter2-pw');
  });
});

describe('class 3: one response holds at most a documented cap', () => {
  /** Headers, then 64 KiB chunks for as long as the client reads. */
  const endless = (_r: unknown, s: import('node:net').Socket) => {
    s.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n');
    const chunk = Buffer.concat([Buffer.from('10000\r\n'), Buffer.alloc(0x10000, 0x20), Buffer.from('\r\n')]);
    const pump = () => { while (!s.destroyed && s.write(chunk)); };
    s.on('drain', pump);
    pump();
    return 'keep-open' as const;
  };

  it('an endless body stops at the cap: exit 7 naming the cap and the flag (not a timeout after buffering)', async () => {
    srv.handle(ORGS, endless);
    const r = await run(['orgs', 'list', '--max-response-mb', '2', '--timeout', '20'], { env: envFor(srv.url) });
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(/larger than the 2 MiB cap on one response.*--max-response-mb/);
    expect(srv.requests).toHaveLength(1);
  });

  it('the default cap is 64 MiB; SVC_MAX_RESPONSE_MB raises it', async () => {
    srv.handle(ORGS, endless);
    const r = await run(['orgs', 'list', '--timeout', '20'], { env: envFor(srv.url) });
    expect(r.code).toBe(7);
    expect(r.stderr).toContain('64 MiB cap');
    const big = '[' + Array.from({ length: 40_000 }, (_, i) => `{"id":"org_${i}","name":"${'n'.repeat(50)}"}`).join(',') + ']';
    srv.handle(ORGS, (_r, s) => { s.end(response(200, big)); });
    expect((await run(['orgs', 'list', '-o', 'json'], { env: envFor(srv.url, { SVC_MAX_RESPONSE_MB: '1' }) })).code).toBe(7);
    expect((await run(['orgs', 'list', '-o', 'json'], { env: envFor(srv.url, { SVC_MAX_RESPONSE_MB: '8' }) })).code).toBe(0);
  });

  it('--return-all that hits the cap points to --all', async () => {
    srv.handle('/api/v1/issues/search', endless);
    const r = await run(['issues', 'search', '--return-all', '--max-response-mb', '1'], { env: envFor(srv.url) });
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(/--return-all .* use --all/);
  });

  it.each(['0', 'lots', '-5', '99999'])('a bad cap (%s) is exit 2 before any request', async (v) => {
    const r = await run(['orgs', 'list', '--max-response-mb', v], { env: envFor(srv.url) });
    expect(r.code).toBe(2);
    expect(srv.requests).toHaveLength(0);
  });
});

describe('class 10: header values are checked before anything is sent', () => {
  it.each([
    ['SVC_API_TOKEN_ID', { SVC_API_TOKEN_ID: 'abc\r\nX-Injected: 1' }, /SVC_API_TOKEN_ID holds a carriage return/],
    ['SVC_API_TOKEN_SECRET', { SVC_API_TOKEN_SECRET: 'gehe\u00fcim-secret-99' }, /SVC_API_TOKEN_SECRET holds a non-ASCII character/],
    ['SVC_API_TOKEN_SECRET', { SVC_API_TOKEN_SECRET: 'line\nbreak-secret-99' }, /SVC_API_TOKEN_SECRET holds a line break/],
  ])('%s with a bad character: exit 3 naming it, the value not echoed, nothing sent', async (_name, bad, message) => {
    for (const argv of [['orgs', 'list'], ['issues', 'archive', 'iss_1']]) {
      const r = await run(argv, { env: envFor(srv.url, bad) });
      expect(r.code, r.stderr).toBe(3);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toMatch(/X-Injected|gehe|break-secret|may (still )?have taken effect|retry/);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect(srv.requests).toHaveLength(0);
  });

  it('a stored token with a line break: exit 3 naming the profile', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { default: { baseUrl: srv.url, tokenId: 'id\nx', tokenSecret: 'stored-secret-1234' } } }));
    const r = await run(['orgs', 'list'], { env: { SVC_CONFIG_DIR: dir } });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/stored token id of profile "default" holds a line break/);
    expect(srv.requests).toHaveLength(0);
  });

  it('auth login refuses such a secret (exit 2) and saves nothing', async () => {
    const dir = tempDir();
    const r = await run(['auth', 'login', '--token-id', 'tid-123', '--with-secret-stdin', '--base-url', srv.url], { env: { SVC_CONFIG_DIR: dir }, stdin: 'sec\u00fcret-value\n' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/token secret holds a non-ASCII character/);
    expect(r.stderr).not.toContain('sec\u00fcret');
    expect(srv.requests).toHaveLength(0);
  });
});

describe('class 12: interim 1xx answers are accepted (RFC 9110)', () => {
  it.each([100, 102, 103])('an unsolicited %i before the 200 is skipped', async (status) => {
    srv.handle(ORGS, (_r, s) => {
      s.write(`HTTP/1.1 ${status} Interim\r\n\r\n`);
      s.end(response(200, '[{"id":"org_9"}]'));
    });
    const r = await run(['orgs', 'list', '-o', 'json'], { env: envFor(srv.url) });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([{ id: 'org_9' }]);
    expect(srv.requests).toHaveLength(1);
  });

  it('a mutation answered 100 then 200 succeeds once', async () => {
    srv.handle('/api/v1/issues/archive', (_r, s) => { s.write('HTTP/1.1 100 Continue\r\n\r\n'); s.end(response(200, '{"ok":true}')); });
    const r = await run(['issues', 'archive', 'iss_1', '-o', 'json'], { env: envFor(srv.url) });
    expect(r.code, r.stderr).toBe(0);
    expect(srv.requests).toHaveLength(1);
  });
});

describe('class 13: a 2xx of the wrong shape is exit 7 where the spec defines the shape', () => {
  it.each([
    ['orgs list', 200, 'null', ['orgs', 'list'], ORGS],
    ['orgs list', 200, '{"orgs":[]}', ['orgs', 'list'], ORGS],
    ['orgs list', 204, '', ['orgs', 'list'], ORGS],
    ['stats summary', 200, '[]', ['stats', 'summary'], '/api/v1/stats/summary'],
    ['scans get-schedule', 200, 'null', ['scans', 'get-schedule', 'repo_1'], '/api/v1/scans/get-schedule'],
    ['issues archive', 200, '[]', ['issues', 'archive', 'iss_1'], '/api/v1/issues/archive'],
    ['issues search', 200, '{"issues":null}', ['issues', 'search'], '/api/v1/issues/search'],
  ] as const)('%s answered %i %s', async (_what, status, body, argv, path) => {
    srv.handle(path, (_r, s) => { s.end(status === 204 ? Buffer.from('HTTP/1.1 204 No Content\r\nconnection: close\r\n\r\n') : response(status, body)); });
    for (const format of ['json', 'table']) {
      const r = await run([...argv, '-o', format], { env: envFor(srv.url) });
      expect(r.code, r.stderr).toBe(7);
      // A 204 is not the API's success (200 with a JSON body) whatever it holds (issue 21).
      expect(r.stderr).toMatch(status === 204 ? /HTTP 204, not 200/ : /does not have the documented shape/);
      expect(r.stdout).toBe('');
    }
  });

  it('where the spec shows no fields, any JSON is taken (with a warning when not an object)', async () => {
    srv.handle('/api/v1/orgs/create', (_r, s) => { s.end(response(200, 'null')); });
    const r = await run(['api', 'orgs/create', '-o', 'json'], { env: envFor(srv.url) });
    expect(r.code).toBe(0);
    const t = await run(['stats', 'time-saved', '-o', 'json'], { env: envFor(srv.url) });
    expect(t.code).toBe(0);
  });
});

describe('the line already held', () => {
  it('no secret in any output of the hostile cases above (a server echoing the token)', async () => {
    srv.handle(ORGS, (r, s) => { s.end(response(500, JSON.stringify({ error: `bad ${JSON.stringify(r.headers)}` }))); });
    const r = await run(['orgs', 'list', '--verbose', '--retries', '0'], { env: envFor(srv.url) });
    expect(r.code).toBe(6);
    expect(r.stdout + r.stderr).not.toContain(TOKEN_SECRET);
  });
});
