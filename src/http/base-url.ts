/** Checks on a base URL before any token is sent to it. */
import { UsageError } from '../core/errors.js';
import { redactUrl } from './redact.js';
import { isLocalName, isLoopbackAddress } from './loopback.js';

export function parseBaseUrl(raw: string, from: string): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new UsageError(`invalid base URL '${redactUrl(raw)}' (from ${from})`, 'give a full URL such as https://api.example.com');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UsageError(`unsupported base URL scheme '${url.protocol}' (from ${from})`, 'use https:// (or http:// for a local server)');
  }
  if (url.username || url.password) {
    throw new UsageError(`the base URL (from ${from}) must not carry a user name or password`, 'credentials go in `svc auth login` or SVC_API_TOKEN_ID/SVC_API_TOKEN_SECRET');
  }
  if (url.search || url.hash || raw.includes('?') || raw.includes('#')) {
    throw new UsageError(`the base URL '${url.origin}${url.pathname}...' (from ${from}) must not have a query or fragment`, 'give just the scheme, host and an optional path prefix');
  }
  return url;
}

/** The path prefix of every operation (`/api/v1/...`): svc adds it, so a base URL must not end with it. */
const API_PREFIX = /\/api\/v1\/*$/i;

/**
 * A base URL as given, with the API's own prefix taken off: users paste `https://host/api/v1` from
 * the spec, and svc would call `/api/v1/api/v1/...` (404s). `warning` says what was changed.
 */
export function normaliseBaseUrl(raw: string, from: string): { url: URL; warning?: string } {
  const url = parseBaseUrl(raw, from);
  if (!API_PREFIX.test(url.pathname)) return { url };
  const given = baseString(url);
  url.pathname = url.pathname.replace(API_PREFIX, '') || '/';
  return { url, warning: `the base URL ${given} (from ${from}) ends with /api/v1, which svc adds to every path itself: using ${baseString(url)}; set it without /api/v1 to silence this` };
}

/**
 * A host that may be this machine: a literal loopback address, or `localhost` / `*.localhost`. A name
 * is only a claim: the connection itself is checked (src/http/connect.ts) before a token is sent.
 */
export function isLoopback(hostname: string): boolean {
  return isLoopbackAddress(hostname) || isLocalName(hostname);
}

/**
 * Tokens never travel in clear text, except to this machine: the host must be a loopback address or a
 * local name, and the socket svc actually connects must end at a loopback address (checked on every
 * connection). With a proxy in the way, the first hop counts too: a plain http:// request, tokens
 * included, is readable by the proxy, which must be a literal loopback address.
 */
export function assertSafeTransport(url: URL, from: string, proxy?: string): void {
  if (url.protocol !== 'http:') return;
  if (!isLoopback(url.hostname)) {
    throw new UsageError(
      `refusing to send API tokens over plain http:// to ${url.host} (base URL from ${from})`,
      'use an https:// base URL; plain http is allowed only for loopback addresses such as 127.0.0.1',
    );
  }
  if (proxy !== undefined && !isLoopbackAddress(proxyHost(proxy))) {
    throw new UsageError(
      `refusing to send API tokens over plain http:// through the proxy ${redactUrl(proxy)} (base URL ${url.host} from ${from})`,
      `add ${url.hostname} to NO_PROXY, or use an https:// base URL (a proxy for plain http must be a loopback address such as 127.0.0.1)`,
    );
  }
}

function proxyHost(proxy: string): string {
  try { return new URL(proxy).hostname; } catch { return proxy; }
}

/** `https://host:port/prefix` without a trailing slash, used to join API paths. */
export function baseString(url: URL): string {
  return url.href.replace(/\/+$/, '');
}
