import { describe, expect, it } from 'vitest';
import { errorCode, networkError } from '../../../src/http/network-error.js';
import { ConnectionError, TimeoutError } from '../../../src/http/api-errors.js';
import { isRetryable } from '../../../src/http/retry.js';

const f = { what: 'issues/search', baseUrl: 'https://api.example.com', timeoutSec: 30, safe: true };
const err = (code: string, message = code) => Object.assign(new Error(message), { code });

describe('errorCode', () => {
  it('looks through undici socket errors to their cause', () => {
    expect(errorCode(err('ECONNREFUSED'))).toBe('ECONNREFUSED');
    expect(errorCode(Object.assign(err('UND_ERR_SOCKET'), { cause: { code: 'ECONNRESET' } }))).toBe('ECONNRESET');
    expect(errorCode(err('UND_ERR_SOCKET'))).toBe('UND_ERR_SOCKET');
    expect(errorCode('text')).toBe('');
  });
});

describe('networkError', () => {
  it.each([
    ['ECONNREFUSED', ConnectionError, true, /cannot reach https:\/\/api\.example\.com \(ECONNREFUSED\)/],
    ['ENOTFOUND', ConnectionError, true, /cannot reach/],
    ['EAI_AGAIN', ConnectionError, true, /cannot reach/],
    ['ECONNRESET', ConnectionError, false, /the connection failed \(ECONNRESET\)/],
    ['UND_ERR_SOCKET', ConnectionError, false, /closed before the whole response arrived/],
    ['UND_ERR_CONNECT_TIMEOUT', TimeoutError, true, /could not connect to https:\/\/api\.example\.com within 10 s \(connect limit: --timeout, at most 10 s\)/],
    ['UND_ERR_HEADERS_TIMEOUT', TimeoutError, false, /no response from https:\/\/api\.example\.com within 30 s \(--timeout 30\)/],
    ['UND_ERR_BODY_TIMEOUT', TimeoutError, false, /did not arrive within 30 s \(--timeout 30\)/],
  ])('%s', (code, cls, neverSent, message) => {
    const e = networkError(err(code), f);
    expect(e).toBeInstanceOf(cls);
    expect(e.exitCode).toBe(6);
    expect(e.message).toMatch(message);
    if (e instanceof ConnectionError) expect(e.neverSent).toBe(neverSent);
    if (e instanceof TimeoutError) expect(isRetryable(e, false)).toBe(neverSent);
  });

  it.each([
    ['SELF_SIGNED_CERT_IN_CHAIN', /not trusted/, /NODE_EXTRA_CA_CERTS/],
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', /not trusted/, /NODE_EXTRA_CA_CERTS/],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', /not trusted/, /NODE_EXTRA_CA_CERTS/],
    ['UNABLE_TO_GET_ISSUER_CERT_LOCALLY', /not trusted/, /NODE_EXTRA_CA_CERTS/],
    ['ERR_TLS_CERT_ALTNAME_INVALID', /for another host name/, /host in the base URL/],
    ['CERT_HAS_EXPIRED', /expired or not yet valid/, /clock/],
    ['ERR_SSL_WRONG_VERSION_NUMBER', /TLS failure/, /not speak TLS/],
  ])('TLS %s: exit 6, clear, never retried', (code, message, hint) => {
    const e = networkError(err(code), f) as ConnectionError;
    expect(e.message).toMatch(/TLS failure talking to https:\/\/api\.example\.com/);
    expect(e.message).toMatch(message);
    expect(e.hint).toMatch(hint);
    expect(e.hint).not.toMatch(/REJECT_UNAUTHORIZED/);
    expect(e.permanent).toBe(true);
    expect(isRetryable(e, true)).toBe(false);
  });

  it('names the proxy (without its password) when one is in the way', () => {
    const p = { ...f, proxy: 'http://bob:hunter22@proxy.corp:3128' };
    const refused = networkError(err('ECONNREFUSED'), p);
    expect(refused.message).toBe('issues/search: cannot reach the proxy http://proxy.corp:3128 (for https://api.example.com) (ECONNREFUSED)');
    const auth = networkError(new Error('Proxy response (407) !== 200 when HTTP Tunneling'), p) as ConnectionError;
    expect(auth.message).toMatch(/the proxy http:\/\/proxy\.corp:3128 refused to connect to https:\/\/api\.example\.com \(HTTP 407\)/);
    expect(auth.hint).toMatch(/credentials/);
    expect(auth.permanent).toBe(true);
    const bad = networkError(new Error('Proxy response (502) !== 200 when HTTP Tunneling'), p) as ConnectionError;
    expect(bad.permanent).toBe(false);
    expect(bad.neverSent).toBe(true);
    for (const e of [refused, auth, bad]) expect(`${e.message} ${e.hint}`).not.toContain('hunter22');
  });

  it('tells a mutation that it may have taken effect', () => {
    const e = networkError(err('UND_ERR_HEADERS_TIMEOUT'), { ...f, safe: false });
    expect(e.hint).toMatch(/may still have taken effect: check before repeating it/);
    const r = networkError(err('ECONNRESET'), { ...f, safe: false });
    expect(r.hint).toMatch(/may have reached the service/);
  });
});
