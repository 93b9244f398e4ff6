import { describe, expect, it } from 'vitest';
import { assertSafeTransport, baseString, isLoopback, parseBaseUrl } from '../../../src/http/base-url.js';
import { UsageError } from '../../../src/core/errors.js';

describe('parseBaseUrl', () => {
  it('accepts https and http URLs with an optional path prefix', () => {
    expect(baseString(parseBaseUrl('https://api.example.com/', 'x'))).toBe('https://api.example.com');
    expect(baseString(parseBaseUrl(' http://127.0.0.1:8080/prefix/ ', 'x'))).toBe('http://127.0.0.1:8080/prefix');
  });
  it.each([
    ['api.example.com', /invalid base URL/],
    ['', /invalid base URL/],
    ['ftp://example.com', /unsupported base URL scheme 'ftp:'/],
    ['file:///etc/passwd', /unsupported base URL scheme/],
    ['javascript:alert(1)', /unsupported base URL scheme/],
    ['https://user:pw@example.com', /must not carry a user name or password/],
    ['https://example.com/?a=1', /must not have a query or fragment/],
    ['https://example.com/#x', /must not have a query or fragment/],
  ])('refuses %s', (raw, why) => {
    expect(() => parseBaseUrl(raw, '--base-url')).toThrow(why);
    expect(() => parseBaseUrl(raw, '--base-url')).toThrow(UsageError);
  });
  it('never repeats a password it refuses', () => {
    try { parseBaseUrl('https://user:hunter22@exa mple.com', 'x'); } catch (e) { expect((e as Error).message).not.toContain('hunter22'); }
  });
});

describe('isLoopback', () => {
  it.each(['127.0.0.1', '127.1.2.3', 'localhost', 'LOCALHOST', 'api.localhost', '[::1]', '::1'])('%s is this machine', (h) => expect(isLoopback(h)).toBe(true));
  it.each(['example.com', '10.0.0.1', '128.0.0.1', '127.0.0.1.evil.com', 'localhost.evil.com', '[::2]', '0.0.0.0'])('%s is not', (h) => expect(isLoopback(h)).toBe(false));
});

describe('assertSafeTransport', () => {
  const ok = (u: string, proxy?: string) => expect(() => assertSafeTransport(new URL(u), 'x', proxy)).not.toThrow();
  const refused = (u: string, why: RegExp, proxy?: string) => expect(() => assertSafeTransport(new URL(u), 'x', proxy)).toThrow(why);
  it('allows https anywhere and http to loopback', () => {
    ok('https://api.example.com');
    ok('https://api.example.com', 'http://proxy.corp:3128');
    ok('http://127.0.0.1:9');
    ok('http://localhost:9');
    ok('http://[::1]:9');
  });
  it('refuses tokens in clear text to another machine', () => {
    refused('http://api.example.com', /plain http:\/\/ to api\.example\.com/);
    refused('http://10.1.2.3:8080', /plain http:\/\//);
  });
  it('refuses tokens in clear text through a proxy on another machine, naming it without its password', () => {
    refused('http://127.0.0.1:9', /through the proxy http:\/\/proxy\.corp:3128/, 'http://u:pw@proxy.corp:3128');
    try { assertSafeTransport(new URL('http://127.0.0.1:9'), 'x', 'http://u:pw@proxy.corp:3128'); } catch (e) {
      expect((e as UsageError).message).not.toContain('pw');
      expect((e as UsageError).hint).toMatch(/NO_PROXY/);
    }
    ok('http://127.0.0.1:9', 'http://127.0.0.1:3128');
  });
});
