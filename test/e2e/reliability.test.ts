/**
 * The fault suite: the built svc against a server that misbehaves on purpose. Each case says what
 * the server does, and checks the exit code, how many requests the server saw (reads are retried,
 * a mutation is never sent twice unless it provably never arrived), and that a failure ends with
 * one clear line and no secret.
 */
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { runCli, testHost } from '../helpers/host.js';
import { sleep as realSleep } from '../../src/core/host.js';
import { startFakeServer, type Reply, type FakeServer } from '../helpers/fake-server.js';

const SECRET = 'fault-suite-secret-5e2d';
const READ = ['issues', 'search', '--org', 'org_1'];
const READ_PATH = '/api/v1/issues/search';
const WRITE = ['issues', 'archive', 'iss_1', '--org', 'org_1'];
const WRITE_PATH = '/api/v1/issues/archive';

interface FaultCase {
  name: string;
  faults: Reply[];
  write?: boolean;
  args?: string[];
  code: number;
  /** Requests the server must have seen. */
  hits: number;
  /** The last stderr line must match. */
  says?: RegExp;
  /** Retry warnings expected on stderr. */
  warnings?: number;
}

const ok: Reply = { kind: 'ok', json: { issues: [{ id: 'iss_1', generatedTitle: 't' }], totalCount: 1 } };
const done: Reply = { kind: 'ok', json: { ok: true } };
/** Retry-After: 0 keeps the suite fast where the backoff itself is not what is tested. */
const now = { 'retry-after': '0' };
const CASES: FaultCase[] = [
  { name: 'latency under the timeout', faults: [{ ...ok, delayMs: 300 } as Reply], code: 0, hits: 1, warnings: 0 },
  { name: '503 twice, then an answer (read; exponential backoff)', faults: [{ kind: 'status', status: 503 }, { kind: 'status', status: 503 }, ok], code: 0, hits: 3, warnings: 2 },
  { name: '502, 504, then an answer (read)', faults: [{ kind: 'status', status: 502, text: 'Bad Gateway', headers: now }, { kind: 'status', status: 504, headers: now }, ok], code: 0, hits: 3, warnings: 2 },
  { name: '500 every time (read)', faults: [{ kind: 'status', status: 500, json: { error: 'internal' }, headers: now }], code: 6, hits: 3, says: /HTTP 500: internal \(gave up after 3 tries\)/, warnings: 2 },
  { name: '500 (mutation): not repeated', faults: [{ kind: 'status', status: 500, headers: now }, done], write: true, code: 6, hits: 1, says: /HTTP 500.*may or may not have been made/, warnings: 0 },
  { name: '408 then an answer (read)', faults: [{ kind: 'status', status: 408, headers: now }, ok], code: 0, hits: 2, warnings: 1 },
  { name: '429 with Retry-After: 1, then an answer (read)', faults: [{ kind: 'status', status: 429, headers: { 'retry-after': '1' } }, ok], code: 0, hits: 2, warnings: 1 },
  { name: '429 with Retry-After as an HTTP date (read)', faults: [{ kind: 'status', status: 429, headers: { 'retry-after': new Date(0).toUTCString() } }, ok], code: 0, hits: 2, warnings: 1 },
  { name: '429 with Retry-After: 0 (mutation): retried, it was refused', faults: [{ kind: 'status', status: 429, headers: { 'retry-after': '0' } }, done], write: true, code: 0, hits: 2, warnings: 1 },
  { name: '429 every time: exit 6 (retry later)', faults: [{ kind: 'status', status: 429, headers: { 'retry-after': '0' }, json: { error: 'slow down' } }], code: 6, hits: 3, says: /rate-limited: retry later \(HTTP 429, Retry-After: 0 s\): slow down/ },
  { name: 'connection reset, then an answer (read)', faults: [{ kind: 'reset' }, ok], code: 0, hits: 2, warnings: 1 },
  { name: 'connection reset (mutation): not repeated', faults: [{ kind: 'reset' }, done], write: true, code: 6, hits: 1, says: /connection was closed before the whole response arrived.*may have reached the service and taken effect/ },
  { name: 'truncated body, then an answer (read)', faults: [{ kind: 'truncated' }, ok], code: 0, hits: 2, warnings: 1 },
  { name: 'truncated body every time (read)', faults: [{ kind: 'truncated' }], args: ['--retries', '1'], code: 6, hits: 2, says: /closed before the whole response arrived/ },
  { name: 'truncated body (mutation): not repeated', faults: [{ kind: 'truncated' }, done], write: true, code: 6, hits: 1 },
  { name: 'HTML instead of JSON: exit 7, not repeated', faults: [{ kind: 'invalid-json' }, ok], code: 7, hits: 1, says: /not valid JSON \(text\/html, \d+ characters, starts "<html>/ },
  { name: 'JSON cut short but complete over HTTP: exit 7', faults: [{ kind: 'invalid-json', text: '{"issues": [{"id": "iss', type: 'application/json' }], code: 7, hits: 1, says: /not valid JSON \(application\/json/ },
  { name: 'no answer past --timeout (read): retried', faults: [{ kind: 'hang' }], args: ['--timeout', '0.3', '--retries', '1'], code: 6, hits: 2, says: /no response from .* within 0\.3 s \(--timeout 0\.3\)/ },
  { name: 'no answer past --timeout (mutation): never sent twice', faults: [{ kind: 'hang' }, done], write: true, args: ['--timeout', '0.3'], code: 6, hits: 1, says: /within 0\.3 s \(--timeout 0\.3\).*may still have taken effect/, warnings: 0 },
  { name: 'slow body past --timeout (read): retried', faults: [{ kind: 'slow-body', everyMs: 50 }], args: ['--timeout', '1', '--retries', '1'], code: 6, hits: 2, says: /response body .* did not arrive within 1 s \(--timeout 1\)/ },
  { name: 'slow body past --timeout, then an answer (read)', faults: [{ kind: 'slow-body', everyMs: 50 }, ok], args: ['--timeout', '1'], code: 0, hits: 2 },
  { name: 'slow body past --timeout (mutation): never sent twice', faults: [{ kind: 'slow-body', everyMs: 50 }, done], write: true, args: ['--timeout', '1'], code: 6, hits: 1 },
  { name: '--retries 0: one try only', faults: [{ kind: 'status', status: 503, headers: now }, ok], args: ['--retries', '0'], code: 6, hits: 1, warnings: 0 },
  { name: '--retries 4: five tries', faults: [{ kind: 'status', status: 503, headers: { 'retry-after': '0' } }], args: ['--retries', '4'], code: 6, hits: 5, warnings: 4 },
  { name: '401: exit 3, not repeated', faults: [{ kind: 'status', status: 401, json: { error: 'token expired' } }], code: 3, hits: 1, says: /HTTP 401: token expired; the token in use comes from SVC_API_TOKEN_ID\/SVC_API_TOKEN_SECRET in the environment/ },
  { name: '403: exit 3', faults: [{ kind: 'status', status: 403 }], code: 3, hits: 1 },
  { name: '404: exit 4', faults: [{ kind: 'status', status: 404, json: { error: { message: 'no such issue', code: 'E404', requestId: 'req-7' } } }], code: 4, hits: 1, says: /no such issue, code E404, request req-7/ },
  { name: '400: exit 5', faults: [{ kind: 'status', status: 400, json: { error: 'bad page' } }], code: 5, hits: 1, says: /HTTP 400: bad page/ },
  { name: '302 to elsewhere: not followed, exit 7', faults: [{ kind: 'status', status: 302, text: '', headers: { location: 'https://elsewhere.example/' } }], code: 7, hits: 1, says: /unexpected HTTP 302 to https:\/\/elsewhere\.example/ },
  { name: 'an error body full of escape sequences', faults: [{ kind: 'status', status: 400, json: { error: '\u001b]0;owned\u0007\u001b[2Jbad\u202e input\r' } }], code: 5, hits: 1, says: /HTTP 400: bad input/ },
];

function env(server: FakeServer): Record<string, string> {
  return { SVC_BASE_URL: server.url, SVC_API_TOKEN_ID: 'id-0001', SVC_API_TOKEN_SECRET: SECRET };
}

describe.concurrent(`fault suite (${CASES.length} faults)`, () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const server = await startFakeServer();
    const path = c.write ? WRITE_PATH : READ_PATH;
    server.stub(path, c.faults);
    try {
      // The clock is the test's: svc's waits between tries end at once and are recorded (r.host.sleeps);
      // the server's faults and --timeout are real time.
      const r = await runCli([...(c.write ? WRITE : READ), '-o', 'json', ...(c.args ?? [])], { env: env(server), clock: 'fake' });
      const lines = r.stderr.split('\n').filter((l) => l.trim());
      expect({ code: r.code, hits: server.hits(path) }).toEqual({ code: c.code, hits: c.hits });
      if (c.warnings !== undefined) expect(lines.filter((l) => l.startsWith('warning: ')), r.stderr).toHaveLength(c.warnings);
      // Each retry waited as long as its warning said (Retry-After, else the backoff), rounded as the
      // warning rounds it (a wait of 850 ms is "0.8 s": toFixed, not Math.round, which made it 0.9).
      const said = lines.map((l) => /retrying in (\d+\.\d) s/.exec(l)?.[1]).filter((x) => x !== undefined).map(Number);
      expect(r.host.sleeps.map((ms) => Number((ms / 1000).toFixed(1))), r.stderr).toEqual(said);
      if (c.code === 0) {
        expect(JSON.parse(r.stdout)).toBeTruthy();
        expect(lines.every((l) => l.startsWith('warning: ') && /retrying in \d+\.\d s \(retry \d of \d\)/.test(l)), r.stderr).toBe(true);
      } else {
        expect(r.stdout).toBe('');
        // One clear error line, after any retry warnings.
        expect(lines.filter((l) => !l.startsWith('warning: '))).toEqual([expect.stringMatching(/^svc: error: .+; .+/)]);
        if (c.says) expect(lines[lines.length - 1]).toMatch(c.says);
      }
      expect(r.stdout + r.stderr).not.toContain(SECRET);
      expect(r.stderr).not.toMatch(/^\s+at /m);
      expect(r.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/);
      // Every request carried the token.
      for (const q of server.requests) expect(q.headers['x-service-api-token-secret']).toBe(SECRET);
    } finally {
      await server.close();
    }
  });
});

describe.concurrent('retry details', () => {
  it("Retry-After is honoured: the warning says how long svc waits", async () => {
    const server = await startFakeServer();
    server.stub(READ_PATH, [{ kind: 'status', status: 429, headers: { 'retry-after': '1' } }, ok]);
    const r = await runCli([...READ, '-o', 'json'], { env: env(server), clock: 'fake' });
    await server.close();
    expect(r.code).toBe(0);
    expect(r.host.sleeps).toEqual([1000]);
    expect(r.stderr).toMatch(/^warning: issues\/search: rate-limited: retry later \(HTTP 429, Retry-After: 1 s\).*; retrying in 1\.0 s \(retry 1 of 2\)$/m);
  });

  it('a connection refused is retried even for a mutation (it never arrived), then exit 6', async () => {
    const server = await startFakeServer();
    const url = server.url;
    await server.close();
    const r = await runCli([...WRITE, '--retries', '1'], { env: { ...env(server), SVC_BASE_URL: url }, clock: 'fake' });
    expect(r.code).toBe(6);
    expect(r.host.sleeps).toHaveLength(1);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^warning: issues\/archive: cannot reach http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\); retrying/);
    expect(lines[1]).toMatch(/^svc: error: issues\/archive: cannot reach .* \(gave up after 2 tries\); check the base URL/);
  });

  it('the mutation that timed out after the server got it is sent once; the read that timed out is sent retries+1 times', async () => {
    const server = await startFakeServer();
    server.stub(WRITE_PATH, [{ kind: 'hang' }]);
    server.stub(READ_PATH, [{ kind: 'hang' }]);
    const [w, r] = await Promise.all([
      runCli([...WRITE, '--timeout', '0.3', '--retries', '2'], { env: env(server), clock: 'fake' }),
      runCli([...READ, '--timeout', '0.3', '--retries', '2'], { env: env(server), clock: 'fake' }),
    ]);
    // The read waited twice between its tries (on the test's clock); the mutation never did.
    expect([w.host.sleeps.length, r.host.sleeps.length]).toEqual([0, 2]);
    await server.close();
    expect([w.code, r.code]).toEqual([6, 6]);
    expect(server.hits(WRITE_PATH)).toBe(1);
    expect(server.hits(READ_PATH)).toBe(3);
  });
});

describe.concurrent('connections', () => {
  it('a server that accepts and never answers sees one connection per attempt (undici reconnected after each abort)', async () => {
    const sockets = new Set<Socket>();
    let connections = 0;
    const mute = createServer((s) => { connections++; sockets.add(s); s.on('error', () => {}); s.resume(); });
    await new Promise<void>((resolve) => mute.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(mute.address() as AddressInfo).port}`;
      // Real waits between the tries: a retry sent at once would reuse the connection opened for nothing.
      // 100 ms of each (the back-off asks 0.5-2 s): undici opens the connection for nothing within
      // milliseconds of the abort (with connect.ts's fix taken out, this still counts 5).
      const host = testHost({ env: { SVC_BASE_URL: url, SVC_API_TOKEN_ID: 'id-0001', SVC_API_TOKEN_SECRET: SECRET } });
      const waits: number[] = [];
      host.sleep = (ms, signal) => { waits.push(ms); return realSleep(Math.min(ms, 100), signal); };
      const r = await runCli([...READ, '--timeout', '0.3', '--retries', '2'], { host });
      expect(waits).toHaveLength(2);
      expect(r.code).toBe(6);
      expect(r.stderr).toContain('(gave up after 3 tries)');
      // Whatever undici would still open after the last abort has had its chance.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(connections).toBe(3);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => mute.close(resolve));
    }
  });
});

describe.concurrent('a proxy that closes the connection on reading the CONNECT, before any status line', () => {
  it.each([
    ['destroys the socket', 'destroy', READ, 'issues/search'],
    ['ends the socket', 'end', READ, 'issues/search'],
    // The tunnel never came up, so the change never reached the service: retried as a refused connection is.
    ['ends the socket (mutation)', 'end', WRITE, 'issues/archive'],
  ] as const)('%s: exit 6 within --timeout, one line naming the proxy, one CONNECT per try', async (_what, close, argv, what) => {
    const connects: string[] = [];
    const sockets = new Set<Socket>();
    const proxy = createServer((s) => {
      sockets.add(s);
      s.on('error', () => {});
      s.once('data', (d: Buffer) => {
        connects.push(d.toString('latin1').split('\r\n')[0]);
        if (close === 'end') s.end(); else s.destroy();
      });
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    // The back-off waits are the test's (instant); the attempts themselves are real time.
    const host = testHost({ env: { SVC_BASE_URL: 'https://api.example.test', HTTPS_PROXY: proxyUrl, SVC_API_TOKEN_ID: 'id-0001', SVC_API_TOKEN_SECRET: SECRET }, clock: 'fake' });
    // undici reconnected at once without end (thousands of CONNECTs a second, a Ctrl-C not heard):
    // given up on here, and the proxy's port closed, on which undici fails the request (ECONNREFUSED).
    let guard: ReturnType<typeof setTimeout> | undefined;
    const started = performance.now();
    const ran = runCli([...argv, '--timeout', '2', '--retries', '1'], { host });
    try {
      const r = await Promise.race([ran, new Promise<undefined>((resolve) => { guard = setTimeout(() => resolve(undefined), 5000); })]);
      const took = performance.now() - started;
      expect({ ended: r !== undefined, code: r?.code, connects: connects.length }, r?.stderr).toEqual({ ended: true, code: 6, connects: 2 });
      expect(connects[0]).toBe('CONNECT api.example.test:443 HTTP/1.1');
      expect(took).toBeLessThan(2000);
      const closed = `${what}: the proxy ${proxyUrl} closed the connection without answering the CONNECT for https://api.example.test`;
      expect(r!.stderr.trim().split('\n')).toEqual([
        expect.stringMatching(new RegExp(`^warning: ${closed.replace(/[/.?]/g, '\\$&')}; retrying in \\d\\.\\d s \\(retry 1 of 1\\)$`)),
        `svc: error: ${closed} (gave up after 2 tries); check HTTPS_PROXY/HTTP_PROXY and NO_PROXY, or ask whoever runs the proxy`,
      ]);
      expect(r!.stdout).toBe('');
    } finally {
      clearTimeout(guard);
      const down = new Promise((resolve) => proxy.close(resolve));
      for (const s of sockets) s.destroy();
      await Promise.all([down, ran]);
    }
  });
});

describe.concurrent('hostile text from the service', () => {
  const title = '\u001b]0;owned\u0007\u001b[2J\u001b[31mSQL\u001b[0m inj\u202eection\r\u001b]8;;https://evil.example\u0007here\u001b]8;;\u0007\b';
  const data = { issues: [{ id: 'iss_1', generatedTitle: title, language: 'js\u0007' }], totalCount: 1 };

  it('is cleaned in tables and CSV on a terminal-less table run, kept byte-exact in JSON', async () => {
    const server = await startFakeServer();
    server.stub(READ_PATH, [{ kind: 'ok', json: data }]);
    const table = await runCli([...READ, '-o', 'table', '--columns', 'id,generatedTitle,language'], { env: env(server) });
    const json = await runCli([...READ, '-o', 'json'], { env: env(server) });
    const ndjson = await runCli([...READ, '-o', 'ndjson'], { env: env(server) });
    await server.close();
    expect(table.code).toBe(0);
    expect(table.stdout).toContain('SQL injectionhere');
    expect(table.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/);
    expect(json.stdout).toBe(JSON.stringify(data) + '\n');
    expect(JSON.parse(json.stdout).issues[0].generatedTitle).toBe(title);
    expect(ndjson.stdout).toBe(JSON.stringify(data.issues[0]) + '\n');
  });
});
