/** Which hosts and addresses are this machine (used before any connection, so no undici here). */
import { isIP } from 'node:net';

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

/** Error code of a plain-http connection that would leave this machine (the token is never sent). */
export const NOT_LOOPBACK = 'ERR_SVC_NOT_LOOPBACK';

export function notLoopbackError(host: string, address: string): Error {
  return Object.assign(new Error(`${host} is ${address === host ? 'not a loopback address' : `connected to ${address}, not a loopback address`}`), { code: NOT_LOOPBACK, host, address });
}
