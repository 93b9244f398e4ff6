import { describe, expect, it } from 'vitest';
import { REDACTED, redactBody, redactHeaders, redactUrl, scrub, truncate, useJsonForms } from '../../../src/http/redact.js';
import { jsonForms } from '../../../src/core/json-escapes.js';

describe('redactHeaders', () => {
  it('hides both token headers, cookies and authorization, whatever the case', () => {
    const h = redactHeaders({
      'X-Service-API-Token-Id': 'id-1', 'x-service-api-token-secret': 's3cr3t', Authorization: 'Bearer x',
      'set-cookie': 'a=b', 'proxy-authorization': 'Basic x', 'content-type': 'application/json', 'content-length': 12,
    });
    expect(h).toEqual({
      'X-Service-API-Token-Id': REDACTED, 'x-service-api-token-secret': REDACTED, Authorization: REDACTED,
      'set-cookie': REDACTED, 'proxy-authorization': REDACTED, 'content-type': 'application/json', 'content-length': '12',
    });
  });

  it('drops the userinfo of every URL a header holds (a redirect\'s Location, a Link), a password with @ too', () => {
    const h = redactHeaders({
      location: 'http://user:pw@127.0.0.1:8080/api/v1/issues/search2',
      link: '<https://u:p@ss@api.example/x?page=2>; rel="next", <https://api.example/x?page=9>; rel="last"',
      'content-location': 'https://api.example/a@b',
    });
    expect(h).toEqual({
      location: 'http://127.0.0.1:8080/api/v1/issues/search2',
      link: '<https://api.example/x?page=2>; rel="next", <https://api.example/x?page=9>; rel="last"',
      'content-location': 'https://api.example/a@b',
    });
  });
});

describe('redactBody', () => {
  it('hides credential-like fields at any depth and keeps the rest', () => {
    const body = {
      organizationId: 'org_1', pat: 'ghp_x', accessToken: 'tok', repos: [{ repositoryUrl: 'u', webhookSigningSecret: 'w' }],
      password: 'p', isPrScanningEnabled: true, tokenCount: null, nested: { apiKey: 'k', name: 'n' },
    };
    expect(redactBody(body)).toEqual({
      organizationId: 'org_1', pat: REDACTED, accessToken: REDACTED, repos: [{ repositoryUrl: 'u', webhookSigningSecret: REDACTED }],
      password: REDACTED, isPrScanningEnabled: true, tokenCount: null, nested: { apiKey: REDACTED, name: 'n' },
    });
    expect(body.pat).toBe('ghp_x');
  });
});

describe('redactUrl', () => {
  it('drops a user name and password', () => {
    expect(redactUrl('http://user:pa55@proxy.local:3128')).toBe('http://proxy.local:3128');
    expect(redactUrl('http://proxy.local:3128')).toBe('http://proxy.local:3128');
    expect(redactUrl('not a url user:pw@host')).not.toContain('pw@');
    expect(redactUrl('//u:p@x')).toBe('//x');
  });
});

describe('scrub', () => {
  const secret = 'S3cr3t/+"value';
  it('removes the secret in plain, JSON-escaped and percent-encoded forms', () => {
    const text = `a ${secret} b ${JSON.stringify(secret)} c ${encodeURIComponent(secret)}`;
    const out = scrub(text, [secret]);
    expect(out).not.toContain(secret);
    expect(out).not.toContain(JSON.stringify(secret).slice(1, -1));
    expect(out).not.toContain(encodeURIComponent(secret));
    expect(out.split(REDACTED)).toHaveLength(4);
  });
  it('removes it as any JSON serializer may escape it (a slash as \\/, & as \\u0026, hex in either case), and leaves JSON it rewrites valid', () => {
    // (Once the client has loaded those forms for an answer that may echo the secret so: http/client.ts.)
    useJsonForms(jsonForms);
    const json = String.raw`{"php":"S3cr3t\/+\"value","go":"S3cr3t\u002F\u002b\u0022value"}`;
    expect(JSON.parse(json)).toEqual({ php: secret, go: secret });
    expect(JSON.parse(scrub(json, [secret]))).toEqual({ php: REDACTED, go: REDACTED });
    // A backslash written as \\ before the text u0026 is no escape: it is not the secret '&abcd'.
    const text = String.raw`{"a":"x\\u0026abcd"}`;
    expect(JSON.parse(text).a).toBe(String.raw`x\u0026abcd`);
    expect(scrub(text, ['&abcd'])).toBe(text);
  });
  it('removes it percent-encoded with lower-case hex (%2f, as .NET writes it) too', () => {
    const lower = encodeURIComponent(secret).replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase());
    expect(lower).not.toBe(encodeURIComponent(secret));
    expect(scrub(`a ${lower} b`, [secret])).toBe(`a ${REDACTED} b`);
  });
  it('ignores empty and very short values (they would eat ordinary text)', () => {
    expect(scrub('abc', [undefined, '', 'ab'])).toBe('abc');
  });
});

describe('truncate', () => {
  it('cuts long bodies and says how much is left', () => {
    expect(truncate('abc', 10)).toBe('abc');
    expect(truncate('x'.repeat(15), 10)).toBe(`${'x'.repeat(10)}... (5 more characters)`);
  });
});
