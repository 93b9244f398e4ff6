/**
 * A loopback node:http server that misbehaves on purpose. Each path gets a plan: a list of
 * faults used one per request, the last one repeating. It records every request and whether the
 * client hung up before the answer was finished (Ctrl-C, timeouts).
 */
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';

export type Fault =
  /** 200 with JSON (default `{ ok: true }`), optionally after a delay. */
  | { kind: 'ok'; json?: unknown; delayMs?: number; headers?: Record<string, string> }
  /** Any status with a body (JSON or text) and headers, e.g. 503 with Retry-After. */
  | { kind: 'status'; status: number; json?: unknown; text?: string; headers?: Record<string, string> }
  /** Read the request, never answer. */
  | { kind: 'hang' }
  /** Read the request, then destroy the connection without a byte of answer. */
  | { kind: 'reset' }
  /** Promise 1000 bytes, send a few, close the connection. */
  | { kind: 'truncated' }
  /** 200 with a body that is not JSON (HTML by default), or JSON cut short but complete at the HTTP level. */
  | { kind: 'invalid-json'; text?: string; type?: string }
  /** Headers at once, then one byte every `everyMs` (never finishing within a short timeout). */
  | { kind: 'slow-body'; everyMs: number }
  /** 200 whose body echoes the request's headers (a server leaking the token back). */
  | { kind: 'echo-headers'; status?: number };

export interface FaultRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  raw: string;
  /** The client closed the connection before the answer was finished. */
  clientHungUp: boolean;
}

export interface FaultServer {
  url: string;
  port: number;
  requests: FaultRequest[];
  /** Faults for a path, one per request in order; the last repeats. */
  plan(path: string, faults: Fault[]): void;
  /** Requests that reached a path. */
  hits(path: string): number;
  /** Resolves when `n` requests in all have arrived. */
  waitForRequests(n: number): Promise<void>;
  /** Resolves when the client of some request has hung up. */
  waitForHangUp(): Promise<FaultRequest>;
  close(): Promise<void>;
}

export async function startFaultServer(opts: { tls?: { key: string; cert: string } } = {}): Promise<FaultServer> {
  const plans = new Map<string, Fault[]>();
  const used = new Map<string, number>();
  const requests: FaultRequest[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<ReturnType<typeof setInterval>>();
  let waiters: Array<() => unknown> = [];
  const notify = () => { for (const w of waiters) w(); };

  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '';
      const rec: FaultRequest = { method: req.method ?? '', path, headers: req.headers, raw: Buffer.concat(chunks).toString('utf8'), clientHungUp: false };
      requests.push(rec);
      res.on('close', () => { if (!res.writableFinished) { rec.clientHungUp = true; notify(); } });
      const plan = plans.get(path) ?? [{ kind: 'ok' }];
      const n = used.get(path) ?? 0;
      used.set(path, n + 1);
      notify();
      answer(plan[Math.min(n, plan.length - 1)], rec, req, res);
    });
  };

  const answer = (f: Fault, rec: FaultRequest, req: IncomingMessage, res: ServerResponse) => {
    switch (f.kind) {
      case 'ok': {
        const send = () => { res.writeHead(200, { 'content-type': 'application/json', ...f.headers }); res.end(JSON.stringify(f.json ?? { ok: true })); };
        if (f.delayMs) setTimeout(send, f.delayMs); else send();
        return;
      }
      case 'status':
        res.writeHead(f.status, { 'content-type': f.text !== undefined ? 'text/plain' : 'application/json', ...f.headers });
        res.end(f.text ?? JSON.stringify(f.json ?? { error: `fault ${f.status}` }));
        return;
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
        res.writeHead(200, { 'content-type': f.type ?? 'text/html' });
        res.end(f.text ?? '<html><body>Sign in to the proxy</body></html>');
        return;
      case 'slow-body': {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{');
        const t = setInterval(() => res.write(' '), f.everyMs);
        timers.add(t);
        res.on('close', () => { clearInterval(t); timers.delete(t); });
        return;
      }
      case 'echo-headers':
        res.writeHead(f.status ?? 200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: `bad request; you sent ${JSON.stringify(rec.headers)}`, headers: rec.headers }));
        return;
    }
  };

  const server: Server = opts.tls ? createHttpsServer({ key: opts.tls.key, cert: opts.tls.cert }, handler) : createHttpServer(handler);
  server.on('connection', (s: Socket) => { sockets.add(s); s.on('close', () => sockets.delete(s)); });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;

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

  return {
    url: `${opts.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    port,
    requests,
    plan: (path, faults) => { plans.set(path, faults); used.set(path, 0); },
    hits: (path) => requests.filter((r) => r.path === path).length,
    waitForRequests: (n) => waitFor(() => (requests.length >= n ? true : undefined)).then(() => undefined),
    waitForHangUp: () => waitFor(() => requests.find((r) => r.clientHungUp)),
    close: () => new Promise((r) => {
      for (const t of timers) clearInterval(t);
      for (const s of sockets) s.destroy();
      server.close(() => r());
    }),
  };
}
