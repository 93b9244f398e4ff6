/** Which hosts and addresses are this machine (used before any connection, so no undici here). */
import { isIP } from 'node:net';

/** A literal loopback address: 127.0.0.0/8 or ::1 (in any spelling, also IPv4-mapped 127.x). */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const a = address.replace(/^\[|\]$/g, '').toLowerCase();
  if (isIPv4Text(a)) return a.startsWith('127.');
  if (isIP(a) !== 6) return false;
  // The URL parser writes an IPv6 address in its one canonical form.
  const canonical = new URL(`http://[${a}]/`).hostname;
  if (canonical === '[::1]') return true;
  const mapped = /^\[::ffff:([0-9a-f]{1,4}):[0-9a-f]{1,4}\]$/.exec(canonical);
  return mapped !== null && parseInt(mapped[1], 16) >> 8 === 127;
}

/**
 * Whether a text is an IPv4 address as node's net.isIPv4 reads one (four numbers 0-255, no leading
 * zero), checked by hand: svc checks its loopback address before each connection and on it, and
 * node's regular expression, run again, is compiled to machine code in every call.
 */
function isIPv4Text(s: string): boolean {
  const parts = s.split('.');
  if (parts.length !== 4) return false;
  for (const p of parts) {
    if (p.length === 0 || p.length > 3 || (p.length > 1 && p.charCodeAt(0) === 48)) return false;
    let n = 0;
    for (let i = 0; i < p.length; i++) {
      const c = p.charCodeAt(i);
      if (c < 48 || c > 57) return false;
      n = n * 10 + c - 48;
    }
    if (n > 255) return false;
  }
  return true;
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
