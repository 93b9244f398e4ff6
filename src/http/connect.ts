/**
 * How svc opens connections: where a plain http:// connection may go (loopback addresses only, checked
 * on the socket actually connected, not on the host name), HTTP/1.1 interim responses accepted, and
 * no new connection for a request svc gave up on.
 */
import type { LookupAddress, LookupAllOptions, LookupOneOptions } from 'node:dns';
import type { Socket } from 'node:net';
import { Pool, buildConnector, kParser, type Dispatcher } from './undici.js';
import { isLoopbackAddress, notLoopbackError } from './loopback.js';

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * dns.lookup that keeps only loopback answers: a name resolving elsewhere fails before any
 * connection. Its module (and node:dns) is loaded only for a plain-http name such as localhost.
 */
function loopbackLookup(hostname: string, options: LookupOneOptions | LookupAllOptions, callback: LookupCallback): void {
  import('./loopback-lookup.js').then((m) => m.loopbackLookup(hostname, options, callback), (err: NodeJS.ErrnoException) => callback(err, ''));
}

/**
 * An unsolicited `100 Continue` before the final answer is legal (RFC 9110 15.2) but undici 7 drops
 * the connection on it (it accepts every other 1xx). The parser undici attaches to the socket is
 * taught to treat a 100 like any other interim response: skipped, the final answer read as usual.
 */
function acceptInterim(socket: Socket): void {
  let parser: unknown;
  Object.defineProperty(socket, kParser, {
    configurable: true,
    enumerable: false,
    get: () => parser,
    set(p: { onHeadersComplete?: (status: number, ...rest: unknown[]) => number } | null) {
      parser = p;
      if (!p || typeof p.onHeadersComplete !== 'function') return;
      const original = p.onHeadersComplete;
      p.onHeadersComplete = function (status: number, ...rest: unknown[]) {
        return original.call(this, status === 100 ? 199 : status, ...rest);
      };
    },
  });
}

/**
 * undici 7 opens a connection for nothing after every request aborted in flight (svc's own headers
 * or body deadline, or Ctrl-C): its abort closes the socket with an "informational" error
 * (UND_ERR_INFO, message 'aborted'), on which the client puts the aborted request back in its queue
 * as pending and connects for it, only to drop it once connected (nodejs/undici#5845, a fix pending
 * in #5846). Against a server that accepts and never answers, 3 attempts made 5 connections. The
 * socket is closed with an abort error of another code instead: undici then fails the request at the
 * head of its queue (already aborted: nothing more happens) and, with nothing pending, connects for nothing.
 */
const ABORTED = 'UND_ERR_INFO';
function abortWithoutReconnect(socket: Socket): void {
  const destroy = socket.destroy;
  socket.destroy = function (this: Socket, err?: Error) {
    const e = err as (Error & { code?: string }) | undefined;
    if (e?.code === ABORTED && e.message === 'aborted') {
      return destroy.call(this, Object.assign(new Error('aborted'), { name: 'RequestAbortedError', code: 'UND_ERR_ABORTED' }));
    }
    return destroy.call(this, err);
  } as Socket['destroy'];
}

interface ConnectorOptions {
  timeoutMs: number;
  /** Plain http: only loopback addresses, checked on the resolved name and on the connected socket. */
  loopbackOnly: boolean;
}

type Connector = ReturnType<typeof buildConnector>;
type ConnectCallback = (err: Error | null, socket: Socket | null) => void;

export function connector(o: ConnectorOptions): Connector {
  const base = buildConnector({ timeout: o.timeoutMs, ...(o.loopbackOnly ? { lookup: loopbackLookup } : {}) } as Parameters<typeof buildConnector>[0]);
  const connect = (opts: { hostname: string }, callback: ConnectCallback) => (base as unknown as (o: unknown, cb: ConnectCallback) => void)(opts, (err, socket) => {
    if (err || !socket) return callback(err ?? new Error('no socket'), null);
    if (o.loopbackOnly && !isLoopbackAddress(socket.remoteAddress)) {
      socket.destroy();
      return callback(notLoopbackError(opts.hostname, socket.remoteAddress ?? 'an unknown address'), null);
    }
    acceptInterim(socket);
    abortWithoutReconnect(socket);
    callback(null, socket);
  });
  return connect as unknown as Connector;
}

/** The code of the failure of a CONNECT tunnel whose proxy closed the connection before answering. */
export const PROXY_CLOSED = 'ERR_SVC_PROXY_CLOSED';

/**
 * The pools the proxy agent makes for each origin (its `factory`), with a tunnel connector that
 * undici gives up on. A proxy that closes the connection on reading the CONNECT, before any status
 * line, fails the tunnel with a socket error (UND_ERR_SOCKET); on a connector's error of that code
 * undici's client keeps the request queued and connects again at once, without end (client.js
 * onError takes it for a lost connection it recovers from): ~2,400 CONNECTs a second, and neither
 * --timeout (no connection ever comes up to start the headers timer) nor --retries (the request never
 * fails) ends it. With another code, undici fails the request and svc's retries apply.
 * The pools of NO_PROXY hosts get svc's options as they are (a connector given as options, not a
 * function); a plain connector to the proxy itself (forward requests) never fails with that code.
 * svc never sets `connections`, so a Pool is what undici's own factory makes.
 */
export function tunnelPools(origin: string | URL, opts: object): Dispatcher {
  const o = opts as { connect?: unknown };
  if (typeof o.connect !== 'function') return new Pool(origin, opts);
  const tunnel = o.connect as (options: unknown, callback: ConnectCallback) => void;
  const connect = (options: unknown, callback: ConnectCallback) => tunnel(options, (err, socket) => {
    if ((err as { code?: unknown } | null)?.code !== 'UND_ERR_SOCKET') return callback(err, socket);
    callback(Object.assign(new Error(`the proxy closed the connection without answering the CONNECT (${err!.message})`), { code: PROXY_CLOSED, cause: err }), null);
  });
  return new Pool(origin, { ...opts, connect } as ConstructorParameters<typeof Pool>[1]);
}
