/**
 * The one fake server for tests: node:http (or https) on 127.0.0.1, port 0. Scripted replies per
 * path, every request recorded, and a check that fails the test on stubs never used or requests
 * nobody stubbed (gh's httpmock registry, for HTTP over a real socket).
 *
 *   const fake = useFakeServer();                       // started once per file, verified after each test
 *   fake.stub('/api/v1/orgs/list', { json: [{ id: 'org_1' }] });
 *   fake.stub('/api/v1/issues/search', [{ status: 503 }, { kind: 'reset' }, { json: { issues: [] } }]);
 *   const r = await runCli(['orgs', 'list'], { env: fake.env });
 *   expect(fake.requests[0].body).toEqual({});
 *
 * A list of replies is used one per request, in order; the last one repeats.
 */
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { MockAgent } from 'undici';
import { afterEach, beforeEach } from 'vitest';
import { perFile } from './per-file.js';

export const FAKE_TOKEN_ID = 'fake-token-id-0001';
export const FAKE_TOKEN_SECRET = 'fake-token-secret-very-secret-0001';

export type Reply =
  /** An answer: 200 `{ ok: true }` unless told otherwise; `text` is sent as is (content-type `type`, default text/plain). */
  | { kind?: 'ok' | 'status'; status?: number; json?: unknown; text?: string; type?: string; headers?: Record<string, string>; delayMs?: number }
  /** Read the request, never answer. */
  | { kind: 'hang' }
  /** Read the request, then destroy the connection without a byte of answer. */
  | { kind: 'reset' }
  /** Promise 1000 bytes, send a few, close the connection. */
  | { kind: 'truncated' }
  /** 200 with a body that is not JSON (an HTML login page by default). */
  | { kind: 'invalid-json'; text?: string; type?: string }
  /** Headers at once, then one byte every `everyMs`, never finishing. */
  | { kind: 'slow-body'; everyMs: number }
  /** A body that echoes the request's headers back (a server leaking the token). */
  | { kind: 'echo-headers'; status?: number }
  /** Decide per request: return a reply, or answer on `res` yourself and return nothing. */
  | ((req: FakeRequest, res: ServerResponse) => Reply | void | Promise<Reply | void>);

export interface FakeRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  raw: string;
  /** The body parsed as JSON; the raw text when it is not JSON; undefined when empty. */
  body: any;
  /** The status answered (undefined while unanswered, or for hang/reset). */
  status?: number;
  /** The client closed the connection before the answer was finished (Ctrl-C, timeouts). */
  clientHungUp: boolean;
}

export interface FakeServerOptions {
  tls?: { key: string; cert: string };
  /** What paths without a stub get. Without it they get 501 and `verify()` fails naming them. */
  fallback?: Reply;
  /** Require these token headers; other requests get 401 `{ error: 'invalid token' }`. */
  token?: { id: string; secret: string };
  /**
   * No socket: the same stubs answered in-process by an undici MockAgent (`dispatcher`, to pass as
   * `runCli(argv, { env: fake.env, dispatcher: fake.dispatcher })`), for flag -> request -> render
   * tests where a server adds nothing. Only answers (`{ status, json, text, headers }`, and functions
   * returning one at once) work here: hangs, resets, slow or cut bodies, delays and TLS need the server.
   */
  mock?: boolean;
}

export interface StubOptions {
  /** Do not fail `verify()` when this stub is never used. */
  optional?: boolean;
}

export interface FakeServer {
  url: string;
  /** 0 with `mock`. */
  port: number;
  /** With `mock`: the MockAgent that answers instead of a server (give it to runCli/testHost). */
  dispatcher?: MockAgent;
  /** SVC_BASE_URL plus the fake token (the one `token` checks, when given). */
  env: Record<string, string>;
  requests: FakeRequest[];
  /** Replies for a path (exact match, e.g. `/api/v1/issues/search`); replaces an earlier stub of it. */
  stub(path: string, reply: Reply | Reply[], opts?: StubOptions): void;
  /** Requests to a path. */
  to(path: string): FakeRequest[];
  hits(path: string): number;
  /** Resolves when `n` requests in all have arrived. */
  waitForRequests(n: number): Promise<void>;
  /** Resolves when the client of some request has hung up. */
  waitForHangUp(): Promise<FakeRequest>;
  /** Throws naming stubs never used and requests to paths nobody stubbed. */
  verify(): void;
  /** Forget stubs and requests. */
  reset(): void;
  /**
   * Start a test: remember the stubs there are now and forget the requests. `endTest()` then
   * checks only the stubs made since, and puts the earlier ones back (useFakeServer does both).
   */
  beginTest(): void;
  endTest(): void;
  close(): Promise<void>;
}

interface Stub { replies: Reply[]; used: number; optional: boolean }

/** The headers of a MockAgent request as node's http presents them: lower-case names. */
function lowerHeaders(h: unknown): IncomingMessage['headers'] {
  const out: IncomingMessage['headers'] = {};
  const put = (k: string, v: unknown) => { out[k.toLowerCase()] = String(v); };
  if (Array.isArray(h)) for (let i = 0; i + 1 < h.length; i += 2) put(String(h[i]), h[i + 1]);
  else if (h && typeof h === 'object') for (const [k, v] of Object.entries(h)) put(k, v);
  return out;
}

export async function startFakeServer(opts: FakeServerOptions = {}): Promise<FakeServer> {
  const stubs = new Map<string, Stub>();
  const unstubbed: string[] = [];
  const requests: FakeRequest[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<ReturnType<typeof setInterval>>();
  let waiters: Array<() => unknown> = [];
  const notify = () => { for (const w of waiters) w(); };

  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try { body = raw ? JSON.parse(raw) : undefined; } catch { body = raw; }
      const rec: FakeRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, raw, body, clientHungUp: false };
      res.on('finish', () => { rec.status = res.statusCode; });
      res.on('close', () => { if (!res.writableFinished) { rec.clientHungUp = true; notify(); } });
      void answer(pick(rec), rec, req, res);
    });
  };

  const answer = async (r: Reply, rec: FakeRequest, req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (typeof r === 'function') {
      const next = await r(rec, res);
      if (next) await answer(next, rec, req, res);
      return;
    }
    switch (r.kind) {
      case undefined: case 'ok': case 'status': {
        const send = () => {
          const text = r.text ?? JSON.stringify(r.json ?? (r.status && r.status >= 400 ? { error: `fake failure ${r.status}` } : { ok: true }));
          res.writeHead(r.status ?? 200, { 'content-type': r.type ?? (r.text !== undefined ? 'text/plain' : 'application/json'), ...r.headers });
          res.end(text);
        };
        if (r.delayMs) setTimeout(send, r.delayMs); else send();
        return;
      }
      case 'hang':
        return;
      case 'reset':
        req.socket.destroy();
        return;
      case 'truncated':
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
        res.write('{"issues": [{"id": "is');
        setTimeout(() => req.socket.destroy(), 20);
        return;
      case 'invalid-json':
        res.writeHead(200, { 'content-type': r.type ?? 'text/html' });
        res.end(r.text ?? '<html><body>Sign in to the proxy</body></html>');
        return;
      case 'slow-body': {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{');
        const t = setInterval(() => res.write(' '), r.everyMs);
        timers.add(t);
        res.on('close', () => { clearInterval(t); timers.delete(t); });
        return;
      }
      case 'echo-headers':
        res.writeHead(r.status ?? 200, { 'content-type': 'application/json' });
        // A success carries no error key (svc refuses one that does: issue 21).
        res.end(JSON.stringify({ [(r.status ?? 200) >= 400 ? 'error' : 'message']: `bad request; you sent ${JSON.stringify(rec.headers)}`, headers: rec.headers }));
        return;
    }
  };

  /** The reply for a request, as the handler above picks it (and records the request). */
  const pick = (rec: FakeRequest): Reply => {
    requests.push(rec);
    notify();
    if (opts.token && (rec.headers['x-service-api-token-id'] !== opts.token.id || rec.headers['x-service-api-token-secret'] !== opts.token.secret)) {
      return { status: 401, json: { error: 'invalid token' } };
    }
    const stub = stubs.get(rec.path);
    if (stub) return stub.replies[Math.min(stub.used++, stub.replies.length - 1)];
    if (opts.fallback) return opts.fallback;
    unstubbed.push(`${rec.method} ${rec.path}`);
    return { status: 501, json: { error: `the fake server has no stub for ${rec.path}` } };
  };

  /** In mock mode: a reply as a MockAgent answer (functions called at once; socket-level kinds refused). */
  const mockAnswer = (r: Reply, rec: FakeRequest): { statusCode: number; data: string; responseOptions: { headers: Record<string, string> } } => {
    if (typeof r === 'function') {
      const next = r(rec, undefined as unknown as ServerResponse);
      if (!next || next instanceof Promise) throw new Error('fake server (mock): a function reply must return a reply at once');
      return mockAnswer(next, rec);
    }
    if (r.kind === 'invalid-json') {
      rec.status = 200;
      return { statusCode: 200, data: r.text ?? '<html><body>Sign in to the proxy</body></html>', responseOptions: { headers: { 'content-type': r.type ?? 'text/html' } } };
    }
    if ((r.kind !== undefined && r.kind !== 'ok' && r.kind !== 'status') || ('delayMs' in r && r.delayMs)) {
      throw new Error(`fake server (mock): a '${r.kind ?? 'delayed'}' reply needs a real socket: start the fake server without mock`);
    }
    const status = r.status ?? 200;
    rec.status = status;
    const text = r.text ?? JSON.stringify(r.json ?? (r.status && r.status >= 400 ? { error: `fake failure ${r.status}` } : { ok: true }));
    return { statusCode: status, data: text, responseOptions: { headers: { 'content-type': r.type ?? (r.text !== undefined ? 'text/plain' : 'application/json'), ...r.headers } } };
  };

  let server: Server | undefined;
  let agent: MockAgent | undefined;
  let port = 0;
  let url: string;
  if (opts.mock) {
    if (opts.tls) throw new Error('fake server: { mock: true } has no socket, so no TLS: start it without mock');
    url = 'https://fake.svc.test';
    agent = new MockAgent();
    agent.disableNetConnect();
    // Every in-process run makes its own client on this one agent, and each client listens to the
    // agent's connect and disconnect (src/http/client.ts): more than node's default of 10 is expected
    // here (a user's process has one client per dispatcher), not a leak worth node's warning.
    agent.setMaxListeners(0);
    agent.get(url).intercept({ path: () => true, method: () => true }).reply((o) => {
      const raw = o.body === undefined || o.body === null ? '' : Buffer.isBuffer(o.body) ? o.body.toString('utf8') : String(o.body);
      let body: unknown;
      try { body = raw ? JSON.parse(raw) : undefined; } catch { body = raw; }
      const rec: FakeRequest = { method: o.method, path: o.path, headers: lowerHeaders(o.headers), raw, body, clientHungUp: false };
      return mockAnswer(pick(rec), rec);
    }).persist();
  } else {
    server = opts.tls ? createHttpsServer({ key: opts.tls.key, cert: opts.tls.cert }, handler) : createHttpServer(handler);
    server.keepAliveTimeout = 30_000;
    server.on('connection', (s: Socket) => { sockets.add(s); s.on('close', () => sockets.delete(s)); });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
    url = `${opts.tls ? 'https' : 'http'}://127.0.0.1:${port}`;
  }

  const waitFor = <T>(check: () => T | undefined): Promise<T> => new Promise((resolve) => {
    const tryNow = () => {
      const v = check();
      if (v === undefined) return false;
      waiters = waiters.filter((w) => w !== tryNow);
      resolve(v);
      return true;
    };
    if (!tryNow()) waiters.push(tryNow);
  });

  const token = opts.token ?? { id: FAKE_TOKEN_ID, secret: FAKE_TOKEN_SECRET };
  let before = new Map<string, Stub>();
  const problems = (only?: Map<string, Stub>) => [
    ...[...stubs].filter(([p, s]) => s.used === 0 && !s.optional && only?.get(p) !== s).map(([p]) => `stub for ${p} was never used`),
    ...unstubbed.map((r) => `request with no stub: ${r}`),
  ];
  return {
    url,
    port,
    ...(agent ? { dispatcher: agent } : {}),
    env: { SVC_BASE_URL: url, SVC_API_TOKEN_ID: token.id, SVC_API_TOKEN_SECRET: token.secret },
    requests,
    stub: (path, reply, o = {}) => { stubs.set(path, { replies: Array.isArray(reply) ? reply : [reply], used: 0, optional: !!o.optional }); },
    to: (path) => requests.filter((r) => r.path === path),
    hits: (path) => requests.filter((r) => r.path === path).length,
    waitForRequests: (n) => waitFor(() => (requests.length >= n ? true : undefined)).then(() => undefined),
    waitForHangUp: () => waitFor(() => requests.find((r) => r.clientHungUp)),
    verify() {
      const found = problems();
      if (found.length) throw new Error(`fake server: ${found.join('; ')}`);
    },
    reset() { stubs.clear(); unstubbed.length = 0; requests.length = 0; },
    beginTest() { before = new Map(stubs); unstubbed.length = 0; requests.length = 0; },
    endTest() {
      const found = problems(before);
      stubs.clear();
      for (const [p, s] of before) stubs.set(p, s);
      unstubbed.length = 0;
      if (found.length) throw new Error(`fake server: ${found.join('; ')}`);
    },
    close: () => new Promise((r) => {
      for (const t of timers) clearInterval(t);
      for (const s of sockets) s.destroy();
      if (server) server.close(() => r());
      else void agent!.close().then(() => r());
    }),
  };
}

/**
 * A fake server for the whole test file, started before the first test. Each test sees only its own
 * requests; after it, a stub it made that was never used, or a request nobody stubbed, fails it, and
 * its stubs are dropped. Stubs made in beforeAll stay for every test (and are not required to be used).
 * Not for concurrent tests (they would share `requests`): give those a startFakeServer() each.
 */
export function useFakeServer(opts: FakeServerOptions = {}): FakeServer {
  const server = perFile('useFakeServer()', () => startFakeServer(opts), (s) => s.close());
  beforeEach(() => { server.beginTest(); });
  afterEach(() => { server.endTest(); });
  return server;
}
