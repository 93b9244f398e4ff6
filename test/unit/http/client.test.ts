/** The client in-process against a misbehaving loopback server: retries, timeouts, aborts, verbose output. */
import { afterEach, beforeEach, describe, expect, it, type TestContext } from 'vitest';
import { createClient, type ClientOptions } from '../../../src/http/client.js';
import { RawAnswer } from '../../../src/http/raw-answer.js';
import { ConnectionError, RateLimitedError, ResponseError, ServerError, TimeoutError, UnauthorizedError } from '../../../src/http/api-errors.js';
import { InterruptedError } from '../../../src/core/errors.js';
import { REDACTED } from '../../../src/http/redact.js';
import { startFakeServer, type FakeServer } from '../../helpers/fake-server.js';

const P = '/api/v1/issues/search';
const SECRET = 'sec-9f8e7d6c5b4a';
let server: FakeServer;
let waits: number[];
let notices: string[];
let verbose: string[];

/** For the tests that run one after the other: a fresh server, and fresh records, per test. */
function serverPerTest(): void {
  beforeEach(async () => {
    server = await startFakeServer();
    waits = [];
    notices = [];
    verbose = [];
  });
  afterEach(async () => { await server.close(); });
}

function client(over: Partial<ClientOptions> = {}) {
  return createClient({
    baseUrl: server.url, tokenId: 'tid-1234', tokenSecret: SECRET, userAgent: 'svc/test',
    timeoutSec: 0.5, retries: 2, env: {}, signal: new AbortController().signal,
    now: () => performance.now(), random: () => 0.5,
    sleep: async (ms) => { waits.push(ms); },
    notice: (l) => notices.push(l), verbose: (l) => verbose.push(l),
    ...over,
  });
}

async function failure(p: Promise<unknown>): Promise<Error> {
  try { await p; } catch (e) { return e as Error; }
  throw new Error('expected a failure');
}

describe('retries', () => {
  serverPerTest();

  it('sends the token headers and the body, and returns the JSON', async () => {
    server.stub(P, [{ kind: 'ok', json: { issues: [1] } }]);
    const c = client();
    expect(await c.call(P, { organizationId: 'o' }, { safe: true })).toEqual({ issues: [1] });
    await c.close();
    const r = server.requests[0];
    expect(r.method).toBe('POST');
    expect(r.headers['x-service-api-token-id']).toBe('tid-1234');
    expect(r.headers['x-service-api-token-secret']).toBe(SECRET);
    expect(r.headers['user-agent']).toBe('svc/test');
    expect(JSON.parse(r.raw)).toEqual({ organizationId: 'o' });
  });

  it('raw: a 2xx answer comes back as its bytes (a byte order mark skipped), parsed only when asked, failing as a call would', async () => {
    const text = '{"issues":[{"id":"ü"}],"totalCount":1}';
    server.stub(P, [
      { kind: 'invalid-json', text: `\ufeff${text}`, type: 'application/json' },
      { kind: 'invalid-json', text: '<html>', type: 'text/html' },
      { kind: 'status', status: 404 },
    ]);
    const c = client();
    const raw = await c.call(P, {}, { safe: true, raw: true });
    expect(raw).toBeInstanceOf(RawAnswer);
    expect((raw as RawAnswer).bytes.toString('utf8')).toBe(text);
    expect((raw as RawAnswer).parse()).toEqual(JSON.parse(text));
    // Not JSON: the same error as without raw, when parsed.
    const html = (await c.call(P, {}, { safe: true, raw: true })) as RawAnswer;
    expect(() => html.parse()).toThrow(/not valid JSON \(text\/html, 6 characters, starts "<html>"\)/);
    // Failures are never raw.
    await expect(c.call(P, {}, { safe: false, raw: true })).rejects.toMatchObject({ status: 404 });
    await c.close();
  });

  it('a read survives 503, 502, reset and 429 in a row and is sent retries+1 times at most', async () => {
    server.stub(P, [{ kind: 'status', status: 503 }, { kind: 'reset' }, { kind: 'ok', json: { ok: 1 } }]);
    const c = client();
    expect(await c.call(P, {}, { safe: true })).toEqual({ ok: 1 });
    expect(server.hits(P)).toBe(3);
    expect(waits).toEqual([375, 750]);
    expect(notices).toHaveLength(2);
    expect(notices[0]).toMatch(/HTTP 503.*retrying in 0\.4 s \(retry 1 of 2\)/);
    await c.close();
  });

  it('a read gives up after --retries extra tries with the last error', async () => {
    server.stub(P, [{ kind: 'status', status: 500, json: { error: 'boom' } }]);
    const c = client({ retries: 3 });
    const e = await failure(c.call(P, {}, { safe: true }));
    expect(e).toBeInstanceOf(ServerError);
    expect(e.message).toMatch(/HTTP 500: boom \(gave up after 4 tries\)/);
    expect(server.hits(P)).toBe(4);
    await c.close();
  });

  it('--retries 0 sends once', async () => {
    server.stub(P, [{ kind: 'status', status: 503 }]);
    const c = client({ retries: 0 });
    expect(await failure(c.call(P, {}, { safe: true }))).toBeInstanceOf(ServerError);
    expect(server.hits(P)).toBe(1);
    await c.close();
  });

  it('honours Retry-After in seconds and as an HTTP date, capped at 60 s', async () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    server.stub(P, [
      { kind: 'status', status: 429, headers: { 'retry-after': '1' } },
      { kind: 'status', status: 503, headers: { 'retry-after': 'Wed, 01 Jan 2025 00:00:07 GMT' } },
      { kind: 'status', status: 429, headers: { 'retry-after': '3600' } },
      { kind: 'ok' },
    ]);
    const c = client({ retries: 3, wallClock: () => now });
    await c.call(P, {}, { safe: true });
    expect(waits).toEqual([1000, 7000, 60_000]);
    await c.close();
  });

  it('a mutation is retried on 429 (refused before any work)', async () => {
    server.stub(P, [{ kind: 'status', status: 429, headers: { 'retry-after': '0' } }, { kind: 'ok' }]);
    const c = client();
    await c.call(P, {}, { safe: false });
    expect(server.hits(P)).toBe(2);
    await c.close();
  });

  it('a mutation is retried when the connection was refused (it never left)', async () => {
    const port = server.port;
    await server.close();
    const c = createClient({
      baseUrl: `http://127.0.0.1:${port}`, tokenId: 't', tokenSecret: SECRET, userAgent: 'x', timeoutSec: 1, retries: 2, env: {},
      signal: new AbortController().signal, now: () => 0, random: () => 0, sleep: async (ms) => { waits.push(ms); }, notice: (l) => notices.push(l),
    });
    const e = await failure(c.call(P, {}, { safe: false }));
    expect(e).toBeInstanceOf(ConnectionError);
    expect((e as ConnectionError).neverSent).toBe(true);
    expect(e.message).toMatch(/cannot reach http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\) \(gave up after 3 tries\)/);
    expect(notices).toHaveLength(2);
    await c.close();
    server = await startFakeServer();
  });

  it('never retries 4xx', async () => {
    for (const status of [400, 401, 403, 404, 422]) {
      server.stub(P, [{ kind: 'status', status }]);
      const before = server.hits(P);
      const c = client();
      await failure(c.call(P, {}, { safe: true }));
      expect(server.hits(P) - before, String(status)).toBe(1);
      await c.close();
    }
  });
});

describe('bad responses', () => {
  serverPerTest();

  it('invalid JSON is a ResponseError (exit 7) naming the type and the start', async () => {
    server.stub(P, [{ kind: 'invalid-json' }]);
    const c = client();
    const e = await failure(c.call(P, {}, { safe: true }));
    expect(e).toBeInstanceOf(ResponseError);
    expect((e as ResponseError).exitCode).toBe(7);
    expect(e.message).toMatch(/not valid JSON \(text\/html, \d+ characters, starts "<html>/);
    expect(server.hits(P)).toBe(1);
    await c.close();
  });

  it('JSON cut short but complete at the HTTP level is a ResponseError', async () => {
    server.stub(P, [{ kind: 'invalid-json', text: '{"issues": [', type: 'application/json' }]);
    const c = client();
    expect(await failure(c.call(P, {}, { safe: true }))).toBeInstanceOf(ResponseError);
    await c.close();
  });

  it('a redirect is not followed (the token stays with the base URL)', async () => {
    server.stub(P, [{ kind: 'status', status: 302, text: '', headers: { location: 'https://elsewhere.example/steal' } }]);
    const c = client();
    const e = await failure(c.call(P, {}, { safe: true }));
    expect(e).toBeInstanceOf(ResponseError);
    expect(e.message).toMatch(/unexpected HTTP 302 to https:\/\/elsewhere\.example\/steal/);
    expect(server.requests).toHaveLength(1);
    await c.close();
  });

  it('401 is an auth error with the service message', async () => {
    server.stub(P, [{ kind: 'status', status: 401, json: { error: 'token expired' } }]);
    const c = client();
    const e = await failure(c.call(P, {}, { safe: true }));
    expect(e).toBeInstanceOf(UnauthorizedError);
    expect(e.message).toBe('issues/search failed: HTTP 401: token expired');
    await c.close();
  });

  it('429 on the last try is a RateLimitedError: exit 6 (may work later), "rate-limited: retry later" with the Retry-After', async () => {
    server.stub(P, [{ kind: 'status', status: 429, headers: { 'retry-after': '0' } }]);
    const c = client({ retries: 1 });
    const e = await failure(c.call(P, {}, { safe: true }));
    expect(e).toBeInstanceOf(RateLimitedError);
    expect((e as RateLimitedError).exitCode).toBe(6);
    expect(e.message).toMatch(/^issues\/search: rate-limited: retry later \(HTTP 429, Retry-After: 0 s\)/);
    await c.close();
  });
});

describe('interruption', () => {
  serverPerTest();

  it('aborting ends the request at once, the server sees the connection close, and nothing is retried', async () => {
    server.stub(P, [{ kind: 'hang' }]);
    const ac = new AbortController();
    const c = client({ signal: ac.signal, timeoutSec: 30 });
    const pending = failure(c.call(P, {}, { safe: true }));
    await server.waitForRequests(1);
    ac.abort('SIGINT');
    const e = await pending;
    expect(e).toBeInstanceOf(InterruptedError);
    expect((e as InterruptedError).exitCode).toBe(130);
    const hung = await server.waitForHangUp();
    expect(hung.path).toBe(P);
    expect(server.hits(P)).toBe(1);
    await c.close();
  });

  it('SIGTERM during a retry wait ends with 143', async () => {
    server.stub(P, [{ kind: 'status', status: 503 }]);
    const ac = new AbortController();
    const c = client({
      signal: ac.signal,
      sleep: (_ms, signal) => new Promise((_r, reject) => { ac.abort('SIGTERM'); reject(signal?.reason); }),
    });
    const e = await failure(c.call(P, {}, { safe: true }));
    expect(e).toBeInstanceOf(InterruptedError);
    expect((e as InterruptedError).exitCode).toBe(143);
    expect(server.hits(P)).toBe(1);
    await c.close();
  });
});

describe('--verbose', () => {
  serverPerTest();

  it('shows method, URL, status, timing, headers and bodies, with both token headers redacted', async () => {
    server.stub(P, [{ kind: 'ok', json: { issues: [] }, headers: { 'set-cookie': 'session=abc', 'x-request-id': 'r1' } }]);
    const c = client();
    await c.call(P, { organizationId: 'o', pat: 'my-personal-token' }, { safe: true });
    const text = verbose.join('\n');
    expect(text).toMatch(new RegExp(`^> POST ${server.url}${P}`));
    expect(text).toContain(`> x-service-api-token-id: ${REDACTED}`);
    expect(text).toContain(`> x-service-api-token-secret: ${REDACTED}`);
    expect(text).toContain('> {"organizationId":"o","pat":"[redacted]"}');
    expect(text).toMatch(/< HTTP 200 \(\d+ ms\)/);
    expect(text).toContain('< x-request-id: r1');
    expect(text).toContain(`< set-cookie: ${REDACTED}`);
    expect(text).toContain('< {"issues":[]}');
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('tid-1234');
    expect(text).not.toContain('my-personal-token');
    await c.close();
  });

  it('cuts long bodies and reports failures with their timing', async () => {
    server.stub(P, [{ kind: 'ok', json: { big: 'x'.repeat(10_000) } }]);
    const c = client();
    await c.call(P, {}, { safe: true });
    expect(verbose.join('\n')).toMatch(/\.\.\. \(\d+ more characters\)/);
    server.stub(P, [{ kind: 'reset' }]);
    await failure(c.call(P, {}, { safe: false }));
    expect(verbose.join('\n')).toMatch(/< failed after \d+ ms: issues\/search: the connection was closed/);
    await c.close();
  });
});

/**
 * The tests whose wait is a real timeout, side by side: each with a server, a client and records of
 * its own (the shared ones above belong to the tests that run one after the other).
 */
async function own(onTestFinished: TestContext['onTestFinished']) {
  const srv = await startFakeServer();
  // The test's own hook (side by side, the global onTestFinished may belong to another test).
  onTestFinished(() => srv.close());
  const seen: string[] = [];
  const make = (more: Partial<ClientOptions> = {}) => createClient({
    baseUrl: srv.url, tokenId: 'tid-1234', tokenSecret: SECRET, userAgent: 'svc/test',
    timeoutSec: 0.5, retries: 2, env: {}, signal: new AbortController().signal,
    now: () => performance.now(), random: () => 0.5, sleep: async () => {},
    notice: (l) => seen.push(l), verbose: () => {},
    ...more,
  });
  return { server: srv, notices: seen, client: make };
}

describe.concurrent('timeouts, and faults after which a mutation is not sent again', () => {
  it.for([
    ['503', { kind: 'status', status: 503 } as const, ServerError],
    ['a reset connection', { kind: 'reset' } as const, ConnectionError],
    ['a truncated body', { kind: 'truncated' } as const, ConnectionError],
    ['no answer (headers timeout)', { kind: 'hang' } as const, TimeoutError],
    ['a 500 status', { kind: 'status', status: 500 } as const, ServerError],
    ['a body slower than the timeout', { kind: 'slow-body', everyMs: 50 } as const, TimeoutError],
  ] as const)('a mutation is never sent twice after %s', async ([, fault, cls], { onTestFinished }) => {
    const { server, notices, client } = await own(onTestFinished);
    server.stub(P, [fault, { kind: 'ok' }]);
    // A short --timeout: what is checked is what happens after it, not its length (but long enough
    // for the server, in this same busy process, to have read the request first).
    const c = client({ timeoutSec: 0.3 });
    const e = await failure(c.call(P, { name: 'x' }, { safe: false }));
    expect(e).toBeInstanceOf(cls);
    expect(server.hits(P)).toBe(1);
    expect(notices).toEqual([]);
    expect(e.message + (e as { hint?: string }).hint).toMatch(/may (still )?have (reached the service and )?taken effect|may or may not have been made/);
    await c.close();
  });

  it.for([
    ['no answer', { kind: 'hang' } as const, 1],
    ['a body slower than the timeout', { kind: 'slow-body', everyMs: 50 } as const, 2],
  ] as const)('a read is retried after %s (server counts retries+1)', async ([, fault, retries], { onTestFinished }) => {
    const { server, client } = await own(onTestFinished);
    server.stub(P, [fault]);
    const c = client({ retries, timeoutSec: 0.3 });
    const e = await failure(c.call(P, {}, { safe: true }));
    expect(e).toBeInstanceOf(TimeoutError);
    expect(server.hits(P)).toBe(retries + 1);
    await c.close();
  });

  it('headers: names the limit and --timeout', async ({ onTestFinished }) => {
    const { server, client } = await own(onTestFinished);
    server.stub(P, [{ kind: 'hang' }]);
    const c = client({ retries: 0, timeoutSec: 0.3 });
    const e = await failure(c.call(P, {}, { safe: true })) as TimeoutError;
    expect(e.phase).toBe('headers');
    expect(e.message).toMatch(/no response from http:\/\/127\.0\.0\.1:\d+ within 0\.3 s \(--timeout 0\.3\)/);
    expect(e.hint).toMatch(/raise --timeout/);
    await c.close();
  });

  it('body: a drip that never stops for longer than the idle timer is still cut at the deadline', async ({ onTestFinished }) => {
    const { server, client } = await own(onTestFinished);
    server.stub(P, [{ kind: 'slow-body', everyMs: 100 }]);
    const c = client({ retries: 0 });
    const started = Date.now();
    const e = await failure(c.call(P, {}, { safe: true })) as TimeoutError;
    expect(e).toBeInstanceOf(TimeoutError);
    expect(e.phase).toBe('body');
    expect(e.message).toMatch(/response body .* did not arrive within 0\.5 s \(--timeout 0\.5\)/);
    expect(Date.now() - started).toBeLessThan(5000);
    await c.close();
  });
});
