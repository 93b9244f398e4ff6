/**
 * The thin HTTP layer: one keep-alive undici dispatcher (proxy-aware), the two token headers,
 * User-Agent, timeouts, one typed error per failure, and retries only where safe.
 */
import { Agent, EnvHttpProxyAgent, request, type Dispatcher } from './undici.js';
import { InterruptedError } from '../errors.js';
import type { Env } from '../context.js';
import { ConnectionError, ResponseError, TimeoutError, statusError } from './errors.js';
import { isRetryable, parseRetryAfter, retryDelayMs } from './retry.js';
import { redactHeaders, truncate } from './redact.js';

export const TOKEN_ID_HEADER = 'X-Service-API-Token-Id';
export const TOKEN_SECRET_HEADER = 'X-Service-API-Token-Secret';

export interface ClientOptions {
  baseUrl: string;
  tokenId: string;
  tokenSecret: string;
  userAgent: string;
  /** Seconds to wait for headers, and between body chunks. */
  timeoutSec: number;
  retries: number;
  env: Env;
  signal: AbortSignal;
  now(): number;
  random(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** Diagnostics to stderr (`--verbose`); retries are always reported through `notice`. */
  verbose?: (line: string) => void;
  notice?: (line: string) => void;
}

export interface CallOptions {
  /** Read-only, safe to send again after it may have reached the server. */
  safe: boolean;
}

export interface Client {
  call(path: string, body: unknown, opts: CallOptions): Promise<unknown>;
  close(): Promise<void>;
}

const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);

export function createDispatcher(env: Env, timeoutSec: number): Dispatcher {
  const opts = {
    keepAliveTimeout: 10_000,
    connect: { timeout: Math.min(10, timeoutSec) * 1000 },
    headersTimeout: timeoutSec * 1000,
    bodyTimeout: timeoutSec * 1000,
  };
  const httpProxy = env.HTTP_PROXY ?? env.http_proxy;
  const httpsProxy = env.HTTPS_PROXY ?? env.https_proxy;
  if (httpProxy || httpsProxy) {
    return new EnvHttpProxyAgent({ ...opts, httpProxy, httpsProxy, noProxy: env.NO_PROXY ?? env.no_proxy ?? '' });
  }
  return new Agent(opts);
}

export function createClient(o: ClientOptions): Client {
  const dispatcher = createDispatcher(o.env, o.timeoutSec);
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json',
    'user-agent': o.userAgent,
    [TOKEN_ID_HEADER.toLowerCase()]: o.tokenId,
    [TOKEN_SECRET_HEADER.toLowerCase()]: o.tokenSecret,
  };

  async function once(path: string, payload: string): Promise<unknown> {
    const url = o.baseUrl + path;
    const what = path.replace(/^\/api\/v1\//, '');
    const started = o.now();
    o.verbose?.(`> POST ${url}\n${formatHeaders(redactHeaders(headers), '> ')}\n> ${truncate(payload)}`);
    let res: Dispatcher.ResponseData;
    let text: string;
    try {
      res = await request(dispatcher, url, { method: 'POST', headers, body: payload, signal: o.signal });
      text = await res.body.text();
    } catch (err) {
      throw networkError(err, what, o);
    }
    const ms = Math.round(o.now() - started);
    o.verbose?.(`< HTTP ${res.statusCode} (${ms} ms)\n${formatHeaders(res.headers, '< ')}\n< ${truncate(text)}`);
    if (res.statusCode >= 400) {
      throw statusError(res.statusCode, what, text, parseRetryAfter(res.headers['retry-after'], Date.now()));
    }
    if (res.statusCode < 200 || res.statusCode >= 300) {
      throw new ResponseError(`${what}: unexpected HTTP ${res.statusCode}`, res.statusCode, 'the service answers 200 with JSON; check the base URL');
    }
    try {
      return text === '' ? null : JSON.parse(text);
    } catch {
      const type = String(res.headers['content-type'] ?? 'no content type');
      throw new ResponseError(
        `${what}: the response is not valid JSON (${type}, ${text.length} bytes, starts ${JSON.stringify(text.slice(0, 40))})`,
        res.statusCode,
        'check that the base URL points at the API; try again with --verbose',
      );
    }
  }

  return {
    async call(path, body, { safe }) {
      const payload = JSON.stringify(body ?? {});
      for (let attempt = 0; ; attempt++) {
        try {
          return await once(path, payload);
        } catch (err) {
          if (o.signal.aborted) throw interrupted(o.signal);
          if (attempt >= o.retries || !isRetryable(err, safe)) throw err;
          const wait = retryDelayMs(attempt, o.random, (err as { retryAfterMs?: number }).retryAfterMs);
          o.notice?.(`${(err as Error).message}; retrying in ${(wait / 1000).toFixed(1)} s (retry ${attempt + 1} of ${o.retries})`);
          await o.sleep(wait, o.signal).catch(() => { throw interrupted(o.signal); });
        }
      }
    },
    async close() {
      await dispatcher.destroy().catch(() => {});
    },
  };
}

function interrupted(signal: AbortSignal): InterruptedError {
  return new InterruptedError(signal.reason === 'SIGTERM' ? 'SIGTERM' : 'SIGINT');
}

function formatHeaders(h: Record<string, unknown>, prefix: string): string {
  return Object.entries(h).map(([k, v]) => `${prefix}${k}: ${String(v)}`).join('\n');
}

function codeOf(err: unknown): string | undefined {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code && !e.code.startsWith('UND_ERR_SOCKET') ? e.code : (e?.cause?.code ?? e?.code);
}

export function networkError(err: unknown, what: string, o: Pick<ClientOptions, 'timeoutSec' | 'signal' | 'baseUrl'>): Error {
  if (o.signal.aborted) return interrupted(o.signal);
  const code = codeOf(err) ?? '';
  const hint = `raise --timeout (now ${o.timeoutSec} s) or check the network`;
  if (code === 'UND_ERR_CONNECT_TIMEOUT') {
    return new TimeoutError(`${what}: could not connect to ${o.baseUrl} within ${Math.min(10, o.timeoutSec)} s`, 'connect', hint);
  }
  if (code === 'UND_ERR_HEADERS_TIMEOUT') {
    return new TimeoutError(`${what}: no response within ${o.timeoutSec} s (--timeout)`, 'headers', hint);
  }
  if (code === 'UND_ERR_BODY_TIMEOUT') {
    return new TimeoutError(`${what}: the response body stalled for more than ${o.timeoutSec} s (--timeout)`, 'body', hint);
  }
  if (NEVER_SENT.has(code)) {
    return new ConnectionError(`${what}: cannot reach ${o.baseUrl} (${code})`, true, 'check the base URL (`svc config get base-url`) and that the server is up');
  }
  if (/CERT|SELF_SIGNED|TLS|SSL/i.test(code)) {
    return new ConnectionError(`${what}: TLS failure talking to ${o.baseUrl} (${code})`, true, 'for a private CA set NODE_EXTRA_CA_CERTS to its PEM file');
  }
  const detail = code || (err as Error)?.message || String(err);
  return new ConnectionError(`${what}: the connection to ${o.baseUrl} failed (${detail})`, false, 'the network or the server dropped the connection; try again');
}
