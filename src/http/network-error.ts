/**
 * A failed request at the network level -> one typed error with a message that says what
 * happened, which limit was hit, and (for mutations) whether the request may have taken effect.
 */
import { ConnectionError, TimeoutError } from './api-errors.js';
import { redactUrl } from './redact.js';
import { PROXY_CLOSED } from './connect.js';

interface FailureContext {
  /** `issues/search`. */
  what: string;
  baseUrl: string;
  timeoutSec: number;
  /** The proxy the request went through, if any. */
  proxy?: string;
  /** A read-only operation: saying "it may have taken effect" is pointless. */
  safe: boolean;
}

/** Seconds allowed for the TCP (and TLS) connection: --timeout, but never more than 10 s. */
export function connectTimeoutSec(timeoutSec: number): number {
  return Math.min(10, timeoutSec);
}

/** The error code of an undici / node error (`ECONNREFUSED`, `UND_ERR_HEADERS_TIMEOUT`, `CERT_HAS_EXPIRED`...). */
export function errorCode(err: unknown): string {
  const e = err as { code?: unknown; cause?: { code?: unknown } } | undefined;
  const code = typeof e?.code === 'string' ? e.code : '';
  const cause = typeof e?.cause?.code === 'string' ? e.cause.code : '';
  return code && !code.startsWith('UND_ERR_SOCKET') ? code : (cause || code);
}

const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'EAI_NONAME', 'EAI_FAIL']);
const UNTRUSTED = /SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER|CERT_UNTRUSTED|CERT_SIGNATURE_FAILURE|CERT_CHAIN_TOO_LONG|INVALID_CA/;

export function networkError(err: unknown, f: FailureContext): ConnectionError | TimeoutError {
  const code = errorCode(err);
  const message = err instanceof Error ? err.message : String(err);
  const via = f.proxy ? ` via the proxy ${redactUrl(f.proxy)}` : '';
  const raise = `raise --timeout (or SVC_TIMEOUT), or check the network${via ? ' and the proxy' : ''}`;
  const mayHaveHappened = f.safe ? raise : `it may still have taken effect: check before repeating it (a change is never sent twice by svc); ${raise}`;

  if (code === 'UND_ERR_CONNECT_TIMEOUT') {
    return new TimeoutError(`${f.what}: could not connect to ${f.baseUrl}${via} within ${connectTimeoutSec(f.timeoutSec)} s (connect limit: --timeout, at most 10 s)`, 'connect', raise);
  }
  if (code === 'UND_ERR_HEADERS_TIMEOUT') {
    return new TimeoutError(`${f.what}: no response from ${f.baseUrl} within ${f.timeoutSec} s (--timeout ${f.timeoutSec})`, 'headers', mayHaveHappened);
  }
  if (code === 'UND_ERR_BODY_TIMEOUT' || code === 'ERR_SVC_BODY_DEADLINE') {
    return new TimeoutError(`${f.what}: the response body from ${f.baseUrl} did not arrive within ${f.timeoutSec} s (--timeout ${f.timeoutSec})`, 'body', mayHaveHappened);
  }
  const proxyStatus = /Proxy response \((\d{3})\)/.exec(message);
  if (proxyStatus) {
    const status = Number(proxyStatus[1]);
    const hint = status === 407
      ? 'the proxy wants credentials: give them in the proxy URL (http://user:password@host:port)'
      : 'check HTTPS_PROXY/HTTP_PROXY and NO_PROXY, or ask whoever runs the proxy';
    return new ConnectionError(`${f.what}: the proxy ${redactUrl(f.proxy ?? '')} refused to connect to ${f.baseUrl} (HTTP ${status})`, true, hint, status === 407 || status === 403);
  }
  if (code === PROXY_CLOSED) {
    // The tunnel never came up: nothing of the request reached the service.
    return new ConnectionError(`${f.what}: the proxy ${redactUrl(f.proxy ?? '')} closed the connection without answering the CONNECT for ${f.baseUrl}`, true,
      'check HTTPS_PROXY/HTTP_PROXY and NO_PROXY, or ask whoever runs the proxy');
  }
  if (NEVER_SENT.has(code)) {
    const who = f.proxy ? `the proxy ${redactUrl(f.proxy)} (for ${f.baseUrl})` : f.baseUrl;
    const hint = f.proxy ? 'check HTTPS_PROXY/HTTP_PROXY and NO_PROXY' : 'check the base URL (`svc auth status` shows it and where it comes from) and that the server is up';
    return new ConnectionError(`${f.what}: cannot reach ${who} (${code})`, true, hint);
  }
  if (UNTRUSTED.test(code)) {
    return new ConnectionError(`${f.what}: TLS failure talking to ${f.baseUrl}${via}: the server's certificate is not trusted (${code})`, true,
      'for a private certificate authority or a TLS-inspecting proxy, set NODE_EXTRA_CA_CERTS to its PEM file', true);
  }
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    return new ConnectionError(`${f.what}: TLS failure talking to ${f.baseUrl}${via}: the certificate is for another host name (${code})`, true, 'check the host in the base URL', true);
  }
  if (/CERT_HAS_EXPIRED|CERT_NOT_YET_VALID/.test(code)) {
    return new ConnectionError(`${f.what}: TLS failure talking to ${f.baseUrl}${via}: the certificate is expired or not yet valid (${code})`, true, 'check the system clock, or tell whoever runs the server', true);
  }
  if (/WRONG_VERSION_NUMBER|ERR_SSL|EPROTO/.test(code) || /ssl|tls/i.test(code)) {
    return new ConnectionError(`${f.what}: TLS failure talking to ${f.baseUrl}${via} (${code})`, true,
      'the server may not speak TLS on this port (an http:// server behind an https:// URL?); check the base URL', true);
  }
  const detail = code === 'UND_ERR_SOCKET' ? 'the connection was closed before the whole response arrived' : `the connection failed (${code || message})`;
  return new ConnectionError(`${f.what}: ${detail} (${f.baseUrl}${via})`, false,
    f.safe ? 'the network or the server dropped the connection; try again (reads are retried, see --retries)' : `the request may have reached the service and taken effect: check before repeating it`);
}
