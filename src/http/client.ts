/**
 * The thin HTTP layer: one keep-alive undici dispatcher (proxy-aware), the two token headers,
 * User-Agent, timeouts, one typed error per failure, and retries only where safe.
 */
import { Agent, envHttpProxyAgent, request, type Dispatcher } from './undici.js';
import { RawAnswer, notJsonError, parseAnswer, type BodyBuffers } from './raw-answer.js';
import { InterruptedError } from '../core/errors.js';
import type { Env } from '../core/host.js';
import { AttemptAbort, onAbort } from '../core/abort.js';
import { ApiError, ResponseError, statusError } from './api-errors.js';
import type { Report } from '../answers/doubts.js';
import { MAX_RETRY_AFTER_MS, isRetryable, parseRetryAfter, retryDelayMs } from './retry.js';
import { REDACTED, redactBody, redactHeaders, redactUrl, scrub, secretForms, secretRun, truncate, useJsonForms } from './redact.js';
import { proxyFor, proxySettings, type ProxySettings } from './proxy.js';
import { connectTimeoutSec, networkError } from './network-error.js';
import { connector, tunnelPools } from './connect.js';
import { NOT_LOOPBACK } from './loopback.js';
import { UsageError } from '../core/errors.js';

import { TOKEN_ID_HEADER, TOKEN_SECRET_HEADER, checkHeaderValue } from './headers.js';

export interface ClientOptions {
  baseUrl: string;
  tokenId: string;
  tokenSecret: string;
  userAgent: string;
  /** Seconds to connect (at most 10), to wait for the headers, and for the whole body after them. */
  timeoutSec: number;
  retries: number;
  /** Most bytes one response body may hold (DEFAULT_MAX_RESPONSE_BYTES when not given). */
  maxResponseBytes?: number;
  env: Env;
  signal: AbortSignal;
  /** Monotonic clock (ms), for timings. */
  now(): number;
  /** Wall clock (ms), for Retry-After dates; Date.now by default. */
  wallClock?(): number;
  random(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** Diagnostics to stderr (`--verbose`); retries are always reported through `notice`. */
  verbose?: (line: string) => void;
  notice?: (line: string) => void;
  /**
   * Where the checks of an answer's text report what they find (the run's doubts, answers/doubts.ts:
   * a key given twice, an error beside the data); without it only what a read command refuses is refused.
   */
  report?: Report;
  /** What to do on 401/403, naming where these credentials came from (see credentialHint). */
  authHint?: string;
  /**
   * Sends the requests instead of svc's own agent (Host.dispatcher: a test's undici MockAgent); the
   * caller owns it (close() leaves it open). The proxy, the loopback rule and the size cap are the agent's.
   */
  dispatcher?: Dispatcher;
}

interface CallOptions {
  /** Read-only, safe to send again after it may have reached the server. */
  safe: boolean;
  /**
   * A 2xx answer comes back unparsed, as a RawAnswer: a long listing parses each page only when its
   * turn comes (src/listing/page-decode.ts), so the pages in flight wait as bytes outside V8's heap.
   * With buffers, the body is read into one of them, given back by RawAnswer.release().
   */
  raw?: boolean | BodyBuffers;
  /**
   * What interrupts this call instead of the client's signal: the bulk engine lets the calls in flight
   * finish after a Ctrl-C (it stops sending new ones), so that each id's outcome is known.
   */
  signal?: AbortSignal;
  /**
   * What ends a wait to retry (after a 429, or a failure that provably never reached the service),
   * when it is not `signal`: the bulk engine's calls in flight finish after a Ctrl-C, but a call
   * waiting to be sent again is not in flight, and the Ctrl-C ends its wait at once.
   */
  waitSignal?: AbortSignal;
}

export interface Client {
  call(path: string, body: unknown, opts: CallOptions): Promise<unknown>;
  close(): Promise<void>;
}

/** A body read into a buffer of the pool (grown by doubling); the buffer goes back on failure. */
async function readInto(body: AsyncIterable<Buffer>, pool: BodyBuffers, length: number): Promise<{ buf: Buffer; length: number }> {
  // The announced length, within reason: a lying header must not make svc allocate gigabytes.
  let buf = pool.take(Number.isSafeInteger(length) && length > 0 ? Math.min(length, 8 * MIB) : 64 * 1024);
  let at = 0;
  try {
    for await (const chunk of body) {
      if (at + chunk.length > buf.length) {
        const bigger = pool.take(Math.max(2 * buf.length, at + chunk.length));
        buf.copy(bigger, 0, 0, at);
        pool.give(buf);
        buf = bigger;
      }
      at += chunk.copy(buf, at);
    }
  } catch (err) {
    pool.give(buf);
    throw err;
  }
  return { buf, length: at };
}


/**
 * Marks the abort of an attempt whose body took longer than the timeout after the headers (a server
 * dripping bytes defeats undici's idle body timer). The headers timeout is undici's own: it starts
 * once the request is written, so a slow connect is never mistaken for a request the server got.
 */
const BODY_DEADLINE = Object.assign(new Error('body deadline'), { code: 'ERR_SVC_BODY_DEADLINE' });
/**
 * The headers deadline, to the millisecond: undici's own headersTimeout ticks on a coarse timer
 * (a --timeout of 0.3 fired after about 1 s), so it stays only as a backstop a second later, and this
 * one (started once a connection to the service is up, as undici's starts once the request is
 * written) aborts the attempt. Its code is undici's, so it is told apart from a connect failure alike.
 */
const HEADERS_DEADLINE = Object.assign(new Error('headers deadline'), { code: 'UND_ERR_HEADERS_TIMEOUT' });
/** How much later undici's own (coarse) timers fire than svc's exact ones. */
const BACKSTOP_MS = 1000;

/** What one response body may hold unless raised (--max-response-mb / SVC_MAX_RESPONSE_MB). */
export const DEFAULT_MAX_RESPONSE_MB = 64;
const MIB = 1024 * 1024;

interface DispatcherLimits {
  /** Plain http: only connect to loopback addresses (checked on the connected socket). */
  loopbackOnly?: boolean;
  maxResponseBytes?: number;
}

export function createDispatcher(settings: ProxySettings, timeoutSec: number, limits: DispatcherLimits = {}): Dispatcher {
  const opts = {
    keepAliveTimeout: 10_000,
    headersTimeout: timeoutSec * 1000 + BACKSTOP_MS,
    bodyTimeout: timeoutSec * 1000,
    // Counted as the bytes arrive: an endless body fails at the cap, never buffered whole.
    maxResponseSize: limits.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_MB * MIB,
  };
  if (settings.httpProxy || settings.httpsProxy) {
    // Empty strings, not undefined: undici would fall back to process.env, and these settings are the truth.
    return envHttpProxyAgent({
      ...opts,
      connect: { timeout: connectTimeoutSec(timeoutSec) * 1000 },
      // http:// requests go to the proxy in the classic forward form (many proxies allow CONNECT
      // only to port 443); https:// ones always go through a CONNECT tunnel.
      proxyTunnel: false,
      // A proxy that closes the connection instead of answering a CONNECT fails the request (connect.ts).
      factory: tunnelPools,
      httpProxy: settings.httpProxy ?? '',
      httpsProxy: settings.httpsProxy ?? settings.httpProxy ?? '',
      noProxy: settings.noProxy,
    });
  }
  return new Agent({ ...opts, connect: connector({ timeoutMs: connectTimeoutSec(timeoutSec) * 1000, loopbackOnly: limits.loopbackOnly === true }) });
}

/**
 * A body key that names a record by its id (`issueId`, `repositoryIds`, `organizationId`) or its URL
 * (`repositoryUrl`: resolve-by-url, whose 404 the spec declares for a URL no repository is linked
 * with): a 404 may be about it.
 */
const NAMES_ID = /"[A-Za-z_]*(?:Id|Ids|_id|id|Url|url)"\s*:/;

export function createClient(o: ClientOptions): Client {
  // undici parses HTTP with WebAssembly, which node leaves out under --jitless: say so now, once,
  // rather than as a connection failure after every retry.
  if (typeof WebAssembly !== 'object' && o.dispatcher === undefined) {
    throw new UsageError(
      'this node runs without WebAssembly (--jitless, or --no-expose-wasm, in NODE_OPTIONS or node\'s own flags), which svc\'s HTTP client needs to read answers; nothing was sent',
      'run svc without that flag (for one command: env -u NODE_OPTIONS svc ..., or NODE_OPTIONS without --jitless)',
    );
  }
  const settings = proxySettings(o.env);
  const base = new URL(o.baseUrl);
  const proxy = proxyFor(base, settings);
  // Nothing leaves with a header value HTTP cannot carry as given (checked here too, whoever built the options).
  checkHeaderValue(o.tokenId, 'the token id');
  checkHeaderValue(o.tokenSecret, 'the token secret');
  const maxResponseBytes = o.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_MB * MIB;
  const dispatcher = o.dispatcher ?? createDispatcher(settings, o.timeoutSec, { loopbackOnly: base.protocol === 'http:', maxResponseBytes });
  const wallClock = o.wallClock ?? Date.now;
  // Whether a connection to the service is open (undici reuses it): the headers deadline starts at
  // once then, else when one connects.
  let connections = 0;
  const connected: Array<() => void> = [];
  dispatcher.on('connect', () => { connections++; for (const f of connected.splice(0)) f(); });
  dispatcher.on('disconnect', () => { connections = Math.max(0, connections - 1); });
  const whenConnected = (f: () => void) => (connections > 0 ? f() : connected.push(f));
  // A success answer that echoes the token secret: scrubbed before anything reads it, so that neither
  // stdout nor a file svc writes (records, --failed-to, reports) holds it, as stderr never does. Any
  // echo, as is, JSON-escaped (`\/` as PHP writes `/`, `\u0026` as Go writes `&`) or percent-encoded,
  // holds the secret's longest run of letters and digits (none of those escapes them): a plain answer
  // costs one search for it. Only an answer that holds it is searched for each form; the patterns of
  // the other JSON escapes are loaded (core/json-escapes.ts, handed to scrub() as well) only for one
  // that also holds a backslash.
  const secret = o.tokenSecret !== undefined && o.tokenSecret.length >= 4 ? o.tokenSecret : undefined;
  // (A secret without such a run of 4: every form is searched for in every answer.)
  let echoRun: string | undefined | null = null;
  const runOf = () => (echoRun === null ? (echoRun = secretRun(secret)) : echoRun);
  let echoForms: Buffer[] | undefined;
  const echoes = (bytes: Buffer, text: () => string): boolean => {
    if (secret === undefined) return false;
    const run = runOf();
    if (run !== undefined && !bytes.includes(run)) return false;
    echoForms ??= secretForms(secret).map((f) => Buffer.from(f, 'utf8'));
    return echoForms.some((f) => bytes.includes(f)) || (escapedForms !== undefined && escapedForms(secret)!.any.test(text()));
  };
  const mayEchoEscaped = (bytes: Buffer) => { if (secret === undefined || !bytes.includes(0x5c)) return false; const run = runOf(); return run === undefined || bytes.includes(run); };
  let escapedForms: typeof import('../core/json-escapes.js').jsonForms | undefined;
  let echoSaid = false;
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json',
    'user-agent': o.userAgent,
    [TOKEN_ID_HEADER.toLowerCase()]: o.tokenId,
    [TOKEN_SECRET_HEADER.toLowerCase()]: o.tokenSecret,
  };

  async function once(path: string, payload: string, logged: string, safe: boolean, returnAll: boolean, raw: boolean | BodyBuffers, signal: AbortSignal): Promise<unknown> {
    if (signal.aborted) throw interrupted(signal);
    const url = o.baseUrl + path;
    const what = path.replace(/^\/api\/v1\//, '');
    const started = o.now();
    const elapsed = () => Math.round(o.now() - started);
    o.verbose?.(`> POST ${url}${proxy ? ` (via proxy ${redactUrl(proxy)})` : ''}\n${formatHeaders(redactHeaders(headers), '> ')}\n> ${truncate(logged)}`);
    // One abort per attempt: the user's Ctrl-C and the body deadline both abort it. (Neither an
    // AbortController nor a listener added to the signal itself: core/abort.ts.)
    const attempt = new AttemptAbort();
    const stopListening = onAbort(signal, () => attempt.abort(signal.reason));
    let deadline: ReturnType<typeof setTimeout> | undefined;
    let headersDeadline: ReturnType<typeof setTimeout> | undefined;
    let waiting = true;
    whenConnected(() => { if (waiting) headersDeadline = setTimeout(() => attempt.abort(HEADERS_DEADLINE), o.timeoutSec * 1000); });
    let res: Dispatcher.ResponseData;
    let bytes: Buffer;
    let decoded: string | undefined;
    const pool = typeof raw === 'object' ? raw : undefined;
    let backing: { buf: Buffer; length: number } | undefined;
    try {
      try {
        res = await request(dispatcher, url, { method: 'POST', headers, body: payload, signal: attempt.signal });
      } finally {
        waiting = false;
        clearTimeout(headersDeadline);
      }
      deadline = setTimeout(() => attempt.abort(BODY_DEADLINE), o.timeoutSec * 1000);
      // As undici's text() decodes it (UTF-8, a byte order mark skipped), keeping the bytes.
      if (pool && res.statusCode >= 200 && res.statusCode < 300) {
        backing = await readInto(res.body, pool, Number(res.headers['content-length']));
        bytes = backing.buf.subarray(0, backing.length);
      } else {
        const raw = await res.body.bytes();
        bytes = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
      }
      if (bytes.length > 2 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3);
    } catch (err) {
      if (signal.aborted) throw interrupted(signal);
      const reason = attempt.signal.reason;
      const cause = reason === BODY_DEADLINE || reason === HEADERS_DEADLINE ? reason : err;
      const refused = refusal(cause, what, o.baseUrl, maxResponseBytes, returnAll);
      if (refused) {
        o.verbose?.(`< failed after ${elapsed()} ms: ${refused.message}`);
        throw refused;
      }
      const failure = networkError(cause, { what, baseUrl: o.baseUrl, timeoutSec: o.timeoutSec, proxy, safe });
      o.verbose?.(`< failed after ${elapsed()} ms: ${failure.message}`);
      throw failure;
    } finally {
      clearTimeout(deadline);
      stopListening();
    }
    // A server may echo the token back: scrub it before any cutting (a cut secret could not be found
    // later). Only for what is printed: a page of a long listing is ~1 MB, scanned three times.
    // Decoded once, when something needs the text (a raw answer of a listing may never).
    const text = () => (decoded ??= bytes.toString('utf8'));
    if (escapedForms === undefined && mayEchoEscaped(bytes)) {
      const { jsonForms } = await import('../core/json-escapes.js');
      escapedForms = jsonForms;
      useJsonForms(jsonForms);
    }
    const shown = () => scrub(text(), [o.tokenSecret]);
    o.verbose?.(`< HTTP ${res.statusCode} (${elapsed()} ms)\n${formatHeaders(redactHeaders(res.headers), '< ')}\n< ${truncate(shown())}`);
    if (res.statusCode >= 400) {
      throw statusError(res.statusCode, what, shown(), parseRetryAfter(res.headers['retry-after'], wallClock()), safe, o.authHint, NAMES_ID.test(payload));
    }
    if (res.statusCode < 200 || res.statusCode >= 300) {
      const where = res.headers.location ? ` to ${redactUrl(String(res.headers.location)).slice(0, 200)}` : '';
      throw new ResponseError(`${what}: unexpected HTTP ${res.statusCode}${where} (svc does not follow redirects, so tokens stay with the base URL)`, res.statusCode, 'check the base URL');
    }
    if (res.statusCode !== 200) {
      if (backing && pool) pool.give(backing.buf);
      // The API answers success with 200 and a JSON body (spec, "Conventions"): 202 "accepted, not done
      // yet", 204 "no content", 206 "partial" are not that answer, whatever their body holds.
      throw new ResponseError(
        `${what}: the service answered HTTP ${res.statusCode}, not 200: the API's success is 200 with a JSON body, so this answer is not one svc can use`,
        res.statusCode,
        safe ? 'a proxy or a newer service version may be in between; check the base URL; --verbose shows the answer' : 'the change may or may not have been made: check before repeating it',
      );
    }
    if (echoes(bytes, text)) {
      bytes = Buffer.from(shown(), 'utf8');
      decoded = undefined;
      if (backing && pool) pool.give(backing.buf);
      backing = undefined;
      if (!echoSaid) o.notice?.(`the service echoed the token secret in its answer (${what}): svc shows and writes it as ${REDACTED}`);
      echoSaid = true;
    }
    const type = String(res.headers['content-type'] ?? 'no content type');
    const header = res.headers['content-encoding'];
    const encoding = header === undefined ? undefined : String(header);
    if (raw) return new RawAnswer(bytes, what, res.statusCode, type, (t) => scrub(t, [o.tokenSecret]), backing && pool && { buf: backing.buf, from: pool }, encoding, o.report);
    return parseAnswer(text(), () => notJsonError(what, res.statusCode, type, shown(), encoding), what, o.report);
  }

  return {
    async call(path, body, { safe, raw = false, signal = o.signal, waitSignal = signal }) {
      const payload = JSON.stringify(body ?? {});
      const logged = o.verbose ? JSON.stringify(redactBody(body ?? {})) : '';
      const returnAll = (body as { returnAll?: unknown } | null)?.returnAll === true;
      for (let attempt = 0; ; attempt++) {
        try {
          return await once(path, payload, logged, safe, returnAll, raw, signal);
        } catch (err) {
          if (signal.aborted) throw interrupted(signal);
          if (attempt >= o.retries || !isRetryable(err, safe)) {
            if (attempt > 0 && err instanceof ApiError) err.message += ` (gave up after ${attempt + 1} tries)`;
            throw err;
          }
          const asked = (err as { retryAfterMs?: number }).retryAfterMs;
          const wait = retryDelayMs(attempt, o.random, asked);
          // The wait svc keeps (Retry-After is capped at MAX_RETRY_AFTER_MS), never the longer one asked for.
          const capped = asked !== undefined && asked > wait ? `; svc waits at most ${MAX_RETRY_AFTER_MS / 1000} s, whatever Retry-After says` : '';
          o.notice?.(`${(err as Error).message}; retrying in ${(wait / 1000).toFixed(1)} s (retry ${attempt + 1} of ${o.retries}${capped})`);
          const ends = waitSignal === signal ? signal : AbortSignal.any([signal, waitSignal]);
          await o.sleep(wait, ends).catch(() => { throw interrupted(waitSignal.aborted ? waitSignal : signal, true); });
        }
      }
    },
    async close() {
      if (dispatcher !== o.dispatcher) await dispatcher.destroy().catch(() => {});
    },
  };
}

/** Failures that are svc's own refusals, not network trouble: never retried, never "may have taken effect". */
function refusal(err: unknown, what: string, baseUrl: string, maxBytes: number, returnAll: boolean): Error | undefined {
  const e = err as { code?: string; cause?: { code?: string; address?: string }; address?: string } | undefined;
  const code = e?.code === 'UND_ERR_SOCKET' || e?.code === undefined ? e?.cause?.code ?? e?.code : e.code;
  if (code === NOT_LOOPBACK) {
    const address = e?.address ?? e?.cause?.address ?? 'another address';
    return new UsageError(
      `refusing to send API tokens over plain http:// to ${new URL(baseUrl).host}: it resolves or connects to ${address}, not a loopback address (nothing was sent)`,
      'use an https:// base URL; plain http is allowed only to this machine (127.0.0.1, ::1, or localhost resolving to them)',
    );
  }
  if (code === 'UND_ERR_RES_EXCEEDED_MAX_SIZE') {
    const mb = maxBytes / MIB;
    const cap = `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MiB`;
    return new ResponseError(
      `${what}: the response is larger than the ${cap} cap on one response; stopped reading it`,
      undefined,
      returnAll
        ? '--return-all asks for every match in one response: use --all instead, which reads page by page'
        : 'raise the cap with --max-response-mb N (or SVC_MAX_RESPONSE_MB), or ask for less (a smaller --page-size, or --all for listings)',
    );
  }
  return undefined;
}

function interrupted(signal: AbortSignal, waiting = false): InterruptedError {
  return new InterruptedError(signal.reason === 'SIGTERM' ? 'SIGTERM' : 'SIGINT', undefined, waiting);
}

function formatHeaders(h: Record<string, unknown>, prefix: string): string {
  return Object.entries(h).map(([k, v]) => `${prefix}${k}: ${String(v)}`).join('\n');
}
