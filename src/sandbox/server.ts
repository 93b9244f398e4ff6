/**
 * HTTP plumbing of the sandbox (node's own http): routing by path, the two token headers, body
 * limits and parsing, JSON answers, faults and latency, and the loopback-only control endpoint.
 * Nothing a client sends can crash it: every failure becomes a status and an `{ error }` body.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { HttpError } from './http-error.js';
import { TOKEN_ID_HEADER as TOKEN_ID, TOKEN_SECRET_HEADER as TOKEN_SECRET } from '../http/headers.js';
import { jsonBytes } from './raw-json.js';
import { BufferPool } from '../http/buffer-pool.js';
import { AFTER_FAULTS, STATUS_FAULTS, checkFaults, pickFault, sendSpoiled, sendStatusFault, type Faults } from './faults.js';
import type { Route } from './router.js';
import type { Rng } from './prng.js';
import type { Store } from './state.js';

/** The client's token headers (src/http/headers.ts), as node's http presents them: lower case. */
const TOKEN_ID_HEADER = TOKEN_ID.toLowerCase();
const TOKEN_SECRET_HEADER = TOKEN_SECRET.toLowerCase();
const CONTROL_PREFIX = '/__sandbox/';

/** Requests per operation path: what a test needs to prove that a change was never sent twice. */
export interface RequestCount {
  /** API requests that arrived (faulted ones included). */
  received: number;
  /** Requests that reached the operation's handler, so a change may have been made. */
  handled: number;
  /** Requests answered with a fault before being handled (a status fault or a reset). */
  refused: number;
}

interface ServerConfig {
  routes: Map<string, Route>;
  requests: Map<string, RequestCount>;
  store: Store;
  tokenId: string;
  tokenSecret: string;
  faults: Faults;
  faultRng: Rng;
  maxBodyBytes: number;
  slowBodyMs: number;
  log?: (line: string) => void;
  /** Whether every issue's JSON has been made since start-up (health's `warmed`). */
  warmed?: () => boolean;
}

interface SandboxServer {
  server: Server;
  /** Timers of stalled responses, cleared on close. */
  timers: Set<NodeJS.Timeout>;
}

export function createSandboxServer(cfg: ServerConfig): SandboxServer {
  const timers = new Set<NodeJS.Timeout>();
  const server = createServer((req, res) => {
    const started = performance.now();
    res.on('finish', () => cfg.log?.(`${req.method} ${req.url} ${res.statusCode} ${Math.round(performance.now() - started)} ms`));
    handle(cfg, req, res, timers).catch((err: unknown) => {
      if (res.headersSent) { res.destroy(); return; }
      sendJson(res, 500, { error: `sandbox internal error: ${(err as Error)?.message ?? String(err)}` });
    });
  });
  // Requests node cannot even parse (bad request line, oversized headers): a plain 400, never a crash.
  server.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\nconnection: close\r\n\r\n{"error":"malformed HTTP request"}');
    else socket.destroy();
  });
  return { server, timers };
}

async function handle(cfg: ServerConfig, req: IncomingMessage, res: ServerResponse, timers: Set<NodeJS.Timeout>): Promise<void> {
  const path = pathOf(req.url);
  if (path.startsWith(CONTROL_PREFIX)) return control(cfg, req, res, path);
  const route = cfg.routes.get(path);
  if (!route) return reject(res, 404, `unknown path '${path}': every operation is POST /api/v1/<group>/<operation>`);
  if (req.method !== 'POST') return reject(res, 405, `method ${req.method} not allowed on ${path}: use POST`, { allow: 'POST' });

  let count = cfg.requests.get(path);
  if (!count) cfg.requests.set(path, (count = { received: 0, handled: 0, refused: 0 }));
  count.received++;
  const fault = pickFault(cfg.faults, cfg.faultRng);
  if (fault === 'reset') { count.refused++; req.socket.destroy(); return; }
  if (fault && STATUS_FAULTS.has(fault)) { count.refused++; req.resume(); sendStatusFault(res, fault); return; }
  if (cfg.faults.latencyMs > 0) await delay(cfg.faults.latencyMs, timers);
  if (res.destroyed) return;

  const id = req.headers[TOKEN_ID_HEADER];
  const secret = req.headers[TOKEN_SECRET_HEADER];
  if (!id || !secret) {
    return reject(res, 401, `missing ${!id ? TOKEN_ID : TOKEN_SECRET} header: send both token headers`);
  }
  if (id !== cfg.tokenId || secret !== cfg.tokenSecret) return reject(res, 401, 'invalid API token');

  let body: Record<string, unknown>;
  try {
    body = await readJsonBody(req, cfg.maxBodyBytes);
  } catch (err) {
    if (err instanceof HttpError) return reject(res, err.status, err.message, err.status === 413 ? { connection: 'close' } : {});
    throw err;
  }

  let status = 200;
  let payload: unknown;
  count.handled++;
  try {
    payload = route.handle(body);
  } catch (err) {
    if (!(err instanceof HttpError)) throw err;
    status = err.status;
    payload = { error: err.message };
  }
  if (fault && AFTER_FAULTS.has(fault)) { sendSpoiled(res, status, fault, jsonBytes(payload).toString('utf8'), cfg.slowBodyMs, timers); return; }
  sendJson(res, status, payload);
}

function pathOf(url: string | undefined): string {
  try {
    return new URL(url ?? '/', 'http://sandbox.invalid').pathname;
  } catch {
    return '/';
  }
}

/** Read and parse the body: 413 above the limit, 415 for a body that is not JSON, 400 for bad JSON or a non-object. */
function readJsonBody(req: IncomingMessage, max: number): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? NaN);
    if (declared > max) {
      req.resume();
      return reject(new HttpError(413, `request body of ${declared} bytes is larger than the sandbox's limit of ${max} bytes`));
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > max) {
        failed = true;
        reject(new HttpError(413, `request body is larger than the sandbox's limit of ${max} bytes`));
        return;
      }
      chunks.push(chunk);
    });
    req.on('error', (err) => { if (!failed) { failed = true; reject(new HttpError(400, `could not read the request body: ${err.message}`)); } });
    req.on('end', () => {
      if (failed) return;
      const text = Buffer.concat(chunks).toString('utf8');
      if (text.trim() === '') return resolve({});
      const type = String(req.headers['content-type'] ?? '');
      if (!/^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(type)) {
        return reject(new HttpError(415, `unsupported content type '${type || '(none)'}': send the body as application/json`));
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch (err) {
        return reject(new HttpError(400, `request body is not valid JSON: ${(err as Error).message}`));
      }
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
        return reject(new HttpError(400, 'request body must be a JSON object'));
      }
      resolve(parsed as Record<string, unknown>);
    });
  });
}

/** Buffers for large answers (pages of issues), each back in the pool once its response is done. */
const answerBuffers = new BufferPool(8);

export function sendJson(res: ServerResponse, status: number, payload: unknown, headers: Record<string, string> = {}): void {
  if (res.destroyed) return;
  let taken: Buffer | undefined;
  const bytes = jsonBytes(payload, (size) => (taken = answerBuffers.take(size)));
  if (taken) {
    const buf = taken;
    let back = false;
    const giveBack = () => { if (!back) { back = true; answerBuffers.give(buf); } };
    // 'finish': every byte is handed to the system; 'close' alone: the connection went away first.
    res.once('finish', giveBack).once('close', giveBack);
  }
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': bytes.length, ...headers });
  res.end(bytes);
}

function reject(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  sendJson(res, status, { error: message }, headers);
}

function delay(ms: number, timers: Set<NodeJS.Timeout>): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(() => { timers.delete(t); resolve(); }, ms);
    timers.add(t);
  });
}

function isLoopbackAddress(addr: string | undefined): boolean {
  return !!addr && (addr === '::1' || addr.startsWith('127.') || addr.startsWith('::ffff:127.'));
}

/**
 * `/__sandbox/health` (GET), `/__sandbox/faults` (GET to read, POST `{ latencyMs?, failRate?, fault? }`
 * to change) and `/__sandbox/requests` (GET: `{ [path]: RequestCount }`): for test harnesses. Answered only to loopback clients, never faulted, no token needed.
 */
async function control(cfg: ServerConfig, req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
  if (!isLoopbackAddress(req.socket.remoteAddress)) return reject(res, 403, 'the sandbox control endpoints answer loopback clients only');
  if (path === CONTROL_PREFIX + 'health') {
    if (req.method !== 'GET') return reject(res, 405, 'use GET', { allow: 'GET' });
    return sendJson(res, 200, { ok: true, repositories: cfg.store.repos.length, issues: cfg.store.issues.length, version: cfg.store.version, warmed: cfg.warmed?.() ?? false });
  }
  if (path === CONTROL_PREFIX + 'requests') {
    if (req.method !== 'GET') return reject(res, 405, 'use GET', { allow: 'GET' });
    return sendJson(res, 200, Object.fromEntries(cfg.requests));
  }
  if (path === CONTROL_PREFIX + 'faults') {
    if (req.method === 'GET') return sendJson(res, 200, cfg.faults);
    if (req.method !== 'POST') return reject(res, 405, 'use GET or POST', { allow: 'GET, POST' });
    let body: Record<string, unknown>;
    try {
      body = await readJsonBody(req, cfg.maxBodyBytes);
      Object.assign(cfg.faults, checkFaults(body));
    } catch (err) {
      return reject(res, err instanceof HttpError ? err.status : 400, (err as Error).message);
    }
    return sendJson(res, 200, cfg.faults);
  }
  return reject(res, 404, `unknown control path '${path}': try ${CONTROL_PREFIX}health, ${CONTROL_PREFIX}faults or ${CONTROL_PREFIX}requests`);
}
