/**
 * How svc opens connections: where a plain http:// connection may go (loopback addresses only, checked
 * on the socket actually connected, not on the host name), HTTP/1.1 interim responses accepted, and
 * no new connection for a request svc gave up on.
 */
import type { LookupAddress, LookupAllOptions, LookupOneOptions } from 'node:dns';
import type { Socket } from 'node:net';
import { buildConnector, kParser } from './undici.js';
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
