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
}

export interface StubOptions {
  /** Do not fail `verify()` when this stub is never used. */
  optional?: boolean;
}

export interface FakeServer {
  url: string;
  port: number;
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
      requests.push(rec);
      res.on('finish', () => { rec.status = res.statusCode; });
      res.on('close', () => { if (!res.writableFinished) { rec.clientHungUp = true; notify(); } });
      notify();
      if (opts.token && (req.headers['x-service-api-token-id'] !== opts.token.id || req.headers['x-service-api-token-secret'] !== opts.token.secret)) {
        return void answer({ status: 401, json: { error: 'invalid token' } }, rec, req, res);
      }
      const stub = stubs.get(rec.path);
      let reply: Reply;
      if (stub) reply = stub.replies[Math.min(stub.used++, stub.replies.length - 1)];
      else if (opts.fallback) reply = opts.fallback;
      else {
        unstubbed.push(`${rec.method} ${rec.path}`);
        reply = { status: 501, json: { error: `the fake server has no stub for ${rec.path}` } };
      }
      void answer(reply, rec, req, res);
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

  const server: Server = opts.tls ? createHttpsServer({ key: opts.tls.key, cert: opts.tls.cert }, handler) : createHttpServer(handler);
  server.keepAliveTimeout = 30_000;
  server.on('connection', (s: Socket) => { sockets.add(s); s.on('close', () => sockets.delete(s)); });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  const url = `${opts.tls ? 'https' : 'http'}://127.0.0.1:${port}`;

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
      server.close(() => r());
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
