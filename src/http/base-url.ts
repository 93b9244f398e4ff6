/** Checks on a base URL before any token is sent to it. */
import { UsageError } from '../errors.js';
import { redactUrl } from './redact.js';

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

export function isLoopback(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/**
 * Tokens never travel in clear text, except to this machine. With a proxy in the way, the first
 * hop counts too: a plain http:// request, tokens included, is readable by the proxy.
 */
export function assertSafeTransport(url: URL, from: string, proxy?: string): void {
  if (url.protocol !== 'http:') return;
  if (!isLoopback(url.hostname)) {
    throw new UsageError(
      `refusing to send API tokens over plain http:// to ${url.host} (base URL from ${from})`,
      'use an https:// base URL; plain http is allowed only for loopback addresses such as 127.0.0.1',
    );
  }
  if (proxy !== undefined && !isLoopback(proxyHost(proxy))) {
    throw new UsageError(
      `refusing to send API tokens over plain http:// through the proxy ${redactUrl(proxy)} (base URL ${url.host} from ${from})`,
      `add ${url.hostname} to NO_PROXY, or use an https:// base URL`,
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
