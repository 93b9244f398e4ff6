/**
 * How svc opens connections: where a plain http:// connection may go (loopback addresses only, checked
 * on the socket actually connected, not on the host name), and HTTP/1.1 interim responses accepted.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions, type LookupOneOptions } from 'node:dns';
import { isIP, type Socket } from 'node:net';
import { buildConnector, kParser } from './undici.js';

/** Error code of a plain-http connection that would leave this machine (the token is never sent). */
export const NOT_LOOPBACK = 'ERR_SVC_NOT_LOOPBACK';

/** A literal loopback address: 127.0.0.0/8 or ::1 (in any spelling, also IPv4-mapped 127.x). */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const a = address.replace(/^\[|\]$/g, '').toLowerCase();
  if (isIP(a) === 4) return a.startsWith('127.');
  if (isIP(a) !== 6) return false;
  // The URL parser writes an IPv6 address in its one canonical form.
  const canonical = new URL(`http://[${a}]/`).hostname;
  if (canonical === '[::1]') return true;
  const mapped = /^\[::ffff:([0-9a-f]{1,4}):[0-9a-f]{1,4}\]$/.exec(canonical);
  return mapped !== null && parseInt(mapped[1], 16) >> 8 === 127;
}

/** Names that stand for this machine, but only once svc has resolved them to a loopback address. */
export function isLocalName(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/\.$/, '');
  return h === 'localhost' || h.endsWith('.localhost');
}

export function notLoopbackError(host: string, address: string): Error {
  return Object.assign(new Error(`${host} is ${address === host ? 'not a loopback address' : `connected to ${address}, not a loopback address`}`), { code: NOT_LOOPBACK, host, address });
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** dns.lookup that keeps only loopback answers: a name resolving elsewhere fails before any connection. */
export function loopbackLookup(hostname: string, options: LookupOneOptions | LookupAllOptions, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '');
    const list = addresses as LookupAddress[];
    const local = list.filter((a) => isLoopbackAddress(a.address));
    if (local.length === 0) return callback(notLoopbackError(hostname, list[0]?.address ?? 'nothing') as NodeJS.ErrnoException, '');
    if ((options as LookupAllOptions).all) return callback(null, local);
    callback(null, local[0].address, local[0].family);
  });
}

/**
 * An unsolicited `100 Continue` before the final answer is legal (RFC 9110 15.2) but undici 7 drops
 * the connection on it (it accepts every other 1xx). The parser undici attaches to the socket is
 * taught to treat a 100 like any other interim response: skipped, the final answer read as usual.
 */
export function acceptInterim(socket: Socket): void {
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

export interface ConnectorOptions {
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
    callback(null, socket);
  });
  return connect as unknown as Connector;
}
