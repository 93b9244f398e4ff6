/** Checks on a base URL before any token is sent to it. */
import { UsageError } from '../errors.js';

export function parseBaseUrl(raw: string, from: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`invalid base URL '${raw}' (from ${from})`, 'give a full URL such as https://api.example.com');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UsageError(`unsupported base URL scheme '${url.protocol}' (from ${from})`, 'use https:// (or http:// for a local server)');
  }
  if (url.username || url.password) {
    throw new UsageError(`the base URL (from ${from}) must not carry a user name or password`, 'credentials go in `svc auth login` or SVC_API_TOKEN_ID/SVC_API_TOKEN_SECRET');
  }
  return url;
}

export function isLoopback(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** Tokens never travel in clear text, except to this machine. */
export function assertSafeTransport(url: URL, from: string): void {
  if (url.protocol === 'http:' && !isLoopback(url.hostname)) {
    throw new UsageError(
      `refusing to send API tokens over plain http:// to ${url.host} (base URL from ${from})`,
      'use an https:// base URL; plain http is allowed only for loopback addresses such as 127.0.0.1',
    );
  }
}

/** `https://host:port/prefix` without a trailing slash, used to join API paths. */
export function baseString(url: URL): string {
  return url.href.replace(/\/+$/, '');
}
